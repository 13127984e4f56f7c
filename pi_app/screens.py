"""What a 128x64 screen says (a Layout) and how it is drawn (Pillow, mode "1").

Layouts are plain data so that tests compare what a screen says, not pixels.
The key fact goes in ``big``, drawn in the largest font that fits, so it
reads at arm's length; the rest is small print. A game may add a picture (a
board): it is drawn at the left and the words fill the panel beside it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 128, 64
FONT_DIR = Path(__file__).resolve().parent / "fonts"
_REGULAR = "DejaVuSansCondensed.ttf"
_BOLD = "DejaVuSansCondensed-Bold.ttf"
BIG_SIZES = (20, 16, 13, 11)
SMALL = 10


@dataclass(frozen=True)
class Layout:
    """One screenful. ``alert`` draws the title inverted (a refusal);
    ``image`` (mode "1", at most 64 px high) is drawn at the left edge."""

    title: str = ""
    big: str = ""
    lines: tuple[str, ...] = ()
    footer: str = ""
    alert: bool = False
    image: Image.Image | None = field(default=None, hash=False)  # compared by content

    def text(self) -> str:
        """Every word on the screen, for tests, transcripts and the console."""
        parts = [self.title, self.big, *self.lines, self.footer]
        return "\n".join(p for p in parts if p)


@lru_cache(maxsize=16)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    path = FONT_DIR / (_BOLD if bold else _REGULAR)
    try:
        return ImageFont.truetype(str(path), size)
    except OSError:  # the font is missing: Pillow's own still draws
        return ImageFont.load_default(size)


# Measuring text (Font.getlength, about 40 us with Raqm) on every trial line
# was half of what a frame cost, and instructions are new sentences of the
# same few hundred words. So widths are kept per font and string (words,
# mostly), and a line is measured as the sum of its words and spaces: exact
# for the shipped fonts, which kern no glyph against a space (a test checks
# this and the wraps). Bounded: every game at every seat count uses about
# 4,300 (word, font) pairs, and a game night's words are not bounded at all.
@lru_cache(maxsize=8192)
def _width(text: str, f: ImageFont.FreeTypeFont | ImageFont.ImageFont) -> float:
    return f.getlength(text)


def wrap(text: str, f: ImageFont.FreeTypeFont | ImageFont.ImageFont, width: int = WIDTH - 2) -> list[str]:
    """Greedy word wrap to ``width`` pixels; a word too long is cut."""
    return list(_wrapped(text, f, width))


# Adapters try several wordings and sizes of each instruction, and most
# lines come back frame after frame (titles, hands, scores): a wrap is
# worked out once per text, font and width. Bounded, as _width.
@lru_cache(maxsize=4096)
def _wrapped(text: str, f: ImageFont.FreeTypeFont | ImageFont.ImageFont, width: int) -> tuple[str, ...]:
    space = _width(" ", f)
    out: list[str] = []
    for para in text.split("\n"):
        line, line_w = "", 0.0
        for word in para.split():
            word_w = _width(word, f)
            trial_w = line_w + space + word_w if line else word_w
            if trial_w <= width:
                line, line_w = f"{line} {word}" if line else word, trial_w
                continue
            if line:
                out.append(line)
            while word_w > width and len(word) > 1:
                cut = len(word)
                while cut > 1 and _width(word[:cut], f) > width:
                    cut -= 1
                out.append(word[:cut])
                word = word[cut:]
                word_w = _width(word, f)
            line, line_w = word, word_w
        out.append(line)
    return tuple(out)


def fit_big(text: str, room: int = HEIGHT, max_lines: int = 3,
            width: int = WIDTH - 2) -> tuple[int, list[str]]:
    """The largest big-font size at which ``text`` fits ``room`` pixels of
    height (and at most ``max_lines`` lines); the smallest size, cut, if none."""
    size, lines = _fitted(text, room, max_lines, width)
    return size, list(lines)


@lru_cache(maxsize=4096)  # as _wrapped: adapters try a line at each size
def _fitted(text: str, room: int, max_lines: int, width: int) -> tuple[int, tuple[str, ...]]:
    for size in BIG_SIZES:
        lines = _wrapped(text, font(size, bold=True), width)
        if len(lines) <= max_lines and len(lines) * (size + 1) <= room:
            return size, lines
    size = BIG_SIZES[-1]
    return size, _wrapped(text, font(size, bold=True), width)[: max(1, room // (size + 1))]


def _text(img: Image.Image, x: float, y: int, text: str,
          f: ImageFont.FreeTypeFont | ImageFont.ImageFont, ink: int) -> None:
    """Draws ``text`` at (x >= 0, y) exactly as ImageDraw.text does, from the
    line's kept bitmap: the same glyph mask, pasted with the same ink."""
    glyphs, (ox, oy) = _line_bitmap(text, f, math.modf(x)[0])
    img.paste(ink, (int(x) - ox, y - oy), glyphs)


