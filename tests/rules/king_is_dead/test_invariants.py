"""What no sequence of legal moves may break: followers are neither made nor
lost, resolved regions stay empty, cards are played once."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rules.king_is_dead import GAME
from rules.king_is_dead.data import DATA
from rules.king_is_dead.state import KingIsDeadState


def _check(state: KingIsDeadState) -> None:
    per_faction = DATA.counts["followers_per_faction"]
    if state.players == 2:
        per_faction -= DATA.counts["removed_per_faction_two_players"]
    for colour in DATA.colours:
        total = (
            sum(r[colour] for r in state.regions.values())
            + state.reserve[colour]
            + state.bag[colour]
            + sum(c[colour] for c in state.courts)
        )
        assert total == per_faction, colour
    loyalists = sum(r["black"] for r in state.regions.values()) + state.loyalist_supply
    assert loyalists == (DATA.counts["loyalists"] if state.mordred else 0)
    for region, owner in state.control.items():
        if owner is not None:
            assert not any(state.regions[region].values()), region
    for pile in state.piles:
        assert not Counter(pile) - Counter(DATA.deck)
    assert 0 <= state.passes < state.players
    assert state.saxons() <= DATA.counts["saxon_tokens"]
    assert len(state.crowns) <= sum(1 for p in state.piles if "crown" in p)


@pytest.mark.parametrize("mordred", [False, True])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_keep_every_invariant(players: int, mordred: bool) -> None:
    for seed in range(6):
        rng = random.Random(seed)
        state = GAME.new_game(players, seed, {"mordred": mordred})
        assert isinstance(state, KingIsDeadState)
        while state.to_move() is not None:
            state.apply(state.sample_chance() if state.is_chance() else rng.choice(state.legal_moves()))
            _check(state)
        out = state.outcome()
        assert out is not None and out.winners
        if players == 4:
            assert len(out.winners) % 2 == 0  # a team wins together
