"""The benchmarks run and report every area the issue asks for (a smoke run:
no figure is checked against its target here; speed is for bench/)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bench.common import Row, table

ROOT = Path(__file__).resolve().parents[1]
AREAS = {"latency", "start-up", "memory", "engines", "readers"}


def test_quick_run_reports_every_area_in_the_table_and_the_json(tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    done = subprocess.run([sys.executable, "-m", "bench.run", "--quick", "--json", str(out)], cwd=ROOT,
                          capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stderr
    data = json.loads(out.read_text())
    assert data["command"] == "python -m bench.run --quick"
    assert {"cpu", "cores", "python"} <= set(data["machine"])
    rows = data["rows"]
    assert {r["area"] for r in rows} >= AREAS
    lines = done.stdout.splitlines()
    for area in AREAS:
        assert any(line.startswith(f"{area} ") for line in lines), f"no {area} row in the table"
    for r in rows:
        assert set(r) == {"area", "what", "value", "unit", "target", "lower_is_better", "note", "met"}, r
        assert isinstance(r["value"], (int, float)) and r["value"] == r["value"], r  # a number, not NaN
        assert (r["met"] is None) == (r["target"] is None), r
    # The targets are on their rows.
    targets = {(r["area"], r["unit"], r["target"]) for r in rows if r["target"] is not None}
    assert ("latency", "ms", 5.0) in targets and ("start-up", "s", 1.0) in targets


def test_a_missed_target_is_shown_and_a_row_without_one_is_not_judged() -> None:
    rows = [Row("latency", "p99", 7.5, "ms", 5.0), Row("engines", "moves", 900.0, "moves/s", 1000.0, False),
            Row("readers", "poll", 40.0, "us")]
    text = table(rows).splitlines()
    assert [r.met for r in rows] == [False, False, None]
    assert text[2].endswith("MISSED") and text[3].endswith("MISSED") and text[4].endswith("us")


def test_the_glass_profile_says_where_the_bytes_and_the_cpu_go() -> None:
    done = subprocess.run([sys.executable, "-m", "bench.glass_profile", "--quick", "king-and-assassins"],
                          cwd=ROOT, capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("king-and-assassins: ") and "over 600" in out
    assert "menu>menu" in out and "shared" in out
    assert "the shared screen alone: p99 " in out
    assert "CPU to the acting seat's frame" in out and "session/loop.py" in out  # the profile's rows
