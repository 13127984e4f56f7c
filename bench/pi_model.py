"""A model of feedback on a Raspberry Pi, from what a benchmark measures here.

For one input, at each point a player sees (the acting seat's
acknowledgement, its frame complete, every changed screen complete): the CPU
time the session spent here until then, times a board's factor; plus the
journal commits made before it at an SD card's write latency; plus the I2C
bus time of the bytes sent until then, at the clock the board really runs
the bus at; plus each transaction's system call and wake-up, times the
factor. Every figure is cited in bench/README.md ("The feedback model"),
with how far it is trusted; each CPU factor is a range, printed at both
ends and judged at its centre.

- CPU: a CPython n-body run, timed here by :func:`nbody_us_per_step`, against
  the same program's published time on a Pi 4 (1.5 GHz) gives the Pi 4's
  slow end; the published run's older CPython (3.7 era, against 3.11 here:
  1.25-1.6x slower on pyperformance) gives its fast end. The Zero 2 W is
  the Pi 4 times single-thread sysbench's ratio; the Pi 5's slow end is the
  Pi 4 by sysbench, its fast end a pyperformance comparison (1.6x this
  machine).
- Storage: a WAL commit writes 2-4 frames of 4 KiB (measured on the journal)
  and syncs; an A1 microSD card is rated for at least 500 random 4 KiB writes
  a second, 2 ms each.
- Bus: a 400 kHz setting (hardware/wiring.md) runs at 400 kHz on every
  board once the install holds the core clock (core_freq_min): a Zero 2 W's
  I2C clock is divided from a core clock that would otherwise idle at
  250 MHz instead of 400, 250 kHz on the wire (raspberrypi/firmware #1281,
  #942; printed as a what-if); 9 clocks a byte and 2 a transaction
  (drivers.sim.i2c.wire_seconds); the screens share one bus behind the
  TCA9548A, one frame after another.
- Transactions: each is an ioctl into the kernel's I2C driver, which sleeps
  until the controller's interrupt says it is done: a system call and a
  thread's wake-up, measured here by :func:`transaction_us_here` and scaled
  by the board's factor.
- SPI screens (the reference table's since issue 35: SPI1 behind a 74HC138):
  the same windows at the controller's SPI clock, 8 clocks a pixel or
  command byte; each window is two spidev transfers (its commands, then its
  data), each an ioctl and a wake-up, and two writes of the D/C line, an
  ioctl each (:func:`spi_window_us`).
- Hub buttons: a press on the RP2040 hub reaches the queue later than a GPIO
  one by the firmware's loop, the USB poll and the host's read
  (:data:`HUB_BUTTON_SECONDS`, its worst case); it is added before every
  point of the input.
"""

from __future__ import annotations

import fcntl
import math
import os
import statistics
import termios
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from drivers.sim.i2c import wire_seconds

I2C_SETTING_HZ = 400_000  # hardware/wiring.md: dtparam=i2c_arm_baudrate=400000
#: what that setting gives on the wire with the install's core clock held at
#: the board's default maximum (hardware/wiring.md: core_freq_min = core_freq,
#: 500 MHz on a Pi 4, 400 on a Zero 2 W): the BCM283x I2C clock is divided
#: from the VPU core clock (raspberrypi/firmware #942, raspberrypi/linux
#: #4884: "setting core_freq and core_freq_min to the same value" stops it
#: changing; firmware #1256: both must be set)
I2C_HZ = {"Pi 4": 400_000, "Pi 5": 400_000, "Pi Zero 2 W": 400_000}
#: the same setting with the core clock left to idle (250 MHz on a Zero 2 W,
#: where the divider assumes 400): raspberrypi/firmware #1281, 250 kHz measured
I2C_HZ_CORE_IDLE = {"Pi Zero 2 W": 250_000}
#: Pi 4 at 1.5 GHz (performance governor), CPython, n-body, 5,000,000 steps: 158.263 s
PI4_NBODY_US_PER_STEP = 158.263e6 / 5_000_000
#: how much faster CPython 3.11 runs than the one the published n-body run
#: used (3.7 era): 1.25x (3.10 -> 3.11 on pyperformance) to 1.6x (3.7 -> 3.11)
PYTHON_GAIN = (1.25, 1.6)
#: sysbench cpu, one thread (events/s): Pi 3 B+ 687.45, Pi 4 1477.83, Pi 5 2737.49
SYSBENCH = {"pi3b+": 687.45, "pi4": 1477.83, "pi5": 2737.49}
#: the Zero 2 W's Cortex-A53 runs at 1.0 GHz, the Pi 3 B+'s at 1.4 GHz
ZERO2W_CLOCK_RATIO = 1.0 / 1.4
#: a Pi 5 against this machine on pyperformance (issue 35: 1.6-2x); the fast end of its range
PI5_PYPERFORMANCE = 1.6
WAL_FRAMES_PER_COMMIT = 3  # measured: 2 to 4 frames of 4 KiB (+24 bytes) a move
SD_WRITE_SECONDS = 1 / 500  # A1 class: at least 500 random 4 KiB writes a second
SD_COMMIT_SECONDS = WAL_FRAMES_PER_COMMIT * SD_WRITE_SECONDS
#: a seat button on the reader hub, from going down to its ButtonPressed on the
#: session's queue (bench/README.md, "Buttons on the reader hub"): the firmware reads
#: its buttons at most 25 register accesses apart (bench_hub.py, exact) at an
#: estimated 40-80 us each on a 125 MHz Pico, or after a 1 ms sleep slice, then
#: frames its KEY line; USB full speed carries it in the next 1 ms frame; the
#: Pi's tty path, reader thread and parse take some 0.1-0.5 ms. Typical and worst.
HUB_BUTTON_SECONDS = {"typical": 0.0015, "worst": 0.004}
#: what the model adds before every point of a hub button's input: the worst
#: case, so that the p99 does not lean on the typical figure
HUB_BUTTON_MODELLED = HUB_BUTTON_SECONDS["worst"]


