"""The display RAM of an SH1106 or SSD1306, driven by the bytes written to it
over I2C, as their datasheets describe: what the glass would show.

On I2C each write starts with a control byte: 0x00 for a stream of commands,
0x40 for a stream of display data (the only two luma uses; others are
refused). Commands take their arguments in the same stream.

- SH1106 (datasheet V2.3, "Commands"): 132-column RAM in eight pages, page
  addressing only (``0xB0 | page``, column low nibble ``0x0_``, high nibble
  ``0x1_``); each data byte goes to the current page and column, the column
  counts up and the page stays. The 128 columns of a 128x64 module start at
  RAM column 2. Bytes it has no command for are ignored (luma's set-up sends
  it the SSD1306's 0x20 and 0x8D, whose arguments it then reads as commands
  of its own).
- SSD1306 (datasheet rev 1.1, 10.1.3-10.1.5): 128-column RAM; after reset,
  page addressing; ``0x20`` chooses horizontal (0), vertical (1) or page (2)
  addressing; ``0x21``/``0x22`` set the column and page ranges, which wrap in
  horizontal and vertical addressing. Unknown commands are refused.

Power-on (``power_on``): RAM of no particular content and the panel off, as
after a real reset: a driver that does not set the chip up again after a
power cut shows nothing.
"""

from __future__ import annotations

import random

from PIL import Image

COMMAND_STREAM = 0x00
DATA_STREAM = 0x40

# argument bytes after each SSD1306 command that takes any (datasheet, 9 and 10)
_SSD1306_ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0x81: 1, 0x8D: 1,
                 0xA3: 2, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD6: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}
_SSD1306_SINGLE = {*range(0x00, 0x20), 0x2E, 0x2F, *range(0x40, 0x80), 0xA0, 0xA1, 0xA4, 0xA5,
                   0xA6, 0xA7, 0xAE, 0xAF, *range(0xB0, 0xB8), 0xC0, 0xC8, 0xE3}
# SH1106 (datasheet V2.3, commands 9-11, 15-19): the double-byte ones
_SH1106_ARGS = {0x81: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}


class OledController:
    """One SH1106 (``kind="sh1106"``) or SSD1306 on the bus; ``glass()`` is the 128x64 panel."""

    def __init__(self, kind: str, seed: int = 0) -> None:
        if kind not in ("sh1106", "ssd1306"):
            raise ValueError(f"no controller {kind!r}: sh1106 or ssd1306")
        self.kind = kind
        self.columns = 132 if kind == "sh1106" else 128
        self.first_column = 2 if kind == "sh1106" else 0  # RAM column of the glass's column 0
        self._rng = random.Random(seed)
        self.data_bytes = 0  # display data bytes taken since power-on
        self.power_on()

    def power_on(self) -> None:
        self.ram = [bytearray(self._rng.randbytes(self.columns)) for _ in range(8)]
        self.on = False
        self.page = self.column = 0
        self.mode = 2  # page addressing
        self.column_range = (0, self.columns - 1)
        self.page_range = (0, 7)

    def write(self, control: int, data: list[int]) -> None:
        if control == COMMAND_STREAM:
            self._commands(list(data))
        elif control == DATA_STREAM:
            for byte in data:
                self._store(byte)
        else:
            raise ValueError(f"{self.kind}: control byte 0x{control:02X} is neither 0x00 nor 0x40")

    def _commands(self, data: list[int]) -> None:
        i = 0
        while i < len(data):
            cmd = data[i]
            args_n = (_SSD1306_ARGS if self.kind == "ssd1306" else _SH1106_ARGS).get(cmd, 0)
            args = data[i + 1:i + 1 + args_n]
            if len(args) < args_n:
                raise ValueError(f"{self.kind}: command 0x{cmd:02X} without its {args_n} argument(s)")
            if self.kind == "ssd1306" and args_n == 0 and cmd not in _SSD1306_SINGLE:
                raise ValueError(f"ssd1306: no command 0x{cmd:02X}")
            self._command(cmd, args)
            i += 1 + args_n

    def _command(self, cmd: int, args: list[int]) -> None:
        paged = self.kind == "sh1106" or self.mode == 2  # nibble and 0xB_ commands: page addressing only
        if cmd == 0xAE:
            self.on = False
        elif cmd == 0xAF:
            self.on = True
        elif cmd < 0x10 and paged:
            self.column = (self.column & 0xF0) | cmd
        elif 0x10 <= cmd < 0x20 and paged:
            self.column = (self.column & 0x0F) | (cmd & 0x0F) << 4
        elif 0xB0 <= cmd < 0xB8 and paged:
            self.page = cmd & 0x07
        elif self.kind == "ssd1306" and cmd == 0x20:
            self.mode = args[0] & 0x03
        elif self.kind == "ssd1306" and cmd == 0x21:
            self.column_range = (args[0] & 0x7F, args[1] & 0x7F)
            self.column = self.column_range[0]
        elif self.kind == "ssd1306" and cmd == 0x22:
            self.page_range = (args[0] & 0x07, args[1] & 0x07)
            self.page = self.page_range[0]

    def _store(self, byte: int) -> None:
        self.data_bytes += 1
        if self.column < self.columns:
            self.ram[self.page][self.column] = byte
        if self.kind == "sh1106" or self.mode == 2:
            # page addressing: the column counts up (SSD1306: wraps to the
            # range's start); the page stays
            self.column += 1
            if self.kind == "ssd1306" and self.column > self.column_range[1]:
                self.column = self.column_range[0]
            return
        (c0, c1), (p0, p1) = self.column_range, self.page_range
        if self.mode == 0:  # horizontal: along the page, then the next page
            self.column += 1
            if self.column > c1:
                self.column = c0
                self.page = p0 if self.page >= p1 else self.page + 1
        else:  # vertical: down the pages, then the next column
            self.page += 1
            if self.page > p1:
                self.page = p0
                self.column = c0 if self.column >= c1 else self.column + 1

    def glass(self) -> Image.Image:
        """What the 128x64 panel shows: its RAM window when on, black when off."""
        image = Image.new("1", (128, 64), 0)
        if not self.on:
            return image
        pixels = image.load()
        for page, row in enumerate(self.ram):
            for x in range(128):
                byte = row[self.first_column + x]
                for bit in range(8):
                    if byte >> bit & 1:
                        pixels[x, page * 8 + bit] = 1
        return image
