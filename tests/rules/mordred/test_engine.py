"""The engine as a whole: notation, the check/legal invariant, views, JSON, player counts, bounds."""

from __future__ import annotations

import itertools
import json
import random
import time

import pytest

import rules
from rules.core import IllegalMove
from rules.mordred import GAME
from rules.mordred.game import move_bound
from rules.mordred.moves import Attack, Build, Declare, Die, EndTurn, Place, Roll
from rules.mordred.state import ROUND_LIMIT, MordredState
from rules.mordred.tables import BUILDINGS, TABLES
from tests.rules.conformance import play as conformance_play

from .helpers import fresh, play


def test_registered() -> None:
    assert rules.get("mordred") is GAME
    assert GAME.player_counts == (3, 4)
    assert GAME.perfect_information


@pytest.mark.parametrize(
    "move",
    [
        Declare("A"),
        Declare(None),
        Roll((2, 5)),
        Place("Bangor"),
        Die(4),
        Build("small_castle", "Flint"),
        Attack("Flint", "Wrexham"),
        EndTurn(),
    ],
)
def test_notation_round_trips(move: object) -> None:
    data = move.to_json()  # type: ignore[attr-defined]
    assert GAME.move_from_json(json.loads(json.dumps(data))) == move


def test_roll_notation_gives_each_die_its_field_and_reads_the_older_list() -> None:
    # One field per die: the table's menu then asks die by die (see NOTATION.md).
    assert Roll((2, 5)).to_json() == {"type": "roll", "first": 2, "second": 5}
    assert GAME.move_from_json({"type": "roll", "dice": [2, 5]}) == Roll((2, 5))


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"type": "declare"}, "missing row"),
        ({"type": "declare", "row": 3}, "row"),
        ({"type": "roll", "dice": [1]}, "dice"),
        ({"type": "roll", "first": 1, "second": True}, "second must be an integer"),
        ({"type": "roll", "first": 1}, "missing second"),
        ({"type": "roll", "first": 1, "second": 2, "dice": [1, 2]}, "unknown fields first, second"),
        ({"type": "die", "value": "6"}, "value"),
        ({"type": "build", "building": "town"}, "missing space"),
        ({"type": "attack", "space": "Hay", "from": 3}, "from"),
        ({"type": "end_turn", "now": True}, "unknown fields now"),
        ({"type": "pass"}, "unknown mordred move type"),
        ("end_turn", "JSON object"),
    ],
)
def test_malformed_notation_is_refused_naming_the_problem(data: object, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        GAME.move_from_json(data)


def _superset(s: MordredState) -> list[object]:
    spaces = [*TABLES.spaces, "Nowhere"]
    moves: list[object] = [Declare(r) for r in ("A", "B", "C", "D", None)]
    moves += [Roll(d) for d in itertools.product(range(0, 8), repeat=2)]
    moves += [Die(v) for v in range(0, 8)] + [EndTurn()]
    moves += [Place(p) for p in spaces]
    moves += [Build(b, p) for b in [*BUILDINGS, "hut"] for p in spaces]
    mine = [p for p, (o, _) in s.pieces.items() if o == s.current] + ["Flint", "Nowhere"]
    moves += [Attack(o, p) for o in mine for p in spaces]
    return moves


@pytest.mark.parametrize("seed", range(6))
def test_check_passes_exactly_for_listed_moves(seed: int) -> None:
    rng = random.Random(seed)
    s = fresh(3 + seed % 2, seed)
    step = 0
    while s.to_move() is not None:
        if step % 5 == 0:
            legal = set(s.legal_moves())
            for move in _superset(s):
                try:
                    s.check(move)  # type: ignore[arg-type]
                    ok = True
                except IllegalMove as exc:
                    ok = False
                    assert exc.code.startswith("mordred."), exc.code
                    assert rules.catalogue.has(exc.code)
                assert ok == (move in legal), (move, s.phase)
        s.apply(s.sample_chance() if s.is_chance() else rng.choice(s.legal_moves()))
        step += 1


def test_every_code_has_both_languages() -> None:
    from rules.mordred.messages import MESSAGES

    for code, (en, it) in MESSAGES.items():
        assert code.startswith("mordred.") and en and it


def test_views_are_public_and_say_what_to_decide() -> None:
    s = fresh(4)
    play(s, {"type": "declare", "row": "C"}, {"type": "roll", "first": 2, "second": 5})
    public = s.view(None)
    for seat in range(4):
        assert {**s.view(seat), "seat": None} == public
    assert public["phase"] == "place"
    assert public["prompt"]["decide"] == "place" and public["prompt"]["men_left"] == 2
    assert public["players"][0]["money"] == 8 and public["players"][0]["pawn"] == TABLES.dragon - 2
    assert public["mordred_men"] == [TABLES.anglesey]
    assert public["track"] == {"length": TABLES.track_length, "dragon": TABLES.dragon}
    json.dumps(public)


def test_view_of_a_combat_shows_the_roll_needed() -> None:
    s = fresh()
    s.pieces["Bangor"] = (1, "small_castle")
    play(
        s,
        {"type": "declare", "row": "C"},
        {"type": "roll", "first": 2, "second": 5},
        {"type": "place", "space": "Bangor"},
    )
    prompt = s.view(None)["prompt"]
    assert prompt == {"decide": "die", "attacker": "mordred", "from": None, "space": "Bangor", "need": 4}


def test_two_players_only_with_the_unofficial_option() -> None:
    with pytest.raises(ValueError, match="unofficial"):
        GAME.new_game(2, 1)
    s = GAME.new_game(2, 1, {"unofficial_two_players": True})
    assert s.view(None)["unofficial"] is True
    with pytest.raises(ValueError, match="players"):
        GAME.new_game(5, 1, {"unofficial_two_players": True})


@pytest.mark.parametrize("seed", range(10))
def test_two_player_playouts_conform(seed: int) -> None:
    conformance_play(GAME, 2, seed, {"unofficial_two_players": True})


def test_json_replays_to_an_equal_state() -> None:
    rng = random.Random(3)
    s = fresh(4, 3)
    for _ in range(60):
        if s.to_move() is None:
            break
        s.apply(s.sample_chance() if s.is_chance() else rng.choice(s.legal_moves()))
    data = json.loads(json.dumps(s.to_json()))
    assert GAME.state_from_json(data) == s


def test_move_bound_covers_the_round_limit() -> None:
    assert GAME.max_moves == move_bound(TABLES)
    per_turn_floor = 3 + 2 * TABLES.max_men()
    assert GAME.max_moves >= ROUND_LIMIT * 4 * per_turn_floor


def test_random_games_are_quick() -> None:
    start = time.perf_counter()
    lengths = []
    for seed in range(40):
        rng = random.Random(seed)
        s = fresh(3 + seed % 2, seed)
        n = 0
        while s.to_move() is not None:
            s.apply(s.sample_chance() if s.is_chance() else rng.choice(s.legal_moves()))
            n += 1
        lengths.append(n)
    assert max(lengths) < GAME.max_moves
    assert time.perf_counter() - start < 10


def test_a_move_of_another_game_is_refused() -> None:
    from dataclasses import dataclass

    from rules.core import Move

    @dataclass(frozen=True)
    class Elsewhere(Move):
        def to_json(self) -> dict[str, str]:
            return {"type": "elsewhere"}

    s = fresh()
    before = s.copy()
    with pytest.raises(IllegalMove) as info:
        s.apply(Elsewhere())
    assert info.value.code == "mordred.move.foreign" and s == before
