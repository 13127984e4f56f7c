"""The search's own draws take the same numbers from its generator as the
``random`` calls they replace, so a seed keeps choosing the same moves."""

from __future__ import annotations

import random

import pytest

import rules
from players.base import chance_move
from rules.core import CHANCE, State


def _chance_states() -> list[State]:
    """Chance steps from seeded random games of every game: weighted draws
    (decks, bags, piles) and uniform ones alike."""
    found: list[State] = []
    for game_id in rules.GAMES:
        game = rules.get(game_id)
        state = game.new_game(max(game.player_counts), seed=3)
        rng = random.Random(3)
        taken = 0
        while (seat := state.to_move()) is not None and taken < 6:
            if seat == CHANCE:
                if len(state.legal_moves()) > 1:
                    found.append(state.copy())
                    taken += 1
                state.apply(state.sample_chance())
            else:
                state.apply(rng.choice(state.legal_moves()))
    return found


@pytest.mark.parametrize("seed", range(4))
def test_a_chance_draw_is_the_one_random_choices_makes(seed: int) -> None:
    states = _chance_states()
    assert len({s.game_id for s in states}) == len(rules.GAMES)
    mine, theirs = random.Random(seed), random.Random(seed)
    for _ in range(50):
        for state in states:
            outcomes = state.chance_outcomes()
            expected = theirs.choices([m for m, _ in outcomes], weights=[w for _, w in outcomes], k=1)[0]
            assert chance_move(state, mine) == expected
    assert mine.random() == theirs.random()  # and as many numbers were used


def test_uneven_weights_are_followed() -> None:
    class Loaded(State):
        def chance_outcomes(self) -> list:
            return [("rare", 1.0), ("common", 9.0), ("never", 0.0)]

    rng = random.Random(1)
    drawn = [chance_move(Loaded(1, 0, {}), rng) for _ in range(2000)]
    assert "never" not in drawn
    assert 0.85 < drawn.count("common") / len(drawn) < 0.95


def test_weights_without_a_positive_total_are_refused() -> None:
    class Broken(State):
        def chance_outcomes(self) -> list:
            return [("a", 0.0), ("b", 0.0)]

    with pytest.raises(ValueError, match="positive finite total"):
        chance_move(Broken(1, 0, {}), random.Random(1))
