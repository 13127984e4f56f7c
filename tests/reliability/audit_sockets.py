"""Run ``tablekeeper`` with every socket and every new program it would
start written down, through Python's audit hooks (PEP 578)::

    python -m tests.reliability.audit_sockets LOG run --table sim ...

LOG gets one JSON line per event: ``socket.__new__`` (with the family),
``socket.bind``, ``socket.connect``, ``socket.sendto``, ``socket.getaddrinfo``
and anything that starts a program (``subprocess.Popen``, ``os.exec``,
``os.posix_spawn``, ``os.system``, ``os.fork``). The rest of the command runs
as ``python -m pi_app`` would run it.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from pi_app.cli import main

SOCKET_EVENTS = ("socket.__new__", "socket.bind", "socket.connect", "socket.sendto", "socket.sendmsg",
                 "socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyaddr")
PROGRAM_EVENTS = ("subprocess.Popen", "os.exec", "os.posix_spawn", "os.spawn", "os.system", "os.fork",
                  "os.forkpty")


def install(log: str) -> None:
    # One write(2) per event on an O_APPEND descriptor: lines from threads
    # never mix, and writing raises no audit event of its own.
    fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if event not in SOCKET_EVENTS and event not in PROGRAM_EVENTS:
            return
        entry: dict[str, Any] = {"event": event}
        if event == "socket.__new__":
            entry["family"] = int(args[1])
        elif event.startswith("socket.") and args and hasattr(args[0], "family"):
            entry["family"] = int(args[0].family)
            entry["address"] = repr(args[1]) if len(args) > 1 else None
        else:
            entry["args"] = repr(args)[:300]
        os.write(fd, (json.dumps(entry) + "\n").encode())

    sys.addaudithook(hook)


if __name__ == "__main__":
    log, *argv = sys.argv[1:]
    install(log)
    sys.exit(main(argv))
