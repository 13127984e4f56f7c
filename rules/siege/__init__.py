"""Siege (card game; Italian translation of English v1.5, 2003): seat 0 the
Attacker, seat 1 the Defender. See NOTATION.md for the moves."""

from __future__ import annotations

from rules import catalogue
from rules.siege.game import SiegeGame
from rules.siege.messages import MESSAGES, words

catalogue.register(MESSAGES, words=words())

GAME = SiegeGame()

__all__ = ["GAME"]
