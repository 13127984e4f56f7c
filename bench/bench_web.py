"""The spectator page under a room of phones and a decade of game nights.

``tablekeeper web`` is started as its unit runs it: in a cgroup with the
unit's own ``TasksMax`` and ``MemoryMax`` (read from
``systemd/tablekeeper-web.service``; cgroup v1 or v2, made by this
benchmark, which needs root; else the rows say the limits were not applied)
and its ``LimitNOFILE``, on loopback. Every load is bounded in count and
time; clients come from many loopback addresses (127.0.0.2 and up), as
phones come from theirs.

- **load** (a journal of 10 games, tonight's going on): IDLE connections
  opened and held without a byte sent, then STREAMS event streams (each must
  get its first event), then PAGES requests of ``/`` one after another
  (p99, target 100 ms); one move written to the journal, timed to the event
  on every stream (target 1 s); all released, BURST connections at once,
  each asking for ``/`` (all served, target 2 s).
- **journal** (10 and 2,000 finished games, four a night, a night a week,
  then tonight's): process start to the first page served (target 1 s), and
  the resident memory then (VmRSS, and its peak VmHWM; target 64 MB); the
  daemon's own start to READY=1 resuming tonight's game from the same
  journal (``bench_startup``'s measure; not with ``--quick``).

``--before DIR`` runs the same on another checkout (``git archive f4017d2 |
tar -x -C DIR``: the server this one replaced), under that checkout's own
unit's limits, and prints both from one run:

    python -m bench.bench_web [--quick] [--before DIR]
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import resource
import selectors
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import rules
from bench.common import Row, fmt, machine, table
from pi_app.store.journal import Journal, is_barrier, pending

AREA = "web"
ROOT = Path(__file__).resolve().parents[1]
IDLE, STREAMS, PAGES, BURST = 500, 200, 200, 200
GAMES = 2000
TARGET_PAGE_MS = 100.0
TARGET_MOVE_S = 1.0
TARGET_BURST_S = 2.0
TARGET_FIRST_PAGE_S = 1.0
TARGET_RSS_MB = 64.0
WAIT = 10.0  # the longest any one load is waited for
SEEDS = (("king-is-dead", 3), ("artus", 2), ("siege", 2), ("mordred", 3), ("king-and-assassins", 2))
WEEK = 7 * 24 * 3600


# -- journals -----------------------------------------------------------------
def play(journal: Journal, game: str, players: int, seed: int, moves: int | None = None) -> None:
    record = journal.start(game, players, seed, {})
    state = rules.get(game).new_game(players, seed, {})
    rng = random.Random(seed)
    n = 0
    while state.outcome() is None and state.to_move() is not None and (moves is None or n < moves):
        chance = state.is_chance()
        seat = None if chance else state.to_move()
        move = state.sample_chance() if chance else rng.choice(state.legal_moves())
        before = state.copy()
        events = state.apply(move)
        journal.append_many(record, [pending(n, seat, move, chance, is_barrier(before, move, events), state)],
                            end=state.outcome() is not None)
        n += 1


def build(path: Path, games: int) -> Path:
    """``games`` finished games (copies of five played ones, four a night, a
    night a week, the last a week ago), then tonight's game of Siege, going on."""
    journal = Journal(path)
    for i, (game, players) in enumerate(SEEDS):
        play(journal, game, players, i + 1)
    journal.close()
    base = len(SEEDS)
    with sqlite3.connect(path) as db:
        for new in range(base + 1, games + 1):
            old = (new - 1) % base + 1
            shift = ((new - 1) // 4) * WEEK + ((new - 1) % 4) * 3600 - ((old - 1) % 4) * 3600
            db.execute("INSERT INTO games (id, game, players, seed, options, started, ended, names) "
                       "SELECT ?, game, players, seed, options, started + ?, ended + ?, names FROM games "
                       "WHERE id = ?", (new, shift, shift, old))
            db.execute("INSERT INTO moves SELECT ?, n, seat, move, chance, barrier, at + ?, snapshot "
                       "FROM moves WHERE game_id = ?", (new, shift, old))
        back = ((games - 1) // 4 + 1) * WEEK
        db.execute("UPDATE games SET started = started - ?, ended = ended - ?", (back, back))
    db.close()
    journal = Journal(path)
    play(journal, "siege", 2, 99, moves=40)
    journal.close()
    return path


def next_move(path: Path) -> None:
    """The table plays one more move of tonight's game."""
    journal = Journal(path)
    try:
        record = journal.current()
        assert record is not None
        state = journal.replay(record)
        n = len(state.history)
        chance = state.is_chance()
        seat = None if chance else state.to_move()
        move = state.sample_chance() if chance else random.Random(n).choice(state.legal_moves())
        before = state.copy()
        events = state.apply(move)
        journal.append_many(record, [pending(n, seat, move, chance, is_barrier(before, move, events), state)])
    finally:
        journal.close()


# -- the unit's limits ----------------------------------------------------------
def unit_limits(root: Path) -> dict[str, str]:
    text = (root / "systemd" / "tablekeeper-web.service").read_text()
    return {k: v for k, v in re.findall(r"^(TasksMax|MemoryMax|LimitNOFILE)=(\S+)$", text, re.MULTILINE)}


def to_bytes(size: str) -> int:
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    return int(size[:-1]) * units[size[-1]] if size[-1] in units else int(size)


class Cgroup:
    """A cgroup with the unit's TasksMax and MemoryMax; ``join`` puts the
    calling process in it (run in the child before exec)."""

    def __init__(self, name: str, tasks: int, memory: int) -> None:
        self.dirs: list[Path] = []
        v2 = Path("/sys/fs/cgroup/cgroup.controllers")
        own: dict[str, str] = {}  # controller -> this process's cgroup ("" for v2's)
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            parts = line.split(":", 2)
            if len(parts) == 3:
                for controller in parts[1].split(","):
                    own[controller] = parts[2]
        if v2.exists():
            folder = Path("/sys/fs/cgroup") / own.get("", "/").lstrip("/") / name
            folder.mkdir()
            self.dirs = [folder]
            (folder / "pids.max").write_text(str(tasks))
            (folder / "memory.max").write_text(str(memory))
            (folder / "memory.swap.max").write_text("0")
            self.how = f"cgroup v2: pids.max {tasks}, memory.max {memory >> 20} MiB"
        else:
            pids = Path("/sys/fs/cgroup/pids") / own.get("pids", "/").lstrip("/") / name
            mem = Path("/sys/fs/cgroup/memory") / own.get("memory", "/").lstrip("/") / name
            for folder in (pids, mem):
                folder.mkdir()
                self.dirs.append(folder)
            (pids / "pids.max").write_text(str(tasks))
            (mem / "memory.limit_in_bytes").write_text(str(memory))
            with contextlib.suppress(OSError):
                (mem / "memory.memsw.limit_in_bytes").write_text(str(memory))
            self.how = f"cgroup v1: pids.max {tasks}, memory.limit_in_bytes {memory >> 20} MiB"

    def join(self) -> None:
        for folder in self.dirs:
            (folder / "cgroup.procs").write_text(str(os.getpid()))

    def close(self) -> None:
        for folder in self.dirs:
            with contextlib.suppress(OSError):
                folder.rmdir()


@dataclass
class Web:
    proc: subprocess.Popen[str]
    port: int
    how: str


@contextlib.contextmanager
def web(root: Path, journal: Path) -> Iterator[Web]:
    """``tablekeeper web`` of checkout ``root`` under its unit's limits."""
    limits = unit_limits(root)
    try:
        group: Cgroup | None = Cgroup(f"tk-bench-web-{os.getpid()}-{time.monotonic_ns()}",
                                      int(limits.get("TasksMax", "64")),
                                      to_bytes(limits.get("MemoryMax", "96M")))
        how = group.how if group else ""
    except OSError as exc:
        group, how = None, f"limits NOT applied (no cgroup: {exc.strerror})"
    files = int(limits.get("LimitNOFILE", "1024"))
    how += f", LimitNOFILE {files}"

    def child() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (files, max(files, resource.getrlimit(
            resource.RLIMIT_NOFILE)[1])))
        if group is not None:
            group.join()

    env = {**os.environ, "PYTHONPATH": str(root), "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "pi_app", "web", "--journal", str(journal), "--host",
                             "127.0.0.1", "--port", "0"], cwd=root, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, preexec_fn=child)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        yield Web(proc, int(found.group(1)) if found else 0, how)
    finally:
        proc.kill()
        proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()
        if group is not None:
            group.close()


