"""A sequential test for the strength bench: judge a cell at a few fixed
game counts (looks) and stop it at the first look whose interval decides.

Looking more than once at a 95% interval would decide wrongly more often
than 5% of the time, so the error is spent over the looks. Each look gets
the share of the error that Lan and DeMets's O'Brien-Fleming-type function
spends by then (``spent``): almost none at the first looks, most at the
last, so a cell is stopped early only when it is far from its target, and
the last look is nearly as sharp as a single test. The looks' errors add up
to 5% (a union bound, which holds whatever the looks' dependence).

Each look's interval is Clopper and Pearson's exact binomial interval:
Wilson's, used before with an even split, covers too little near 90% at a
dozen games, so a side that wins exactly 90% of its games was called missed
nearly 5% of the time where 2.5% is promised (``verdict_chances`` computes
such rates exactly; tests/test_bench_board.py holds every target to them).
A fractional share (a shared win at three or four players) is counted down
for the lower end and up for the upper one, which only widens the interval.

A cell is *met* when its interval lies above the target, *missed* when
below, and *undecided* when the last look still straddles it or its games
are not all played yet.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from statistics import NormalDist

#: The game counts at which a cell is judged.
LOOKS = (12, 24, 48, 88)
#: The same for a cell whose games are cheap (a few seconds each): one look
#: more, at twice the games, for a side within a few points of its target.
LONG_LOOKS = (*LOOKS, 176)
CONFIDENCE = 0.95

_NORMAL = NormalDist()


def spent(fraction: float, confidence: float = CONFIDENCE) -> float:
    """The error spent by a look at ``fraction`` of the last look's games
    (two-sided; Lan and DeMets's O'Brien-Fleming-type spending function)."""
    z = _NORMAL.inv_cdf(1 - (1 - confidence) / 2)
    # 2 (1 - Phi(x)) as erfc, which keeps the first looks' tiny errors where 1 - Phi rounds to 0
    return math.erfc(z / math.sqrt(fraction) / math.sqrt(2))


def look_errors(looks: Sequence[int], confidence: float = CONFIDENCE) -> list[float]:
    """Each look's share of the error (two-sided); they add up to 1 - ``confidence``."""
    out, before = [], 0.0
    for look in looks:
        now = spent(look / looks[-1], confidence)
        out.append(now - before)
        before = now
    return out


def look_z(looks: Sequence[int], confidence: float = CONFIDENCE) -> list[float]:
    """Each look's two-sided normal quantile, as a reader compares intervals."""
    return [-_NORMAL.inv_cdf(e / 2) for e in look_errors(looks, confidence)]


def _at_least(k: int, n: int, p: float) -> float:
    """P(X >= k) for X binomial(n, p)."""
    return math.fsum(math.comb(n, j) * p ** j * (1 - p) ** (n - j) for j in range(k, n + 1))


def _solve(too_high: Callable[[float], bool], steps: int = 60) -> float:
    """The p in [0, 1] where ``too_high(p)`` turns true (bisection)."""
    lo, hi = 0.0, 1.0
    for _ in range(steps):
        mid = (lo + hi) / 2
        if too_high(mid):
            hi = mid
        else:
            lo = mid
    return (lo + hi) / 2


@cache
def _exact(k: int, n: int, error: float) -> tuple[float, float]:
    lo = 0.0 if k == 0 else _solve(lambda p: _at_least(k, n, p) >= error / 2)
    hi = 1.0 if k == n else _solve(lambda p: 1 - _at_least(k + 1, n, p) <= error / 2)
    return lo, hi


def clopper_pearson(successes: float, n: int, error: float) -> tuple[float, float]:
    """The exact interval of a proportion at two-sided ``error``; a
    fractional ``successes`` takes the lower end of its floor and the upper
    end of its ceiling."""
    if n == 0:
        return 0.0, 1.0
    down, up = math.floor(successes + 1e-9), math.ceil(successes - 1e-9)
    return _exact(down, n, error)[0], _exact(up, n, error)[1]


@dataclass(frozen=True)
class Judgement:
    verdict: str  # met, missed, undecided; "" with no target
    lo: float
    hi: float
    games: int  # the games the interval stands on
    share: float  # the mean share over them
    final: bool  # no more games will change it: decided, or the last look reached


