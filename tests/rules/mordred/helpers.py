"""Scenario helpers for the Mordred tests: fresh games, scripted moves, refusals."""

from __future__ import annotations

from typing import Any

import pytest

from rules.core import IllegalMove, Move
from rules.mordred import GAME
from rules.mordred.state import MordredState
from rules.mordred.tables import TABLES


def fresh(players: int = 4, seed: int = 0) -> MordredState:
    state = GAME.new_game(players, seed, {"unofficial_two_players": players == 2})
    assert isinstance(state, MordredState)
    return state


def mv(data: dict[str, Any]) -> Move:
    return GAME.move_from_json(data)


def play(state: MordredState, *moves: dict[str, Any]) -> list[Any]:
    events = []
    for data in moves:
        events.extend(state.apply(mv(data)))
    return events


def refused(state: MordredState, data: dict[str, Any], code: str) -> IllegalMove:
    """The move is refused with ``code``, is not listed, and changes nothing."""
    move = mv(data)
    before = state.copy()
    assert move not in state.legal_moves()
    with pytest.raises(IllegalMove) as info:
        state.apply(move)
    assert info.value.code == code, info.value.to_json()
    assert state == before
    return info.value


def give(state: MordredState, seat: int, building: str, space: str) -> None:
    """Put a piece on the map directly, as if built earlier."""
    state.pieces[space] = (seat, building)
    state.supply[seat][building] -= 1
    state.built_any = True


def to_spend(state: MordredState, row: str = "A", dice: tuple[int, int] | None = None) -> None:
    """Declare and roll faces that give no Mordred man, reaching the spend phase."""
    if dice is None:
        clean = [f for f, face in TABLES.money[row].items() if not face.black]
        dice = (clean[0], clean[0])
    play(state, {"type": "declare", "row": row}, {"type": "roll", "first": dice[0], "second": dice[1]})
    assert state.phase == "spend"


def black_face(row: str = "C") -> int:
    return next(f for f, face in TABLES.money[row].items() if face.black)


def clean_face(row: str = "C") -> int:
    return next(f for f, face in TABLES.money[row].items() if not face.black)
