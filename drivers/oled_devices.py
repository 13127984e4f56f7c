"""luma.oled's SH1106 and SSD1306, sending only what changed.

luma's own ``display()`` sends all eight pages every time (1,024 bytes of
pixels, 1,130 on the wire with the control bytes, 32-byte SMBus blocks and a
TCA9548A select): about 25 ms on a 400 kHz bus. These subclasses keep the
pages each screen last received and send, per changed page, only the columns
from the first to the last changed byte. luma's ``diff_to_previous``
framebuffer does the like only for its colour devices.

A screen whose frame failed half-way may have lost power: the next frame
sends the controller's set-up again (as luma's constructor did) and the whole
frame, and only then switches the panel on.
"""

from __future__ import annotations

import errno
import re
from functools import lru_cache
from typing import Any

from luma.core.error import DeviceNotFoundError
from luma.core.interface.serial import i2c as luma_i2c
from luma.oled.device import sh1106, ssd1306
from PIL import Image
from smbus2 import i2c_msg

# bit order of a byte reversed: PIL packs the leftmost pixel in the high bit,
# the controllers take the top pixel of a page in the low bit
_REVERSED = bytes(int(f"{b:08b}"[::-1], 2) for b in range(256))


def page_bytes(image: Image.Image, pages: int) -> list[bytes]:
    """The frame as the controllers store it: per page of 8 rows, one byte per
    column whose bit ``i`` is row ``8 * page + i``."""
    # Transposed, each row of the image is a column of the frame, 8 bytes deep.
    columns = image.transpose(Image.Transpose.TRANSPOSE).tobytes().translate(_REVERSED)
    return [columns[page::pages] for page in range(pages)]


def changed_window(old: bytes | None, new: bytes) -> tuple[int, int] | None:
    """``(start, end)`` of the columns that differ (end exclusive); None when none do."""
    if old is None:
        return 0, len(new)
    if old == new:
        return None
    start = 0
    while old[start] == new[start]:
        start += 1
    end = len(new)
    while old[end - 1] == new[end - 1]:
        end -= 1
    return start, end


def changed_windows(old: bytes | None, new: bytes, gap: int) -> list[tuple[int, int]]:
    """The changed columns as windows ``(start, end)``: two changes closer than
    ``gap`` unchanged columns share a window (sending the columns between
    costs less than addressing a second window)."""
    if old is None:
        return [(0, len(new))]
    if old == new:
        return []
    # the columns that differ are the non-zero bytes of old XOR new; a window
    # ends only where ``gap`` or more unchanged columns follow, so the
    # regular expression looks, in C, for those runs of zeros alone (a line
    # of text changes dozens of short runs of columns, a turn's end a few
    # long ones), not for every changed run
    xor = (int.from_bytes(old, "big") ^ int.from_bytes(new, "big")).to_bytes(len(new), "big")
    windows: list[tuple[int, int]] = []
    start = len(xor) - len(xor.lstrip(b"\0"))  # the first changed column
    for run in _unchanged(gap).finditer(xor, start):
        windows.append((start, run.start()))  # between two such runs: changed at both ends
        start = run.end()
    end = len(xor.rstrip(b"\0"))  # after the last changed column
    if start < end:
        windows.append((start, end))
    return windows


@lru_cache(maxsize=8)
def _unchanged(gap: int) -> re.Pattern[bytes]:
    """``gap`` or more unchanged columns in a row (zeros of old XOR new)."""
    return re.compile(b"\x00{%d,}" % gap)


#: the most data one I2C_RDWR message carries here (luma's own limit for it)
RDWR_MAX = 4096


class PageI2c(luma_i2c):
    """luma's I2C interface sending each run of data (a page's changed
    window, up to a whole page) in one transaction: the kernel's I2C_RDWR
    (smbus2's ``i2c_rdwr``). luma does that only on a bus it opened itself;
    on a bus it is handed (shared by the screens, behind the multiplexer)
    it sends 32-byte SMBus blocks, so a whole page was five transactions,
    each with its address, control byte and system call, instead of one."""

    def window(self, commands: bytes, data: bytes) -> None:
        """A page's column window: its addressing commands and its data in
        one I2C_RDWR of two messages, one system call and one combined
        transaction (a repeated START between them: the kernel's
        i2c-bcm2835 has sent those since "i2c: bcm2835: Add support for
        Repeated Start Condition", 2016) instead of a command block and a
        data write, each a transaction and a call of its own."""
        if len(data) + 1 > RDWR_MAX:
            raise ValueError(f"a window of {len(data)} bytes: at most {RDWR_MAX - 1}")
        messages = (i2c_msg.write(self._addr, bytes((self._cmd_mode,)) + commands),
                    i2c_msg.write(self._addr, bytes((self._data_mode,)) + data))
        try:
            self._bus.i2c_rdwr(*messages)
        except OSError as err:  # as luma's own command() says it
            if err.errno in (errno.EREMOTEIO, errno.EIO):
                raise DeviceNotFoundError(f"I2C device not found on address: 0x{self._addr:02X}") from err
            raise

    def data(self, data: Any) -> None:
        # as bytes, not a list of ints: smbus2 copies bytes into its buffer at
        # once, where a list is unpacked int by int (7 us a page here)
        payload = bytes(data)
        mode = bytes((self._data_mode,))
        for start in range(0, len(payload), RDWR_MAX):
            message = i2c_msg.write(self._addr, mode + payload[start:start + RDWR_MAX])
            try:
                self._bus.i2c_rdwr(message)
            except OSError as err:  # as luma's own command() says it
                if err.errno in (errno.EREMOTEIO, errno.EIO):
                    raise DeviceNotFoundError(f"I2C device not found on address: 0x{self._addr:02X}") from err
                raise


