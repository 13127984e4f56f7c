"""The table daemon: feedback latency, and what its parts cost.

Plays whole games of every game with a table adapter, at every player count,
on the simulated table (simulated pads through the real watcher, mock-pin
buttons, luma dummy screens), with simulated players who tap and press as a
person would. Each input is timed from the moment its event is on the
session's queue to the return of ``session.pump()``, which handles it, sends
every changed screen its frame (luma dummy device) and sets the lights; after
each input the benchmark checks that no screen's layout is left unsent and
every light says what it should. The *glass* rows model what a player feels
on a Pi (bench.pi_model): from the tag landing (bench.tag_to_event, the timed
reader emulator) or the button going down, to the acting seat's
acknowledgement, its frame and every changed screen. The screens' windows
are counted on a fake I2C bus and modelled on the reference table's wiring
as it is (SH1106s on SPI1 behind a 74HC138, seats 3-4's buttons on the
reader hub) and as it was (one I2C bus behind a TCA9548A, every button on a
GPIO), from the same inputs.

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
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import rules
from bench import pi_model, tag_to_event
from bench.common import Row, main
from bench.pi_model import Frame, InputCost
from drivers.screens import I2cBuses, open_oled

try:
    from drivers.screens import SPI_HZ
except ImportError:  # a tree before SPI screens had their own clock
    SPI_HZ = {"sh1106": 4_000_000, "ssd1306": 8_000_000}
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
GLASS = "glass"  # the Pi model: what a player feels (issue 35's targets)
#: modelled p99, ms, judged at each board's central CPU factor (issue 35)
TARGETS_MS = {
    "Pi 4": {"tag": 60.0, "ack": 15.0, "acting": 30.0, "all": 60.0},
    "Pi Zero 2 W": {"tag": 60.0, "ack": 30.0, "acting": 50.0, "all": 100.0},
}
#: what each point is, in the rows
POINTS = {"ack": "input to acknowledged on the acting seat",
          "acting": "input to acting seat's frame complete",
          "all": "input to all changed glass"}
BUS_BYTES_P99 = 600.0  # issue 21's bytes target, dropped by issue 35; glass_profile still counts against it
TAG_LANDINGS = 200  # tags laid at random moments, per board and factor
#: the tree measured sends each bus's frames from a thread of its own (drivers.screens.BusSender);
#: the benchmark's bus is not threaded (it counts each frame as it is sent), the model overlaps them
SENDER_PER_BUS = bool(getattr(I2cBuses(), "threaded", False))


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
           more: Callable[[], bool], pressed: list[str] | None = None) -> Iterator[int | None]:
    """A seeded game's inputs, one at a time: each is put on the table and
    waits in the queue; the caller pumps it and this yields the seat that
    acts next (and sets ``pressed[:]`` to the button pressed, empty for a
    tap). Ends with the game, or when ``more()`` says so."""
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
            if pressed is not None:
                pressed[:] = [inp.part if inp.kind != "tap" else ""]
            queued(table)
            yield seat


#: the channels the reference table's screens had behind its TCA9548A, all at 0x3C
MUX_CHANNELS = {"seat1.screen": 0, "seat2.screen": 1, "seat3.screen": 2, "seat4.screen": 3,
                "shared.screen": 4}


def on_the_bus(table: hardware.Table, full_frames: bool) -> FakeI2cBus:
    """The table's screens become SH1106s behind a TCA9548A on one I2C bus
    (here a fake one under luma's real classes, counting transactions and
    bytes): the windows each frame sends, which the model puts on the
    reference table's SPI screens too. ``full_frames``: luma's own
    classes, which send every page of every frame."""
    bus = FakeI2cBus(set())
    bus.keep_log = False
    buses = I2cBuses(opener=lambda port: bus)
    for name in table.screens:
        channel = MUX_CHANNELS[name]
        bus.devices.add((channel, 0x3C))  # counted only: no display RAM to emulate
        table.screens[name] = open_oled(name, driver="sh1106", address=0x3C,
                                        mux_channel=channel, i2c=buses, full_frames=full_frames)
    return bus


@dataclass(frozen=True)
class Wiring:
    """How the reference table's screens and buttons are wired, for the model."""

    label: str  # "" for the reference table as it is, else how the rows name it
    spi_hz: float | None  # the screens' SPI clock; None: on the I2C bus
    hub_buttons: frozenset[str]  # the buttons on the reader hub


