"""The hub firmware on the real MicroPython interpreter, emulated readers behind a stub `machine`."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest

from drivers.hub import protocol
from tests.firmware import mpy_run

MPY = Path(__file__).resolve().parent / "mpy"


@pytest.mark.parametrize("script", ["check_rc522.py", "check_hub.py"])
def test_firmware_checks_pass_under_micropython(script: str) -> None:
    done = mpy_run.run(MPY / script)
    report = done.stdout + done.stderr
    assert done.returncode == 0, f"{script} failed under micropython:\n{report}"
    assert " 0 failed" in done.stdout


class LineReader:
    """Lines from a subprocess's stdout, with a deadline."""

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        self.proc = proc
        self.seen: list[str] = []

    def until(self, pred, timeout: float = 10.0) -> protocol.HubLine:
        deadline = time.monotonic() + timeout
        assert self.proc.stdout is not None
        while time.monotonic() < deadline:
            raw = self.proc.stdout.readline()
            if not raw:
                break
            text = raw.decode("ascii", "replace")
            self.seen.append(text)
            if "$" not in text:
                continue
            line = protocol.parse_hub_line(text)
            if pred(line):
                return line
        raise AssertionError("expected line never came; got:\n" + "".join(self.seen[-40:]))


def test_main_runs_the_hub_on_sixteen_readers() -> None:
    # main.py itself: pins, SPI, watchdog, USB stdin/stdout, RESET -> machine.reset().
    proc = subprocess.Popen(
        mpy_run.command(MPY / "check_main.py"),
        env=mpy_run.env(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None
    try:
        lines = LineReader(proc)
        hello = lines.until(lambda ln: ln.kind == "HELLO")
        assert hello.fields[2] == "16" and hello.seq == 0
        state = lines.until(lambda ln: ln.kind == "STATE" and ln.fields[0] == "15" and len(ln.fields) > 1)
        assert state.fields[1:] == ["04A1B2C3D4E5F6"]
        # A Ctrl-C byte must not stop the firmware (micropython.kbd_intr(-1)).
        proc.stdin.write(b"\x03" + protocol.command("SNAP"))
        proc.stdin.flush()
        lines.until(lambda ln: ln.kind == "SYNC")
        proc.stdin.write(protocol.command("RESET"))
        proc.stdin.flush()
        lines.until(lambda ln: ln.kind == "OK" and ln.fields == ["RESET"])
        rest, err = proc.communicate(timeout=10)
        lines.seen.append(rest.decode("ascii", "replace"))
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, "check_main.py failed:\n" + err.decode() + "".join(lines.seen[-20:])
    assert "main checks passed" in "".join(lines.seen)
