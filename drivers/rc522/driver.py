"""The project's own RC522 driver on ``spidev``: every tag in the field, 4- or 7-byte UIDs.

One :class:`RC522Reader` per chip select. A census wakes every tag (WUPA,
which also wakes halted ones), walks the anticollision tree bit by bit using
CollReg's collision position (READY tags stay READY through it, so one wake-up
lists every cascade-level-1 UID), SELECTs each level-1 UID that carries the
cascade tag to walk its level 2 (7-byte UIDs; WUPA again between them), and ends
with HLTA so that no tag is left READY for the next wake-up. Each tag read is
then halted (REQA, SELECT level by level, HLTA: ISO 14443-3 keeps it in HALT
while it stays powered), so a poll starts with REQA, which only tags new to the
field answer, and runs a census only every ``confirm_every``-th poll (4) and
after one that missed a known tag: with the tags resting on the pad, most polls
cost what an empty field costs (see :meth:`RC522Reader.poll`). Each frame
is timed by the chip's own timer (``timeout_ms``, 1 ms: what REQA and the
rest need, see :mod:`drivers.rc522.chip`), and the driver sleeps until the
answer should be over before it reads ComIrqReg, then every quarter of the
timer (or, with the IRQ line wired, waits on it): an empty poll costs a
handful of SPI transfers and almost no CPU.

CollReg's CollPos has two readings (:mod:`drivers.rc522.collpos`): NXP's,
counted from bit 0 of the FIFO's first byte (RxAlign included), and the other,
counted from the first bit received. They agree whenever RxAlign is 0. Where
they disagree the walk takes NXP's position, the shallower one, which is safe
under both (under the other reading that bit is no collision, and the side no
tag matches just stays silent). A position only one reading can give, and far
sides that answer or stay silent, tell the reader which reading its chip
follows (:attr:`RC522Reader.collpos_reading`); a chosen side that stays silent
or a UID whose BCC fails makes it forget, and under the other reading every
tenth census walks as if the reading were unknown, to catch one learnt wrongly.
ErrorReg is looked at for CollErr before ParityErr, as NXP's code does: a
collision also spoils that byte's parity bit.

``spidev`` and ``gpiozero`` pins are opened in :func:`open_rc522` only; the class
takes any object with ``xfer2(list) -> list`` and ``close()``, which is how the
tests drive it against :mod:`drivers.sim.rc522_emulator`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from drivers.base import ReaderError
from drivers.gpio import build
from drivers.rc522 import chip as r
from drivers.rc522.collpos import locate_collision
from drivers.rc522.spi import OutputPin, SpiChannel, open_spi_device

log = logging.getLogger(__name__)

# Errors in a reply that is no collision; the poll then stops and reports what it has.
_HARD_ERRORS = r.ERR_BUFFER_OVFL | r.ERR_CRC | r.ERR_PARITY | r.ERR_PROTOCOL
_MAX_IRQ_READS = 10_000
_AFTER_A_FRAME = [r.COM_IRQ, r.ERROR, r.COLL, r.FIFO_LEVEL, r.CONTROL]
_MIN_STEP_S = 0.0002  # the shortest sleep between two looks at ComIrqReg
_LONGEST_ANSWER_S = r.air_time(18 * 8)  # READ's 16 bytes + CRC_A: nothing we send gets more
# Silent far sides of uncertain splits, one after another, that show the chip counts
# CollPos from the first bit received (under NXP's reading both sides always answer).
_SILENT_SIDES_TO_LEARN = 2
# Every so many censuses under the other reading, one walks as if the reading were
# unknown: were the chip's really NXP's, a far side that answers shows it (a reading
# learnt wrongly, from a tag that left mid-walk, would otherwise hide tags for good).
_AUDIT_EVERY = 10
# Polls per census of the halted tags (see RC522Reader.poll): the polls between cost
# what an empty field costs, and a departure shows up to 3 polls (150 ms at 20 Hz) late.
DEFAULT_CONFIRM_EVERY = 4
# Polls after a tag's first read that are censuses, whatever confirm_every says: the
# second of them comes two rounds after the first read (24 ms at the watcher's 12 ms
# rounds, within a millisecond of its 25 ms arrive_hold), so that it reads the field
# rather than repeat a halted tag, and a tag that only brushed past the pad for less
# than that is gone from it (drivers.watcher). A third would read the field at the
# hold's very end but add its own time (some 6 ms on a Zero 2 W) to every tag's event.
FRESH_CENSUSES = 2


class SpiPort(Protocol):
    """One chip's SPI link: ``spidev.SpiDev`` or a GPIO-selected wrapper around it."""

    def xfer2(self, data: list[int]) -> list[int]: ...

    def close(self) -> None: ...


