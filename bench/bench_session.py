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
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import rules
from bench import pi_model
from bench.common import Row, main
from bench.pi_model import InputCost
from drivers.screens import I2cBuses, open_oled
from drivers.sim.i2c import FakeI2cBus, Traffic
from pi_app import games as table_games
from pi_app.session import presentation as presentation_module
from pi_app.session.loop import Session
from pi_app.simulated.autoplay import choose, next_input
from pi_app.store.journal import Journal
from pi_app.store.registry import Registry
from pi_app.table import hardware, profile
from pi_app.ui.screens import Layout, render

AREA = "latency"
TARGET_P99_MS = 5.0
GLASS = "glass"  # the Pi model: tap to glass (issue 21's targets, Pi Zero 2 W)
TAP_TO_ACTING_P99_MS = 30.0
TAP_TO_ALL_P99_MS = 60.0
BUS_BYTES_P99 = 600.0


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
    real_render = presentation_module.render
    journal = session.journal
    writes = [w for w in ("append_many", "end") if hasattr(journal, w)]
    if "append_many" not in writes:
        writes.append("append")
    presentation_module.render = _timed(real_render, costs, "render")  # type: ignore[assignment]
    session.presentation.layout_of = _timed(  # type: ignore[method-assign]
        session.presentation.layout_of, costs, "layouts")
    for name in writes:
        setattr(journal, name, _timed(getattr(journal, name), costs, "journal"))
    try:
        yield
    finally:
        presentation_module.render = real_render  # type: ignore[assignment]
        del session.presentation.layout_of
        for name in writes:
            delattr(journal, name)


def settled(session: Session) -> bool:
    """Every screen was sent its current layout, every light says what it should."""
    if session.presentation.layouts_sent != Session.layouts(session):  # not the timed one
        return False
    to_move, outcome = session.scene.state.to_move(), session.scene.state.outcome()
    for ui in session.scene.seats:
        light = session.table.lights.get(session.scene.profile.seats[ui.index].light.name)
        if light is None:
            continue
        if ui.index in session.scene.flash_until:
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


def started(table: hardware.Table, journal: Journal, registry: Registry, game: str, players: int,
            seed: int) -> tuple[Session, dict[str, str]]:
    """A new game on the table with its screens and lights drawn, and one
    enrolled tag per component (component id -> uid)."""
    session = Session.open(table, journal, registry, game=game, players=players, seed=seed, new=True)
    comps = [(c.id, c.count) for c in session.scene.adapter.components()]
    uids = {c: u[0] for c, u in registry.auto_enroll(game, comps).items()}
    session.set_lights()
    session.redraw()
    return session, uids


def inputs(session: Session, table: hardware.Table, uids: dict[str, str], rng: random.Random,
           more: Callable[[], bool]) -> Iterator[int | None]:
    """A seeded game's inputs, one at a time: each is put on the table and
    waits in the queue; the caller pumps it and this yields the seat that
    acts next. Ends with the game, or when ``more()`` says so."""
    while session.scene.state.outcome() is None and more():
        seat = session.scene.state.to_move()
        target = choose(session, rng)
        n = len(session.scene.state.history)
        while len(session.scene.state.history) == n:
            inp = next_input(session, seat, target, taps=rng.random() < 0.6)
            if inp.kind == "tap":
                table.tap(inp.part, uids[inp.what])
            else:
                table.press(inp.part)
            queued(table)
            yield seat


def on_the_bus(table: hardware.Table, full_frames: bool) -> FakeI2cBus:
    """The table's screens become the reference table's: SH1106s behind a
    TCA9548A on one I2C bus (here a fake one under luma's real classes,
    counting transactions and bytes). ``full_frames``: luma's own
    classes, which send every page of every frame."""
    ref = profile.load(profile.find("reference"))
    specs = {f"seat{i + 1}.screen": s.screen for i, s in enumerate(ref.seats)}
    specs["shared.screen"] = ref.shared_screen
    bus = FakeI2cBus(set())
    bus.keep_log = False
    buses = I2cBuses(opener=lambda port: bus)
    for name in table.screens:
        spec = specs[name]
        bus.devices.add((spec.mux_channel, spec.address))  # counted only: no display RAM to emulate
        table.screens[name] = open_oled(name, driver=spec.driver, address=spec.address,
                                        mux_channel=spec.mux_channel, i2c=buses, full_frames=full_frames)
    return bus


@contextmanager
def watched(session: Session, bus: FakeI2cBus, seen: dict[str, tuple[float, int, int]]) -> Iterator[None]:
    """While it lasts, ``seen[screen]`` is the CPU time and the bus's
    transactions and bytes when each screen's frame was sent."""
    for name, screen in session.table.screens.items():
        def show(frame: Any, text: str = "", real: Any = screen.show, name: str = name) -> bool:
            sent = real(frame, text)
            if sent:
                total = bus.total()
                seen[name] = (time.thread_time(), total.transactions, total.bytes)
            return sent

        screen.show = show
    try:
        yield
    finally:
        for screen in session.table.screens.values():
            del screen.show


