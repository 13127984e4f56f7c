"""Simulated tag readers: scripted placements and taps, and the real RC522 driver on an emulated chip."""

from __future__ import annotations

from drivers.base import ReaderError
from drivers.rc522.driver import RC522Reader
from drivers.sim.rc522_emulator import RC522Chip, parse_uid, uid_hex


def _norm(uid: str) -> str:
    return uid_hex(parse_uid(uid))


class SimulatedReader:
    """A TagReader whose field is set by a test or a script.

    ``place(uid)`` leaves a tag on the pad until ``remove(uid)``; ``tap(uid,
    polls)`` shows it for the next ``polls`` polls only; ``fail(message)``
    makes polls raise ReaderError until ``recover()``. ``polls`` counts calls.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self._placed: set[str] = set()
        self._taps: dict[str, int] = {}
        self._fault: str | None = None
        self.polls = 0
        self.closed = False

    def place(self, *uids: str) -> None:
        self._placed.update(_norm(u) for u in uids)

    def remove(self, *uids: str) -> None:
        for uid in uids:
            key = _norm(uid)
            if key not in self._placed:
                raise KeyError(f"reader {self.name}: tag {key} is not on it")
            self._placed.discard(key)

    def clear(self) -> None:
        self._placed.clear()
        self._taps.clear()

    def tap(self, uid: str, polls: int = 3) -> None:
        if polls < 1:
            raise ValueError(f"a tap lasts at least one poll, got {polls}")
        self._taps[_norm(uid)] = polls

    def fail(self, message: str = "simulated reader unplugged") -> None:
        self._fault = message

    def recover(self) -> None:
        self._fault = None

    def poll(self) -> frozenset[str]:
        self.polls += 1
        if self._fault is not None:
            raise ReaderError(f"reader {self.name}: {self._fault}")
        seen = set(self._placed) | set(self._taps)
        self._taps = {uid: n - 1 for uid, n in self._taps.items() if n > 1}
        return frozenset(seen)

    def close(self) -> None:
        self.closed = True


class ChipPort:
    """An emulated chip as the SPI port of :class:`RC522Reader` (no fake modules needed)."""

    def __init__(self, chip: RC522Chip) -> None:
        self.chip = chip

    def xfer2(self, data: list[int]) -> list[int]:
        return self.chip.xfer2(data)

    def close(self) -> None:
        pass


def emulated_rc522(
    name: str, chip: RC522Chip | None = None, *, max_tags: int = 6, timeout_ms: float = 1.0
) -> tuple[RC522Reader, RC522Chip]:
    """The project's RC522 driver on an emulated chip: add tags with ``chip.add_tag(uid)``."""
    chip = chip or RC522Chip()
    port = ChipPort(chip)
    reader = RC522Reader(
        name, port, where="emulated RC522", max_tags=max_tags, timeout_ms=timeout_ms, sleep=lambda _: None
    )
    return reader, chip
