"""Fake ``spidev`` and ``RPi.GPIO`` modules wired to emulated RC522 chips.

The real backends import ``spidev`` (and the ``mfrc522`` package imports
``RPi.GPIO``) at run time; these installers put stand-ins in ``sys.modules`` for
the length of a ``with`` block, so both backends run their real code against
:class:`~drivers.sim.rc522_emulator.RC522Chip`::

    bus = FakeSpiBus()
    bus.attach(chip, bus=0, device=0)                       # hardware CE0
    bus.attach_gpio_cs(chip2, selected=lambda: cs.value)    # a GPIO chip select
    with fake_spidev(bus), fake_rpi_gpio():
        reader = open_rc522("seat1.pad", bus=0, device=0)

As in Linux's spidev, a device's mode (SPI_NO_CS included) and clock belong to
``/dev/spidev<bus>.<device>``, not to one open file: two ``SpiDev`` objects
opened on the same device see each other's ``no_cs``, and a transfer goes out
with whatever mode the device has at that moment.
"""

from __future__ import annotations

import contextlib
import sys
import types
from collections.abc import Callable, Iterator

from drivers.sim.rc522_emulator import RC522Chip

# Modules that bind spidev / RPi.GPIO at import time and must be re-imported under the fakes.
_DEPENDENTS = ("mfrc522", "mfrc522.MFRC522", "mfrc522.SimpleMFRC522")


class FakeSpiBus:
    """Which emulated chip answers on which bus, device and GPIO chip select."""

    def __init__(self) -> None:
        self._hardware: dict[tuple[int, int], RC522Chip] = {}
        self._gpio: list[tuple[int, Callable[[], bool], RC522Chip]] = []
        self._behind: list[tuple[int, int, Callable[[], bool], RC522Chip]] = []
        self.opened: list[FakeSpiDev] = []
        self._settings: dict[tuple[int, int], dict[str, int]] = {}

    def settings(self, bus: int, device: int) -> dict[str, int]:
        """The device's own mode bits and clock, shared by every file opened on it."""
        return self._settings.setdefault((bus, device), {"mode": 0, "max_speed_hz": 125_000_000})

    def attach(self, chip: RC522Chip, bus: int = 0, device: int = 0) -> None:
        """Put ``chip`` on ``/dev/spidev<bus>.<device>`` (a hardware chip select)."""
        self._hardware[(bus, device)] = chip

    def attach_gpio_cs(self, chip: RC522Chip, selected: Callable[[], bool], bus: int = 0) -> None:
        """Put ``chip`` on ``bus`` behind a GPIO chip select; ``selected()`` says if it is asserted."""
        self._gpio.append((bus, selected, chip))

    def attach_behind(self, chip: RC522Chip, selected: Callable[[], bool], bus: int, device: int) -> None:
        """Put ``chip`` behind ``/dev/spidev<bus>.<device>``'s chip select and a
        decoder: it is selected while the kernel asserts that chip select and
        ``selected()`` says the decoder's address is its output."""
        self._behind.append((bus, device, selected, chip))

    def exists(self, bus: int, device: int) -> bool:
        return ((bus, device) in self._hardware or any(b == bus for b, _, _ in self._gpio)
                or any((b, d) == (bus, device) for b, d, _, _ in self._behind))

    def transfer(self, bus: int, device: int, no_cs: bool, data: list[int]) -> list[int]:
        chips = [chip for b, selected, chip in self._gpio if b == bus and selected()]
        hardware = self._hardware.get((bus, device))
        if hardware is not None and not no_cs:
            chips.append(hardware)
        if not no_cs:
            chips += [chip for b, d, selected, chip in self._behind if (b, d) == (bus, device) and selected()]
        if len(chips) > 1:
            raise AssertionError(f"{len(chips)} chips selected at once on SPI bus {bus}: MISO contention")
        if not chips:
            return [0] * len(data)  # nobody drives MISO (pulled low)
        chips[0].spi_hz = self.settings(bus, device)["max_speed_hz"]  # the device's clock, for a timed chip
        return chips[0].xfer2(list(data))


SPI_MODE_BITS = 0x03  # CPOL, CPHA
SPI_NO_CS = 0x40


