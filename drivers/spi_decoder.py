"""Many SPI screens on one kernel chip select, through a 74HC138 3-to-8 decoder.

The decoder's active-low enable (G2A, pin 4) is the SPI controller's own
chip select (e.g. SPI1 CE0); its address inputs A0-A2 are three GPIOs. While
the kernel holds the chip select low, the output the address names goes low
and selects that screen; between transfers every output is high. So the
address lines are set before each transfer and the kernel frames it, and the
spidev device stays in its ordinary mode: no ``SPI_NO_CS``, which Linux keeps
per device for every file opened on it (luma's ``gpio_cs_spi`` sets it).

One :class:`Decoder` per table owns the address lines; every screen behind it
sends through :class:`DecodedSpi` under the decoder's lock, so the address
cannot change in the middle of another screen's frame.
"""

from __future__ import annotations

import threading
from typing import Any

from luma.core.interface.serial import spi

OUTPUTS = 8  # Y0-Y7


def rpi_gpio() -> Any:
    """RPi.GPIO in BCM numbering, as luma sets it up for its D/C and reset lines."""
    from luma.core.error import UnsupportedPlatform

    try:
        import RPi.GPIO as GPIO
    except (ImportError, RuntimeError) as err:  # RuntimeError: not on a Pi
        raise UnsupportedPlatform(f"GPIO access not available: {err}") from err
    GPIO.setmode(GPIO.BCM)
    GPIO.setwarnings(False)
    return GPIO


class Decoder:
    """A 74HC138's address lines A0, A1, A2 on ``pins`` (BCM numbers, in that order)."""

    def __init__(self, pins: tuple[int, int, int], gpio: Any = None) -> None:
        if len(pins) != 3 or len(set(pins)) != 3:
            raise ValueError(f"a 74HC138 has three address lines A0, A1, A2 on three pins, not {list(pins)}")
        self.pins = tuple(pins)
        self.gpio = gpio or rpi_gpio()
        self.lock = threading.RLock()  # held by a screen from setting D/C to its last byte sent
        for pin in self.pins:
            self.gpio.setup(pin, self.gpio.OUT, initial=self.gpio.LOW)
        self.output = 0
        self.selects = 0  # changes of the address, for tests and the benchmark

    def select(self, output: int) -> None:
        """Set the address lines to ``output`` (0-7); the next transfer goes to that screen."""
        if not 0 <= output < OUTPUTS:
            raise ValueError(f"a 74HC138 output is 0 to 7, not {output}")
        if output == self.output:
            return
        for bit, pin in enumerate(self.pins):
            self.gpio.output(pin, self.gpio.HIGH if output >> bit & 1 else self.gpio.LOW)
        self.output = output
        self.selects += 1

    def close(self) -> None:
        self.gpio.cleanup(list(self.pins))


class DecodedSpi(spi):  # type: ignore[misc]  # luma has no type hints
    """luma's SPI interface for the screen on the decoder's output ``select``."""

    def __init__(self, *, decoder: Decoder, select: int, **options: Any) -> None:
        if not 0 <= select < OUTPUTS:
            raise ValueError(f"a 74HC138 output is 0 to 7, not select = {select}")
        self._decoder = decoder
        self._select = select
        super().__init__(**options)  # luma's set-up sends commands: the address is known by then

    # The D/C line is shared by every screen behind the decoder: it is set and
    # the bytes sent under the one lock, or another screen's transfer could
    # flip it between the two and turn a command into data.
    def command(self, *cmd: int) -> None:
        with self._decoder.lock:
            super().command(*cmd)

    def data(self, data: Any) -> None:
        with self._decoder.lock:
            super().data(data)

    def _write_bytes(self, data: Any) -> None:
        with self._decoder.lock:
            self._decoder.select(self._select)
            super()._write_bytes(data)
