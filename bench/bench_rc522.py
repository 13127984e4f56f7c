"""Readers: what one poll costs each RC522 backend on the timed register-level emulator.

    python -m bench.bench_rc522 [--quick]

The emulator runs on the wall clock (:class:`RealClock`): each SPI transfer
takes its bytes at the device's clock (1 MHz, spent busy, as the Pi's SPI
driver polls the controller for short transfers), frames go out and answers
come back at 106 kbit/s, and the chip's timer runs its period; the registers
show an outcome only when it is due. So a poll takes the wall time it would
on a Pi, and a driver that spins on ComIrqReg burns CPU for it.

Per reader and field (empty, 1, 3 and 6 tags): SPI transfers, wall time and
CPU time per poll with the tags resting on the pad, and the CPU share of one
core for a reader polled at 20 Hz (target: at most 2 %), for the project's
driver at its default 4 MHz SPI clock (sleeping between looks, and waiting on
the IRQ line where wired; it halts the tags it has read and runs a census of
them every 4th poll), the same with a census each poll (``confirm_every=1``,
what the doctor's read test uses), at 1 MHz, and for the ``mfrc522`` package;
and the transfers and wall time of the poll in which all the tags arrive.
CPU is this process's (``time.process_time``) less the emulator's own
bookkeeping (``RC522Chip.busy_cpu``): what the driver and the SPI transfers
cost. It is measured on this machine's CPU; a Pi Zero 2 W runs Python several
times slower.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from gpiozero.pins.mock import MockFactory

from bench.common import Row, main
from drivers.base import TagReader
from drivers.rc522 import open_mfrc522, open_rc522
from drivers.sim.fake_spi import FakeSpiBus, fake_rpi_gpio, fake_spidev
from drivers.sim.rc522_emulator import RC522Chip, RealClock

AREA = "readers"
POLL_HZ = 20
CPU_TARGET_PERCENT = 2.0
CASES: list[tuple[str, list[str]]] = [
    ("empty field", []),
    ("1 tag (7-byte)", ["04A1B2C3D4E5F6"]),
    ("3 tags (4+7+7)", ["DEADBEEF", "04A1B2C3D4E5F6", "04112233445566"]),
    (
        "6 tags (4+4+4+7+7+7)",
        ["DEADBEEF", "DEADBEEE", "01A55A10", "04A1B2C3D4E5F6", "04A1B2C3D4E5F7", "04112233445566"],
    ),
]


def _with_irq_line(chip: RC522Chip) -> TagReader:
    """The project's driver waiting on the chip's IRQ line (a gpiozero mock pin the chip drives)."""
    factory = MockFactory()
    line = factory.pin(6)
    chip.wire_irq(lambda level: line.drive_high() if level else line.drive_low())
    return open_rc522("bench", max_tags=8, irq_pin=6, pin_factory=factory)


def _backends() -> dict[str, Callable[[RC522Chip], TagReader]]:
    return {
        "own driver (4 MHz SPI)": lambda _: open_rc522("bench", max_tags=8, speed_hz=4_000_000),
        "own driver (4 MHz SPI, IRQ line)": _with_irq_line,
        "own driver (4 MHz SPI, census each poll)": lambda _: open_rc522(
            "bench", max_tags=8, speed_hz=4_000_000, confirm_every=1
        ),
        "own driver (1 MHz SPI)": lambda _: open_rc522("bench", max_tags=8, speed_hz=1_000_000),
        "mfrc522 package (1 MHz SPI)": lambda _: open_mfrc522("bench"),
    }


def poll_costs(backend: str, uids: list[str], polls: int) -> dict[str, float | str]:
    chip = RC522Chip(clock=RealClock())
    bus = FakeSpiBus()
    bus.attach(chip)
    with fake_spidev(bus), fake_rpi_gpio():
        reader = _backends()[backend](chip)
        reader.poll()  # the first poll also sets the chip up
        for uid in uids:
            chip.add_tag(uid)
        transfers, wall = chip.transfers, time.perf_counter()
        seen = reader.poll()  # every tag arrives at once: read (and, by the own driver, halted)
        arrival = {"transfers": chip.transfers - transfers, "wall_ms": (time.perf_counter() - wall) * 1000}
        transfers, emulator_cpu = chip.transfers, chip.busy_cpu
        cpu, wall = time.process_time(), time.perf_counter()
        complete = 0
        for _ in range(polls):
            complete += reader.poll() == set(uids)
        wall = time.perf_counter() - wall
        cpu = time.process_time() - cpu - (chip.busy_cpu - emulator_cpu)
        reader.close()
    wanted = set(uids)
    listed = f"{len(seen & wanted)}/{len(wanted)} tags listed, {complete}/{polls} polls complete"
    if seen - wanted:
        listed += f" (+{len(seen - wanted)} wrong: {', '.join(sorted(seen - wanted))})"
    return {
        "transfers": (chip.transfers - transfers) / polls,
        "wall_ms": wall / polls * 1000,
        "cpu_ms": cpu / polls * 1000,
        "listed": listed,
        "arrival_transfers": float(arrival["transfers"]),
        "arrival_wall_ms": float(arrival["wall_ms"]),
    }


def measure(quick: bool) -> list[Row]:
    polls = 10 if quick else 100
    rows: list[Row] = []
    for backend in _backends():
        for case, uids in CASES:
            if backend.startswith("mfrc522") and len(uids) > 1:
                continue  # it lists one tag at most (see the adapter's tests)
            got = poll_costs(backend, uids, polls)
            what = f"RC522 {backend}, {case}"
            cpu_ms = float(got["cpu_ms"])
            rows += [
                Row(AREA, f"{what}: SPI transfers", float(got["transfers"]), "transfers/poll",
                    note=str(got["listed"])),
                Row(AREA, f"{what}: wall time", float(got["wall_ms"]), "ms/poll"),
                Row(AREA, f"{what}: CPU", cpu_ms, "ms/poll"),
                Row(AREA, f"{what}: CPU at {POLL_HZ} Hz", cpu_ms * POLL_HZ / 10, "% of a core",
                    target=CPU_TARGET_PERCENT),
            ]
            if uids:
                rows += [
                    Row(AREA, f"{what}: the poll they all arrive in, SPI transfers",
                        float(got["arrival_transfers"]), "transfers"),
                    Row(AREA, f"{what}: the poll they all arrive in, wall time",
                        float(got["arrival_wall_ms"]), "ms"),
                ]
    return rows


if __name__ == "__main__":
    main(measure)
