# Line framing of the hub protocol (see PROTOCOL.md): `$seq,TYPE,fields*CC`.
# MicroPython; also runs on CPython.

PROTOCOL_VERSION = 2
MAX_LINE = 255
SEQ_MOD = 65536


def _crc8_table():
    table = bytearray(256)
    for i in range(256):
        c = i
        for _ in range(8):
            c = ((c << 1) ^ 0x07) & 0xFF if c & 0x80 else (c << 1) & 0xFF
        table[i] = c
    return table


_TABLE = _crc8_table()


def crc8(data):
    """CRC-8/SMBUS of a str or bytes."""
    if isinstance(data, str):
        data = data.encode()
    c = 0
    for b in data:
        c = _TABLE[c ^ b]
    return c


def clean(text):
    # Field text must not break the framing.
    text = str(text)
    for ch in "$*,\r\n":
        text = text.replace(ch, " ")
    return text


def frame(body):
    return "$%s*%02X\n" % (body, crc8(body))


def hub_line(seq, kind, fields=()):
    parts = [str(seq), kind]
    for f in fields:
        parts.append(str(f))
    return frame(",".join(parts))


class BadLine(Exception):
    """A received line that is not a valid frame; args[0] is the reason."""


def parse_command(line):
    """`$TYPE,fields*CC` -> [TYPE, field, ...]. Raises BadLine(reason, detail)."""
    line = line.strip()
    start = line.rfind("$")
    if start < 0:
        raise BadLine("no $", "")
    line = line[start + 1:]
    star = line.rfind("*")
    if star < 0 or len(line) - star != 3:
        raise BadLine("no checksum", "")
    body = line[:star]
    want = "%02X" % crc8(body)
    if line[star + 1:].upper() != want:
        raise BadLine("bad checksum", want)
    parts = body.split(",")
    if not parts[0]:
        raise BadLine("empty command", "")
    parts[0] = parts[0].upper()
    return parts
