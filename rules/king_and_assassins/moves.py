"""The moves of King & Assassins and their JSON notation (see NOTATION.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.core import JSON, Move


def name_order(name: str) -> tuple[int, str]:
    """citizen2 before citizen10: the order names are listed in."""
    return (len(name), name)


@dataclass(frozen=True)
class Choose(Move):
    """The Assassin player's secret pick of the three citizens who are assassins."""

    citizens: tuple[str, ...]

    def __post_init__(self) -> None:
        # One canonical order, so a pick equals the listed move whatever order it was tapped in.
        object.__setattr__(self, "citizens", tuple(sorted(self.citizens, key=name_order)))

    def to_json(self) -> JSON:
        return {"type": "choose", "citizens": list(self.citizens)}


@dataclass(frozen=True)
class Start(Move):
    """Side B: the King player's pick of the king's start cell."""

    cell: str

    def to_json(self) -> JSON:
        return {"type": "start", "cell": self.cell}


@dataclass(frozen=True)
class Draw(Move):
    """Chance: the round card turned over."""

    card: int

    def to_json(self) -> JSON:
        return {"type": "draw", "card": self.card}


@dataclass(frozen=True)
class Step(Move):
    """One step of a piece: move, climb or descend (the cells decide which), pushing for knights."""

    piece: str
    dir: str

    def to_json(self) -> JSON:
        return {"type": "move", "piece": self.piece, "dir": self.dir}


@dataclass(frozen=True)
class Arrest(Move):
    """A knight arrests an adjacent citizen (handcuff rounds only)."""

    piece: str
    target: str

    def to_json(self) -> JSON:
        return {"type": "arrest", "piece": self.piece, "target": self.target}


@dataclass(frozen=True)
class Eliminate(Move):
    """A knight eliminates a revealed assassin, or a revealed assassin a knight."""

    piece: str
    target: str

    def to_json(self) -> JSON:
        return {"type": "eliminate", "piece": self.piece, "target": self.target}


@dataclass(frozen=True)
class Attack(Move):
    """A revealed assassin wounds the adjacent king."""

    piece: str

    def to_json(self) -> JSON:
        return {"type": "attack", "piece": self.piece}


@dataclass(frozen=True)
class Reveal(Move):
    """The Assassin player shows that a citizen (on the board or arrested) is an assassin."""

    piece: str

    def to_json(self) -> JSON:
        return {"type": "reveal", "piece": self.piece}


@dataclass(frozen=True)
class End(Move):
    """The player to move ends their turn; unused action points are lost."""

    def to_json(self) -> JSON:
        return {"type": "end"}


_FIELDS: dict[str, tuple[type[Move], tuple[str, ...]]] = {
    "choose": (Choose, ("citizens",)),
    "start": (Start, ("cell",)),
    "draw": (Draw, ("card",)),
    "move": (Step, ("piece", "dir")),
    "arrest": (Arrest, ("piece", "target")),
    "eliminate": (Eliminate, ("piece", "target")),
    "attack": (Attack, ("piece",)),
    "reveal": (Reveal, ("piece",)),
    "end": (End, ()),
}


def move_from_json(data: Any) -> Move:
    """Strict parse: a malformed move raises ValueError naming what is wrong;
    a well-formed move naming an unknown piece or cell parses, and check() refuses it."""
    if not isinstance(data, dict):
        raise ValueError(f"a king-and-assassins move is an object with a type, not {data!r}")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise ValueError(f"unknown move type {kind!r}; one of {', '.join(_FIELDS)}")
    cls, fields = _FIELDS[kind]
    keys = set(data) - {"type"}
    if keys != set(fields):
        missing = sorted(set(fields) - keys)
        extra = sorted(keys - set(fields))
        raise ValueError(f"{kind} move: missing fields {missing}, unknown fields {extra}")
    values: dict[str, Any] = {}
    for f in fields:
        v = data[f]
        if f == "citizens":
            if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
                raise ValueError(f"choose move: citizens must be a list of names, not {v!r}")
            v = tuple(v)
        elif f == "card":
            if not isinstance(v, int) or isinstance(v, bool):
                raise ValueError(f"draw move: card must be a card number, not {v!r}")
        elif f == "dir":
            if v not in ("N", "E", "S", "W"):
                raise ValueError(f"{kind} move: dir must be N, E, S or W, not {v!r}")
        elif not isinstance(v, str):
            raise ValueError(f"{kind} move: {f} must be a name, not {v!r}")
        values[f] = v
    return cls(**values)
