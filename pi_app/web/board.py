"""The table drawn from the public view ``view(None)``, as HTML and SVG.

King & Assassins' board is a grid the page draws as SVG; every other game's
public view is laid out as it is: tables for lists of like records (seats,
regions), lists for the rest. Nothing is drawn that the view does not hold,
so the drawing can hold no secret the view keeps.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Any

from pi_app.games.base import TableAdapter
from pi_app.web.words import w
from rules.core import JSON

_FIRST = ("seat", "name", "role")  # the columns that say whose row it is
_SKIP = {"game", "players", "to_move", "outcome", "seat"}  # said elsewhere on the page
# the engine's notes on its own data and options, not the table's state
_FLAGS = ("unverified", "unofficial")


def draw(game: str, view: JSON, labels: TableAdapter | None, lang: str) -> str:
    """The public view drawn; keys and values in the table's words where the
    game's adapter has them (its menus' labels), else as the view says them."""
    text = _Words(labels or TableAdapter(0, lang), lang)
    if game == "king-and-assassins" and "rows" in view and "pieces" in view:
        rest = {k: v for k, v in view.items() if k not in ("rows", "pieces", "gates")}
        return ka_board(view, text.key) + text.layout(rest)
    return text.layout(view)


class _Words:
    def __init__(self, labels: TableAdapter, lang: str) -> None:
        self.labels = labels
        self.lang = lang

    def layout(self, view: JSON, top: bool = True) -> str:
        """The view's fields in the engine's order; a nested record's in sorted
        order, since the order an engine built it in may follow a secret (a
        hand's card backs counted in the hand's order)."""
        items = view.items() if top else sorted(view.items(), key=lambda kv: str(kv[0]))
        rows = [(k, v) for k, v in items if k not in _SKIP and v not in (None, [], {})
                and not any(flag in str(k) for flag in _FLAGS)]
        return '<dl class="view">' + "".join(
            f"<dt>{escape(self.key(k))}</dt><dd>{self.value(k, v)}</dd>" for k, v in rows) + "</dl>"

    def key(self, key: Any) -> str:
        return self.labels.view_field(str(key), self.lang)

    def value(self, key: Any, v: Any) -> str:
        if key in self.labels.seat_lists and isinstance(v, list) and len(v) == self.labels.players:
            return '<dl class="view">' + "".join(
                f"<dt>{escape(self.labels.player_name(seat, self.lang))}</dt><dd>{self.value(None, x)}</dd>"
                for seat, x in enumerate(v)) + "</dl>"
        if isinstance(v, dict):
            if all(not isinstance(x, (dict, list)) for x in v.values()):
                return ", ".join(f"{escape(self.scalar(None, k))}: {escape(self.scalar(k, x))}"
                                 for k, x in sorted(v.items()))
            return self.layout(v, top=False)
        if isinstance(v, list):
            if v and all(isinstance(x, dict) for x in v):
                return self.table(v)
            return ", ".join(self.value(key, x) if isinstance(x, (dict, list))
                             else escape(self.scalar(key, x)) for x in v)
        return escape(self.scalar(key, v))

    def scalar(self, key: Any, v: Any) -> str:
        if v is None:
            return "-"
        if isinstance(v, bool):
            return w("yes" if v else "no", self.lang)
        return self.labels.view_value(str(key) if key is not None else None, v, self.lang)

    def table(self, items: list[dict[str, Any]]) -> str:
        keys = sorted({k for item in items for k in item}, key=lambda k: (k not in _FIRST, str(k)))
        head = "".join(f"<th>{escape(self.key(k))}</th>" for k in keys)
        body = "".join("<tr>" + "".join(f"<td>{self.value(k, item.get(k))}</td>" for k in keys) + "</tr>"
                       for item in items)
        return f'<div class="scroll"><table><tr>{head}</tr>{body}</table></div>'


# -- King & Assassins -----------------------------------------------------------
_CELL = 30
_KIND_MARK = {"king": "K", "knight": "N", "citizen": "C", "assassin": "A"}
_KIND_FILL = {"king": "#f2c744", "knight": "#4a78c2", "citizen": "#d9d9d9", "assassin": "#c0392b"}
_GROUND_FILL = {"R": "#b98a63", "G": "#9cc78a"}


def ka_board(view: JSON, name_of: Callable[[str], str] = str) -> str:
    """The city as a grid: columns A.., rows 1.. (the notation's cells); each
    piece where the public view puts it, a citizen as a citizen until the
    view says it is an assassin; ``name_of`` names a piece as its token does."""
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
        parts.append(f'<g><title>{escape(name_of(name))}: {escape(cell)}</title>'
                     f'<circle cx="{x}" cy="{y}" r="{_CELL * 0.38}" fill="{_KIND_FILL.get(kind, "#fff")}" '
                     f'stroke="#222"/><text x="{x}" y="{y + 4}" class="piece">'
                     f'{_KIND_MARK.get(kind, "?")}</text></g>')
    parts.append("</svg>")
    return "".join(parts)
