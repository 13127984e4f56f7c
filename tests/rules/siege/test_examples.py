"""The rulebook's own examples, one test each."""

from __future__ import annotations

from rules.siege import moves as mv
from rules.siege.combat import group_need, melee_result
from tests.rules.siege.helpers import (
    A,
    D,
    blank,
    clear_row,
    give,
    play,
    put,
    refused,
    two_swordsmen_beat_a_knight,
    units,
)


def _need(events: list) -> int:  # type: ignore[type-arg]
    return next(e.params["need"] for e in events if e.type == "shot")


def test_example_two_archers_in_row_1() -> None:
    # "2 Arcieri nella Fila 1 = 5 - 6"
    s = blank("attack")
    a1 = units(s, A, "r1", "archer")[0]
    a2 = put(s, A, "r1", "archer")
    assert _need(play(s, mv.Attack(a1), mv.Join(a2), mv.Target(s.walls()[0]), mv.Die(5))) == 5


def test_example_two_archers_on_the_walls() -> None:
    # "2 Arcieri sulle Mura del Castello = 3 - 6"
    s = blank("attack", seat=D)
    a1 = units(s, D, "r2", "archer")[0]
    a2 = put(s, D, "r2", "archer")
    knight = units(s, A, "r1", "knight")[0]
    assert _need(play(s, mv.Attack(a1), mv.Join(a2), mv.Target(knight), mv.Die(3))) == 3
    assert knight not in s.rows[A]["r1"]


def test_example_three_archers_on_the_walls_kill_automatically() -> None:
    # "3 Arcieri sulle Mura del Castello = 1 - 6 (uccidono automaticamente)"
    s = blank("attack", seat=D)
    a1 = units(s, D, "r2", "archer")[0]
    a2, a3 = put(s, D, "r2", "archer"), put(s, D, "r2", "archer")
    knight = units(s, A, "r1", "knight")[0]
    assert _need(play(s, mv.Attack(a1), mv.Join(a2), mv.Join(a3), mv.Target(knight), mv.Die(1))) == 1
    assert knight not in s.rows[A]["r1"]
    assert group_need([2, 2, 2]) == 1


def test_example_three_knights_attack_with_nine() -> None:
    # "3 Cavalieri = valore di attacco pari a 9"
    s = blank("attack")
    clear_row(s, D, "r1")
    k1 = units(s, A, "r1", "knight")[0]
    k2, k3 = put(s, A, "r1", "knight"), put(s, A, "r1", "knight")
    archer = units(s, D, "r2", "archer")[0]
    ev = play(s, mv.Attack(k1), mv.Join(k2), mv.Join(k3), mv.Target(archer))
    assert next(e.params["attack"] for e in ev if e.type == "melee") == 9


def test_example_two_swordsmen_against_a_knight() -> None:
    # The Knight (3) dies to 2 + 2, and still kills one Swordsman.
    s, knight, s1, s2 = two_swordsmen_beat_a_knight()
    assert knight not in s.rows[D]["r2"]
    # "un Uomo di Spada": which one is the Attacker's to say
    # (ruling: docs/rulings.md#siege-the-player-chooses)
    assert s.phase == "lose" and s.to_move() == A
    assert set(s.legal_moves()) == {mv.Lose(unit=s1), mv.Lose(unit=s2)}
    refused(s, mv.Lose(unit=units(s, A, "r1", "knight")[0]), "siege.lose.bad-unit")
    play(s, mv.Lose(unit=s2))
    assert s1 in s.rows[A]["r1"] and s2 not in s.rows[A]["r1"] and s.phase == "attack"


def test_example_archer_against_archer() -> None:
    # "Due carte con valori uguali si annullano a vicenda (es. Arciere contro
    # Arciere)": the Defender's Archer sallies hand to hand against the
    # Attacker's Archer and both are removed.
    assert melee_result(1, 1, 1) == (True, True)
    s = blank("attack", seat=D)
    mine = units(s, D, "r2", "archer")[0]
    theirs = units(s, A, "r1", "archer")[0]
    assert mv.Attack(mine) in s.legal_moves() and mv.Attack(mine, melee=True) in s.legal_moves()
    play(s, mv.Attack(mine, melee=True), mv.Target(theirs))
    if s.phase == "support":  # the Knight beside it could help; the Attacker declines
        play(s, mv.Support(None))
    assert mine not in s.rows[D]["r2"] and theirs not in s.rows[A]["r1"]
    assert s.discards[D]["archer"] >= 1 and s.discards[A]["archer"] >= 1


def test_example_pitch_stops_the_ram_before_it_attacks() -> None:
    # The Attacker moves a Battering Ram into row 0 and the Defender at once
    # plays Flaming Pitch, destroying it before it can attack.
    s = blank("move")
    ram = put(s, A, "r1", "battering_ram")
    give(s, D, "pitch")
    play(s, mv.Shift(ram, "r0"))
    assert s.phase == "pour" and s.to_move() == D
    before = s.discards[A].get("battering_ram", 0)
    play(s, mv.Play("pitch", ram))
    assert ram not in s.rows[A]["r0"] and s.discards[A]["battering_ram"] == before + 1
