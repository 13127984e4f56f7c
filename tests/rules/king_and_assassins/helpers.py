"""Scenario building for King & Assassins tests: a game at a chosen point with chosen pieces."""

from __future__ import annotations

from typing import Any

import pytest

import rules
from rules.core import IllegalMove, Move
from rules.king_and_assassins.moves import Choose, Draw, End, move_from_json
from rules.king_and_assassins.state import KAState

GAME = rules.get("king-and-assassins")
CODE = "king-and-assassins."


def new(side: str = "A", seed: int = 1) -> KAState:
    state = GAME.new_game(2, seed, {"side": side})
    assert isinstance(state, KAState)
    return state


def m(data: dict[str, Any]) -> Move:
    return move_from_json(data)


def step(piece: str, d: str) -> Move:
    return m({"type": "move", "piece": piece, "dir": d})


def scenario(
    pieces: dict[str, str],
    *,
    assassins: tuple[str, str, str] = ("citizen1", "citizen2", "citizen3"),
    card: int = 1,
    turn: str = "king",
    revealed: tuple[str, ...] = (),
    side: str = "A",
) -> KAState:
    """A game in round 1 with ``card`` turned over, ``turn`` to play, and only
    ``pieces`` (name -> cell) on the board."""
    state = new(side)
    state.apply(Choose(assassins))
    if state.phase == "start":
        state.apply(state.legal_moves()[0])
    state.apply(Draw(card))
    if turn == "assassin":
        state.apply(End())
    board = state.board
    state.pos = {}
    for name, cell in pieces.items():
        idx = next(i for i in range(len(board.roof)) if board.name(i) == cell)
        state.pos[name] = idx
    state.revealed = list(revealed)
    state._reindex()
    return state


def cell(state: KAState, piece: str) -> str | None:
    idx = state.pos.get(piece)
    return None if idx is None else state.board.name(idx)


def refused(state: KAState, move: Move, code: str) -> None:
    """``move`` is refused with ``code``, is not listed, and leaves the state unchanged."""
    before = state.copy()
    with pytest.raises(IllegalMove) as exc:
        state.apply(move)
    assert exc.value.code == CODE + code, exc.value.code
    assert exc.value.rule
    assert move not in state.legal_moves()
    assert state == before


def legal(state: KAState, move: Move) -> list[Any]:
    assert move in state.legal_moves()
    return [e for e in state.apply(move)]
