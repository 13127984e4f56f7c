"""A model of tap to glass on a Raspberry Pi, from what a benchmark measures here.

For one input: the CPU time the session spent here, times a board's factor;
plus the journal's commits at an SD card's write latency; plus the I2C bus
time of the bytes sent, at the profile's clock. Every figure below is cited
in bench/README.md ("Tap to glass on a Pi"), with how far it is trusted.

- CPU: a CPython n-body run, timed here by :func:`nbody_us_per_step`, against
  the same program's published time on a Pi 4 (1.5 GHz); Pi Zero 2 W and Pi 5
  from the Pi 4 by single-thread sysbench scores.
- Storage: a WAL commit writes 2-4 frames of 4 KiB (measured on the journal)
  and syncs; an A1 microSD card is rated for at least 500 random 4 KiB writes
  a second, 2 ms each.
- Bus: 400 kHz (hardware/wiring.md), 9 clocks a byte and 2 a transaction
  (drivers.sim.i2c.wire_seconds); the screens share one bus behind the
  TCA9548A, one frame after another.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from drivers.sim.i2c import wire_seconds

I2C_HZ = 400_000  # hardware/wiring.md: dtparam=i2c_arm_baudrate=400000
#: Pi 4 at 1.5 GHz (performance governor), CPython, n-body, 5,000,000 steps: 158.263 s
PI4_NBODY_US_PER_STEP = 158.263e6 / 5_000_000
#: sysbench cpu, one thread (events/s): Pi 3 B+ 687.45, Pi 4 1477.83, Pi 5 2737.49
SYSBENCH = {"pi3b+": 687.45, "pi4": 1477.83, "pi5": 2737.49}
#: the Zero 2 W's Cortex-A53 runs at 1.0 GHz, the Pi 3 B+'s at 1.4 GHz
ZERO2W_CLOCK_RATIO = 1.0 / 1.4
WAL_FRAMES_PER_COMMIT = 3  # measured: 2 to 4 frames of 4 KiB (+24 bytes) a move
SD_WRITE_SECONDS = 1 / 500  # A1 class: at least 500 random 4 KiB writes a second
SD_COMMIT_SECONDS = WAL_FRAMES_PER_COMMIT * SD_WRITE_SECONDS


@dataclass(frozen=True)
class Board:
    name: str
    cpu_factor: float  # CPU time there / CPU time here


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
    """The Pi Zero 2 W and the Pi 4 (modelled) and the Pi 5 (its factor only)."""
    pi4 = PI4_NBODY_US_PER_STEP / here_us_per_step
    zero2w = pi4 * SYSBENCH["pi4"] / (SYSBENCH["pi3b+"] * ZERO2W_CLOCK_RATIO)
    pi5 = pi4 * SYSBENCH["pi4"] / SYSBENCH["pi5"]
    return [Board("Pi Zero 2 W", zero2w), Board("Pi 4", pi4), Board("Pi 5", pi5)]


@dataclass
class InputCost:
    """What one input cost here: CPU seconds and bus traffic up to the acting
    seat's frame (None: its screen did not change) and in all, and journal commits."""

    cpu_all: float
    transactions_all: int
    bytes_all: int
    commits: int
    cpu_acting: float | None = None
    transactions_acting: int = 0
    bytes_acting: int = 0


@dataclass(frozen=True)
class Glass:
    """One input on one board, in seconds, with the model's parts."""

    acting: float | None
    everything: float
    cpu: float
    bus: float
    storage: float


def glass(cost: InputCost, board: Board, hz: float = I2C_HZ) -> Glass:
    storage = cost.commits * SD_COMMIT_SECONDS  # every commit returns before any frame is sent
    bus = wire_seconds(cost.transactions_all, cost.bytes_all, hz)
    cpu = cost.cpu_all * board.cpu_factor
    acting = None
    if cost.cpu_acting is not None:
        acting = (cost.cpu_acting * board.cpu_factor + storage
                  + wire_seconds(cost.transactions_acting, cost.bytes_acting, hz))
    return Glass(acting, cpu + storage + bus, cpu, bus, storage)