@dataclass(frozen=True)
class Board:
    """A board: its CPU factor (CPU time there / CPU time here) as a range
    and its centre (the geometric mean of the ends), and its real I2C clock."""

    name: str
    low: float
    high: float
    i2c_hz: float

    @property
    def central(self) -> float:
        return math.sqrt(self.low * self.high)

    @property
    def cpu_factor(self) -> float:  # the figure the targets are judged at
        return self.central

    def ends(self) -> dict[str, float]:
        return {"fast end": self.low, "central": self.central, "slow end": self.high}


def nbody_us_per_step(steps: int = 100_000) -> float:
    """This machine's CPU microseconds per step of the n-body program (five
    bodies, every pair, dt 0.01): the same work as the Pi 4 figure."""
    solar = 4 * math.pi * math.pi
    year = 365.24
    # (position, velocity, mass): the Sun and the four giant planets
    data = [
        ((0.0, 0.0, 0.0), (0.0, 0.0, 0.0), 1.0),
        ((4.84143144246472090, -1.16032004402742839, -0.103622044471123109),
         (1.66007664274403694e-03, 7.69901118419740425e-03, -6.90460016972063023e-05),
         9.54791938424326609e-04),
        ((8.34336671824457987, 4.12479856412430479, -0.403523417114321381),
         (-2.76742510726862411e-03, 4.99852801234917238e-03, 2.30417297573763929e-05),
         2.85885980666130812e-04),
        ((12.8943695621391310, -15.1111514016986312, -0.223307578892655734),
         (2.96460137564761618e-03, 2.37847173959480950e-03, -2.96589568540237556e-05),
         4.36624404335156298e-05),
        ((15.3796971148509165, -25.9193146099879641, 0.179258772950371181),
         (2.68067772490389322e-03, 1.62824170038242295e-03, -9.51592254519715870e-05),
         5.15138902046611451e-05),
    ]
    bodies = [([*r], [x * year for x in v], m * solar) for r, v, m in data]
    pairs = [(bodies[i], bodies[j]) for i in range(5) for j in range(i + 1, 5)]
    dt = 0.01
    start = time.thread_time()
    for _ in range(steps):
        for (r1, v1, m1), (r2, v2, m2) in pairs:
            dx, dy, dz = r1[0] - r2[0], r1[1] - r2[1], r1[2] - r2[2]
            mag = dt * (dx * dx + dy * dy + dz * dz) ** -1.5
            b1, b2 = m1 * mag, m2 * mag
            v1[0] -= dx * b2
            v1[1] -= dy * b2
            v1[2] -= dz * b2
            v2[0] += dx * b1
            v2[1] += dy * b1
            v2[2] += dz * b1
        for r, v, _m in bodies:
            r[0] += dt * v[0]
            r[1] += dt * v[1]
            r[2] += dt * v[2]
    return (time.thread_time() - start) / steps * 1e6


