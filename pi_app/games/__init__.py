"""Table adapters by game id. A game with no adapter of its own still runs
through the generic :class:`TableAdapter` (menus from its legal moves).

To add a game: write ``pi_app/games/<game>/adapter.py`` defining ``ADAPTER``,
a :class:`TableAdapter` subclass with ``game_id`` set; it is found by its folder.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Sequence

from pi_app.games.base import Component, TableAdapter

__all__ = ["ADAPTERS", "Component", "TableAdapter", "for_game", "has_own_adapter"]

def _discover() -> dict[str, type[TableAdapter]]:
    found: dict[str, type[TableAdapter]] = {}
    for name in sorted(info.name for info in pkgutil.iter_modules(__path__) if info.ispkg):
        module = importlib.import_module(f"{__name__}.{name}.adapter")
        adapter = getattr(module, "ADAPTER", None)
        if isinstance(adapter, type) and issubclass(adapter, TableAdapter) and adapter.game_id:
            found[adapter.game_id] = adapter
    return found


ADAPTERS: dict[str, type[TableAdapter]] = _discover()


def has_own_adapter(game_id: str) -> bool:
    return game_id in ADAPTERS


def for_game(game_id: str, players: int, lang: str = "en", names: Sequence[str] = ()) -> TableAdapter:
    """The game's adapter for ``players``; ``names``: the players' names
    given at the lobby, by seat, which its screens then use."""
    cls = ADAPTERS.get(game_id)
    if cls is None:
        adapter = TableAdapter(players, lang, names)
        adapter.game_id = game_id  # type: ignore[misc]
        return adapter
    return cls(players, lang, names)
