"""The reader hub's line protocol, host side (see firmware/PROTOCOL.md).

Hub lines are ``$seq,TYPE,fields*CC``; commands to the hub are ``$TYPE,fields*CC``.
CC is CRC-8/SMBUS (poly 0x07, init 0) of the text between ``$`` and ``*``.
"""

from __future__ import annotations

from dataclasses import dataclass

PROTOCOL_VERSION = 2
#: the versions this driver reads: a protocol 1 hub has readers but no buttons
SUPPORTED_PROTOCOLS = ("1", "2")
SEQ_MOD = 65536
MAX_LINE = 255


def _table() -> bytes:
    out = bytearray(256)
    for i in range(256):
        c = i
        for _ in range(8):
            c = ((c << 1) ^ 0x07) & 0xFF if c & 0x80 else (c << 1) & 0xFF
        out[i] = c
    return bytes(out)


_TABLE = _table()


def crc8(data: bytes | str) -> int:
    if isinstance(data, str):
        data = data.encode("ascii")
    c = 0
    for b in data:
        c = _TABLE[c ^ b]
    return c


class LineError(ValueError):
    """A line from the hub that is not a valid frame."""

    def __init__(self, reason: str, line: str) -> None:
        super().__init__(f"{reason}: {line!r}")
        self.reason = reason
        self.line = line


class BadChecksum(LineError):
    pass


@dataclass(frozen=True)
class HubLine:
    seq: int
    kind: str
    fields: list[str]


def parse_hub_line(text: str | bytes) -> HubLine:
    """Parse one line from the hub; raises BadChecksum or LineError."""
    if isinstance(text, bytes):
        text = text.decode("ascii", "replace")
    line = text.strip()
    start = line.rfind("$")
    if start < 0:
        raise LineError("no $", line)
    frame = line[start + 1 :]
    star = frame.rfind("*")
    if star < 0 or len(frame) - star != 3:
        raise LineError("no checksum", line)
    body, cc = frame[:star], frame[star + 1 :]
    if not frame.isascii():  # line noise (a flipped high bit); the checksum is over ASCII text
        raise LineError("not ASCII", line)
    try:
        got = int(cc, 16)
    except ValueError:
        raise LineError("checksum is not hex", line) from None
    if got != crc8(body):
        raise BadChecksum("bad checksum", line)
    parts = body.split(",")
    if len(parts) < 2 or not parts[0].isdigit() or not parts[1]:
        raise LineError("want $seq,TYPE", line)
    seq = int(parts[0])
    if seq >= SEQ_MOD:
        raise LineError("seq out of range", line)
    return HubLine(seq, parts[1], parts[2:])


def command(kind: str, *fields: object) -> bytes:
    """A command line for the hub, e.g. ``command("HOLD", 3, 500)``."""
    for f in (kind, *fields):
        if any(ch in str(f) for ch in "$*,\r\n"):
            raise ValueError(f"command field {f!r} contains a framing character ($ * , or newline)")
    body = ",".join([kind, *(str(f) for f in fields)])
    return f"${body}*{crc8(body):02X}\n".encode("ascii")


def next_seq(seq: int) -> int:
    return (seq + 1) % SEQ_MOD
