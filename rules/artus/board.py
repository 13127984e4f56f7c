"""The round table as plain lists: pure functions over seats, rings and the
King's seat. Seats are numbered clockwise on the fixed board; the rotating
table's plates are read relative to the King.

Figures are short codes: ``"k0"``..``"k3"`` a Knight of that player,
``"silver"`` / ``"bronze"`` a Prince (the King is the Prince on the King's
seat).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from types import MappingProxyType
from typing import Any

from rules.artus.data import DATA, Plate

PRINCES = ("silver", "bronze")


def knight(player: int) -> str:
    return f"k{player}"


def owner(figure: str | None) -> int | None:
    """The player owning a Knight, ``None`` for a Prince, the King or nobody."""
    if figure is None or figure in PRINCES:
        return None
    return int(figure[1:])


def is_royal(figure: str | None) -> bool:
    return figure in PRINCES


def plate(king: int, seat: int) -> Plate:
    """The plate facing ``seat``: counted counter-clockwise from the King."""
    return DATA.plates[(king - seat) % DATA.seats]


def value(king: int, seat: int) -> int:
    return plate(king, seat).value


@cache
def values(king: int) -> tuple[int, ...]:
    """Every seat's value, seat 0 first, with the King on ``king``."""
    return tuple(value(king, s) for s in range(DATA.seats))


def next_empty_ccw(seats: list[str | None], seat: int) -> int:
    """The first empty seat counter-clockwise from ``seat`` (not ``seat`` itself).
    ruling: docs/rulings.md#artus-displaced-counter-clockwise"""
    n = len(seats)
    for k in range(1, n):
        j = (seat - k) % n
        if seats[j] is None:
            return j
    raise ValueError("no empty seat at the table")  # the data loader rules this out


@cache
def label(figure: str, king: bool) -> Mapping[str, Any]:
    """How the table names a figure: kind, colour and owner, plus a phrase.
    Kept per figure (a few of them), read-only: events copy it into theirs."""
    if figure in PRINCES:
        kind = "king" if king else "prince"
        return MappingProxyType({"figure": kind, "colour": figure,
                                 "name": f"{figure} {'King' if king else 'prince'}"})
    player = owner(figure)
    return MappingProxyType({"figure": "knight", "owner": player, "name": f"knight of player {player}"})


def seat_ok(seat: Any) -> bool:
    return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < DATA.seats
