"""A fake smbus-style I2C bus with an optional TCA9548A, logging and counting every transaction."""

from __future__ import annotations

import errno
from dataclasses import dataclass
from typing import Any

# SMBus block writes carry at most 32 data bytes (the kernel's I2C_SMBUS_BLOCK_MAX)
BLOCK_MAX = 32
# I2C on the wire: every byte (the address byte too) is 8 bits and an ACK,
# 9 clocks; each transaction adds a START and a STOP condition, about a clock each
CLOCKS_PER_BYTE = 9
CLOCKS_PER_TRANSACTION = 2


def wire_seconds(transactions: int, wire_bytes: int, hz: float) -> float:
    """How long ``transactions`` carrying ``wire_bytes`` (addresses included) hold an I2C bus at ``hz``."""
    return (wire_bytes * CLOCKS_PER_BYTE + transactions * CLOCKS_PER_TRANSACTION) / hz


@dataclass
class Traffic:
    """Transactions and bytes on the wire (address and register bytes included)."""

    transactions: int = 0
    bytes: int = 0

    def add(self, wire_bytes: int) -> None:
        self.transactions += 1
        self.bytes += wire_bytes


class FakeI2cBus:
    """Devices are ``(channel, address)`` pairs; channel None means directly on the bus.

    Writes to ``mux_address`` switch the multiplexer; a write to an address nothing
    answers on raises ``OSError(EREMOTEIO)`` as the kernel does, and a block of more
    than 32 bytes is refused as smbus2 refuses it. ``log`` holds
    ``(channel, address, register, data)`` for every write; ``traffic`` the
    transactions and wire bytes per ``(channel, address)`` (the mux's under
    ``(None, mux_address)``). A device given a controller (:meth:`attach`,
    e.g. :class:`drivers.sim.oled_controller.OledController`) is handed every
    block written to it; :meth:`unplug` and :meth:`plug` cut and restore its power.
    """

    def __init__(self, devices: set[tuple[int | None, int]], mux_address: int | None = 0x70) -> None:
        self.devices = set(devices)
        self.mux_address = mux_address
        self.channel: int | None = None
        self.log: list[tuple[int | None, int, int | None, list[int]]] = []
        self.traffic: dict[tuple[int | None, int], Traffic] = {}
        self.controllers: dict[tuple[int | None, int], Any] = {}
        self.keep_log = True  # a benchmark counts without keeping every byte
        self.closed = False

    def attach(self, channel: int | None, address: int, controller: Any) -> None:
        self.devices.add((channel, address))
        self.controllers[(channel, address)] = controller

    def unplug(self, channel: int | None, address: int) -> None:
        self.devices.discard((channel, address))

    def plug(self, channel: int | None, address: int) -> None:
        """Back on the bus, powered up afresh (a controller's RAM and settings are lost)."""
        self.devices.add((channel, address))
        controller = self.controllers.get((channel, address))
        if controller is not None:
            controller.power_on()

    def total(self) -> Traffic:
        return Traffic(sum(t.transactions for t in self.traffic.values()),
                       sum(t.bytes for t in self.traffic.values()))

    def _where(self, address: int) -> tuple[int | None, int]:
        if (self.channel, address) in self.devices:
            return self.channel, address
        if (None, address) in self.devices:
            return None, address
        raise OSError(errno.EREMOTEIO, "Remote I/O error")

    def _count(self, key: tuple[int | None, int], wire_bytes: int) -> None:
        traffic = self.traffic.get(key)
        if traffic is None:  # not setdefault: a Traffic a transaction is CPU no Pi spends
            traffic = self.traffic[key] = Traffic()
        traffic.add(wire_bytes)

    def write_byte(self, address: int, value: int) -> None:
        if address == self.mux_address:
            channels = [c for c in range(8) if value & (1 << c)]
            self.channel = channels[0] if len(channels) == 1 else None
            self._count((None, address), 2)
            if self.keep_log:
                self.log.append((None, address, None, [value]))
            return
        key = self._where(address)
        self._count(key, 2)
        if self.keep_log:
            self.log.append((self.channel, address, None, [value]))

    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        if len(data) > BLOCK_MAX:
            raise ValueError(f"Data length cannot exceed {BLOCK_MAX} bytes")
        key = self._where(address)
        self._count(key, 2 + len(data))
        if self.keep_log:
            self.log.append((self.channel, address, register, list(data)))
        controller = self.controllers.get(key)
        if controller is not None:
            controller.write(register, data)

    def i2c_rdwr(self, *messages: Any) -> None:
        """smbus2's I2C_RDWR: the messages in one transaction (repeated
        STARTs between them), each its address byte and its bytes on the
        wire; no 32-byte limit. A written message's first byte is the
        controller's control byte."""
        if not messages:
            return
        keys = [self._where(m.addr) for m in messages]
        wire = sum(1 + m.len for m in messages)
        self._count(keys[0], wire)
        for key, m in zip(keys, messages, strict=True):
            controller = self.controllers.get(key)
            if not self.keep_log and controller is None:
                continue  # counted only: reading the bytes back is this fake's work, not the Pi's
            data = list(m)
            if self.keep_log:
                self.log.append((self.channel, m.addr, data[0] if data else None, data[1:]))
            if controller is not None and data:
                controller.write(data[0], data[1:])

    def close(self) -> None:
        self.closed = True
