"""King & Assassins (Galakta 2013): seat 0 the King player, seat 1 the Assassin player."""

from __future__ import annotations

from typing import Any, ClassVar

from rules import catalogue
from rules.core import Game, Move, Option, Role, State
from rules.king_and_assassins.data import ASSASSINS, BOARDS, ROUND_CARDS
from rules.king_and_assassins.messages import MESSAGES, WORDS
from rules.king_and_assassins.moves import move_from_json
from rules.king_and_assassins.state import GAME_ID, KAState

catalogue.register(MESSAGES, words=WORDS)


def _max_moves() -> int:
    """An honest bound: per round the draw, every point spent (each costly
    action costs at least 1), the Assassin player's free descents (at most one
    per point plus one per assassin already on a roof) and the two ends; per
    game the pick, the start and at most one free reveal per assassin."""
    per_round = sum(
        1 + c.king + c.knights + 1 + 2 * c.assassins + ASSASSINS + 1 for c in ROUND_CARDS.values()
    )
    return 2 + ASSASSINS + per_round


class KingAndAssassins(Game):
    id = GAME_ID
    name = "King & Assassins"
    player_counts = (2,)
    options: ClassVar = (
        Option("side", tuple(sorted(BOARDS)), "A", "board side: A (first games) or B (two king starts)"),
    )
    max_moves = _max_moves()
    roles: ClassVar = (Role(("King", "Re"), ("king",)),
                       Role(("Assassin", "Assassino"), ("assassins", "assassin")))

    def _new_game(self, players: int, seed: int, options: dict[str, Any]) -> State:
        return KAState(players, seed, options)

    def move_from_json(self, data: Any) -> Move:
        return move_from_json(data)


GAME = KingAndAssassins()
