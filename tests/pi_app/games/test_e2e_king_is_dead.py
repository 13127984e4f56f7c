"""Whole games of The King is Dead through the simulated table: taps on the
simulated pads, presses on gpiozero mock pins; layouts, frames (luma dummy
devices) and light pins checked."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import textwrap

import pytest

import rules
from pi_app.ui.screens import render
from tests.pi_app.kid_play import play_moves
from tests.pi_app.table_checks import assert_refused, layout, pin_lit

GAME = "king-is-dead"
pytestmark = pytest.mark.skipif(GAME not in rules.GAMES, reason="The King is Dead engine not registered")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_whole_game_with_refusals(rig, players):
    r = rig(players)
    s = r.open(GAME)
    rng = random.Random(players)
    # Setup was drawn by Tablekeeper (sim profile): the table is told what to set out.
    assert s.scene.state.to_move() == 0
    assert any("Region cards:" in rec.text for rec in s.scene.transcript if rec.kind == "said")
    assert pin_lit(r, 0) and not any(pin_lit(r, i) for i in range(1, players))
    # Out of turn: seat 2 taps its own Crown card.
    assert_refused(r, 1, lambda: r.tap(1, "crown@2"), contains="turn")
    # Another seat's card on seat 1's pad.
    assert_refused(r, 0, lambda: r.tap(0, "garrison@2"), contains="belongs to Player 2")
    # An unknown tag: reported, never guessed.
    assert_refused(r, 0, lambda: r.tap_uid(0, "04AABBCCDDEEFF"), contains="04AABBCCDDEEFF")
    # Seat 1 plays its Crown by tapping it, then finishes the action.
    r.tap(0, "crown@1")
    assert s.scene.state.view(None)["pending"]["card"] == "crown"
    play_moves(r, rng, count=1)
    while s.scene.state.to_move() == 0:
        play_moves(r, rng, count=1)
    # Back to seat 1 later: its Crown is used; the engine's refusal with its rule.
    while s.scene.state.to_move() != 0 or s.scene.state.view(None)["step"] != "turn":
        play_moves(r, rng, count=1)
    assert_refused(r, 0, lambda: r.tap(0, "crown@1"), contains="Rule: ")
    play_moves(r, rng)
    outcome = s.scene.state.outcome()
    assert outcome is not None
    shared = layout(s, "shared.screen")
    assert shared.title == "GAME OVER" and ("Winner" in shared.big)
    assert s.journal.current() is None
    for seat in s.scene.flash_until:  # let any refusal's flash run out
        s.scene.flash_until[seat] = 0.0
    s.tick()
    for seat in range(players):
        assert pin_lit(r, seat) == (seat in outcome.winners)
    assert r.table.frames("shared.screen")[-1].tobytes() == render(shared).tobytes()


def test_restart_mid_game_resumes_and_undo(rig):
    r = rig(3)
    s = r.open(GAME)
    rng = random.Random(7)
    play_moves(r, rng, count=25)
    state = s.scene.state.to_json()
    layouts = s.layouts()
    s2 = r.open()  # a fresh table and journal connection: resumes
    assert s2.scene.state.to_json() == state
    for i in range(3):  # every seat sees what it saw before the restart
        assert s2.layouts()[f"seat{i + 1}.screen"] == layouts[f"seat{i + 1}.screen"]
    assert (s2.scene.adapter.public_lines(s2.scene.state, "en")
            == s.scene.adapter.public_lines(s.scene.state, "en"))
    seat = s2.scene.state.to_move()
    assert pin_lit(r, seat)
    # Undo the next move, with its confirmation.
    before = s2.scene.state.to_json()
    play_moves(r, rng, count=1)
    assert s2.scene.state.to_json() != before
    r.press("shared.undo")
    shared = layout(s2, "shared.screen")
    assert shared.title == "UNDO?" and shared.alert
    r.press("shared.undo")
    assert s2.scene.state.to_json() == before
    assert "Undone" in layout(s2, "shared.screen").big
    # and the game plays on to its end after the undo
    play_moves(r, rng)
    assert s2.scene.state.outcome() is not None


def test_undo_never_crosses_the_setup_draws(rig):
    r = rig(2)
    s = r.open(GAME)
    before = s.scene.state.to_json()
    r.press("shared.undo")
    assert "Cannot undo past a chance step" in layout(s, "shared.screen").title
    r.press("shared.undo")
    assert s.scene.state.to_json() == before


def test_italian_table(rig):
    r = rig(2)
    s = r.open(GAME, lang="it")
    assert layout(s, "seat1.screen").title.startswith("Tocca a te")
    r.tap(1, "crown@2")
    assert "Turno: Giocatore 1, non Giocatore 2" in layout(s, "seat2.screen").text()
    r.press("seat2.ok")
    r.tap(0, "garrison@1")
    assert "Garrison" not in layout(s, "shared.screen").text()
    assert "Guarnigione" in layout(s, "shared.screen").text()


def test_killed_process_resumes_exactly(tmp_path):
    """A power cut: the process dies with SIGKILL mid-game; a new one resumes."""
    script = textwrap.dedent(f"""
        import json, os, random, signal, sys
        from pathlib import Path
        sys.path.insert(0, {os.getcwd()!r})
        from tests.pi_app.conftest import Rig
        from tests.pi_app.kid_play import play_moves
        r = Rig(Path({str(tmp_path)!r}), 4)
        r.open({GAME!r})
        play_moves(r, random.Random(3), count=40)
        Path({str(tmp_path / "state.json")!r}).write_text(json.dumps(r.session.scene.state.to_json()))
        os.kill(os.getpid(), signal.SIGKILL)
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert proc.returncode == -9, proc.stderr
    from tests.pi_app.conftest import Rig

    with Rig(tmp_path, 4) as r:
        s = r.open()
        assert s.scene.state.to_json() == json.loads((tmp_path / "state.json").read_text())


