"""A register-level emulator of the NXP MFRC522 (RC522) and ISO 14443-A tags.

This one file runs unchanged under CPython 3.11 and MicroPython (unix port): it
uses no typing, dataclasses or other CPython-only modules, so that the reader
hub's firmware tests can load it too. The CPython glue that installs fake
``spidev`` and ``RPi.GPIO`` modules lives in ``drivers.sim.fake_spi``.

API (kept stable)
-----------------
Under CPython: ``from drivers.sim import rc522_emulator``. Under MicroPython:
put this file's folder on ``sys.path`` and ``import rc522_emulator``.

Create a chip and put tags in its field::

    chip = RC522Chip()                      # VersionReg reads 0x92 (v2.0)
    chip = RC522Chip(collpos=COLLPOS_RECEIVED)  # CollPos from the first bit received
    tag = chip.add_tag("04A1B2C3D4E5F6")    # 7-byte UID (NTAG213/215: ATQA 0x0044, SAK 0x00)
    chip.add_tag("DEADBEEF")                # 4-byte UID (MIFARE Classic 1K: ATQA 0x0004, SAK 0x08)
    chip.add_tag("0411223344556677", ...)   # 10-byte UIDs are refused: ValueError
    chip.remove_tag("DEADBEEF")             # the tag leaves the field
    chip.clear_tags()

``add_tag(uid, sak=None, atqa=None, pages=None)`` takes a hex string, bytes or
a list of ints; ``sak``/``atqa`` default by UID length; ``pages`` is the tag's
memory for READ (0x30), 4 bytes a page (default: NTAG-like, UID in pages 0-2).

Feed SPI transfers exactly as ``spidev.SpiDev.xfer2`` would::

    chip.xfer2([0x80 | (0x37 << 1), 0])     # -> [0, 0x92]  read VersionReg
    chip.xfer2([0x09 << 1, 0x26])           # write 0x26 into the FIFO

Each ``xfer2`` call is one SPI transfer and is counted in ``chip.transfers``
(``chip.bytes_transferred`` counts bytes, ``chip.frames`` RF frames sent).
``chip.connected = False`` makes the chip stop answering (MISO reads 0x00,
writes are lost), like an unplugged reader; ``chip.hard_reset()`` is a pulse on
NRSTPD. ``chip.read_register(addr)`` / ``chip.write_register(addr, value)``
peek and poke without counting a transfer.

What is emulated
----------------
Registers with their reset values; SoftReset; the 64-byte FIFO (FIFOLevelReg,
FlushBuffer, BufferOvfl); CommandReg Idle, Mem-less Transceive (started by
BitFramingReg.StartSend), Transmit, CalcCRC (CRC_A into CRCResultReg, DivIrqReg
CRCIRq); ComIrqReg/DivIrqReg with the Set1 write semantics; BitFramingReg
TxLastBits and RxAlign; ControlReg RxLastBits; TxModeReg/RxModeReg CRC
enable (RxCRCEn checks and strips the CRC, CRCErr on mismatch); the antenna
(TxControlReg bits 0-1: with the field off no tag answers and every tag is
reset); ErrorReg CollErr and CollReg (CollPos is 1-based, 0 meaning the
32nd, CollPosNotValid when beyond 32; with ValuesAfterColl clear the bits
after a collision read as 0).

CollPos has two readings. By default it counts as NXP's reader library reads
it (phhalHw_Rc523 takes CollPos - 1 as the bit index into the FIFO): from
bit 0 of the FIFO's first byte, so a frame received with RxAlign = 3 whose
first received bit collides reports CollPos 4. ``RC522Chip(collpos=
COLLPOS_RECEIVED)`` counts from the first bit received instead (RxAlign not
included). Which one a given chip or clone follows is not settled, so
drivers must cope with both. A collision also spoils that byte's parity
bit, so ParityErr is set with CollErr (``parity_on_collision=False`` turns
that off).

Tags follow the ISO 14443-3 state machine: IDLE, READY (per cascade level),
ACTIVE, HALT. REQA (0x26, 7 bits) wakes IDLE tags, WUPA (0x52, 7 bits) wakes
IDLE and HALT tags; both answer ATQA. Anticollision (SEL 0x93/0x95, NVB with
bit granularity) answers the rest of UID CLn + BCC from every READY tag whose
known bits match, colliding bit-wise; SELECT (NVB 0x70 + CRC_A) answers SAK
(cascade bit 0x04 while the UID is incomplete) + CRC_A; HLTA (0x50 0x00 +
CRC_A) halts an ACTIVE tag and, as on the air, nothing answers; READ (0x30)
returns 16 bytes + CRC_A. Any frame a tag does not expect sends a READY or
ACTIVE tag back to IDLE (HALT if it was woken from HALT).

When no tag answers, the timer runs out: ComIrqReg.TimerIRq is set if
TModeReg.TAuto is set (otherwise no interrupt ever comes, as on the chip) and
the Transceive command stays active.

Time
----
``RC522Chip(clock=None)`` answers at once: a wait loop sees the result on its
first read of ComIrqReg. Given a clock (:class:`VirtualClock`, whose time moves
only when told, or :class:`RealClock`, the wall clock), the chip takes the time
a real one does and its registers show a frame's outcome only then:

- each SPI transfer takes its bytes at ``spi_hz`` (``chip.spi_hz``, 1 MHz unless
  the fake spidev sets the device's clock); a RealClock spends short ones busy
  and sleeps through long ones, as the Pi's SPI driver does;
- a frame goes out at 106 kbit/s (128 carrier cycles, 9.44 us, a bit; a
  parity bit after each whole byte; start and end of frame);
- a tag answers 1236 carrier cycles (91 us) after the frame ends, and its
  answer takes its bits at the same rate; RxIRq comes at its end;
- with TAuto the timer starts at the end of the frame and runs
  (2 TPrescaler + 1)(TReload + 1) / 13.56 MHz; an answer that has not sent
  its 5th bit by then is too late: TimerIRq, no data (so a timer set shorter
  than a tag needs misses every tag).

Writing CommandReg stops a frame still in progress, as on the chip. With
``chip.wire_irq(callback)`` the IRQ pin follows ComIrqReg and ComIEnReg (IRqInv
included) and changes on its own when a frame ends, as a wired pin does.
``chip.busy_cpu`` adds up the CPU time the emulator's own bookkeeping takes
in ``xfer2`` (not the modelled SPI time), so a benchmark can take it out of
the CPU it measures.
"""

