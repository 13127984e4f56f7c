"""What a 128x64 screen says (a Layout) and how it is drawn (Pillow, mode "1").

Layouts are plain data so that tests compare what a screen says, not pixels.
The key fact goes in ``big``, drawn in the largest font that fits, so it
reads at arm's length; the rest is small print. A game may add a picture (a
board): it is drawn at the left and the words fill the panel beside it.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFont

WIDTH, HEIGHT = 128, 64
FONT_DIR = Path(__file__).resolve().parent / "fonts"
# The small print's regular face is DejaVu Sans (Debian's fonts-dejavu-core):
# at 10 px its condensed cut draws "n" with a broken arch and "rn" as "m"
# ("End tum", "wirs"). Every face is laid out by FreeType's hinted advances
# (Layout.BASIC): Raqm's fractional ones set two letters in one column.
_REGULAR = "DejaVuSans.ttf"
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
    #: which page to show when the words take more than one screenful (the
    #: session turns the pages); any number, taken modulo the pages there are
    page: int = 0

    def text(self) -> str:
        """Every word on the screen, for tests, transcripts and the console."""
        parts = [self.title, self.big, *self.lines, self.footer]
        return "\n".join(p for p in parts if p)


@lru_cache(maxsize=16)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    path = FONT_DIR / (_BOLD if bold else _REGULAR)
    try:
        return ImageFont.truetype(str(path), size, layout_engine=ImageFont.Layout.BASIC)
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
    return tuple(_lines(text, f, width))


def _lines(text: str, f: ImageFont.FreeTypeFont | ImageFont.ImageFont, width: int) -> Iterator[str]:
    """The greedy wrap's lines, one at a time (whoever only counts them may stop early)."""
    space = _width(" ", f)
    for para in text.split("\n"):
        line, line_w = "", 0.0
        for word in para.split():
            word_w = _width(word, f)
            trial_w = line_w + space + word_w if line else word_w
            if trial_w <= width:
                line, line_w = f"{line} {word}" if line else word, trial_w
                continue
            if line:
                yield line
            while word_w > width and len(word) > 1:
                cut = len(word)
                while cut > 1 and _width(word[:cut], f) > width:
                    cut -= 1
                # a compound ("Gallesi/Romano-Britannici") breaks after its
                # last slash or hyphen that fits, not inside a word of it
                joint = max(word.rfind("/", 0, cut - 1), word.rfind("-", 0, cut - 1))
                cut = joint + 1 if joint > 0 else cut
                yield word[:cut]
                word = word[cut:]
                word_w = _width(word, f)
            line, line_w = word, word_w
        yield line


def _wrapped_within(text: str, f: ImageFont.FreeTypeFont | ImageFont.ImageFont, width: int,
                    most: int) -> tuple[str, ...] | None:
    """The wrap of ``text`` when it takes at most ``most`` lines, else None:
    the wrap stops at the line one too many (an instruction tried in a size
    it does not fit is not wrapped to its end)."""
    if most < 1:
        return None  # a wrap has a line at least
    lines = tuple(itertools.islice(_lines(text, f, width), most + 1))
    return lines if len(lines) <= most else None


def fit_big(text: str, room: int = HEIGHT, max_lines: int = 3,
            width: int = WIDTH - 2) -> tuple[int, list[str]]:
    """The largest big-font size at which ``text`` fits ``room`` pixels of
    height (and at most ``max_lines`` lines); the smallest size, cut, if none."""
    size, lines = _fitted(text, room, max_lines, width)
    return size, list(lines)


