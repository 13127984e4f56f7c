"""The strength of each computer level at the budget a real board gives it.

A table thinks for its think time (players.DEFAULT_BUDGET: 0.9 s a move) and
a level for its share of it (players.levels); how many iterations that buys
follows the board's speed. The plan measures this machine's iterations per
second of search CPU in each game and player count, and turns it into a Pi
4's and a Pi Zero 2 W's with the latency model's CPU factors
(bench/pi_model.py, its n-body run timed here). The games then run at those
iterations with no time limit, so any machine plays the same games; the plan
is written into the results directory once (``plan.json``) and reused, so a
resumed or sharded run plays at the same budgets.

Cells, per game and player count (a game's option combinations, which play
alike, share one cell: game ``i`` plays combination ``i mod k`` and the
computer's seat goes round every combination in turn):

* normal on a Pi 4 against random players, and with two players against
  greedy ones (targets: 90% and 65% with two players, twice the fair share
  with three or four against random);
* the same at normal on a Pi Zero 2 W's budget;
* the ladder on a Pi 4: hard against normal players and normal against easy
  ones (60% with two players, 1.5 times the fair share with three or four).

Each cell is judged by the sequential test of bench/sequential.py: at fixed
game counts, stopping at the first that decides. The run plays every cell to
its first look (the cheapest games first), then, a look at a time, the cell
likeliest to be decided for the CPU it will take (``sequential.promise``),
so that a run stopped early has spent its CPU where it decides. A run stops
once its games have taken two hours on two cores (``HOURS``): what that
leaves out is the looks of the cells least likely to be decided.
"""

from __future__ import annotations

import hashlib
import json
import signal
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import rules
from bench.bench_players import CountingIsmcts, game_seed, positions
from bench.pi_model import boards, nbody_us_per_step
from bench.sequential import LONG_LOOKS, LOOKS, Judgement, judge, look_z, next_look, promise
from bench.strength_results import (
    GameRecord,
    ResultsError,
    ResultsWriter,
    being_written,
    fingerprint,
    host,
    now,
    read_results,
    shard_of,
)
from players import DEFAULT_BUDGET, LEVELS, Budget, Greedy, Player, RandomPlayer, level_budget, style
from players.base import rewards
from rules.king_is_dead.scoring import team_of

PI4, ZERO = "Pi 4", "Pi Zero 2 W"
PLAN = "plan.json"
#: Bump when the seeding or the game loop below changes: it decides play as the sources do.
SCHEME = 1
CORES = 2
#: The whole run's wall time on CORES cores: the run stops once its games have
#: taken CORES times as many CPU hours. Looks are played in order, so what
#: the cap leaves out is the last looks of the dearest undecided cells.
HOURS = 2.0


@dataclass(frozen=True)
class Group:
    """A game and player count, with its option combinations (played in turn)."""

    game_id: str
    players: int
    options: tuple[dict[str, Any], ...]

    @property
    def name(self) -> str:
        return f"{self.game_id} {self.players}p"

    @property
    def seats_a_side(self) -> int:
        """Seats that win together: two in The King is Dead at four players
        (partners sit opposite), else one."""
        if self.game_id != "king-is-dead" or team_of(0, self.players) is None:
            return 1
        return sum(1 for s in range(self.players) if team_of(s, self.players) == team_of(0, self.players))

    @property
    def sides(self) -> int:
        return self.players // self.seats_a_side


def groups() -> list[Group]:
    out: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for gid, game in rules.GAMES.items():
        for n, opts in game.setups():
            out.setdefault((gid, n), []).append(opts)
    return [Group(gid, n, tuple(opts)) for (gid, n), opts in out.items()]