def boards(here_us_per_step: float) -> list[Board]:
    """The Pi 4 (the reference table's board), the Pi Zero 2 W and the Pi 5."""
    pi4 = PI4_NBODY_US_PER_STEP / here_us_per_step  # the published run, as it ran
    zero = SYSBENCH["pi4"] / (SYSBENCH["pi3b+"] * ZERO2W_CLOCK_RATIO)  # Zero 2 W / Pi 4
    pi5 = SYSBENCH["pi4"] / SYSBENCH["pi5"]  # Pi 5 / Pi 4
    fast = pi4 / PYTHON_GAIN[1]
    return [Board("Pi 4", fast, pi4, I2C_HZ["Pi 4"]),
            Board("Pi Zero 2 W", fast * zero, pi4 * zero, I2C_HZ["Pi Zero 2 W"]),
            Board("Pi 5", min(PI5_PYPERFORMANCE, pi4 * pi5), pi4 * pi5, I2C_HZ["Pi 5"])]


def syscall_us_here(calls: int = 20_000) -> float:
    """This machine's CPU microseconds for one ioctl (FIONREAD on a pipe),
    the Python call included, as smbus2's is."""
    r, w = os.pipe()
    buf = bytearray(4)
    try:
        start = time.thread_time()
        for _ in range(calls):
            fcntl.ioctl(r, termios.FIONREAD, buf)
        return (time.thread_time() - start) / calls * 1e6
    finally:
        os.close(r)
        os.close(w)


def wakeup_us_here(rounds: int = 2_000) -> float:
    """This machine's CPU microseconds for a thread to sleep in the kernel
    and be woken (both threads' CPU, a pipe's round trip halved, its four
    system calls taken out): what an I2C transfer costs beside its ioctl,
    the caller sleeping until the controller's interrupt."""
    ping, pong = os.pipe(), os.pipe()

    def echo() -> None:
        for _ in range(rounds):
            os.write(pong[1], os.read(ping[0], 1))

    other = threading.Thread(target=echo)
    other.start()
    start = time.process_time()
    for _ in range(rounds):
        os.write(ping[1], b"x")
        os.read(pong[0], 1)
    spent = time.process_time() - start
    other.join()
    for fd in (*ping, *pong):
        os.close(fd)
    return max(0.0, spent / rounds * 1e6 - 4 * syscall_us_here(2_000)) / 2


@dataclass(frozen=True)
class Here:
    """What this machine measured for the model: n-body, a system call, a wake-up."""

    nbody_us: float
    syscall_us: float
    wakeup_us: float

    @property
    def transaction_us(self) -> float:
        return self.syscall_us + self.wakeup_us


#: repetitions of the system-call and wake-up figures, the lowest kept
KERNEL_REPEATS = 5


