"""The Siege game: registration, notation parsing and the move bound."""

from __future__ import annotations

from typing import Any

from rules.core import Game, Move, RecordReader, Role, State
from rules.siege.constants import GAME_ID, SETUP_ACTIONS, SETUP_DRAW
from rules.siege.data import DATA
from rules.siege.moves import move_from_json
from rules.siege.older import SiegeRecordReader
from rules.siege.state import SiegeState


def _max_moves() -> int:
    """An honest bound. Every Attacker turn draws a card or the siege is
    lifted, so there are at most 2 * (Attacker draws + 1) turns. In a turn
    every unit is lost, attacks (pick or join, target, support, die), moves
    (at most three steps) and opens a pour window (each ended by a pour or a
    pass) a bounded number of times; a few fixed steps come on top."""
    cards = sum(sum(deck.values()) for deck in DATA.decks.values())
    units = cards + cards  # Spear of Destiny and reinforcements add units
    layout = sum(len(cards) for cards in DATA.layout[0].values())
    deck = sum(DATA.decks["attacker"].values()) - layout - SETUP_DRAW
    draws = deck + sum(DATA.decks["attacker_events"].values())
    turns = 2 * (draws + 1)
    per_turn = 10 + units * (1 + 4 + 3 + 2 * 3)
    setup = 2 * (SETUP_DRAW + SETUP_ACTIONS)
    return setup + turns * per_turn


class SiegeGame(Game):
    id = GAME_ID
    name = "Siege"
    player_counts = (2,)
    options = ()
    max_moves = _max_moves()
    roles = (Role(("Attacker", "Attaccante"), ("attacker",)), Role(("Defender", "Difensore"), ("defender",)))

    def _new_game(self, players: int, seed: int, options: dict[str, Any]) -> State:
        return SiegeState(players, seed, options)

    def move_from_json(self, data: Any) -> Move:
        return move_from_json(data)

    def record_reader(self) -> RecordReader:
        # ruling: docs/rulings.md#siege-older-records
        return SiegeRecordReader(self)