class FakeSpiDev:
    """Enough of ``spidev.SpiDev`` for the RC522 backends; mode and clock live on the device."""

    def __init__(self, bus_map: FakeSpiBus) -> None:
        self._map = bus_map
        self.bus: int | None = None
        self.device: int | None = None
        self.bits_per_word = 8

    def _device(self) -> dict[str, int]:
        if self.bus is None or self.device is None:
            raise OSError(9, "Bad file descriptor")
        return self._map.settings(self.bus, self.device)

    @property
    def mode(self) -> int:
        return self._device()["mode"] & SPI_MODE_BITS

    @mode.setter
    def mode(self, value: int) -> None:
        if not 0 <= value <= 3:
            raise TypeError("The mode attribute must be an integer between 0 and 3.")
        settings = self._device()
        settings["mode"] = (settings["mode"] & ~SPI_MODE_BITS) | value  # other bits kept, as py-spidev does

    @property
    def no_cs(self) -> bool:
        return bool(self._device()["mode"] & SPI_NO_CS)

    @no_cs.setter
    def no_cs(self, value: bool) -> None:
        settings = self._device()
        settings["mode"] = (settings["mode"] | SPI_NO_CS) if value else (settings["mode"] & ~SPI_NO_CS)

    @property
    def max_speed_hz(self) -> int:
        return self._device()["max_speed_hz"]

    @max_speed_hz.setter
    def max_speed_hz(self, value: int) -> None:
        self._device()["max_speed_hz"] = value

    def open(self, bus: int, device: int) -> None:
        if not self._map.exists(bus, device):
            raise FileNotFoundError(2, "No such file or directory", f"/dev/spidev{bus}.{device}")
        self.bus, self.device = bus, device
        self._map.opened.append(self)

    def close(self) -> None:
        self.bus = self.device = None

    def xfer2(self, data: list[int]) -> list[int]:
        settings = self._device()
        no_cs = bool(settings["mode"] & SPI_NO_CS)
        return self._map.transfer(self.bus, self.device, no_cs, data)  # type: ignore[arg-type]

    xfer = xfer2

    def writebytes(self, data: list[int]) -> None:
        self.xfer2(data)


def _spidev_module(bus_map: FakeSpiBus) -> types.ModuleType:
    module = types.ModuleType("spidev")
    module.SpiDev = lambda: FakeSpiDev(bus_map)  # type: ignore[attr-defined]
    return module


class FakeGpio:
    """The parts of ``RPi.GPIO`` the ``mfrc522`` package calls; pin levels are recorded."""

    BOARD = 10
    BCM = 11
    OUT = 0
    IN = 1
    LOW = 0
    HIGH = 1

    def __init__(self) -> None:
        self.mode: int | None = None
        self.levels: dict[int, int] = {}
        self.directions: dict[int, int] = {}

    def setmode(self, mode: int) -> None:
        self.mode = mode

    def getmode(self) -> int | None:
        return self.mode

    def setwarnings(self, flag: bool) -> None:
        pass

    def setup(self, pin: int, direction: int, **_: object) -> None:
        self.directions[pin] = direction

    def output(self, pin: int, value: int) -> None:
        self.levels[pin] = int(bool(value))

    def input(self, pin: int) -> int:
        return self.levels.get(pin, 0)

    def cleanup(self, *_: object) -> None:
        self.levels.clear()
        self.directions.clear()
        self.mode = None


@contextlib.contextmanager
def _modules(replacements: dict[str, types.ModuleType]) -> Iterator[None]:
    names = list(replacements) + list(_DEPENDENTS)
    saved = {name: sys.modules.get(name) for name in names}
    for name in _DEPENDENTS:
        sys.modules.pop(name, None)
    sys.modules.update(replacements)
    try:
        yield
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module


@contextlib.contextmanager
def fake_spidev(bus_map: FakeSpiBus) -> Iterator[types.ModuleType]:
    """``import spidev`` gives a fake whose ``SpiDev`` talks to ``bus_map``'s chips."""
    module = _spidev_module(bus_map)
    with _modules({"spidev": module}):
        yield module


@contextlib.contextmanager
def fake_rpi_gpio(gpio: FakeGpio | None = None) -> Iterator[FakeGpio]:
    """``import RPi.GPIO`` gives ``gpio``, by default a new :class:`FakeGpio`
    (the real one refuses to import off a Pi)."""
    gpio = gpio or FakeGpio()
    package = types.ModuleType("RPi")
    module = types.ModuleType("RPi.GPIO")
    for attr in dir(gpio):
        if not attr.startswith("_"):
            setattr(module, attr, getattr(gpio, attr))
    package.GPIO = module  # type: ignore[attr-defined]
    with _modules({"RPi": package, "RPi.GPIO": module}):
        yield gpio
