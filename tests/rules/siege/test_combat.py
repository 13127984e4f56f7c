"""Fase di Attacco: ranged by the table, melee by values, groups, support,
protection of the Commander and the Keep, damage that does not carry over."""

from __future__ import annotations

from rules.siege import moves as mv
from tests.rules.siege.helpers import A, D, blank, clear_row, play, put, refused, units


def _shot(events: list) -> dict:  # type: ignore[type-arg]
    return next(e.params for e in events if e.type == "shot")


def test_catapult_hits_the_walls_on_four() -> None:
    s = blank("attack")
    cat, wall = units(s, A, "r1", "catapult")[0], s.walls()[0]
    ev = play(s, mv.Attack(cat), mv.Target(wall), mv.Die(3))
    assert _shot(ev)["need"] == 4 and not _shot(ev)["hit"] and wall in s.walls()
    refused(s, mv.Attack(cat), "siege.attack.used")


def test_each_unit_attacks_once_and_a_hit_wall_falls() -> None:
    s = blank("attack")
    cat, wall = units(s, A, "r1", "catapult")[0], s.walls()[0]
    play(s, mv.Attack(cat), mv.Target(wall), mv.Die(4))
    assert wall not in s.walls() and len(s.walls()) == 4
    assert mv.Attack(cat) not in s.legal_moves()


def test_the_target_line_is_counted_on_the_opponents_side() -> None:
    s = blank("attack")
    cat = units(s, A, "r1", "catapult")[0]
    archer = units(s, D, "r2", "archer")[0]
    ev = play(s, mv.Attack(cat), mv.Target(archer), mv.Die(5))  # behind the walls: line 2, 5-6
    assert _shot(ev)["need"] == 5 and archer not in s.rows[D]["r2"]


def test_attacker_archers_cannot_reach_past_the_walls() -> None:
    s = blank("attack")
    archer = units(s, A, "r1", "archer")[0]
    target = units(s, D, "r2", "archer")[0]
    play(s, mv.Attack(archer))
    refused(s, mv.Target(target), "siege.attack.out-of-range")
    refused(s, mv.Target(units(s, A, "r1", "knight")[0]), "siege.attack.own-unit")


def test_groups_hold_up_to_three_of_the_same_troop() -> None:
    s = blank("attack")
    a1 = units(s, A, "r1", "archer")[0]
    a2, a3, a4 = (put(s, A, "r2", "archer") for _ in range(3))
    play(s, mv.Attack(a1), mv.Join(a2))
    refused(s, mv.Join(units(s, A, "r1", "knight")[0]), "siege.attack.group-mixed")
    play(s, mv.Join(a3))
    refused(s, mv.Join(a4), "siege.attack.group-full")


def test_war_machines_never_group() -> None:
    s = blank("attack")
    c1 = units(s, A, "r1", "catapult")[0]
    c2 = put(s, A, "r2", "catapult")
    play(s, mv.Attack(c1))
    refused(s, mv.Join(c2), "siege.attack.machine-group")


def test_wall_bonus_for_the_defenders_archers() -> None:
    s = blank("attack", seat=D)
    archer = units(s, D, "r2", "archer")[0]
    knight = units(s, A, "r1", "knight")[0]
    assert s.faces(archer, knight) == 2  # 5-6 with the walls
    clear_row(s, D, "r1")
    assert s.faces(archer, knight) == 1  # a 6 without them


def test_melee_needs_the_walls_gone_and_no_moat() -> None:
    s = blank("attack")
    knight = units(s, A, "r1", "knight")[0]
    refused(s, mv.Attack(knight), "siege.attack.walls")
    clear_row(s, D, "r1")
    put(s, D, "r0", "moat")
    refused(s, mv.Attack(knight), "siege.attack.moat")
    clear_row(s, D, "r0")
    assert mv.Attack(knight) in s.legal_moves()


def test_melee_bigger_value_wins() -> None:
    s = blank("attack")
    clear_row(s, D, "r1")
    knight = units(s, A, "r1", "knight")[0]
    archer = units(s, D, "r2", "archer")[0]
    play(s, mv.Attack(knight), mv.Target(archer))
    assert archer not in s.rows[D]["r2"] and knight in s.rows[A]["r1"]


def test_one_adjacent_troop_supports_and_the_attacked_side_chooses() -> None:
    s = blank("attack")
    clear_row(s, D, "r1")
    archer = units(s, D, "r2", "archer")[0]
    guard = put(s, D, "r2", "knight")
    far = put(s, D, "r2", "swordsman")
    sword = units(s, A, "r1", "swordsman")[0]
    play(s, mv.Attack(sword), mv.Target(archer))
    assert s.phase == "support" and s.to_move() == D
    assert set(s.legal_moves()) == {mv.Support(guard), mv.Support(None)}
    refused(s, mv.Support(far), "siege.support.not-adjacent")
    play(s, mv.Support(guard))  # 2 against 1 + 3: the swordsman falls
    assert archer in s.rows[D]["r2"] and sword not in s.rows[A]["r1"]


