"""Play Siege on the simulated table, input by input: drawn cards tapped on
the drawer's pad, dice entered with the buttons (or both drawn by
Tablekeeper), and after every input a check that no hand shows on a screen
it must not."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable

from pi_app.games.siege.adapter import HAND_DRAWS
from pi_app.games.siege.words import card_name, hand_text
from pi_app.simulated.autoplay import button_toward
from pi_app.ui.menu import Cursor
from rules.core import CHANCE, Move
from rules.siege.constants import SUPPLY
from rules.siege.data import CARDS

#: called after every move with the rig (a test's watch on the game)
Watch = Callable[[object], None]


#: a little taste: keep cards (food above all) rather than discard them,
#: and do something before ending a phase, so that games see feeding days
WEIGHTS = {"discard": 0.2, "end_phase": 0.4}


def choose(session, rng: random.Random) -> Move:
    moves = session.scene.state.legal_moves()
    # A card's places in its row are one choice, not one each: weigh them
    # together, so that a row's length does not tilt the game toward plays.
    places = Counter(_without_place(m) for m in moves)
    weights = [WEIGHTS.get(m.to_json()["type"], 1.0) / places[_without_place(m)] for m in moves]
    return rng.choices(moves, weights=weights, k=1)[0]


def _without_place(move: Move) -> str:
    data = move.to_json()
    data.pop("at", None)
    return json.dumps(data, sort_keys=True)


def check_screens(rig) -> None:
    """Each hand (and each seat's newly drawn card) on its owner's screen only."""
    s = rig.session
    layouts = s.layouts()
    hands = {p: hand_text(s.scene.state.view(p)["hand"], s.scene.lang) for p in range(2)}
    for p, hand in hands.items():
        others = [layouts["shared.screen"]] + [layouts[f"seat{q + 1}.screen"] for q in range(2) if q != p]
        for lay in others:
            # (a hand of one card reads as that card's name, which public menus show too)
            if hand and hand != hands[1 - p] and len(s.scene.state.view(p)["hand"]) > 1:
                assert hand not in (lay.big, *lay.lines), (p, hand, lay)
                assert not any(line.endswith(f": {hand}") for line in lay.lines), (p, hand, lay)
        new = s.scene.adapter.drawn.get(p)
        if new is not None and new != s.scene.adapter.drawn.get(1 - p):
            fresh = "new card" if s.scene.lang == "en" else "carta nuova"
            mark = f"{fresh}: {card_name(new, s.scene.lang)}".lower()
            for lay in others:
                assert not any(mark in line.lower() for line in (lay.title, *lay.lines)), (p, new, lay)


def enter_chance(rig, move: Move) -> int:
    """A die (or a public card) entered on the shared screen's menu with the
    buttons of the seat whose turn it is; returns the presses used."""
    s = rig.session
    seat = s.scene.state.view(None)["seat"]
    n, presses = len(s.scene.state.history), 0
    while len(s.scene.state.history) == n:
        cursor = s.scene.chance_cursor or Cursor.over(s.scene.state.legal_moves())
        rig.press(f"seat{seat + 1}.{button_toward(cursor, move)}")
        presses += 1
        assert presses < 30, "the chance menu is stuck"
    return presses


def step(rig, rng: random.Random, taps: bool = True) -> int:
    """One move the way players make it; returns the inputs used."""
    s = rig.session
    seat = s.scene.state.to_move()
    if seat == CHANCE:
        view = s.scene.state.view(None)
        move = s.scene.state.sample_chance()
        if view["phase"] in HAND_DRAWS:  # the drawer taps the card drawn
            drawer = view["seat"]
            card = move.to_json()["card"]
            rig.tap(drawer, f"{card}@{drawer + 1}")
            check_screens(rig)
            if CARDS[card].kind != "event" and card not in SUPPLY:  # food is named by every reminder
                name = card_name(card, s.scene.lang)
                said = [rec.text for rec in s.scene.transcript if rec.kind == "said"][-1]
                assert name not in said and name not in s.layouts()["shared.screen"].text(), (card, said)
            return 1
        used = enter_chance(rig, move)
        check_screens(rig)
        return used
    return rig.make(seat, choose(s, rng), taps=taps, after=check_screens)


def make(rig, move: Move, taps: bool = True) -> int:
    """Play ``move`` for the seat to move the way a player would (taps where
    a card names it, else the buttons); returns the inputs used."""
    s = rig.session
    seat = s.scene.state.to_move()
    assert seat is not None and seat >= 0 and move in s.scene.state.legal_moves(), (seat, move)
    return rig.make(seat, move, taps=taps, after=check_screens)


def play_moves(rig, rng: random.Random, count: int | None = None, until: Callable[[], bool] | None = None,
               watch: Watch | None = None) -> int:
    """Play ``count`` moves, or until ``until()`` holds, or to the end."""
    s = rig.session
    inputs = played = 0
    while s.scene.state.outcome() is None and (count is None or played < count) and not (until and until()):
        inputs += step(rig, rng, taps=rng.random() < 0.7)
        played += 1
        if watch is not None:
            watch(rig)
    return inputs