import time

CARRIER_HZ = 13560000
BIT_S = 128 / CARRIER_HZ        # one bit at 106 kbit/s
FDT_S = 1236 / CARRIER_HZ       # frame delay time, end of frame to a tag's answer


def _cpu_now():
    clock = getattr(time, "process_time", None)
    return clock() if clock else 0.0


class VirtualClock:
    """Time that moves only when told: SPI transfers and the driver's sleeps move it."""

    def __init__(self, start=0.0):
        self.t = start

    def now(self):
        return self.t

    def advance(self, seconds):
        if seconds > 0:
            self.t += seconds

    def sleep(self, seconds):
        self.advance(seconds)


class RealClock:
    """The wall clock (CPython only). SPI time is spent as the Pi's SPI driver
    (spi-bcm2835) spends it: transfers shorter than its polling limit (30 us)
    busy-poll the controller, longer ones sleep until its interrupt."""

    polling_limit = 30e-6

    def now(self):
        return time.monotonic()

    def advance(self, seconds):
        if seconds >= self.polling_limit:
            time.sleep(seconds)
            return
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            pass


def air_time(bits):
    """Seconds a frame of ``bits`` data bits takes at 106 kbit/s, with parity, SOF and EOF."""
    return (bits + bits // 8 + 2) * BIT_S


# Register addresses (datasheet section 9).
COMMAND = 0x01
COM_IEN = 0x02
DIV_IEN = 0x03
COM_IRQ = 0x04
DIV_IRQ = 0x05
ERROR = 0x06
STATUS1 = 0x07
STATUS2 = 0x08
FIFO_DATA = 0x09
FIFO_LEVEL = 0x0A
WATER_LEVEL = 0x0B
CONTROL = 0x0C
BIT_FRAMING = 0x0D
COLL = 0x0E
MODE = 0x11
TX_MODE = 0x12
RX_MODE = 0x13
TX_CONTROL = 0x14
TX_ASK = 0x15
CRC_RESULT_H = 0x21
CRC_RESULT_L = 0x22
RF_CFG = 0x26
T_MODE = 0x2A
T_PRESCALER = 0x2B
T_RELOAD_H = 0x2C
T_RELOAD_L = 0x2D
VERSION = 0x37

# Commands (CommandReg bits 3-0).
CMD_IDLE = 0x00
CMD_MEM = 0x01
CMD_CALC_CRC = 0x03
CMD_TRANSMIT = 0x04
CMD_NO_CMD_CHANGE = 0x07
CMD_RECEIVE = 0x08
CMD_TRANSCEIVE = 0x0C
CMD_AUTHENT = 0x0E
CMD_SOFT_RESET = 0x0F

# ComIrqReg bits.
IRQ_TX = 0x40
IRQ_RX = 0x20
IRQ_IDLE = 0x10
IRQ_ERR = 0x02
IRQ_TIMER = 0x01
# DivIrqReg bits.
DIV_CRC = 0x04
# ErrorReg bits.
ERR_BUFFER_OVFL = 0x10
ERR_COLL = 0x08
ERR_CRC = 0x04
ERR_PARITY = 0x02
ERR_PROTOCOL = 0x01

RESET_VALUES = {
    0x01: 0x20,
    0x02: 0x80,
    0x04: 0x14,
    0x07: 0x21,
    0x0B: 0x08,
    0x0C: 0x10,
    0x0E: 0x80,
    0x11: 0x3F,
    0x14: 0x80,
    0x16: 0x10,
    0x17: 0x84,
    0x18: 0x84,
    0x19: 0x4D,
    0x1C: 0x62,
    0x1F: 0xEB,
    0x21: 0xFF,
    0x22: 0xFF,
    0x24: 0x26,
    0x26: 0x48,
    0x27: 0x88,
    0x28: 0x20,
    0x29: 0x20,
}

FIFO_SIZE = 64

# Tag states.
IDLE = 0
READY = 1
ACTIVE = 2
HALT = 3

CASCADE_TAG = 0x88
SEL_CODES = (0x93, 0x95, 0x97)

# The two readings of CollReg's CollPos (see the module's text).
COLLPOS_FIFO = "fifo"          # NXP's: from bit 0 of the FIFO's first byte, RxAlign included
COLLPOS_RECEIVED = "received"  # from the first bit received
COLLPOS_READINGS = (COLLPOS_FIFO, COLLPOS_RECEIVED)


def crc_a(data):
    """ISO 14443-A CRC (preset 0x6363, reflected polynomial 0x8408) -> [low, high]."""
    crc = 0x6363
    for byte in data:
        byte = (byte ^ crc) & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = ((crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)) & 0xFFFF
    return [crc & 0xFF, crc >> 8]


def parse_uid(uid):
    """A UID as a list of ints, from hex text (separators ':' '-' ' ' allowed), bytes or ints."""
    if isinstance(uid, str):
        text = uid.replace(":", "").replace("-", "").replace(" ", "")
        if len(text) % 2:
            raise ValueError("UID hex text must have an even number of digits: " + uid)
        try:
            return [int(text[i : i + 2], 16) for i in range(0, len(text), 2)]
        except ValueError:
            raise ValueError("UID is not hex text: " + uid) from None
    return [int(b) & 0xFF for b in uid]


def uid_hex(uid):
    """Upper-case hex without separators, as drivers report UIDs."""
    return "".join(f"{b:02X}" for b in uid)


def bytes_to_bits(data, last_bits=0):
    """Bits in air order (LSB first); ``last_bits`` valid bits in the last byte (0 = 8)."""
    bits = []
    n = len(data)
    for i in range(n):
        count = 8
        if i == n - 1 and last_bits:
            count = last_bits
        for j in range(count):
            bits.append((data[i] >> j) & 1)
    return bits


def bits_to_int_list(bits, align=0):
    """Pack bits (LSB first) into bytes, the first stored at bit ``align`` of byte 0."""
    out = []
    pos = align
    for bit in bits:
        index = pos // 8
        while len(out) <= index:
            out.append(0)
        if bit:
            out[index] |= 1 << (pos % 8)
        pos += 1
    if not out and align:
        out.append(0)
    return out


class Tag:
    """An ISO 14443-A tag (4- or 7-byte UID) in an emulated field."""

    def __init__(self, uid, sak=None, atqa=None, pages=None):
        uid = parse_uid(uid)
        if len(uid) not in (4, 7):
            raise ValueError(f"only 4- and 7-byte UIDs are emulated, got {len(uid)} bytes: {uid_hex(uid)}")
        self.uid = uid
        self.hex = uid_hex(uid)
        if sak is None:
            sak = 0x08 if len(uid) == 4 else 0x00
        if atqa is None:
            atqa = 0x0004 if len(uid) == 4 else 0x0044
        self.sak = sak
        self.atqa = atqa
        if pages is None:
            pages = self._default_pages()
        self.pages = pages
        self.state = IDLE
        self.level = 0
        self.from_halt = False

    def _default_pages(self):
        # NTAG21x layout: UID bytes with their check bytes, then zeros.
        u = self.uid + [0] * (7 - len(self.uid))
        bcc0 = CASCADE_TAG ^ u[0] ^ u[1] ^ u[2]
        bcc1 = u[3] ^ u[4] ^ u[5] ^ u[6]
        pages = [[u[0], u[1], u[2], bcc0], [u[3], u[4], u[5], u[6]], [bcc1, 0x48, 0, 0]]
        for _ in range(42):
            pages.append([0, 0, 0, 0])
        return pages

    def levels(self):
        return 1 if len(self.uid) == 4 else 2

    def cln(self, level):
        """UID CLn for a cascade level: 4 bytes + BCC."""
        if len(self.uid) == 4:
            part = list(self.uid)
        elif level == 0:
            part = [CASCADE_TAG] + self.uid[0:3]
        else:
            part = self.uid[3:7]
        bcc = part[0] ^ part[1] ^ part[2] ^ part[3]
        return part + [bcc]

    def power_off(self):
        self.state = IDLE
        self.level = 0
        self.from_halt = False

    def _fallback(self):
        # An unexpected frame: back to where the tag was woken from.
        if self.state in (READY, ACTIVE):
            self.state = HALT if self.from_halt else IDLE
            self.level = 0

    def respond(self, bits):
        """The tag's answer (list of bits) to a frame, or None."""
        if len(bits) == 7:
            cmd = bits_to_int_list(bits)[0]
            if (cmd == 0x26 and self.state == IDLE) or (cmd == 0x52 and self.state in (IDLE, HALT)):
                self.from_halt = self.state == HALT
                self.state = READY
                self.level = 0
                return bytes_to_bits([self.atqa & 0xFF, self.atqa >> 8])
            self._fallback()
            return None
        if len(bits) < 16:
            self._fallback()
            return None
        head = bits_to_int_list(bits[0:16])
        sel = head[0]
        if sel in SEL_CODES and self.state == READY:
            return self._anticollision(sel, head[1], bits)
        if len(bits) % 8 == 0:
            data = bits_to_int_list(bits)
            if len(data) >= 3 and crc_a(data[:-2]) == data[-2:]:
                if data[0] == 0x50 and data[1] == 0 and len(data) == 4 and self.state == ACTIVE:
                    self.state = HALT
                    self.from_halt = False
                    return None
                if data[0] == 0x30 and len(data) == 4 and self.state == ACTIVE:
                    out = []
                    for k in range(4):
                        out += self.pages[(data[1] + k) % len(self.pages)]
                    return bytes_to_bits(out + crc_a(out))
        self._fallback()
        return None

    def _anticollision(self, sel, nvb, bits):
        level = SEL_CODES.index(sel)
        if level != self.level:
            self._fallback()
            return None
        cln_bits = bytes_to_bits(self.cln(level))
        if nvb == 0x70:
            if len(bits) != 72:
                self._fallback()
                return None
            data = bits_to_int_list(bits)
            if crc_a(data[0:7]) != data[7:9] or data[2:7] != self.cln(level):
                self._fallback()
                return None
            if level + 1 < self.levels():
                self.level = level + 1
                sak = [self.sak | 0x04]
            else:
                self.state = ACTIVE
                sak = [self.sak & ~0x04 & 0xFF]
            return bytes_to_bits(sak + crc_a(sak))
        known = ((nvb >> 4) - 2) * 8 + (nvb & 0x0F)
        if known < 0 or known >= 40 or len(bits) != 16 + known:
            self._fallback()
            return None
        if bits[16:] != cln_bits[0:known]:
            return None  # not this tag: it stays READY and keeps quiet
        return cln_bits[known:]


class RC522Chip:
    """One MFRC522 on an SPI chip select, with the tags in its antenna field."""

    def __init__(
        self, version=0x92, collpos=COLLPOS_FIFO, parity_on_collision=True, clock=None, spi_hz=1000000
    ):
        if collpos not in COLLPOS_READINGS:
            raise ValueError("collpos must be one of " + ", ".join(COLLPOS_READINGS) + ": " + str(collpos))
        self.version = version
        self.collpos = collpos
        self.parity_on_collision = parity_on_collision
        self.clock = clock
        self.spi_hz = spi_hz
        self.busy_cpu = 0.0
        self._pending = None  # (time, outcome) of a frame still on the air
        self.on_irq = None  # called with the IRQ pin's new level when it changes
        self._irq_level = None
        self._lock = None
        self.tags = []
        self.connected = True
        self.transfers = 0
        self.bytes_transferred = 0
        self.frames = 0
        self.hard_reset()

    # -- the field -----------------------------------------------------------------

    def add_tag(self, uid, sak=None, atqa=None, pages=None):
        tag = Tag(uid, sak, atqa, pages)
        for other in self.tags:
            if other.hex == tag.hex:
                raise ValueError(f"tag {tag.hex} is already in the field")
        self.tags.append(tag)
        return tag

    def remove_tag(self, uid):
        wanted = uid_hex(parse_uid(uid))
        for tag in self.tags:
            if tag.hex == wanted:
                self.tags.remove(tag)
                return tag
        raise KeyError(f"tag {wanted} is not in the field")

    def clear_tags(self):
        self.tags = []

    def uids(self):
        return [tag.hex for tag in self.tags]

    # -- reset ---------------------------------------------------------------------

    def hard_reset(self):
        self.regs = [0] * 64
        for addr in RESET_VALUES:
            self.regs[addr] = RESET_VALUES[addr]
        self.regs[VERSION] = self.version
        self.fifo = []
        self.rx_last_bits = 0
        self._pending = None
        for tag in self.tags:
            tag.power_off()

    def _soft_reset(self):
        # SoftReset also switches the antenna off, so every tag loses power.
        self.hard_reset()

    def antenna_on(self):
        return (self.regs[TX_CONTROL] & 0x03) != 0

    # -- SPI -----------------------------------------------------------------------

    def xfer2(self, data):
        """One SPI transfer: the bytes sent (MOSI) in, the bytes read (MISO) out."""
        if self.clock is None:
            return self._xfer(data)
        started = _cpu_now()
        if self._lock is None:
            out = self._xfer(data)
        else:
            with self._lock:
                out = self._xfer(data)
                self._update_irq()
        self.busy_cpu += _cpu_now() - started
        self.clock.advance(len(data) * 8 / self.spi_hz)
        return out

    # -- the IRQ pin -------------------------------------------------------------------

    def wire_irq(self, on_irq):
        """Wire the IRQ pin (CPython, timed chips): ``on_irq(level)`` is called, from a
        timer thread when a frame ends, whenever the pin's level changes."""
        import threading

        self._lock = threading.Lock()
        self.on_irq = on_irq
        self._update_irq()

    def irq_level(self):
        """The IRQ pin: active while a ComIrqReg bit enabled in ComIEnReg (or a DivIrqReg
        bit enabled in DivIEnReg) is set; active is low while ComIEnReg.IRqInv is set."""
        active = (self.regs[COM_IRQ] & self.regs[COM_IEN] & 0x7F) or (
            self.regs[DIV_IRQ] & self.regs[DIV_IEN] & 0x14
        )
        level = 1 if active else 0
        return 1 - level if self.regs[COM_IEN] & 0x80 else level

    def _update_irq(self):
        if self.on_irq is None:
            return
        level = self.irq_level()
        if level != self._irq_level:
            self._irq_level = level
            self.on_irq(level)

    def _fire(self):
        with self._lock:
            started = _cpu_now()
            self._settle()
            self.busy_cpu += _cpu_now() - started  # the chip's own work; the pin's callback is not
            self._update_irq()

    def _xfer(self, data):
        self.transfers += 1
        self.bytes_transferred += len(data)
        out = [0] * len(data)
        if not self.connected or not data:
            return out
        first = data[0]
        addr = (first >> 1) & 0x3F
        if first & 0x80:
            # Each byte clocks out the register addressed by the byte before it.
            for i in range(1, len(data)):
                out[i] = self.read_register(addr)
                addr = (data[i] >> 1) & 0x3F
        else:
            for i in range(1, len(data)):
                self.write_register(addr, data[i] & 0xFF)
        return out

    # -- registers -------------------------------------------------------------------

    def read_register(self, addr):
        if self._pending is not None:
            self._settle()
        if addr == FIFO_DATA:
            if self.fifo:
                return self.fifo.pop(0)
            return 0
        if addr == FIFO_LEVEL:
            return len(self.fifo) & 0x7F
        if addr == CONTROL:
            return (self.regs[CONTROL] & 0xF8) | self.rx_last_bits
        return self.regs[addr]

    def write_register(self, addr, value):
        if self._pending is not None:
            self._settle()
        if addr == FIFO_DATA:
            if len(self.fifo) < FIFO_SIZE:
                self.fifo.append(value)
            else:
                self.regs[ERROR] |= ERR_BUFFER_OVFL
            return
        if addr == FIFO_LEVEL:
            if value & 0x80:
                self.fifo = []
                self.regs[ERROR] &= ~ERR_BUFFER_OVFL & 0xFF
            return
        if addr in (COM_IRQ, DIV_IRQ):
            if value & 0x80:
                self.regs[addr] |= value & 0x7F
            else:
                self.regs[addr] &= ~value & 0x7F
            return
        if addr in (VERSION, ERROR, STATUS1):
            return  # read-only
        if addr == COMMAND:
            self._command(value)
            return
        if addr == TX_CONTROL:
            was_on = self.antenna_on()
            self.regs[addr] = value
            if was_on and not self.antenna_on():
                for tag in self.tags:
                    tag.power_off()
            return
        if addr == COLL:
            self.regs[COLL] = (self.regs[COLL] & 0x7F) | (value & 0x80)
            return
        self.regs[addr] = value
        if addr == BIT_FRAMING and value & 0x80 and (self.regs[COMMAND] & 0x0F) == CMD_TRANSCEIVE:
            self._exchange()

    def _settle(self):
        """Apply the outcome of a frame whose time has come."""
        if self._pending is not None and self.clock.now() >= self._pending[0]:
            outcome = self._pending[1]
            self._pending = None
            self._apply(outcome)

    def _command(self, value):
        cmd = value & 0x0F
        if cmd != CMD_NO_CMD_CHANGE:
            self._pending = None  # a new command stops the frame in progress
        if cmd == CMD_SOFT_RESET:
            self._soft_reset()
            return
        if cmd == CMD_NO_CMD_CHANGE:
            self.regs[COMMAND] = (self.regs[COMMAND] & 0x0F) | (value & 0x30)
            return
        self.regs[COMMAND] = value & 0x3F
        if cmd == CMD_CALC_CRC:
            crc = crc_a(self.fifo)
            self.fifo = []
            self.regs[CRC_RESULT_L] = crc[0]
            self.regs[CRC_RESULT_H] = crc[1]
            self.regs[DIV_IRQ] |= DIV_CRC
        elif cmd == CMD_TRANSMIT:
            self._exchange(answer=False)
        elif cmd == CMD_IDLE:
            pass
        elif cmd != CMD_TRANSCEIVE:
            # Receive, Mem, Authent and the rest: not emulated, the chip goes idle.
            self.regs[COMMAND] = CMD_IDLE
            self.regs[COM_IRQ] |= IRQ_IDLE

    # -- the air -------------------------------------------------------------------

    def _exchange(self, answer=True):
        framing = self.regs[BIT_FRAMING]
        tx_last = framing & 0x07
        rx_align = (framing >> 4) & 0x07
        sent = self.fifo
        self.fifo = []
        if self.regs[TX_MODE] & 0x80 and sent:
            sent = sent + crc_a(sent)
            tx_last = 0
        bits = bytes_to_bits(sent, tx_last)
        self.frames += 1
        self.regs[COM_IRQ] |= IRQ_TX
        self.regs[ERROR] &= ERR_BUFFER_OVFL
        self.regs[COLL] = (self.regs[COLL] & 0x80) | 0x20
        self.rx_last_bits = 0
        answers = []
        if self.antenna_on():
            for tag in self.tags:
                reply = tag.respond(bits)
                if reply is not None:
                    answers.append(reply)
        if not answer:
            self.regs[COMMAND] = CMD_IDLE
            self.regs[COM_IRQ] |= IRQ_IDLE
            return
        sent_at = self.clock.now() + air_time(len(bits)) if self.clock is not None else 0.0
        timer_s = self._timer_period() if self.regs[T_MODE] & 0x80 else None
        if answers and timer_s is not None and timer_s < FDT_S + 5 * BIT_S:
            answers = []  # the timer ran out before the answer's 5th bit
        if not answers:
            if timer_s is not None:
                self._schedule(sent_at + timer_s, None)
            return
        length = 0
        for reply in answers:
            if len(reply) > length:
                length = len(reply)
        self._schedule(sent_at + FDT_S + air_time(length), (answers, rx_align))

    def _timer_period(self):
        prescaler = ((self.regs[T_MODE] & 0x0F) << 8) | self.regs[T_PRESCALER]
        reload = (self.regs[T_RELOAD_H] << 8) | self.regs[T_RELOAD_L]
        return (2 * prescaler + 1) * (reload + 1) / CARRIER_HZ

    def _schedule(self, at, outcome):
        if self.clock is None:
            self._apply(outcome)
            return
        self._pending = (at, outcome)
        if self.on_irq is not None:
            import threading

            timer = threading.Timer(max(0.0, at - self.clock.now()), self._fire)
            timer.daemon = True
            timer.start()

    def _apply(self, outcome):
        """What the registers show once a frame is over: the timer ran out, or answers came."""
        if outcome is None:
            self.regs[COM_IRQ] |= IRQ_TIMER
            return
        answers, rx_align = outcome
        received = self._merge(answers, rx_align)
        if self.regs[RX_MODE] & 0x80:
            received = self._strip_crc(received)
        self.fifo = bits_to_int_list(received, rx_align)[0:FIFO_SIZE]
        self.rx_last_bits = (rx_align + len(received)) % 8
        irq = IRQ_RX
        if self.regs[ERROR] & 0x1F:
            irq |= IRQ_ERR
        self.regs[COM_IRQ] |= irq

    def _merge(self, answers, rx_align=0):
        """What the receiver hears when several tags answer at once."""
        length = 0
        for reply in answers:
            if len(reply) > length:
                length = len(reply)
        received = []
        collision = -1
        for i in range(length):
            values = [reply[i] for reply in answers if i < len(reply)]
            one = 1 if 1 in values else 0
            if collision < 0 and (len(values) < len(answers) or (0 in values and 1 in values)):
                collision = i
            if collision >= 0 and i > collision and not self.regs[COLL] & 0x80:
                one = 0
            received.append(one)
        if collision >= 0:
            self.regs[ERROR] |= ERR_COLL
            if self.parity_on_collision:
                self.regs[ERROR] |= ERR_PARITY
            position = collision + 1
            if self.collpos == COLLPOS_FIFO:
                position += rx_align
            if position <= 32:
                self.regs[COLL] = (self.regs[COLL] & 0x80) | (position % 32)
        return received

    def _strip_crc(self, bits):
        if len(bits) % 8 or len(bits) < 24:
            self.regs[ERROR] |= ERR_CRC
            return bits
        data = bits_to_int_list(bits)
        if crc_a(data[:-2]) != data[-2:]:
            self.regs[ERROR] |= ERR_CRC
            return bits
        return bits[:-16]
