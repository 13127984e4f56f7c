"""`tablekeeper soak`: many simulated games in one process, measured (see pi_app.simulated.soak)."""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

from pi_app.errors import UsageError

NAME = "soak"
HELP = ("play simulated games back to back in one process, as the daemon does for a night; "
        "print memory, threads and open files after each")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=100, help="how many games (default: 100)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the games and the players")
    parser.add_argument("--state-dir", help="where the soak's own journal and registry go (an empty "
                        "or new directory; default: a temporary one, removed after). Never the daemon's.")
    parser.add_argument("--short", action="store_true", help="a short round: each game once, at its "
                        "fewest players, with its default options (default: every count and variant)")
    parser.add_argument("--json", action="store_true", help="one JSON object per game instead of a line")


def run(args: argparse.Namespace) -> int:
    from pi_app.simulated.soak import line, soak, to_json

    if args.games < 1:
        raise UsageError(f"--games {args.games}: give at least 1")
    given = Path(args.state_dir) if args.state_dir else None
    if given is not None and given.exists() and (not given.is_dir() or any(given.iterdir())):
        raise UsageError(f"--state-dir {given} is not an empty directory: give a new one, so that "
                         "no journal of a real table is played on")
    state = given or Path(tempfile.mkdtemp(prefix="tablekeeper-soak-"))
    try:
        tally = soak(state, args.games, seed=args.seed, short=args.short,
                     report=lambda s: print(to_json(s) if args.json else line(s), flush=True))
    finally:
        if given is None:
            shutil.rmtree(state, ignore_errors=True)
    if args.json:
        return 0
    assert tally.first is not None and tally.last is not None  # at least one game was played
    print(f"\n{tally.games} games in {tally.seconds:.0f} s; peak resident {tally.last.hwm_kb / 1024:.1f} MB")
    # Compared after two rounds, as tests/reliability/test_soak.py does (one, on a shorter night).
    try:
        g = tally.growth()
    except ValueError:
        print("play more than two rounds of the rotation to see growth after the warm-up")
        return 0
    print(f"from game {g.since} to {g.until}: resident {g.rss_kb / 1024:+.2f} MB, "
          f"Python blocks {g.blocks:+d}, threads {g.threads:+d} (native {g.tasks:+d}), "
          f"open files {g.fds:+d}  (after game 1: {tally.first.rss_kb / 1024:.1f} MB)")
    if g.threads > 0 or g.tasks > 0 or g.fds > 0:
        print("threads or open files grew: something is not closed or stopped", file=sys.stderr)
        return 1
    return 0
