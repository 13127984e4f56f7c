"""Artus's moves and their JSON notation (see NOTATION.md).

Parsing is strict (rules.notation): a malformed object raises
``NotationError`` naming the fault; a well-formed move that breaks a rule
parses and is refused by ``check``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from rules.core import Move
from rules.notation import Notation, NotationError, notation_field

#: what a played card does: move a figure, add a ring, score, or take a
#: scoring card's penalty
DOS = ("move", "ring", "score", "penalty")


@dataclass(frozen=True)
class Reveal(Move):
    """Chance: the card that comes off the pile being drawn from."""

    kind: ClassVar[str] = "card"
    card: str


@dataclass(frozen=True)
class Draw(Move):
    """The player picks the pile to draw the next card from."""

    kind: ClassVar[str] = "draw"
    pile: str


@dataclass(frozen=True)
class Place(Move):
    """Setup: put one of your Knights on an empty seat."""

    kind: ClassVar[str] = "place"
    seat: int


#: the fields each kind of play takes beside card and do: (required, optional)
_PLAY_FIELDS: dict[str, tuple[set[str], set[str]]] = {
    "move": ({"seat", "steps"}, set()),
    "ring": ({"seat"}, set()),
    "score": (set(), {"knights"}),
    "penalty": (set(), set()),
}


@dataclass(frozen=True)
class Play(Move):
    """Play a hand card and carry out one of its actions.

    ``seat`` is where the figure to move (or the prince to ring) stands;
    ``steps`` is signed, negative going counter-clockwise; ``knights`` are the
    seats of the Knights a scoring card scores (kept sorted).
    """

    kind: ClassVar[str] = "play"
    card: str
    do: str = notation_field(choices=DOS)
    seat: int | None = None
    steps: int | None = None
    knights: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        # One spelling per choice: the order Knights are named in is no choice.
        if self.knights and isinstance(self.knights, tuple) and all(isinstance(k, int) for k in self.knights):
            object.__setattr__(self, "knights", tuple(sorted(self.knights)))

    @classmethod
    def check_notation(cls, game: str, data: Mapping[str, Any]) -> None:
        """Which of seat, steps and knights a play takes depends on what it does."""
        required, optional = _PLAY_FIELDS[data["do"]]
        given = set(data) - {"type", "card", "do"}
        missing = sorted(required - given)
        extra = sorted(given - required - optional)
        if missing:
            raise NotationError(
                f"{game} move 'play' doing {data['do']!r} lacks {', '.join(missing)}: {data!r}"
            )
        if extra:
            raise NotationError(
                f"{game} move 'play' doing {data['do']!r} takes no {', '.join(extra)}: {data!r}"
            )


NOTATION = Notation("artus", (Reveal, Draw, Place, Play))


def move_from_json(data: Any) -> Move:
    return NOTATION.parse(data)
