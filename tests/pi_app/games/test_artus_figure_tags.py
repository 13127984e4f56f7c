"""Each Artus Prince and Knight has a tag of its own: a tap names that
figure, wherever the moves took it, after an undo and in a resumed game
(issue 34)."""

from __future__ import annotations

import random

import pytest

import rules
from pi_app.games.artus.adapter import ArtusAdapter
from pi_app.games.artus.figures import Figures, prince_ids
from rules.artus.data import DATA
from rules.core import Event, Move
from tests.pi_app.artus_play import step

GAME = "artus"
pytestmark = pytest.mark.skipif(GAME not in rules.GAMES, reason="Artus engine not registered")


def test_each_prince_is_enrolled_on_its_own_in_whole_words():
    adapter = ArtusAdapter(2)
    princes = [c for c in adapter.components() if c.kind == "prince"]
    assert sorted(c.id for c in princes) == sorted(t for t, *_ in prince_ids())
    assert len(princes) == len(DATA.start_princes) and all(c.count == 1 for c in princes)
    names = {adapter.enroll_prompt(c, "en") for c in princes}
    assert "the first silver prince (it starts on place 0, as the King)" in names
    italian = {adapter.enroll_prompt(c, "it") for c in princes}
    assert "il secondo principe bronzo (all'inizio sul posto 21)" in italian
    for c in princes:
        assert ":" not in c.name("en") + c.name("it") + adapter.enroll_prompt(c, "en")


def test_a_prince_landing_on_another_takes_its_place_and_bumps_it():
    princes = Figures()
    first, second = princes.at[0], princes.at[14]
    moved = Event("figure_moved", {"figure": "king", "colour": "silver", "from": 0, "to": 14})
    bumped = Event("displaced", {"figure": "prince", "colour": "silver", "from": 14, "to": 13})
    princes.note(10, 1, [moved, bumped])
    assert princes.at[14] == first and princes.at[13] == second and 0 not in princes.at
    princes.note(10, 1, [moved, bumped])  # the same move noted again (its words): nothing changes
    assert princes.at[14] == first and princes.at[13] == second


def _figure_move(state, kind: str) -> Move | None:
    figures = state.view(None)["figures"]
    for m in state.legal_moves():
        data = m.to_json()
        if data.get("do") == "move" and (figures[data["seat"]] in ("silver", "bronze")) == (kind == "prince"):
            return m
    return None


def _tapped(session, tag: str) -> set[int]:
    """The places of the moves a tap of ``tag`` leaves in the menu now."""
    sc = session.scene
    adapter = sc.adapter
    seat = sc.state.to_move()
    moves = adapter.tap(sc.state, seat, adapter.component(tag), sc.state.legal_moves(), None)
    return {m.to_json()["seat"] for m in moves}


@pytest.mark.parametrize("kind", ["prince", "knight"])
def test_a_figure_tag_follows_its_figure_through_move_undo_and_resume(rig, kind):
    r = rig(2)
    s = r.open(GAME, seed=3)
    rng = random.Random(3)
    target = None
    for _ in range(400):
        if s.scene.state.to_move() not in (None, -1) and (target := _figure_move(s.scene.state, kind)):
            break
        step(r, rng)
    assert target is not None
    src, steps = target.to_json()["seat"], target.to_json()["steps"]
    dst = (src + steps) % DATA.seats
    tag = s.scene.adapter.figures.at[src]
    assert tag.startswith(f"{kind}:")
    assert _tapped(s, tag) <= {src}  # its tap leaves only this figure's moves
    seat = s.scene.state.to_move()
    r.make(seat, target)
    assert s.scene.adapter.figures.at[dst] == tag
    if s.scene.state.to_move() not in (None, -1) and s.scene.state.view(None)["phase"] == "play":
        assert _tapped(s, tag) <= {dst}
    # undo: the figure is back where it was, and so is its tag
    r.press("shared.undo")
    r.press("shared.undo")
    assert s.scene.state.view(None)["figures"][src] is not None
    assert s.scene.adapter.figures.at[src] == tag
    assert _tapped(s, tag) == {src}
    r.make(seat, target)
    places = dict(s.scene.adapter.figures.at)
    # resumed: the journal's moves put every tag where it was
    r.close()
    again = r.open(GAME)
    assert again.resumed
    assert again.scene.adapter.figures.at == places and places[dst] == tag


def test_a_table_enrolled_with_a_tag_per_colour_still_picks_that_colour():
    adapter = ArtusAdapter(2)
    comp = adapter.component("prince:silver")
    assert comp is not None and comp.kind == "prince" and comp.name("en") == "silver prince"
    assert comp not in adapter.components()  # enrolment asks for a tag per figure


def test_knights_are_placed_in_their_numbers_order_and_the_screens_say_which(rig):
    r = rig(2)
    s = r.open(GAME, seed=4)
    rng = random.Random(4)
    while s.scene.state.view(None)["phase"] != "place":
        step(r, rng)
    seat = s.scene.state.to_move()
    assert s.layouts()[f"seat{seat + 1}.screen"].title == "Place knight 1 (5 left)"
    view = s.scene.state.view(None)
    step(r, rng)
    place = next(p for p, f in enumerate(s.scene.state.view(None)["figures"]) if f != view["figures"][p])
    assert s.scene.adapter.figures.at[place] == f"knight:{seat + 1}:1"
    said = [" ".join(rec.extra["lines"]) for rec in s.scene.transcript if rec.kind == "said"]
    assert f"Player {seat + 1}: knight 1 on place {place}" in " ".join(said), said[-3:]
    while s.scene.state.to_move() != seat:
        step(r, rng)
    screen = f"seat{seat + 1}.screen"
    assert s.layouts()[screen].title == "Place knight 2 (4 left)"
    # a Knight's tap while Knights are placed: refused, the placing rule in words
    r.tap(seat, f"knight:{seat + 1}:2")
    lay = s.layouts()[screen]
    assert lay.alert and "knight:" not in lay.text(), lay


def test_a_knight_is_enrolled_in_whole_words_with_its_number():
    adapter = ArtusAdapter(3)
    knights = [c for c in adapter.components() if c.kind == "knight"]
    assert len(knights) == 3 * (DATA.knights[3] - DATA.knights_on_score_track)
    comp = adapter.component("knight:2:3")
    assert comp is not None and comp.seat == 1
    assert adapter.enroll_prompt(comp, "en") == "the knight 3 of Player 2 (write 3 under the figure)"
    assert adapter.enroll_prompt(comp, "it") == "il cavaliere 3 del Giocatore 2 (scrivi 3 sotto la figura)"
