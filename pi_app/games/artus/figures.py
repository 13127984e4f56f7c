"""Which tagged figure stands on which place of the round table.

The engine knows a Prince only by its colour (two silver, two bronze) and a
Knight only by its owner, but each figure carries a tag of its own, so that
a tap names one figure. A Prince starts on its crown place (the rulebook's
setup: the first of its colour on the lower place); a player's Knights are
placed in their numbers' order (the placing screen names the next one).
The table then follows each through the engine's public ``placed``,
``figure_moved`` and ``displaced`` events. The notes are taken like a
seat's newest card (TableAdapter.take_notes): on every move, and again from
the journal on resume and undo, so they never outlive the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

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


def knights_on_table(players: int) -> int:
    """A player's Knights placed on the round table (one more marks the score)."""
    return DATA.knights[players] - DATA.knights_on_score_track


def knight_id(player: int, number: int) -> str:
    """The tag id of ``player``'s Knight ``number`` (both counted from 0 and 1)."""
    return f"knight:{player + 1}:{number}"


def knight_number(tag: str) -> int | None:
    """The number of the Knight whose tag id is ``tag`` (``knight_id``'s); None for another figure."""
    kind, _, number = tag.rpartition(":")
    return int(number) if kind.startswith("knight:") and number.isdigit() else None


@dataclass
class Figures:
    """Place -> the tag id of the figure there, followed from the events of
    the moves (equal notes compare equal: an adapter's notes are compared)."""

    at: dict[int, str] = field(default_factory=lambda: {place: tag for tag, _, _, place in prince_ids()})
    # the engine's code for each tag's figure: "silver", "k1"
    code: dict[str, str] = field(default_factory=lambda: {tag: colour for tag, colour, _, _ in prince_ids()})
    placed: dict[int, int] = field(default_factory=dict)  # player -> Knights placed
    noted: int = 0  # moves of the game whose events are noted

    def note(self, played_before: int, moves: int, events: Sequence[Event]) -> None:
        """The events of ``moves`` moves played after ``played_before``
        ones; moves already noted (the session's notes, then its words for
        the same moves) change nothing."""
        if played_before < self.noted:
            return
        self.noted = played_before + moves
        group: list[tuple[int, int]] = []  # a figure's move and the displacement it causes
        for ev in events:
            if ev.audience is not None:
                continue
            if ev.type == "placed":
                player = ev.params["player"]
                self.placed[player] = number = self.placed.get(player, 0) + 1
                tag = knight_id(player, number)
                self.at[ev.params["seat"]], self.code[tag] = tag, f"k{player}"
            elif ev.type in ("figure_moved", "displaced"):
                if ev.type == "figure_moved":
                    self._moved(group)
                    group = []
                group.append((ev.params["from"], ev.params["to"]))
        self._moved(group)

    def _moved(self, group: list[tuple[int, int]]) -> None:
        # At once: a figure landing on another takes the place that one leaves.
        tags = {dst: self.at.pop(src) for src, dst in group if src in self.at}
        self.at.update(tags)

    def place_of(self, tag: str, figures: Sequence[str | None]) -> int | None:
        """Where the figure ``tag`` stands, as the state's ``figures`` agree;
        None when it is not on the table or they do not agree."""
        for place, held in self.at.items():
            if held == tag:
                return place if figures[place] == self.code[tag] else None
        return None

    def next_knight(self, player: int) -> int:
        """The number of the Knight ``player`` places next."""
        return self.placed.get(player, 0) + 1
