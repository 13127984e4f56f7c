"""Computer players: strength against random and greedy players, search
speed and think time.

Strength: per game, player count and option combination, whole games of the
ISMCTS player against random players, then against one-move-ahead greedy
players (players/simple.py), the computer taking every seat in turn. Its win
share (a tie shared between the winners) with a 95% Wilson interval; the
targets are the issue's: with two players 90% against random and 65% against
greedy, with three or four twice the fair share against random.

Speed: in positions spread over seeded random games, ``choose()`` at the
default budget (players.DEFAULT_BUDGET): search iterations per second (goal
1,000) and the think time per move, median and worst (target 1 s). The budget
stops on time as well, so a Pi Zero 2 W thinks as long with fewer iterations:
how many fewer is the latency model's CPU factor (bench/pi_model.py, measured
here by its n-body run each time; about 28x, see bench/README.md).

The full count is 200 games per cell at the default budget, which is days of
CPU on two cores; the environment sets what runs:

    TABLEKEEPER_BOT_GAMES        games per cell and opponent (default 200; --quick 1)
    TABLEKEEPER_BOT_ITERATIONS   the computer's budget in the strength games
                                 (default: the default budget's iterations, no time limit)
    TABLEKEEPER_BOT_GAME         only games whose id contains this
    TABLEKEEPER_BOT_CELLS        only cells whose "label vs opponent" this regular
                                 expression finds (e.g. "2p.*vs greedy")
    TABLEKEEPER_BOT_SECONDS      a bound on each cell's games: no game starts after it
                                 (the row says how many were played); default 20 s
                                 unless TABLEKEEPER_BOT_GAMES is set, so that
                                 `make bench` ends within the hour
    TABLEKEEPER_BOT_SPEED        0: no speed rows

    python -m bench.bench_players [--quick]

The full run in shards, resumable, on any number of machines or nights
(results as one JSON line per game: bench/strength_results.py):

    python -m bench.bench_players strength --shard K/N --results DIR [--games 200]
    python -m bench.bench_players report --results DIR [--games 200]
    python -m bench.bench_players cost [--games 2] [--probe 50]   # CPU per cell, estimated

Each level at the budget a real board gives it, judged by a sequential test
(bench/board_strength.py); it says what it will cost, then plays:

    python -m bench.bench_players board --results DIR [--plan FILE] [--shard K/N] [--cells REGEX]
                                        [--hours H] [--reuse DIR] [--dry-run]
    python -m bench.bench_players board-replay --results DIR --code HEX [--cells REGEX] [--games K]
    python -m bench.bench_players board-report --results DIR [--cells REGEX]
    python -m bench.bench_players board-sim --results DIR [--cells REGEX] [--hours H] [--speed F] [--runs N]
"""

from __future__ import annotations

import argparse
import math
import os
import random
import re
import signal
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import rules
from bench.common import Row, machine, main, table
from bench.pi_model import boards, nbody_us_per_step
from bench.strength_results import (
    GameRecord,
    ResultsError,
    ResultsWriter,
    fingerprint,
    host,
    now,
    parse_shard,
    read_results,
    shard_of,
    unique,
)
from players import DEFAULT_BUDGET, Budget, Greedy, Ismcts, Player, RandomPlayer
from players.base import rewards

AREA = "players"
Z95 = 1.96


