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

The hard level plays King & Assassins' playouts finer (``FINE``, players.levels:
``Level.plays``): with random assassins a playout all but never shows an
assassin beside the king and attacks (showing is a free move among some
forty), so no playout told the King player which citizen could kill him or
the Assassin player which attack would, and four times the iterations only
averaged the same random turns more closely (hard won 25 of 48 against
normal, 11 of 24 as the Assassin player). In hard's playouts the assassins
attack when they can, show one beside the king with the points to attack,
walk nearer him and never show one for nothing; and a knight eliminates a
shown assassin within reach. The playout is cut after 10 moves as the
others' are: cut after 20 (through the Assassin player's reply) it won no
more and ran 40% fewer iterations (bench/README.md: the ladder, hard's
playouts in King & Assassins).

In The King is Dead hard's playouts stop at the first turn's start they
reach, where a seat is about to play a card or pass, and are scored there
by its reading (players.kid_measure). The tree's own moves are most of what
a search at a Pi 4's budget can tell apart; playouts cut after 12 moves
added random cards of both seats to them, and a cut mid-turn read the card
just played as lost and its followers not yet placed. Stopped at a turn's
start its search runs twice the iterations a second, and at the same think
time won more of its games against normal (bench/README.md, the ladder in
The King is Dead at two players: hard's playouts cut at a turn's start).
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from rules.core import Move, State
from rules.king_and_assassins import moves as ka_moves
from rules.king_and_assassins.data import BOARDS, Board
from rules.king_and_assassins.pieces import KING

#: A playout's move: the world, its legal moves (two or more), the search's generator.
Policy = Callable[[State, list[Move], random.Random], Move]
#: Whether a cut playout may be scored here (players.ismcts: ``stops``).
Stop = Callable[[State], bool]

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


#: How often an Assassin player's playout move (in the hard level's playouts)
#: steps an assassin nearer the king when a step does.
ASSASSIN_WALK = 0.8


def _distance(board: Board, a: int, b: int) -> int:
    ar, ac = divmod(a, board.cols)
    br, bc = divmod(b, board.cols)
    return abs(ar - br) + abs(ac - bc)


def _both_sides(world: State, legal: list[Move], rng: random.Random) -> Move:
    """The hard level's King & Assassins playouts: both sides take what a
    player would not leave. The King player's knights eliminate a revealed
    assassin within reach, else he plays as ``_king_and_assassins``; the
    Assassin player attacks the king when an assassin can, shows an assassin
    beside the king with the points to attack, walks an assassin nearer the
    king (``ASSASSIN_WALK`` of the time), and else plays at random but
    never shows an assassin for nothing."""
    phase = getattr(world, "phase", None)
    if phase == "king":
        for move in legal:
            if type(move) is ka_moves.Eliminate:
                return move
        return _king_and_assassins(world, legal, rng)
    if phase != "assassin":
        return rng.choice(legal)
    pos = world.pos  # type: ignore[attr-defined]
    king = pos.get(KING)
    if king is None:
        return rng.choice(legal)
    board: Board = world.board  # type: ignore[attr-defined]
    assassins = world.assassins  # type: ignore[attr-defined]
    ready = world.ap["assassins"] >= 2  # type: ignore[attr-defined]
    near = board.steps[king].values()
    walks: list[Move] = []
    others: list[Move] = []
    for move in legal:
        kind = type(move)
        if kind is ka_moves.Attack:
            return move
        if kind is ka_moves.Reveal:
            if ready and pos.get(move.piece) in near:  # type: ignore[attr-defined]
                return move
            continue
        others.append(move)
        if kind is ka_moves.Step and move.piece in assassins:  # type: ignore[attr-defined]
            here = pos[move.piece]  # type: ignore[attr-defined]
            if _distance(board, board.steps[here][move.dir], king) < _distance(board, here, king):  # type: ignore[attr-defined]
                walks.append(move)
    if walks and rng.random() < ASSASSIN_WALK:
        return rng.choice(walks)
    return rng.choice(others or legal)


def _kid_turn_starts(world: State) -> bool:
    """The King is Dead: a seat is about to play a card or pass, the last
    card's picks and summons all made."""
    return world.step == "turn"  # type: ignore[attr-defined]


@dataclass(frozen=True)
class Fine:
    """A finer playout: how its seats pick their moves (None: at random), the
    moves after which it is cut, and where after them (``stop``: the first
    position it holds of; None: at once)."""

    policy: Policy | None
    horizon: int
    stop: Stop | None = None


#: Per game, its playout policy; a game not named plays at random.
POLICIES: dict[str, Policy] = {"king-and-assassins": _king_and_assassins}
#: Per game, a finer playout for the levels that ask for it (players.levels:
#: ``Level.plays``).
FINE: dict[str, Fine] = {"king-and-assassins": Fine(_both_sides, 10),
                         "king-is-dead": Fine(None, 0, _kid_turn_starts)}
