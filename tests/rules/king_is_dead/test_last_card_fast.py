"""The 3-player last card's rule, worked out the short way, held to the plain
definition: a card may be played when some way of playing it, then some
summon, makes its owner a winner of the forced ending, and then only in such
a way (docs/rulings.md#kid-three-players-last-card).

The plain definition asks ``_summon_wins`` of every summon after every way of
playing the card; the engine stops at the first winning way when it only
needs to know whether the card may be played, and decides a way of playing
it by who takes each open region afterwards (``LastCard``). Checked in the
last-card positions of seeded random 3-player games, with and without the
Mordred variant, each position also tried with every other card as the one
left. ``_last_card_positions`` walks the games afresh, so the memos the
engine keeps by position (rules/king_is_dead/last_card.py) meet positions
already seen as well as new ones."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rules.king_is_dead import actions, scoring
from rules.king_is_dead.data import DATA
from rules.king_is_dead.last_card import LastCard, effects, way_key
from rules.king_is_dead.moves import Play
from rules.king_is_dead.scoring import SAXONS
from rules.king_is_dead.state import KingIsDeadState

from .helpers import random_game


def _plain_summons_win(sim: KingIsDeadState) -> bool:
    return any(sim._summon_wins(s) for s in sim._all_summons())


def _plain_picks_win(state: KingIsDeadState, picks: actions.Picks) -> bool:
    assert state.pending is not None
    sim = state._simulation()
    sim._perform(state.pending["card"], picks, [])
    return _plain_summons_win(sim)


def _plain_card_wins(state: KingIsDeadState, card: str) -> bool:
    sim = state._simulation()
    sim._play(card, [], screen=False)
    if sim.step == "action":
        return any(_plain_picks_win(sim, p) for p in sim._all_choices())
    if sim.step == "summon":
        return _plain_summons_win(sim)
    return state.seat in sim._forced_winners()


def _holding(state: KingIsDeadState, card: str) -> KingIsDeadState:
    """The position with ``card`` as the one its seat has left."""
    other = state.copy()
    assert isinstance(other, KingIsDeadState)
    other.piles[other.seat] = list((Counter(DATA.deck) - Counter([card])).elements())
    other._memo = {}
    return other


def _last_card_positions(seed: int, mordred: bool) -> list[KingIsDeadState]:
    """The turns at which the seat to move holds the game's last card."""
    found = []
    for state, _ in random_game(3, seed, mordred):
        if state.step == "turn" and state.cards_left() == 1 and state.hand(state.seat):
            found.append(state.copy())
    return found


@pytest.mark.parametrize("mordred", [False, True])
def test_the_last_card_rule_is_the_plain_definition(mordred: bool) -> None:
    checked = played = 0
    for seed in range(6):
        for found in _last_card_positions(seed, mordred):
            for card in dict.fromkeys(DATA.deck):
                state = _holding(found, card)
                wins = _plain_card_wins(state, card)
                assert state._card_wins(card) == wins, (seed, card)
                assert (Play(card) in state.legal_moves()) == wins
                checked += 1
                if not wins:
                    continue
                state.apply(Play(card))
                played += 1
                if state.step == "action":
                    assert state.pending is not None
                    plain = actions.menu(p for p in state._all_choices() if _plain_picks_win(state, p))
                    assert list(state.pending["menu"].items()) == list(plain.items())
                    state.apply(state.legal_moves()[0])
                    while state.step == "action":
                        state.apply(state.legal_moves()[-1])
                if state.step == "summon":
                    sim = state._simulation()
                    assert state.legal_moves() == [s for s in sim._all_summons() if sim._summon_wins(s)]
    assert checked > 50 and played > 5


def test_a_way_of_playing_it_is_decided_by_who_takes_each_region() -> None:
    """``LastCard.picks_win`` against every summon asked plainly, after each
    way of playing every card, in the last-card positions of seeded games."""
    checked = won = 0
    for seed in range(6, 10):
        for found in _last_card_positions(seed, mordred=False):
            for card in dict.fromkeys(DATA.deck):
                state = _holding(found, card)
                state._play(card, [], screen=False)
                if state.step != "action":
                    continue
                fast = LastCard(state.seat, state.cards, state.regions, state.control,
                                state.resolved, state.courts, state.last_play)
                for picks in state._all_choices():
                    plain = _plain_picks_win(state, picks)
                    assert fast.picks_win(card, picks) == plain, (seed, card, picks)
                    checked += 1
                    won += plain
    assert checked > 200 and 0 < won < checked


def test_an_ending_by_control_is_decided_by_the_first_two_factions() -> None:
    """What ``LastCard`` reads of a control ending without the Mordred
    variant, the first two factions of the ranking (``scoring.by_ranking``),
    against ``scoring.by_control`` on the whole map, in random endings with
    ties in the courts and in the regions held."""
    rng = random.Random(5)
    owners = [*DATA.faction_ids, SAXONS]
    for _ in range(2000):
        resolved = rng.sample(DATA.regions, len(DATA.regions))
        control = {r: rng.choice(owners) for r in resolved}
        players = rng.choice((2, 3, 4))
        courts = [{c: rng.randint(0, 2) for c in DATA.colours} for _ in range(players)]
        last_play = [rng.randint(-1, 3) for _ in range(players)]
        ranking = scoring.faction_ranking(control, resolved)
        assert (scoring.by_ranking(ranking[:2], courts, last_play)[0]
                == scoring.by_control(control, resolved, courts, last_play)[0])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_effects_of_a_cards_ways_are_those_of_its_listed_ways(players: int) -> None:
    """``last_card.effects`` (what the turn's check walks, without listing
    the ways for the Crown, Settlement and the faction cards) gives the
    ``way_key`` of every way ``actions.options`` lists and no other, for
    every card in every position of seeded random games; a Settlement's key
    is its placements in the order of its steps, one colour each."""
    checked = 0
    for seed in range(3):
        for state, _ in random_game(players, seed):
            board = state.board()
            for card in DATA.cards:
                ways = actions.options(card, board)
                if not actions.options_menu(card, board):
                    assert not ways
                    continue
                assert set(effects(card, board)) == {way_key(card, p) for p in ways}
                if card == "settlement":
                    assert len({way_key(card, p) for p in ways}) == len(ways)
                checked += 1
    assert checked > 200