def wirings() -> tuple[Wiring, Wiring]:
    """The reference table as its profile wires it, and as it was before
    issue 35 (its screens on I2C1 behind the TCA9548A, every button on a GPIO)."""
    ref = profile.load(profile.find("reference"))
    screen = ref.shared_screen
    spi_hz = None
    if screen.backend == "luma" and screen.interface == "spi":
        spi_hz = float(screen.spi_hz or SPI_HZ[screen.driver])
    hub = frozenset(b.name for b in ref.buttons() if b.get("backend") == "hub")
    now = Wiring("", spi_hz, hub)
    return now, Wiring("before (I2C screens, GPIO buttons)", None, frozenset())


@contextmanager
def watched(session: Session, bus: FakeI2cBus, commits: list[int],
            seen: dict[str, list[tuple[float, int, int, int]]]) -> Iterator[None]:
    """While it lasts, ``seen[screen]`` lists, for each frame sent to it,
    the CPU time and the bus's transactions and bytes once it was sent, and
    the journal commits returned by then (``commits[0]``)."""
    for name, screen in session.table.screens.items():
        def show(frame: Any, text: str = "", real: Any = screen.show, name: str = name) -> bool:
            sent = real(frame, text)
            if sent:
                at = time.thread_time()  # before the counting below, which is the benchmark's own
                total = bus.total()
                seen.setdefault(name, []).append((at, total.transactions, total.bytes, commits[0]))
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
        seen: dict[str, list[tuple[float, int, int, int]]] = {}
        commits = [0]
        write = session.journal.append_many

        def counted(*args: Any, **kw: Any) -> Any:
            out = write(*args, **kw)
            commits[0] += 1  # returned: what is sent from now on waited for it
            return out

        session.journal.append_many = counted  # type: ignore[method-assign]
        pressed: list[str] = [""]
        hub = wirings()[0].hub_buttons
        more = (lambda: limit is None or len(costs.inputs) < limit)  # noqa: E731
        with timed_parts(costs, session), (watched(session, bus, commits, seen) if bus else nullcontext()):
            for seat in inputs(session, table, uids, rng, more, pressed):
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
                    glass.append(input_cost(cpu, before, seen, acting))
                    glass[-1].hub_button = pressed[0] in hub
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


def input_cost(cpu: float, before: Traffic, seen: dict[str, list[tuple[float, int, int, int]]],
               acting: str) -> InputCost:
    """One input's frames since ``cpu`` (thread time) and ``before`` (the
    bus's totals), in the order sent, and its points."""
    sent = sorted(((at, name) for name, fs in seen.items() for at in fs), key=lambda s: s[0][1:3])
    cost = InputCost()
    tx, nbytes = before.transactions, before.bytes
    for (at_cpu, at_tx, at_bytes, commits), name in sent:
        cost.frames.append(Frame(name, at_cpu - cpu, at_tx - tx, at_bytes - nbytes, commits))
        tx, nbytes = at_tx, at_bytes
    mine = [i for i, f in enumerate(cost.frames) if f.screen == acting]
    if mine:
        cost.points["ack"], cost.points["acting"] = mine[0], mine[-1]
    if cost.frames:
        cost.points["all"] = len(cost.frames) - 1
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