@dataclass(frozen=True)
class BoardCell:
    group: Group
    level: str  # the computer's
    opponent: str  # random, greedy, or a level
    board: str

    @property
    def name(self) -> str:
        if self.opponent in LEVELS:
            return f"{self.group.name} {self.level} vs {self.opponent} @{self.board}"
        return f"{self.group.name} {self.level} @{self.board} vs {self.opponent}"

    @property
    def ladder(self) -> bool:
        return self.opponent in LEVELS

    def looks(self) -> tuple[int, ...]:
        """Where it is judged: a ladder cell's games (two searches) cost several
        times a game against random or greedy players, which get a look more;
        so does the ladder between two sides, which the targets ask decided in
        every two-player game."""
        return LOOKS if self.ladder and self.group.sides > 2 else LONG_LOOKS

    def target(self) -> float | None:
        """The side's share of the wins asked for: a game of two sides (two
        players, or two teams of two) by the two-player targets."""
        n = self.group.sides
        if self.ladder:
            return 0.60 if n == 2 else 1.5 / n
        if n == 2:
            return 0.90 if self.opponent == "random" else 0.65
        return 2 / n if self.opponent == "random" else None


def board_cells(pattern: str = "") -> list[BoardCell]:
    import re

    wanted = re.compile(pattern)
    out = []
    for g in groups():
        against = ("random", "greedy") if g.players == 2 else ("random",)
        cells = [BoardCell(g, "normal", o, PI4) for o in against]
        cells += [BoardCell(g, "hard", "normal", PI4), BoardCell(g, "normal", "easy", PI4)]
        cells += [BoardCell(g, "normal", o, ZERO) for o in against]
        out += [c for c in cells if wanted.search(c.name)]
    return out


# -- the plan: iterations a move on each board ----------------------------------------------------
def search_rate(group: Group, level: str = "normal", count: int = 4, iterations: int = 100) -> float:
    """Iterations per second of search CPU here at ``level``'s style (its
    playouts' horizons and its reading of the position), in ``count``
    positions of seeded random games."""
    done = cpu = 0.0
    for i, state in enumerate(positions(group.game_id, group.players, group.options[0], count)):
        bot = CountingIsmcts(Budget(iterations=iterations, seconds=None), seed=i, **style(LEVELS[level]))
        seat = state.to_move()
        assert seat is not None
        bot.choose(state, seat)
        done += bot.iterations
        cpu += bot.search_cpu
    return done / cpu


def level_rates(group: Group) -> dict[str, float]:
    """Per level, iterations per second of search CPU here; levels searching
    alike in this game (the same horizon, reading and playout) share one measurement,
    so that the load's ups and downs between two measurements do not set them apart."""
    measured: dict[tuple[int | None, bool, bool], float] = {}
    out = {}
    for name, lv in LEVELS.items():
        key = (style(lv)["horizons"].get(group.game_id), group.game_id in lv.reads, group.game_id in lv.plays)
        if key not in measured:
            measured[key] = search_rate(group, name)
        out[name] = measured[key]
    return out


def iterations_on(rates: dict[str, float], factor: float) -> dict[str, int]:
    """Per level, the iterations a board ``factor`` times slower than here
    runs in the level's share of the think time (its iteration cap at most),
    at the level's own search speed here (``rates``)."""
    out = {}
    for name, lv in LEVELS.items():
        b = level_budget(lv, DEFAULT_BUDGET)
        assert b.seconds is not None
        out[name] = max(1, min(b.iterations, int(rates[name] / factor * b.seconds)))
    return out


def make_plan(say: Callable[[str], None]) -> dict[str, Any]:
    us = nbody_us_per_step()
    factors = {b.name: b.cpu_factor for b in boards(us)}
    plan: dict[str, Any] = {"made": now(), "host": host(), "nbody_us_per_step": round(us, 3),
                            "cpu_factor": {b: round(factors[b], 2) for b in (PI4, ZERO)},
                            "think": {"iterations": DEFAULT_BUDGET.iterations,
                                      "seconds": DEFAULT_BUDGET.seconds},
                            "groups": {}}
    for g in groups():
        rates = level_rates(g)
        its = {b: iterations_on(rates, plan["cpu_factor"][b]) for b in (PI4, ZERO)}
        plan["groups"][g.name] = {"rate_here": round(rates["normal"]), "iterations": its,
                                  "rate_by_level": {n: round(r) for n, r in rates.items()}}
        say(f"  {g.name}: {', '.join(f'{n} {r:.0f}' for n, r in rates.items())} it/s here")
    return plan


