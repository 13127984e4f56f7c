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
from tests.rules.siege.helpers import blank, new, put

#: seeded random games: the first 24, and four where soldiers ride in a
#: Siege Tower, Archers among them, boarded on different days (rare in
#: random play; their shots and melee differ)
SEEDS = [*range(24), 301, 340, 500, 554]


def positions(seed: int) -> Iterator[SiegeState]:
    """Every position of one seeded random game until its end (then a
    leader is gone, and the plain definitions ask for him), chance drawn by the seed."""
    rng = random.Random(seed)
    state = new(seed)
    while (seat := state.to_move()) is not None:
        yield state
        state.apply(state.sample_chance() if seat == CHANCE else rng.choice(state.legal_moves()))


@pytest.mark.parametrize("seed", SEEDS)
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


def test_the_games_reach_the_rare_cases() -> None:
    """Soldiers in a tower, an Archer's hand-to-hand attack, a card a
    Traitor moved, no walls left, units in the Attacker's row 0."""
    seen = {"tower": 0, "hand to hand": 0, "traitor": 0, "no walls": 0, "row 0": 0}
    for seed in SEEDS:
        for s in positions(seed):
            seen["tower"] += any(s.towers.values())
            seen["hand to hand"] += bool(s.group and s.hand_to_hand)
            seen["traitor"] += bool(s.owners)
            seen["no walls"] += not s.walls()
            seen["row 0"] += bool(s.rows[ATTACKER]["r0"])
    assert all(seen.values()), seen


def test_soldiers_in_one_tower_are_asked_each_by_his_own_day_aboard() -> None:
    """The menu keeps a row's melee answer for the next unit of the row, but
    not a tower's: there each soldier's day aboard decides."""
    s = blank("attack", day=2)
    tower = put(s, ATTACKER, "r0", "siege_tower")
    for day in (2, 1):  # the one aboard since today first: he may not fight yet
        soldier = put(s, ATTACKER, "r2", "swordsman")
        s.rows[ATTACKER]["r2"].remove(soldier)
        s.towers[tower].append(soldier)
        s.boarded[soldier] = day
    menu = s.attack_menu()
    assert s.towers[tower][1] in menu[0] and s.towers[tower][0] not in menu[0]
    assert menu == (s.attackers(), s.brawlers())
    s.used = [u for u in s.units(ATTACKER) if u not in s.towers[tower]]  # only the two are left
    assert s.can_attack() and s.attackers() == [s.towers[tower][1]]
