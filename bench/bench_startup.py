"""Start-up: from process start to ready, in a fresh process each time.

Builds a journal holding an unfinished game of 200 moves (played through the
engine, journalled as the session journals them), then starts the daemon as
systemd would, ``python -m pi_app run --table sim --no-console --state-dir
DIR``, with $NOTIFY_SOCKET naming a datagram socket the benchmark holds. Ready
is the daemon's own READY=1 (said once the table is built, the profile, the
tag registry and the journal read and the game rebuilt; its first frames
follow). Each run starts from a copy of the same journal. Then SIGTERM, timed
to the exit. Also: the bare interpreter's start and the imports alone.

    python -m bench.bench_startup [--quick]
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import IO

import rules
from bench.common import Row, main
from pi_app.store.journal import Journal, is_barrier
from rules.core import CHANCE

AREA = "start-up"
ROOT = Path(__file__).resolve().parents[1]
MOVES = 200
TARGET_S = 1.0
# Games tried in turn for a random game longer than MOVES: the first that has one is journalled.
PREFERRED = ("king-is-dead", "siege", "king-and-assassins", "mordred", "artus")


def long_game() -> tuple[str, int, int, list]:
    """(game, players, seed, moves) of a seeded random game with more than MOVES moves."""
    for game_id in PREFERRED:
        game = rules.get(game_id)
        players = max(game.player_counts)
        for seed in range(100):
            rng = random.Random(seed)
            state = game.new_game(players, seed)
            while state.to_move() is not None and len(state.history) <= MOVES:
                state.apply(state.sample_chance() if state.is_chance() else rng.choice(state.legal_moves()))
            if len(state.history) > MOVES:
                return game_id, players, seed, state.history[:MOVES]
    raise RuntimeError(f"no game of {', '.join(PREFERRED)} ran past {MOVES} moves in 100 seeds")


def build_journal(path: Path) -> str:
    """The journal of an unfinished game of MOVES moves; returns what it holds."""
    game_id, players, seed, moves = long_game()
    game = rules.get(game_id)
    state = game.new_game(players, seed)
    journal = Journal(path)
    try:
        record = journal.start(game_id, players, seed, state.options)
        for n, move in enumerate(moves):
            seat = state.to_move()
            chance = seat == CHANCE
            before = state.copy()
            events = state.apply(move)
            barrier = is_barrier(before, move, events)
            journal.append(record, n, None if chance else seat, move, chance, barrier, state)
    finally:
        journal.close()
    return f"{game_id} {players}p seed {seed}, {MOVES} moves"


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) a running process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def ready_and_stop(journal: Path, work: Path) -> tuple[float, float, float]:
    """Seconds from spawn to READY=1 (wall and the daemon's CPU), and from
    SIGTERM to exit, of one daemon."""
    state_dir = work / "state"
    shutil.rmtree(state_dir, ignore_errors=True)
    state_dir.mkdir()
    shutil.copy(journal, state_dir / "journal.sqlite")
    address = str(work / "notify.sock")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        if os.path.exists(address):
            os.unlink(address)
        sock.bind(address)
        sock.settimeout(0.02)
        env = {**os.environ, "NOTIFY_SOCKET": address}
        env.pop("WATCHDOG_USEC", None)
        log = (work / "daemon.log").open("w+")
        command = [sys.executable, "-m", "pi_app", "run", "--table", "sim", "--no-console",
                   "--state-dir", str(state_dir)]
        start = time.perf_counter()
        proc = subprocess.Popen(command, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=log,
                                stderr=subprocess.STDOUT)
        try:
            while "READY=1" not in said_to(sock).split("\n"):
                if proc.poll() is not None or time.perf_counter() - start > 30:
                    raise RuntimeError(f"{' '.join(command)} said no READY=1 (exit status "
                                       f"{proc.poll()}):\n{said(log)}")
            ready = time.perf_counter() - start
            cpu = cpu_seconds(proc.pid)
            stopping = time.perf_counter()
            proc.send_signal(signal.SIGTERM)
            code = proc.wait(timeout=30)
            stopped = time.perf_counter() - stopping
            if code != 0:
                raise RuntimeError(f"{' '.join(command)} exited with status {code} on SIGTERM:\n{said(log)}")
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            log.close()
    return ready, cpu, stopped


def said_to(sock: socket.socket) -> str:
    """One datagram, or "" when none came within the socket's timeout."""
    try:
        return sock.recv(256).decode()
    except TimeoutError:
        return ""


def said(log: IO[str]) -> str:
    """What the daemon printed."""
    log.seek(0)
    return log.read()


def process_seconds(code: str, runs: int) -> float:
    """Median wall time of ``python -c CODE`` in a fresh process."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def heaviest_imports(code: str, count: int = 5) -> str:
    """The packages whose modules took longest to import (python -X importtime:
    each module's own time, summed by top-level package)."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", code], cwd=ROOT, check=True,
                          capture_output=True, text=True)
    totals: dict[str, int] = {}
    for line in done.stderr.splitlines():
        parts = line.removeprefix("import time:").split("|")
        if len(parts) != 3 or not parts[0].strip().isdigit():
            continue
        package = parts[2].strip().split(".")[0]
        totals[package] = totals.get(package, 0) + int(parts[0])
    top = sorted(totals.items(), key=lambda kv: -kv[1])[:count]
    return ", ".join(f"{name} {us / 1000:.0f} ms" for name, us in top)


def measure(quick: bool) -> list[Row]:
    runs = 1 if quick else 7
    imports = "import pi_app.cli, pi_app.commands.run"
    with tempfile.TemporaryDirectory(prefix="tk-bench-start-") as tmp:
        work = Path(tmp)
        journal = work / "journal.sqlite"
        holds = build_journal(journal)
        ready, cpu, stop = zip(*(ready_and_stop(journal, work) for _ in range(runs)), strict=True)
    bare = process_seconds("pass", runs)
    loaded = process_seconds(imports, runs)
    heaviest = "not looked at with --quick" if quick else heaviest_imports(imports)
    return [
        Row(AREA, "process start to READY=1 (resume of a 200-move game)", statistics.median(ready), "s",
            TARGET_S, note=f"median of {runs}, worst {max(ready):.2f} s; journal: {holds}; "
                           "python -m pi_app run --table sim --no-console --state-dir DIR"),
        Row(AREA, "process start to READY=1, the daemon's CPU time", statistics.median(cpu), "s",
            note="user and system time of the daemon when it said READY=1 (/proc, 10 ms steps): "
                 "what start-up costs without other processes competing"),
        Row(AREA, "python itself (python -c pass)", bare, "s"),
        Row(AREA, "python and the daemon's imports", loaded, "s",
            note=f"python -c '{imports}'; under -X importtime, by package: {heaviest}"),
        Row(AREA, "SIGTERM to exit", statistics.median(stop), "s",
            note="the loop sees its stop flag within 0.1 s; closing the table then waits for each "
                 "button's gpiozero hold thread, which looks at its own every 0.1 s"),
    ]


if __name__ == "__main__":
    main(measure)
