"""The project's own RC522 driver on ``spidev``: every tag in the field, 4- or 7-byte UIDs.

One :class:`RC522Reader` per chip select. A poll wakes every tag (WUPA, which
also wakes halted ones), walks the anticollision tree bit by bit using
CollReg's collision position (READY tags stay READY through it, so one wake-up
lists every cascade-level-1 UID), SELECTs each level-1 UID that carries the
cascade tag to walk its level 2 (7-byte UIDs; WUPA again between them), and ends
with HLTA so that no tag is left READY for the next poll's WUPA. Each frame
waits for the chip's own timer (``timeout_ms``), so an empty poll costs a
handful of SPI transfers.

CollReg's CollPos is read as counted from the first bit received, as the
emulator does. Were a chip to count from the FIFO bit position (RxAlign
included), deep collisions would send the walk down empty branches and miss
tags, but never report a wrong UID: a tag answers only when every known bit
matches its own UID, and each UID CLn is checked against its BCC.

``spidev`` and ``gpiozero`` pins are opened in :func:`open_rc522` only; the class
takes any object with ``xfer2(list) -> list`` and ``close()``, which is how the
tests drive it against :mod:`drivers.sim.rc522_emulator`.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from drivers.base import ReaderError
from drivers.gpio import build
from drivers.rc522 import chip as r

# Frames a tag reply may show; beyond these the poll stops and reports what it has.
_HARD_ERRORS = r.ERR_BUFFER_OVFL | r.ERR_CRC | r.ERR_PARITY | r.ERR_PROTOCOL
_MAX_IRQ_READS = 10_000


class SpiPort(Protocol):
    """One chip's SPI link: ``spidev.SpiDev`` or a GPIO-selected wrapper around it."""

    def xfer2(self, data: list[int]) -> list[int]: ...

    def close(self) -> None: ...


class OutputPin(Protocol):
    """A gpiozero output device (chip select or reset line)."""

    def on(self) -> None: ...

    def off(self) -> None: ...

    def close(self) -> None: ...


class GpioSelectedPort:
    """An SPI port whose chip select is a GPIO line asserted around each transfer."""

    def __init__(self, spi: SpiPort, select: OutputPin) -> None:
        self._spi = spi
        self._select = select

    def xfer2(self, data: list[int]) -> list[int]:
        self._select.on()
        try:
            return self._spi.xfer2(data)
        finally:
            self._select.off()

    def close(self) -> None:
        self._select.close()
        self._spi.close()


@dataclass
class _Reply:
    data: list[int]
    bits: list[int]  # the bits received, LSB first, starting at the frame's rx_align
    error: int
    coll: int


