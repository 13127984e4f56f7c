"""Siege: the hard level's playouts (players.siege_playout, players.playout.FINE)."""

from __future__ import annotations

import random

import rules
from players.playout import FINE
from players.siege_playout import siege_playout
from rules.siege import moves as mv
from rules.siege.constants import ATTACKER, DEFENDER
from rules.siege.table import card_of

GAME = "siege"


def _until(seed: int, wanted, moves: int = 40) -> rules.State:  # type: ignore[no-untyped-def]
    """A game played at random for ``moves`` moves and on to a position ``wanted`` holds in."""
    for s in range(seed, seed + 200):
        state = rules.get(GAME).new_game(2, seed=s)
        rng = random.Random(s)
        played = 0
        while (seat := state.to_move()) is not None:
            if played >= moves and seat != rules.CHANCE and wanted(state):
                return state
            state.apply(state.sample_chance() if seat == rules.CHANCE else rng.choice(state.legal_moves()))
            played += 1
    raise AssertionError("no such position in 200 random games")


def _attack_phase(state: rules.State) -> bool:
    return state.phase == "attack" and len(state.legal_moves()) > 2  # type: ignore[attr-defined]


def test_hard_plays_siege_by_its_own_policy() -> None:
    assert FINE[GAME][0] is siege_playout


def test_a_side_fights_with_what_can_while_random_play_ends_the_phase() -> None:
    """Random play ends the attack phase as often as it picks any one attack;
    the policy fights nine times in ten while a unit can."""
    state = _until(1, _attack_phase)
    legal = state.legal_moves()
    rng = random.Random(3)
    ended = sum(isinstance(siege_playout(state, legal, rng), mv.EndPhase) for _ in range(400))
    assert ended < 400 / 5
    assert ended > 0  # now and then sooner


def test_a_group_grows_and_the_attacker_aims_at_the_walls() -> None:
    state = _until(2, lambda s: s.phase == "aim" and s.seat == ATTACKER  # type: ignore[attr-defined]
                   and any(isinstance(m, mv.Join) for m in s.legal_moves()))
    rng = random.Random(1)
    assert isinstance(siege_playout(state, state.legal_moves(), rng), mv.Join)
    state = _until(2, lambda s: s.phase == "aim" and s.seat == ATTACKER  # type: ignore[attr-defined]
                   and all(isinstance(m, mv.Target) for m in s.legal_moves())
                   and any(card_of(m.target) == "castle_walls" for m in s.legal_moves())
                   and any(card_of(m.target) != "castle_walls" for m in s.legal_moves()))
    for _ in range(20):
        assert card_of(siege_playout(state, state.legal_moves(), rng).target) in ("castle_walls", "moat")


def test_the_policy_reads_only_what_the_public_sees() -> None:
    """Worlds dealt from one seat's view, differing in the other side's hand
    and the decks, get the same move from the same generator."""
    for seed, wanted in ((1, _attack_phase),
                         (2, lambda s: s.phase == "aim" and len(s.legal_moves()) > 1)):  # type: ignore[attr-defined]
        state = _until(seed, wanted)
        for seat in (ATTACKER, DEFENDER):
            worlds = [state.sample_unseen(seat, random.Random(i)) for i in range(8)]
            assert len({tuple(sorted(w.hands[1 - seat].items())) for w in worlds}) > 1  # type: ignore[attr-defined]
            picks = {siege_playout(w, w.legal_moves(), random.Random(7)) for w in worlds}
            assert len(picks) == 1
