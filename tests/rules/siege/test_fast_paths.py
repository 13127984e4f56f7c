"""The fast paths the moves and the turn's flow use give the same answers as
the plain definitions of the rules they stand for, at every position of
seeded random games (the computer's search asks them millions of times)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from rules.core import CHANCE
from rules.siege.constants import ATTACKER, DEFENDER
from rules.siege.state import SiegeState
from tests.rules.siege.helpers import new

GAMES = 24


def positions(seed: int) -> Iterator[SiegeState]:
    """Every position of one seeded random game until its end (then a
    leader is gone, and the plain definitions ask for him), chance drawn by the seed."""
    rng = random.Random(seed)
    state = new(seed)
    while (seat := state.to_move()) is not None:
        yield state
        state.apply(state.sample_chance() if seat == CHANCE else rng.choice(state.legal_moves()))


@pytest.mark.parametrize("seed", range(GAMES))
def test_the_fast_paths_agree_with_the_plain_definitions(seed: int) -> None:
    attacks = 0
    for s in positions(seed):
        placed = s.placed(s.seat)
        assert placed == [(u, s.locate(u)[1]) for u in s.units(s.seat)]  # type: ignore[index]
        for u, row in placed:
            assert s.reach(u, row) == s.targets_of(u), (u, row)
        menu = (s.attackers(), s.brawlers())
        assert s.attack_menu() == menu
        assert s.can_attack() == bool(menu[0] or menu[1])
        attacks += bool(menu[0])
        for u in s.group:
            assert s._reach_of(u) == s.targets_of(u), u
        for side in (ATTACKER, DEFENDER):
            assert s.has_troops(side) == bool(s.troops_in_play(side))
        assert s.may_lose() == bool(s.loss_options())
        assert s.can_shift() == bool(s.shift_options())
        if s.phase in ("setup", "play"):
            assert s.play_menu(s.phase == "setup") == s.play_options(s.phase == "setup")
    assert attacks, "no position with an attack: the game proves nothing"
