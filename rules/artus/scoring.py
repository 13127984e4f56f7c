"""The scoring cards as pure functions of the table: which Knights a card
may score, and what they are worth."""

from __future__ import annotations

from itertools import combinations, product

from rules.artus import board
from rules.artus.data import DATA


def own_knights(seats: list[str | None], player: int) -> list[int]:
    code = board.knight(player)
    return [s for s, f in enumerate(seats) if f == code]


def selections(seats: list[str | None], king: int, player: int, effect: str) -> list[tuple[int, ...]]:
    """Every choice of Knights that meets a penalised scoring card (sorted
    seats); empty when the card cannot be met."""
    return choices(own_knights(seats, player), king, effect)


def choices(mine: list[int] | tuple[int, ...], king: int, effect: str) -> list[tuple[int, ...]]:
    """:func:`selections` from the seats of the player's Knights."""
    if effect == "green-yellow-red":
        by = {c: [s for s in mine if board.plate(king, s).colour == c] for c in ("green", "yellow", "red")}
        return [tuple(sorted(t)) for t in product(by["green"], by["yellow"], by["red"])]
    if effect == "carpet":
        return list(combinations([s for s in mine if s in DATA.carpet], 2))
    if effect == "three-red":
        return list(combinations([s for s in mine if board.plate(king, s).colour == "red"], 3))
    raise ValueError(f"{effect!r} is not a penalised scoring card")


def total(king: int, seats: list[int] | tuple[int, ...]) -> int:
    return sum(board.value(king, s) for s in seats)


def best_knight(seats: list[str | None], king: int, player: int) -> int:
    """The seat of the player's best-placed Knight (lowest seat on a tie).
    ruling: docs/rulings.md#artus-best-knight"""
    mine = own_knights(seats, player)
    return max(mine, key=lambda s: (board.value(king, s), -s))