def play(game: str, players: int, seed: int, workdir: Path, costs: Costs, limit: int | None,
         glass: list[InputCost] | None = None, full_frames: bool = False) -> Path:
    """One whole game (or its first ``limit`` inputs); returns its journal.
    With ``glass``, the screens are on a simulated I2C bus and each input's
    :class:`InputCost` is added to it for the Pi model."""
    prof = profile.load(profile.find("sim"))
    table = hardware.build(prof, queue.Queue(), poll=False, seats=players)
    bus = on_the_bus(table, full_frames) if glass is not None else None
    journal = Journal(workdir / f"{game}-{players}-{seed}.sqlite")
    registry = Registry(workdir / "tags.sqlite")
    try:
        session, uids = started(table, journal, registry, game, players, seed)
        screens = list(table.screens.values())
        rng = random.Random(seed)
        seen: dict[str, tuple[float, int, int]] = {}
        commits = [0]
        write = session.journal.append_many

        def counted(*args: Any, **kw: Any) -> Any:
            commits[0] += 1
            return write(*args, **kw)

        session.journal.append_many = counted  # type: ignore[method-assign]
        with timed_parts(costs, session), (watched(session, bus, seen) if bus else nullcontext()):
            for seat in inputs(session, table, uids, rng, lambda: limit is None or len(costs.inputs) < limit):
                sent = sum(s.frames_sent for s in screens)
                before = bus.total() if bus else None
                seen.clear()
                commits[0] = 0
                seats = session.scene.profile.seats
                acting = seats[seat].screen.name if seat is not None and seat >= 0 else ""
                start, cpu = time.perf_counter(), time.thread_time()
                session.pump()
                costs.inputs.append(time.perf_counter() - start)
                costs.cpu.append(time.thread_time() - cpu)
                if glass is not None and bus is not None and before is not None:
                    glass.append(input_cost(cpu, before, bus, seen.get(acting), commits[0]))
                costs.frames += sum(s.frames_sent for s in screens) - sent
                costs.stale += not settled(session)
        if session.scene.state.outcome() is None:
            costs.cut += 1
        else:
            costs.games += 1
        costs.moves += len(session.scene.state.history)
    finally:
        table.close()
        registry.close()
        journal.close()
    return journal.path


def input_cost(cpu: float, before: Traffic, bus: FakeI2cBus, acting: tuple[float, int, int] | None,
               commits: int) -> InputCost:
    """One input's costs since ``cpu`` (thread time) and ``before`` (the bus's totals)."""
    total = bus.total()
    cost = InputCost(time.thread_time() - cpu, total.transactions - before.transactions,
                     total.bytes - before.bytes, commits)
    if acting is not None:
        cost.cpu_acting = acting[0] - cpu
        cost.transactions_acting = acting[1] - before.transactions
        cost.bytes_acting = acting[2] - before.bytes
    return cost


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


@contextmanager
def profile_order() -> Iterator[None]:
    """Screens sent in the profile's order (seat 1 first, the shared screen
    last), as before the acting seat's screen went first."""
    real = presentation_module.Presentation.send_order
    presentation_module.Presentation.send_order = lambda self, names: list(names)  # type: ignore[method-assign]
    try:
        yield
    finally:
        presentation_module.Presentation.send_order = real  # type: ignore[method-assign]


def glass_rows(glass: dict[str, dict[str, list[InputCost]]], quick: bool) -> list[Row]:
    """Per game and over all games: bus traffic per input and the modelled tap
    to glass on each board, after and before (same games, same inputs)."""
    here = pi_model.nbody_us_per_step(20_000 if quick else 200_000)
    boards = pi_model.boards(here)
    rows = [Row(GLASS, f"model: CPU factor, {b.name}", b.cpu_factor, "x",
                note=f"n-body {pi_model.PI4_NBODY_US_PER_STEP:.1f} us/step on a Pi 4, {here:.2f} here; "
                     "Zero 2 W and Pi 5 from the Pi 4 by single-thread sysbench (bench/README.md)")
            for b in boards]
    sd_ms = pi_model.SD_COMMIT_SECONDS * 1e3
    rows.append(Row(GLASS, "model: journal commit on an A1 microSD card", sd_ms, "ms",
                    note=f"{pi_model.WAL_FRAMES_PER_COMMIT} WAL frames of 4 KiB at "
                         f"{pi_model.SD_WRITE_SECONDS * 1e3:.0f} ms each"))
    rows.append(Row(GLASS, "model: I2C clock", pi_model.I2C_HZ / 1e3, "kHz",
                    note="9 clocks a byte (address byte included), 2 a transaction (START, STOP)"))
    games = [*glass["after"], "all games"]
    for game in games:
        if game == "all games":
            after = [c for cs in glass["after"].values() for c in cs]
            before = [c for cs in glass["before"].values() for c in cs]
        else:
            after, before = glass["after"][game], glass["before"][game]
        if not after:
            continue
        rows += traffic_rows(game, after, before)
        for board in boards[:2]:
            rows += board_rows(game, board, after, before)
        if game == "all games":
            rows += cpu_rows(after)
    return rows


