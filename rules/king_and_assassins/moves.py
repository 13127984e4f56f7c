"""The moves of King & Assassins and their JSON notation (see NOTATION.md).

Parsing is strict (rules.notation): a malformed move raises ``NotationError``
naming what is wrong; a well-formed move naming an unknown piece or cell
parses, and check() refuses it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from rules.core import Move
from rules.notation import Notation, notation_field


def name_order(name: str) -> tuple[int, str]:
    """citizen2 before citizen10: the order names are listed in."""
    return (len(name), name)


@dataclass(frozen=True)
class Choose(Move):
    """The Assassin player's secret pick of the three citizens who are assassins."""

    kind: ClassVar[str] = "choose"
    citizens: tuple[str, ...]

    def __post_init__(self) -> None:
        # One canonical order, so a pick equals the listed move whatever order it was tapped in.
        object.__setattr__(self, "citizens", tuple(sorted(self.citizens, key=name_order)))


@dataclass(frozen=True)
class Start(Move):
    """Side B: the King player's pick of the king's start cell."""

    kind: ClassVar[str] = "start"
    cell: str


@dataclass(frozen=True)
class Draw(Move):
    """Chance: the round card turned over."""

    kind: ClassVar[str] = "draw"
    card: int


@dataclass(frozen=True)
class Step(Move):
    """One step of a piece: move, climb or descend (the cells decide which), pushing for knights."""

    kind: ClassVar[str] = "move"
    piece: str
    dir: str = notation_field(choices=("N", "E", "S", "W"))


@dataclass(frozen=True)
class Arrest(Move):
    """A knight arrests an adjacent citizen (handcuff rounds only)."""

    kind: ClassVar[str] = "arrest"
    piece: str
    target: str


@dataclass(frozen=True)
class Eliminate(Move):
    """A knight eliminates a revealed assassin, or a revealed assassin a knight."""

    kind: ClassVar[str] = "eliminate"
    piece: str
    target: str


@dataclass(frozen=True)
class Attack(Move):
    """A revealed assassin wounds the adjacent king."""

    kind: ClassVar[str] = "attack"
    piece: str


@dataclass(frozen=True)
class Reveal(Move):
    """The Assassin player shows that a citizen (on the board or arrested) is an assassin."""

    kind: ClassVar[str] = "reveal"
    piece: str


@dataclass(frozen=True)
class End(Move):
    """The player to move ends their turn; unused action points are lost."""

    kind: ClassVar[str] = "end"


NOTATION = Notation(
    "king-and-assassins", (Choose, Start, Draw, Step, Arrest, Eliminate, Attack, Reveal, End)
)


def move_from_json(data: Any) -> Move:
    return NOTATION.parse(data)