# -- clients --------------------------------------------------------------------
class Addresses:
    """Loopback source addresses in turn, a few connections each."""

    def __init__(self) -> None:
        self.i = 0

    def next(self) -> str:
        self.i += 1
        return f"127.0.{1 + self.i // 250}.{2 + self.i % 250}"


def request(port: int, path: str) -> bytes:
    return f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode()


def opened(port: int, n: int, addresses: Addresses, ask: bytes | None) -> list[socket.socket]:
    """``n`` non-blocking connections (each sending ``ask``), as fast as they come."""
    out = []
    for _ in range(n):
        sock = socket.socket()
        sock.setblocking(False)
        with contextlib.suppress(BlockingIOError):
            sock.bind((addresses.next(), 0))
            sock.connect(("127.0.0.1", port))
        out.append(sock)
    if ask is not None:
        sel = selectors.DefaultSelector()
        for sock in out:
            sel.register(sock, selectors.EVENT_WRITE)
        deadline = time.monotonic() + WAIT
        left = len(out)
        while left and time.monotonic() < deadline:
            for key, _ in sel.select(0.1):
                sel.unregister(key.fileobj)
                left -= 1
                with contextlib.suppress(OSError):
                    key.fileobj.send(ask)  # type: ignore[union-attr]
        sel.close()
    return out


