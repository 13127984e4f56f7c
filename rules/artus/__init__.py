"""Artus (Kiesling & Kramer, alea/Ravensburger 2011): Knights jostling for
the seats behind King Arthur at a turning round table. Beginner and advanced
rules; the notation is in NOTATION.md."""

from __future__ import annotations

from rules.artus import messages as _messages  # noqa: F401  (registers the catalogue)
from rules.artus.game import ArtusGame

GAME = ArtusGame()

__all__ = ["GAME", "ArtusGame"]