def wilson(successes: float, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (successes may be fractional: shared wins)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def cells() -> list[tuple[str, int, dict[str, Any]]]:
    only = os.environ.get("TABLEKEEPER_BOT_GAME", "")
    return [(gid, n, opts) for gid, game in rules.GAMES.items() if only in gid
            for n, opts in game.setups()]


def label(game_id: str, players: int, options: dict[str, Any]) -> str:
    opts = " ".join(f"{k}={v}" for k, v in options.items())
    return f"{game_id} {players}p" + (f" {opts}" if opts else "")


OPPONENTS = ("random", "greedy")


class Cell(NamedTuple):
    """One row of the strength table: a game, its player count and options, and the opponents."""

    game_id: str
    players: int
    options: dict[str, Any]
    opponent: str  # random or greedy

    @property
    def name(self) -> str:
        return f"{label(self.game_id, self.players, self.options)} vs {self.opponent}"

    def target(self) -> float | None:
        """The issue's target for the computer's share, if it sets one."""
        if self.players == 2:
            return 0.90 if self.opponent == "random" else 0.65
        return 2 / self.players if self.opponent == "random" else None


def strength_cells(pattern: str = "") -> list[Cell]:
    """Every cell (cells() against each opponent) whose name ``pattern`` finds."""
    wanted = re.compile(pattern)
    return [cell for game_id, players, options in cells() for opponent in OPPONENTS
            if wanted.search((cell := Cell(game_id, players, options, opponent)).name)]


def verdict(lo: float, hi: float, target: float | None) -> str:
    """What the 95% interval says of the target: met, missed or undecided."""
    if target is None:
        return ""
    return "met" if lo > target else "missed" if hi < target else "undecided"


class CountingIsmcts(Ismcts):
    """The computer player, counting its decisions and its search."""

    def __init__(self, budget: Budget, seed: int, **style: Any) -> None:
        super().__init__(budget, seed=seed, **style)
        self.decisions = 0
        self.iterations = 0
        self.search_cpu = 0.0

    def choose(self, state: rules.State, seat: int) -> rules.Move:
        move = super().choose(state, seat)
        self.decisions += self.last.iterations > 0
        self.iterations += self.last.iterations
        self.search_cpu += self.last.cpu_seconds
        return move


@dataclass
class Played:
    """A finished strength game."""

    rewards: list[float]
    bot_seat: int
    moves: int
    bot: CountingIsmcts
    seconds: float
    cpu_seconds: float


def game_seed(index: int) -> int:
    return 1000 + index


def one_game(cell: Cell, index: int, budget: Budget) -> Played:
    """Game ``index`` of ``cell``: every seed follows from the index (the
    computer's seat is index mod players), so any machine plays the same game."""
    start, cpu = time.perf_counter(), time.process_time()
    bot_seat = index % cell.players
    kind = RandomPlayer if cell.opponent == "random" else Greedy
    seats: list[Player] = [kind(seed=index * 7 + s) for s in range(cell.players)]
    bot = CountingIsmcts(budget, seed=index)
    seats[bot_seat] = bot
    state = rules.get(cell.game_id).new_game(cell.players, game_seed(index), cell.options)
    moves = 0
    while (seat := state.to_move()) is not None:
        state.apply(state.sample_chance() if seat == rules.CHANCE else seats[seat].choose(state, seat))
        moves += 1
    outcome = state.outcome()
    assert outcome is not None
    return Played(rewards(outcome, cell.players), bot_seat, moves, bot,
                  time.perf_counter() - start, time.process_time() - cpu)


def strength(game_id: str, players: int, options: dict[str, Any], opponent: str, games: int,
             budget: Budget, bound: float | None = None) -> tuple[float, int, float, int]:
    """The computer's total share of the wins over ``games`` games (fewer when
    ``bound`` seconds have passed: no game starts after it), how many, the
    seconds taken, and in how many it was among the winners (with four
    players in The King is Dead a win is its team's, shared with a partner)."""
    won = 0.0
    among = 0
    start = time.perf_counter()
    played = 0
    for i in range(games):
        if bound is not None and time.perf_counter() - start >= bound:
            break
        played += 1
        game = one_game(Cell(game_id, players, options, opponent), i, budget)
        share = game.rewards[game.bot_seat]
        won += share
        among += share > 0
    return won, played, time.perf_counter() - start, among


def positions(game_id: str, players: int, options: dict[str, Any], count: int) -> list[rules.State]:
    """``count`` positions where a player moves with a choice, from seeded random games."""
    game = rules.get(game_id)
    out: list[rules.State] = []
    seed = 0
    while len(out) < count:
        rng = random.Random(seed)
        state = game.new_game(players, seed, options)
        plies = 0
        while (seat := state.to_move()) is not None:
            if seat == rules.CHANCE:
                state.apply(state.sample_chance())
                continue
            moves = state.legal_moves()
            if len(moves) > 1 and plies % 25 == 7 and len(out) < count:
                out.append(state.copy())
            plies += 1
            state.apply(rng.choice(moves))
        seed += 1
    return out


def speed(game_id: str, players: int, options: dict[str, Any], count: int, zero: float,
          pi4: float | None = None) -> list[Row]:
    """``zero``, ``pi4``: a Pi Zero 2 W's and a Pi 4's CPU time per CPU second
    here (bench/pi_model.py); the Pi 4's iterations a move are said beside the speed."""
    times: list[float] = []
    iterations = 0
    searching = 0.0
    for i, state in enumerate(positions(game_id, players, options, count)):
        bot = Ismcts(DEFAULT_BUDGET, seed=i)
        seat = state.to_move()
        assert seat is not None
        t0 = time.perf_counter()
        bot.choose(state, seat)
        times.append(time.perf_counter() - t0)
        iterations += bot.last.iterations
        searching += bot.last.cpu_seconds
    name = label(game_id, players, options)
    rate = iterations / searching
    budget = f"{DEFAULT_BUDGET.iterations} iterations or {DEFAULT_BUDGET.seconds} s"
    # On a Zero 2 W the same search runs ``zero`` times slower: the time budget
    # stops it with fewer iterations, or the iterations take longer than it.
    there_rate = rate / zero
    there = DEFAULT_BUDGET.iterations / there_rate
    if DEFAULT_BUDGET.seconds is not None:
        there = min(there, DEFAULT_BUDGET.seconds + 1 / there_rate)  # the last iteration finishes
    there_iterations = min(DEFAULT_BUDGET.iterations, there * there_rate)
    on_pi4 = ""
    if pi4 is not None and DEFAULT_BUDGET.seconds is not None:
        pi4_iterations = min(DEFAULT_BUDGET.iterations, rate / pi4 * DEFAULT_BUDGET.seconds)
        on_pi4 = (f"; on a Pi 4 (model, {pi4:.1f}x this machine's CPU time) about {rate / pi4:.0f} it/s, "
                  f"{pi4_iterations:.0f} iterations in the {DEFAULT_BUDGET.seconds} s think time")
    return [
        Row(AREA, f"{name}: search iterations per second", rate, "it/s", 1000.0, False,
            f"per second of the search's own CPU time (the wall time follows the load); {count} positions; "
            f"default budget {budget}{on_pi4}"),
        Row(AREA, f"{name}: think time per move, median", statistics.median(times), "s", 1.0,
            note=f"worst {max(times):.2f} s; {iterations / count:.0f} iterations a move"),
        Row(AREA, f"{name}: think time per move on a Pi Zero 2 W (model)", there, "s", 1.0,
            note=f"{zero:.1f}x this machine's CPU time (bench/pi_model.py): about {there_rate:.0f} "
                 f"it/s, {there_iterations:.0f} iterations a move"),
    ]


DEFAULT_CELL_SECONDS = 20.0


def measure(quick: bool) -> list[Row]:
    """``quick``: one position and one game against random players at five
    iterations, at the fewest seats of each game (a smoke run)."""
    games = int(os.environ.get("TABLEKEEPER_BOT_GAMES", "1" if quick else "200"))
    iterations = int(os.environ.get("TABLEKEEPER_BOT_ITERATIONS", "5" if quick else
                                    str(DEFAULT_BUDGET.iterations)))
    budget = Budget(iterations=iterations, seconds=None)
    seconds_env = os.environ.get("TABLEKEEPER_BOT_SECONDS")
    # Unasked, 200 games a cell would keep `make bench` busy for days: each
    # cell then gets a bounded glimpse, and the full run is asked for by name.
    bound = float(seconds_env) if seconds_env else (
        None if "TABLEKEEPER_BOT_GAMES" in os.environ or quick else DEFAULT_CELL_SECONDS)
    wanted = re.compile(os.environ.get("TABLEKEEPER_BOT_CELLS", ""))
    with_speed = os.environ.get("TABLEKEEPER_BOT_SPEED", "1") != "0"
    factor = {b.name: b.cpu_factor for b in boards(nbody_us_per_step())}
    zero, pi4 = factor["Pi Zero 2 W"], factor["Pi 4"]
    rows: list[Row] = []
    seen: set[str] = set()
    seen_speed: set[tuple[str, int]] = set()
    for game_id, players, options in cells():
        if quick and game_id in seen:
            continue
        seen.add(game_id)
        name = label(game_id, players, options)
        if with_speed and (game_id, players) not in seen_speed:
            seen_speed.add((game_id, players))
            rows += speed(game_id, players, options, 1 if quick else 8, zero, pi4)
        for opponent in ("random",) if quick else ("random", "greedy"):
            if not wanted.search(f"{name} vs {opponent}"):
                continue
            won, n, seconds, among = strength(game_id, players, options, opponent, games, budget, bound)
            print(f"  {name} vs {opponent}: {won:g}/{n} in {seconds:.0f} s", file=sys.stderr, flush=True)
            if n == 0:
                continue
            lo, hi = wilson(won, n)
            fair = 1 / players
            target = Cell(game_id, players, options, opponent).target()
            judged = verdict(lo, hi, target)
            judged = f"; by the interval: {judged}" if judged else ""
            rows.append(Row(
                AREA, f"{name}: win share vs {opponent}", 100 * won / n, "%",
                None if target is None else 100 * target, False,
                f"95% interval {100 * lo:.0f}-{100 * hi:.0f}% over {n} games (fair share {100 * fair:.0f}%), "
                f"computer at {iterations} iterations, every seat in turn; {seconds / n:.1f} s a game; "
                f"among the winners in {among} of {n}{judged}"))
    return rows


def record(cell: Cell, index: int, game: Played, budget: Budget, code: str) -> GameRecord:
    return GameRecord(
        cell=cell.name, index=index, game=cell.game_id, players=cell.players, options=cell.options,
        opponent=cell.opponent, seed=game_seed(index), bot_seat=game.bot_seat, bot_seed=index,
        result=game.rewards, winners=[s for s, r in enumerate(game.rewards) if r > 0],
        share=game.rewards[game.bot_seat], moves=game.moves, computer_moves=game.bot.decisions,
        seconds=round(game.seconds, 3), cpu_seconds=round(game.cpu_seconds, 3),
        iterations=budget.iterations, time_limit=budget.seconds, fingerprint=code, host=host(),
        finished=now())


def _stop(signum: int, frame: object) -> None:
    raise KeyboardInterrupt  # `timeout` and a shutdown stop the run as Ctrl-C does


def run_shard(results: Path, games: int, shard: tuple[int, int], pattern: str, budget: Budget) -> int:
    """Plays this shard's games not yet in ``results``, each appended as it ends."""
    k, n = shard
    results.mkdir(parents=True, exist_ok=True)
    warn: list[str] = []
    code = fingerprint(budget.iterations, budget.seconds)
    gathered = read_results(results, warn)
    done = {(r.cell, r.index) for r in gathered if r.fingerprint == code}
    for line in warn:
        print(f"warning: {line}", file=sys.stderr)
    mine = [(cell, i) for i in range(games) for cell in strength_cells(pattern)
            if shard_of(cell.name, i, n) == k]
    todo = [(cell, i) for cell, i in mine if (cell.name, i) not in done]
    other = sum(r.fingerprint != code for r in gathered)
    print(f"shard {k}/{n}: {len(mine)} games, {len(mine) - len(todo)} already in {results}, "
          f"{len(todo)} to play; "
          f"code {code}, {budget.iterations} iterations a move"
          + (f", at most {budget.seconds} s" if budget.seconds else "")
          + (f" ({other} games there are of other code or budget: not counted here)" if other else ""),
          file=sys.stderr, flush=True)
    before = signal.signal(signal.SIGTERM, _stop)
    played = 0
    try:
        with ResultsWriter(results / f"{host()}-shard-{k}-of-{n}.jsonl") as out:
            for cell, i in todo:
                game = one_game(cell, i, budget)
                out.write(record(cell, i, game, budget, code))
                played += 1
                share = game.rewards[game.bot_seat]
                print(f"  [{played}/{len(todo)}] {cell.name} #{i}: computer's share {share:g}, "
                      f"{game.moves} moves, {game.cpu_seconds:.0f} s CPU", file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        print(f"stopped: {played} games written, the game in progress is lost; the same command goes on",
              file=sys.stderr)
        return 130
    finally:
        signal.signal(signal.SIGTERM, before)
    print(f"shard {k}/{n} done: {played} games played", file=sys.stderr)
    return 0


@dataclass
class Tally:
    won: float = 0.0
    games: int = 0
    among: int = 0
    cpu_seconds: float = 0.0

    def add(self, r: GameRecord) -> None:
        self.won += r.share
        self.games += 1
        self.among += r.share > 0
        self.cpu_seconds += r.cpu_seconds


def report(results: Path, games: int, pattern: str, code: str) -> tuple[list[Row], list[str]]:
    """The strength table from the games gathered in ``results`` whose
    fingerprint starts with ``code``, and what was set apart or is missing."""
    notes: list[str] = []
    gathered = unique(read_results(results, notes), notes)
    wanted = strength_cells(pattern)
    names = {c.name for c in wanted}
    tallies = {c.name: Tally() for c in wanted}
    matching = {fp for fp, _, _ in gathered if fp.startswith(code)}
    if len(matching) > 1:
        raise ResultsError(f"{results}: the fingerprint {code!r} names {len(matching)} codes "
                           f"({', '.join(sorted(matching))}); give more of it")
    apart: dict[str, int] = {}
    beyond = 0
    counted: list[GameRecord] = []
    for (fp, cell, index), r in gathered.items():
        if not fp.startswith(code):
            apart[fp] = apart.get(fp, 0) + 1
        elif cell not in names:
            apart[f"cell {cell!r}"] = apart.get(f"cell {cell!r}", 0) + 1
        elif index >= games:
            beyond += 1
        else:
            tallies[cell].add(r)
            counted.append(r)
    if counted:
        limits = sorted({"no time limit" if r.time_limit is None else f"at most {r.time_limit:g} s a move"
                         for r in counted})
        notes.append(f"counted: {len(counted)} of {games * len(wanted)} games, the computer at "
                     f"{counted[0].iterations} iterations a move ({', '.join(limits)}), finished "
                     f"{min(r.finished for r in counted)} to {max(r.finished for r in counted)} on "
                     f"{', '.join(sorted({r.host for r in counted}))}; "
                     f"{sum(r.cpu_seconds for r in counted) / 3600:.1f} CPU hours")
    if apart:
        notes.append("set apart, not counted: "
                     + "; ".join(f"{n} games of {what}" for what, n in apart.items())
                     + " (other code, budget or cells than the ones reported)")
    if beyond:
        notes.append(f"{beyond} games numbered {games} or more are beyond the {games} asked and not counted")
    rows: list[Row] = []
    for cell in wanted:
        t = tallies[cell.name]
        if t.games == 0:
            notes.append(f"{cell.name}: no game yet")
            continue
        lo, hi = wilson(t.won, t.games)
        target = cell.target()
        judged = verdict(lo, hi, target)
        rows.append(Row(
            AREA, f"{cell.name}: win share", 100 * t.won / t.games, "%",
            None if target is None else 100 * target, False,
            f"95% interval {100 * lo:.0f}-{100 * hi:.0f}% over {t.games} of {games} games "
            f"(fair share {100 / cell.players:.0f}%); among the winners in {t.among}"
            + (f"; by the interval: {judged}" if judged else "")
            + f"; {t.cpu_seconds / 3600:.2f} CPU hours"))
    return rows, notes


def cost(games: int, probe: int, pattern: str, iterations: int, limit: float | None) -> list[Row]:
    """Per cell, the CPU time a game takes with the computer at ``iterations``
    a move, estimated from ``games`` games with it at ``probe``: the time
    outside the search as measured, plus each decision's search at the
    measured CPU time per iteration times ``iterations`` (or ``limit``
    seconds, if that ends it first: the table's budget on this machine)."""
    rows: list[Row] = []
    total = capped_total = 0.0
    for cell in strength_cells(pattern):
        other = search = 0.0
        decisions = done = 0
        for i in range(games):
            game = one_game(cell, i, Budget(iterations=probe, seconds=None))
            other += game.cpu_seconds - game.bot.search_cpu
            search += game.bot.search_cpu
            decisions += game.bot.decisions
            done += game.bot.iterations
        per_iteration = search / done if done else 0.0
        per_game = (other + decisions * iterations * per_iteration) / games
        total += per_game * 200
        capped = "" if limit is None else "; with at most {:g} s a move: {:.0f} s a game, {:.1f} CPU hours"
        if limit is not None:
            capped_game = (other + decisions * min(iterations * per_iteration, limit)) / games
            capped_total += capped_game * 200
            capped = capped.format(limit, capped_game, 200 * capped_game / 3600)
        rows.append(Row(
            AREA, f"{cell.name}: CPU per game at {iterations} iterations (estimate)", per_game, "s",
            note=f"{200 * per_game / 3600:.1f} CPU hours for 200 games; "
                 f"from {games} games at {probe} iterations: "
                 f"{decisions / games:.0f} decisions a game, {1000 * per_iteration:.2f} ms an iteration, "
                 f"{other / games:.1f} s a game outside the search{capped}"))
        print(f"  {rows[-1].what}: {per_game:.0f} s", file=sys.stderr, flush=True)
    cells_ = len(rows)
    rows.append(Row(AREA, f"all {cells_} cells: CPU hours for 200 games each (estimate)", total / 3600, "h"))
    if limit is not None:
        rows.append(Row(AREA, f"all {cells_} cells, at most {limit:g} s a move: CPU hours for 200 games each "
                              f"(estimate)", capped_total / 3600, "h"))
    return rows


COMMANDS = ("strength", "report", "cost", "board", "board-report", "board-replay", "board-sim")


def cli(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_players", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    for name, says in (("board", "each level at a Pi 4's and a Pi Zero 2 W's budget, judged sequentially: "
                                 "says what it will cost, then plays this shard's games"),
                       ("board-report", "the board strength table (Markdown) from the results directory"),
                       ("board-replay", "play a results directory's first games of each cell again with the "
                                        "code here: whether its verdicts stand for this code"),
                       ("board-sim", "what a capped run would decide, played out from the results "
                                     "directory's games on a clock of their CPU seconds, and from resampled "
                                     "ones")):
        p = sub.add_parser(name, help=says, description=says)
        p.add_argument("--results", type=Path, required=True, metavar="DIR",
                       help="the results directory: plan.json and one .jsonl file per machine and shard")
        p.add_argument("--cells", default="", metavar="REGEX", help="only cells whose name this finds, "
                       'e.g. "@Pi 4 vs random" (default: all)')
        if name == "board":
            p.add_argument("--shard", type=parse_shard, default=(1, 1), metavar="K/N",
                           help="play shard K of N (default 1/1: every game)")
            p.add_argument("--dry-run", action="store_true",
                           help="say the budgets and the cost, play nothing")
            p.add_argument("--hours", type=float, default=None, metavar="H",
                           help="stop once the cells' games have taken H hours on two cores "
                                "(default: the run's two)")
            p.add_argument("--plan", type=Path, default=None, metavar="FILE",
                           help="play at this plan's budgets (e.g. bench/board_plan.json, an earlier "
                                "run's), copied into DIR; default: DIR's, else one measured now")
            p.add_argument("--reuse", type=Path, default=None, metavar="DIR",
                           help="take the games this code has already played in DIR (an earlier "
                                "run's results at the same budgets) instead of playing them again")
        else:
            p.add_argument("--code", default=None, metavar="HEX", required=name == "board-replay",
                           help="the games of this code (the run prints it; default: the current "
                                "code's with the directory's plan)")
        if name == "board-replay":
            p.add_argument("--games", type=int, default=2, metavar="K",
                           help="games played again per cell, its first ones (default 2)")
        if name == "board-sim":
            p.add_argument("--hours", type=float, default=None, metavar="H",
                           help="the cap: H hours on two cores (default: the run's two)")
            p.add_argument("--speed", type=float, default=1.0, metavar="F",
                           help="each game's CPU times F: a machine F times slower than the one that "
                                "played them (default 1)")
            p.add_argument("--runs", type=int, default=10, metavar="N",
                           help="runs of resampled games (default 10; each some seconds to a minute)")
    for name, says in (("strength", "play this shard's games not yet in the results directory"),
                       ("report", "the strength table from the games gathered in the results directory"),
                       ("cost", "estimate the CPU each cell's games take at the budget")):
        p = sub.add_parser(name, help=says, description=says)
        p.add_argument("--games", type=int, default=2 if name == "cost" else 200,
                       help="games per cell (cost: games played to estimate from)")
        p.add_argument("--cells", default="", metavar="REGEX", help='only cells whose "label vs opponent" '
                       'this finds, e.g. "^artus 2p" (default: all)')
        p.add_argument("--iterations", type=int, default=DEFAULT_BUDGET.iterations,
                       help="the computer's iterations a move (default: the default budget's)")
        if name != "cost":
            p.add_argument("--results", type=Path, required=True, metavar="DIR",
                           help="the results directory: one .jsonl file per machine and shard")
            p.add_argument("--seconds", type=float, default=None,
                           help="also stop each search after this wall time (default none: the same "
                                "games on any machine; with it, play follows the machine's speed and load)")
        if name == "strength":
            p.add_argument("--shard", type=parse_shard, default=(1, 1), metavar="K/N",
                           help="play shard K of N (default 1/1: every game)")
        if name == "report":
            p.add_argument("--fingerprint", default=None, metavar="HEX",
                           help="report the games of this code fingerprint (default: the current code's)")
        if name == "cost":
            p.add_argument("--probe", type=int, default=50,
                           help="the computer's iterations in the games played")
            p.add_argument("--seconds", type=float, default=DEFAULT_BUDGET.seconds,
                           help="also estimate with at most this search time a move (default: the "
                                "default budget's)")
    args = parser.parse_args(argv)
    try:
        if args.command == "board-sim":
            from bench import board_sim, board_strength

            hours = board_strength.HOURS if args.hours is None else args.hours
            cells, games = board_strength.gathered_cells(args.results, args.cells, args.code)
            print("\n".join(board_sim.lines(cells, games, hours * board_strength.CORES * 3600, args.runs,
                                            speed=args.speed)))
            return 0
        if args.command in ("board", "board-report", "board-replay"):
            from bench import board_strength  # it imports this module

            if args.command == "board":
                hours = board_strength.HOURS if args.hours is None else args.hours
                return board_strength.run(args.results, args.shard, args.cells, args.dry_run,
                                          cap=hours * board_strength.CORES * 3600, given=args.plan,
                                          reuse=args.reuse)
            if args.command == "board-replay":
                _, differing = board_strength.replay(args.results, args.code, args.cells, args.games,
                                                     lambda text: print(text, flush=True))
                return 1 if differing else 0
            print("\n".join(board_strength.report(args.results, args.cells, code=args.code)))
            return 0
        if args.command == "strength":
            return run_shard(args.results, args.games, args.shard, args.cells,
                             Budget(iterations=args.iterations, seconds=args.seconds))
        if args.command == "report":
            code = args.fingerprint or fingerprint(args.iterations, args.seconds)
            rows, notes = report(args.results, args.games, args.cells, code)
            m = machine()
            print(f"games of code {code} in {args.results}; this machine: {m['cpu']}, {m['cores']} cores")
            print(table(rows))
            for line in notes:
                print(f"- {line}")
            return 0
        start = time.process_time()
        rows = cost(args.games, args.probe, args.cells, args.iterations, args.seconds)
        m = machine()
        print(f"{m['cpu']}, {m['cores']} cores, load {m['load_1min']}; "
              f"{time.process_time() - start:.0f} s CPU to estimate")
        print(table(rows))
        return 0
    except ResultsError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    if sys.argv[1:2] and sys.argv[1] in COMMANDS:
        sys.exit(cli(sys.argv[1:]))
    main(measure)
