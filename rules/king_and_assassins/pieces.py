"""Piece names: stable, readable, the same in moves, views and events."""

from __future__ import annotations

from rules.king_and_assassins.data import CITIZENS, KNIGHTS

KING = "king"
KNIGHT_NAMES = tuple(f"knight{i}" for i in range(1, KNIGHTS + 1))
CITIZEN_NAMES = tuple(f"citizen{i}" for i in range(1, CITIZENS + 1))
_KIND = {KING: "king", **dict.fromkeys(KNIGHT_NAMES, "knight"), **dict.fromkeys(CITIZEN_NAMES, "citizen")}


def kind(name: object) -> str | None:
    """``king``, ``knight``, ``citizen`` (a revealed assassin is still a citizen by name), or None."""
    return _KIND.get(name) if isinstance(name, str) else None