class _ChangedPages:
    """What both controllers share: the pages last sent, the set-up to send
    again after a failure. A subclass says how a page's column window is addressed."""

    _pages: int
    _const: Any
    #: unchanged columns worth a window of their own: addressing one costs a
    #: command message and a data message's address and control byte, i.e.
    #: (its command's bytes + 2 + 2) * 9 clocks and 3 for START, the repeated
    #: START and STOP, against 9 clocks a column sent
    _gap: int

    def _start_recording(self) -> None:
        self._shown: list[bytes] | None = None  # None: whole frame next
        self._packed: tuple[Image.Image, list[bytes]] | None = None  # the last frame packed, and its pages
        self._setup: list[tuple[int, ...]] | None = []  # the constructor's commands
        self._lost = False  # a frame failed: the controller may have been reset
        self._replay: list[tuple[int, ...]] = []

    def command(self, *cmd: int) -> None:
        if self._setup is not None:
            self._setup.append(cmd)
        super().command(*cmd)  # type: ignore[misc]

    def _window_commands(self, page: int, start: int, end: int) -> tuple[int, ...]:
        """The commands that make the next data bytes land at ``page``, columns ``start`` to ``end``."""
        raise NotImplementedError

    def pages_of(self, image: Image.Image) -> list[bytes]:
        """``image`` as this controller stores it (:func:`page_bytes`, after
        luma's rotation): one-to-one with its pixels, so a screen tells an
        unchanged frame by them, and :meth:`display` of the same image
        object takes them as they are (packing a frame is two of its
        bytes' conversions and a transposition: most of a frame's CPU here)."""
        pages = page_bytes(self.preprocess(image), self._pages)  # type: ignore[attr-defined]
        self._packed = (image, pages)  # one frame kept: the one about to be displayed
        return pages

    def display(self, image: Image.Image) -> None:
        assert image.mode == self.mode  # type: ignore[attr-defined]
        assert image.size == self.size  # type: ignore[attr-defined]
        setup, self._setup = self._setup, None  # the constructor's frame ends its set-up
        packed = self._packed  # read once: a sender's thread displays while the loop packs the next
        pages = packed[1] if packed is not None and packed[0] is image else page_bytes(
            self.preprocess(image), self._pages)  # type: ignore[attr-defined]
        shown, self._shown = self._shown, None  # failing half-way leaves it unknown
        lost, self._lost = self._lost, True
        if lost:
            for cmd in self._replay:
                if cmd != (self._const.DISPLAYON,):
                    super().command(*cmd)  # type: ignore[misc]
            shown = None
        serial = self._serial_interface  # type: ignore[attr-defined]
        one_call = isinstance(serial, PageI2c)
        for page, new in enumerate(pages):
            for start, end in changed_windows(None if shown is None else shown[page], new, self._gap):
                if one_call:
                    serial.window(bytes(self._window_commands(page, start, end)), new[start:end])
                else:  # SPI (D/C a line of its own): a command, then the data
                    super().command(*self._window_commands(page, start, end))  # type: ignore[misc]
                    self.data(list(new[start:end]))  # type: ignore[attr-defined]
        if lost:
            super().command(self._const.DISPLAYON)  # type: ignore[misc]
        if setup is not None:
            self._replay = setup
        self._lost = False
        self._shown = pages

    def forget(self) -> None:
        """Send the whole frame next time (the screen's RAM is not known)."""
        self._shown = None


class Sh1106(_ChangedPages, sh1106):
    """luma's sh1106 sending only changed column windows. Page addressing:
    page ``0xB0 | p``, then the column's low and high nibbles; RAM is 132
    columns wide and the 128 on the glass start at ``page_address_offset`` (2)."""

    _gap = 8  # a 3-byte command: (3 + 4) * 9 + 3 = 66 clocks, 7.3 columns

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._start_recording()
        super().__init__(*args, **kwargs)

    def _window_commands(self, page: int, start: int, end: int) -> tuple[int, ...]:
        column = start + self._page_address_offset
        return 0xB0 | page, column & 0x0F, 0x10 | column >> 4


class Ssd1306(_ChangedPages, ssd1306):
    """luma's ssd1306 sending only changed column windows. luma sets
    horizontal addressing (MEMORYMODE 0): a column range and a page range
    bound where the data goes."""

    _gap = 11  # a 6-byte command: (6 + 4) * 9 + 3 = 93 clocks, 10.3 columns

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._start_recording()
        super().__init__(*args, **kwargs)

    def _window_commands(self, page: int, start: int, end: int) -> tuple[int, ...]:
        return (self._const.COLUMNADDR, self._colstart + start, self._colstart + end - 1,
                self._const.PAGEADDR, page, page)
