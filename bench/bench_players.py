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
"""

from __future__ import annotations

import math
import os
import random
import re
import statistics
import sys
import time
from typing import Any

import rules
from bench.common import Row, main
from bench.pi_model import boards, nbody_us_per_step
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
            for opts in game.option_combinations() for n in game.player_counts]


def label(game_id: str, players: int, options: dict[str, Any]) -> str:
    opts = " ".join(f"{k}={v}" for k, v in options.items())
    return f"{game_id} {players}p" + (f" {opts}" if opts else "")


def play(game_id: str, players: int, options: dict[str, Any], seed: int, seats: list[Player]) -> list[float]:
    state = rules.get(game_id).new_game(players, seed, options)
    while (seat := state.to_move()) is not None:
        state.apply(state.sample_chance() if seat == rules.CHANCE else seats[seat].choose(state, seat))
    outcome = state.outcome()
    assert outcome is not None
    return rewards(outcome, players)


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
        bot_seat = i % players
        kind = RandomPlayer if opponent == "random" else Greedy
        seats: list[Player] = [kind(seed=i * 7 + s) for s in range(players)]
        seats[bot_seat] = Ismcts(budget, seed=i)
        share = play(game_id, players, options, 1000 + i, seats)[bot_seat]
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


def speed(game_id: str, players: int, options: dict[str, Any], count: int, zero: float) -> list[Row]:
    """``zero``: the Pi Zero 2 W's CPU time per CPU second here (bench/pi_model.py)."""
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
    return [
        Row(AREA, f"{name}: search iterations per second", rate, "it/s", 1000.0, False,
            f"per second of the search's own CPU time (the wall time follows the load); {count} positions; "
            f"default budget {budget}"),
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
    zero = next(b.cpu_factor for b in boards(nbody_us_per_step()) if b.name == "Pi Zero 2 W")
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
            rows += speed(game_id, players, options, 1 if quick else 8, zero)
        for opponent in ("random",) if quick else ("random", "greedy"):
            if not wanted.search(f"{name} vs {opponent}"):
                continue
            won, n, seconds, among = strength(game_id, players, options, opponent, games, budget, bound)
            print(f"  {name} vs {opponent}: {won:g}/{n} in {seconds:.0f} s", file=sys.stderr, flush=True)
            if n == 0:
                continue
            lo, hi = wilson(won, n)
            fair = 1 / players
            if players == 2:
                target = 0.90 if opponent == "random" else 0.65
            else:
                target = 2 * fair if opponent == "random" else None
            verdict = "" if target is None else (
                "; by the interval: met" if lo > target else "; by the interval: missed" if hi < target
                else "; by the interval: undecided")
            rows.append(Row(
                AREA, f"{name}: win share vs {opponent}", 100 * won / n, "%",
                None if target is None else 100 * target, False,
                f"95% interval {100 * lo:.0f}-{100 * hi:.0f}% over {n} games (fair share {100 * fair:.0f}%), "
                f"computer at {iterations} iterations, every seat in turn; {seconds / n:.1f} s a game; "
                f"among the winners in {among} of {n}{verdict}"))
    return rows


if __name__ == "__main__":
    main(measure)
