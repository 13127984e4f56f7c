"""Mordred's moves and their JSON notation (documented in NOTATION.md).

Each move is one small step a player picks from a menu; dice are chance
moves. Parsing is strict (rules.notation): malformed JSON raises
``NotationError`` naming what is wrong, while a well-formed move that breaks
a rule parses and is refused by ``State.check``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from rules.core import JSON, Move
from rules.notation import Notation, NotationError, notation_field


@dataclass(frozen=True)
class Declare(Move):
    """Phase 1: the row read on the money table; ``None`` = not declared (row C)."""

    kind: ClassVar[str] = "declare"
    row: str | None


@dataclass(frozen=True)
class Roll(Move):
    """Chance: the two dice of the turn, each read on the row by itself.

    Each die is its own field so that a menu over the 36 rolls asks for one
    die, then the other (six values each), instead of one list of 36 pairs.
    """

    kind: ClassVar[str] = "roll"
    dice: tuple[int, int] = notation_field(spread=("first", "second"))


@dataclass(frozen=True)
class Place(Move):
    """Phase 3: put one Mordred man on ``space`` (attacking a piece there)."""

    kind: ClassVar[str] = "place"
    space: str


@dataclass(frozen=True)
class Die(Move):
    """Chance: the one die of a combat (Mordred's or a player's attack)."""

    kind: ClassVar[str] = "die"
    value: int


@dataclass(frozen=True)
class Build(Move):
    """Phase 4: build ``building`` on ``space``."""

    kind: ClassVar[str] = "build"
    building: str
    space: str


@dataclass(frozen=True)
class Attack(Move):
    """Phase 4: pay £2 and attack the Mordred man on ``space`` from the piece on ``origin``."""

    kind: ClassVar[str] = "attack"
    origin: str = notation_field(key="from")
    space: str


@dataclass(frozen=True)
class EndTurn(Move):
    """Phase 4: stop spending; the next player's turn begins."""

    kind: ClassVar[str] = "end_turn"


def _older(kind: str, data: JSON) -> JSON:
    """The roll as older logs write it, ``{"type": "roll", "dice": [2, 5]}``,
    from before the dice had a field each: still read."""
    if kind != "roll" or "dice" not in data:
        return data
    extra = sorted(set(data) - {"type", "dice"})
    if extra:
        raise NotationError(f"mordred move 'roll' has unknown fields {', '.join(extra)}; it takes dice")
    dice = data["dice"]
    if not (isinstance(dice, list) and len(dice) == 2 and all(type(d) is int for d in dice)):
        raise NotationError(f"mordred move 'roll': dice must be a list of two integers, not {dice!r}")
    return {"type": kind, "first": dice[0], "second": dice[1]}


NOTATION = Notation("mordred", (Declare, Roll, Place, Die, Build, Attack, EndTurn), older=_older)


def move_from_json(data: Any) -> Move:
    return NOTATION.parse(data)
