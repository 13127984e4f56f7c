"""Finding and opening the reader hub's USB serial port."""

from __future__ import annotations

from typing import Protocol

import serial
from serial.tools import list_ports

# Raspberry Pi Pico running MicroPython (USB CDC).
HUB_VID = 0x2E8A
HUB_PID = 0x0005
BAUD = 115200  # ignored by USB CDC; right for a USB-UART bridge
READ_TIMEOUT = 0.05  # seconds a read waits, so the reader thread notices close()


class SerialPort(Protocol):
    """What the connection needs of a port (pyserial's Serial, or a test fake)."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes) -> int | None: ...

    def close(self) -> None: ...


def find_hub_port(vid: int = HUB_VID, pid: int = HUB_PID, serial_number: str | None = None) -> str | None:
    """Device path of the first USB serial port with this VID:PID (and serial number), or None."""
    found = sorted(
        p.device
        for p in list_ports.comports()
        if p.vid == vid and p.pid == pid and (serial_number is None or p.serial_number == serial_number)
    )
    return found[0] if found else None


def open_exclusive(path: str) -> SerialPort:
    """Open ``path`` so no other process can open it too (a second reader would steal lines)."""
    return serial.Serial(path, baudrate=BAUD, timeout=READ_TIMEOUT, write_timeout=1.0, exclusive=True)
