"""The table drawn from the public view ``view(None)``, as HTML and SVG.

A game whose adapter draws its board (``TableAdapter.board_svg``: King &
Assassins' grid) has it drawn so; the rest of the public view is laid out as
it is: tables for lists of like records (seats, regions), lists for the
rest. The adapter names the fields a spectator reads (``view_labels``, in
both languages) and leaves the engine's bookkeeping off (a step's name, a
counter of passes). Nothing is drawn that the view does not hold, so the
drawing can hold no secret the view keeps.
"""

from __future__ import annotations

from html import escape
from typing import Any

from pi_app.games.base import TableAdapter
from pi_app.web.words import w
from rules.core import JSON

_FIRST = ("seat", "name", "role")  # the columns that say whose row it is
# said elsewhere on the page (a list of "players" is a game's own: Mordred's money and points)
_SKIP = {"game", "players", "to_move", "outcome", "seat"}
# the engine's notes on its own data and options, not the table's state
_FLAGS = ("unverified", "unofficial")


def draw(view: JSON, labels: TableAdapter | None, lang: str) -> str:
    """The public view drawn; keys and values in the table's words where the
    game's adapter has them (its menus' labels), else as the view says them."""
    text = _Words(labels or TableAdapter(0, lang), lang)
    view = labels.page_view(view) if labels is not None else view
    drawn = labels.board_svg(view) if labels is not None else None
    if drawn is not None:
        svg, shown = drawn
        return svg + text.layout({k: v for k, v in view.items() if k not in shown})
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
        rows = [(k, v) for k, v in items if (k not in _SKIP or isinstance(v, list))
                and v not in (None, [], {}) and not any(flag in str(k) for flag in _FLAGS)
                and self.shows(view, k)]
        per_seat = [k for k, v in rows if self.one_number_a_seat(k, v)] if top else []
        out = []
        for k, v in rows:
            if len(per_seat) > 1 and k in per_seat:
                if k == per_seat[0]:  # one table: a row for each player, a column for each count
                    out.append(f"<dt>{escape(w('seats', self.lang))}</dt>"
                               f"<dd>{self.seat_table(per_seat, dict(rows))}</dd>")
                continue
            out.append(f"<dt>{escape(self.key(k))}</dt><dd>{self.value(k, v)}</dd>")
        return '<dl class="view">' + "".join(out) + "</dl>"

    def one_number_a_seat(self, key: Any, v: Any) -> bool:
        return (key in self.labels.seat_lists and isinstance(v, list) and len(v) == self.labels.players
                and all(not isinstance(x, (dict, list)) for x in v))

    def seat_table(self, keys: list[Any], view: dict[Any, Any]) -> str:
        head = f"<th>{escape(w('player', self.lang))}</th>" + "".join(
            f"<th>{escape(self.key(k))}</th>" for k in keys)
        body = "".join(
            f"<tr><td>{escape(self.labels.player_name(seat, self.lang))}</td>"
            + "".join(f"<td>{escape(self.scalar(k, view[k][seat]))}</td>" for k in keys) + "</tr>"
            for seat in range(self.labels.players))
        return f'<div class="scroll"><table><tr>{head}</tr>{body}</table></div>'

    def shows(self, record: dict[Any, Any], key: Any) -> bool:
        """The adapter's choice of what a spectator reads, for a record of
        named fields; a map's keys (regions, colours, towns) are its data."""
        return self.labels.view_shows(str(key)) or not self.is_record(record)

    def is_record(self, record: dict[Any, Any]) -> bool:
        return any(str(k) in self.labels.view_labels for k in record)

    def order(self, key: Any) -> int:
        """A column's place: as the adapter lists its fields."""
        names = list(self.labels.view_labels)
        return names.index(str(key)) if str(key) in names else len(names)

    def key(self, key: Any) -> str:
        name = self.labels.view_field(str(key), self.lang)
        return name[:1].upper() + name[1:]  # a heading: "Row 2" where a sentence says "row 2"

    def value(self, key: Any, v: Any) -> str:
        said = self.labels.view_words(str(key) if key is not None else None, v, self.lang)
        if said is not None:
            return escape(said)
        if key in self.labels.seat_lists and isinstance(v, list) and len(v) == self.labels.players:
            return '<dl class="view">' + "".join(
                f"<dt>{escape(self.labels.player_name(seat, self.lang))}</dt><dd>{self.value(None, x)}</dd>"
                for seat, x in enumerate(v)) + "</dl>"
        if isinstance(v, dict):
            if all(not isinstance(x, (dict, list)) for x in v.values()):
                named = self.is_record(v)  # a record's fields in the adapter's order, a map's keys sorted
                pairs = sorted(v.items(), key=lambda kv: (self.order(kv[0]) if named else 0, str(kv[0])))
                return ", ".join(f"{escape(self.key(k) if named else self.scalar(None, k))}: "
                                 f"{escape(self.scalar(k, x))}"
                                 for k, x in pairs if not named or self.shows(v, k))
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
        # a column no row has anything in (a team where there are no teams) is left out
        keys = sorted({k for item in items for k in item
                       if self.shows(item, k) and item[k] not in (None, [], {})},
                      key=lambda k: (k not in _FIRST, self.order(k), str(k)))
        head = "".join(f"<th>{escape(self.key(k))}</th>" for k in keys)
        body = "".join("<tr>" + "".join(f"<td>{self.value(k, item.get(k))}</td>" for k in keys) + "</tr>"
                       for item in items)
        return f'<div class="scroll"><table><tr>{head}</tr>{body}</table></div>'
