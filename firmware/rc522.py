# MFRC522 (RC522) on a shared SPI bus, one chip-select pin per reader.
# MicroPython. Reads 4-, 7- and 10-byte UIDs (all cascade levels) and several
# tags in one field: WUPA, bit-wise anticollision, SELECT, HLTA, then REQA for
# the next one (halted tags stay quiet until the next sweep's WUPA).

import time

# Registers
COMMAND = 0x01
COM_IRQ = 0x04
DIV_IRQ = 0x05
ERROR = 0x06
FIFO_DATA = 0x09
FIFO_LEVEL = 0x0A
CONTROL = 0x0C
BIT_FRAMING = 0x0D
COLL = 0x0E
MODE = 0x11
TX_MODE = 0x12
RX_MODE = 0x13
TX_CONTROL = 0x14
TX_ASK = 0x15
MOD_WIDTH = 0x24
T_MODE = 0x2A
T_PRESCALER = 0x2B
T_RELOAD_H = 0x2C
T_RELOAD_L = 0x2D
VERSION = 0x37

# Commands
IDLE = 0x00
TRANSCEIVE = 0x0C
SOFT_RESET = 0x0F

# PICC commands
REQA = 0x26
WUPA = 0x52
HLTA = 0x50
SEL = (0x93, 0x95, 0x97)
CASCADE_TAG = 0x88

# The two readings of CollReg's CollPos: NXP's reader library counts it from bit 0
# of the FIFO's first byte (RxAlign included); other code counts it from the first
# bit received. They agree when RxAlign is 0. Which one a chip (or clone) follows
# is learnt from the replies: a position only one reading can give settles it.
FIFO_READING = "fifo"
RECEIVED_READING = "received"

# Outcomes of a transceive
OK = 0
TIMEOUT = 1
ERR = 2
COLLISION = 3

# The chip's own timer gives up on a tag after TRELOAD ticks of ~25.6 us
# (prescaler 0xA9): 100 ticks = 2.56 ms, ample for REQA/anticollision/SELECT
# answers (< 1 ms) and short enough that an empty field costs little.
TRELOAD = 100
# Wall-clock guard in case the chip never raises an interrupt (dead chip,
# MISO stuck): the fix for the busy loop of the usual Python drivers.
GUARD_US = 10000

MAX_TAGS = 8

# Each sweep starts from a field reset: a tag woken by WUPA from HALT falls back
# to HALT when another tag is selected (ISO 14443-3), so after a sweep that
# halted every tag only one would be found again. With the field switched off
# after each scan the tags power down to IDLE, and REQA finds them one by one.
# Fields off between scans also keep neighbouring readers from detuning each
# other.
FIELD_OFF_MS = 2             # off long enough for the tags to lose power
FIELD_ON_MS = 5              # a tag must answer within 5 ms of the field coming on


class ChipError(Exception):
    pass


def crc_a(data):
    """ISO/IEC 14443-3 CRC_A, returned as [low, high]."""
    crc = 0x6363
    for b in data:
        b ^= crc & 0xFF
        b = (b ^ (b << 4)) & 0xFF
        crc = ((crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)) & 0xFFFF
    return [crc & 0xFF, crc >> 8]


