"""Which tagged Prince stands on which place of the round table.

The engine knows a Prince only by its colour (two silver, two bronze), but
each figure carries a tag of its own, so that a tap names one figure. Each
starts on its crown place (the rulebook's setup: the first of its colour on
the lower place), and the table follows it through the engine's public
``figure_moved`` and ``displaced`` events. The notes are taken like a
seat's newest card (TableAdapter.take_notes): on every move, and again
from the journal on resume and undo, so they never outlive the game.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.artus.data import DATA
from rules.core import Event

ORDINALS: tuple[tuple[str, str], ...] = (("first", "primo"), ("second", "secondo"))


def prince_ids() -> list[tuple[str, str, int, int]]:
    """(tag id, colour, its ordinal among its colour, its place at the start), seat order."""
    out = []
    seen: dict[str, int] = {}
    for place in sorted(DATA.start_princes):
        colour = DATA.start_princes[place]
        k = seen.get(colour, 0)
        seen[colour] = k + 1
        out.append((f"prince:{colour}:{k + 1}", colour, k, place))
    return out


class Princes:
    """Place -> the Prince's tag id, followed from the events of the moves."""

    def __init__(self) -> None:
        self.at: dict[int, str] = {place: tag for tag, _, _, place in prince_ids()}
        self.colour = {tag: colour for tag, colour, _, _ in prince_ids()}
        self.noted = 0  # moves of the game whose events are noted

    def note(self, played_before: int, moves: int, events: Sequence[Event]) -> None:
        """The events of ``moves`` moves played after ``played_before``
        ones; moves already noted (the session's notes, then its words for
        the same moves) change nothing."""
        if played_before < self.noted:
            return
        self.noted = played_before + moves
        group: list[tuple[int, int]] = []  # a figure's move and the displacement it causes
        for ev in events:
            if ev.audience is not None or ev.type not in ("figure_moved", "displaced"):
                continue
            if ev.type == "figure_moved":
                self._moved(group)
                group = []
            if ev.params.get("figure") in ("prince", "king"):
                group.append((ev.params["from"], ev.params["to"]))
        self._moved(group)

    def _moved(self, group: list[tuple[int, int]]) -> None:
        # At once: a Prince landing on another takes the place that one leaves.
        tags = {dst: self.at.pop(src) for src, dst in group if src in self.at}
        self.at.update(tags)

    def place_of(self, tag: str, figures: Sequence[str | None]) -> int | None:
        """Where the Prince ``tag`` stands, as the state's ``figures`` agree;
        None when they do not (notes not taken for this state)."""
        for place, held in self.at.items():
            if held == tag:
                return place if figures[place] == self.colour[tag] else None
        return None
