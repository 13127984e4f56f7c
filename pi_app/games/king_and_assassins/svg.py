"""King & Assassins' board drawn as SVG for the web pages (pi_app.web.board),
from the public view: the city as a grid, each piece where the view puts it."""

from __future__ import annotations

from html import escape

from rules.core import JSON

_CELL = 30
_KIND_MARK = {"king": "K", "knight": "N", "citizen": "C", "assassin": "A"}
_KIND_FILL = {"king": "#f2c744", "knight": "#4a78c2", "citizen": "#d9d9d9", "assassin": "#c0392b"}
_GROUND_FILL = {"R": "#b98a63", "G": "#9cc78a"}


def ka_board(view: JSON) -> str:
    """The city as a grid: columns A.., rows 1.. (the notation's cells); each
    piece where the public view puts it, a citizen as a citizen until the
    view says it is an assassin."""
    rows: list[str] = view["rows"]
    height, width = len(rows), max(len(r) for r in rows)
    pad = 16
    parts = [f'<svg class="board" viewBox="0 0 {width * _CELL + pad} {height * _CELL + pad}" '
             f'role="img" aria-label="board">']
    for c in range(width):
        parts.append(f'<text x="{pad + c * _CELL + _CELL / 2}" y="11" class="axis">{chr(65 + c)}</text>')
    for r, line in enumerate(rows):
        parts.append(f'<text x="7" y="{pad + r * _CELL + _CELL / 2 + 4}" class="axis">{r + 1}</text>')
        for c, ground in enumerate(line):
            fill = _GROUND_FILL.get(ground, "#eeeeee")
            parts.append(f'<rect x="{pad + c * _CELL}" y="{pad + r * _CELL}" width="{_CELL}" '
                         f'height="{_CELL}" fill="{fill}" stroke="#555" stroke-width="0.5"/>')
    for name, piece in sorted(view["pieces"].items()):
        cell = piece.get("cell") if isinstance(piece, dict) else None
        if not isinstance(cell, str) or len(cell) < 2 or not cell[1:].isdigit():
            continue
        c, r = ord(cell[0].upper()) - 65, int(cell[1:]) - 1
        kind = str(piece.get("kind", ""))
        x, y = pad + c * _CELL + _CELL / 2, pad + r * _CELL + _CELL / 2
        parts.append(f'<g><title>{escape(name)}: {escape(kind)} {escape(cell)}</title>'
                     f'<circle cx="{x}" cy="{y}" r="{_CELL * 0.38}" fill="{_KIND_FILL.get(kind, "#fff")}" '
                     f'stroke="#222"/><text x="{x}" y="{y + 4}" class="piece">'
                     f'{_KIND_MARK.get(kind, "?")}</text></g>')
    parts.append("</svg>")
    return "".join(parts)
