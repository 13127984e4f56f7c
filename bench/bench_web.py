"""The spectator page: what `tablekeeper web` adds to the box, and how soon a
move reaches a browser.

On the start-up benchmark's journal (an unfinished game of 200 moves),
``python -m pi_app web --journal J --host 127.0.0.1 --port 0`` is started as
systemd would start it ($NOTIFY_SOCKET); ready is its READY=1, said once the
journal is read and the game replayed and the port is open. Its resident
memory (VmRSS; the whole process is what the page adds, as it runs beside
the daemon) is read at ready, and again after every page was fetched
ROUNDS times with a live page's event stream open. Then moves are written to
the journal one at a time, as the table writes them, and each is timed to
the event that tells the open page (the page then fetches its live part:
one GET, timed separately): the first moves of the night's next game.

    python -m bench.bench_web [--quick]
"""

from __future__ import annotations

import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import rules
from bench.bench_memory import unit_memory_max_mb
from bench.bench_startup import ROOT, build_journal, said_to
from bench.common import Row, main
from pi_app.store.journal import Journal, is_barrier, pending

AREA = "web"
ROUNDS = 20
TARGET_UPDATE_S = 1.0  # the issue: a move on the page within a second
NEXT_GAME = "siege"
PAGES = ("", "live", "night", "game/1", "game/1/report", "game/1/log.jsonl", "static/style.css")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def python_rss_mb() -> float:
    """A bare interpreter's resident memory, for comparison."""
    proc = subprocess.Popen([sys.executable, "-c", "import time; print(flush=True); time.sleep(30)"],
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        proc.stdout.readline()
        return rss_mb(proc.pid)
    finally:
        proc.kill()
        proc.wait()


def fetch(url: str) -> float:
    start = time.perf_counter()
    with urllib.request.urlopen(url, timeout=30) as answer:
        answer.read()
    return time.perf_counter() - start


def measure(quick: bool) -> list[Row]:
    rounds = 2 if quick else ROUNDS
    moves = 5 if quick else 30
    with tempfile.TemporaryDirectory(prefix="tk-bench-web-") as tmp:
        work = Path(tmp)
        path = work / "journal.sqlite"
        holds = build_journal(path)
        address = str(work / "notify.sock")
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            sock.bind(address)
            sock.settimeout(0.02)
            env = {**os.environ, "NOTIFY_SOCKET": address}
            command = [sys.executable, "-m", "pi_app", "web", "--journal", str(path), "--host", "127.0.0.1",
                       "--port", "0"]
            start = time.perf_counter()
            proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT, text=True)
            try:
                while "READY=1" not in said_to(sock).split("\n"):
                    if proc.poll() is not None or time.perf_counter() - start > 60:
                        raise RuntimeError(f"{' '.join(command)} said no READY=1")
                ready = time.perf_counter() - start
                at_ready = rss_mb(proc.pid)
                assert proc.stdout is not None
                base = proc.stdout.readline().rsplit(" at ", 1)[1].strip()
                events = urllib.request.urlopen(base + "events", timeout=30)
                events.readline()  # retry:
                events.readline()  # the first event: the state now
                events.readline()
                page_times = {p: [fetch(base + p) for _ in range(rounds)] for p in PAGES}
                served = rss_mb(proc.pid)
                delays, live_gets = [], []
                journal = Journal(path)
                try:
                    # the table starts the night's next game and plays it
                    record = journal.start(NEXT_GAME, 2, 1, {})
                    state = rules.get(NEXT_GAME).new_game(2, 1, {})
                    rng = random.Random(1)
                    for _ in range(moves):
                        if state.to_move() is None:
                            break
                        chance = state.is_chance()
                        seat = None if chance else state.to_move()
                        move = state.sample_chance() if chance else rng.choice(state.legal_moves())
                        n = len(state.history)
                        state_before = state.copy()
                        events_ = state.apply(move)
                        written = time.perf_counter()
                        journal.append_many(record, [pending(n, seat, move, chance,
                                                             is_barrier(state_before, move, events_), state)])
                        while not events.readline().startswith(b"data:"):
                            pass
                        delays.append(time.perf_counter() - written)
                        live_gets.append(fetch(base + "live"))
                finally:
                    journal.close()
                    events.close()
                after_moves = rss_mb(proc.pid)
                proc.send_signal(signal.SIGTERM)
                proc.wait(timeout=30)
            finally:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
    bare = python_rss_mb()
    slowest = max(PAGES, key=lambda p: statistics.median(page_times[p]))
    return [
        Row(AREA, "process start to READY=1 (journal read, game replayed, port open)", ready, "s",
            note=f"journal: {holds}; python -m pi_app web --journal J --host 127.0.0.1 --port 0"),
        Row(AREA, "resident memory at READY=1", at_ready, "MB",
            note=f"VmRSS of the whole process (what it adds beside the daemon); bare python: {bare:.1f} MB"),
        Row(AREA, f"resident memory after {rounds} rounds of every page and {len(delays)} moves", after_moves,
            "MB", unit_memory_max_mb("tablekeeper-web.service"),
            note=f"after the pages alone: {served:.1f} MB; one event stream open throughout; target: the "
            "unit's MemoryMax"),
        Row(AREA, "a move written to the event that tells the page, median", statistics.median(delays), "s",
            TARGET_UPDATE_S, note=f"worst {max(delays):.3f} s of {len(delays)} moves of a new "
                                  f"{rules.get(NEXT_GAME).name} game; the process looks every 0.1 s"),
        Row(AREA, "the page's live part fetched after a move, median", statistics.median(live_gets) * 1000,
            "ms",
            note=f"worst {max(live_gets) * 1000:.1f} ms; then the browser draws it"),
        Row(AREA, f"slowest page (/{slowest}), median", statistics.median(page_times[slowest]) * 1000, "ms",
            note="; ".join(f"/{p} {statistics.median(t) * 1000:.1f}" for p, t in page_times.items())),
    ]


if __name__ == "__main__":
    main(measure)