class RC522:
    def __init__(self, spi, cs):
        self.spi = spi
        self.cs = cs
        self._off_at = time.ticks_ms()
        self._on_at = None
        self._out = bytearray(2)
        self._in = bytearray(2)
        self.collpos = None               # the chip's CollPos reading, once shown
        # Called while the chip is waited for (a tag's answer, the field's
        # timing): the hub reads its buttons there, so a press is reported
        # within a millisecond or two even in the middle of a scan.
        self.idle = None
        cs.value(1)

    # --- register access: one chip-select window per register ---
    def _xfer(self, a, b):
        self._out[0] = a
        self._out[1] = b
        self.cs.value(0)
        try:
            self.spi.write_readinto(self._out, self._in)
        finally:
            self.cs.value(1)
        return self._in[1]

    def read(self, reg):
        return self._xfer(0x80 | ((reg << 1) & 0x7E), 0)

    def write(self, reg, val):
        self._xfer((reg << 1) & 0x7E, val & 0xFF)

    def set_bits(self, reg, mask):
        self.write(reg, self.read(reg) | mask)

    def clear_bits(self, reg, mask):
        self.write(reg, self.read(reg) & ~mask)

    # --- chip ---
    def version(self):
        return self.read(VERSION)

    def alive(self):
        v = self.version()
        return v not in (0x00, 0xFF)

    def check(self):
        """Raise ChipError unless the chip answers (MISO stuck low or high does not)."""
        v = self.version()
        if v in (0x00, 0xFF):
            raise ChipError("no answer (version 0x%02X)" % v)
        return v

    def init(self):
        """Reset and configure the chip; raises ChipError if it does not answer."""
        v = self.check()
        self.write(COMMAND, SOFT_RESET)
        t0 = time.ticks_us()
        # PowerDown bit clears when the soft reset is over.
        while self.read(COMMAND) & 0x10:
            if self.idle is not None:
                self.idle()
            if time.ticks_diff(time.ticks_us(), t0) > 50000:
                raise ChipError("soft reset did not finish")
        self.write(T_MODE, 0x80)          # TAuto: timer starts at end of transmission
        self.write(T_PRESCALER, 0xA9)
        self.write(T_RELOAD_H, TRELOAD >> 8)
        self.write(T_RELOAD_L, TRELOAD & 0xFF)
        self.write(TX_ASK, 0x40)          # 100 % ASK
        self.write(MODE, 0x3D)            # CRC preset 0x6363
        self.write(TX_MODE, 0x00)         # CRC done in software
        self.write(RX_MODE, 0x00)
        self.write(MOD_WIDTH, 0x26)
        self.field_off()
        return v

    def field_off(self):
        self.clear_bits(TX_CONTROL, 0x03)
        self._off_at = time.ticks_ms()
        self._on_at = None

    def field_on(self):
        """Switch the antenna on (once it has been off long enough); no-op if on."""
        if self._on_at is not None:
            return
        _wait_since(self._off_at, FIELD_OFF_MS, self.idle)
        self.set_bits(TX_CONTROL, 0x03)
        self._on_at = time.ticks_ms()

    def transceive(self, data, tx_last_bits=0, rx_align=0):
        """Send ``data`` and return (outcome, received bytes, valid bits of last byte)."""
        self.write(COMMAND, IDLE)
        self.write(COM_IRQ, 0x7F)         # clear interrupt flags
        self.write(FIFO_LEVEL, 0x80)      # flush FIFO
        for b in data:
            self.write(FIFO_DATA, b)
        framing = ((rx_align << 4) | tx_last_bits) & 0x77
        self.write(BIT_FRAMING, framing)
        self.write(COMMAND, TRANSCEIVE)
        self.write(BIT_FRAMING, framing | 0x80)   # StartSend
        t0 = time.ticks_us()
        while True:
            irq = self.read(COM_IRQ)
            if self.idle is not None:
                self.idle()
            if irq & 0x30:                # RxIRq or IdleIRq
                break
            if irq & 0x01:                # TimerIRq: no tag answered
                self.write(BIT_FRAMING, framing)
                return TIMEOUT, [], 0
            if time.ticks_diff(time.ticks_us(), t0) > GUARD_US:
                self.write(COMMAND, IDLE)
                raise ChipError("no interrupt from chip")
        self.write(BIT_FRAMING, framing)
        err = self.read(ERROR)
        # CollErr first, as NXP's code does: a collision also spoils the parity bit.
        if not err & 0x08 and err & 0x13:  # BufferOvfl, ParityErr, ProtocolErr
            return ERR, [], 0
        n = self.read(FIFO_LEVEL) & 0x7F
        back = [self.read(FIFO_DATA) for _ in range(n)]
        valid = self.read(CONTROL) & 0x07
        if err & 0x08:                    # CollErr
            return COLLISION, back, valid
        return OK, back, valid

    def locate(self, coll, align, received):
        """(index among the bits received, uncertain) of a collision, or None.

        Where the readings disagree and the chip's is not known yet, NXP's
        (the shallower bit) is taken: under the other reading the bits before
        the real collision are sound, so following the value the reply shows
        there still leads to a tag.
        """
        if coll & 0x20:                   # CollPosNotValid
            return None
        pos = coll & 0x1F or 32           # 1-based
        fifo = pos - 1 - align
        first = pos - 1
        fifo_fits = 0 <= fifo < received
        first_fits = first < received
        if fifo_fits and first_fits:
            if fifo == first or self.collpos == RECEIVED_READING:
                return first, False
            return fifo, self.collpos is None
        if fifo_fits:
            self.collpos = FIFO_READING
            return fifo, False
        if first_fits:
            self.collpos = RECEIVED_READING
            return first, False
        return None

    # --- ISO 14443-3 type A ---
    def request(self, cmd):
        """REQA/WUPA; True when at least one tag answered (a collision counts)."""
        self.clear_bits(COLL, 0x80)
        st, back, _ = self.transceive([cmd], tx_last_bits=7)
        if st == COLLISION:
            return True
        return st == OK and len(back) == 2

    def halt(self):
        frame = [HLTA, 0x00]
        frame += crc_a(frame)
        st, _, _ = self.transceive(frame)
        # A halted tag does not answer: silence is success.
        return st == TIMEOUT

    def _cascade(self, level):
        """Anticollision and SELECT at one cascade level -> (uid bytes, sak) or None."""
        sel = SEL[level]
        uid = [0, 0, 0, 0, 0]             # 4 UID bytes + BCC
        known = 0                         # bits of uid known so far
        chosen = False                    # `known` ends in a side chosen at a collision
        for _ in range(41):
            nbytes = known // 8
            nbits = known % 8
            frame = [sel, ((2 + nbytes) << 4) | nbits] + uid[:nbytes + (1 if nbits else 0)]
            st, back, valid = self.transceive(frame, tx_last_bits=nbits, rx_align=nbits)
            if st not in (OK, COLLISION) or not back:
                if chosen:
                    self.collpos = None   # no tag on a chosen side: the reading in use is wrong
                return None
            # The first received byte completes the partial byte we sent.
            idx = nbytes
            for i, b in enumerate(back):
                if idx + i > 4:
                    break
                if i == 0 and nbits:
                    mask = (0xFF << nbits) & 0xFF
                    uid[idx] = (uid[idx] & ~mask & 0xFF) | (b & mask)
                else:
                    uid[idx + i] = b
            if st == OK:
                break
            received = (len(back) - 1) * 8 + (valid or 8) - nbits
            hit = self.locate(self.read(COLL), nbits, received)
            if hit is None:
                return None
            index, uncertain = hit
            bit = known + index           # this level's bit where the tags differ
            if bit >= 40:
                return None
            if not uncertain:
                uid[bit // 8] |= 1 << (bit % 8)   # choose the tags whose bit is 1
            # (uncertain: keep the value the reply shows, which some tag has)
            known = bit + 1
            chosen = True
        else:
            return None
        if uid[0] ^ uid[1] ^ uid[2] ^ uid[3] != uid[4]:
            self.collpos = None
            return None
        frame = [sel, 0x70] + uid
        frame += crc_a(frame)
        st, back, _ = self.transceive(frame)
        if st != OK or len(back) != 3 or crc_a(back[:1]) != back[1:]:
            return None
        return uid[:4], back[0]

    def select(self):
        """Select one READY tag through all cascade levels -> uid bytes or None."""
        out = []
        for level in range(3):
            got = self._cascade(level)
            if got is None:
                return None
            part, sak = got
            if sak & 0x04:                # UID not complete: CT + 3 bytes
                if part[0] != CASCADE_TAG:
                    return None
                out += part[1:]
            else:
                out += part
                return bytes(out)
        return None

    def scan(self):
        """Every tag in the field now, as a list of upper-case hex UIDs."""
        self.field_on()
        _wait_since(self._on_at, FIELD_ON_MS, self.idle)
        uids = []
        # WUPA first, in case a tag was left halted (no field reset yet since
        # init); then REQA, which halted tags ignore.
        cmd = WUPA
        try:
            for _ in range(MAX_TAGS):
                if not self.request(cmd):
                    break
                uid = self.select()
                if uid is None:
                    break
                h = "".join("%02X" % b for b in uid)
                if h in uids:
                    break
                uids.append(h)
                self.halt()
                cmd = REQA
        finally:
            self.field_off()
        return uids


def _wait_since(t0, ms, idle=None):
    # In 1 ms slices when something is to be done meanwhile (the hub's buttons).
    while True:
        left = ms - time.ticks_diff(time.ticks_ms(), t0)
        if left <= 0:
            return
        if idle is None:
            time.sleep_ms(left)
            return
        idle()
        time.sleep_ms(1)