# Rendering glyphs (FreeType through Raqm) was most of a frame once widths
# were kept, and most lines (titles, footers, hands, scores) come back frame
# after frame: about 85% of the lines drawn in a game were drawn before. The
# bitmap depends only on the text, the font and the fraction of a pixel x
# starts at (a centred footer's). Bounded: a line is a few hundred bytes.
@lru_cache(maxsize=1024)
def _line_bitmap(text: str, f: ImageFont.FreeTypeFont | ImageFont.ImageFont,
                 fraction: float) -> tuple[Image.Image, tuple[int, int]]:
    """The line's ink on a bitmap of its own, and where its origin lies in it."""
    # An em of room around the kept width holds any glyph's overhang without
    # laying the text out once more to measure its ink; only the ink is kept.
    # (The width is summed from the words' kept widths, as wrap measures.)
    pad = getattr(f, "size", HEIGHT)
    width = sum(_width(word, f) for word in text.split()) + text.count(" ") * _width(" ", f)
    canvas = Image.new("1", (math.ceil(width) + 2 * pad, 3 * pad), 0)
    ImageDraw.Draw(canvas).text((pad + fraction, pad), text, font=f, fill=1)
    box = canvas.getbbox() or (0, 0, 1, 1)  # no ink: one blank pixel
    return canvas.crop(box), (pad - box[0], pad - box[1])


def render(layout: Layout) -> Image.Image:
    img = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(img)
    small = font(SMALL)
    x = 0
    if layout.image is not None:
        img.paste(layout.image.convert("1"), (0, (HEIGHT - layout.image.height) // 2))
        x = layout.image.width + 2
    width = WIDTH - x - 2
    y = 0
    if layout.title:
        # Beside a picture the panel is narrow: the title may take two lines.
        titles = wrap(layout.title, font(SMALL, bold=True), width)[: 2 if x else 1]
        if layout.alert:
            draw.rectangle((x, 0, WIDTH - 1, len(titles) * (SMALL + 1)), fill=1)
        for title in titles:
            _text(img, x + 1, y, title, font(SMALL, bold=True), 0 if layout.alert else 1)
            y += SMALL + 1
        y += 2
    footer_h = SMALL + 2 if layout.footer else 0
    small_lines = [ln for text in layout.lines for ln in wrap(text, small, width)]
    if layout.big:
        # The key fact gets what the small print leaves, keeping at least
        # one small line (two when there are more, and no picture) visible.
        keep = min(len(small_lines), 1 if x else 2)
        room = HEIGHT - footer_h - y - keep * (SMALL + 1)
        size, lines = fit_big(layout.big, room, width=width)
        for line in lines:
            _text(img, x + 1, y - 2, line, font(size, bold=True), 1)
            y += size + 1
    for line in small_lines:
        if y + SMALL > HEIGHT - footer_h:
            break
        _text(img, x + 1, y, line, small, 1)
        y += SMALL + 1
    if layout.footer:
        fy = HEIGHT - SMALL - 1
        draw.line((x, fy - 1, WIDTH - 1, fy - 1), fill=1)
        w = _width(layout.footer, small)
        _text(img, x + (WIDTH - x - w) / 2, fy - 1, layout.footer, small, 1)
    return img


def ascii_art(img: Image.Image) -> str:
    """A frame as text, two pixel rows per character, for the console."""
    px = img.convert("1").load()
    rows = []
    for y in range(0, img.height, 2):
        row = []
        for x in range(img.width):
            top, bottom = px[x, y], px[x, y + 1] if y + 1 < img.height else 0
            row.append("█" if top and bottom else "▀" if top else "▄" if bottom else " ")
        rows.append("".join(row).rstrip())
    return "\n".join(rows)


def test_pattern(name: str) -> Image.Image:
    """A border, a checker corner and the part's name: for `doctor`."""
    img = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), outline=1)
    for i in range(0, 16, 4):
        for j in range(0, 16, 4):
            if (i + j) // 4 % 2 == 0:
                draw.rectangle((2 + i, 2 + j, 5 + i, 5 + j), fill=1)
    draw.text((22, 4), "TEST", font=font(16, bold=True), fill=1)
    draw.text((4, 40), name, font=font(SMALL), fill=1)
    return img
