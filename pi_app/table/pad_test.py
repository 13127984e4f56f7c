"""`tablekeeper doctor --read-test PAD --tags N`: how well one pad reads N tags laid on it.

The builder lays N tags on the pad; the reader is polled at 20 Hz for a set
time, and the report gives polls and tag reads per second, complete polls (all
N tags seen) per hundred, each tag's misses, the chip's version and which
reading of CollReg's CollPos it follows, and says in words what to change when
a figure is bad. It is written to be pasted whole into a bug report.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from drivers.base import ReaderError
from drivers.rc522 import chip as rc

POLL_INTERVAL_S = 0.05  # 20 Hz, as the table polls its readers
GOOD_COMPLETE_PER_100 = 95.0
GOOD_POLLS_PER_S = 15.0

_READINGS = {
    rc.COLLPOS_FIFO: "NXP's (counted from bit 0 of the FIFO's first byte, RxAlign included)",
    rc.COLLPOS_RECEIVED: "the other (counted from the first bit received)",
}


@dataclass
class ReadTest:
    """What one read test saw."""

    pad: str
    where: str
    tags: int  # how many the builder laid
    seconds: float = 0.0
    polls: int = 0
    counts: Counter[str] = field(default_factory=Counter)  # polls that saw each UID
    complete: int = 0  # polls that saw every laid tag
    errors: list[str] = field(default_factory=list)
    version: int | None = None
    collpos: str | None = None
    chip: bool = False  # an RC522 the project's driver talks to (version and CollPos known)

    def laid(self) -> list[str]:
        """The tags taken to be the ones laid: the N seen most often."""
        return [uid for uid, _ in self.counts.most_common(self.tags)]

    def extra(self) -> list[str]:
        laid = set(self.laid())
        return sorted(uid for uid in self.counts if uid not in laid)


def run(
    reader: Any,
    pad: str,
    where: str,
    tags: int,
    seconds: float,
    *,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> ReadTest:
    """Poll ``reader`` for ``seconds`` at 20 Hz and count what it saw."""
    result = ReadTest(pad, where, tags, chip=hasattr(reader, "collpos_reading"))
    if hasattr(reader, "confirm_every"):
        reader.confirm_every = 1  # every poll a census: a tag it misses is counted, not remembered
    polled: list[frozenset[str]] = []
    start = clock()
    next_poll = start
    while clock() - start < seconds - 1e-9:  # (1e-9: sums of 0.05 s drift past a whole second)
        try:
            seen = reader.poll()
        except ReaderError as err:
            result.errors.append(str(err))
            seen = frozenset()
        polled.append(seen)
        result.counts.update(seen)
        next_poll += POLL_INTERVAL_S
        wait = next_poll - clock()
        if wait > 0:
            sleep(wait)
    result.seconds = max(clock() - start, 1e-9)
    result.polls = len(polled)
    laid = set(result.laid())
    if len(laid) == tags:
        result.complete = sum(laid <= seen for seen in polled)
    if result.chip:
        try:
            result.version = reader.version()
        except ReaderError as err:
            result.errors.append(str(err))
        result.collpos = reader.collpos_reading
    return result


def advice(result: ReadTest) -> list[str]:
    """What to change, in words, for each figure that is bad."""
    out: list[str] = []
    seen = len(result.counts)
    if result.errors:
        out.append(
            f"The reader failed {len(result.errors)} time(s). Check its 3.3 V supply and the MOSI, MISO, "
            "SCK and chip-select wires; with long cables lower the SPI clock (speed_hz = 1000000)."
        )
    if result.polls and not seen:
        out.append(
            "No tag was read. Use 13.56 MHz NFC-A tags (NTAG21x or MIFARE), lay them flat within 2 cm of "
            "the antenna with nothing metal between, and raise the antenna gain (antenna_gain_db = 43 or 48)."
        )
    elif seen < result.tags:
        out.append(
            f"Only {seen} of the {result.tags} tags were ever read. Spread the tags so that none overlaps "
            "another (at least 1 cm apart), keep them over the antenna's centre, and raise the antenna gain "
            "(antenna_gain_db = 43 or 48). An RC522 reads about 2 to 4 tags reliably."
        )
    if result.extra():
        out.append(
            f"{len(result.extra())} more UID(s) than tags laid were read. A tag on a neighbouring pad is in "
            "range (move the pads apart or lower the antenna gain), or reads are garbled: lower the SPI "
            "clock (speed_hz = 1000000) and check the MISO line (see hardware/wiring.md)."
        )
    per_100 = 100 * result.complete / result.polls if result.polls else 0.0
    if seen >= result.tags and result.polls and per_100 < GOOD_COMPLETE_PER_100:
        out.append(
            f"Only {per_100:.0f} polls in 100 saw every tag. Increase the spacing between tags, keep "
            "them flat over the antenna, and raise the antenna gain (antenna_gain_db = 43 or 48)."
        )
    polls_per_s = result.polls / result.seconds
    if result.polls and polls_per_s < GOOD_POLLS_PER_S:
        out.append(
            f"Polls are slow ({polls_per_s:.1f} a second, 20 wanted). Lower timeout_ms (1 is enough for "
            "ISO 14443-A tags) or fewer tags per pad; check the machine's load."
        )
    version = result.version
    if version is not None and version not in rc.KNOWN_VERSIONS and rc.chip_answers(version):
        out.append(
            f"The chip reports VersionReg 0x{version:02X}, not a known MFRC522 version (probably a clone). "
            "It is read as an MFRC522; if reads are poor, say so in the bug report with this output."
        )
    return out


def report(result: ReadTest) -> list[str]:
    """The read test's figures and advice, lines ready to paste into a bug report."""
    polls_per_s = result.polls / result.seconds if result.seconds else 0.0
    reads = sum(result.counts.values())
    per_100 = 100 * result.complete / result.polls if result.polls else 0.0
    lines = [
        f"read test: {result.pad} ({result.where}), {result.tags} tag(s) laid, {result.seconds:.1f} s",
        f"  polls: {result.polls} ({polls_per_s:.1f} a second)",
        f"  tag reads: {reads} ({reads / result.seconds:.1f} a second)",
        f"  complete polls (all {result.tags} tags seen): {per_100:.0f} in 100",
    ]
    for uid in result.laid():
        lines.append(f"  tag {uid}: missed {result.polls - result.counts[uid]} of {result.polls} polls")
    for uid in result.extra():
        lines.append(f"  also read: {uid} ({result.counts[uid]} polls)")
    if result.chip:
        version = "unknown (no answer)" if result.version is None else rc.describe_version(result.version)
        lines.append(f"  chip version: {version}")
        reading = _READINGS.get(result.collpos or "", "not shown yet (needs 2 or more tags that collide)")
        lines.append(f"  CollPos reading: {reading}")
    if result.errors:
        lines.append(f"  reader errors: {len(result.errors)}; first: {result.errors[0]}")
    said = advice(result)
    lines.append("  verdict: " + ("good" if not said else "needs attention"))
    lines += [f"  - {line}" for line in said]
    return lines
