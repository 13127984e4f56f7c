"""The table daemon: feedback latency, and what its parts cost.

Plays whole games of every game with a table adapter, at every player count,
on the simulated table (simulated pads through the real watcher, mock-pin
buttons, luma dummy screens), with simulated players who tap and press as a
person would. Each input is timed from the moment its event is on the
session's queue to the return of ``session.pump()``, which handles it, sends
every changed screen its frame (luma dummy device) and sets the lights; after
each input the benchmark checks that no screen's layout is left unsent and
every light says what it should. On a Pi add about 25 ms per changed screen
for the 1024-byte frame on a 400 kHz I2C bus, which the dummy device does not
cost, and the reader's poll interval before the event is queued.

    python -m bench.bench_session [--quick]
"""

from __future__ import annotations

import queue
import random
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import rules
from bench.common import Row, main
from pi_app import adapters, hardware, profile
from pi_app import session as session_module
from pi_app.autoplay import choose, next_input
from pi_app.journal import Journal
from pi_app.registry import Registry
from pi_app.screens import Layout, render
from pi_app.session import Session

AREA = "latency"
TARGET_P99_MS = 5.0


def pct(values: list[float], p: float) -> float:
    """The ``p`` quantile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


@dataclass
class Costs:
    """What the inputs of some games cost, in seconds."""

    inputs: list[float] = field(default_factory=list)  # event queued -> pump() returned
    cpu: list[float] = field(default_factory=list)  # the same, in this thread's CPU time
    layouts: float = 0.0  # of which deciding what each screen says
    render: float = 0.0  # of which drawing layouts into frames
    journal: float = 0.0  # of which journal commits
    frames: int = 0  # frames sent to screens
    stale: int = 0  # inputs after which a screen or light was not yet what it should be
    games: int = 0  # played to the end
    cut: int = 0  # cut short (--quick)
    moves: int = 0


def _timed(fn: Callable[..., Any], costs: Costs, part: str) -> Callable[..., Any]:
    def timed(*args: Any, **kw: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return fn(*args, **kw)
        finally:
            setattr(costs, part, getattr(costs, part) + time.perf_counter() - t0)

    return timed


@contextmanager
def timed_parts(costs: Costs, session: Session) -> Iterator[None]:
    """Adds the time spent in the session's layouts, rendering and journal
    writes to ``costs`` while it lasts (wraps them; every write goes through
    ``append_many`` where the journal has it, else ``append``)."""
    real_render = session_module.render
    journal = session.journal
    writes = [w for w in ("append_many", "end") if hasattr(journal, w)]
    if "append_many" not in writes:
        writes.append("append")
    session_module.render = _timed(real_render, costs, "render")  # type: ignore[assignment]
    session.layouts = _timed(session.layouts, costs, "layouts")  # type: ignore[method-assign]
    for name in writes:
        setattr(journal, name, _timed(getattr(journal, name), costs, "journal"))
    try:
        yield
    finally:
        session_module.render = real_render  # type: ignore[assignment]
        del session.layouts
        for name in writes:
            delattr(journal, name)


def settled(session: Session) -> bool:
    """Every screen was sent its current layout, every light says what it should."""
    if session._layouts != Session.layouts(session):  # not the timed one
        return False
    to_move, outcome = session.state.to_move(), session.state.outcome()
    for ui in session.seats:
        light = session.table.lights.get(session.profile.seats[ui.index].light.name)
        if light is None:
            continue
        if ui.index in session.flash_until:
            if light.state != "flash":
                return False
            continue
        lit = ui.index in outcome.winners if outcome is not None else ui.index == to_move
        if light.state != ("on" if lit else "off"):
            return False
    return True


def queued(table: hardware.Table, timeout: float = 1.0) -> None:
    """Waits (untimed) until the input's event is on the queue: gpiozero may
    call back from its own thread."""
    deadline = time.monotonic() + timeout
    while table.queue.empty():
        if time.monotonic() > deadline:
            raise RuntimeError("a simulated input put no event on the queue")
        time.sleep(0.0001)


def play(game: str, players: int, seed: int, workdir: Path, costs: Costs, limit: int | None) -> Path:
    """One whole game (or its first ``limit`` inputs); returns its journal."""
    prof = profile.load(profile.find("sim"))
    table = hardware.build(prof, queue.Queue(), poll=False, seats=players)
    journal = Journal(workdir / f"{game}-{players}-{seed}.sqlite")
    registry = Registry(workdir / "tags.sqlite")
    try:
        session = Session.open(table, journal, registry, game=game, players=players, seed=seed, new=True)
        comps = [(c.id, c.count) for c in session.adapter.components()]
        uids = {c: u[0] for c, u in registry.auto_enroll(game, comps).items()}
        session.set_lights()
        session.redraw()
        screens = list(table.screens.values())
        rng = random.Random(seed)
        with timed_parts(costs, session):
            while session.state.outcome() is None and (limit is None or len(costs.inputs) < limit):
                seat = session.state.to_move()
                target = choose(session, rng)
                n = len(session.state.history)
                while len(session.state.history) == n:
                    inp = next_input(session, seat, target, taps=rng.random() < 0.6)
                    if inp.kind == "tap":
                        table.tap(inp.part, uids[inp.what])
                    else:
                        table.press(inp.part)
                    queued(table)
                    sent = sum(s.frames_sent for s in screens)
                    start, cpu = time.perf_counter(), time.thread_time()
                    session.pump()
                    costs.inputs.append(time.perf_counter() - start)
                    costs.cpu.append(time.thread_time() - cpu)
                    costs.frames += sum(s.frames_sent for s in screens) - sent
                    costs.stale += not settled(session)
        if session.state.outcome() is None:
            costs.cut += 1
        else:
            costs.games += 1
        costs.moves += len(session.state.history)
    finally:
        table.close()
        registry.close()
        journal.close()
    return journal.path


def resume_seconds(path: Path) -> float:
    """Rebuilding the journal's last game from its moves, as a restart does."""
    j = Journal(path)
    try:
        record = j.games()[-1]
        start = time.perf_counter()
        j.replay(record)
        return time.perf_counter() - start
    finally:
        j.close()


