"""The rulebook's Examples A to G (page 8), each on its own copy of the
example table: the data (seat values, carpet chairs) and the engine must
give the rulebook's numbers."""

from __future__ import annotations

from rules.artus import board, scoring
from rules.artus.data import DATA
from rules.artus.moves import Play
from tests.rules.artus.helpers import (
    BEIGE,
    BLACK,
    BLUE,
    RED,
    at_turn,
    example_table,
    of_type,
    seat,
    seats_with_value,
)


def _play(player: int, move: Play):
    state = example_table()
    at_turn(state, player, [move.card])
    events = state.apply(move)
    return state, events


def test_example_table_values() -> None:
    # Example A: before the King the seats read 5, 6, 7, 8, 10 (no 9).
    state = example_table()
    king = state.king
    assert [state.seats[(king - k) % 28] for k in (1, 2, 3, 4, 5)] == ["k0", None, "k1", "k1", "k2"]
    assert seats_with_value(9) == []


def test_example_a() -> None:
    five = seat(5)
    # 5 spaces: lands on the King, who is displaced to the 8; the table turns.
    state, events = _play(RED, Play("knight-3-6", "move", five, 5))
    assert of_type(events, "prestige")[0]["points"] == 5
    (moved,) = of_type(events, "displaced")
    assert moved["figure"] == "king" and moved["from"] == 0 and moved["to"] == seat(8)
    assert of_type(events, "table_rotated") == [{"from": 0, "to": seat(8)}]
    assert state.king == seat(8) and state.seats[0] == "k2"
    # 4 spaces: the black Knight on the 10 goes to the 8.
    state, events = _play(RED, Play("knight-3-6", "move", five, 4))
    assert state.scores[RED] == 5
    (moved,) = of_type(events, "displaced")
    assert (moved["owner"], moved["from"], moved["to"]) == (BLACK, seat(10), seat(8))
    assert of_type(events, "table_rotated") == []
    # 3 spaces: the 8 is empty, nobody is displaced.
    state, events = _play(RED, Play("knight-3-6", "move", five, 3))
    assert state.scores[RED] == 5 and of_type(events, "displaced") == []
    assert state.seats[seat(8)] == "k2"


def test_example_b() -> None:
    state, events = _play(RED, Play("knight-1-5-both", "move", seat(5), -3))
    assert state.scores[RED] == 5
    (moved,) = of_type(events, "displaced")
    assert (moved["owner"], moved["from"], moved["to"]) == (BLUE, seat(2), seat(-6))
    assert state.seats[seat(2)] == "k2" and state.seats[seat(-6)] == "k1"
    assert of_type(events, "prestige")[0]["player"] == RED and len(of_type(events, "prestige")) == 1
    # Red's hope: the silver Prince on the 3 crowned, his Knight sits right behind, on the 10.
    red_seat = seat(2)
    at_turn(state, BLUE, ["ring-silver"])
    state.apply(Play("ring-silver", "ring", seat(3)))
    assert state.king == seat(3, king=0) and board.value(state.king, red_seat) == 10


def test_example_c() -> None:
    three = seat(3)
    state, events = _play(BLUE, Play("ring-silver", "ring", three))
    assert state.scores[BLUE] == 3
    assert state.king == three and state.rings[three] == 3 and state.rings[0] == 1
    assert of_type(events, "crowned")[0]["old_king"] == 0
    assert of_type(events, "table_rotated") == [{"from": 0, "to": three}]
    state, _ = _play(BLUE, Play("ring-silver", "ring", seat(-12)))
    assert state.scores[BLUE] == -12 and state.king == 0 and state.rings[seat(-12)] == 2


def test_example_d() -> None:
    for player, points in ((BLACK, 2), (BLUE, 14), (RED, 1), (BEIGE, -13)):
        state, _ = _play(player, Play("score-all", "score"))
        assert state.scores[player] == points, player
    state, _ = _play(BEIGE, Play("score-all-opposite", "score"))
    assert state.scores[BEIGE] == 13


def _best(player: int, card: str) -> int:
    """The best the player can get from a penalised scoring card."""
    state = at_turn(example_table(), player, [card])
    results = []
    for move in state.legal_moves():
        trial = state.copy()
        trial.apply(move)
        results.append(trial.scores[player])
    return max(results)


def test_example_e() -> None:
    assert _best(BLACK, "score-green-yellow-red") == 7
    for player in (BLUE, RED, BEIGE):
        state = at_turn(example_table(), player, ["score-green-yellow-red"])
        assert state.legal_moves() == [Play("score-green-yellow-red", "penalty")]
        assert _best(player, "score-green-yellow-red") == -15


def test_example_f() -> None:
    state = example_table()
    on_carpet = sorted(state.king - s for s in scoring.own_knights(state.seats, BLACK) if s in DATA.carpet)
    # Black has three Knights on the carpet (the 0, the -3, the -5) and ignores the -5.
    assert sorted(
        board.value(state.king, s) for s in scoring.own_knights(state.seats, BLACK) if s in DATA.carpet
    ) == [
        -5,
        -3,
        0,
    ]
    assert len(on_carpet) == 3
    assert _best(BLACK, "score-carpet") == -3
    assert _best(BLUE, "score-carpet") == -25
    assert _best(RED, "score-carpet") == -25
    assert _best(BEIGE, "score-carpet") == -4


def test_example_g() -> None:
    assert _best(BEIGE, "score-three-red") == -13
    for player in (BLACK, BLUE, RED):
        assert _best(player, "score-three-red") == -50
