"""RC522 (MFRC522) tag readers on SPI: the project's own driver and an adapter over ``mfrc522``.

Neither module imports ``spidev``, ``RPi.GPIO`` or ``mfrc522`` at import time.
"""

from __future__ import annotations

from typing import Any

from drivers.base import TagReader
from drivers.rc522.driver import RC522Reader, open_rc522
from drivers.rc522.mfrc522_adapter import Mfrc522Reader, open_mfrc522

__all__ = ["Mfrc522Reader", "RC522Reader", "open_mfrc522", "open_mfrc522_reader", "open_rc522", "open_reader"]


def open_reader(spec: Any, profile: Any = None) -> TagReader:
    """The project's driver from a profile entry (see :func:`drivers.parts.open_reader`)."""
    from drivers.parts import open_reader as build

    return build(_with_backend(spec, "rc522"))


def open_mfrc522_reader(spec: Any, profile: Any = None) -> TagReader:
    """The ``mfrc522`` adapter from a profile entry (see :func:`drivers.parts.open_reader`)."""
    from drivers.parts import open_reader as build

    return build(_with_backend(spec, "mfrc522"))


def _with_backend(spec: Any, backend: str) -> dict[str, Any]:
    keys = (
        "name",
        "bus",
        "device",
        "cs_pin",
        "rst_pin",
        "reset_pin",
        "irq_pin",
        "antenna_gain_db",
        "timeout_ms",
        "speed_hz",
        "max_tags",
    )
    if isinstance(spec, dict):
        values = dict(spec)
    else:
        values = {k: getattr(spec, k) for k in keys if getattr(spec, k, None) is not None}
    values["backend"] = backend
    return values