def glass_rows(glass: dict[str, list[InputCost]], here: pi_model.Here) -> list[Row]:
    """The model's inputs, then per game and over all games: bus traffic per
    input and, per board, each point's modelled p99 at the central CPU factor
    (both ends of the factor's range in the note)."""
    boards = pi_model.boards(here.nbody_us)
    rows = [Row(GLASS, f"model: CPU factor, {b.name}", b.central, "x",
                note=f"range {b.low:.1f}-{b.high:.1f}x, the centre their geometric mean (bench/README.md, "
                     f"The feedback model); n-body {pi_model.PI4_NBODY_US_PER_STEP:.1f} us/step on a Pi 4, "
                     f"{here.nbody_us:.2f} here (the median of short runs between the games)")
            for b in boards]
    rows.append(Row(GLASS, "model: journal commit on an A1 microSD card", pi_model.SD_COMMIT_SECONDS * 1e3,
                    "ms",
                    note=f"{pi_model.WAL_FRAMES_PER_COMMIT} WAL frames of 4 KiB at "
                         f"{pi_model.SD_WRITE_SECONDS * 1e3:.0f} ms each"))
    for b in boards:
        rows.append(Row(GLASS, f"model: I2C clock for a 400 kHz setting, {b.name}", b.i2c_hz / 1e3, "kHz",
                        note="9 clocks a byte (address byte included), 2 a transaction (START, STOP)"))
    rows.append(Row(GLASS, "model: kernel per I2C transaction, here", here.transaction_us, "us",
                    note=f"an ioctl {here.syscall_us:.2f} us and a thread's sleep and wake-up "
                         f"{here.wakeup_us:.2f} us (CPU), times the board's factor"))
    now, before = wirings()
    if now.spi_hz:
        rows.append(Row(GLASS, "model: the reference table's screens, SPI clock", now.spi_hz / 1e6, "MHz",
                        note="SH1106s on SPI1 behind a 74HC138 (hardware/wiring.md); 8 clocks a pixel or "
                             "command byte, no address or control byte"))
        rows.append(Row(GLASS, "model: kernel per SPI window, here", pi_model.spi_window_us(here), "us",
                        note="two spidev transfers (commands, data), each an ioctl and a wake-up, and two "
                             "writes of the D/C line, times the board's factor"))
    if now.hub_buttons:
        typical = pi_model.HUB_BUTTON_SECONDS["typical"] * 1e3
        note = (f"the worst case (typical {typical:.1f} ms): the firmware's loop, USB full speed's 1 ms "
                "frame, the host's read (bench/README.md, Buttons on the reader hub); buttons on the hub: "
                + ", ".join(sorted(now.hub_buttons)))
        rows.append(Row(GLASS, "model: a hub button's press to its event", pi_model.HUB_BUTTON_MODELLED * 1e3,
                        "ms", note=note))
    everything = [c for cs in glass.values() for c in cs]
    for game, costs in [*glass.items(), ("all games", everything)]:
        if not costs:
            continue
        rows += traffic_rows(game, costs)
        for board in boards[:2]:
            rows += board_rows(game, board, costs, here, now)
    for board in boards[:2]:
        rows += board_rows("all games", board, everything, here, before)
    rows += what_if_rows(everything, boards[:2], here, now)
    rows += cpu_rows(everything)
    return rows


def cpu_rows(costs: list[InputCost]) -> list[Row]:
    """The CPU time here per input, which the model scales, to each point
    (this thread's clock, the fake bus's Python included)."""
    out = []
    for key, what in POINTS.items():
        ms = [c.frames[c.points[key]].cpu * 1e3 for c in costs if key in c.points]
        if not ms:
            continue
        out.append(Row(GLASS, f"all games: CPU here, {what}, median", statistics.median(ms), "ms"))
        out.append(Row(GLASS, f"all games: CPU here, {what}, p99", pct(ms, 0.99), "ms",
                       note=f"{len(ms)} inputs"))
    return out


def traffic_rows(game: str, costs: list[InputCost]) -> list[Row]:
    out = []
    for what in ("bytes", "transactions"):
        for key in ("ack", "all"):
            values = [float(sum(getattr(f, what) for f in c.frames[:c.points[key] + 1]))
                      for c in costs if key in c.points]
            if not values:
                continue
            label = "to the acting seat's acknowledgement" if key == "ack" else "per input"
            out.append(Row(GLASS, f"{game}: I2C {what} {label}, median", statistics.median(values), what,
                           note=f"p99 {pct(values, 0.99):.0f}; {len(values)} inputs"))
    return out


def board_rows(game: str, board: pi_model.Board, costs: list[InputCost], here: pi_model.Here,
               wiring: Wiring) -> list[Row]:
    """Each point's modelled p99 on ``board`` with the screens and buttons
    wired as ``wiring`` says; judged against the targets for the reference
    table as it is wired (``wiring.label`` empty), printed for comparison else."""
    targets = TARGETS_MS.get(board.name, {}) if not wiring.label else {}
    overlapped = SENDER_PER_BUS
    way = {"spi_hz": wiring.spi_hz, "hub_buttons": bool(wiring.hub_buttons)}
    out = []
    for key, what in POINTS.items():
        mine = [c for c in costs if key in c.points]
        if not mine:
            continue
        at = {end: pct([pi_model.seconds(c, key, board, here, f, overlapped, **way) * 1e3 for c in mine],
                       0.99)
              for end, f in board.ends().items()}
        split = {name: pct([pi_model.parts(c, key, board, here, board.central, **way)[name] * 1e3
                            for c in mine], 0.99)
                 for name in ("hub", "CPU", "kernel", "bus", "journal")}
        median = statistics.median(pi_model.seconds(c, key, board, here, board.central, overlapped, **way)
                                   * 1e3 for c in mine)
        bus = f"SPI at {wiring.spi_hz / 1e6:g} MHz" if wiring.spi_hz else f"I2C at {board.i2c_hz / 1e3:g} kHz"
        note = (f"at the factor's fast end {at['fast end']:.1f}, slow end {at['slow end']:.1f}; median "
                f"{median:.1f}; parts at p99: " + ", ".join(f"{k} {v:.1f}" for k, v in split.items())
                + f"; {len(mine)} of {len(costs)} inputs; screens on {bus}; "
                + ("a sender per bus (bus and drawing overlap)" if overlapped else "each frame waited for"))
        label = f"{game}, {wiring.label}" if wiring.label else game
        out.append(Row(GLASS, f"{label}: {board.name}, {what}, p99", at["central"], "ms", targets.get(key),
                       note=note))
    return out


