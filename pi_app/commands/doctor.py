"""`tablekeeper doctor`: check every part of a table profile."""

from __future__ import annotations

import argparse
import math
import sys

from pi_app import profile
from pi_app.errors import UsageError

NAME = "doctor"
HELP = "check a table: list its parts, test every screen, light, reader and button, name what fails"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--table", help="table profile: a .toml path or a name in hardware/tables "
                        "(default: reference on a Pi, sim elsewhere)")
    parser.add_argument("--listen", type=float, default=15.0,
                        help="seconds to wait for taps and presses on a real table (default 15)")


def run(args: argparse.Namespace) -> int:
    from pi_app.doctor import Doctor

    if not math.isfinite(args.listen) or args.listen < 0:
        raise UsageError(f"--listen {args.listen:g} is not a number of seconds to listen; give 0 or more "
                         "(0: do not wait for taps and presses)")
    prof = profile.load(profile.find(args.table))
    return Doctor(prof, sys.stdout, args.listen).run()
