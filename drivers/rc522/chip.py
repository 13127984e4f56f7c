"""The MFRC522's registers, commands and ISO 14443-A codes the driver uses (datasheet §9, §10)."""

from __future__ import annotations

# Registers.
COMMAND = 0x01
COM_IEN = 0x02
DIV_IEN = 0x03
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
RF_CFG = 0x26
T_MODE = 0x2A
T_PRESCALER = 0x2B
T_RELOAD_H = 0x2C
T_RELOAD_L = 0x2D
VERSION = 0x37

# CommandReg commands.
CMD_IDLE = 0x00
CMD_TRANSCEIVE = 0x0C
CMD_SOFT_RESET = 0x0F
POWER_DOWN = 0x10

# ComIEnReg / DivIEnReg bits.
IRQ_INVERTED = 0x80  # ComIEnReg.IRqInv: the IRQ pin is low while an interrupt is up
IRQ_PUSH_PULL = 0x80  # DivIEnReg.IRQPushPull
# ComIrqReg bits.
IRQ_RX = 0x20
IRQ_IDLE = 0x10
IRQ_TIMER = 0x01
# ErrorReg bits.
ERR_BUFFER_OVFL = 0x10
ERR_COLL = 0x08
ERR_CRC = 0x04
ERR_PARITY = 0x02
ERR_PROTOCOL = 0x01
# CollReg bits.
COLL_POS_NOT_VALID = 0x20
COLL_POS_MASK = 0x1F
# The two readings of CollPos: NXP's (from bit 0 of the FIFO's first byte, RxAlign
# included) and the other (from the first bit received).
COLLPOS_FIFO = "fifo"
COLLPOS_RECEIVED = "received"

START_SEND = 0x80
FLUSH_BUFFER = 0x80
CRC_ENABLE = 0x80  # TxModeReg.TxCRCEn / RxModeReg.RxCRCEn
T_AUTO = 0x80
ANTENNA_BITS = 0x03
FORCE_100_ASK = 0x40
MODE_CRC_6363 = 0x3D

# VersionReg values of genuine chips and common clones. Cheap boards report others
# too (0x12 and more); those are read as an MFRC522 with a note. Only 0x00/0xFF
# (MISO held low or floating high) mean that nothing answers.
KNOWN_VERSIONS = {0x88: "FM17522 clone", 0x90: "v0.0", 0x91: "v1.0", 0x92: "v2.0", 0xB2: "FM17522 clone"}
NO_ANSWER_VERSIONS = (0x00, 0xFF)


def chip_answers(version: int) -> bool:
    """False when VersionReg reads what an unwired or unpowered chip gives."""
    return version not in NO_ANSWER_VERSIONS


def describe_version(version: int) -> str:
    """VersionReg in words, for notes and the doctor's read test."""
    if version in KNOWN_VERSIONS:
        return f"0x{version:02X} ({KNOWN_VERSIONS[version]})"
    if not chip_answers(version):
        return f"0x{version:02X} (no chip answers)"
    return f"0x{version:02X} (not a known MFRC522 version: probably a clone; read as an MFRC522)"

# Receiver gain (RFCfgReg.RxGain) codes by dB.
RX_GAIN_DB = {18: 0x02, 23: 0x03, 33: 0x04, 38: 0x05, 43: 0x06, 48: 0x07}

# The timer ticks at 13.56 MHz / (2 * prescaler + 1): 0xA9 gives 40 kHz, 25 µs a tick.
TIMER_PRESCALER = 0xA9
TIMER_TICKS_PER_MS = 40

# ISO 14443-A at 106 kbit/s: a bit is 128 carrier cycles; a tag answers REQA, WUPA,
# anticollision and SELECT 1236 cycles after the frame ends. With TAuto the timer
# starts at the end of the frame and stops at the answer's 5th bit, so a tag needs
# FDT + 5 bits (0.14 ms) of it; 1 ms leaves room for slow clones.
CARRIER_HZ = 13_560_000
BIT_S = 128 / CARRIER_HZ
FDT_S = 1236 / CARRIER_HZ
DEFAULT_TIMEOUT_MS = 1.0

# SPI clock: the MFRC522 takes up to 10 Mbit/s. At 1 MHz a poll's register
# traffic (about 130 bytes for one 7-byte tag) takes 1 ms of the Pi's CPU, since
# its SPI driver busy-polls short transfers; 4 MHz (common practice for this chip)
# makes that a quarter. Lower it for long reader cables.
DEFAULT_SPI_HZ = 4_000_000


def air_time(bits: int) -> float:
    """Seconds a frame of ``bits`` data bits takes on the air, with parity bits, SOF and EOF."""
    return (bits + bits // 8 + 2) * BIT_S

# ISO 14443-A.
REQA = 0x26
WUPA = 0x52
HLTA = (0x50, 0x00)
SELECT_CODES = (0x93, 0x95, 0x97)
NVB_SELECT = 0x70
CASCADE_TAG = 0x88
SAK_CASCADE = 0x04


def crc_a(data: list[int]) -> list[int]:
    """ISO 14443-3 CRC_A (preset 0x6363, reflected polynomial 0x8408), low byte first."""
    crc = 0x6363
    for byte in data:
        byte = (byte ^ crc) & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = ((crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)) & 0xFFFF
    return [crc & 0xFF, crc >> 8]


def read_address(register: int) -> int:
    return 0x80 | (register << 1)


def write_address(register: int) -> int:
    return register << 1
