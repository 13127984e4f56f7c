"""The moves of The King is Dead and their JSON notation (see NOTATION.md).

Each move is one small step a player picks from a short menu (or a chance
outcome read in at the table); a card with its choices is a sequence of them.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from rules.core import JSON, Move
from rules.king_is_dead.data import DATA, LOYALIST


@dataclass(frozen=True)
class KidMove(Move):
    kind: ClassVar[str] = ""

    def __deepcopy__(self, memo: dict[int, Any]) -> KidMove:
        return self  # frozen: a state copy may share its moves

    def to_json(self) -> JSON:
        return {"type": self.kind, **self.__dict__}


@dataclass(frozen=True)
class Draw(KidMove):
    """Chance: a follower of ``colour`` comes out of the bag."""

    kind: ClassVar[str] = "draw"
    colour: str


@dataclass(frozen=True)
class RegionCard(KidMove):
    """Chance: the region card laid at the next position of the order."""

    kind: ClassVar[str] = "region_card"
    region: str


@dataclass(frozen=True)
class Pass(KidMove):
    kind: ClassVar[str] = "pass"


@dataclass(frozen=True)
class Play(KidMove):
    kind: ClassVar[str] = "play"
    card: str


@dataclass(frozen=True)
class Swap(KidMove):
    """Crown: one of the two region cards that change places."""

    kind: ClassVar[str] = "swap"
    region: str


@dataclass(frozen=True)
class Crown(KidMove):
    """Crown: the swapped region card that gets the crown token."""

    kind: ClassVar[str] = "crown"
    region: str


@dataclass(frozen=True)
class Take(KidMove):
    """Garrison / Ambassador: a follower on the board that is exchanged."""

    kind: ClassVar[str] = "take"
    region: str
    colour: str


@dataclass(frozen=True)
class Into(KidMove):
    """Garrison / Ambassador, partial action: the other side is this empty region."""

    kind: ClassVar[str] = "into"
    region: str


@dataclass(frozen=True)
class Place(KidMove):
    """Settlement / faction cards: a follower from the reserve into a region."""

    kind: ClassVar[str] = "place"
    region: str
    colour: str


@dataclass(frozen=True)
class Summon(KidMove):
    """A follower from a region into the player's court."""

    kind: ClassVar[str] = "summon"
    region: str
    colour: str


MOVE_TYPES: dict[str, type[KidMove]] = {
    cls.kind: cls for cls in (Draw, RegionCard, Pass, Play, Swap, Crown, Take, Into, Place, Summon)
}

# The vocabulary each field accepts: names outside it are malformed, not
# merely illegal, because no state could ever accept them.
_VOCABULARY: dict[str, tuple[str, ...]] = {
    "region": DATA.regions,
    "colour": (*DATA.colours, LOYALIST),
    "card": tuple(DATA.cards),
}


def move_from_json(data: Any) -> KidMove:
    if not isinstance(data, dict):
        raise ValueError(f"a king-is-dead move must be a JSON object, not {data!r}")
    kind = data.get("type")
    cls = MOVE_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ValueError(f"unknown move type {kind!r}; expected one of {', '.join(MOVE_TYPES)}")
    names = [f.name for f in fields(cls)]
    extra = set(data) - {"type", *names}
    if extra:
        raise ValueError(f"{kind!r} move: unknown field(s) {sorted(extra)}; it takes {names or 'none'}")
    values: dict[str, str] = {}
    for name in names:
        if name not in data:
            raise ValueError(f"{kind!r} move: missing field {name!r}")
        value = data[name]
        allowed = _VOCABULARY[name]
        if value not in allowed:
            raise ValueError(f"{kind!r} move: {name} {value!r} is not one of {', '.join(allowed)}")
        values[name] = value
    return cls(**values)