@lru_cache(maxsize=4096)  # as _wrapped: adapters try a line at each size
def _fitted(text: str, room: int, max_lines: int, width: int) -> tuple[int, tuple[str, ...]]:
    for size in BIG_SIZES:
        f = font(size, bold=True)
        # at most max_lines lines, and lines * (size + 1) <= room
        lines = _wrapped_within(text, f, width, min(max_lines, room // (size + 1)))
        if lines is not None:
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


@dataclass(frozen=True)
class Placed:
    """One line of text where render puts it, with the box its ink covers
    on the screen (measured from the glyphs drawn, not from the font's size)."""

    part: str  # "title", "page", "big", "line" or "footer"
    text: str
    x: float
    y: int
    size: int
    bold: bool
    ink: int
    box: tuple[int, int, int, int]  # left, top, right, bottom (exclusive)


@dataclass(frozen=True)
class Plan:
    """Where every line of a Layout goes, and what did not fit."""

    placed: tuple[Placed, ...]
    dropped: tuple[str, ...] = ()  # lines (or parts of words) that are not shown
    rule_y: int | None = None  # the row of the line above the button bar
    alert_box: tuple[int, int, int, int] | None = None
    pages: int = 1
    picture: bool = True  # False: the layout's picture is left out, for its words to fit one screen


def _place(part: str, x: float, y: int, text: str, size: int, bold: bool, ink: int,
           clear: int | None = None) -> Placed:
    """``clear``: the leftmost column the ink may take; a glyph that reaches
    out left of its origin (a bold "J" at 20 px) moves right by as much."""
    glyphs, (ox, oy) = _line_bitmap(text, font(size, bold), math.modf(x)[0])
    left, top = int(x) - ox, y - oy
    if clear is not None and left < clear:
        return _place(part, x + clear - left, y, text, size, bold, ink)
    return Placed(part, text, x, y, size, bold, ink, (left, top, left + glyphs.width, top + glyphs.height))


def _bold_fits(text: str, width: int) -> bool:
    """Whether every word of ``text`` fits ``width`` in the small bold font
    (else it is set in the regular one, which is narrower, rather than cut)."""
    f = font(SMALL, bold=True)
    return all(_width(word, f) <= width for word in text.split())


def _ink_bottom(text: str, y: int, size: int, bold: bool = False) -> int:
    """The row below the last row ``text`` inks when drawn at ``y``."""
    glyphs, (_, oy) = _line_bitmap(text, font(size, bold), 0.0)  # as _place at x = 0 has it
    return y - oy + glyphs.height


# A small line drawn at y inks rows y .. y + SMALL + 1 at most (accents to
# descenders; a test checks every character the table writes); the next
# line starts SMALL + 1 lower.
SMALL_STEP = SMALL + 1
_SMALL_DEPTH = SMALL + 2


def _inks_above(text: str, y: int, limit: int, bold: bool = False) -> bool:
    """Whether small print ``text`` drawn at ``y`` inks only rows above
    ``limit``. Measured from its glyphs only near the limit: elsewhere even
    the deepest glyph would, and a line measured is a line rendered (at a
    turn's end a new hand or score is FreeType's work, and the lines of a
    page not shown, or of an arrangement not taken, are never drawn)."""
    return y + _SMALL_DEPTH <= limit or _ink_bottom(text, y, SMALL, bold) <= limit
_TAB = 1  # the page number's tab: columns of fill either side of its ink
#: a line of small print: its text, bold or not, and which paragraph it is of
#: (an index of the layout's lines; -1 the big line, -2 a title's rest)
_Line = tuple[str, bool, int]


def _title_font(title: str, width: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return font(SMALL, bold=_bold_fits(title, width))


# The session asks how many pages each screen takes, then draws it, and a
# menu's screens come back as the cursor goes to and fro: a plan is kept per
# layout (it is a pure function of it). Bounded: a screenful's plan is small.
@lru_cache(maxsize=64)
def plan(layout: Layout) -> Plan:
    """Where render draws each line of ``layout`` (pure: no pixels drawn).

    What does not fit one screen is paged, never cut: the title, the big
    line and the button bar stay, the small print takes ``layout.page``'s
    share and the title row says which page it is ("1/2"). A big line too
    long for the room left at its smallest size, and a title longer than its
    row, go on in the small print in bold.
    """
    small = font(SMALL)
    placed: list[Placed] = []
    dropped: list[str] = []
    x = layout.image.width + 2 if layout.image is not None else 0
    width = WIDTH - x - 2
    rule_y = HEIGHT - SMALL - 2 if layout.footer else None
    # Ink ends a blank row above the bar: a line that touches it reads as cut.
    limit = rule_y - 1 if rule_y is not None else HEIGHT
    top, big, pages, body_y = _arrange(layout, x, width, width, limit, False)
    if len(pages) > 1 and layout.image is not None:
        # Words that page beside a picture (a move to confirm beside the
        # board) read whole on one screen without it: the words come first.
        bare = plan(replace(layout, image=None))
        if bare.pages == 1:
            return replace(bare, picture=False)
    title_width, own_row = width, False
    if len(pages) > 1:
        # The page number takes the title row's right end (the title wraps
        # beside it, its next lines straight under it), or a row of its own
        # above a title with a word too long to leave it room: never between
        # a title's lines (a name read "Turn: Assassin / 1/2 / (computer)").
        title_width = width - math.ceil(_width(f"{len(pages)}/{len(pages)}", small)) - 2 * _TAB - 3
        own_row = not layout.title or not all(_width(w, small) <= title_width for w in layout.title.split())
        if own_row:
            title_width = width
        top, big, pages, body_y = _arrange(layout, x, width, title_width, limit, own_row)
    page = layout.page % len(pages)
    marker = f"{page + 1}/{len(pages)}" if len(pages) > 1 else ""
    alert_box = None
    y = SMALL_STEP if own_row and layout.title else 0
    if layout.title:
        # Beside a picture the panel is narrow: the title may take two lines.
        heavy = _bold_fits(layout.title, title_width)
        titles = wrap(layout.title, font(SMALL, heavy), title_width)[: 2 if x else 1]  # the rest: in the body
        if layout.alert:
            alert_box = (x, 0, WIDTH, y + len(titles) * SMALL_STEP + 1)
        for title in titles:
            placed.append(_place("title", x + 1, y, title, SMALL, heavy, 0 if layout.alert else 1))
            y += SMALL_STEP
    if marker:
        # Set as a tab (inverted), so that it reads as the page and not as a
        # menu's choice counter ("1/3" beside "● confirm 1/2").
        placed.append(_place("page", WIDTH - 1 - _TAB - _width(marker, small), 0, marker, SMALL, False,
                             1 if layout.alert and layout.title else 0))
    y = top
    for line in big[1]:
        placed.append(_place("big", x + 1, y - 2, line, big[0], True, 1, clear=x))
        y += big[0] + 1
    y = body_y
    for text, is_bold, _ in pages[page]:
        placed.append(_place("line", x + 1, y, text, SMALL, is_bold, 1))
        y += SMALL_STEP
    if layout.footer:
        w = _width(layout.footer, small)
        placed.append(_place("footer", x + (WIDTH - x - w) / 2, HEIGHT - SMALL - 2, layout.footer,
                             SMALL, False, 1))
    return Plan(tuple(placed), tuple(dropped), rule_y, alert_box, len(pages))


def _arrange(layout: Layout, x: int, width: int, title_width: int, limit: int,
             marker_row: bool) -> tuple[int, tuple[int, list[str]], list[list[_Line]], int]:
    """Where the big line starts, the big line (size, lines), the small
    print's pages and the row they start at, for a title wrapped to
    ``title_width`` (and a row for the page number under it when ``marker_row``)."""
    small = font(SMALL)
    body: list[_Line] = [(ln, False, i) for i, text in enumerate(layout.lines)
                         for ln in wrap(text, small, width)]
    rest: list[_Line] = []
    if layout.title:
        heavy = _bold_fits(layout.title, title_width)
        titles = wrap(layout.title, font(SMALL, heavy), title_width)
        keep = 2 if x else 1
        # A title longer than its row goes on in bold above the rest.
        rest = [(ln, heavy, -2) for ln in titles[keep:]]
        top = min(len(titles), keep) * SMALL_STEP + 2
    else:
        top = 0
    if marker_row:
        top += SMALL_STEP + 2 * (not layout.title)
    big: tuple[int, list[str]] = (0, [])
    if layout.big:
        # The key fact gets what the small print leaves, keeping at least
        # one small line (two when there are more, and no picture) visible.
        keep = min(len(body), 1 if x else 2)
        room = limit - top - keep * SMALL_STEP - (_SMALL_DEPTH - SMALL_STEP)
        size, lines = fit_big(layout.big, room, width=width)
        below = top + len(lines) * (size + 1)
        whole = len(" ".join(lines).split()) == len(layout.big.split())
        if whole and not rest and (not body or _inks_above(body[0][0], below, limit)):
            big = (size, lines)
            if not layout.footer:
                # Without buttons (the shared screen, a seat waiting) the key
                # fact's box is all that room, whatever its words take: the
                # lines under it stand where they stood when it changes (the
                # next move), and only its pixels go to the screen again.
                return top, big, _pages(body, top + room, limit), top + room
            if not rest and not x:
                # With buttons (a menu) the small print stands on the bar,
                # its last line's ink a blank row above it, so that the
                # next item (a longer name set smaller, on two lines) leaves
                # the label and the counter where they were: only the big
                # line's and the counter's pixels go to the screen again.
                # Beside a picture (a board) the label stays under the name:
                # there its wrap changes from item to item, and standing on
                # the bar cost more bytes a step (bench/README.md).
                bottom = limit - (_SMALL_DEPTH - SMALL_STEP) - len(body) * SMALL_STEP
                if bottom >= below and all(_inks_above(text, bottom + i * SMALL_STEP, limit)
                                           for i, (text, _, _) in enumerate(body)):
                    return top, big, [body], bottom
        else:
            heavy = _bold_fits(layout.big, width)
            body = [(ln, heavy, -1) for ln in wrap(layout.big, font(SMALL, heavy), width)] + body
    body = rest + body
    below = top + sum(big[0] + 1 for _ in big[1])
    return top, big, _pages(body, below, limit), below


def _pages(body: list[_Line], y: int, limit: int) -> list[list[_Line]]:
    """The small print in screenfuls from row ``y``, each line's ink above
    ``limit``. A sentence (a paragraph) that fits a screenful is not split
    over two: it starts the next page when this one has no room for all of it."""
    pages: list[list[_Line]] = [[]]
    row = y
    for _, group in itertools.groupby(body, key=lambda line: line[2]):
        para = list(group)
        if pages[-1] and not _fits(para, row, limit) and _fits(para, y, limit):
            pages.append([])
            row = y
        for text, is_bold, n in para:
            if pages[-1] and not _inks_above(text, row, limit, is_bold):
                pages.append([])
                row = y
            pages[-1].append((text, is_bold, n))
            row += SMALL_STEP
    return pages


def _fits(para: list[_Line], y: int, limit: int) -> bool:
    """Whether the lines ``para`` all ink above ``limit`` set from row ``y``."""
    return all(_inks_above(text, y + i * SMALL_STEP, limit, is_bold)
               for i, (text, is_bold, _) in enumerate(para))


def pages(layout: Layout) -> int:
    """How many screenfuls ``layout`` takes (1 when it fits)."""
    return plan(layout).pages


def render(layout: Layout) -> Image.Image:
    img = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(img)
    where = plan(layout)
    picture = layout.image if where.picture else None
    if picture is not None:
        img.paste(picture.convert("1"), (0, (HEIGHT - picture.height) // 2))
    if where.alert_box is not None:
        left, top, right, bottom = where.alert_box
        draw.rectangle((left, top, right - 1, bottom - 1), fill=1)
    if where.rule_y is not None:
        draw.line((picture.width + 2 if picture is not None else 0, where.rule_y, WIDTH - 1,
                   where.rule_y), fill=1)
    for line in where.placed:
        if line.part == "page":
            left, _, right, _ = line.box
            draw.rectangle((left - _TAB, 0, min(right + _TAB, WIDTH) - 1, SMALL), fill=1 - line.ink)
        _text(img, line.x, line.y, line.text, font(line.size, line.bold), line.ink)
    return img


def problems(layout: Layout) -> list[str]:
    """What a player would miss on this screen, measured in pixels: text
    that is not shown, ink cut at an edge, ink on the line above the buttons
    or on another line's ink. Empty when every word shows whole."""
    first = plan(layout)
    found = [f"not shown: {text!r}" for text in first.dropped]
    shown: list[str] = []
    for page in range(first.pages):
        where = plan(replace(layout, page=page)) if first.pages > 1 else first
        found += _overlaps(where)
        # the body turns with the pages; the rest stands on every page
        shown += [p.text for p in where.placed if p.part == "line" or (page == 0 and p.part != "page")]
    said = [layout.title, layout.big, *layout.lines, layout.footer]
    words, seen = " ".join(said).split(), _rejoined(shown)
    if sorted(words) != sorted(seen):
        lost = sorted(set(words) - set(seen)) or sorted(set(seen) - set(words))
        found.append(f"words cut or missing: {' '.join(lost)!r}")
    return found


def _rejoined(lines: list[str]) -> list[str]:
    """The words of ``lines`` as said: a compound broken after a slash or a
    hyphen at a line's end is one word again."""
    out: list[str] = []
    glue = False
    for line in lines:
        words = line.split()
        if glue and words:
            out[-1] += words.pop(0)
        out += words
        glue = bool(out) and out[-1].endswith(("/", "-")) and len(out[-1]) > 1
    return out


def _overlaps(where: Plan) -> list[str]:
    found = []
    masks: list[tuple[Placed, Image.Image]] = []
    for line in where.placed:
        left, top, right, bottom = line.box
        if left < 0 or top < 0 or right > WIDTH or bottom > HEIGHT:
            found.append(f"cut at the edge: {line.text!r} (ink {line.box})")
        if where.rule_y is not None and line.part != "footer" and bottom > where.rule_y - 1:
            found.append(f"clipped by the button bar: {line.text!r} (ink to row {bottom - 1})")
        if line.part == "footer" and where.rule_y is not None and top <= where.rule_y:
            found.append(f"footer on the bar's line: {line.text!r}")
        if line.ink == 0 and where.alert_box is not None:
            a = where.alert_box
            if left < a[0] or top < a[1] or right > a[2] or bottom > a[3]:
                found.append(f"outside its inverted band: {line.text!r}")
        mask = Image.new("1", (WIDTH + 64, HEIGHT + 64), 0)
        glyphs, (ox, oy) = _line_bitmap(line.text, font(line.size, line.bold), math.modf(line.x)[0])
        mask.paste(1, (32 + int(line.x) - ox, 32 + line.y - oy), glyphs)
        masks.append((line, mask))
    for i, (a, ma) in enumerate(masks):
        for b, mb in masks[i + 1:]:
            if ImageChops.logical_and(ma, mb).getbbox() is not None:
                found.append(f"overlaps another line: {a.text!r} and {b.text!r}")
    return found


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


#: the items of a button bar an input can press, left to right; a tag read presses them all
BAR_ITEMS = ("left", "ok", "right")
TAPPED = "tap"


def pressed(layout: Layout, frame: Image.Image, item: str) -> Image.Image:
    """``frame`` (``layout`` drawn) with ``item`` of its button bar shown
    pressed: the glyph's box below the bar's rule inverted ("left", "ok",
    "right"; :data:`TAPPED`, a tag read: the whole bar). Only the bar's
    rows change, one or two of the controller's pages of eight rows, and
    nothing else on the screen: it says the input was taken, not what it
    meant. ``frame`` itself is left as it is."""
    if item != TAPPED and item not in BAR_ITEMS:
        raise ValueError(f"no button-bar item {item!r}; one of {', '.join(BAR_ITEMS)} or {TAPPED!r}")
    where = plan(layout)
    bar = next((p for p in where.placed if p.part == "footer"), None)
    if bar is None or where.rule_y is None:
        raise ValueError("the layout has no button bar to press")
    small = font(SMALL)
    glyphs = bar.text.split()
    if item == TAPPED or len(glyphs) != len(BAR_ITEMS):
        left, right = bar.x, bar.x + _width(bar.text, small)
    else:
        start = end = 0
        for glyph in glyphs[:BAR_ITEMS.index(item) + 1]:
            start = bar.text.index(glyph, end)
            end = start + len(glyph)
        left = bar.x + _width(bar.text[:start], small)
        right = left + _width(bar.text[start:end], small)
    box = (max(0, math.floor(left) - 3), where.rule_y + 1, min(WIDTH, math.ceil(right) + 3), HEIGHT)
    # inverted as two pastes on the one-bit frame: the box lit, then its ink
    # unlit (a conversion through greyscale and back drew the same pixels in twice the time)
    out = frame.copy()
    ink = out.crop(box)
    out.paste(1, box)
    out.paste(0, box[:2], ink)
    return out