def _verdict(lo: float, hi: float, target: float | None) -> str:
    return "" if target is None else "met" if lo > target else "missed" if hi < target else ""


def judge(shares: Sequence[float], target: float | None, looks: Sequence[int] = LOOKS) -> Judgement:
    """``shares``: the computer's share of each game, in game order, with no
    gap. Judged at each look reached, stopping at the first that decides; a
    cell between looks shows its interval so far at the next look's level,
    undecided."""
    errors = look_errors(looks)
    for look, error in zip(looks, errors, strict=True):
        if len(shares) < look:
            break
        won = math.fsum(shares[:look])
        lo, hi = clopper_pearson(won, look, error)
        verdict = _verdict(lo, hi, target)
        if verdict or look == looks[-1]:
            return Judgement(verdict or ("undecided" if target is not None else ""), lo, hi, look,
                             won / look, final=True)
    n = min(len(shares), looks[-1])
    error = errors[looks.index(next_look(n, looks))] if n < looks[-1] else errors[-1]
    won = math.fsum(shares[:n])
    lo, hi = clopper_pearson(won, n, error)
    return Judgement("undecided" if target is not None else "", lo, hi, n, won / n if n else 0.0, final=False)


def next_look(played: int, looks: Sequence[int] = LOOKS) -> int:
    """The game count of the look after ``played`` games (the last look at most)."""
    return next((look for look in looks if look > played), looks[-1])


def verdict_chances(p: float, target: float, looks: Sequence[int] = LOOKS) -> dict[str, float]:
    """Exactly how often the test says met, missed and undecided of a side
    that wins each game with probability ``p`` (whole wins only)."""
    return outlook(p, target, looks)[0]


def outlook(p: float, target: float, looks: Sequence[int], wins: int = 0,
            played: int = 0) -> tuple[dict[str, float], float]:
    """From ``wins`` in ``played`` games (no look yet reached has decided), how
    often the test will say met, missed and undecided of a side that wins each
    game with probability ``p``, and how many more games it will play."""
    errors = look_errors(looks)
    alive = {wins: 1.0}  # wins so far -> probability, over the runs not yet decided
    out = {"met": 0.0, "missed": 0.0}
    more = 0.0
    for look, error in zip(looks, errors, strict=True):
        if look <= played:
            continue
        step = look - played
        more += step * math.fsum(alive.values())
        pmf = [math.comb(step, j) * p ** j * (1 - p) ** (step - j) for j in range(step + 1)]
        grown: dict[int, float] = {}
        for k, pk in alive.items():
            for j, chance in enumerate(pmf):
                grown[k + j] = grown.get(k + j, 0.0) + pk * chance
        alive = {}
        for k, pk in grown.items():
            verdict = _verdict(*clopper_pearson(k, look, error), target)
            if verdict:
                out[verdict] += pk
            else:
                alive[k] = pk
        played = look
    out["undecided"] = math.fsum(alive.values())
    return out, more


#: Where the chance of a game is weighed (``promise``): the midpoints of this many equal steps.
GRID = 24


@cache
def _promise(wins: int, played: int, target: float, looks: tuple[int, ...]) -> tuple[float, float]:
    grid = [(i + 0.5) / GRID for i in range(GRID)]
    # the chance of a game as the games so far tell it (a flat prior): weights p^w (1-p)^(n-w)
    logs = [wins * math.log(q) + (played - wins) * math.log(1 - q) for q in grid]
    top = max(logs)
    weights = [math.exp(x - top) for x in logs]
    total = math.fsum(weights)
    decided = more = 0.0
    for q, w in zip(grid, weights, strict=True):
        if w < 1e-3:  # too unlikely to move the sums
            continue
        chances, games = outlook(q, target, looks, wins, played)
        decided += w * (chances["met"] + chances["missed"])
        more += w * games
    return decided / total, more / total


def promise(shares: Sequence[float], target: float | None,
            looks: Sequence[int] = LOOKS) -> tuple[float, float]:
    """How likely a cell with these games is to be decided by its last look,
    and how many more games that takes (the mean over the chances its games
    so far leave open): what the run weighs to spend its CPU where it decides."""
    if target is None or judge(shares, target, looks).final:
        return 0.0, 0.0
    n = min(len(shares), looks[-1])
    return _promise(round(math.fsum(shares[:n])), n, target, tuple(looks))
