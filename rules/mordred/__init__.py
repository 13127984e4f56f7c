"""Mordred (Martin Wallace, Warfrog 2007): the rules engine.

Notation in NOTATION.md; printed tables and the map in data/*.json.
"""

from __future__ import annotations

from rules.mordred import messages as _messages  # registers the catalogue
from rules.mordred.game import MordredGame

GAME = MordredGame()

__all__ = ["GAME", "MordredGame"]
del _messages