def cpu_rows(costs: list[InputCost]) -> list[Row]:
    """The CPU time here per input, which the model scales: to the acting
    seat's frame and in all (this thread's clock, the fake bus's Python included)."""
    out = []
    acting = [c.cpu_acting for c in costs if c.cpu_acting is not None]
    for what, values in (("to the acting seat's frame", acting), ("in all", [c.cpu_all for c in costs])):
        ms = [v * 1e3 for v in values]
        out.append(Row(GLASS, f"all games: CPU here per input {what}, median", statistics.median(ms), "ms"))
        out.append(Row(GLASS, f"all games: CPU here per input {what}, p99", pct(ms, 0.99), "ms",
                       note=f"{len(ms)} inputs"))
    return out


def traffic_rows(game: str, after: list[InputCost], before: list[InputCost]) -> list[Row]:
    out = []
    for what, get in (("bytes", lambda c: c.bytes_all), ("transactions", lambda c: c.transactions_all)):
        now, then = [float(get(c)) for c in after], [float(get(c)) for c in before]
        target = BUS_BYTES_P99 if what == "bytes" else None
        out.append(Row(GLASS, f"{game}: I2C {what} per input, median", statistics.median(now), what,
                       note=f"before (luma's classes): {statistics.median(then):.0f}"))
        out.append(Row(GLASS, f"{game}: I2C {what} per input, p99", pct(now, 0.99), what, target,
                       note=f"before (luma's classes): {pct(then, 0.99):.0f}; {len(now)} inputs"))
    return out


def board_rows(game: str, board: pi_model.Board, after: list[InputCost],
               before: list[InputCost]) -> list[Row]:
    zero = board.name == "Pi Zero 2 W"
    out = []
    for what, target in (("acting seat's glass", TAP_TO_ACTING_P99_MS),
                         ("all changed glass", TAP_TO_ALL_P99_MS)):
        acting = what.startswith("acting")
        now = [pi_model.glass(c, board) for c in after]
        then = [pi_model.glass(c, board) for c in before]
        value = [(g.acting if acting else g.everything) for g in now]
        old = [(g.acting if acting else g.everything) for g in then]
        ms = [v * 1e3 for v in value if v is not None]
        old_ms = [v * 1e3 for v in old if v is not None]
        if not ms:
            continue
        parts = [pct([getattr(g, p) * 1e3 for g in now], 0.99) for p in ("cpu", "bus", "storage")]
        note = (f"parts at p99, ms: CPU {parts[0]:.1f}, bus {parts[1]:.1f}, journal {parts[2]:.1f}; "
                f"median {statistics.median(ms):.1f}; before (luma's classes, seats in profile order): "
                f"p99 {pct(old_ms, 0.99):.1f}, median {statistics.median(old_ms):.1f}")
        if acting:
            note += f"; {len(ms)} of {len(value)} inputs changed the acting seat's screen"
        out.append(Row(GLASS, f"{game}: {board.name}, tap to {what}, p99", pct(ms, 0.99), "ms",
                       target if zero else None, note=note))
    return out


def measure(quick: bool) -> list[Row]:
    games_per_row = 1 if quick else 3
    limit = 25 if quick else None
    rows: list[Row] = []
    resume: dict[str, list[tuple[float, int]]] = {}
    everything: list[float] = []
    everything_cpu: list[float] = []
    with tempfile.TemporaryDirectory(prefix="tk-bench-") as tmp:
        work = Path(tmp)
        glass: dict[str, dict[str, list[InputCost]]] = {"after": {}, "before": {}}
        for game in (g for g in table_games.ADAPTERS if g in rules.GAMES):
            counts = rules.get(game).player_counts
            for players in counts[:1] if quick else counts:
                costs = Costs()
                for seed in range(1, games_per_row + 1):
                    moves = costs.moves
                    path = play(game, players, seed, work, costs, limit,
                                glass=glass["after"].setdefault(game, []))
                    resume.setdefault(game, []).append((resume_seconds(path), costs.moves - moves))
                    with profile_order():  # the same game as sent before: luma's classes, seat order
                        play(game, players, seed, work / "before", Costs(), limit,
                             glass=glass["before"].setdefault(game, []), full_frames=True)
                rows += latency_rows(game, players, costs)
                everything += costs.inputs
                everything_cpu += costs.cpu
        rows += glass_rows(glass, quick)
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