def two_buses(screen: str) -> int:
    """A table whose seats alternate between two I2C buses (the acting and
    the next seat on different ones), the shared screen with the even seats."""
    return 0 if screen in ("seat1.screen", "seat3.screen") else 1


def what_if_rows(costs: list[InputCost], boards: list[pi_model.Board], here: pi_model.Here,
                 now: Wiring) -> list[Row]:
    """The same inputs sent otherwise: as wired now with the loop waiting
    for each frame (no sender per bus); on I2C with two buses, or with the
    core clock left to idle."""
    out = []
    way = {"spi_hz": now.spi_hz, "hub_buttons": bool(now.hub_buttons)}
    for board in boards:
        for key in ("acting", "all"):
            mine = [c for c in costs if key in c.points]
            waited = [pi_model.seconds(c, key, board, here, board.central, False, **way) * 1e3 for c in mine]
            out.append(Row(GLASS, f"all games, each frame waited for: {board.name}, {POINTS[key]}, p99",
                           pct(waited, 0.99), "ms",
                           note="the same frames on the reference table's wiring, the loop waiting for "
                                "each on the bus"))
            ms = [pi_model.seconds(c, key, board, here, board.central, True, buses=two_buses) * 1e3
                  for c in mine]
            out.append(Row(GLASS, f"all games, two I2C buses: {board.name}, {POINTS[key]}, p99",
                           pct(ms, 0.99), "ms",
                           note="the same frames, seats 1 and 3 on one bus, seats 2 and 4 and the shared "
                                "screen on another, a sender each, every button on a GPIO; not the "
                                "reference table's wiring (bench/README.md, Sooner glass)"))
            idle_hz = getattr(pi_model, "I2C_HZ_CORE_IDLE", {}).get(board.name)
            if idle_hz and idle_hz != board.i2c_hz:
                idle = replace(board, i2c_hz=idle_hz)
                ms = [pi_model.seconds(c, key, idle, here, board.central, SENDER_PER_BUS) * 1e3 for c in mine]
                out.append(Row(GLASS, f"all games, core clock left to idle: {board.name}, {POINTS[key]}, p99",
                               pct(ms, 0.99), "ms",
                               note=f"the I2C bus at {idle_hz / 1e3:.0f} kHz, as without the install's "
                                    "core_freq_min (hardware/wiring.md, Enable the buses)"))
    return out


class _NullChip:
    """A screen on the fake SPI bus that takes bytes and does nothing with them."""

    spi_hz = 0

    def xfer2(self, data: list[int]) -> list[int]:
        return data


def path_rows(quick: bool) -> list[Row]:
    """The CPU here of a frame sent through luma's SPI path behind the decoder
    (``DecodedSpi``: address and D/C lines, spidev writes; here on the fake
    spidev and RPi.GPIO, their own Python included) and through ``PageI2c``
    on the counting I2C bus, the path whose CPU the glass rows scale: the
    same frames, a menu's lines changing as a turn's end changes them."""
    from drivers.sim.fake_spi import FakeSpiBus, fake_rpi_gpio, fake_spidev

    rng = random.Random(7)
    words = ["Your turn: play or pass", "Place blue in Din Eidyn", "Waiting for Anna", "Region 2/8"]
    frames = [render(Layout(title=rng.choice(words), big=rng.choice(words), lines=(rng.choice(words),),
                            footer="◀   ●   ▶")) for _ in range(100 if quick else 600)]
    spi_bus = FakeSpiBus()
    spi_bus.attach_behind(_NullChip(), lambda: True, bus=1, device=0)  # type: ignore[arg-type]
    with fake_spidev(spi_bus), fake_rpi_gpio():
        spi = open_oled("spi", interface="spi", spi_port=1, spi_device=0, select=0, decoder_pins=(17, 27, 26),
                        gpio_dc=2, gpio_rst=3)
    i2c_bus = FakeI2cBus({(0, 0x3C)})
    i2c_bus.keep_log = False
    i2c = open_oled("i2c", mux_channel=0, i2c=I2cBuses(opener=lambda port: i2c_bus))
    spent: dict[str, list[float]] = {"spi": [], "i2c": []}
    for _ in range(3):  # alternating, the lowest kept: the machine's load is not the path's
        for name, screen in (("spi", spi), ("i2c", i2c)):
            start = time.thread_time()
            for frame in frames:
                screen.show(frame)
            spent[name].append((time.thread_time() - start) / len(frames))
    spi_note = ("fake spidev and RPi.GPIO (their Python included; rpi-lgpio's own per D/C write is not "
                "in it); the glass rows scale the I2C path's CPU")
    return [Row(GLASS, "model check: CPU here a frame, luma's SPI path behind the decoder",
                min(spent["spi"]) * 1e6, "us", note=spi_note),
            Row(GLASS, "model check: CPU here a frame, PageI2c on the counting I2C bus",
                min(spent["i2c"]) * 1e6, "us",
                note=f"the same {len(frames)} frames, the lowest of three runs each")]


