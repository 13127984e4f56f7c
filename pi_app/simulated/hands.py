"""The hands of a simulated table run as a service.

Under systemd a simulated table has no console (``run --no-console``), so it
takes the console's commands (``tap seat1 garrison``, ``press seat2 ok``,
``sync WORD``; see pi_app.simulated.console) from a FIFO in its state directory, one a
line, as root::

    echo 'press seat1 ok' > /var/lib/tablekeeper/console

Each command is printed as ``< command`` when it arrives and its answer
(``= WORD`` for sync, ``! ...`` for a mistake) follows, so both are in the
system log (``journalctl -u tablekeeper``). A writer that closes the FIFO is
not the end: the next writer is read in turn. A FIFO and not a socket: the
unit allows AF_UNIX, but a FIFO needs no client, works with ``echo`` and
``cat script.txt >``, and lives in the one directory the unit may write.
"""

from __future__ import annotations

import os
import stat
import sys
import threading
from pathlib import Path
from typing import Any

from pi_app.errors import UsageError
from pi_app.session.loop import Typed
from pi_app.simulated.console import bounded_lines, too_long

NAME = "console"
QUIT = ("quit", "exit", "q")  # a service is stopped by systemctl, not by its input
WAIT = 30.0  # seconds a command may take before the next is read anyway


def make_fifo(state_dir: Path) -> Path:
    """The FIFO in ``state_dir``, made (owner only) if it is not there."""
    path = state_dir / NAME
    try:
        mode = path.lstat().st_mode
    except FileNotFoundError:
        state_dir.mkdir(parents=True, exist_ok=True)
        os.mkfifo(path, 0o600)
        return path
    if not stat.S_ISFIFO(mode):
        raise UsageError(f"{path} is there and is not a FIFO; remove it so the simulated table can "
                         "take its commands there")
    return path


def listen(path: Path, events: Any) -> threading.Thread:
    """Read commands from the FIFO at ``path`` in a thread, forever."""
    thread = threading.Thread(target=_serve, args=(path, events), daemon=True, name="hands")
    thread.start()
    return thread


def _serve(path: Path, events: Any) -> None:
    while True:
        # Opening blocks until a writer opens its end; its lines end at its close.
        with open(path, encoding="utf-8", errors="replace") as fifo:
            for line in bounded_lines(fifo):
                if line is None:
                    print(f"! {too_long()}", file=sys.stdout, flush=True)
                    continue
                command = line.strip()
                if not command:
                    continue
                print(f"< {command}", file=sys.stdout, flush=True)
                if command.split()[0].lower() in QUIT:
                    print("! quit is for a terminal; stop the service with: systemctl stop tablekeeper",
                          flush=True)
                    continue
                typed = Typed(command)
                events.put(typed)
                typed.done.wait(timeout=WAIT)
