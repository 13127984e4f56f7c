"""What every computer player offers, and the helpers they share."""

from __future__ import annotations

import random
from typing import Protocol

from rules.core import Move, Outcome, State


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
    which would tell the real draws to come)."""
    outcomes = state.chance_outcomes()
    return rng.choices([m for m, _ in outcomes], weights=[w for _, w in outcomes], k=1)[0]


def own_turn(state: State, seat: int) -> list[Move]:
    """The legal moves, after checking that ``seat`` is the one to move."""
    if state.to_move() != seat:
        raise ValueError(f"seat {seat} is not the seat to move (that is {state.to_move()!r})")
    return state.legal_moves()
