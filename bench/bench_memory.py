"""The daemon's memory over a game night: ``python -m bench.bench_memory [--quick]``.

Plays 100 simulated games back to back (``tablekeeper soak``: one table,
journal and registry, a new session per game, every game and player count in
turn) in a fresh Python process, so the figures are the daemon's and not this
runner's, and reads the process's resident size after each game.

The issue's targets: peak resident size under 80 MB, and no growth from game
10 to game 100. "No growth" is judged with a tolerance of 2 MB, because two
things grow once and then stop, and neither is a leak: SQLite's page cache of
the journal fills to its cap (2 MB by default) as the night's journal grows,
and the rotation's last three entries (Artus at 4 and advanced, Siege) are
first played after game 10 (a round is 13 games). The growth after two
rounds, in Python memory blocks per game, is the finer figure:
``tests/reliability/test_soak.py`` holds it to no growth beyond noise.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from bench.common import Row, main
from pi_app.simulated.soak import Sample, from_json, growth, round_ends

GAMES = 100
QUICK_GAMES = 3
EARLY = 10  # the "from game 10"
GROWTH_TOLERANCE_MB = 2.0


def unit_memory_max_mb(unit: str = "tablekeeper.service") -> float:
    """The unit's MemoryMax= in MB (it takes K, M or G)."""
    root = Path(__file__).resolve().parents[1]
    for line in (root / "systemd" / unit).read_text().splitlines():
        if line.startswith("MemoryMax="):
            value = line.partition("=")[2].strip()
            scale = {"K": 1 / 1024, "M": 1.0, "G": 1024.0}[value[-1].upper()]
            return float(value[:-1]) * scale
    raise ValueError(f"systemd/{unit} has no MemoryMax=")


def night(games: int) -> list[Sample]:
    """``games`` games in a new process; one sample after each."""
    with tempfile.TemporaryDirectory(prefix="tk-bench-memory-") as tmp:
        state = Path(tmp) / "state"
        out = subprocess.run([sys.executable, "-m", "pi_app", "soak", "--games", str(games), "--json",
                              "--state-dir", str(state)], capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise RuntimeError(f"tablekeeper soak failed ({out.returncode}): {out.stderr.strip()[-2000:]}")
    return [from_json(line) for line in out.stdout.splitlines() if line.startswith("{")]


def measure(quick: bool) -> list[Row]:
    games = QUICK_GAMES if quick else GAMES
    samples = night(games)
    last = samples[-1]
    early = min(EARLY, len(samples) - 1) or 1  # a quick run compares what it has
    at_early = samples[early - 1]
    mb = 1024.0
    note = f"quick: {games} games" if quick else ""
    rows = [
        Row("memory", f"daemon, peak resident after {last.game} games", last.hwm_kb / mb, "MB", 80.0,
            note=note or "VmHWM of a process playing one game after another on the simulated table"),
        Row("memory", "daemon, peak resident against the unit's MemoryMax", last.hwm_kb / mb, "MB",
            unit_memory_max_mb(), note="systemd/tablekeeper.service"),
        Row("memory", f"resident after game {at_early.game}", at_early.rss_kb / mb, "MB"),
        Row("memory", f"resident after game {last.game}", last.rss_kb / mb, "MB"),
    ]
    if last.game > at_early.game:
        g = growth(samples, since=at_early.game)
        rows += [
            Row("memory", f"resident growth, game {g.since} to {g.until}", g.rss_kb / mb, "MB",
                GROWTH_TOLERANCE_MB, note="tolerance 2 MB: SQLite's page cache filling to its cap, and "
                "the rotation's last entries played first after game 10 (see bench_memory.py)"),
            Row("memory", f"threads and open files more than after game {g.since}",
                max(g.threads, g.tasks, g.fds), "", 1.0),
        ]
    ends = round_ends(samples)
    if len(ends) > 2:  # after two rounds, as tests/reliability/test_soak.py compares
        g = growth([s for s in samples if s.game <= ends[-1]], since=ends[1])
        rows.append(Row("memory", f"Python blocks per game, game {g.since} (two rounds) to {g.until}",
                        g.blocks_per_game, "blocks", note="identical rounds: growth is what is never let go"))
    rows.append(Row("memory", "soak, games per minute", 60 * len(samples) / sum(s.seconds for s in samples),
                    "games/min", lower_is_better=False))
    return rows


if __name__ == "__main__":
    main(measure)
