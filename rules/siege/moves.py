"""Siege's moves and their JSON notation (see NOTATION.md).

Every move is a small step picked from a menu or by tapping a card: an
attack is built as ``attack`` (the first unit), ``join`` (more of the same
troop) and ``target``, so the menu never lists every possible group."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from rules.core import JSON, Move


@dataclass(frozen=True)
class Die(Move):
    """Chance: a die read at the table (event die or attack die)."""

    value: int

    def to_json(self) -> JSON:
        return {"type": "die", "value": self.value}


@dataclass(frozen=True)
class Draw(Move):
    """Chance: the card drawn from the deck the phase draws from."""

    card: str

    def to_json(self) -> JSON:
        return {"type": "draw", "card": self.card}


@dataclass(frozen=True)
class Play(Move):
    """Play a card from the hand; ``target`` for Assassin, Traitor and the
    pour cards (a unit id, or ``grain`` for the Traitor); ``at`` the slot in
    row 2 a card entering it takes (0: leftmost; the row's length: rightmost)."""

    card: str
    target: str | None = None
    at: int | None = None

    def to_json(self) -> JSON:
        out: JSON = {"type": "play", "card": self.card}
        if self.target is not None:
            out["target"] = self.target
        if self.at is not None:
            out["at"] = self.at
        return out


@dataclass(frozen=True)
class Discard(Move):
    card: str

    def to_json(self) -> JSON:
        return {"type": "discard", "card": self.card}


@dataclass(frozen=True)
class Feed(Move):
    """Discard a food card from the hand to feed the troops."""

    card: str

    def to_json(self) -> JSON:
        return {"type": "feed", "card": self.card}


@dataclass(frozen=True)
class Lose(Move):
    """Give up a unit on the table (Plague, Floods, starvation) or, for
    Floods, a supply card from the hand: exactly one of the two."""

    unit: str | None = None
    card: str | None = None

    def to_json(self) -> JSON:
        if self.unit is not None:
            return {"type": "lose", "unit": self.unit}
        return {"type": "lose", "card": self.card}


@dataclass(frozen=True)
class Spear(Move):
    """Spear of Destiny: ``bonus`` (+1 on the next attack this turn),
    ``archer`` or ``swordsman`` (the Peasant ``unit`` becomes one)."""

    choice: str
    unit: str | None = None
    at: int | None = None

    def to_json(self) -> JSON:
        out: JSON = {"type": "spear", "choice": self.choice}
        if self.unit is not None:
            out["unit"] = self.unit
        if self.at is not None:
            out["at"] = self.at
        return out


@dataclass(frozen=True)
class Place(Move):
    """A reinforcement arrives: its owner names its place in row 2 (``at``,
    as for ``play``)."""

    at: int

    def to_json(self) -> JSON:
        return {"type": "place", "at": self.at}


@dataclass(frozen=True)
class Raze(Move):
    """Horn of Joshua: the Attacker names the wall section removed."""

    unit: str

    def to_json(self) -> JSON:
        return {"type": "raze", "unit": self.unit}


@dataclass(frozen=True)
class Attack(Move):
    """Pick the first unit of an attack. ``melee`` only for an Archer that
    fights hand to hand instead of shooting ("Arciere contro Arciere")."""

    unit: str
    melee: bool = False

    def to_json(self) -> JSON:
        out: JSON = {"type": "attack", "unit": self.unit}
        if self.melee:
            out["melee"] = True
        return out


@dataclass(frozen=True)
class Join(Move):
    """Add a unit of the same troop to the attack being built."""

    unit: str

    def to_json(self) -> JSON:
        return {"type": "join", "unit": self.unit}


@dataclass(frozen=True)
class Target(Move):
    """Name the target: the attack resolves (after support and the die)."""

    target: str

    def to_json(self) -> JSON:
        return {"type": "target", "target": self.target}


@dataclass(frozen=True)
class Support(Move):
    """The side under a melee attack names one adjacent troop, or none."""

    unit: str | None

    def to_json(self) -> JSON:
        return {"type": "support", "unit": self.unit}


@dataclass(frozen=True)
class Shift(Move):
    """Movement: ``to`` is ``r1``, ``r0`` or a Siege Tower's unit id; ``at``
    the slot in row 1 (as for ``play``), only when ``to`` is ``r1``."""

    unit: str
    to: str
    at: int | None = None

    def to_json(self) -> JSON:
        out: JSON = {"type": "move", "unit": self.unit, "to": self.to}
        if self.at is not None:
            out["at"] = self.at
        return out


@dataclass(frozen=True)
class Pass(Move):
    """Decline a window (the Defender keeps the pour cards)."""

    def to_json(self) -> JSON:
        return {"type": "pass"}


@dataclass(frozen=True)
class EndPhase(Move):
    def to_json(self) -> JSON:
        return {"type": "end_phase"}


MOVE_TYPES: dict[str, type[Move]] = {
    "die": Die, "draw": Draw, "play": Play, "discard": Discard, "feed": Feed, "lose": Lose,
    "spear": Spear, "attack": Attack, "join": Join, "target": Target, "support": Support,
    "move": Shift, "pass": Pass, "end_phase": EndPhase, "raze": Raze, "place": Place,
}
#: keys each type may carry beyond "type"; None-able ones may be absent.
_OPTIONAL = {("play", "target"), ("lose", "unit"), ("lose", "card"), ("attack", "melee"), ("spear", "unit"),
             ("play", "at"), ("spear", "at"), ("move", "at")}
_NULLABLE = {("support", "unit")}


def move_from_json(data: Any) -> Move:
    """Parse one move strictly: unknown types or keys, missing keys and
    wrongly typed values raise ValueError naming the problem."""
    if not isinstance(data, dict):
        raise ValueError(f"a siege move must be an object, not {data!r}")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in MOVE_TYPES:
        raise ValueError(f"unknown siege move type {kind!r}; known: {', '.join(MOVE_TYPES)}")
    cls = MOVE_TYPES[kind]
    names = [f.name for f in fields(cls)]
    extra = set(data) - set(names) - {"type"}
    if extra:
        raise ValueError(f"siege move {kind!r} has unknown keys: {', '.join(sorted(extra))}")
    args: dict[str, Any] = {}
    for name in names:
        if name not in data:
            if (kind, name) in _OPTIONAL:
                continue
            raise ValueError(f"siege move {kind!r} needs {name!r}")
        value = data[name]
        if name in ("value", "at"):
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(f"siege move {kind!r}: {name} must be an integer, not {value!r}")
        elif value is None and (kind, name) in _NULLABLE:
            pass
        elif name == "melee":
            if not isinstance(value, bool):
                raise ValueError(f"siege move {kind!r}: melee must be true or false, not {value!r}")
        elif not isinstance(value, str) or not value:
            raise ValueError(f"siege move {kind!r}: {name} must be a non-empty string, not {value!r}")
        args[name] = value
    if kind == "lose" and len(args) != 1:
        raise ValueError("siege move 'lose' needs exactly one of 'unit' and 'card'")
    return cls(**args)