def tag_rows(quick: bool, here: pi_model.Here) -> list[Row]:
    """Tag on the pad to its event on the queue, per board, on the timed
    reader emulator under the reference table's watcher settings; and what a
    brush past and a flicker at the field's edge make."""
    settings = hardware.watcher_settings(profile.load(profile.find("reference")))
    count = 30 if quick else TAG_LANDINGS
    rows = []
    for board in pi_model.boards(here.nbody_us)[:2]:
        at = {end: pct(tag_to_event.landings(settings, f, count), 0.99) * 1e3
              for end, f in board.ends().items()}
        times = tag_to_event.landings(settings, board.central, count)
        rows.append(Row(GLASS, f"{board.name}: tag on pad to event, p99", at["central"], "ms",
                        TARGETS_MS[board.name]["tag"],
                        note=f"at the factor's fast end {at['fast end']:.1f}, slow end {at['slow end']:.1f}; "
                             f"median {statistics.median(times) * 1e3:.1f}; {count} tags laid at random "
                             f"moments on the two RC522 pads (interval {settings.interval * 1e3:.0f} ms, "
                             f"arrive_hold {settings.arrive_hold * 1e3:.0f} ms, confirm_polls "
                             f"{settings.confirm_polls})"))
    zero = pi_model.boards(here.nbody_us)[1]
    tries = 10 if quick else 40
    for ms in (20, 25, 30, 40, 50, 70, 100):
        got = tag_to_event.brushes(settings, zero.central, ms / 1e3, tries)
        rows.append(Row(GLASS, f"Pi Zero 2 W: a tag in the field for {ms} ms, events", got, f"of {tries}",
                        note="random phases against the rounds; fewer than all: some such taps are missed, "
                             "more than none: some such brushes past are taken"))
    rows.append(Row(GLASS, "Pi Zero 2 W: a tag in the field every other round, events",
                    tag_to_event.edge_flicker(settings, zero.central), "events",
                    note="200 rounds: one poll in, one out (the edge of the field)"))
    return rows


def measure(quick: bool) -> list[Row]:
    games_per_row = 1 if quick else 3
    limit = 25 if quick else None
    rows: list[Row] = []
    resume: dict[str, list[tuple[float, int]]] = {}
    everything: list[float] = []
    everything_cpu: list[float] = []
    nbody: list[float] = []  # us a step of n-body, after each game
    with tempfile.TemporaryDirectory(prefix="tk-bench-") as tmp:
        work = Path(tmp)
        glass: dict[str, list[InputCost]] = {}
        for game in (g for g in table_games.ADAPTERS if g in rules.GAMES):
            counts = rules.get(game).player_counts
            for players in counts[:1] if quick else counts:
                costs = Costs()
                for seed in range(1, games_per_row + 1):
                    moves = costs.moves
                    path = play(game, players, seed, work, costs, limit, glass=glass.setdefault(game, []))
                    nbody.append(pi_model.nbody_us_per_step(2_000 if quick else 10_000))  # cores as now
                    resume.setdefault(game, []).append((resume_seconds(path), costs.moves - moves))
                rows += latency_rows(game, players, costs)
                everything += costs.inputs
                everything_cpu += costs.cpu
        here = pi_model.measure_here(quick, nbody)
        rows += tag_rows(quick, here)
        rows += glass_rows(glass, here)
        rows += path_rows(quick)
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
