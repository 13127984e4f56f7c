"""What every computer player offers, and the helpers they share."""

from __future__ import annotations

import math
import random
from bisect import bisect
from collections.abc import Sequence
from itertools import accumulate
from operator import itemgetter
from typing import Any, Protocol

from rules.core import Move, Outcome, State

_weight = itemgetter(1)  # of a chance outcome (move, weight)


def softmax(values: Sequence[float], softness: float) -> list[float]:
    """Each value's share, e ** (value / softness) over all of theirs: how a
    margin turns into a chance (the search's measures and cut playouts)."""
    top = max(values)
    weights = [math.exp((v - top) / softness) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


class Player(Protocol):
    """Chooses a move for ``seat``, which must be the seat to move in ``state``.

    A player may look at ``state`` only through ``state.sample_unseen(seat, rng)``
    and the seat's own view: the true state holds other seats' secrets."""

    def choose(self, state: State, seat: int) -> Move: ...


def rewards(outcome: Outcome, players: int) -> list[float]:
    """One value per seat: a win is 1, shared equally between tied winners."""
    share = 1.0 / len(outcome.winners) if outcome.winners else 0.0
    return [share if seat in outcome.winners else 0.0 for seat in range(players)]


def chance_move(state: State, rng: random.Random) -> Move:
    """A chance outcome drawn with its weight, from ``rng`` (never the game's seed,
    which would tell the real draws to come).

    The same draw as ``rng.choices(outcomes, weights)`` (one ``rng.random()``
    against the running total of the weights), so a search draws the same
    numbers as before, without the two lists and checks ``choices`` builds on
    every draw: a playout draws a chance outcome at most steps of some games."""
    if type(state).chance_outcomes is State.chance_outcomes:
        # Equal weights: the running total 1, 2, .. n puts the draw x at floor(x).
        moves = state.legal_moves()
        n = len(moves)
        i = int(rng.random() * n)
        return moves[i if i < n else n - 1]
    pairs = type(state).chance_totals is State.chance_totals
    if pairs:
        outcomes: Sequence[Any] = state.chance_outcomes()
        totals: Sequence[float] = list(accumulate(map(_weight, outcomes)))
    else:  # the engine's own running totals, without the pairs
        outcomes, totals = state.chance_totals()
    total = totals[-1] + 0.0
    if not 0.0 < total < math.inf:
        raise ValueError(f"chance weights must add up to a positive finite total, not {total!r}")
    drawn = outcomes[bisect(totals, rng.random() * total, 0, len(totals) - 1)]
    return drawn[0] if pairs else drawn


def own_turn(state: State, seat: int) -> list[Move]:
    """The legal moves, after checking that ``seat`` is the one to move."""
    if state.to_move() != seat:
        raise ValueError(f"seat {seat} is not the seat to move (that is {state.to_move()!r})")
    return state.legal_moves()
