"""Whole games from a new game, played by simple purposeful players, so every way
to win happens through the public interface (random play almost never moves the
king to a gate or an assassin to the king)."""

from __future__ import annotations

import random
from collections import Counter

from rules.core import Move
from rules.king_and_assassins.moves import Attack, Eliminate, End, Reveal, Step
from rules.king_and_assassins.state import KAState

from .helpers import GAME


def _distances(state: KAState, goals: list[int], streets_only: bool) -> dict[int, int]:
    """Steps to the nearest goal; for the king, streets only and around citizens."""
    board = state.board
    dist = dict.fromkeys(goals, 0)
    frontier = list(goals)
    while frontier:
        nxt = []
        for cell in frontier:
            for n in board.steps[cell].values():
                if n < 0 or n in dist:
                    continue
                if streets_only and (board.roof[n] or state.at.get(n, "").startswith("citizen")):
                    continue
                dist[n] = dist[cell] + 1
                nxt.append(n)
        frontier = nxt
    return dist


def _after(state: KAState, move: Step) -> int:
    return state.board.steps[state.pos[move.piece]][move.dir]


def _king_player(state: KAState, legal: list[Move], rng: random.Random) -> Move:
    """Walk the king to a gate, moving a knight out of the way when one blocks."""
    board = state.board
    king = state.pos["king"]
    dist = _distances(state, [g.cell for g in board.gates], streets_only=True)
    for move in legal:
        if not (isinstance(move, Step) and move.piece == "king"):
            continue
        if board.gate_dir(king) == move.dir or dist.get(_after(state, move), 99) < dist.get(king, 99):
            return move
    if state.ap["king"]:
        for cell in board.steps[king].values():
            blocker = state.at.get(cell, "")
            if dist.get(cell, 99) < dist.get(king, 99) and blocker.startswith("knight"):
                away = [m for m in legal if isinstance(m, Step) and m.piece == blocker]
                if away:
                    return rng.choice(away)
    knight_moves = [m for m in legal if not isinstance(m, End) and getattr(m, "piece", "") != "king"]
    return rng.choice(knight_moves) if knight_moves and rng.random() < 0.5 else End()


def _assassin_player(state: KAState, legal: list[Move], rng: random.Random) -> Move:
    for kind in (Attack, Reveal, Eliminate):
        picks = [m for m in legal if isinstance(m, kind)]
        if picks and (kind is not Reveal or rng.random() < 0.3):
            return picks[0]
    if "king" in state.pos:
        dist = _distances(state, [state.pos["king"]], streets_only=False)
        closer = [
            m
            for m in legal
            if isinstance(m, Step) and dist.get(_after(state, m), 99) < dist.get(state.pos[m.piece], 99)
        ]
        if closer:
            return rng.choice(closer)
    return End()


def test_purposeful_games_reach_every_ending() -> None:
    reasons: Counter[str] = Counter()
    for seed in range(40):
        rng = random.Random(seed)
        side = "AB"[seed % 2]
        state = GAME.new_game(2, seed, {"side": side})
        assert isinstance(state, KAState)
        moves = 0
        while state.to_move() is not None:
            legal = state.legal_moves()
            if state.is_chance():
                move = state.sample_chance()
            elif state.phase in ("choose", "start"):
                move = rng.choice(legal)
            elif state.to_move() == 0:
                move = _king_player(state, legal, rng)
            elif seed % 4 < 2:
                move = _assassin_player(state, legal, rng)
            else:
                move = End()  # a passive Assassin player: the king walks to a gate
            assert move in legal
            state.apply(move)
            moves += 1
        assert moves <= GAME.max_moves
        assert GAME.state_from_json(state.to_json()) == state
        reasons[state.outcome().reason] += 1  # type: ignore[union-attr]
    assert {"king-escaped", "king-killed"} <= set(reasons), reasons