def connected(socks: list[socket.socket]) -> int:
    n = 0
    for sock in socks:
        with contextlib.suppress(OSError):
            sock.getpeername()
            n += 1
    return n


def read_until(socks: list[socket.socket], done: object, wait: float = WAIT) -> dict[socket.socket, float]:
    """Read every socket until ``done(bytes_so_far, closed)``; when each was done."""
    sel = selectors.DefaultSelector()
    got: dict[socket.socket, bytes] = {}
    when: dict[socket.socket, float] = {}
    for sock in socks:
        with contextlib.suppress(ValueError, OSError):
            sel.register(sock, selectors.EVENT_READ)
            got[sock] = b""
    deadline = time.monotonic() + wait
    while len(when) < len(got) and time.monotonic() < deadline:
        for key, _ in sel.select(0.05):
            sock = key.fileobj
            try:
                chunk = sock.recv(65536)  # type: ignore[union-attr]
            except (BlockingIOError, InterruptedError):
                continue
            except OSError:
                chunk = b""
            got[sock] += chunk  # type: ignore[index]
            if done(got[sock], not chunk):  # type: ignore[operator,index]
                when[sock] = time.monotonic()  # type: ignore[index]
                sel.unregister(sock)
            elif not chunk:
                sel.unregister(sock)
                got.pop(sock)  # type: ignore[arg-type]
    sel.close()
    return when


def answered(data: bytes, closed: bool) -> bool:
    return closed and data[:12] in (b"HTTP/1.1 200", b"HTTP/1.0 200")


def drain(socks: list[socket.socket]) -> None:
    for sock in socks:
        with contextlib.suppress(OSError):
            while sock.recv(65536):
                pass


def page(port: int, addresses: Addresses) -> float | None:
    start = time.perf_counter()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5,
                                      source_address=(addresses.next(), 0)) as sock:
            sock.sendall(request(port, "/"))
            data = b""
            while chunk := sock.recv(65536):
                data += chunk
    except OSError:
        return None
    return time.perf_counter() - start if data.startswith(b"HTTP/1.") and b" 200 " in data[:20] else None


def close_all(socks: list[socket.socket]) -> None:
    for sock in socks:
        sock.close()


# -- the loads ------------------------------------------------------------------
def load(label: str, root: Path, journal: Path, quick: bool) -> list[Row]:
    idle_n, streams_n, pages_n, burst_n = (50, 20, 20, 20) if quick else (IDLE, STREAMS, PAGES, BURST)
    addresses = Addresses()
    with web(root, journal) as server:
        port = server.port
        page(port, addresses)  # drawn once before the room arrives, as the table's first viewer would
        idle = opened(port, idle_n, addresses, None)
        time.sleep(0.5)
        held = connected(idle)
        streams = opened(port, streams_n, addresses, request(port, "/events"))
        first = read_until(streams, lambda data, _: b"data:" in data)
        live = [s for s in streams if s in first]
        times = [page(port, addresses) for _ in range(pages_n)]
        served = sorted(t for t in times if t is not None)
        failed = len(times) - len(served)
        p99 = (served[min(len(served) - 1, int(len(served) * 0.99))] * 1000 if served and not failed
               else float("inf"))
        drain(live)
        next_move(journal)
        written = time.monotonic()
        told = read_until(live, lambda data, _: b"data:" in data)
        move_s = max(told.values()) - written if live and len(told) == len(live) else float("inf")
        alive = server.proc.poll() is None
        close_all(idle + streams)
        time.sleep(1.0)
        start = time.monotonic()
        burst = opened(port, burst_n, addresses, request(port, "/"))
        done = read_until(burst, answered)
        burst_s = max(done.values()) - start if len(done) == burst_n else float("inf")
        close_all(burst)
        how = server.how
    where = f"{label}, {how}"
    median = statistics.median(served) * 1000 if served else 0.0
    return [
        Row(AREA, f"{label}: page / with {held} idle connections and {len(live)} streams held, p99", p99,
            "ms", TARGET_PAGE_MS, note=f"{len(served)} of {pages_n} served (median {median:.1f} ms); "
                                       f"{idle_n} idle asked, {streams_n} streams asked; {where}"),
        Row(AREA, f"{label}: a move to every live stream ({len(told)} of {len(live)} told)", move_s, "s",
            TARGET_MOVE_S, note="the server " + ("ran on" if alive else "had stopped") + " throughout"),
        Row(AREA, f"{label}: a burst of {burst_n} connections all served ({len(done)} were)", burst_s, "s",
            TARGET_BURST_S, note=f"each asks for /; waited {WAIT:g} s at most"),
    ]


