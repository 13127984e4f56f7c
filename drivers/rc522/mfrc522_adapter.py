"""A TagReader over the ``mfrc522`` package (0.0.7), for tables already wired for it.

Prefer :mod:`drivers.rc522.driver`. This adapter keeps the package's own
register code and inherits its limits, which the tests on the emulator show:

* **7-byte UIDs come back wrong.** The package reads cascade level 1 only, so an
  NTAG213/215 sticker ``04A1B2C3D4E5F6`` is reported as ``8804A1B2`` (the
  cascade tag 0x88 and the first three bytes). Such IDs are still stable per
  tag in practice, but two stickers can share them, and they differ from what
  the project's driver and the hub report: enrol tags with the backend you run.
* **One tag at a time.** Its anticollision gives up at the first collision, so
  with several tags in the field a poll lists none of them (or one, when the
  others are halted or out of reach).
* **Slow empty polls.** Its wait loop ignores the chip's timer (``~`` used for
  ``not``): every frame nobody answers spins 2,000 register reads before giving
  up, i.e. each empty poll, and each read too, because this adapter halts the
  tag it read (HLTA gets no answer by design). The HLTA is needed so that the
  next poll's WUPA finds the tag again; without it a tag left in the field is
  seen only every other poll.
* ``import mfrc522`` imports ``RPi.GPIO`` (which refuses to load off a Pi, and
  on a Pi 5 needs ``rpi-lgpio``); the import happens in :func:`open_mfrc522`.
"""

from __future__ import annotations

from typing import Any

from drivers.base import ReaderError
from drivers.rc522 import chip as r

_INIT_T_MODE = 0x8D  # what MFRC522_Init() writes to TModeReg


class Mfrc522Reader:
    """Adapts an ``mfrc522.MFRC522`` instance to the TagReader interface."""

    def __init__(self, name: str, device: Any, *, where: str = "SPI") -> None:
        self.name = name
        self.where = where
        self._dev = device

    def poll(self) -> frozenset[str]:
        dev = self._dev
        try:
            version = dev.Read_MFRC522(dev.VersionReg)
            if not r.chip_answers(version):
                raise ReaderError(
                    f"reader {self.name}: no RC522 answers on {self.where} (VersionReg reads 0x{version:02X})"
                )
            if dev.Read_MFRC522(dev.TModeReg) != _INIT_T_MODE:
                dev.MFRC522_Init()  # the chip lost power and forgot the package's set-up
            status, _ = dev.MFRC522_Request(dev.PICC_REQALL)  # WUPA: also wakes the tag halted last poll
            if status != dev.MI_OK:
                return frozenset()
            status, uid = dev.MFRC522_Anticoll()
            if status != dev.MI_OK or len(uid) < 5:
                return frozenset()
            dev.MFRC522_SelectTag(uid)
            halt = [dev.PICC_HALT, 0x00]
            dev.MFRC522_ToCard(dev.PCD_TRANSCEIVE, halt + dev.CalulateCRC(halt))
        except OSError as err:
            raise ReaderError(f"reader {self.name}: SPI transfer on {self.where} failed: {err}") from err
        return frozenset({"".join(f"{b:02X}" for b in uid[:4])})

    def version(self) -> int:
        return int(self._dev.Read_MFRC522(self._dev.VersionReg))

    def close(self) -> None:
        # Not Close_MFRC522(): its GPIO.cleanup() would reset every pin RPi.GPIO set up.
        self._dev.spi.close()


def open_mfrc522(
    name: str, *, bus: int = 0, device: int = 0, reset_pin: int = 25, speed_hz: int = 1_000_000
) -> Mfrc522Reader:
    """Open ``/dev/spidev<bus>.<device>`` through the ``mfrc522`` package (``reset_pin`` in BCM numbering)."""
    try:
        from mfrc522 import MFRC522  # imports RPi.GPIO and spidev: Pi only
    except (ImportError, RuntimeError) as err:
        raise ReaderError(
            f"reader {name}: the mfrc522 backend needs the mfrc522 package and a working RPi.GPIO"
            f" (pip install 'tablekeeper[mfrc522]'; on a laptop use the simulated backend): {err}"
        ) from err
    where = f"/dev/spidev{bus}.{device}"
    try:
        dev = MFRC522(bus=bus, device=device, spd=speed_hz, pin_mode=11, pin_rst=reset_pin)  # 11 = GPIO.BCM
    except OSError as err:
        raise ReaderError(f"reader {name}: cannot open {where}: {err}; enable SPI (dtparam=spi=on)") from err
    return Mfrc522Reader(name, dev, where=where)