def latency_rows(game: str, players: int, costs: Costs) -> list[Row]:
    ms = [x * 1e3 for x in costs.inputs]
    total = sum(costs.inputs)
    what = f"{game} {players}p: input to frames and lights"
    played = costs.games + costs.cut
    cut = f" ({costs.cut} cut short)" if costs.cut else ""
    note = (f"{len(ms)} inputs over {played} game(s){cut} of {costs.moves // played} moves on average; "
            f"{costs.frames / len(ms):.1f} frames an input; of the time, what the screens say "
            f"{100 * costs.layouts / total:.0f}%, drawing it {100 * costs.render / total:.0f}%, journal "
            f"{100 * costs.journal / total:.0f}%, the rest (engine, menus, lights) "
            f"{100 * (total - costs.layouts - costs.render - costs.journal) / total:.0f}%; "
            f"left unsettled after pump(): {costs.stale}")
    return [
        Row(AREA, f"{what}, median", statistics.median(ms), "ms"),
        Row(AREA, f"{what}, p99", pct(ms, 0.99), "ms", TARGET_P99_MS, note=note),
        Row(AREA, f"{what}, worst", max(ms), "ms"),
        Row(AREA, f"{what}, p99 of CPU time", pct([x * 1e3 for x in costs.cpu], 0.99), "ms"),
    ]


def commit_seconds(workdir: Path, sync: str, count: int) -> float:
    """Seconds per journalled move with its snapshot, as the session writes it."""
    j = Journal(workdir / f"commit-{sync}.sqlite")
    j.db.execute(f"PRAGMA synchronous={sync}")
    game = rules.get("king-is-dead")
    state = game.new_game(max(game.player_counts), 1)
    rec = j.start(game.id, state.players, 1, state.options)
    move = state.sample_chance() if state.is_chance() else state.legal_moves()[0]
    start = time.perf_counter()
    for n in range(count):
        j.append(rec, n, None, move, False, False, state)
    elapsed = time.perf_counter() - start
    j.close()
    return elapsed / count


def render_seconds(count: int) -> float:
    lay = Layout(title="Your turn: play or pass", big="Place blue in Din Eidyn", lines=("Region 2/8",),
                 footer="◀   ●   ▶")
    start = time.perf_counter()
    for _ in range(count):
        render(lay)
    return (time.perf_counter() - start) / count


def measure(quick: bool) -> list[Row]:
    games_per_row = 1 if quick else 3
    limit = 25 if quick else None
    rows: list[Row] = []
    resume: dict[str, list[tuple[float, int]]] = {}
    everything: list[float] = []
    everything_cpu: list[float] = []
    with tempfile.TemporaryDirectory(prefix="tk-bench-") as tmp:
        work = Path(tmp)
        for game in (g for g in adapters.ADAPTERS if g in rules.GAMES):
            counts = rules.get(game).player_counts
            for players in counts[:1] if quick else counts:
                costs = Costs()
                for seed in range(1, games_per_row + 1):
                    moves = costs.moves
                    path = play(game, players, seed, work, costs, limit)
                    resume.setdefault(game, []).append((resume_seconds(path), costs.moves - moves))
                rows += latency_rows(game, players, costs)
                everything += costs.inputs
                everything_cpu += costs.cpu
        ms = [x * 1e3 for x in everything]
        note = f"{len(ms)} inputs; median {statistics.median(ms):.2f} ms, worst {max(ms):.1f} ms"
        rows.append(Row(AREA, "all games: input to frames and lights, p99", pct(ms, 0.99), "ms",
                        TARGET_P99_MS, note=note))
        rows.append(Row(AREA, "all games: input to frames and lights, p99 of CPU time",
                        pct([x * 1e3 for x in everything_cpu], 0.99), "ms",
                        note="the loop thread's own CPU time: leaves out other processes, the fsync"))
        rows.append(Row(AREA, "render one 128x64 frame", render_seconds(20 if quick else 300) * 1e3, "ms"))
        for sync in ("FULL", "NORMAL"):
            cost = commit_seconds(work, sync, 20 if quick else 300) * 1e3
            note = "what the journal uses: a move is on disk before the table hears of it" if sync == "FULL" \
                else "for comparison only"
            rows.append(Row(AREA, f"journal commit of a move (WAL, synchronous={sync})", cost, "ms",
                            note=note))
        for game, runs in resume.items():
            moves = statistics.median(n for _, n in runs)
            rows.append(Row(AREA, f"{game}: rebuild a game from its journal",
                            statistics.median(s for s, _ in runs) * 1e3, "ms",
                            note=f"median of {len(runs)} games of {moves:.0f} moves"))
    return rows


if __name__ == "__main__":
    main(measure)
