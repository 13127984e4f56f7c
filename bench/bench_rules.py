"""Rules engines: random playouts per second, moves per second, and how the
cost of a move grows over a game.

Per game and option combination: whole random playouts (seeded, player counts
in turn), timed from ``new_game`` to the end. Per game: ``legal_moves()`` and
``apply()`` timed at every ply of long games, reported for the first, middle
and last fifth of the plies; late/early above 2 is flagged. Each game is
played several times over and each ply keeps the median of its times: a
move costs a few microseconds, and on a shared machine one pass's medians
moved by a tenth between runs. Late moves may simply have more choices; to
tell that from a cost that scans the history, the late positions are also
timed again on a copy with its history emptied.

    python -m bench.bench_rules [--quick]
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import rules
from bench.common import Row, main
from rules.core import State

AREA = "engines"
GROWTH_FLAG = 2.0  # late/early: above this, a move costs more as the game goes on
GROWTH_TARGETS = {"artus": 1.5}  # a game's own, stricter target (issue 21: Artus flat over a game)


def seat_counts(game: rules.Game, options: dict[str, Any]) -> list[int]:
    """The player counts the game accepts with these options (an option may
    add one, e.g. Mordred's unofficial two players)."""
    counts = []
    for n in range(1, 9):
        try:
            game.new_game(n, 0, options)
        except ValueError:
            continue
        counts.append(n)
    return counts


def playout(game: rules.Game, players: int, seed: int, options: dict[str, Any],
            each: Callable[[State, float, int, float], None] | None = None) -> State:
    """A random game; ``each(state, legal_s, n_legal, apply_s)`` is told the
    cost of every ply's ``legal_moves()`` and ``apply()``, before the move."""
    rng = random.Random(seed)
    state = game.new_game(players, seed, options)
    while state.to_move() is not None:
        if state.is_chance():
            state.apply(state.sample_chance())
            continue
        if each is None:
            state.apply(rng.choice(state.legal_moves()))
            continue
        before = state.copy()
        t0 = time.perf_counter()
        moves = state.legal_moves()
        t1 = time.perf_counter()
        state.apply(rng.choice(moves))
        t2 = time.perf_counter()
        each(before, t1 - t0, len(moves), t2 - t1)
    return state


def throughput(game: rules.Game, options: dict[str, Any], count: int) -> tuple[float, float, float]:
    """Games per second, moves per second and moves per game over ``count`` playouts."""
    counts = seat_counts(game, options)
    moves = 0
    start = time.perf_counter()
    for seed in range(count):
        moves += len(playout(game, counts[seed % len(counts)], seed, options).history)
    elapsed = time.perf_counter() - start
    return count / elapsed, moves / elapsed, moves / count


@dataclass
class Plies:
    """What one ply of a game cost, in plies of player moves (chance left out)."""

    legal: list[float] = field(default_factory=list)  # seconds per legal_moves()
    listed: list[int] = field(default_factory=list)  # how many moves it listed
    apply: list[float] = field(default_factory=list)  # seconds per apply()

    def add(self, state: State, legal: float, listed: int, apply: float) -> None:
        # The state is not kept: copies piling up while the game is timed
        # would make its late plies allocate in ever more memory.
        self.legal.append(legal)
        self.listed.append(listed)
        self.apply.append(apply)

    @staticmethod
    def median(runs: list[Plies]) -> Plies:
        """Each ply's median over several passes of one seeded game."""
        out = Plies(listed=runs[0].listed)
        for ply in range(len(out.listed)):
            out.legal.append(statistics.median(r.legal[ply] for r in runs))
            out.apply.append(statistics.median(r.apply[ply] for r in runs))
        return out


def positions(game: rules.Game, players: int, seed: int, options: dict[str, Any]) -> list[State]:
    """The position before each player move of a seeded playout."""
    states: list[State] = []
    playout(game, players, seed, options, lambda state, *_: states.append(state))
    return states


def fifths(values: list[Any]) -> tuple[list[Any], list[Any], list[Any]]:
    """The first, middle and last fifth of a game's plies."""
    n = len(values)
    k = max(1, n // 5)
    mid = n // 2
    return values[:k], values[mid - k // 2: mid - k // 2 + k], values[-k:]


def without_history(states: list[State]) -> tuple[float, float]:
    """Median seconds of ``legal_moves()`` on fresh copies of ``states``, with
    their history and with it emptied, in alternation (same caches for both)."""
    full, empty = [], []
    for state in states:
        state.copy().legal_moves()  # warms the engine's own caches for both
        for keep in (True, False):
            work = state.copy()
            if not keep:
                work.history = []
            t0 = time.perf_counter()
            work.legal_moves()
            (full if keep else empty).append(time.perf_counter() - t0)
    return statistics.median(full), statistics.median(empty)


def growth(game: rules.Game, games: int, candidates: int, passes: int = 1) -> list[Row]:
    """legal_moves() and apply() early, middle and late in the longest of
    ``candidates`` playouts at the most seats, over ``games`` of them, each
    played ``passes`` times (each ply its median)."""
    options = game.option_combinations()[0]
    players = max(seat_counts(game, options))
    lengths = sorted(((len(playout(game, players, s, options).history), s) for s in range(candidates)),
                     reverse=True)
    early: dict[str, list[float]] = {"legal": [], "apply": [], "listed": []}
    middle: dict[str, list[float]] = {"legal": [], "apply": [], "listed": []}
    late: dict[str, list[float]] = {"legal": [], "apply": [], "listed": []}
    late_states: list[State] = []
    plies = 0
    for _length, seed in lengths[:games]:
        runs = [Plies() for _ in range(passes)]
        for run in runs:
            playout(game, players, seed, options, run.add)
        p = Plies.median(runs)
        plies = max(plies, len(p.legal))
        for name, values in (("legal", p.legal), ("apply", p.apply), ("listed", p.listed)):
            for bucket, part in zip((early, middle, late), fifths(values), strict=True):
                bucket[name].extend(part)
    for _length, seed in lengths[:games]:  # the late positions, gathered once the timing is over
        late_states += fifths(positions(game, players, seed, options))[2]
    med = {name: [statistics.median(b[name]) for b in (early, middle, late)] for name in early}
    full, empty = without_history(late_states)
    legal_ratio = med["legal"][2] / med["legal"][0]
    apply_ratio = med["apply"][2] / med["apply"][0]
    us = [f"{x * 1e6:.0f}" for x in med["legal"]]
    listed = [f"{x:.0f}" for x in med["listed"]]
    note = (f"{game.id} {players}p, {games} games ({passes} passes each) up to {plies} player plies: "
            f"legal_moves() median "
            f"{'/'.join(us)} us early/middle/late listing {'/'.join(listed)} moves; "
            f"late with its history {full * 1e6:.0f} us, emptied {empty * 1e6:.0f} us")
    target = GROWTH_TARGETS.get(game.id, GROWTH_FLAG)
    grows = "; GROWS" if legal_ratio > target else ""
    apply_us = "/".join(f"{x * 1e6:.1f}" for x in med["apply"])
    return [
        Row(AREA, f"{game.id}: legal_moves() late/early", legal_ratio, "x", target,
            note=note + grows),
        Row(AREA, f"{game.id}: legal_moves() late, history/none", full / empty, "x", GROWTH_FLAG),
        Row(AREA, f"{game.id}: apply() late/early", apply_ratio, "x", target,
            note=f"apply() median {apply_us} us early/middle/late"),
    ]


def measure(quick: bool) -> list[Row]:
    per_row = 2 if quick else 40
    rows: list[Row] = []
    for game_id, game in rules.GAMES.items():
        for options in game.option_combinations():
            opts = ",".join(f"{k}={v}" for k, v in options.items()) or "-"
            games_s, moves_s, per_game = throughput(game, options, per_row)
            note = f"{per_game:.0f} moves a game, players {seat_counts(game, options)} in turn"
            rows.append(Row(AREA, f"{game_id} {opts}: playouts", games_s, "games/s", lower_is_better=False,
                            note=note))
            rows.append(Row(AREA, f"{game_id} {opts}: moves", moves_s, "moves/s", lower_is_better=False))
    for game in rules.GAMES.values():
        rows += growth(game, games=1 if quick else 5, candidates=2 if quick else 40, passes=1 if quick else 5)
    return rows


if __name__ == "__main__":
    main(measure)
