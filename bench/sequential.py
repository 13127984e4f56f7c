"""A sequential test for the strength bench: judge a cell at a few fixed
game counts (looks) and stop it at the first look whose interval decides.

Looking more than once at a 95% interval would decide wrongly more often
than 5% of the time; the error is split between the looks instead
(Bonferroni): each look's Wilson interval is at the 1 - 0.05 / looks level,
so all looks together keep the 95%. A cell is *met* when its interval lies
above the target, *missed* when below, and *undecided* when the last look
still straddles it or its games are not all played yet.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

#: The game counts at which a cell is judged.
LOOKS = (12, 24, 48, 88)
CONFIDENCE = 0.95


def z_for(looks: int, confidence: float = CONFIDENCE) -> float:
    """The two-sided normal quantile of each look's interval, the error split ``looks`` ways."""
    return NormalDist().inv_cdf(1 - (1 - confidence) / looks / 2)


def wilson(successes: float, n: int, z: float) -> tuple[float, float]:
    """The Wilson score interval of a proportion (successes may be fractional: shared wins)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(max(0.0, p * (1 - p) / n + z2 / (4 * n * n))) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class Judgement:
    verdict: str  # met, missed, undecided; "" with no target
    lo: float
    hi: float
    games: int  # the games the interval stands on
    share: float  # the mean share over them
    final: bool  # no more games will change it: decided, or the last look reached


def judge(shares: Sequence[float], target: float | None, looks: Sequence[int] = LOOKS) -> Judgement:
    """``shares``: the computer's share of each game, in game order, with no
    gap. Judged at each look reached, stopping at the first that decides; a
    cell between looks shows its interval so far (same level), undecided."""
    z = z_for(len(looks))
    for look in looks:
        if len(shares) < look:
            break
        won = sum(shares[:look])
        lo, hi = wilson(won, look, z)
        verdict = "" if target is None else "met" if lo > target else "missed" if hi < target else ""
        if verdict or look == looks[-1]:
            return Judgement(verdict or ("undecided" if target is not None else ""), lo, hi, look,
                             won / look, final=True)
    n = min(len(shares), looks[-1])
    lo, hi = wilson(sum(shares[:n]), n, z)
    return Judgement("undecided" if target is not None else "", lo, hi, n, sum(shares[:n]) / n if n else 0.0,
                     final=False)


def next_look(played: int, looks: Sequence[int] = LOOKS) -> int:
    """The game count of the look after ``played`` games (the last look at most)."""
    return next((look for look in looks if look > played), looks[-1])
