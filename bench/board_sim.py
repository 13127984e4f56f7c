"""What a capped board run would decide, worked out from games already played.

A board run (bench.board_strength) takes hours, and what its cap leaves
undecided follows the order it plays the cells in, the looks, the cap and
this machine's speed. Here the run is played out on a clock instead: its
shards side by side, each choosing its next cell as the run does
(``board_strength.next_cell``) and taking its games one after another, a
game taking the CPU seconds it took when it was played (times ``speed``,
for a slower or faster machine) and seen by the other shards once it ends.
The same seeds play the same games at a code and plan, so with the games of
every seed the run comes to, this is the run, less the noise in each
game's CPU.

A game the gathered ones lack is drawn from its cell's games (with
replacement), and so are all of them in a *resampled* run: each cell a new
set of games with the same win rate and cost as far as its games tell
them. Many resampled runs say how often a run decides what it is asked to,
where one run is one draw.
"""

from __future__ import annotations

import heapq
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from bench.board_strength import CORES, POLL, BoardCell, next_cell, shares
from bench.sequential import judge
from bench.strength_results import GameRecord

Games = Mapping[str, Mapping[int, GameRecord]]


@dataclass(frozen=True)
class Outcome:
    """A played-out run: its games per cell and how many were drawn."""

    games: dict[str, dict[int, GameRecord]]
    drawn: int
    cpu: float  # the CPU seconds its games took, all shards

    def verdicts(self, cells: Sequence[BoardCell]) -> dict[str, str]:
        return {c.name: judge(shares(self.games[c.name], c.group.seats_a_side), c.target(),
                              c.looks()).verdict for c in cells}


def _pool(games: Games, name: str) -> list[GameRecord]:
    """A cell's gathered games, in index order: what its missing ones are drawn from."""
    return [games[name][i] for i in sorted(games.get(name, {}))]


def resampled(games: Games, cells: Sequence[BoardCell],
              rng: random.Random) -> dict[str, dict[int, GameRecord]]:
    """Each cell's games for every index up to its last look, each drawn
    from the cell's gathered games."""
    out = {}
    for c in cells:
        pool = _pool(games, c.name)
        out[c.name] = {i: rng.choice(pool) for i in range(c.looks()[-1])} if pool else {}
    return out


def simulate(cells: Sequence[BoardCell], games: Games, cap: float, shards: int = CORES,
             speed: float = 1.0, rng: random.Random | None = None) -> Outcome:
    """The games ``shards`` shards side by side gather by the ``cap`` (CPU
    seconds), each game taking its CPU seconds times ``speed``. A game
    ``games`` lacks is drawn from its cell's (``rng``, seeded 0 by default);
    a cell with none is not played."""
    rng = rng or random.Random(0)
    pools = {c.name: _pool(games, c.name) for c in cells}
    playable = [c for c in cells if pools[c.name]]
    costs = {c.name: math.fsum(r.cpu_seconds for r in pools[c.name]) / len(pools[c.name]) * speed
             for c in playable}
    have: dict[str, dict[int, GameRecord]] = {c.name: {} for c in cells}
    drawn, spent = 0, 0.0  # spent: the CPU of the games ended, as cpu_spent(have, cells) counts it
    ends: list[tuple[float, int, str, int, GameRecord | None]] = []  # (clock, shard, cell, index, game)
    queue: dict[int, tuple[BoardCell | None, list[int]]] = {k: (None, []) for k in range(1, shards + 1)}
    running = set(queue)

    def begin(k: int, clock: float) -> None:
        """Shard ``k``'s next game from ``clock``, or a wait, or its end."""
        nonlocal drawn
        if spent >= cap:
            running.discard(k)
            return
        cell, todo = queue[k]
        if not todo:
            alone = running == {k}
            step = next_cell(playable, have, (k, shards), costs, None, alone, left=cap - spent)
            if step.cell is None:
                if step.awaited and not alone:
                    heapq.heappush(ends, (clock + POLL, k, "", -1, None))
                else:
                    running.discard(k)
                return
            cell, todo = step.cell, list(step.todo)
        assert cell is not None
        i, todo = todo[0], todo[1:]
        queue[k] = (cell, todo)
        game = games[cell.name].get(i)
        if game is None:
            drawn += 1
            game = rng.choice(pools[cell.name])
        game = replace(game, cpu_seconds=game.cpu_seconds * speed)
        heapq.heappush(ends, (clock + game.cpu_seconds, k, cell.name, i, game))

    for k in sorted(queue):
        begin(k, 0.0)
    while ends:
        clock, k, name, i, game = heapq.heappop(ends)
        if game is not None:
            have[name][i] = game
            spent += game.cpu_seconds
        begin(k, clock)
    return Outcome(have, drawn, spent)


