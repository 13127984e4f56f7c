"""Run ``tablekeeper run --no-console`` with simulated hands::

    python -m tests.reliability.headless run --table sim --no-console ...

Under systemd the daemon has no console and its stdout and stderr go to the
system log. To play a game through such a process, each line on stdin (a
console command: ``tap seat1 UID``, ``press seat2 ok``, ``quit``) is put on
the simulated table as its readers and buttons would, in order with the
table's own events, and nothing at all is printed for it: what the process
writes is only the daemon's own log.
"""

from __future__ import annotations

import io
import sys
import threading
from typing import Any

from pi_app.cli import main
from pi_app.session.loop import Session
from pi_app.simulated.console import Console, read_commands


def install() -> None:
    started = threading.Event()
    run = Session.run

    def run_with_hands(session: Session, stop: Any = None) -> None:
        console = Console(session.table, session.registry, session.scene.record.game,
                          session.scene.adapter.components(),
                          out=io.StringIO(), pictures=False)
        console.players = session.scene.record.players
        session.on_typed = console.execute
        if not started.is_set():
            started.set()
            threading.Thread(target=read_commands, args=(sys.stdin, session.table.queue), daemon=True,
                             name="hands").start()
        run(session, stop)

    Session.run = run_with_hands  # type: ignore[method-assign]


if __name__ == "__main__":
    install()
    sys.exit(main(sys.argv[1:]))
