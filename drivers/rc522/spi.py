"""SPI devices shared by the readers on them, as Linux's spidev requires.

Linux keeps a spidev device's mode, SPI_NO_CS included, per device, not per
open file; so every reader on one ``/dev/spidev<bus>.<device>`` goes through one
:class:`SharedSpiDevice`, which sets the mode each transfer needs.
"""

from __future__ import annotations

import logging
import threading
from typing import Any, Protocol

from drivers.base import ReaderError

log = logging.getLogger(__name__)


class OutputPin(Protocol):
    """A gpiozero output device (chip select or reset line)."""

    def on(self) -> None: ...

    def off(self) -> None: ...

    def close(self) -> None: ...


class SharedSpiDevice:
    """One ``/dev/spidev<bus>.<device>``, opened once in the process for every reader on it.

    Linux keeps a spidev device's mode, SPI_NO_CS included, per device, not per
    open file: a GPIO-selected reader that set ``no_cs`` on a file of its own
    would take the CE line away from the reader wired to it. So the readers on
    one device share this object, and each transfer goes out with the mode its
    reader needs, set (one ioctl) only when it changes, under a lock.
    """

    def __init__(self, key: tuple[int, int, int], spi: Any, module: Any, where: str) -> None:
        self.key = key
        self.spi = spi
        self._module = module  # keeps the key's id() from being reused while this is open
        self.where = where
        self.users = 0
        self._lock = threading.Lock()
        self._no_cs: bool | None = None

    def transfer(self, data: list[int], select: OutputPin | None) -> list[int]:
        no_cs = select is not None
        with self._lock:
            if no_cs != self._no_cs:
                try:
                    self.spi.no_cs = no_cs
                except OSError as err:
                    # The controller still pulses its CE line: wire nothing else to it.
                    log.warning("%s: the SPI controller refuses no_cs (%s)", self.where, err)
                self._no_cs = no_cs
            if select is None:
                return self.spi.xfer2(data)
            select.on()
            try:
                return self.spi.xfer2(data)
            finally:
                select.off()

    def release(self) -> None:
        self.users -= 1
        if self.users <= 0:
            _spi_devices.pop(self.key, None)
            self.spi.close()


_spi_devices: dict[tuple[int, int, int], SharedSpiDevice] = {}


class SpiChannel:
    """One reader's way to its chip: a shared spidev device, and a GPIO chip select if wired."""

    def __init__(self, device: SharedSpiDevice, select: OutputPin | None = None) -> None:
        self._device = device
        self._select = select

    def xfer2(self, data: list[int]) -> list[int]:
        return self._device.transfer(data, self._select)

    def close(self) -> None:
        if self._select is not None:
            self._select.close()
        self._device.release()


def open_spi_device(name: str, spidev: Any, bus: int, device: int, speed_hz: int) -> SharedSpiDevice:
    key = (id(spidev), bus, device)
    shared = _spi_devices.get(key)
    if shared is None:
        where = f"/dev/spidev{bus}.{device}"
        spi = spidev.SpiDev()
        try:
            spi.open(bus, device)
        except OSError as err:
            raise ReaderError(
                f"reader {name}: cannot open {where}: {err}; enable SPI (dtparam=spi=on) and check the bus"
            ) from err
        spi.max_speed_hz = speed_hz
        spi.mode = 0
        shared = _spi_devices[key] = SharedSpiDevice(key, spi, spidev, where)
    shared.users += 1
    return shared
