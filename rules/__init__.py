"""Tablekeeper's games: pure rules, no I/O, no clock, no hardware.

``rules.GAMES`` holds the registered games by id; ``rules.get(id)`` returns
one. A game package registers itself by defining ``GAME`` (a
:class:`rules.core.Game` instance) in its ``__init__``.
"""

from __future__ import annotations

import importlib
import importlib.util

from rules import sections
from rules.core import CHANCE, Event, Game, IllegalMove, Move, Option, Outcome, State

__all__ = [
    "CHANCE",
    "GAMES",
    "Event",
    "Game",
    "IllegalMove",
    "Move",
    "Option",
    "Outcome",
    "State",
    "get",
]

# The packages in the order the games are offered; a package that is not
# there yet is simply not registered.
_PACKAGES = ("king_is_dead", "king_and_assassins", "mordred", "artus", "siege")


def _discover() -> dict[str, Game]:
    games: dict[str, Game] = {}
    for name in _PACKAGES:
        if importlib.util.find_spec(f"rules.{name}") is None:
            continue
        module = importlib.import_module(f"rules.{name}")
        game = getattr(module, "GAME", None)
        if isinstance(game, Game):
            sections.table(game.id)  # its rule names checked at start, as the game's own data is
            games[game.id] = game
    return games


GAMES: dict[str, Game] = _discover()


def get(game_id: str) -> Game:
    try:
        return GAMES[game_id]
    except (KeyError, TypeError):
        known = ", ".join(GAMES) or "none"
        raise ValueError(f"unknown game {game_id!r}; registered games: {known}") from None