def _budgets(plan: dict[str, Any]) -> dict[str, Any]:
    return {g: v.get("iterations") for g, v in plan.get("groups", {}).items()}


def load_plan(results: Path, say: Callable[[str], None], given: Path | None = None) -> dict[str, Any]:
    """The results directory's plan; with ``given`` (a plan kept from an
    earlier run, e.g. bench/board_plan.json), that one, copied in, so that
    runs on other days play at the same budgets; else one measured here."""
    path = results / PLAN
    if given is not None:
        try:
            chosen = json.loads(given.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            raise ResultsError(f"{given}: no plan to play at ({e})") from None
        if not path.exists():
            _write_plan(path, chosen)
        elif _budgets(load_plan(results, say)) != _budgets(chosen):
            raise ResultsError(f"{path} has other budgets than {given}: play {given}'s in another "
                               "results directory, or leave --plan out to go on at the directory's")
    if path.exists():
        try:
            plan = json.loads(path.read_text(encoding="utf-8"))
        except ValueError as e:
            raise ResultsError(f"{path}: not JSON ({e}); delete it to measure the plan again") from None
        missing = [g.name for g in groups() if g.name not in plan.get("groups", {})]
        if missing:
            raise ResultsError(f"{path}: no budgets for {', '.join(missing)}; delete it to measure again")
        return plan
    say(f"measuring the budgets (into {path}):")
    plan = make_plan(say)
    _write_plan(path, plan)
    return plan


def _write_plan(path: Path, plan: dict[str, Any]) -> None:
    """Whole or not at all: a run stopped while writing leaves no half plan."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(plan, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(path)


def code_of(plan: dict[str, Any]) -> str:
    """The fingerprint of the code that plays (rules/, players/, Python) and of the plan's budgets."""
    budgets = json.dumps({g: v["iterations"] for g, v in plan["groups"].items()}, sort_keys=True)
    text = f"board scheme {SCHEME}; {fingerprint(0, None)}; {budgets}"
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def plan_lines(plan: dict[str, Any]) -> list[str]:
    f = plan["cpu_factor"]
    lines = [f"budgets: the think time {plan['think']['seconds']} s a move, each level its share "
             f"({', '.join(f'{n} {lv.share:g}' for n, lv in LEVELS.items())}); this machine's search speed "
             f"turned into a {PI4}'s ({f[PI4]}x slower) and a {ZERO}'s ({f[ZERO]}x), measured {plan['made']}",
             f"| game | it/s here | {PI4}: easy / normal / hard iterations a move | {ZERO}: normal |",
             "|---|---:|---|---:|"]
    for name, g in plan["groups"].items():
        p, z = g["iterations"][PI4], g["iterations"][ZERO]
        rate = f"{g['rate_here']}"
        hard = g.get("rate_by_level", {}).get("hard", g["rate_here"])
        if hard != g["rate_here"]:  # hard searches otherwise (players.levels: its reading)
            rate += f" (hard {hard})"
        lines.append(f"| {name} | {rate} | {p['easy']} / {p['normal']} / {p['hard']} "
                     f"| {z['normal']} |")
    return lines


# -- one game -------------------------------------------------------------------------------------
@dataclass
class BoardGame:
    rewards: list[float]
    bot_seat: int
    options: dict[str, Any]
    moves: int
    decisions: int
    iterations: int
    seconds: float
    cpu_seconds: float


def _searcher(plan: dict[str, Any], cell: BoardCell, level: str, seed: int) -> CountingIsmcts:
    its = plan["groups"][cell.group.name]["iterations"][cell.board][level]
    return CountingIsmcts(Budget(iterations=its, seconds=None), seed=seed, **style(LEVELS[level]))


def play(cell: BoardCell, index: int, plan: dict[str, Any]) -> BoardGame:
    """Game ``index`` of ``cell``: every seed follows from the index."""
    start, cpu = time.perf_counter(), time.process_time()
    g = cell.group
    options = g.options[index % len(g.options)]
    bot_seat = (index // len(g.options)) % g.players
    seats: list[Player] = []
    for s in range(g.players):
        if cell.ladder:
            seats.append(_searcher(plan, cell, cell.opponent, index * 7 + s + 1))
        else:
            seats.append((RandomPlayer if cell.opponent == "random" else Greedy)(seed=index * 7 + s))
    bot = _searcher(plan, cell, cell.level, index)
    seats[bot_seat] = bot
    state = rules.get(g.game_id).new_game(g.players, game_seed(index), options)
    moves = 0
    while (seat := state.to_move()) is not None:
        state.apply(state.sample_chance() if seat == rules.CHANCE else seats[seat].choose(state, seat))
        moves += 1
    outcome = state.outcome()
    assert outcome is not None
    return BoardGame(rewards(outcome, g.players), bot_seat, options, moves, bot.decisions,
                     bot.budget.iterations, time.perf_counter() - start, time.process_time() - cpu)


def record(cell: BoardCell, index: int, game: BoardGame, code: str) -> GameRecord:
    return GameRecord(
        cell=cell.name, index=index, game=cell.group.game_id, players=cell.group.players,
        options=game.options,
        opponent=cell.opponent, seed=game_seed(index), bot_seat=game.bot_seat, bot_seed=index,
        result=game.rewards, winners=[s for s, r in enumerate(game.rewards) if r > 0],
        share=game.rewards[game.bot_seat], moves=game.moves, computer_moves=game.decisions,
        seconds=round(game.seconds, 3), cpu_seconds=round(game.cpu_seconds, 3),
        iterations=game.iterations, time_limit=None, fingerprint=code, host=host(), finished=now())


# -- what it will cost ----------------------------------------------------------------------------
def probe(group: Group) -> tuple[float, float]:
    """Decisions a seat makes in a game (one seeded random game) and the CPU
    seconds a greedy seat spends in one (a seeded greedy game)."""
    state = rules.get(group.game_id).new_game(group.players, 1, group.options[0])
    import random

    rng = random.Random(1)
    decisions = 0
    while (seat := state.to_move()) is not None:
        if seat == rules.CHANCE:
            state.apply(state.sample_chance())
            continue
        legal = state.legal_moves()
        decisions += len(legal) > 1
        state.apply(rng.choice(legal))
    state = rules.get(group.game_id).new_game(group.players, 1, group.options[0])
    greedy = [Greedy(seed=s) for s in range(group.players)]
    cpu = time.process_time()
    while (seat := state.to_move()) is not None:
        state.apply(state.sample_chance() if seat == rules.CHANCE else greedy[seat].choose(state, seat))
    return decisions / group.players, (time.process_time() - cpu) / group.players


def game_cost(cell: BoardCell, plan: dict[str, Any], probes: dict[str, tuple[float, float]]) -> float:
    """CPU seconds a game of ``cell`` takes here (estimate): each searching
    seat's decisions at its iterations and this machine's speed, plus the
    greedy seats' own time."""
    g = cell.group
    per_seat, greedy = probes[g.name]
    info = plan["groups"][g.name]
    its = info["iterations"][cell.board]
    rates = info.get("rate_by_level", {})  # a plan from before levels had their own speed: one for all
    rate = info["rate_here"]
    cost = per_seat * its[cell.level] / rates.get(cell.level, rate)
    others = g.players - 1
    if cell.ladder:
        cost += others * per_seat * its[cell.opponent] / rates.get(cell.opponent, rate)
    elif cell.opponent == "greedy":
        cost += others * greedy
    return cost


def game_costs(cells: Sequence[BoardCell], plan: dict[str, Any]) -> dict[str, float]:
    """Per cell, the CPU seconds a game takes here (estimate)."""
    probes: dict[str, tuple[float, float]] = {}
    for c in cells:
        if c.group.name not in probes:
            probes[c.group.name] = probe(c.group)
    return {c.name: game_cost(c, plan, probes) for c in cells}


def cost_lines(cells: Sequence[BoardCell], plan: dict[str, Any], costs: dict[str, float],
               looks: Sequence[int] | None = None) -> list[str]:
    first = sum(costs[c.name] * (looks or c.looks())[0] for c in cells)
    last = sum(costs[c.name] * (looks or c.looks())[-1] for c in cells)
    kinds = [looks] if looks else [k for k in (LOOKS, LONG_LOOKS) if any(c.looks() == k for c in cells)]
    dearest = sorted(cells, key=lambda c: -costs[c.name])[:3]
    return [
        "cost (estimate from one random and one greedy game per game and player count, within a factor "
        "of 2): "
        f"{len(cells)} cells judged at "
        + " or ".join(f"{', '.join(map(str, k))} games (z {' / '.join(f'{z:.2f}' for z in look_z(k))})"
                      for k in kinds)
        + " (each look's exact interval, the error spent late: 95% over all looks"
        + ("; the ladder's cells at 3 or more sides at the first, the others at the second);"
           if len(kinds) > 1 else ");"),
        f"  every cell to its first look: {first / 3600:.1f} CPU hours ({first / 3600 / CORES:.1f} h on "
        f"{CORES} cores); every cell to the last look: {last / 3600:.1f} CPU hours "
        f"({last / 3600 / CORES:.1f} h on {CORES} cores); decided cells stop early, so a run costs "
        f"between the two, and it stops at {HOURS * CORES:.1f} CPU hours ({HOURS:.1f} h on {CORES} cores), "
        "its undecided cells judged by the games played",
        "  dearest a game: " + ", ".join(f"{c.name} {costs[c.name]:.0f} s" for c in dearest),
    ]


# -- the run --------------------------------------------------------------------------------------
def _stop(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def gathered(results: Path, code: str, warn: list[str]) -> dict[str, dict[int, GameRecord]]:
    """Per cell, its games of this code by index (the first record of a game played twice)."""
    out: dict[str, dict[int, GameRecord]] = {}
    for r in read_results(results, warn) if results.is_dir() else []:
        if r.fingerprint == code:
            out.setdefault(r.cell, {}).setdefault(r.index, r)
    return out


def _add_others(have: dict[str, dict[int, GameRecord]], results: Path, code: str) -> None:
    """Add to ``have`` the games of this code the other shards have written to ``results``."""
    for name, games in gathered(results, code, []).items():
        for i, rec in games.items():
            have.setdefault(name, {}).setdefault(i, rec)


def cpu_spent(have: dict[str, dict[int, GameRecord]], cells: Sequence[BoardCell]) -> float:
    """The CPU seconds the games gathered of ``cells`` took."""
    return sum(r.cpu_seconds for c in cells for r in have.get(c.name, {}).values())


def shares(games: dict[int, GameRecord], seats_a_side: int = 1) -> list[float]:
    """The computer's side's shares of games 0, 1, 2, .. up to the first one
    missing: a seat's share of a won game is split with its partners, a
    side's is whole."""
    out = []
    while len(out) in games:
        out.append(min(1.0, games[len(out)].share * seats_a_side))
    return out


#: Seconds between two looks at the other shards' games by a shard that waits
#: for them (none of its own games is left before any cell's next look).
POLL = 5.0


def _others_running(results: Path, mine: Path) -> bool:
    return any(being_written(f) for f in results.glob("*.jsonl") if f != mine)


@dataclass(frozen=True)
class Next:
    """What a shard plays next: ``cell``'s games ``todo``, up to its look
    ``look``; no cell when none is left, ``awaited`` when another shard's
    games are (its part of some cell's next look is done, theirs not),
    ``short`` when some undecided cell's next look does not fit in the CPU
    the cap leaves."""

    cell: BoardCell | None
    todo: list[int]
    look: int
    awaited: bool
    short: bool = False


def _unplayed(cell: BoardCell, games: dict[int, GameRecord], look: int, shard: tuple[int, int]) -> list[int]:
    """The games of ``cell`` before ``look`` that are ``shard``'s and not played yet."""
    k, n = shard
    return [i for i in range(look) if i not in games and shard_of(cell.name, i, n) == k]


@dataclass(frozen=True)
class _Step:
    """A cell's games up to its next look: this shard's part, what all the
    shards' still missing games will cost (at ``per_game``, the mean CPU of
    its games so far), and whether some are played."""

    cell: BoardCell
    so_far: list[float]
    look: int
    todo: list[int]
    per_game: float
    cost: float
    started: bool


def _steps(cells: Sequence[BoardCell], have: dict[str, dict[int, GameRecord]], shard: tuple[int, int],
           costs: dict[str, float], looks: Sequence[int] | None, alone: bool) -> list[_Step]:
    """Each undecided cell's step to its next look (past a look this shard's
    part of is done when ``alone``)."""
    out = []
    for cell in cells:
        cell_looks = looks or cell.looks()
        games = have.get(cell.name, {})
        so_far = shares(games, cell.group.seats_a_side)
        if judge(so_far, cell.target(), cell_looks).final:
            continue
        look = next_look(len(so_far), cell_looks)
        todo = _unplayed(cell, games, look, shard)
        while alone and not todo and look < cell_looks[-1]:
            look = next_look(look, cell_looks)
            todo = _unplayed(cell, games, look, shard)
        played = [r.cpu_seconds for r in games.values()]
        per_game = sum(played) / len(played) if played else costs[cell.name]
        missing = sum(1 for i in range(look) if i not in games)
        reached = max([n for n in cell_looks if n <= len(so_far)], default=0)
        started = any(reached <= i < look for i in games)
        out.append(_Step(cell, so_far, look, todo, per_game, missing * per_game, started))
    return out


def next_cell(cells: Sequence[BoardCell], have: dict[str, dict[int, GameRecord]], shard: tuple[int, int],
              costs: dict[str, float], looks: Sequence[int] | None, alone: bool = False,
              left: float = float("inf")) -> Next:
    """The cell this shard plays next and its games, up to the cell's next look:
    first every cell to its first look, the cheapest first; then the cell most
    likely to be decided for each CPU second it will take (``promise``, and
    the CPU its games have taken so far). A shard with no other running
    beside it (``alone``: they run elsewhere, or later) goes on past a look
    its part of is done, as the others' games are not here to judge it.
    A step is begun only if it fits in the CPU ``left`` of the cap besides
    the steps begun (their missing games, every shard's): games that stop
    short of a look decide nothing, and a run capped mid-step had spent a
    sixth of its CPU so."""
    steps = _steps(cells, have, shard, costs, looks, alone)
    free = left - sum(s.cost for s in steps if s.started)
    best: tuple[tuple[int, float], Next] | None = None
    awaited = short = False
    for step in steps:
        if not step.todo:
            awaited = True
            continue
        if not step.started and step.cost > free:
            short = True
            continue
        cell, cell_looks = step.cell, looks or step.cell.looks()
        if len(step.so_far) < cell_looks[0]:
            key = (0, step.per_game)
        else:
            chance, more = promise(step.so_far, cell.target(), cell_looks)
            key = (1, -chance / max(more * step.per_game, 1e-9))
        if best is None or key < best[0]:
            best = (key, Next(cell, step.todo, step.look, False))
    return Next(None, [], 0, awaited, short) if best is None else best[1]


def run(results: Path, shard: tuple[int, int], pattern: str, dry_run: bool,
        looks: Sequence[int] | None = None, cap: float = HOURS * CORES * 3600,
        given: Path | None = None, reuse: Path | None = None) -> int:
    """Play ``pattern``'s cells' games of shard ``shard`` to their looks
    (``looks``, else each cell's own) in the order of ``next_cell`` until
    the games of those cells by this code in ``results`` (every shard's) have
    taken ``cap`` CPU seconds; at ``given``'s budgets if given (``load_plan``).
    A game this code has already played in ``reuse`` (another results
    directory at the same budgets) is taken from there, not played again: the
    same seeds play the same game, and it counts at the CPU it took there."""
    def say(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    cells = board_cells(pattern)
    if not cells:
        raise ResultsError(f"no cell's name matches {pattern!r}; see the cell names with --dry-run")
    plan = load_plan(results, say, given)
    code = code_of(plan)
    costs = game_costs(cells, plan)
    for line in [*plan_lines(plan), *cost_lines(cells, plan, costs, looks)]:
        say(line)
    if dry_run:
        return 0
    k, n = shard
    warn: list[str] = []
    have = gathered(results, code, warn)
    for line in warn:
        say(f"warning: {line}")
    kept = gathered(reuse, code, []) if reuse is not None else {}
    if reuse is not None:
        say(f"{sum(len(v) for v in kept.values())} games of code {code} in {reuse}: each taken from there "
            "when the run comes to it")
    say(f"shard {k}/{n}, code {code}: {sum(len(v) for v in have.values())} games already in {results}")
    before = signal.signal(signal.SIGTERM, _stop)
    played = waited = 0
    path = results / f"board-{host()}-shard-{k}-of-{n}.jsonl"
    try:
        with ResultsWriter(path) as out:
            while True:
                if n > 1:  # the other shards' games so far: a cell they decided stops here too
                    _add_others(have, results, code)
                if (spent := cpu_spent(have, cells)) >= cap:
                    say(f"the run's {cap / 3600:.1f} CPU hours are spent ({spent / 3600:.2f}): "
                        f"{played} games played; its undecided cells are judged by the games so far")
                    return 0
                alone = n == 1 or not _others_running(results, path)
                step = next_cell(cells, have, shard, costs, looks, alone, left=cap - spent)
                cell = step.cell
                if cell is None:
                    if step.awaited and not alone:
                        if not waited:
                            say(f"shard {k}/{n} waits for the other shards' games to reach the next look")
                        waited += 1
                        time.sleep(POLL)
                        continue
                    if step.short:
                        say(f"no undecided cell's next look fits in the {(cap - spent) / 60:.1f} CPU minutes "
                            "the cap leaves; its undecided cells are judged by the games so far")
                    break
                waited = 0
                mine = have.setdefault(cell.name, {})
                for i in step.todo:
                    taken = kept.get(cell.name, {}).get(i)
                    if n > 1 and taken is None:  # a game to play: the other shards' CPU since counts too
                        _add_others(have, results, code)
                    if cpu_spent(have, cells) >= cap:
                        break
                    mine[i] = rec = taken or record(cell, i, play(cell, i, plan), code)
                    out.write(rec)
                    played += 1
                    say(f"  {cell.name} #{i}: share {rec.share:g}, {rec.cpu_seconds:.1f} s CPU"
                        + (f" (taken from {reuse})" if taken else ""))
                so_far = shares(mine, cell.group.seats_a_side)
                if len(so_far) >= step.look:
                    j = judge(so_far, cell.target(), looks or cell.looks())
                    say(f"{cell.name}: {j.verdict or 'no target'} at {j.games} games "
                        f"({100 * j.lo:.0f}-{100 * j.hi:.0f}%)")
    except KeyboardInterrupt:
        say(f"stopped: {played} games written, the game in progress is lost; the same command goes on")
        return 130
    finally:
        signal.signal(signal.SIGTERM, before)
    say(f"shard {k}/{n} done: {played} games played")
    return 0


# -- the same games on other code ----------------------------------------------------------------
def replay(results: Path, code: str, pattern: str, per_cell: int,
           say: Callable[[str], None]) -> tuple[int, int]:
    """Play again, with the code here, the first ``per_cell`` games of each of
    ``pattern``'s cells that code ``code`` played into ``results``, and say any
    whose outcome, moves or computer's decisions differ: whether a cell's
    verdict from that code stands for this one. (played, differing)"""
    plan = load_plan(results, say)
    have = gathered(results, code, [])
    played = differing = 0
    for cell in board_cells(pattern):
        for i in sorted(have.get(cell.name, {}))[:per_cell]:
            rec, game = have[cell.name][i], play(cell, i, plan)
            again = (game.rewards, game.moves, game.decisions)
            played += 1
            if again != (rec.result, rec.moves, rec.computer_moves):
                differing += 1
                say(f"{cell.name} #{i}: recorded {rec.result}, {rec.moves} moves, {rec.computer_moves} "
                    f"decisions; here {game.rewards}, {game.moves}, {game.decisions}")
    say(f"{played} games of code {code} played again here: {played - differing} the same, "
        f"{differing} different")
    return played, differing


# -- the report -----------------------------------------------------------------------------------
def _results_plan(results: Path, code: str | None) -> tuple[dict[str, Any], str]:
    """A results directory's plan, and the code whose games are read (default: this code's at that plan)."""
    plan = load_plan(results, lambda _: None) if (results / PLAN).exists() else None
    if plan is None:
        raise ResultsError(f"{results}: no {PLAN}; the run writes it when it starts")
    return plan, code or code_of(plan)


def gathered_cells(results: Path, pattern: str, code: str | None = None
                   ) -> tuple[list[BoardCell], dict[str, dict[int, GameRecord]]]:
    """``pattern``'s cells and each one's games of ``code`` in ``results``."""
    _, code = _results_plan(results, code)
    cells = board_cells(pattern)
    if not cells:
        raise ResultsError(f"no cell's name matches {pattern!r}; see the cell names with board --dry-run")
    have = gathered(results, code, [])
    return cells, {c.name: have.get(c.name, {}) for c in cells}


def report(results: Path, pattern: str, looks: Sequence[int] | None = None,
           code: str | None = None) -> list[str]:
    """The table, in Markdown: per cell its verdict, interval, games and cost."""
    plan, code = _results_plan(results, code)
    warn: list[str] = []
    have = gathered(results, code, warn)
    lines = [f"games of code {code} in {results}", *plan_lines(plan), "",
             "| cell | iterations a move | win share | interval | games | target | verdict | CPU min |",
             "|---|---|---:|---|---:|---:|---|---:|"]
    count: dict[str, int] = {}
    for cell in board_cells(pattern):
        games = have.get(cell.name, {})
        j: Judgement = judge(shares(games, cell.group.seats_a_side), cell.target(), looks or cell.looks())
        its = plan["groups"][cell.group.name]["iterations"][cell.board]
        budget = f"{its[cell.level]}" + (f" vs {its[cell.opponent]}" if cell.ladder else "")
        target = "" if cell.target() is None else f"> {100 * cell.target():.0f}%"  # type: ignore[operator]
        verdict = j.verdict or "-"
        if j.verdict == "undecided" and not j.final:
            verdict = "undecided, goes on" if j.games else "not played"
        count[verdict] = count.get(verdict, 0) + 1
        minutes = sum(r.cpu_seconds for r in games.values()) / 60
        shown = f"**{verdict}**" if verdict in ("met", "missed") else verdict
        share, interval = ("-", "-")
        if j.games:
            share, interval = f"{100 * j.share:.0f}%", f"{100 * j.lo:.0f}-{100 * j.hi:.0f}%"
        lines.append(f"| {cell.name} | {budget} | {share} | {interval} "
                     f"| {j.games} | {target} | {shown} | {minutes:.1f} |")
    lines.append("")
    lines.append("cells: " + ", ".join(f"{n} {v}" for v, n in sorted(count.items())))
    lines += [f"- {w}" for w in warn]
    return lines
