"""The `tablekeeper` command: one subcommand per module in pi_app.commands.

Each command module defines ``NAME``, ``HELP``, ``add_arguments(parser)`` and
``run(args) -> int``. Errors meant for the user are raised as
:class:`UsageError` and printed without a traceback, exit status 2.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import pkgutil
import sys
from collections.abc import Sequence
from importlib import metadata

from pi_app import commands, paths
from pi_app.errors import UsageError


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
        epilog="tablekeeper COMMAND --help tells more of a command; start with: tablekeeper run",
    )
    parser.add_argument("--version", action="version", version=f"tablekeeper {version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for mod in _command_modules():
        p = sub.add_parser(mod.NAME, help=mod.HELP, description=mod.HELP)
        mod.add_arguments(p)
        p.set_defaults(_run=mod.run)
    return parser


def version() -> str:
    try:
        return metadata.version("tablekeeper")
    except metadata.PackageNotFoundError:  # run from a source tree that was not installed
        return "unknown (not installed)"


def keep_on_screen(message: str) -> None:
    """Print an error so that it can be read: when tablekeeper owns its
    terminal (a terminal multiplexer's window, which closes as the command
    exits), it waits for Enter first."""
    print(message, file=sys.stderr, flush=True)
    own_window = sys.stdin.isatty() and sys.stderr.isatty() and os.getsid(0) == os.getpid()
    if own_window:
        print("press Enter to close", file=sys.stderr, flush=True)
        with contextlib.suppress(OSError, KeyboardInterrupt):
            sys.stdin.readline()


def main(argv: Sequence[str] | None = None) -> int:
    paths.lgpio_workdir()  # before any command imports gpiozero, and so lgpio
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
    if args.command is None:  # a bare `tablekeeper`: what it does and its commands
        parser.print_help()
        return 0
    try:
        return int(args._run(args) or 0)
    except UsageError as exc:
        keep_on_screen(f"tablekeeper {args.command}: {exc}")
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