def measure_here(quick: bool, nbody_us: list[float] | None = None) -> Here:
    """The n-body figure in this thread's CPU time (as the inputs' CPU is
    measured: other processes' load does not count, and the factor follows
    the cores as they are): the median of ``nbody_us``, short runs taken
    between the games whose CPU it scales (so that both meet the cores as
    they were: a single run at the end moved the factor by a fifth between
    two runs at a load of 12), else one run now. The kernel's figures as the
    lowest of :data:`KERNEL_REPEATS` runs: a pipe's round trip costs more
    CPU while other processes crowd the cores (12.8 us against 0.7 in two
    runs of the same tree), which is the machine's load, not the kernel's work."""
    rounds = 500 if quick else 2_000
    nbody = statistics.median(nbody_us) if nbody_us else nbody_us_per_step(20_000 if quick else 200_000)
    return Here(nbody,
                min(syscall_us_here() for _ in range(KERNEL_REPEATS)),
                min(wakeup_us_here(rounds // KERNEL_REPEATS) for _ in range(KERNEL_REPEATS)))


@dataclass
class Frame:
    """One frame an input sent: to which screen, the CPU seconds here since
    the event once it was sent (luma's Python included), its own
    transactions and bytes on the bus, and the journal commits returned
    before it."""

    screen: str
    cpu: float
    transactions: int
    bytes: int
    commits: int


@dataclass
class InputCost:
    """What one input cost here: its frames in the order sent, and which of
    them the player sees at each point: ``ack`` the acting seat's first
    frame, ``acting`` its last (its frame complete), ``all`` the last one
    (every changed screen complete). A point is missing when no frame went out for it."""

    frames: list[Frame] = field(default_factory=list)
    points: dict[str, int] = field(default_factory=dict)  # point -> index in frames
    #: the input is a press of a button on the reader hub (HUB_BUTTON_MODELLED before its event)
    hub_button: bool = False


def spi_seconds(transactions: int, wire_bytes: int, hz: float) -> float:
    """The same windows on an SPI screen at ``hz``: the pixel and command
    bytes only (no address or control byte: D/C is a line of its own), 8
    clocks each."""
    return max(0, wire_bytes - 2 * transactions) * 8 / hz


def spi_window_us(here: Here) -> float:
    """The kernel's work for one window on an SPI screen, here: two spidev
    transfers (commands, data), each an ioctl and a wake-up, and two writes
    of the D/C line (an ioctl each). The I2C count has a TCA9548A select a
    frame, counted as a window: on SPI it stands for the decoder's address
    writes (up to three ioctls when the screen changes)."""
    return 2 * here.transaction_us + 2 * here.syscall_us


def hub_seconds(cost: InputCost, hub_buttons: bool) -> float:
    """The time before the event: a hub button's way to the queue, on a table with hub buttons."""
    return HUB_BUTTON_MODELLED if hub_buttons and cost.hub_button else 0.0


def timeline(cost: InputCost, board: Board, here: Here, factor: float, overlapped: bool,
             spi_hz: float | None = None, buses: Callable[[str], int] | None = None,
             hub_buttons: bool = False) -> list[float]:
    """When each frame is on its screen, in modelled seconds from the event
    on the queue. The loop thread's time is its CPU (times ``factor``), the
    commits before, and a wake-up; each frame then holds the bus for its
    wire time and its transactions' kernel work. ``overlapped``: a sender
    per bus sends while the loop draws on (the bus and the loop each wait
    only for themselves); else the loop waits for each frame's bus. With
    ``spi_hz`` the screens are on SPI at that clock instead (what a table
    with the pins to spare could choose: hardware/wiring.md). ``buses``
    says which bus each screen is on (a sender each, overlapped): all on one
    when not given. ``hub_buttons``: the table's hub seats press on the hub
    (their inputs start :data:`HUB_BUTTON_MODELLED` sooner)."""
    ends = []
    free: dict[int, float] = {}  # bus -> when it is free
    waited = 0.0  # bus time the loop spent waiting (sequential)
    before = hub_seconds(cost, hub_buttons)
    kernel_us = spi_window_us(here) if spi_hz else here.transaction_us
    for f in cost.frames:
        ready = before + f.cpu * factor + f.commits * SD_COMMIT_SECONDS + here.wakeup_us * 1e-6 * factor
        on_wire = (spi_seconds(f.transactions, f.bytes, spi_hz) if spi_hz
                   else wire_seconds(f.transactions, f.bytes, board.i2c_hz))
        wire = on_wire + f.transactions * kernel_us * 1e-6 * factor
        bus = buses(f.screen) if buses is not None else 0
        if overlapped:
            start = max(ready, free.get(bus, 0.0))
        else:
            start = ready + waited
            waited += wire
        free[bus] = start + wire
        ends.append(free[bus])
    return ends


def seconds(cost: InputCost, point: str, board: Board, here: Here, factor: float, overlapped: bool,
            spi_hz: float | None = None, buses: Callable[[str], int] | None = None,
            hub_buttons: bool = False) -> float:
    return timeline(cost, board, here, factor, overlapped, spi_hz, buses, hub_buttons)[cost.points[point]]


def parts(cost: InputCost, point: str, board: Board, here: Here, factor: float,
          spi_hz: float | None = None, hub_buttons: bool = False) -> dict[str, float]:
    """Up to ``point``, split (seconds): hub, CPU, kernel, bus, journal; the
    bus and kernel of every frame sent until then (what a loop that waits
    for each frame spends on them)."""
    upto = cost.frames[:cost.points[point] + 1]
    last = upto[-1]
    tx = sum(f.transactions for f in upto)
    nbytes = sum(f.bytes for f in upto)
    kernel_us = spi_window_us(here) if spi_hz else here.transaction_us
    return {"hub": hub_seconds(cost, hub_buttons),
            "CPU": last.cpu * factor,
            "kernel": (here.wakeup_us + tx * kernel_us) * 1e-6 * factor,
            "bus": spi_seconds(tx, nbytes, spi_hz) if spi_hz else wire_seconds(tx, nbytes, board.i2c_hz),
            "journal": last.commits * SD_COMMIT_SECONDS}