def test_setup_read_in_at_the_table_by_tapping_cubes(rig):
    import dataclasses

    r = rig(2)
    r.profile = dataclasses.replace(r.profile, chance="table")
    s = r.open(GAME)
    assert s.scene.state.is_chance()
    assert layout(s, "shared.screen").title.startswith("Court draw: Player 1")
    draws = 0
    while s.scene.state.view(None)["step"] in ("court", "fill"):
        colour = s.scene.state.sample_chance().to_json()["colour"]
        r.tap(draws % 2, f"follower:{colour}")  # a player draws a cube and taps it
        draws += 1
    assert s.scene.state.view(None)["step"] == "order"
    region = s.scene.state.legal_moves()[0].to_json()["region"]
    r.tap(1, f"region:{region}")  # a region card revealed by tapping it
    assert s.scene.state.view(None)["region_cards"][0]["region"] == region
    assert all(e.chance for e in s.journal.entries(s.scene.record))


def test_followers_put_on_region_readers(rig):
    r = rig(2, table="sim-regions")
    s = r.open(GAME)
    r.tap(0, "garrison@1")
    view = s.scene.state.view(None)
    # the first Garrison pick: a follower taken from a region, put on its reader
    take = next(m.to_json() for m in s.scene.state.legal_moves())
    r.tap_zone(take["region"], f"follower:{take['colour']}")
    picks = s.scene.state.view(None)["pending"]["picks"]
    assert picks == [take], (view["pending"], picks)


def test_a_follower_on_the_wrong_region_is_refused_with_the_rule(rig):
    r = rig(2, table="sim-regions")
    s = r.open(GAME)
    r.tap(0, "garrison@1")
    take = s.scene.state.legal_moves()[0].to_json()
    r.tap_zone(take["region"], f"follower:{take['colour']}")
    before = s.scene.state.to_json()
    other = next(z.name for z in r.profile.zones if z.name != take["region"])
    r.tap_zone(other, f"follower:{take['colour']}")
    lay = layout(s, "seat1.screen")
    assert lay.alert and "Rule: Garrison" in lay.lines
    assert s.scene.state.to_json() == before


def test_every_instruction_of_a_move_reaches_the_shared_screen(rig):
    """The daemon pages the shared screen's big line through what a move
    asks of the table: a Crown's swap is not hidden behind its crown token."""
    r = rig(2)
    s = r.open(GAME)
    s.scene.page_seconds = 0.001
    r.tap(0, "crown@1")
    while s.scene.state.view(None)["step"] == "action":
        r.press("seat1.ok")
        r.press("seat1.ok")
    said = s.scene.log
    assert len(said) == 2 and said[0].startswith("Swap the ") and said[1].startswith("Crown token on ")
    shown = set()
    for _ in said:
        shown.add(layout(s, "shared.screen").big)
        s.scene.page_at = 0.0
        s.tick()
    assert shown == set(said)
