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


def test_apply_is_all_or_nothing_and_copies_keep_their_own_history() -> None:
    """Artus's apply() shares the history with its working copy rather than
    copying it: a refused move, or a move whose working copy fails, leaves
    the state (history included) as it was, and an earlier copy never sees
    a later move."""
    from rules.artus.moves import Play
    from rules.core import IllegalMove

    state = GAME.new_game(3, 4, {"mode": "advanced"})
    rng = random.Random(4)
    while state.to_move() is not None and len(state.history) < 60:
        state.apply(state.sample_chance() if state.is_chance() else rng.choice(state.legal_moves()))
    while state.is_chance() or state.phase != "play":
        state.apply(state.sample_chance() if state.is_chance() else rng.choice(state.legal_moves()))
    saved, moves = state.to_json(), list(state.history)
    with pytest.raises(IllegalMove):
        state.apply(Play("no-such-card", "move", 0, 1))
    assert state.to_json() == saved and state.history == moves

    move = state.legal_moves()[0]
    real = type(state)._apply

    def broken(self: object, m: object) -> list[object]:
        real(self, m)  # type: ignore[arg-type]
        raise RuntimeError("half-way")

    type(state)._apply = broken  # type: ignore[method-assign]
    try:
        with pytest.raises(RuntimeError):
            state.apply(move)
    finally:
        type(state)._apply = real  # type: ignore[method-assign]
    assert state.to_json() == saved and state.history == moves

    earlier = state.copy()
    state.apply(move)
    assert state.history == [*moves, move]
    assert earlier.history == moves and earlier.to_json() == saved