def _to_bits(data: list[int], start: int, count: int) -> list[int]:
    return [(data[(start + i) // 8] >> ((start + i) % 8)) & 1 for i in range(count)]


def _to_bytes(bits: list[int]) -> list[int]:
    out = [0] * ((len(bits) + 7) // 8)
    for i, bit in enumerate(bits):
        out[i // 8] |= bit << (i % 8)
    return out


class RC522Reader:
    """A TagReader over one MFRC522 chip."""

    def __init__(
        self,
        name: str,
        port: SpiPort,
        *,
        where: str = "SPI",
        reset_pin: OutputPin | None = None,
        antenna_gain_db: int | None = None,
        timeout_ms: float = 5.0,
        max_tags: int = 6,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if not 0.1 <= timeout_ms <= 1000:
            raise ValueError(f"reader {name}: timeout_ms must be between 0.1 and 1000, got {timeout_ms}")
        if max_tags < 1:
            raise ValueError(f"reader {name}: max_tags must be at least 1, got {max_tags}")
        self.name = name
        self.where = where
        self._port = port
        self._reset_pin = reset_pin
        self._gain = self._gain_code(antenna_gain_db)
        self._ticks = max(1, round(timeout_ms * r.TIMER_TICKS_PER_MS))
        self.max_tags = max_tags
        self._clock = clock
        self._sleep = sleep
        self._timeout_s = timeout_ms / 1000
        self._ready = False
        self._crc_on = False

    # -- public --------------------------------------------------------------------

    def poll(self) -> frozenset[str]:
        """UIDs of the tags in the field now (at most ``max_tags``); raises ReaderError."""
        self._check_alive()
        self._set_crc(False)
        if self._transceive([r.WUPA], tx_last_bits=7) is None:
            return frozenset()
        uids: list[list[int]] = []
        try:
            fresh = True  # every tag is still READY at cascade level 1
            for cl1 in self._walk(r.SELECT_CODES[0], self.max_tags):
                if len(uids) >= self.max_tags:
                    break
                if cl1[0] != r.CASCADE_TAG:
                    uids.append(cl1[0:4])  # a 4-byte UID is complete at level 1: no SELECT needed
                    continue
                if not fresh and self._transceive([r.WUPA], tx_last_bits=7) is None:
                    continue
                fresh = False
                # Selecting CL1 moves every tag sharing it to level 2; the others drop out.
                self._set_crc(True)
                reply = self._transceive([r.SELECT_CODES[0], r.NVB_SELECT, *cl1])
                self._set_crc(False)
                if reply is None or reply.error & _HARD_ERRORS or not reply.data:
                    continue
                if not reply.data[0] & r.SAK_CASCADE:
                    continue
                for cl2 in self._walk(r.SELECT_CODES[1], self.max_tags - len(uids)):
                    uids.append(cl1[1:4] + cl2[0:4])
        finally:
            self._park()
        return frozenset("".join(f"{b:02X}" for b in uid) for uid in uids)

    def version(self) -> int:
        """VersionReg (0x91/0x92 genuine, 0x88/0xB2 clones, 0x00/0xFF nothing there)."""
        return self._read(r.VERSION)

    def reset(self) -> None:
        """Hard reset through the reset pin if wired (soft reset otherwise), then set up again."""
        self._ready = False
        if self._reset_pin is not None:
            self._reset_pin.off()
            self._sleep(0.001)
            self._reset_pin.on()
            self._sleep(0.05)  # the oscillator needs up to ~38 ms to start
        self._initialise()

    def set_antenna_gain(self, db: int) -> None:
        """Receiver gain in dB: 18, 23, 33, 38, 43 or 48 (the chip's default is 33)."""
        self._gain = self._gain_code(db)
        if self._ready:
            self._apply_gain()

    def close(self) -> None:
        try:
            if self._ready:
                self._clear_bits(r.TX_CONTROL, r.ANTENNA_BITS)
        except ReaderError:
            pass
        finally:
            self._ready = False
            if self._reset_pin is not None:
                self._reset_pin.close()
            self._port.close()

    # -- set-up --------------------------------------------------------------------

    def _gain_code(self, db: int | None) -> int | None:
        if db is None:
            return None
        if db not in r.RX_GAIN_DB:
            allowed = ", ".join(str(g) for g in r.RX_GAIN_DB)
            raise ValueError(f"reader {self.name}: antenna gain {db} dB is not one of {allowed}")
        return r.RX_GAIN_DB[db]

    def _expected_t_mode(self) -> int:
        return r.T_AUTO | (r.TIMER_PRESCALER >> 8)

    def _check_alive(self) -> None:
        version, t_mode = self._read_many([r.VERSION, r.T_MODE])
        if version not in r.KNOWN_VERSIONS:
            self._ready = False
            raise ReaderError(
                f"reader {self.name}: no RC522 answers on {self.where} (VersionReg reads 0x{version:02X});"
                " check its power, MOSI/MISO/SCK and chip-select wiring"
            )
        if not self._ready or t_mode != self._expected_t_mode():
            self._initialise()  # first use, or the chip lost power and forgot its set-up

    def _initialise(self) -> None:
        self._write(r.COMMAND, r.CMD_SOFT_RESET)
        for _ in range(20):
            self._sleep(0.005)
            if not self._read(r.COMMAND) & r.POWER_DOWN:
                break
        else:
            raise ReaderError(f"reader {self.name}: the RC522 on {self.where} did not come out of reset")
        version = self._read(r.VERSION)
        if version not in r.KNOWN_VERSIONS:
            raise ReaderError(
                f"reader {self.name}: no RC522 answers on {self.where} (VersionReg reads 0x{version:02X})"
            )
        self._write(r.T_MODE, self._expected_t_mode())
        self._write(r.T_PRESCALER, r.TIMER_PRESCALER & 0xFF)
        self._write(r.T_RELOAD_H, self._ticks >> 8)
        self._write(r.T_RELOAD_L, self._ticks & 0xFF)
        self._write(r.TX_ASK, r.FORCE_100_ASK)
        self._write(r.MODE, r.MODE_CRC_6363)
        self._apply_gain()
        self._set_bits(r.TX_CONTROL, r.ANTENNA_BITS)
        self._crc_on = False  # TxModeReg and RxModeReg are back at their reset value
        self._ready = True

    def _apply_gain(self) -> None:
        if self._gain is not None:
            self._write(r.RF_CFG, (self._read(r.RF_CFG) & 0x8F) | (self._gain << 4))

    # -- ISO 14443-A -----------------------------------------------------------------

    def _walk(self, sel: int, limit: int) -> list[list[int]]:
        """Every UID CLn (4 bytes + BCC) READY at this cascade level, up to ``limit``.

        A depth-first walk of the collision tree: at each collision take the 1
        branch and keep the 0 branch for later. Anticollision frames leave READY
        tags READY (those not matching just keep quiet), so one wake-up serves
        the whole walk.
        """
        found: list[list[int]] = []
        pending: list[list[int]] = [[]]
        budget = 40 * 2 * max(limit, 1)  # frames: each tag costs at most one per UID bit
        while pending and len(found) < limit and budget > 0:
            known = pending.pop()
            while budget > 0:
                budget -= 1
                frame = [sel, ((2 + len(known) // 8) << 4) | (len(known) % 8), *_to_bytes(known)]
                reply = self._transceive(frame, tx_last_bits=len(known) % 8, rx_align=len(known) % 8)
                if reply is None:
                    break  # nobody left on this branch (a tag left mid-walk)
                if reply.error & _HARD_ERRORS:
                    return found  # a garbled frame: report what is sure, the next poll retries
                if reply.error & r.ERR_COLL:
                    if reply.coll & r.COLL_POS_NOT_VALID:
                        return found
                    position = (reply.coll & r.COLL_POS_MASK) or 32
                    if position > len(reply.bits) or len(known) + position >= 40:
                        return found
                    prefix = known + reply.bits[: position - 1]
                    pending.append([*prefix, 0])
                    known = [*prefix, 1]
                    continue
                cln = _to_bytes(known + reply.bits)
                if len(cln) == 5 and cln[0] ^ cln[1] ^ cln[2] ^ cln[3] == cln[4]:
                    found.append(cln)
                break
        return found

    def _park(self) -> None:
        """End a poll with HLTA: tags still READY drop back to IDLE or HALT, where WUPA finds them.

        (A READY tag treats WUPA itself as an unexpected frame and would miss the next poll.)
        """
        self._set_crc(True)
        self._transceive(list(r.HLTA))  # nothing answers HLTA: the timeout is the success
        self._set_crc(False)

    def _set_crc(self, on: bool) -> None:
        if on != self._crc_on:
            value = r.CRC_ENABLE if on else 0
            self._write(r.TX_MODE, value)
            self._write(r.RX_MODE, value)
            self._crc_on = on

    def _transceive(self, frame: list[int], tx_last_bits: int = 0, rx_align: int = 0) -> _Reply | None:
        """Send one frame and wait for the answer; None when the timer runs out."""
        self._write(r.COMMAND, r.CMD_IDLE)
        self._write(r.COM_IRQ, 0x7F)
        self._write(r.FIFO_LEVEL, r.FLUSH_BUFFER)
        self._xfer([r.write_address(r.FIFO_DATA), *frame])
        self._write(r.COMMAND, r.CMD_TRANSCEIVE)
        self._write(r.BIT_FRAMING, r.START_SEND | (rx_align << 4) | tx_last_bits)
        irq = self._wait_irq()
        if not irq & r.IRQ_RX:
            return None
        error, coll, level, control = self._read_many([r.ERROR, r.COLL, r.FIFO_LEVEL, r.CONTROL])
        data = self._read_many([r.FIFO_DATA] * level) if level else []
        last_bits = control & 0x07
        count = (len(data) - 1) * 8 + (last_bits or 8) - rx_align if data else 0
        return _Reply(data, _to_bits(data, rx_align, max(0, count)), error, coll)

    def _wait_irq(self) -> int:
        deadline = self._clock() + 2 * self._timeout_s + 0.02
        for _ in range(_MAX_IRQ_READS):
            irq = self._read(r.COM_IRQ)
            if irq & (r.IRQ_RX | r.IRQ_TIMER):
                return irq
            if self._clock() > deadline:
                break
        self._ready = False
        raise ReaderError(
            f"reader {self.name}: the RC522 on {self.where} gave no interrupt within its timeout;"
            " it may have lost power"
        )

    # -- SPI -------------------------------------------------------------------------

    def _xfer(self, data: list[int]) -> list[int]:
        try:
            return self._port.xfer2(data)
        except OSError as err:
            self._ready = False
            raise ReaderError(f"reader {self.name}: SPI transfer on {self.where} failed: {err}") from err

    def _write(self, register: int, value: int) -> None:
        self._xfer([r.write_address(register), value])

    def _read(self, register: int) -> int:
        return self._xfer([r.read_address(register), 0])[1]

    def _read_many(self, registers: list[int]) -> list[int]:
        """Several registers in one transfer: each byte clocks out the one addressed before it."""
        return self._xfer([*(r.read_address(x) for x in registers), 0])[1:]

    def _set_bits(self, register: int, mask: int) -> None:
        self._write(register, self._read(register) | mask)

    def _clear_bits(self, register: int, mask: int) -> None:
        self._write(register, self._read(register) & ~mask & 0xFF)


class _SharedLine:
    """One reset line wired to several readers: held high while any of them is open."""

    def __init__(self, key: tuple[int, int], device: Any) -> None:
        self.key = key
        self.device = device
        self.users = 0

    def on(self) -> None:
        self.device.on()

    def off(self) -> None:
        self.device.off()

    def close(self) -> None:
        self.users -= 1
        if self.users <= 0:
            _reset_lines.pop(self.key, None)
            self.device.close()


_reset_lines: dict[tuple[int, int], _SharedLine] = {}


def _shared_reset_line(pin: int, pin_factory: Any) -> _SharedLine:
    from gpiozero import DigitalOutputDevice

    key = (id(pin_factory), pin)
    line = _reset_lines.get(key)
    if line is None:
        device = DigitalOutputDevice(pin, initial_value=True, pin_factory=pin_factory)
        line = _reset_lines[key] = _SharedLine(key, device)
    line.users += 1
    return line


def open_rc522(
    name: str,
    *,
    bus: int = 0,
    device: int = 0,
    cs_pin: int | None = None,
    reset_pin: int | None = None,
    speed_hz: int = 1_000_000,
    antenna_gain_db: int | None = None,
    timeout_ms: float = 5.0,
    max_tags: int = 6,
    pin_factory: Any = None,
    sleep: Callable[[float], None] = time.sleep,
) -> RC522Reader:
    """Open the RC522 on ``/dev/spidev<bus>.<device>``.

    With ``cs_pin`` (BCM number) the chip select is that GPIO line, asserted by
    this driver around each transfer; the kernel's own CE line is then disabled
    (``no_cs``) where the SPI controller allows it. ``reset_pin`` drives NRSTPD;
    readers may share one reset line (a reset of one then resets them all, and
    each sets itself up again on its next poll).
    """
    try:
        import spidev  # Pi-only: imported here so that laptops never need it
    except ImportError as err:
        raise ReaderError(
            f"reader {name}: the rc522 backend needs spidev (pip install 'tablekeeper[pi]');"
            " on a laptop use the simulated backend"
        ) from err
    where = f"/dev/spidev{bus}.{device}" + (f" with chip select GPIO{cs_pin}" if cs_pin is not None else "")
    spi = spidev.SpiDev()
    try:
        spi.open(bus, device)
    except OSError as err:
        raise ReaderError(
            f"reader {name}: cannot open {where}: {err}; enable SPI (dtparam=spi=on) and check the bus"
        ) from err
    spi.max_speed_hz = speed_hz
    spi.mode = 0
    port: SpiPort = spi
    if cs_pin is not None:
        from gpiozero import DigitalOutputDevice

        # If the controller refuses, it still pulses its CE line: wire nothing else to it.
        with contextlib.suppress(OSError):
            spi.no_cs = True
        select = build(
            f"reader {name} chip select",
            f"GPIO{cs_pin}",
            lambda: DigitalOutputDevice(
                cs_pin, active_high=False, initial_value=False, pin_factory=pin_factory
            ),
        )
        port = GpioSelectedPort(spi, select)
    reset = None
    if reset_pin is not None:
        reset = build(
            f"reader {name} reset line",
            f"GPIO{reset_pin}",
            lambda: _shared_reset_line(reset_pin, pin_factory),
        )
    return RC522Reader(
        name,
        port,
        where=where,
        reset_pin=reset,
        antenna_gain_db=antenna_gain_db,
        timeout_ms=timeout_ms,
        max_tags=max_tags,
        sleep=sleep,
    )
