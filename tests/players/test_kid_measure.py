"""The King is Dead: the hard level's reading of a position
(players.kid_measure), each seat's chance to win from the public table."""

from __future__ import annotations

import random

import pytest

import rules
from players.kid_measure import kid_chances, king_is_dead
from players.levels import LEVELS, player
from rules.core import CHANCE

GAME = "king-is-dead"


def _midgame(players: int, seed: int, cards: int) -> rules.State:
    """A game played at random until every seat has played ``cards`` cards, at a turn."""
    state = rules.get(GAME).new_game(players, seed=seed)
    rng = random.Random(seed)
    while not (state.step == "turn" and all(len(p) >= cards for p in state.piles)):  # type: ignore[attr-defined]
        seat = state.to_move()
        assert seat is not None, "the game ended before the position wanted"
        state.apply(state.sample_chance() if seat == CHANCE else rng.choice(state.legal_moves()))
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_chances_are_shares_of_one_win(players: int) -> None:
    state = _midgame(players, seed=3, cards=2)
    chances = kid_chances(state)
    assert sum(chances) == pytest.approx(1.0)
    assert all(0.0 < c < 1.0 for c in chances)
    assert [king_is_dead(state, s) for s in range(players)] == chances


def test_partners_share_a_chance_at_four_players() -> None:
    chances = kid_chances(_midgame(4, seed=5, cards=2))
    assert chances[0] == pytest.approx(chances[2])
    assert chances[1] == pytest.approx(chances[3])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_measure_reads_only_what_the_public_sees(players: int) -> None:
    """Worlds that differ only in the cards under each other seat's top card
    (so in the cards it still holds) measure alike: a world the search deals
    guesses them."""
    state = _midgame(players, seed=7, cards=3)
    for seat in range(players):
        rng = random.Random(seat)
        worlds = [state.sample_unseen(seat, rng) for _ in range(12)]
        assert len({tuple(tuple(p) for p in w.piles) for w in worlds}) > 1  # type: ignore[attr-defined]
        for looker in range(players):
            assert len({king_is_dead(w, looker) for w in worlds}) == 1


def test_followers_of_the_leading_faction_at_court_raise_a_seats_chance() -> None:
    """Two seats, even courts: the faction ahead on the board is the one a
    follower at court is worth most of."""
    state = rules.get(GAME).new_game(2, seed=1)
    state.courts = [{"blue": 1, "red": 1, "yellow": 1}, {"blue": 1, "red": 1, "yellow": 1}]  # type: ignore[attr-defined]
    state.control = {r: "scots" for r in state.control}  # type: ignore[attr-defined]
    for region in list(state.control)[:5]:
        state.control[region] = None  # type: ignore[attr-defined]
    state.cards = list(state.control)  # type: ignore[attr-defined]
    state.step = "turn"  # type: ignore[attr-defined]
    before = king_is_dead(state, 0)
    blue, red = state.copy(), state.copy()
    blue.courts[0]["blue"] += 1  # type: ignore[attr-defined]
    red.courts[0]["red"] += 1  # type: ignore[attr-defined]
    assert king_is_dead(blue, 0) > king_is_dead(red, 0) >= before - 1e-9
    assert king_is_dead(blue, 0) > 0.5


def test_a_region_the_rival_faction_leads_is_worth_taking_from_it() -> None:
    """Seat 0 has more red, seat 1 more blue; Welsh (red) taking the region
    fought now raises seat 0's chance, the Scots taking it lowers it."""
    state = rules.get(GAME).new_game(2, seed=1)
    state.courts = [{"blue": 0, "red": 3, "yellow": 1}, {"blue": 3, "red": 0, "yellow": 1}]  # type: ignore[attr-defined]
    state.cards = list(state.control)  # type: ignore[attr-defined]
    state.step = "turn"  # type: ignore[attr-defined]
    now = state.cards[0]  # type: ignore[attr-defined]
    welsh, scots = state.copy(), state.copy()
    welsh.regions[now] = {**welsh.regions[now], "red": 3, "blue": 0, "yellow": 0}  # type: ignore[attr-defined]
    scots.regions[now] = {**scots.regions[now], "red": 0, "blue": 3, "yellow": 0}  # type: ignore[attr-defined]
    assert king_is_dead(welsh, 0) > king_is_dead(scots, 0)


def test_hard_reads_the_king_is_dead_finer_normal_scores_its_cut_playouts_by_it() -> None:
    hard, normal = player(LEVELS["hard"]), player(LEVELS["normal"])
    assert hard.measures[GAME] is king_is_dead and GAME not in normal.measures
    for bot in (hard, normal):
        assert bot.chances[GAME] is kid_chances and GAME in bot.horizons
    assert normal.horizons[GAME] > 0 and GAME in hard.stops  # hard's stop at a turn's start
    easy = player(LEVELS["easy"])
    assert GAME not in easy.measures and GAME not in easy.chances and GAME not in easy.horizons
