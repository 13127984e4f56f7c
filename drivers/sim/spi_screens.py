"""SPI screens of a simulated table: each luma SPI screen of a profile is an
emulated SH1106/SSD1306 (:class:`~drivers.sim.oled_controller.OledController`)
on a fake SPI bus, so the real driver code (luma's ``spi``, ``gpio_cs_spi``,
:class:`drivers.spi_decoder.DecodedSpi`) runs against it and ``glass(name)``
is what that screen's panel shows.

The chip sees what the wires carry: a byte is a command or display data as
the D/C line is low or high while it is clocked in, and it takes bytes only
while selected: by its own device's chip select, its GPIO chip select (low),
or the 74HC138 output the decoder's address lines name while the device's
chip select is asserted."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from PIL import Image

from drivers.sim.fake_spi import FakeGpio, FakeSpiBus, fake_rpi_gpio, fake_spidev
from drivers.sim.oled_controller import COMMAND_STREAM, DATA_STREAM, OledController


class WiredGpio(FakeGpio):
    """The fake RPi.GPIO, with the screens' reset lines wired: driving one low
    resets every controller on it (their RAM and settings lost, as at power-on)."""

    def __init__(self) -> None:
        super().__init__()
        self.resets: dict[int, list[OledController]] = {}

    def output(self, pin: int, value: int) -> None:
        super().output(pin, value)
        if not value:
            for controller in self.resets.get(pin, []):
                controller.power_on()


class SpiOled:
    """An OLED controller on an SPI bus: what the bus clocks in goes to it, as D/C says."""

    def __init__(self, controller: OledController, dc_level: Callable[[], int]) -> None:
        self.controller = controller
        self._dc_level = dc_level
        self.spi_hz = 0  # set by the bus: the clock the device was opened at
        self.transfers = 0

    def xfer2(self, data: list[int]) -> list[int]:
        self.transfers += 1
        self.controller.write(DATA_STREAM if self._dc_level() else COMMAND_STREAM, list(data))
        return [0] * len(data)  # an OLED does not drive MISO


def is_spi_screen(spec: Any) -> bool:
    return spec.get("backend") == "luma" and spec.get("interface") == "spi"


class SimulatedSpi:
    """The fake SPI bus and GPIO of a profile's SPI screens (``specs``: the
    screens' PartSpecs); open the screens inside :meth:`installed`."""

    def __init__(self, specs: Sequence[Any]) -> None:
        self.bus = FakeSpiBus()
        self.gpio: WiredGpio | None = None
        self.chips: dict[str, SpiOled] = {}
        self._specs = [s for s in specs if is_spi_screen(s)]

    def _level(self, pin: int, idle: int) -> int:
        assert self.gpio is not None
        return self.gpio.levels.get(pin, idle)

    def _wire(self, gpio: WiredGpio) -> None:
        self.gpio = gpio
        for spec in self._specs:
            dc = spec["dc_pin"]
            chip = SpiOled(OledController(str(spec["driver"])), lambda pin=dc: self._level(pin, 0))
            self.chips[spec["name"]] = chip
            gpio.resets.setdefault(spec["rst_pin"], []).append(chip.controller)
            port, device = spec["spi_port"], spec["spi_device"]
            if spec.get("select") is not None:
                pins, output = list(spec["decoder_pins"]), spec["select"]

                def chosen(pins: list[int] = pins, output: int = output) -> bool:
                    return sum(self._level(pin, 0) << bit for bit, pin in enumerate(pins)) == output

                self.bus.attach_behind(chip, chosen, bus=port, device=device)  # type: ignore[arg-type]
            elif spec.get("cs_pin") is not None:
                self.bus.attach_gpio_cs(chip, lambda pin=spec["cs_pin"]: self._level(pin, 1) == 0,  # type: ignore[arg-type]
                                        bus=port)
            else:
                self.bus.attach(chip, bus=port, device=device)  # type: ignore[arg-type]

    @contextlib.contextmanager
    def installed(self) -> Iterator[SimulatedSpi]:
        """``import spidev`` and ``import RPi.GPIO`` give the fakes wired to these chips."""
        first = self.gpio is None
        gpio = self.gpio or WiredGpio()
        with fake_spidev(self.bus), fake_rpi_gpio(gpio):
            if first:
                self._wire(gpio)
            yield self

    def glass(self, name: str) -> Image.Image:
        """What screen ``name``'s panel shows now."""
        try:
            return self.chips[name].controller.glass()
        except KeyError:
            raise KeyError(f"{name} is not an SPI screen of this simulated table") from None
