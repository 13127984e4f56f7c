"""The `tablekeeper` command: one subcommand per module in pi_app.commands.

Each command module defines ``NAME``, ``HELP``, ``add_arguments(parser)`` and
``run(args) -> int``. Errors meant for the user are raised as
:class:`UsageError` and printed without a traceback, exit status 2.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

from pi_app import commands
from pi_app.errors import UsageError
from pi_app.table import startup


def _command_modules() -> list:
    mods = []
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda i: i.name):
        mod = importlib.import_module(f"{commands.__name__}.{info.name}")
        if hasattr(mod, "NAME") and hasattr(mod, "run"):
            mods.append(mod)
    return mods


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tablekeeper",
        description="A referee for board games played on a real table.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for mod in _command_modules():
        p = sub.add_parser(mod.NAME, help=mod.HELP, description=mod.HELP)
        mod.add_arguments(p)
        p.set_defaults(_run=mod.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    startup.lgpio_workdir()  # before any command imports gpiozero, and so lgpio
    try:
        parser = build_parser()  # imports the games, which read and check their data files
    except ValueError as exc:
        # rules.datafile.DataError, raised while `rules` itself is being
        # imported: the class is only reachable through sys.modules then.
        datafile = sys.modules.get("rules.datafile")
        if datafile is None or not isinstance(exc, datafile.DataError):
            raise
        print(f"tablekeeper: game data file {exc.file} is refused: {exc}; correct it, or restore the file "
              "as Tablekeeper ships it", file=sys.stderr)
        return 2
    args = parser.parse_args(argv)
    try:
        return int(args._run(args) or 0)
    except UsageError as exc:
        print(f"tablekeeper {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
