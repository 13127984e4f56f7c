"""Siege's moves and their JSON notation (see NOTATION.md).

Every move is a small step picked from a menu or by tapping a card: an
attack is built as ``attack`` (the first unit), ``join`` (more of the same
troop) and ``target``, so the menu never lists every possible group."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from rules.core import Move
from rules.notation import Notation, NotationError


@dataclass(frozen=True)
class Die(Move):
    """Chance: a die read at the table (event die or attack die)."""

    kind: ClassVar[str] = "die"
    value: int


@dataclass(frozen=True)
class Draw(Move):
    """Chance: the card drawn from the deck the phase draws from."""

    kind: ClassVar[str] = "draw"
    card: str


@dataclass(frozen=True)
class Play(Move):
    """Play a card from the hand; ``target`` for Assassin, Traitor and the
    pour cards (a unit id, or ``grain`` for the Traitor); ``at`` the slot in
    row 2 a card entering it takes (0: leftmost; the row's length: rightmost)."""

    kind: ClassVar[str] = "play"
    card: str
    target: str | None = None
    at: int | None = None


@dataclass(frozen=True)
class Discard(Move):
    kind: ClassVar[str] = "discard"
    card: str


@dataclass(frozen=True)
class Feed(Move):
    """Discard a food card from the hand to feed the troops."""

    kind: ClassVar[str] = "feed"
    card: str


@dataclass(frozen=True)
class Lose(Move):
    """Give up a unit on the table (Plague, Floods, starvation) or, for
    Floods, a supply card from the hand: exactly one of the two."""

    kind: ClassVar[str] = "lose"
    unit: str | None = None
    card: str | None = None

    @classmethod
    def check_notation(cls, game: str, data: Mapping[str, Any]) -> None:
        if ("unit" in data) == ("card" in data):
            raise NotationError(f"{game} move 'lose' needs exactly one of 'unit' and 'card'")


@dataclass(frozen=True)
class Spear(Move):
    """Spear of Destiny: ``bonus`` (+1 on the next attack this turn),
    ``archer`` or ``swordsman`` (the Peasant ``unit`` becomes one)."""

    kind: ClassVar[str] = "spear"
    choice: str
    unit: str | None = None
    at: int | None = None


@dataclass(frozen=True)
class Place(Move):
    """A reinforcement arrives: its owner names its place in row 2 (``at``,
    as for ``play``)."""

    kind: ClassVar[str] = "place"
    at: int


@dataclass(frozen=True)
class Raze(Move):
    """Horn of Joshua: the Attacker names the wall section removed."""

    kind: ClassVar[str] = "raze"
    unit: str


@dataclass(frozen=True)
class Attack(Move):
    """Pick the first unit of an attack. ``melee`` only for an Archer that
    fights hand to hand instead of shooting ("Arciere contro Arciere")."""

    kind: ClassVar[str] = "attack"
    unit: str
    melee: bool = False


@dataclass(frozen=True)
class Join(Move):
    """Add a unit of the same troop to the attack being built."""

    kind: ClassVar[str] = "join"
    unit: str


@dataclass(frozen=True)
class Target(Move):
    """Name the target: the attack resolves (after support and the die)."""

    kind: ClassVar[str] = "target"
    target: str


@dataclass(frozen=True)
class Support(Move):
    """The side under a melee attack names one adjacent troop, or none."""

    kind: ClassVar[str] = "support"
    unit: str | None


@dataclass(frozen=True)
class Shift(Move):
    """Movement: ``to`` is ``r1``, ``r0`` or a Siege Tower's unit id; ``at``
    the slot in row 1 (as for ``play``), only when ``to`` is ``r1``."""

    kind: ClassVar[str] = "move"
    unit: str
    to: str
    at: int | None = None


@dataclass(frozen=True)
class Pass(Move):
    """Decline a window (the Defender keeps the pour cards)."""

    kind: ClassVar[str] = "pass"


@dataclass(frozen=True)
class EndPhase(Move):
    kind: ClassVar[str] = "end_phase"


MOVE_TYPES: dict[str, type[Move]] = {
    cls.kind: cls
    for cls in (Die, Draw, Play, Discard, Feed, Lose, Spear, Attack, Join, Target, Support, Shift, Pass,
                EndPhase, Raze, Place)
}
NOTATION = Notation("siege", MOVE_TYPES.values())


def move_from_json(data: Any) -> Move:
    return NOTATION.parse(data)
