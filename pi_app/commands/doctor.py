"""`tablekeeper doctor`: check every part of a table profile."""

from __future__ import annotations

import argparse
import math
import sys

from pi_app.errors import UsageError
from pi_app.table import profile

NAME = "doctor"
HELP = "check a table: list its parts, test every screen, light, reader and button, name what fails"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--table", help="table profile: a .toml path or a name in hardware/tables "
                        "(default: reference on a Pi, sim elsewhere)")
    parser.add_argument("--listen", type=float, default=15.0,
                        help="seconds to wait for taps and presses on a real table (default 15)")
    parser.add_argument("--read-test", metavar="PAD",
                        help="only a read test of this reader (e.g. seat1.pad): lay --tags tags on it first")
    parser.add_argument("--tags", type=int, default=1, help="how many tags lie on the pad for --read-test "
                        "(default 1)")
    parser.add_argument("--seconds", type=float, default=10.0,
                        help="how long --read-test polls (default 10)")


def run(args: argparse.Namespace) -> int:
    from pi_app.table.doctor import Doctor

    if not math.isfinite(args.listen) or args.listen < 0:
        raise UsageError(f"--listen {args.listen:g} is not a number of seconds to listen; give 0 or more "
                         "(0: do not wait for taps and presses)")
    prof = profile.load(profile.find(args.table))
    if args.read_test is not None:
        from pi_app.table.doctor import read_test

        if not 1 <= args.tags <= 16:
            raise UsageError(f"--tags {args.tags} is not a number of tags on one pad; give 1 to 16")
        if not math.isfinite(args.seconds) or not 0 < args.seconds <= 600:
            raise UsageError(f"--seconds {args.seconds:g} is not a test length; give more than 0, up to 600")
        return read_test(prof, sys.stdout, args.read_test, args.tags, args.seconds)
    return Doctor(prof, sys.stdout, args.listen).run()
