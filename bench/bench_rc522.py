"""Readers: SPI transfers and time per poll for both RC522 backends, on the
register-level emulator.

    python -m bench.bench_rc522 [--quick]

Times are for the emulator on this machine (Python call overhead, no SPI
clock): compare backends by transfers, which is what costs on a Pi (each
``xfer2`` is a syscall plus the bytes at the SPI clock). The emulator answers
at once, so a wait loop that honours the chip's timer ends on its first read.
The notes give the floor the bytes alone take at the drivers' default 1 MHz
SPI clock (8 µs a byte), before any per-transfer syscall cost.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from bench.common import Row, main
from drivers.base import TagReader
from drivers.rc522 import open_mfrc522, open_rc522
from drivers.sim.fake_spi import FakeSpiBus, fake_rpi_gpio, fake_spidev
from drivers.sim.rc522_emulator import RC522Chip

AREA = "readers"
CASES: list[tuple[str, list[str]]] = [
    ("empty field", []),
    ("one 4-byte tag", ["DEADBEEF"]),
    ("one 7-byte tag", ["04A1B2C3D4E5F6"]),
    ("three tags (4+7+7)", ["DEADBEEF", "04A1B2C3D4E5F6", "04112233445566"]),
]


def _backends() -> dict[str, Callable[[], TagReader]]:
    return {
        "own driver": lambda: open_rc522("bench", sleep=lambda _: None),
        "mfrc522 package": lambda: open_mfrc522("bench"),
    }


def poll_costs(backend: str, uids: list[str], polls: int) -> tuple[str, float, float, float]:
    chip = RC522Chip()
    for uid in uids:
        chip.add_tag(uid)
    bus = FakeSpiBus()
    bus.attach(chip)
    with fake_spidev(bus), fake_rpi_gpio():
        reader = _backends()[backend]()
        seen = reader.poll()  # the first poll also sets the chip up
        start_transfers = chip.transfers
        start_bytes = chip.bytes_transferred
        start = time.perf_counter()
        for _ in range(polls):
            reader.poll()
        elapsed = time.perf_counter() - start
        reader.close()
    transfers = (chip.transfers - start_transfers) / polls
    bytes_per_poll = (chip.bytes_transferred - start_bytes) / polls
    wanted = {u.upper() for u in uids}
    listed = f"{len(seen & wanted)}/{len(wanted)}"
    if seen - wanted:
        listed += f" (+{len(seen - wanted)} wrong: {', '.join(sorted(seen - wanted))})"
    return listed, transfers, bytes_per_poll, elapsed / polls * 1e6


def measure(quick: bool) -> list[Row]:
    polls = 20 if quick else 500
    rows: list[Row] = []
    for backend in _backends():
        for case, uids in CASES:
            listed, transfers, nbytes, micros = poll_costs(backend, uids, polls)
            what = f"RC522 {backend}, {case}"
            rows.append(Row(AREA, f"{what}: SPI transfers", transfers, "transfers/poll",
                            note=f"{nbytes:.0f} bytes a poll, at least {nbytes * 8:.0f} us on a 1 MHz bus; "
                                 f"tags listed {listed}"))
            rows.append(Row(AREA, f"{what}: time on the emulator", micros, "us/poll"))
    return rows


if __name__ == "__main__":
    main(measure)
