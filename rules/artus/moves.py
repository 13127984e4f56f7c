"""Artus's moves and their JSON notation (see NOTATION.md).

Parsing is strict: a malformed object raises ``ValueError`` naming the fault;
a well-formed move that breaks a rule parses and is refused by ``check``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.core import JSON, Move

#: what a played card does: move a figure, add a ring, score, or take a
#: scoring card's penalty
DOS = ("move", "ring", "score", "penalty")


@dataclass(frozen=True)
class Reveal(Move):
    """Chance: the card that comes off the pile being drawn from."""

    card: str

    def to_json(self) -> JSON:
        return {"type": "card", "card": self.card}


@dataclass(frozen=True)
class Draw(Move):
    """The player picks the pile to draw the next card from."""

    pile: str

    def to_json(self) -> JSON:
        return {"type": "draw", "pile": self.pile}


@dataclass(frozen=True)
class Place(Move):
    """Setup: put one of your Knights on an empty seat."""

    seat: int

    def to_json(self) -> JSON:
        return {"type": "place", "seat": self.seat}


@dataclass(frozen=True)
class Play(Move):
    """Play a hand card and carry out one of its actions.

    ``seat`` is where the figure to move (or the prince to ring) stands;
    ``steps`` is signed, negative going counter-clockwise; ``knights`` are the
    seats of the Knights a scoring card scores (kept sorted).
    """

    card: str
    do: str
    seat: int | None = None
    steps: int | None = None
    knights: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        # One spelling per choice: the order Knights are named in is no choice.
        if self.knights and isinstance(self.knights, tuple) and all(isinstance(k, int) for k in self.knights):
            object.__setattr__(self, "knights", tuple(sorted(self.knights)))

    def to_json(self) -> JSON:
        out: JSON = {"type": "play", "card": self.card, "do": self.do}
        if self.seat is not None:
            out["seat"] = self.seat
        if self.steps is not None:
            out["steps"] = self.steps
        if self.knights:
            out["knights"] = list(self.knights)
        return out


#: the fields each kind of play takes: (required, optional)
_PLAY_FIELDS: dict[str, tuple[set[str], set[str]]] = {
    "move": ({"seat", "steps"}, set()),
    "ring": ({"seat"}, set()),
    "score": (set(), {"knights"}),
    "penalty": (set(), set()),
}


def _int(data: dict[str, Any], key: str) -> int:
    value = data[key]
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"artus move field {key!r} must be an integer, not {value!r}")
    return value


def _str(data: dict[str, Any], key: str) -> str:
    value = data[key]
    if not isinstance(value, str):
        raise ValueError(f"artus move field {key!r} must be a string, not {value!r}")
    return value


def _fields(
    data: dict[str, Any], required: set[str], optional: frozenset[str] | set[str] = frozenset()
) -> None:
    keys = set(data) - {"type"}
    missing = required - keys
    extra = keys - required - optional
    if missing:
        raise ValueError(f"artus {data['type']} move lacks {', '.join(sorted(missing))}: {data!r}")
    if extra:
        raise ValueError(
            f"artus {data['type']} move has unknown field(s) {', '.join(sorted(extra))}: {data!r}"
        )


def move_from_json(data: Any) -> Move:
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ValueError(f"an artus move is an object with a string 'type', not {data!r}")
    kind = data["type"]
    if kind == "card":
        _fields(data, {"card"})
        return Reveal(_str(data, "card"))
    if kind == "draw":
        _fields(data, {"pile"})
        return Draw(_str(data, "pile"))
    if kind == "place":
        _fields(data, {"seat"})
        return Place(_int(data, "seat"))
    if kind == "play":
        if not isinstance(data.get("do"), str) or data["do"] not in DOS:
            raise ValueError(f"artus play needs 'do', one of {', '.join(DOS)}: {data!r}")
        required, optional = _PLAY_FIELDS[data["do"]]
        _fields(data, {"card", "do"} | required, optional)
        knights: tuple[int, ...] = ()
        if "knights" in data:
            if not isinstance(data["knights"], list):
                raise ValueError(f"artus play 'knights' must be a list of seats: {data!r}")
            knights = tuple(_int({"knight": k}, "knight") for k in data["knights"])
        return Play(
            _str(data, "card"),
            data["do"],
            _int(data, "seat") if "seat" in data else None,
            _int(data, "steps") if "steps" in data else None,
            knights,
        )
    raise ValueError(f"unknown artus move type {kind!r}; expected card, draw, place or play")
