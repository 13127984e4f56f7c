"""Mordred's moves and their JSON notation (documented in NOTATION.md).

Each move is one small step a player picks from a menu; dice are chance
moves. Parsing is strict: malformed JSON raises ``ValueError`` naming what is
wrong, while a well-formed move that breaks a rule parses and is refused by
``State.check``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.core import JSON, Move


@dataclass(frozen=True)
class Declare(Move):
    """Phase 1: the row read on the money table; ``None`` = not declared (row C)."""

    row: str | None

    def to_json(self) -> JSON:
        return {"type": "declare", "row": self.row}


@dataclass(frozen=True)
class Roll(Move):
    """Chance: the two dice of the turn, each read on the row by itself.

    Each die is its own field so that a menu over the 36 rolls asks for one
    die, then the other (six values each), instead of one list of 36 pairs.
    """

    dice: tuple[int, int]

    def to_json(self) -> JSON:
        return {"type": "roll", "first": self.dice[0], "second": self.dice[1]}


@dataclass(frozen=True)
class Place(Move):
    """Phase 3: put one Mordred man on ``space`` (attacking a piece there)."""

    space: str

    def to_json(self) -> JSON:
        return {"type": "place", "space": self.space}


@dataclass(frozen=True)
class Die(Move):
    """Chance: the one die of a combat (Mordred's or a player's attack)."""

    value: int

    def to_json(self) -> JSON:
        return {"type": "die", "value": self.value}


@dataclass(frozen=True)
class Build(Move):
    """Phase 4: build ``building`` on ``space``."""

    building: str
    space: str

    def to_json(self) -> JSON:
        return {"type": "build", "building": self.building, "space": self.space}


@dataclass(frozen=True)
class Attack(Move):
    """Phase 4: pay £2 and attack the Mordred man on ``space`` from the piece on ``origin``."""

    origin: str
    space: str

    def to_json(self) -> JSON:
        return {"type": "attack", "from": self.origin, "space": self.space}


@dataclass(frozen=True)
class EndTurn(Move):
    """Phase 4: stop spending; the next player's turn begins."""

    def to_json(self) -> JSON:
        return {"type": "end_turn"}


_FIELDS: dict[str, tuple[str, ...]] = {
    "declare": ("row",),
    "roll": ("first", "second"),
    "place": ("space",),
    "die": ("value",),
    "build": ("building", "space"),
    "attack": ("from", "space"),
    "end_turn": (),
}
#: the roll as older logs write it, ``{"type": "roll", "dice": [2, 5]}``: still read.
_LEGACY_ROLL = ("dice",)


def move_from_json(data: Any) -> Move:
    if not isinstance(data, dict):
        raise ValueError(f"a mordred move must be a JSON object, not {data!r}")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise ValueError(f"unknown mordred move type {kind!r}; known: {', '.join(_FIELDS)}")
    fields = _FIELDS[kind]
    if kind == "roll" and "dice" in data:
        fields = _LEGACY_ROLL  # logs written before the dice had a field each
    want = set(fields) | {"type"}
    missing = sorted(want - set(data))
    extra = sorted(set(data) - want)
    if missing:
        raise ValueError(f"{kind} move is missing {', '.join(missing)}")
    if extra:
        raise ValueError(f"{kind} move has unknown fields {', '.join(extra)}")
    if kind == "declare":
        row = data["row"]
        if row is not None and not isinstance(row, str):
            raise ValueError(f"declare: row must be a string or null, not {row!r}")
        return Declare(row)
    if kind == "roll" and fields is _LEGACY_ROLL:
        dice = data["dice"]
        if not (isinstance(dice, list) and len(dice) == 2 and all(_is_int(d) for d in dice)):
            raise ValueError(f"roll: dice must be a list of two integers, not {dice!r}")
        return Roll((dice[0], dice[1]))
    if kind == "roll":
        for key in fields:
            if not _is_int(data[key]):
                raise ValueError(f"roll: {key} must be an integer, not {data[key]!r}")
        return Roll((data["first"], data["second"]))
    if kind == "die":
        if not _is_int(data["value"]):
            raise ValueError(f"die: value must be an integer, not {data['value']!r}")
        return Die(data["value"])
    if kind == "end_turn":
        return EndTurn()
    names = {k: data[k] for k in _FIELDS[kind]}
    for key, value in names.items():
        if not isinstance(value, str):
            raise ValueError(f"{kind}: {key} must be a string, not {value!r}")
    if kind == "place":
        return Place(names["space"])
    if kind == "build":
        return Build(names["building"], names["space"])
    return Attack(names["from"], names["space"])


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
