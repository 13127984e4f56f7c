"""SPI transfers and time per poll for both RC522 backends, on the register-level emulator.

    .venv/bin/python bench/bench_rc522.py [--polls N]

Times are for the emulator on this machine (Python call overhead, no SPI
clock): compare backends by transfers, which is what costs on a Pi (each
``xfer2`` is a syscall plus the bytes at the SPI clock). The emulator answers
at once, so a wait loop that honours the chip's timer ends on its first read.
"bus µs" is the floor the bytes alone take at the drivers' default 1 MHz SPI
clock (8 µs a byte), before any per-transfer syscall cost.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from drivers.base import TagReader
from drivers.rc522 import open_mfrc522, open_rc522
from drivers.sim.fake_spi import FakeSpiBus, fake_rpi_gpio, fake_spidev
from drivers.sim.rc522_emulator import RC522Chip

CASES: list[tuple[str, list[str]]] = [
    ("empty poll", []),
    ("one 4-byte tag", ["DEADBEEF"]),
    ("one 7-byte tag", ["04A1B2C3D4E5F6"]),
    ("three tags (4+7+7)", ["DEADBEEF", "04A1B2C3D4E5F6", "04112233445566"]),
]


def _backends() -> dict[str, Callable[[], TagReader]]:
    return {
        "rc522 (own driver)": lambda: open_rc522("bench", sleep=lambda _: None),
        "mfrc522 adapter": lambda: open_mfrc522("bench"),
    }


def measure(backend: str, uids: list[str], polls: int) -> tuple[str, float, float, float]:
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


def positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"want a whole number of polls, 1 or more; got {text!r}")
    return value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--polls", type=positive, default=200, help="polls per case (default 200)")
    args = parser.parse_args()
    rows = [("backend", "case", "tags listed", "SPI transfers/poll", "bytes/poll", "bus µs @1 MHz",
             "µs/poll (emulator)")]
    for backend in _backends():
        for case, uids in CASES:
            listed, transfers, nbytes, micros = measure(backend, uids, args.polls)
            figures = (transfers, nbytes, nbytes * 8, micros)
            rows.append((backend, case, listed, *(f"{x:.0f}" for x in figures)))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for n, row in enumerate(rows):
        cells = zip(row, widths, strict=True)
        print("  ".join(cell.ljust(w) if i < 3 else cell.rjust(w) for i, (cell, w) in enumerate(cells)))
        if n == 0:
            print("  ".join("-" * w for w in widths))


if __name__ == "__main__":
    main()
