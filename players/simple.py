"""Sparring partners for the strength benchmark: a random player and a
one-move-ahead greedy player. Both decide from their seat's view too."""

from __future__ import annotations

import random
from collections.abc import Callable

from players.base import own_turn, rewards
from players.playout import king_steps_out
from rules.core import JSON, Move, State


class RandomPlayer:
    """A legal move, uniformly."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State, seat: int) -> Move:
        return self.rng.choice(own_turn(state, seat))


def _margin(values: list[float], seat: int) -> float:
    """How far ``seat`` is ahead of the best of the others."""
    others = [v for s, v in enumerate(values) if s != seat]
    return values[seat] - max(others, default=0.0)


def _king_is_dead(view: JSON, seat: int) -> float:
    # Sets of one follower of each colour decide, then followers at court.
    return _margin([10.0 * s["sets"] + sum(s["court"].values()) for s in view["seats"]], seat)


def _king_and_assassins(view: JSON, seat: int) -> float:
    king = (3.0 * (len(view["arrested_assassins"]) + len(view["eliminated"]))
            - 3.0 * view["wounds"] - len(view["knights_lost"]))
    # The King also wins by reaching the castle: his steps out through the
    # nearest gate, around the roofs he may not climb (as the crow flies, a
    # step nearer was often a step into a dead end).
    where = view["pieces"].get("king")
    if where is not None and view["gates"]:
        king -= 0.5 * king_steps_out(view["side"], where["cell"])
    return king if seat == 0 else -king


def _mordred(view: JSON, seat: int) -> float:
    players = view["players"]
    if len(view["mordred_men"]) > len(view["pieces"]):
        # Mordred holds Wales as things stand: then the pawn furthest right on
        # his track wins (rules.mordred.scoring), victory points only break ties.
        return _margin([100.0 * p["pawn"] + p["vp"] for p in players], seat)
    return _margin([float(p["vp"]) for p in players], seat)


def _artus(view: JSON, seat: int) -> float:
    return _margin([float(s) for s in view["scores"]], seat)


def _siege(view: JSON, seat: int) -> float:
    return _margin([float(sum(len(u) for u in side["rows"].values())) for side in view["sides"]], seat)


#: Per game, how good the public position is for a seat: the greedy player's
#: only knowledge of each game (the ISMCTS player needs none).
HEURISTICS: dict[str, Callable[[JSON, int], float]] = {
    "king-is-dead": _king_is_dead,
    "king-and-assassins": _king_and_assassins,
    "mordred": _mordred,
    "artus": _artus,
    "siege": _siege,
}


class Greedy:
    """Tries every legal move in one world its seat cannot tell from the real
    one: a move that ends the game in its favour first, else the move after
    which the public position (``HEURISTICS``) looks best; ties at random."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State, seat: int) -> Move:
        legal = own_turn(state, seat)
        if len(legal) == 1:
            return legal[0]
        heuristic = HEURISTICS[state.game_id]
        world = state.sample_unseen(seat, self.rng)
        best: list[Move] = []
        best_score = float("-inf")
        for move in legal:
            after = world.copy()
            after.play_listed(move)
            outcome = after.outcome()
            if outcome is not None:
                score = 1000.0 * (rewards(outcome, state.players)[seat] - 0.5)
            else:
                score = heuristic(after.view(None), seat)
            if score > best_score:
                best, best_score = [move], score
            elif score == best_score:
                best.append(move)
        return self.rng.choice(best)
