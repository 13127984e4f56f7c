"""The King & Assassins board drawn for a 128x64 seat screen: 10x10 cells of
6 px (a 60x60 board) at the left, the words in the panel beside it.

Roofs are lit blocks, streets dark with a dot in the middle; pieces are 5x5
glyphs, dark on a roof and lit on a street. What is drawn comes from one
seat's view only, so the King player's board can show no identity the view
does not hold.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

CELL = 6
LEFT, TOP = 2, 2  # room for the focus ticks left of the rows and above the columns
WIDTH, HEIGHT = LEFT + 10 * CELL, 64

_GLYPHS: dict[str, tuple[str, ...]] = {
    "king": ("X.X.X", "XXXXX", "XXXXX", "XXXXX", "....."),
    "knight": ("XXXXX", "X...X", "X...X", "X...X", "XXXXX"),
    "citizen": (".....", ".XXX.", ".XXX.", ".XXX.", "....."),
    # a revealed assassin: a cross, for everyone
    "assassin": ("X...X", ".X.X.", "..X..", ".X.X.", "X...X"),
    # a citizen the Assassin player knows to be an assassin: only ever drawn from seat 1's view
    "secret": ("X...X", ".XXX.", ".XXX.", ".XXX.", "X...X"),
}
#: Each glyph's lit points, as (x, y) within the cell.
_GLYPH_POINTS = {kind: tuple((gx, gy) for gy, line in enumerate(glyph)
                             for gx, ch in enumerate(line) if ch == "X")
                 for kind, glyph in _GLYPHS.items()}
#: The side of a cell a gate opens on, as (x0, y0, x1, y1) within the cell.
_GATE_EDGE = {"N": (1, 0, 3, 0), "S": (1, 4, 3, 4), "W": (0, 1, 0, 3), "E": (4, 1, 4, 3)}


def cell_xy(name: str) -> tuple[int, int]:
    """``"C3"`` -> (column 2, row 2), counted from 0 (NOTATION.md: A1 top left)."""
    return ord(name[0]) - ord("A"), int(name[1:]) - 1


@lru_cache(maxsize=4)
def _ground(rows: tuple[str, ...], gates: tuple[tuple[str, str], ...]) -> Image.Image:
    """Roofs, streets and gates: the same for a whole game, so drawn once (a
    redraw of the board point by point was most of a King & Assassins input);
    a handful of boards exist, hence the small bound."""
    img = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(img)
    streets: list[tuple[int, int]] = []
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            x, y = LEFT + c * CELL, TOP + r * CELL
            if ch == "R":
                draw.rectangle((x, y, x + CELL - 1, y + CELL - 1), fill=1)
            else:
                streets.append((x + 2, y + 2))
    draw.point(streets, fill=1)
    for cell, side in gates:
        c, r = cell_xy(cell)
        x0, y0, x1, y1 = _GATE_EDGE[side]
        x, y = LEFT + c * CELL, TOP + r * CELL
        draw.rectangle((x + x0, y + y0, x + x1 + (1 if side in "NS" else 0),
                        y + y1 + (1 if side in "EW" else 0)), fill=1)
    return img


def draw_board(view: Mapping[str, Any], marks: Mapping[str, str] | None = None,
               focus: Iterable[str] = ()) -> Image.Image:
    """The board of ``view``: ``marks`` overrides a piece's glyph (the
    Assassin player's secret ones); cells named in ``focus`` are inverted
    and ticked at the edges, to show what the menu is pointing at."""
    return _board(tuple(view["rows"]), tuple((g["cell"], g["dir"]) for g in view.get("gates", [])),
                  tuple((name, piece["kind"], piece["cell"]) for name, piece in view["pieces"].items()),
                  tuple(sorted((marks or {}).items())), tuple(focus)).copy()


# Every input asks both seats for their board, and the seat that is not
# moving shows the same one until the next move (the moving seat's comes
# back as its menu cycles): kept per everything it shows. A game's boards
# are a few hundred; the bound keeps the recent ones.
@lru_cache(maxsize=64)
def _board(rows: tuple[str, ...], gates: tuple[tuple[str, str], ...],
           pieces: tuple[tuple[str, str, str], ...], marks: tuple[tuple[str, str], ...],
           focus: tuple[str, ...]) -> Image.Image:
    img = _ground(rows, gates).copy()
    draw = ImageDraw.Draw(img)
    glyph_of = dict(marks)
    for name, kind, cell in pieces:
        c, r = cell_xy(cell)
        x, y = LEFT + c * CELL, TOP + r * CELL
        ink = 0 if rows[r][c] == "R" else 1
        draw.rectangle((x, y, x + CELL - 2, y + CELL - 2), fill=1 - ink)
        draw.point([(x + gx, y + gy) for gx, gy in _GLYPH_POINTS[glyph_of.get(name, kind)]], fill=ink)
    for cell in focus:
        c, r = cell_xy(cell)
        x, y = LEFT + c * CELL, TOP + r * CELL
        # A frame in the gaps around the cell, inverted so it shows on roofs and streets alike.
        frame = {(px, py) for px in range(x - 1, x + CELL) for py in (y - 1, y + CELL - 1)}
        frame |= {(px, py) for px in (x - 1, x + CELL - 1) for py in range(y - 1, y + CELL)}
        for px, py in frame:
            if 0 <= px < WIDTH and 0 <= py < HEIGHT:
                img.putpixel((px, py), 1 - img.getpixel((px, py)))
        draw.line((0, y, 0, y + CELL - 2), fill=1)
        draw.line((x, 0, x + CELL - 2, 0), fill=1)
    return img
