"""`tablekeeper journal check | export`: read a journal without changing it.

Maintainer tools, in English (the table's language is for the table). The
logic lives in pi_app.store.export; this module only parses and prints.
"""

from __future__ import annotations

import argparse
import sys

from pi_app import paths
from pi_app.errors import UsageError
from pi_app.store import export
from pi_app.store.journal import Journal

NAME = "journal"
HELP = "check a journal's games, or export one game's moves (read-only)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    check = sub.add_parser("check", help="replay every game; one line each; exit 0 when all are sound")
    export_ = sub.add_parser("export", help="a game's moves, one a line (secrets hidden until it is over)")
    for p in (check, export_):
        where = p.add_mutually_exclusive_group()
        where.add_argument("--state-dir", help="the directory `tablekeeper run` keeps its journal in")
        where.add_argument("file", nargs="?", metavar="FILE", help="the journal file itself")
    export_.add_argument("--game", type=int, metavar="ID", help="the game's id (default: the latest)")
    export_.add_argument("--format", choices=("text", "jsonl"), default="text",
                         help="text: for people; jsonl: for `tablekeeper replay` once the game is over")


def run(args: argparse.Namespace) -> int:
    path = args.file or paths.journal_path(args.state_dir)
    journal = Journal(path, readonly=True, whole=args.action == "check")
    try:
        return check(journal) if args.action == "check" else export_game(journal, args)
    finally:
        journal.close()


def check(journal: Journal) -> int:
    results = export.check(journal)
    for result in results:
        print(result.line(), flush=True)
    if not results:
        print(f"journal {journal.path}: no games yet")
    bad = [r for r in results if r.fault is not None]
    if not bad:
        return 0
    # The daemon resumes only an unfinished game: a fault in an ended one
    # leaves the table running.
    first = next((r for r in bad if r.status in ("unfinished", "unknown")), bad[0])
    runs = ("the table cannot resume it: move the file aside to start a new journal (the old one is "
            "kept unchanged)" if first.status in ("unfinished", "unknown") else
            "the table does not replay ended games, so it still runs; this game cannot be exported")
    more = f" (and {len(bad) - 1} more game(s) above)" if len(bad) > 1 else ""
    raise UsageError(f"journal {journal.path}: {first.fault}{more}; {runs}")


def export_game(journal: Journal, args: argparse.Namespace) -> int:
    record = journal.game(args.game) if args.game is not None else export.latest(journal)
    log = export.read(journal, record)
    lines = export.text(log, journal) if args.format == "text" else export.jsonl(log)
    sys.stdout.write("".join(line + "\n" for line in lines))
    return 0
