"""How a search's playout picks a move, per game: at random unless a game
has a policy here.

A policy sees what a playout sees, one world dealt from the searching seat's
view (players.ismcts), so the search still decides from that view alone. It
reads the engine's fields rather than its JSON view: a playout plays
hundreds of moves an iteration and the view costs more than the move.

King & Assassins: under random play the assassins win 57 of 60 games (the
deck runs out before the king wanders to a gate), so random playouts tell
the king's side almost nothing and normal lost a quarter of its games to
random players (bench/README.md). In a playout the King player here walks
the king a step nearer the castle when it can (``KING_WALK`` of the time),
else plays at random; the assassins' side plays at random as before.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable
from functools import cache

from rules.core import Move, State
from rules.king_and_assassins import moves as ka_moves
from rules.king_and_assassins.data import BOARDS, Board
from rules.king_and_assassins.pieces import KING

#: A playout's move: the world, its legal moves (two or more), the search's generator.
Policy = Callable[[State, list[Move], random.Random], Move]

#: How often a King player's playout move walks the king nearer a gate when a step does.
KING_WALK = 0.8


@cache
def _gate_steps(side: str) -> tuple[int, ...]:
    """Per cell, the king's steps out through the nearest gate (over cells
    without a roof, which the king may not enter; pieces in the way aside),
    a large number where no way leads out."""
    board: Board = BOARDS[side]
    far = len(board.roof) + 1
    steps = [far] * len(board.roof)
    queue: deque[int] = deque()
    for gate in board.gates:
        steps[gate.cell] = 1  # the step through the gate
        queue.append(gate.cell)
    while queue:
        here = queue.popleft()
        for there in board.steps[here].values():
            if there >= 0 and not board.roof[there] and steps[there] > steps[here] + 1:
                steps[there] = steps[here] + 1
                queue.append(there)
    return tuple(steps)


@cache
def _cells(side: str) -> dict[str, int]:
    return {name: i for i, name in enumerate(BOARDS[side].names)}


def king_steps_out(side: str, cell: str) -> int:
    """The king's steps from ``cell`` (its name) out through the nearest gate
    of board ``side``, over cells he may enter (pieces in the way aside)."""
    return _gate_steps(side)[_cells(side)[cell]]


def _king_and_assassins(world: State, legal: list[Move], rng: random.Random) -> Move:
    if getattr(world, "phase", None) == "king" and rng.random() < KING_WALK:
        here = world.pos.get(KING)  # type: ignore[attr-defined]
        if here is not None:
            board: Board = world.board  # type: ignore[attr-defined]
            out = _gate_steps(board.side)
            gate = board.gate_dir(here)
            nearer = []
            for move in legal:
                if type(move) is ka_moves.Step and move.piece == KING:
                    if move.dir == gate:
                        return move  # out through the gate: the king's win
                    if out[board.steps[here][move.dir]] < out[here]:
                        nearer.append(move)
            if nearer:
                return rng.choice(nearer)
    return rng.choice(legal)


#: Per game, its playout policy; a game not named plays at random.
POLICIES: dict[str, Policy] = {"king-and-assassins": _king_and_assassins}
