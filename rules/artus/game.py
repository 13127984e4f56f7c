"""The registered game: options, bounds, a new game, the move notation."""

from __future__ import annotations

from typing import Any

from rules.artus.data import DATA
from rules.artus.moves import move_from_json
from rules.artus.state import ArtusState
from rules.core import Game, Move, Option, Score, State


def _max_moves() -> int:
    """Per player: the opening hand and the whole deck drawn (a chance move
    each), a pile choice per draw, every card played, every Knight placed."""
    most = 0
    for mode in DATA.modes.values():
        deck = sum(c.count for c in DATA.cards.values() if c.pile in mode.piles)
        for players, knights in DATA.knights.items():
            per_player = deck + (deck - sum(mode.hand.values())) + deck + knights
            most = max(most, players * per_player)
    return most


class ArtusGame(Game):
    id = "artus"
    name = "Artus"
    player_counts = (2, 3, 4)
    options = (
        Option(
            "mode",
            ("beginner", "advanced"),
            "beginner",
            "beginner: 16 rounds, one card a turn; advanced: scoring cards, 11 rounds, two cards a turn",
        ),
    )
    max_moves = _max_moves()
    running_score = Score(("prestige", "prestigio"), lambda view: [float(x) for x in view["scores"]])

    def _new_game(self, players: int, seed: int, options: dict[str, Any]) -> State:
        return ArtusState(players, seed, options)

    def move_from_json(self, data: Any) -> Move:
        return move_from_json(data)
