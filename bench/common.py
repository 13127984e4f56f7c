"""What every benchmark returns and how the figures are shown.

A benchmark module ``bench/bench_<area>.py`` defines ``measure(quick: bool)
-> list[Row]``; ``python -m bench.run`` gathers them into one table and one
JSON file, with the machine they ran on. Targets are the issue's; a missed
target is shown, never asserted: benchmarks are not tests.
"""

from __future__ import annotations

import json
import os
import platform
import sys
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Row:
    area: str  # engines, latency, start-up, memory, readers
    what: str  # one measured thing, e.g. "king-is-dead 4p: input to frames, p99"
    value: float
    unit: str  # ms, MB, games/s, transfers, ...
    target: float | None = None  # the target set for it, in the same unit, if any
    lower_is_better: bool = True
    note: str = ""

    @property
    def met(self) -> bool | None:
        if self.target is None:
            return None
        return self.value < self.target if self.lower_is_better else self.value > self.target

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "met": self.met}


def machine() -> dict[str, Any]:
    """The machine the figures came from: they mean little without it."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.split(":")[0].strip() in ("model name", "Model"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory_mb = None
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                memory_mb = int(line.split()[1]) // 1024
    except OSError:
        pass
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory_mb": memory_mb,
        "system": f"{platform.system()} {platform.release()}",
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        # Other processes share the cores: wall-clock figures mean more next to it.
        "load_1min": round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None,
    }


def fmt(value: float) -> str:
    if value == 0 or abs(value) >= 100:
        return f"{value:.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}" if abs(value) >= 0.1 else f"{value:.3f}"


def table(rows: Iterable[Row]) -> str:
    """One plain-text table: area, what, value, target and whether it is met."""
    rows = list(rows)
    cells = [("area", "what", "value", "target", "")]
    for r in rows:
        sign = "< " if r.lower_is_better else "> "
        target = "" if r.target is None else f"{sign}{fmt(r.target)} {r.unit}"
        mark = {None: "", True: "ok", False: "MISSED"}[r.met]
        cells.append((r.area, r.what, f"{fmt(r.value)} {r.unit}", target, mark))
    widths = [max(len(c[i]) for c in cells) for i in range(5)]
    lines = []
    for i, c in enumerate(cells):
        pairs = enumerate(zip(c, widths, strict=True))
        padded = (s.rjust(w) if k == 2 else s.ljust(w) for k, (s, w) in pairs)
        lines.append("  ".join(padded).rstrip())
        if i == 0:
            lines.append("  ".join("-" * w for w in widths))
    notes = [f"- {r.what}: {r.note}" for r in rows if r.note]
    return "\n".join(lines + ([""] + notes if notes else []))


def write_json(rows: Iterable[Row], path: Path, command: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {"command": command, "machine": machine(), "rows": [r.to_json() for r in rows]}
    path.write_text(json.dumps(data, indent=2) + "\n")


def main(measure: Any) -> None:
    """Run one benchmark module on its own: ``python -m bench.bench_rules [--quick]``."""
    print(table(measure(quick="--quick" in sys.argv[1:])))
