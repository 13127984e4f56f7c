"""Simulated tables with real drivers behind a fault: RC522 pads on the fake SPI
bus, pads behind the reader hub (real firmware over a pty), OLEDs on a fake I2C
bus. Each is the shipped ``sim.toml`` with some parts swapped, built by
``pi_app.table.hardware.build`` and played through the real session loop."""

from __future__ import annotations

import errno
import os
import time
from collections.abc import Callable
from pathlib import Path

from drivers.sim.fake_spi import FakeSpiBus
from drivers.sim.rc522_emulator import COM_IRQ, RC522Chip
from drivers.sim.readers import SimulatedReader
from pi_app.table.profile import TABLES_DIR
from pi_app.ui.screens import render
from tests.pi_app.conftest import Rig

SIM_PAD = 'pad = { backend = "sim" }'
SIM_SCREEN = 'screen = { backend = "dummy" }'
STEP = 0.05  # simulated seconds between watcher rounds, as the daemon polls


def variant(folder: Path, name: str, *, pads: dict[int, str] | None = None,
            screens: dict[int, str] | None = None, shared_screen: str | None = None,
            extra: str = "") -> Path:
    """``sim.toml`` with seat ``i``'s pad / screen replaced (inline TOML tables)."""
    head, *seats = (TABLES_DIR / "sim.toml").read_text(encoding="utf-8").split("[[seats]]")
    for i, pad in (pads or {}).items():
        seats[i] = seats[i].replace(SIM_PAD, f"pad = {pad}")
    for i, scr in (screens or {}).items():
        seats[i] = seats[i].replace(SIM_SCREEN, f"screen = {scr}")
    if shared_screen is not None:
        head = head.replace(f"[shared]\n{SIM_SCREEN}", f"[shared]\nscreen = {shared_screen}")
    path = folder / f"{name}.toml"
    path.write_text(extra + head + "".join("[[seats]]" + s for s in seats), encoding="utf-8")
    return path


class FlakyBus(FakeSpiBus):
    """A fake SPI bus whose transfers to a broken chip select fail as the kernel's do."""

    def __init__(self) -> None:
        super().__init__()
        self.broken: set[tuple[int, int]] = set()

    def transfer(self, bus: int, device: int, no_cs: bool, data: list[int]) -> list[int]:
        if (bus, device) in self.broken:
            raise OSError(errno.EIO, "Input/output error")
        return super().transfer(bus, device, no_cs, data)


class MuteChip(RC522Chip):
    """An RC522 that answers on SPI but, when ``mute``, never raises an interrupt:
    every frame times out, as a chip whose oscillator stopped."""

    mute = False

    def read_register(self, addr: int) -> int:
        if self.mute and addr == COM_IRQ:
            return 0
        return int(super().read_register(addr))


class PlayRig(Rig):
    """A Rig whose pads are driven by putting tags down and lifting them,
    the watcher stepped on simulated time and the session pumped each round."""

    def put(self, seat: int, uid: str) -> None:
        raise NotImplementedError

    def lift(self, seat: int, uid: str) -> None:
        raise NotImplementedError

    def advance(self, seconds: float) -> None:
        assert self.table is not None and self.table.watcher is not None
        for _ in range(max(1, round(seconds / STEP))):
            self.table.clock += STEP
            self.table.watcher.step(self.table.clock)
            self.session.pump()

    def until(self, done: Callable[[], bool], what: str, timeout: float = 20.0) -> None:
        """Advance until ``done()``; real time passes too (for the hub's own thread)."""
        deadline = time.monotonic() + timeout
        while not done():
            assert time.monotonic() < deadline, f"not within {timeout} s: {what}"
            self.advance(STEP)
            time.sleep(0.005)

    def tap_uid(self, seat: int, uid: str) -> None:
        assert self.table is not None and self.table.watcher is not None
        pad, watcher = f"seat{seat + 1}.pad", self.table.watcher
        self.put(seat, uid)
        self.until(lambda: uid in watcher.present(pad), f"{uid} read on {pad}")
        self.lift(seat, uid)
        self.until(lambda: uid not in watcher.present(pad), f"{uid} gone from {pad}")

    def tap(self, seat: int, component: str) -> None:
        self.tap_uid(seat, self.uids[component])


class ChipRig(PlayRig):
    """Seat pads are the project's RC522 driver on emulated chips on a fake SPI bus."""

    def __init__(self, tmp: Path, players: int, table: str, chips: dict[int, RC522Chip]) -> None:
        super().__init__(tmp, players, table)
        self.chips = chips

    def put(self, seat: int, uid: str) -> None:
        self.chips[seat].add_tag(uid)

    def lift(self, seat: int, uid: str) -> None:
        self.chips[seat].remove_tag(uid)


class HubRig(PlayRig):
    """Seat pads behind the reader hub: ``relay.table`` adds and removes tags."""

    def __init__(self, tmp: Path, players: int, table: str, relay: object) -> None:
        super().__init__(tmp, players, table)
        self.relay = relay

    def put(self, seat: int, uid: str) -> None:
        self.relay.table(f"ADD,{seat},{uid}")  # type: ignore[attr-defined]

    def lift(self, seat: int, uid: str) -> None:
        self.relay.table(f"DEL,{seat},{uid}")  # type: ignore[attr-defined]


def point(link: Path, target: str) -> None:
    """(Re)point ``link`` at ``target``, as udev does for /dev/serial/by-id on a replug."""
    tmp = link.with_suffix(".new")
    tmp.unlink(missing_ok=True)
    os.symlink(target, tmp)
    os.replace(tmp, link)


def shown(rig: Rig, part: str) -> bool:
    """The part's last frame is the drawing of what the session means it to show."""
    assert rig.table is not None
    return bool(rig.table.frames(part)[-1].tobytes() == render(rig.session.layouts()[part]).tobytes())


def shared_text(rig: Rig) -> str:
    return rig.session.layouts()["shared.screen"].text()


def journal_agrees(rig: Rig) -> bool:
    """The journal holds exactly the moves the game has: none lost, none twice."""
    s = rig.session
    return bool(s.journal.replay(s.scene.record).to_json() == s.scene.state.to_json())


class SimRig(PlayRig):
    """The shipped simulated table, its pads' fields set by hand poll by poll."""

    def pad(self, seat: int) -> SimulatedReader:
        assert self.table is not None
        reader = self.table.readers[f"seat{seat + 1}.pad"]
        assert isinstance(reader, SimulatedReader)
        return reader

    def put(self, seat: int, uid: str) -> None:
        self.pad(seat).place(uid)

    def lift(self, seat: int, uid: str) -> None:
        self.pad(seat).remove(uid)