def test_war_machines_do_not_support() -> None:
    s = blank("attack")
    clear_row(s, D, "r1")
    archer = units(s, D, "r2", "archer")[0]
    put(s, D, "r2", "catapult")
    play(s, mv.Attack(units(s, A, "r1", "knight")[0]), mv.Target(archer))
    assert archer not in s.rows[D]["r2"]  # no support step: resolved at once


def test_the_keep_is_taken_by_troops_once_no_wall_stands() -> None:
    s = blank("attack")
    keep = s.leader(D)
    cat = units(s, A, "r1", "catapult")[0]
    play(s, mv.Attack(cat))
    refused(s, mv.Target(keep), "siege.attack.machine-leader")
    s = blank("attack")
    clear_row(s, D, "r1")
    play(s, mv.Attack(units(s, A, "r1", "knight")[0]), mv.Target(keep))
    outcome = s.outcome()
    assert outcome is not None and outcome.winners == [A] and outcome.reason == "keep_taken"
    assert s.to_move() is None and s.legal_moves() == []


def test_the_commander_falls_to_a_sally_once_undefended() -> None:
    s = blank("attack", seat=D)
    knight = put(s, D, "r2", "knight")
    commander = s.leader(A)
    play(s, mv.Attack(knight))
    refused(s, mv.Target(commander), "siege.attack.leader-protected")
    s = blank("attack", seat=D)
    knight = put(s, D, "r2", "knight")
    for row in ("r0", "r1", "r2"):
        clear_row(s, A, row)
    play(s, mv.Attack(knight), mv.Target(commander))
    outcome = s.outcome()
    assert outcome is not None and outcome.winners == [D] and outcome.reason == "commander_killed"


def test_a_war_machine_never_kills_the_commander() -> None:
    s = blank("attack", seat=D)
    for row in ("r0", "r1"):
        clear_row(s, A, row)
    put(s, A, "r2", "archer")
    cat = put(s, D, "r2", "catapult")
    play(s, mv.Attack(cat))
    refused(s, mv.Target(s.leader(A)), "siege.attack.machine-leader")


def test_no_sally_while_a_ram_is_at_the_walls() -> None:
    s = blank("attack", seat=D)
    knight = put(s, D, "r2", "knight")
    assert mv.Attack(knight) in s.legal_moves()
    put(s, A, "r0", "battering_ram")
    refused(s, mv.Attack(knight), "siege.attack.sally-blocked")


def test_damage_does_not_carry_over_to_the_next_turn() -> None:
    s = blank("attack", seat=D)
    tower = put(s, A, "r0", "siege_tower")  # shield 3
    c1, c2 = put(s, D, "r2", "catapult"), put(s, D, "r2", "catapult")
    play(s, mv.Attack(c1), mv.Target(tower), mv.Die(6), mv.Attack(c2), mv.Target(tower), mv.Die(6))
    assert s.damage == {tower: 2} and tower in s.rows[A]["r0"]
    play(s, mv.EndPhase())
    assert s.seat == A and s.damage == {}
    assert tower in s.rows[A]["r0"]


def test_hits_add_up_within_a_turn() -> None:
    s = blank("attack", seat=D)
    tower = put(s, A, "r0", "siege_tower")
    inside = put(s, A, "r1", "swordsman")
    s.rows[A]["r1"].remove(inside)
    s.towers[tower].append(inside)
    cats = [put(s, D, "r2", "catapult") for _ in range(3)]
    for c in cats:
        play(s, mv.Attack(c), mv.Target(tower), mv.Die(6))
    assert tower not in s.rows[A]["r0"] and s.locate(inside) is None  # the soldiers inside die too


def test_archers_shoot_or_fight_hand_to_hand_by_their_value() -> None:
    s = blank("attack")
    clear_row(s, D, "r1")  # no wall, no Moat: the Attacker's front row may fight
    a1 = units(s, A, "r1", "archer")[0]
    a2 = put(s, A, "r1", "archer")
    target = units(s, D, "r2", "archer")[0]
    ev = play(s, mv.Attack(a1, melee=True), mv.Join(a2), mv.Target(target))
    assert next(e.params["attack"] for e in ev if e.type == "melee") == 2  # 1 + 1, no die
    assert target not in s.rows[D]["r2"] and s.phase == "lose"  # 1 >= 1: the Attacker names his loss
    play(s, mv.Lose(unit=a2))
    assert a1 in s.rows[A]["r1"] and s.phase == "attack"
    assert a1 in s.used and a2 in s.used


def test_only_archers_choose_hand_to_hand() -> None:
    s = blank("attack")
    clear_row(s, D, "r1")
    knight = units(s, A, "r1", "knight")[0]
    catapult = units(s, A, "r1", "catapult")[0]
    refused(s, mv.Attack(knight, melee=True), "siege.attack.melee-not-archer")
    refused(s, mv.Attack(catapult, melee=True), "siege.attack.melee-not-archer")
    s2 = blank("attack")  # walls standing: an Archer may shoot but not fight
    archer = units(s2, A, "r1", "archer")[0]
    assert mv.Attack(archer) in s2.legal_moves()
    refused(s2, mv.Attack(archer, melee=True), "siege.attack.walls")
