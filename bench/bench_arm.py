"""The table on ARM, in the booted box: ``python -m bench.bench_arm`` (root; not in ``--quick``).

Runs the box test (tests/box) for arm64 and armhf, each a booted Debian
Bookworm emulated by qemu-user-static, and reads its report: the resident
size of the daemon and of the spectator page after a whole game of The King
is Dead for two (with a kill, a watchdog restart and a reboot on the way, and
the page fetched), and how long install.sh took under the emulator.

Resident sizes come two ways. *its own*: the process's mappings without the
emulator's (tests.box.container.resident_kib), what the program would hold on
a Pi. *under qemu*: the whole host process, emulator included; this is what
the unit's cgroup counts in the box, so the units' MemoryMax must leave room
for it too, or the emulated box test would be killed where a Pi would not.
The target is the unit's MemoryMax. A machine that cannot run the box (not
root, no emulator) gets no rows and says why on stderr.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.common import Row, main

ROOT = Path(__file__).resolve().parents[1]
ARCHES = ("arm64", "armhf")
LIMIT = 3600.0


def memory_max_mb(unit: str) -> float:
    """The unit's MemoryMax in MB (MiB, as systemd reads M)."""
    text = (ROOT / "systemd" / unit).read_text()
    match = re.search(r"^MemoryMax=(\d+)M$", text, re.MULTILINE)
    if match is None:
        raise ValueError(f"systemd/{unit} has no MemoryMax=...M")
    return float(match.group(1))


def box_report(arch: str) -> dict[str, object] | None:
    """The box test's report for ``arch``, or None (why is printed) when it did not pass."""
    from tests.box import container

    reason = container.cannot_run(arch)
    if reason:
        print(f"bench_arm: {arch} not measured: {reason}", file=sys.stderr)
        return None
    with tempfile.TemporaryDirectory(prefix="tk-bench-arm-") as tmp:
        where = Path(tmp) / "report.json"
        env = {**os.environ, "TABLEKEEPER_BOX_REPORT": str(where)}
        command = [sys.executable, "-m", "pytest", "-p", "no:xdist", "-q", "tests/box", "-k", arch]
        out = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=LIMIT,
                             check=False)
        if out.returncode != 0 or not where.exists():
            print(f"bench_arm: the {arch} box test failed:\n{out.stdout[-3000:]}", file=sys.stderr)
            return None
        return dict(json.loads(where.read_text()))


def install_seconds(report: dict[str, object]) -> float:
    """install.sh's first run: INSTALL.md's `sudo systemd/install.sh` step, as the box followed it."""
    followed = report["INSTALL.md as written"]
    assert isinstance(followed, dict)
    step = next(s for s in followed["steps"] if s.startswith("sudo systemd/install.sh ("))
    return float(step.rsplit("(", 1)[1].split()[0])


def rows_of(arch: str, report: dict[str, object]) -> list[Row]:
    bits = "32-bit" if arch == "armhf" else "64-bit"
    sizes = report["resident after the game (MiB)"]
    assert isinstance(sizes, dict)
    rows = []
    for name, unit in (("daemon", "tablekeeper.service"), ("page", "tablekeeper-web.service")):
        limit = memory_max_mb(unit)
        rows.append(Row("memory", f"{arch} ({bits}): {name}, resident after a whole game, its own",
                        sizes[name]["its own"], "MB", limit,
                        note=f"under qemu, with the emulator: {sizes[name]['process']} MB; target: "
                             f"{unit}'s MemoryMax"))
    seconds = install_seconds(report)
    rows.append(Row("start-up", f"{arch} ({bits}): install.sh, first run, emulated", seconds, "s",
                    note="under qemu-user-static on the machine measured (about nine times slower than "
                         "native), not on a Pi"))
    return rows


def measure(quick: bool) -> list[Row]:
    if quick:  # two emulated installs and games: many minutes, never a smoke run
        return []
    rows: list[Row] = []
    for arch in ARCHES:
        report = box_report(arch)
        if report is not None:
            rows += rows_of(arch, report)
    return rows


if __name__ == "__main__":
    main(measure)