def first_page(label: str, root: Path, journal: Path, games: int) -> list[Row]:
    start = time.monotonic()
    with web(root, journal) as server:
        served = None
        while time.monotonic() - start < 60 and server.proc.poll() is None and server.port:
            with contextlib.suppress(OSError):
                with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
                    sock.sendall(request(server.port, "/"))
                    data = b""
                    while chunk := sock.recv(65536):
                        data += chunk
                if b" 200 " in data[:20]:
                    served = time.monotonic() - start
                    break
            time.sleep(0.02)
        status = Path(f"/proc/{server.proc.pid}/status")
        cpu = cpu_s(server.proc.pid)
        rss = hwm = float("inf")
        if served is not None and status.exists():
            fields = dict(line.split(":", 1) for line in status.read_text().splitlines())
            rss, hwm = (int(fields[k].split()[0]) / 1024 for k in ("VmRSS", "VmHWM"))
        code = server.proc.poll()
        how = server.how
    fate = "" if code is None else f"; the process ended ({code}: {'killed' if code < 0 else 'exit'})"
    size = journal.stat().st_size >> 20
    return [
        Row(AREA, f"{label}: {games} games: start to the first page", served if served else float("inf"), "s",
            TARGET_FIRST_PAGE_S, note=f"journal {size} MB{fate}; its CPU time then {cpu:.2f} s (wall time "
                                      f"grows with the machine's load); {how}"),
        Row(AREA, f"{label}: {games} games: resident memory at the first page", rss, "MB", TARGET_RSS_MB,
            note=f"peak (VmHWM) {fmt(hwm)} MB"),
    ]


def cpu_s(pid: int) -> float:
    """The process's user and system time so far (other processes do not inflate it)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def daemon(label: str, root: Path, journal: Path, games: int, work: Path) -> list[Row]:
    """The table's own daemon resuming tonight's game from the same journal
    (bench_startup's measure, on checkout ``root``)."""
    from bench import bench_startup

    kept = bench_startup.ROOT
    bench_startup.ROOT = root
    try:
        ready, cpu, _ = bench_startup.ready_and_stop(journal, work)
    except RuntimeError as exc:
        return [Row(AREA, f"{label}: {games} games: the daemon's start to READY=1", float("inf"), "s",
                    note=str(exc).splitlines()[0][:200])]
    finally:
        bench_startup.ROOT = kept
        shutil.rmtree(work / "state", ignore_errors=True)
    return [Row(AREA, f"{label}: {games} games: the daemon's start to READY=1", ready, "s",
                note=f"python -m pi_app run --table sim --no-console, resuming tonight's game; its CPU time "
                     f"then {cpu:.2f} s")]


def measure(quick: bool, before: Path | None = None) -> list[Row]:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 8192)), hard))
    rows: list[Row] = []
    runs = [("before", before), ("after", ROOT)] if before is not None else [("after", ROOT)]
    with tempfile.TemporaryDirectory(prefix="tk-bench-web-") as tmp:
        work = Path(tmp)
        small = build(work / "small.sqlite", 10)
        journals = [(small, 10)] if quick else [(small, 10), (build(work / "big.sqlite", GAMES), GAMES)]
        for label, root in runs:
            for journal, games in journals:
                rows += first_page(label, root, journal, games)  # read only
                if not quick:
                    rows += daemon(label, root, journal, games, work)
            copy = work / f"{label}-load.sqlite"
            copy.write_bytes(small.read_bytes())
            rows += load(label, root, copy, quick)
    return rows


def main() -> None:
    args = sys.argv[1:]
    before = Path(args[args.index("--before") + 1]) if "--before" in args else None
    m = machine()
    print(f"{m['cpu']}, {m['cores']} cores, {m['memory_mb']} MB, {m['system']}, {m['python']}, "
          f"load {m['load_1min']} at the start")
    rows = measure("--quick" in args, before)
    print(table(rows))
    print(f"\nload {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
