"""A game resumed from its journal (after a power cut, or a restart) shows
every screen as it was: the seat screens with the card each seat drew last
marked new, and the shared screen with what the table was last told to do.
The state alone is not enough: the adapters remember the latest draws, and
the instructions are said once, after a move."""

from __future__ import annotations

import random

import pytest

import rules
from pi_app import games
from pi_app.simulated.autoplay import choose
from pi_app.ui.screens import Layout

GAMES = [g for g in rules.GAMES if g in games.ADAPTERS]
MOVES = 60
EVERY = 7  # moves between restarts


def screens(layouts: dict[str, Layout]) -> dict[str, tuple[str, str, tuple[str, ...]]]:
    return {name: (lay.title, lay.big, lay.lines) for name, lay in layouts.items()}


@pytest.mark.parametrize("game", GAMES)
def test_a_restart_shows_every_screen_as_before(rig, game: str) -> None:
    players = max(rules.get(game).player_counts)
    r = rig(players)
    s = r.open(game, seed=5)
    rng = random.Random(f"resume/{game}")
    restarts = 0
    for n in range(1, MOVES + 1):
        if s.scene.state.outcome() is not None:
            break
        r.make(s.scene.state.to_move(), choose(s, rng))
        if n % EVERY:
            continue
        before, state = screens(s.layouts()), s.scene.state.to_json()
        s = r.open()  # a fresh table and journal connection resume the game
        assert s.scene.state.to_json() == state
        assert screens(s.layouts()) == before, f"{game} after move {n}"
        restarts += 1
    assert restarts >= 3


def test_after_an_undo_the_new_card_is_still_marked(rig) -> None:
    """Siege: a seat's newest card is told on its screen; undoing a later
    move of the other side keeps the mark, as the journal still holds the draw."""
    r = rig(2)
    s = r.open("siege", seed=2)
    rng = random.Random(3)
    marked = None
    for _ in range(200):
        if s.scene.state.outcome() is not None:
            break
        seat = s.scene.state.to_move()
        r.make(seat, choose(s, rng))
        now = screens(s.layouts())
        lines = [" ".join(now[s.scene.profile.seats[i].screen.name][2]) for i in range(2)]
        marked = next((i for i in range(2) if "new " in lines[i]), None)
        if marked is not None and s.scene.state.to_move() != marked:
            break
    assert marked is not None, "no seat was told of a new card"
    name = s.scene.profile.seats[marked].screen.name
    before = screens(s.layouts())[name]
    other = s.scene.state.to_move()
    n = len(s.scene.state.history)
    r.make(other, choose(s, rng))
    assert not s.journal.entries(s.scene.record)[-1].barrier, \
        "the move drew a card: pick seeds where it does not"
    r.press("shared.undo")
    r.press("shared.undo")
    assert len(s.scene.state.history) == n
    assert screens(s.layouts())[name] == before
