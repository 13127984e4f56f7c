"""A real `tablekeeper run` process on the simulated table, driven through
its console: typed lines in, screens (``--text``) out.

Every typed line is followed by ``sync TOKEN``; the console prints
``= TOKEN`` once everything typed before it has been handled, so the screens
read up to that line are what the daemon said about those inputs.
"""

from __future__ import annotations

import contextlib
import os
import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WAIT = 60.0  # seconds to wait for a line before calling the daemon stuck


class DaemonDied(Exception):
    """The process ended before it answered."""


class Daemon:
    def __init__(self, args: list[str], *, module: str = "pi_app", env: dict[str, str] | None = None) -> None:
        self.args = args
        # Screens are compared line for line: no wrapping to a terminal's width (pytest-xdist sets COLUMNS).
        env = {k: v for k, v in (os.environ if env is None else env).items() if k != "COLUMNS"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", module, *args], cwd=ROOT, env=env, text=True, encoding="utf-8",
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.err: list[str] = []
        self.said: list[str] = []  # every line that is not part of a screen
        self.screens: dict[str, list[str]] = {}  # each screen's text as last printed
        self._screen: str | None = None
        self._token = 0
        self._threads = [
            threading.Thread(target=self._pump, args=(self.proc.stdout, self.lines.put), daemon=True),
            threading.Thread(target=self._pump, args=(self.proc.stderr, self.err.append), daemon=True)]
        for t in self._threads:
            t.start()

    @staticmethod
    def _pump(stream, put) -> None:  # type: ignore[no-untyped-def]
        for line in stream:
            put(line.rstrip("\n"))
        put(None)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def send(self, line: str) -> bool:
        """Type a line; False when the daemon is gone."""
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            return False
        return True

    def mark(self) -> str:
        """Type ``sync`` with a fresh token; return the token."""
        self._token += 1
        token = str(self._token)
        self.send(f"sync {token}")
        return token

    def wait(self, token: str) -> None:
        """Read the output up to ``= token``; DaemonDied if it ends first."""
        while True:
            try:
                line = self.lines.get(timeout=WAIT)
            except queue.Empty:
                raise AssertionError(f"the daemon said nothing for {WAIT} s: {self.stderr()}") from None
            if line is None:
                self.lines.put(None)  # later reads see the end too
                raise DaemonDied()
            if line == f"= {token}":
                return
            self._read(line)

    def sync(self) -> None:
        self.wait(self.mark())

    def drain(self) -> list[str]:
        """After the process ended: the tokens it acknowledged in what was left."""
        acked = []
        while True:
            line = self.lines.get(timeout=WAIT)
            if line is None:
                self.lines.put(None)
                return acked
            if line.startswith("= "):
                acked.append(line[2:])
            else:
                self._read(line)

    def _read(self, line: str) -> None:
        if line.startswith("┌─ "):
            self._screen = line[3:].split(" ", 1)[0]
            self.screens[self._screen] = []
        elif line.startswith("│ ") and self._screen is not None:
            self.screens[self._screen].append(line[2:])
        elif line.startswith("└─ lights"):
            self._screen = None
        else:
            self.said.append(line)

    def kill(self) -> int:
        """SIGKILL, as a power cut; returns the exit status (-9)."""
        os.kill(self.proc.pid, signal.SIGKILL)
        return self.proc.wait(timeout=WAIT)

    def finish(self) -> int:
        """Wait for the process to end by itself; its exit status."""
        code = self.proc.wait(timeout=WAIT)
        for t in self._threads:
            t.join(timeout=WAIT)
        return code

    def stderr(self) -> str:
        return "\n".join(line for line in self.err if line is not None)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=WAIT)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):  # a pipe to a killed process
                    stream.close()
