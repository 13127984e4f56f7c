"""The table daemon: latency from an input to redrawn screens, and what the
journal costs.

Plays whole games of every game with a table adapter on the simulated table
(simulated pads through the real watcher, mock-pin buttons, luma dummy
screens) and times each input from the moment it is made to the moment every
changed screen has been sent its frame. On a Pi, add about 25 ms per changed
screen for the 1024-byte frame on 400 kHz I2C, which the dummy device does
not cost. Then times journal commits (WAL, synchronous FULL vs NORMAL) and a
resume (rebuilding a game from its journal).

    python bench/bench_session.py [GAMES_PER_ROW]
"""

from __future__ import annotations

import queue
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import rules
from pi_app import adapters, hardware, profile
from pi_app.autoplay import choose, next_input
from pi_app.journal import Journal
from pi_app.registry import Registry
from pi_app.screens import Layout, render
from pi_app.session import Session


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))]


def play(game: str, players: int, seed: int, workdir: Path) -> tuple[dict[str, list[float]], int, Path]:
    prof = profile.load(profile.find("sim"))
    table = hardware.build(prof, queue.Queue(), poll=False, seats=players)
    journal = Journal(workdir / f"j{seed}.sqlite")
    registry = Registry(workdir / "tags.sqlite")
    times: dict[str, list[float]] = {"tap": [], "press": []}
    try:
        session = Session.open(table, journal, registry, game=game, players=players, seed=seed, new=True)
        comps = [(c.id, c.count) for c in session.adapter.components()]
        uids = {c: u[0] for c, u in registry.auto_enroll(game, comps).items()}
        session.redraw()
        rng = random.Random(seed)
        while session.state.outcome() is None:
            seat = session.state.to_move()
            target = choose(session, rng)
            n = len(session.state.history)
            while len(session.state.history) == n:
                inp = next_input(session, seat, target, taps=rng.random() < 0.6)
                start = time.perf_counter()
                if inp.kind == "tap":
                    table.tap(inp.part, uids[inp.what])
                else:
                    table.press(inp.part)
                session.pump()
                times[inp.kind].append(time.perf_counter() - start)
        moves = len(session.state.history)
    finally:
        table.close()
        registry.close()
    path = journal.path
    journal.close()
    return times, moves, path


def commits(workdir: Path, sync: str, count: int) -> float:
    """Seconds per journalled move (the move and the state after it)."""
    j = Journal(workdir / f"commit-{sync}.sqlite")
    j.db.execute(f"PRAGMA synchronous={sync}")
    game = rules.get(next(iter(adapters.ADAPTERS)))
    state = game.new_game(max(game.player_counts), 1)
    rec = j.start(game.id, state.players, 1, state.options)
    move = state.sample_chance() if state.is_chance() else state.legal_moves()[0]
    start = time.perf_counter()
    for n in range(count):
        j.append(rec, n, None, move, False, False, state)  # with its snapshot, as the session does
    elapsed = time.perf_counter() - start
    j.close()
    return elapsed / count


def main() -> None:
    per_row = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    work = Path(tempfile.mkdtemp(prefix="tk-bench-"))
    games = [(g, n) for g in adapters.ADAPTERS if g in rules.GAMES for n in rules.get(g).player_counts]
    print("input to redrawn screens (simulated table; add ~25 ms per changed screen on I2C)")
    print(f"{'game':<16} {'players':>7} {'input':>6} {'count':>6} {'median ms':>10} {'p95 ms':>8} "
          f"{'max ms':>8} {'resume ms':>10}")
    for game, players in games:
        merged: dict[str, list[float]] = {"tap": [], "press": []}
        resume: list[float] = []
        for seed in range(1, per_row + 1):
            times, _moves, path = play(game, players, seed, work)
            for k, v in times.items():
                merged[k] += v
            j = Journal(path)
            rec = j.games()[-1]
            start = time.perf_counter()
            j.replay(rec)
            resume.append(time.perf_counter() - start)
            j.close()
        for kind, values in merged.items():
            if not values:
                continue
            median = statistics.median(values) * 1e3
            print(f"{game:<16} {players:>7} {kind:>6} {len(values):>6} {median:>10.2f} "
                  f"{pct(values, 0.95) * 1e3:>8.2f} {max(values) * 1e3:>8.2f} "
                  f"{statistics.median(resume) * 1e3:>10.1f}")
    lay = Layout(title="Your turn: play or pass", big="Place blue in Din Eidyn", lines=("Region 2/8",),
                 footer="◀   ●   ▶")
    start = time.perf_counter()
    for _ in range(200):
        render(lay)
    print(f"\nrender one 128x64 frame: {(time.perf_counter() - start) / 200 * 1e3:.2f} ms")
    print("\njournal commit per move (WAL)")
    print(f"{'synchronous':<12} {'ms/move':>8}")
    for sync in ("FULL", "NORMAL"):
        print(f"{sync:<12} {commits(work, sync, 200) * 1e3:>8.2f}")


if __name__ == "__main__":
    main()
