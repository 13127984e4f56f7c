"""The registered game: options, the move bound, and the notation parser."""

from __future__ import annotations

import math
from typing import Any, ClassVar

from rules.core import Game, Move, Option, Score
from rules.mordred.moves import move_from_json
from rules.mordred.state import ROUND_LIMIT, MordredState
from rules.mordred.tables import TABLES, Tables

TWO_PLAYERS = "unofficial_two_players"


def move_bound(t: Tables, rounds: int = ROUND_LIMIT, seats: int = 4) -> int:
    """An honest upper bound on the moves of any game.

    Per turn: declare, roll and end_turn, and at most two moves (place and
    its combat die) per man taken. Spending moves all cost money: a build at
    least the cheapest price, an attack (two moves with its die) its price.
    Money only comes from the rolls, so the spending moves of the whole game
    are bounded by its total income, whatever is saved between turns.
    """
    per_pound = max(1 / t.cheapest(), 2 / t.attack_cost)
    turns = rounds * seats
    return turns * (3 + 2 * t.max_men()) + math.ceil(turns * t.max_income() * per_pound)


class MordredGame(Game):
    id: ClassVar[str] = "mordred"
    name: ClassVar[str] = "Mordred"
    # 2 players is not in the rulebook; the option below allows it, marked unofficial.
    # ruling: docs/rulings.md#mordred-two-players
    player_counts: ClassVar[tuple[int, ...]] = (3, 4)
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            TWO_PLAYERS, (False, True), False, "Allow an unofficial 2-player game (the rulebook says 3 to 4)."
        ),
    )
    perfect_information: ClassVar[bool] = True
    max_moves: ClassVar[int] = move_bound(TABLES)
    running_score: ClassVar[Score | None] = Score(("victory points", "punti vittoria"),
                                                  lambda view: [float(p["vp"]) for p in view["players"]])

    def new_game(self, players: int, seed: int = 0, options: dict[str, Any] | None = None) -> MordredState:
        resolved = self.resolve_options(options or {})
        if players == 2 and resolved[TWO_PLAYERS]:
            if not isinstance(seed, int) or isinstance(seed, bool):
                raise ValueError(f"{self.id}: seed must be an integer, not {seed!r}")
            return self._new_game(players, seed, resolved)
        if players == 2:
            raise ValueError(f"{self.id}: 2 players is unofficial; set option {TWO_PLAYERS}=true to play it")
        state = super().new_game(players, seed, resolved)
        assert isinstance(state, MordredState)
        return state

    def setups(self) -> list[tuple[int, dict[str, Any]]]:
        # The option opens the 2-player game and changes nothing at 3 and 4.
        return [(n, {TWO_PLAYERS: False}) for n in self.player_counts] + [(2, {TWO_PLAYERS: True})]

    def _new_game(self, players: int, seed: int, options: dict[str, Any]) -> MordredState:
        return MordredState(players, seed, options)

    def move_from_json(self, data: Any) -> Move:
        return move_from_json(data)
