"""What a typical move costs a person (issue 34), counted as the input
benchmark counts it: the fewest taps and presses that make the move on the
reference table's screens (bench.bench_input.cheapest), from a seeded game
played up to a move of the kind asked about."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import rules
from bench import bench_input as b
from pi_app.session.input_map import InputMap
from pi_app.session.scene import Scene
from pi_app.store.journal import GameRecord
from pi_app.table import profile as profiles
from rules.core import Move


def scene_at(game_id: str, players: int, seed: int, until: Callable[[Any], bool],
             options: dict[str, Any] | None = None) -> tuple[Scene, InputMap]:
    """A game on the reference table, its moves the first legal ones (chance
    drawn), up to a state ``until`` accepts with a person to move."""
    state = rules.get(game_id).new_game(players, seed, options or {})
    record = GameRecord(0, game_id, players, seed, state.options, False)
    scene = Scene(profiles.load(b.PROFILES["reference"]), record, state, "en")
    imap = InputMap(scene, b.Names(game_id), b.Probe())  # type: ignore[arg-type]
    live = b.Live(scene)
    imap.commit = live  # type: ignore[assignment]
    for _ in range(500):
        st = scene.state
        if st.is_chance():
            live.play(None, st.sample_chance())
        elif until(st):
            return scene, imap
        else:
            seat = st.to_move()
            live.play(seat, st.legal_moves()[0])
    raise AssertionError("no such state within 500 moves")


def costs(scene: Scene, imap: InputMap, keep: Callable[[Move], bool]) -> list[int]:
    """The inputs each of the legal moves ``keep`` picks costs now."""
    seat = scene.state.to_move()
    out = []
    for move in scene.state.legal_moves():
        if keep(move):
            path = b.cheapest(scene, imap, seat, move)
            assert path is not None, move
            out.append(len(path))
    return out


def test_an_artus_knight_is_placed_in_a_quarter_of_the_table_then_a_place_in_it():
    """Before: one of up to 28 free places stepped through with ◀ ▶ (13
    inputs for the farthest); now the quarter between two crowns, then the
    place: at most 7."""
    scene, imap = scene_at("artus", 2, 0, lambda st: st.view(None)["phase"] == "place")
    placing = costs(scene, imap, lambda m: m.to_json()["type"] == "place")
    assert len(placing) > 20
    assert max(placing) <= 7
    cursor = scene.cursor_for(scene.state.to_move())
    assert cursor.field() == "seat/group"
    words = scene.adapter.value_label(cursor.field(), cursor.current().value, "en")
    assert words.startswith("Places 0 to 6"), words
