"""What holds after every move of random games: one figure a seat, the
figures all there, one King with three rings facing the crown, the rings
within the supply; and the state's hand-made copy is a deep one."""

from __future__ import annotations

import random

import pytest

from rules.artus import GAME, board
from rules.artus.data import DATA


@pytest.mark.parametrize(
    ("players", "mode"), [(2, "beginner"), (3, "advanced"), (4, "advanced"), (4, "beginner")]
)
def test_table_invariants_in_random_games(players: int, mode: str) -> None:
    for seed in range(6):
        state = GAME.new_game(players, seed, {"mode": mode})
        rng = random.Random(seed)
        while state.to_move() is not None:
            state.apply(state.sample_chance() if state.is_chance() else rng.choice(state.legal_moves()))
            assert board.is_royal(state.seats[state.king]) and state.rings[state.king] == DATA.crowning_rings
            royals = [s for s, f in enumerate(state.seats) if board.is_royal(f)]
            assert sorted(state.seats[s] for s in royals) == ["bronze", "bronze", "silver", "silver"]
            assert all(1 <= state.rings[s] < DATA.crowning_rings for s in royals if s != state.king)
            assert sum(state.rings) <= DATA.rings
            assert all(state.rings[s] == 0 for s in range(DATA.seats) if s not in royals)
            if state.phase in ("play", "draw", "over"):
                on_table = DATA.knights[players] - DATA.knights_on_score_track
                for p in range(players):
                    assert state.seats.count(board.knight(p)) == on_table
            assert len(state.hands[0]) <= sum(DATA.modes[mode].hand.values())
        assert state.phase == "over" and state.outcome() is not None


def test_copy_is_deep() -> None:
    state = GAME.new_game(3, 1, {"mode": "advanced"})
    while state.is_chance():
        state.apply(state.sample_chance())
    before = state.to_json()
    other = state.copy()
    other.seats[3] = "k0"
    other.rings[3] = 2
    other.hands[0].append("score-all")
    other.piles[1]["king"].clear()
    other.played[2].append("x")
    other.place_order.clear()
    other.scores[0] = 99
    other.options["mode"] = "beginner"
    other.history.append(None)  # type: ignore[arg-type]
    assert state.to_json() == before and len(state.history) != len(other.history)
