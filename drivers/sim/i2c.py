"""A fake smbus-style I2C bus with an optional TCA9548A, logging every transaction."""

from __future__ import annotations

import errno


class FakeI2cBus:
    """Devices are ``(channel, address)`` pairs; channel None means directly on the bus.

    Writes to ``mux_address`` switch the multiplexer; a write to an address nothing
    answers on raises ``OSError(EREMOTEIO)`` as the kernel does. ``log`` holds
    ``(channel, address, register, data)`` for every write.
    """

    def __init__(self, devices: set[tuple[int | None, int]], mux_address: int | None = 0x70) -> None:
        self.devices = set(devices)
        self.mux_address = mux_address
        self.channel: int | None = None
        self.log: list[tuple[int | None, int, int | None, list[int]]] = []
        self.closed = False

    def _check(self, address: int) -> None:
        if (None, address) in self.devices or (self.channel, address) in self.devices:
            return
        raise OSError(errno.EREMOTEIO, "Remote I/O error")

    def write_byte(self, address: int, value: int) -> None:
        if address == self.mux_address:
            channels = [c for c in range(8) if value & (1 << c)]
            self.channel = channels[0] if len(channels) == 1 else None
            self.log.append((None, address, None, [value]))
            return
        self._check(address)
        self.log.append((self.channel, address, None, [value]))

    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        self._check(address)
        self.log.append((self.channel, address, register, list(data)))

    def close(self) -> None:
        self.closed = True
