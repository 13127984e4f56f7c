"""The King is Dead (Peer Sylvester, Osprey Games 2015, 1st edition), 2-4 players.

The whole rulebook, with the Mordred variant as the ``mordred`` option. Move
notation and views: NOTATION.md beside this file.
"""

from __future__ import annotations

from typing import Any

from rules import catalogue
from rules.core import Game, Option
from rules.king_is_dead.messages import MESSAGES, WORDS
from rules.king_is_dead.moves import KidMove, move_from_json
from rules.king_is_dead.state import KingIsDeadState

catalogue.register(MESSAGES, words=WORDS)


class KingIsDead(Game):
    id = "king-is-dead"
    name = "The King is Dead"
    player_counts = (2, 3, 4)
    options = (
        Option(
            "mordred", (False, True), False, "the Mordred variant: loyalists in Aquae Sulis and Din Eidyn"
        ),
    )
    # Setup: at most 8 court draws, 26 region draws, 8 region cards. Play: at
    # most 32 cards of at most 5 moves each (play, 3 picks, summon), at most
    # 3 passes before each card and 4 to end each of the 8 struggles: 42 +
    # 160 + 96 + 32 = 330. Each redraw of clashing courts (rare, and
    # unbounded in principle) adds at most 8 draws: the bound allows 80.
    max_moves = 1000

    def _new_game(self, players: int, seed: int, options: dict[str, Any]) -> KingIsDeadState:
        return KingIsDeadState(players, seed, options)

    def move_from_json(self, data: Any) -> KidMove:
        return move_from_json(data)


GAME = KingIsDead()
