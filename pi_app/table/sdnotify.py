"""systemd's notify protocol, written out: one datagram per message to the
AF_UNIX socket named in $NOTIFY_SOCKET ("@" = the abstract namespace)."""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Callable


def notify(message: str, env: dict[str, str] | None = None) -> bool:
    """Send ``message`` (e.g. "READY=1"); False when not run by systemd."""
    path = (env if env is not None else os.environ).get("NOTIFY_SOCKET")
    if not path:
        return False
    address = "\0" + path[1:] if path.startswith("@") else path
    # Non-blocking: a listener that does not read must not stall the table
    # (STOPPING=1 is sent from the loop's own thread).
    kind = socket.SOCK_DGRAM | socket.SOCK_CLOEXEC | socket.SOCK_NONBLOCK
    with socket.socket(socket.AF_UNIX, kind) as sock:
        try:
            sock.connect(address)
            sock.sendall(message.encode())
        except OSError:
            return False
    return True


def watchdog_interval(env: dict[str, str] | None = None) -> float | None:
    """Half of $WATCHDOG_USEC in seconds, when the watchdog is for us."""
    env = env if env is not None else os.environ
    usec = env.get("WATCHDOG_USEC")
    pid = env.get("WATCHDOG_PID")
    if not usec or (pid and pid != str(os.getpid())):
        return None
    try:
        return int(usec) / 2_000_000
    except ValueError:
        return None


class Watchdog:
    """Says READY=1 once, then WATCHDOG=1 every interval, but only while
    ``alive()`` holds: a stuck loop or a dead thread stops the pings and
    systemd restarts the service."""

    def __init__(self, alive: Callable[[], bool], env: dict[str, str] | None = None,
                 interval: float | None = None) -> None:
        self.alive = alive
        self.env = dict(env if env is not None else os.environ)
        self.interval = interval if interval is not None else watchdog_interval(self.env)
        self._stop = threading.Event()
        self.thread: threading.Thread | None = None
        self.started = False

    def start(self) -> None:
        """Say READY=1 and start pinging; a second call does nothing."""
        if self.started:
            return
        self.started = True
        notify("READY=1", self.env)
        if self.interval is None:
            return
        self.thread = threading.Thread(target=self._run, name="watchdog", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        assert self.interval is not None
        while not self._stop.wait(self.interval):
            if self.alive():
                notify("WATCHDOG=1", self.env)

    def stop(self) -> None:
        self._stop.set()
        if self.started:
            notify("STOPPING=1", self.env)
        if self.thread is not None:
            self.thread.join(timeout=2)
