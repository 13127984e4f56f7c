"""`tablekeeper run`: the table daemon."""

from __future__ import annotations

import argparse
import queue
import signal
import sys
import threading
from typing import Any

from pi_app import hardware, paths, profile
from pi_app.console import Console, read_commands
from pi_app.errors import UsageError
from pi_app.journal import Journal
from pi_app.registry import Registry
from pi_app.sdnotify import Watchdog
from pi_app.session import SHOW_ALL, STOP, Session

NAME = "run"
HELP = "run the table: resume the journal's game or start one (simulated table off a Pi, with a console)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--table", help="table profile: a .toml path or a name in hardware/tables "
                        "(default: reference on a Pi, sim elsewhere)")
    parser.add_argument("--game", help="game id to start (default: resume the unfinished game)")
    parser.add_argument("--players", type=int, help="number of players, with --game")
    parser.add_argument("--seed", type=int, default=None, help="seed of the game (default: from the clock)")
    parser.add_argument("--lang", choices=("en", "it"),
                        help="language of the screens (default: the profile's)")
    parser.add_argument("--new", action="store_true", help="abandon an unfinished game and start --game")
    parser.add_argument("--state-dir", help="where the journal and tag registry live "
                        "(default: $STATE_DIRECTORY or ~/.local/state/tablekeeper)")
    parser.add_argument("--text", action="store_true", help="console: print screens as text, not pictures")
    parser.add_argument("--no-console", action="store_true", help="no console even on a simulated table")


def run(args: argparse.Namespace) -> int:
    import time

    prof = profile.load(profile.find(args.table))
    if (args.game is None) != (args.players is None):
        raise UsageError("--game and --players go together: --game ID --players N")
    events: queue.Queue = queue.Queue()
    simulated = prof.simulated
    table = hardware.build(prof, events, poll=not simulated)
    journal = registry = None
    try:
        journal = Journal(paths.journal_path(args.state_dir))
        registry = Registry(paths.registry_path(args.state_dir))
        seed = args.seed if args.seed is not None else int(time.time()) % 1_000_000
        session = Session.open(table, journal, registry, game=args.game, players=args.players, seed=seed,
                               lang=args.lang, new=args.new)
        session.page_seconds = 3.0
        comps = session.adapter.components()
        if simulated:  # made-up UIDs so that typed taps have tags
            registry.auto_enroll(session.record.game, [(c.id, c.count) for c in comps])
        stop = threading.Event()
        console = None
        if simulated and not args.no_console:
            console = Console(table, registry, session.record.game, comps, pictures=not args.text)
            print(f"{prof.name}: {session.game.name or session.record.game} for {session.record.players}; "
                  "type help", flush=True)
            threading.Thread(target=read_commands, args=(console, sys.stdin, lambda: events.put(STOP)),
                             daemon=True, name="console").start()
            _show_changes(session, console)
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: stop.set())
        watchdog = Watchdog(session.alive)
        watchdog.start()
        try:
            session.run(stop)
        finally:
            watchdog.stop()
    finally:
        table.close()
        if journal is not None:
            journal.close()
        if registry is not None:
            registry.close()
    return 0


def _show_changes(session: Session, console: Console) -> None:
    """Print every screen that changed, from the loop thread."""

    def show(changed: dict[str, Any]) -> None:
        lights = {name: light.state for name, light in session.table.lights.items()}
        console.show(changed, lights)

    session.observer = show
    session.table.queue.put(SHOW_ALL)