class InputPin(Protocol):
    """A gpiozero input device (the chip's IRQ line)."""

    def wait_for_active(self, timeout: float | None = None) -> bool: ...

    def close(self) -> None: ...


@dataclass
class _Reply:
    data: list[int]
    bits: list[int]  # the bits received, LSB first, starting at the frame's rx_align
    error: int
    coll: int


def _to_bits(data: list[int], start: int, count: int) -> list[int]:
    return [(data[(start + i) // 8] >> ((start + i) % 8)) & 1 for i in range(count)]


def _hex(uid: list[int]) -> str:
    return "".join(f"{b:02X}" for b in uid)


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
        irq_pin: InputPin | None = None,
        antenna_gain_db: int | None = None,
        timeout_ms: float = r.DEFAULT_TIMEOUT_MS,
        max_tags: int = 6,
        confirm_every: int = DEFAULT_CONFIRM_EVERY,
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
        self._irq_pin = irq_pin
        self._gain = self._gain_code(antenna_gain_db)
        self._ticks = max(1, round(timeout_ms * r.TIMER_TICKS_PER_MS))
        if confirm_every < 1:
            raise ValueError(f"reader {name}: confirm_every must be at least 1, got {confirm_every}")
        self.max_tags = max_tags
        self.confirm_every = confirm_every
        self._known: set[str] = set()  # halted tags the last census saw, and arrivals since
        self._next_census = 0  # polls until the next census; 0: this one
        self._fresh = 0  # censuses still due after a tag's first read (FRESH_CENSUSES)
        self._clock = clock
        self._sleep = sleep
        self._timeout_s = self._ticks / (r.TIMER_TICKS_PER_MS * 1000)  # what the chip's timer runs
        self._ready = False
        self._armed = False  # Transceive active, FIFO empty: the next frame needs only StartSend
        self.collpos_reading: str | None = None  # learnt from the replies; None until shown
        self._silent_sides = 0
        self._censuses = 0
        self._audit = False
        self.version_note: str | None = None

    # -- public --------------------------------------------------------------------

    def poll(self) -> frozenset[str]:
        """UIDs of the tags in the field (at most ``max_tags``); raises ReaderError.

        With ``confirm_every`` 1 each poll is a census (see :meth:`_census`). Above
        1, the tags a census finds are halted, and the polls between censuses
        send REQA, which only tags that are not halted answer: new arrivals are
        read and halted at once; the tags already known are confirmed by a census
        every ``confirm_every``-th poll, on every poll after one that missed
        a known tag, and on the FRESH_CENSUSES polls after one that found a
        new one, so a departure is seen up to
        ``confirm_every - 1`` polls late while a tag that flickers out of one
        census is back on the next, and one that only brushes past is listed once.
        """
        self._check_alive()
        if self.confirm_every <= 1:
            return frozenset(_hex(uid) for uid in self._census())
        due, self._next_census = self._next_census, 0  # a ReaderError below: census next poll
        # A tag new to the field, or one a census missed, is looked for again on the next
        # poll: a tag only brushed past the pad is then listed in one poll, as without halting.
        if due <= 0:
            found = self._census()
            new = [uid for uid in found if _hex(uid) not in self._known]
            for uid in new:
                self._halt(uid)  # its census HLTA left it IDLE
            listed = sorted({_hex(uid) for uid in found})
            missed = self._known - set(listed)
            self._fresh = FRESH_CENSUSES if new else max(0, self._fresh - 1)
            self._next_census = 0 if missed or self._fresh else self.confirm_every - 1
        else:
            arrived = sorted({_hex(uid) for uid in self._arrivals(self.max_tags)})
            listed = arrived + sorted(self._known - set(arrived))  # arrivals are sure, the rest older
            if set(arrived) - self._known:
                self._fresh = FRESH_CENSUSES
            self._next_census = 0 if self._fresh else due - 1
        self._known = set(listed[: self.max_tags])
        return frozenset(self._known)

    def _census(self) -> list[list[int]]:
        """Every tag in the field, halted or not: WUPA, the walk, one HLTA at the end."""
        self._censuses += 1
        self._audit = self.collpos_reading == r.COLLPOS_RECEIVED and self._censuses % _AUDIT_EVERY == 0
        if self._transceive([r.WUPA], tx_last_bits=7, answer_bits=16) is None:
            return []
        try:
            return self._list_ready(r.WUPA, self.max_tags)
        finally:
            self._park()

    def _arrivals(self, limit: int) -> list[list[int]]:
        """The tags REQA wakes (not halted: new in the field), each then halted.

        A tag keeps its HALT state while it stays powered in the field; one that
        leaves and comes back is IDLE again and shows up here.
        """
        self._audit = False
        if limit <= 0 or self._transceive([r.REQA], tx_last_bits=7, answer_bits=16) is None:
            return []
        try:
            found = self._list_ready(r.REQA, limit)
        finally:
            self._park()  # READY tags back to IDLE, where the REQA before each SELECT wakes them
        for uid in found:
            self._halt(uid)
        return found

    def _list_ready(self, wake: int, limit: int) -> list[list[int]]:
        """The UIDs of the tags ``wake`` (REQA or WUPA) has just made READY, up to ``limit``."""
        uids: list[list[int]] = []
        fresh = True  # every tag is still READY at cascade level 1
        for cl1 in self._walk(r.SELECT_CODES[0], limit):
            if len(uids) >= limit:
                break
            if cl1[0] != r.CASCADE_TAG:
                uids.append(cl1[0:4])  # a 4-byte UID is complete at level 1: no SELECT needed
                continue
            # Selecting CL1 moves every tag sharing it to level 2; the others drop out
            # (to IDLE, or to HALT if woken from it), so the next CL1 needs a new wake-up.
            if not fresh and self._transceive([wake], tx_last_bits=7, answer_bits=16) is None:
                continue
            fresh = False
            sak = self._select(r.SELECT_CODES[0], cl1)
            if sak is None or not sak & r.SAK_CASCADE:
                continue
            for cl2 in self._walk(r.SELECT_CODES[1], limit - len(uids)):
                uids.append(cl1[1:4] + cl2[0:4])
        return uids

    def _halt(self, uid: list[int]) -> bool:
        """Wake ``uid`` with REQA, SELECT it level by level and halt it; False if it did not follow."""
        if self._transceive([r.REQA], tx_last_bits=7, answer_bits=16) is None:
            return False
        parts = [uid] if len(uid) == 4 else [[r.CASCADE_TAG, *uid[0:3]], uid[3:7]]
        for level, part in enumerate(parts):
            sak = self._select(r.SELECT_CODES[level], [*part, part[0] ^ part[1] ^ part[2] ^ part[3]])
            if sak is None or bool(sak & r.SAK_CASCADE) != (level + 1 < len(parts)):
                self._park()
                return False
        self._park()  # ACTIVE: HLTA halts it
        return True

    def version(self) -> int:
        """VersionReg (0x91/0x92 genuine, 0x88/0xB2 and others clones, 0x00/0xFF nothing there)."""
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
            if self._irq_pin is not None:
                self._irq_pin.close()
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
        if not r.chip_answers(version):
            self._ready = False
            raise ReaderError(
                f"reader {self.name}: no RC522 answers on {self.where} (VersionReg reads 0x{version:02X});"
                " check its power, MOSI/MISO/SCK and chip-select wiring"
            )
        if not self._ready or t_mode != self._expected_t_mode():
            self._initialise()  # first use, or the chip lost power and forgot its set-up

    def _initialise(self) -> None:
        self._armed = False
        # SoftReset switches the field off: every tag wakes IDLE, to be read and halted anew.
        self._next_census = 0
        self._known = set()
        self._write(r.COMMAND, r.CMD_SOFT_RESET)
        for _ in range(20):
            self._sleep(0.005)
            if not self._read(r.COMMAND) & r.POWER_DOWN:
                break
        else:
            raise ReaderError(f"reader {self.name}: the RC522 on {self.where} did not come out of reset")
        version = self._read(r.VERSION)
        if not r.chip_answers(version):
            raise ReaderError(
                f"reader {self.name}: no RC522 answers on {self.where} (VersionReg reads 0x{version:02X})"
            )
        self._note_version(version)
        self._write(r.T_MODE, self._expected_t_mode())
        self._write(r.T_PRESCALER, r.TIMER_PRESCALER & 0xFF)
        self._write(r.T_RELOAD_H, self._ticks >> 8)
        self._write(r.T_RELOAD_L, self._ticks & 0xFF)
        if self._irq_pin is not None:
            # IRQ low (IRqInv) on RxIRq or TimerIRq, driven push-pull.
            self._write(r.COM_IEN, r.IRQ_INVERTED | r.IRQ_RX | r.IRQ_TIMER)
            self._write(r.DIV_IEN, r.IRQ_PUSH_PULL)
        self._write(r.TX_ASK, r.FORCE_100_ASK)
        self._write(r.MODE, r.MODE_CRC_6363)
        self._apply_gain()
        self._set_bits(r.TX_CONTROL, r.ANTENNA_BITS)
        # CRC_A is added and checked in software: no TxModeReg/RxModeReg writes around each SELECT.
        self._write(r.TX_MODE, 0)
        self._write(r.RX_MODE, 0)
        self._ready = True

    def _note_version(self, version: int) -> None:
        if version in r.KNOWN_VERSIONS:
            self.version_note = None
            return
        described = r.describe_version(version)
        note = f"reader {self.name}: the chip on {self.where} reports VersionReg {described}"
        if note != self.version_note:
            log.warning("%s", note)
        self.version_note = note

    def _apply_gain(self) -> None:
        if self._gain is not None:
            self._write(r.RF_CFG, (self._read(r.RF_CFG) & 0x8F) | (self._gain << 4))

    # -- ISO 14443-A -----------------------------------------------------------------

    def _walk(self, sel: int, limit: int) -> list[list[int]]:
        """Every UID CLn (4 bytes + BCC) READY at this cascade level, up to ``limit``.

        A depth-first walk of the collision tree: at each collision follow the
        bit value the reply shows and keep the other side for later.
        Anticollision frames leave READY tags READY (those not matching just
        keep quiet), so one wake-up serves the whole walk.
        """
        found: list[list[int]] = []
        # (known bits, the far side of an uncertain split: under the other reading nobody is there)
        pending: list[tuple[list[int], bool]] = [([], False)]
        budget = 40 * 3 * max(limit, 1)  # frames: each tag costs at most a few per UID bit
        while pending and len(found) < limit and budget > 0:
            known, far_side = pending.pop()
            chosen = False  # known ends in a side chosen at a collision: some tag must be there
            while budget > 0:
                budget -= 1
                align = len(known) % 8
                frame = [sel, ((2 + len(known) // 8) << 4) | align, *_to_bytes(known)]
                reply = self._transceive(
                    frame, tx_last_bits=align, rx_align=align, answer_bits=40 - len(known)
                )
                if reply is None:
                    if far_side:
                        self._far_side_silent()
                    elif chosen:
                        self._forget_reading()  # a tag left, or the reading in use is not the chip's
                    break
                if far_side:
                    self._learn_reading(r.COLLPOS_FIFO)  # both sides answer only under NXP's reading
                    far_side = False
                if reply.error & r.ERR_COLL:
                    reading = None if self._audit else self.collpos_reading
                    hit = locate_collision(reply.coll, align, len(reply.bits), reading)
                    if hit is None or len(known) + hit.index >= 40:
                        return found
                    if hit.proves is not None:
                        self._learn_reading(hit.proves)
                    prefix = known + reply.bits[: hit.index]
                    value = reply.bits[hit.index]
                    pending.append(([*prefix, 1 - value], hit.uncertain))
                    known = [*prefix, value]
                    chosen = True
                    continue
                if reply.error & _HARD_ERRORS:
                    return found  # a garbled frame: report what is sure, the next poll retries
                cln = _to_bytes(known + reply.bits)
                if len(cln) == 5 and cln[0] ^ cln[1] ^ cln[2] ^ cln[3] == cln[4]:
                    found.append(cln)
                else:
                    self._forget_reading()
                break
        return found

    def _learn_reading(self, reading: str) -> None:
        self._silent_sides = 0
        if reading != self.collpos_reading:
            log.info("reader %s: CollPos follows the %s reading", self.name, reading)
            self.collpos_reading = reading

    def _far_side_silent(self) -> None:
        self._silent_sides += 1
        if self._silent_sides >= _SILENT_SIDES_TO_LEARN:
            self._learn_reading(r.COLLPOS_RECEIVED)

    def _forget_reading(self) -> None:
        self.collpos_reading = None
        self._silent_sides = 0

    def _select(self, sel: int, cln: list[int]) -> int | None:
        """SELECT a UID CLn; its SAK, or None when no sound answer came."""
        frame = [sel, r.NVB_SELECT, *cln]
        reply = self._transceive(frame + r.crc_a(frame), answer_bits=24)
        if reply is None or reply.error & (_HARD_ERRORS | r.ERR_COLL) or len(reply.data) != 3:
            return None
        if r.crc_a(reply.data[:1]) != reply.data[1:]:
            return None
        return reply.data[0]

    def _park(self) -> None:
        """End a poll with HLTA: tags still READY drop back to IDLE or HALT, where WUPA finds them.

        (A READY tag treats WUPA itself as an unexpected frame and would miss the next poll.)
        """
        frame = list(r.HLTA)
        self._transceive(frame + r.crc_a(frame))  # nothing answers HLTA: the timeout is the success

    def _transceive(
        self, frame: list[int], tx_last_bits: int = 0, rx_align: int = 0, answer_bits: int = 0
    ) -> _Reply | None:
        """Send one frame and wait for the answer (``answer_bits`` long; 0: none expected).

        None when the timer runs out.
        """
        # After an answer read out whole, Transceive is still active and waits for the
        # next StartSend with an empty FIFO (datasheet 10.3.1.8): three transfers fewer.
        armed, self._armed = self._armed, False
        if not armed:
            self._write(r.COMMAND, r.CMD_IDLE)
            self._write(r.FIFO_LEVEL, r.FLUSH_BUFFER)
        self._write(r.COM_IRQ, 0x7F)
        self._xfer([r.write_address(r.FIFO_DATA), *frame])
        if not armed:
            self._write(r.COMMAND, r.CMD_TRANSCEIVE)
        self._write(r.BIT_FRAMING, r.START_SEND | (rx_align << 4) | tx_last_bits)
        sent_bits = len(frame) * 8 - (8 - tx_last_bits if tx_last_bits else 0)
        # Look first when the answer would be over (or, expecting none, when the timer has run out).
        after = r.FDT_S + r.air_time(answer_bits) if answer_bits else self._timeout_s
        irq, error, coll, level, control = self._wait_irq(r.air_time(sent_bits) + after)
        if not irq & r.IRQ_RX:
            return None
        data = self._read_many([r.FIFO_DATA] * level) if level else []
        self._armed = not error & r.ERR_BUFFER_OVFL
        last_bits = control & 0x07
        count = (len(data) - 1) * 8 + (last_bits or 8) - rx_align if data else 0
        return _Reply(data, _to_bits(data, rx_align, max(0, count)), error, coll)

    def _wait_irq(self, first_look: float) -> list[int]:
        """ComIrqReg, ErrorReg, CollReg, FIFOLevelReg and ControlReg once RxIRq or TimerIRq is up.

        Sleeps rather than spinning: with the IRQ line wired it waits for the
        line; otherwise the first look comes when the expected answer would be
        over, then one every quarter of the timer (at least
        0.2 ms) until the timer must have run out, with a guard for a chip that
        lost power or its set-up. Each look reads all five registers in one
        transfer, so an answer costs no second look.
        """
        start = self._clock()
        give_up = start + first_look + 2 * self._timeout_s + _LONGEST_ANSWER_S + 0.02
        step = max(_MIN_STEP_S, self._timeout_s / 4)
        if self._irq_pin is not None:
            # Wired: the line says when; no edge in time means a chip that lost its set-up.
            self._irq_pin.wait_for_active(timeout=first_look + self._timeout_s + _LONGEST_ANSWER_S)
        else:
            self._sleep(first_look)
        for _ in range(_MAX_IRQ_READS):
            values = self._read_many(_AFTER_A_FRAME)
            if values[0] & (r.IRQ_RX | r.IRQ_TIMER):
                return values
            if self._clock() > give_up:
                break
            self._sleep(step)
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
    irq_pin: int | None = None,
    speed_hz: int = r.DEFAULT_SPI_HZ,
    antenna_gain_db: int | None = None,
    timeout_ms: float = r.DEFAULT_TIMEOUT_MS,
    max_tags: int = 6,
    confirm_every: int = DEFAULT_CONFIRM_EVERY,
    pin_factory: Any = None,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
) -> RC522Reader:
    """Open the RC522 on ``/dev/spidev<bus>.<device>``.

    With ``cs_pin`` (BCM number) the chip select is that GPIO line, asserted by
    this driver around each transfer; the kernel's own CE line is then disabled
    (``no_cs``) for that reader's transfers only, where the SPI controller allows
    it, so a reader wired to that CE line can share the device (see
    :class:`SharedSpiDevice`). ``irq_pin`` (BCM number) is the chip's IRQ
    line, if wired: frames are then waited for on it. ``reset_pin`` drives NRSTPD;
    readers may share one reset line (a reset of one then resets them all, and
    each sets itself up again on its next poll). ``confirm_every``: polls per census
    of the tags already read (see :meth:`RC522Reader.poll`).
    """
    try:
        import spidev  # Pi-only: imported here so that laptops never need it
    except ImportError as err:
        raise ReaderError(
            f"reader {name}: the rc522 backend needs spidev (pip install 'tablekeeper[pi]');"
            " on a laptop use the simulated backend"
        ) from err
    where = f"/dev/spidev{bus}.{device}" + (f" with chip select GPIO{cs_pin}" if cs_pin is not None else "")
    shared = open_spi_device(name, spidev, bus, device, speed_hz)
    select = None
    if cs_pin is not None:
        from gpiozero import DigitalOutputDevice

        try:
            select = build(
                f"reader {name} chip select",
                f"GPIO{cs_pin}",
                lambda: DigitalOutputDevice(
                    cs_pin, active_high=False, initial_value=False, pin_factory=pin_factory
                ),
            )
        except BaseException:
            shared.release()
            raise
    port = SpiChannel(shared, select)
    reset = None
    if reset_pin is not None:
        try:
            reset = build(
                f"reader {name} reset line",
                f"GPIO{reset_pin}",
                lambda: _shared_reset_line(reset_pin, pin_factory),
            )
        except BaseException:
            port.close()
            raise
    irq = None
    if irq_pin is not None:
        from gpiozero import DigitalInputDevice

        try:
            irq = build(
                f"reader {name} IRQ line",
                f"GPIO{irq_pin}",
                lambda: DigitalInputDevice(irq_pin, pull_up=True, pin_factory=pin_factory),
            )
        except BaseException:
            port.close()
            if reset is not None:
                reset.close()
            raise
    return RC522Reader(
        name,
        port,
        where=where,
        reset_pin=reset,
        irq_pin=irq,
        antenna_gain_db=antenna_gain_db,
        timeout_ms=timeout_ms,
        max_tags=max_tags,
        confirm_every=confirm_every,
        sleep=sleep,
        clock=clock,
    )
