"""What the refusals and the view read of a game of The King is Dead.

``KingIsDeadState`` has all of it; the state uses ``refusals`` and ``view``,
so they know it only through this narrow interface and never import the
state back.
"""

from __future__ import annotations

from typing import Any, ClassVar, Protocol

from rules.core import Move, Outcome
from rules.king_is_dead.actions import Board, NetEffect, Picks


class Position(Protocol):
    game_id: ClassVar[str]
    players: int
    step: str  # court, fill, order, turn, action, summon, over
    seat: int
    passes: int
    pending: dict[str, Any] | None  # {"card", "picks", "last"} during a card
    regions: dict[str, dict[str, int]]
    control: dict[str, str | None]
    crowns: dict[str, int]
    cards: list[str]
    courts: list[dict[str, int]]
    piles: list[list[str]]
    bag: dict[str, int]
    reserve: dict[str, int]
    resolved: list[str]
    loyalist_supply: int
    last_exchange: NetEffect | None

    @property
    def mordred(self) -> bool: ...

    def to_move(self) -> int | None: ...

    def legal_moves(self) -> list[Move]: ...

    def outcome(self) -> Outcome | None: ...

    def hand(self, seat: int) -> list[str]: ...

    def saxons(self) -> int: ...

    def current_region(self) -> str | None: ...

    def court_seat(self) -> int | None: ...

    def fill_region(self) -> str | None: ...

    def board(self) -> Board: ...

    def _all_choices(self) -> tuple[Picks, ...]: ...
