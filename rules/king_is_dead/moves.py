"""The moves of The King is Dead and their JSON notation (see NOTATION.md).

Each move is one small step a player picks from a short menu (or a chance
outcome read in at the table); a card with its choices is a sequence of them.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from rules.core import Move
from rules.king_is_dead.data import DATA, LOYALIST
from rules.notation import Notation, notation_field


def _region() -> Any:
    return notation_field(choices=DATA.regions)


def _colour() -> Any:
    return notation_field(choices=(*DATA.colours, LOYALIST))


@dataclass(frozen=True)
class KidMove(Move):
    def __post_init__(self) -> None:
        # The hash a frozen dataclass gives, worked out once (``_hash``).
        object.__setattr__(self, "_hash_value", hash(tuple(getattr(self, f.name) for f in fields(self))))

    def __deepcopy__(self, memo: dict[int, Any]) -> KidMove:
        return self  # frozen: a state copy may share its moves


@dataclass(frozen=True)
class Draw(KidMove):
    """Chance: a follower of ``colour`` comes out of the bag."""

    kind: ClassVar[str] = "draw"
    colour: str = _colour()


@dataclass(frozen=True)
class RegionCard(KidMove):
    """Chance: the region card laid at the next position of the order."""

    kind: ClassVar[str] = "region_card"
    region: str = _region()


@dataclass(frozen=True)
class Pass(KidMove):
    kind: ClassVar[str] = "pass"


@dataclass(frozen=True)
class Play(KidMove):
    kind: ClassVar[str] = "play"
    card: str = notation_field(choices=tuple(DATA.cards))


@dataclass(frozen=True)
class Swap(KidMove):
    """Crown: one of the two region cards that change places."""

    kind: ClassVar[str] = "swap"
    region: str = _region()


@dataclass(frozen=True)
class Crown(KidMove):
    """Crown: the swapped region card that gets the crown token."""

    kind: ClassVar[str] = "crown"
    region: str = _region()


@dataclass(frozen=True)
class Take(KidMove):
    """Garrison / Ambassador: a follower on the board that is exchanged."""

    kind: ClassVar[str] = "take"
    region: str = _region()
    colour: str = _colour()


@dataclass(frozen=True)
class Into(KidMove):
    """Garrison / Ambassador, partial action: the other side is this empty region."""

    kind: ClassVar[str] = "into"
    region: str = _region()


@dataclass(frozen=True)
class Place(KidMove):
    """Settlement / faction cards: a follower from the reserve into a region."""

    kind: ClassVar[str] = "place"
    region: str = _region()
    colour: str = _colour()


@dataclass(frozen=True)
class Summon(KidMove):
    """A follower from a region into the player's court."""

    kind: ClassVar[str] = "summon"
    region: str = _region()
    colour: str = _colour()


MOVE_TYPES: dict[str, type[KidMove]] = {
    cls.kind: cls for cls in (Draw, RegionCard, Pass, Play, Swap, Crown, Take, Into, Place, Summon)
}


def _hash(move: KidMove) -> int:
    return move._hash_value  # type: ignore[attr-defined, no-any-return]


# Each class's own hash (a frozen dataclass makes one per class) replaced by
# the value worked out when the move is made: the same number, read rather
# than computed. The search hashes moves by the hundred thousand, as keys of
# the cards' menus (pick lists are tuples of moves).
for _cls in MOVE_TYPES.values():
    _cls.__hash__ = _hash  # type: ignore[method-assign, assignment]
# Names outside a field's vocabulary are malformed, not merely illegal: no
# state could ever accept them.
NOTATION = Notation("king-is-dead", MOVE_TYPES.values())


def move_from_json(data: Any) -> KidMove:
    return NOTATION.parse(data)  # type: ignore[return-value]


# Prebuilt moves, looked up rather than made: the computer's search lists
# moves by the hundred thousand, and making a frozen dataclass costs more
# than a lookup. Equal to the moves they stand for, so nothing else changes.
_FOLLOWERS = (*DATA.colours, LOYALIST)
PASS = Pass()
PLAYS: dict[str, Play] = {c: Play(c) for c in DATA.cards}
SWAPS: dict[str, Swap] = {r: Swap(r) for r in DATA.regions}
CROWNS: dict[str, Crown] = {r: Crown(r) for r in DATA.regions}
INTOS: dict[str, Into] = {r: Into(r) for r in DATA.regions}
TAKES: dict[tuple[str, str], Take] = {(r, c): Take(r, c) for r in DATA.regions for c in _FOLLOWERS}
PLACES: dict[tuple[str, str], Place] = {(r, c): Place(r, c) for r in DATA.regions for c in _FOLLOWERS}
SUMMONS: dict[tuple[str, str], Summon] = {(r, c): Summon(r, c) for r in DATA.regions for c in _FOLLOWERS}