def two_sided_ladder(cells: Sequence[BoardCell]) -> list[str]:
    """The ladder's cells between two sides, which the targets ask decided in every run."""
    return [c.name for c in cells if c.ladder and c.group.sides == 2]


@dataclass(frozen=True)
class Tally:
    """Resampled runs: per cell how many decided it; per run its undecided
    cells, and whether it decided every two-sided ladder cell."""

    runs: int
    decided: dict[str, int]
    undecided: list[int]
    ladder: list[bool]


def tally(cells: Sequence[BoardCell], games: Games, cap: float, runs: int, shards: int = CORES,
          speed: float = 1.0, seed: int = 0) -> Tally:
    rng = random.Random(seed)
    decided = {c.name: 0 for c in cells}
    undecided, ladder = [], []
    for _ in range(runs):
        verdicts = simulate(cells, resampled(games, cells, rng), cap, shards, speed).verdicts(cells)
        for name, v in verdicts.items():
            decided[name] += v in ("met", "missed")
        undecided.append(sum(v == "undecided" for v in verdicts.values()))
        ladder.append(all(verdicts[n] in ("met", "missed") for n in two_sided_ladder(cells)))
    return Tally(runs, decided, undecided, ladder)


def lines(cells: Sequence[BoardCell], games: Games, cap: float, runs: int, shards: int = CORES,
          speed: float = 1.0) -> list[str]:
    """The table: each cell's verdict in the run of the games as gathered,
    and how many of ``runs`` resampled runs decide it."""
    once = simulate(cells, games, cap, shards, speed)
    verdicts = once.verdicts(cells)
    t = tally(cells, games, cap, runs, shards, speed)
    out = [f"a run of {shards} shards to {cap / 3600:.1f} CPU hours, each game's CPU times {speed:g}: "
           f"the games as gathered ({once.drawn} drawn where none was), and {runs} runs of resampled games",
           "", "| cell | as gathered | games | decided in resampled runs |", "|---|---|---:|---:|"]
    for c in cells:
        n = len(shares(once.games[c.name], c.group.seats_a_side))
        out.append(f"| {c.name} | {verdicts[c.name] or '-'} | {n} | {t.decided[c.name]} of {runs} |")
    third = len(cells) // 3
    counts = sorted(t.undecided)
    said = {v: sum(x == v for x in verdicts.values()) for v in ("met", "missed", "undecided")}
    ladder = [n for n in two_sided_ladder(cells) if verdicts[n] not in ("met", "missed")]
    out += ["", f"as gathered: {said['met']} met, {said['missed']} missed, {said['undecided']} undecided "
            f"of {len(cells)}; the ladder between two sides undecided in "
            f"{', '.join(n.split(' @')[0] for n in ladder) or 'none'}"]
    if runs:
        out.append(f"resampled: {sum(counts) / runs:.1f} undecided on average ({counts[0]} to {counts[-1]}), "
                   f"at most a third ({third}) in {sum(n <= third for n in counts)} of {runs} runs; the "
                   f"ladder between two sides decided in every game in {sum(t.ladder)} of {runs}")
    return out
