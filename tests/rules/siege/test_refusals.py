"""Refusals not covered with their rule elsewhere: the most specific code,
the state unchanged."""

from __future__ import annotations

from rules.siege import moves as mv
from tests.rules.siege.helpers import A, D, blank, clear_row, give, play, put, refused, units


def test_cards_not_in_hand_or_deck() -> None:
    s = blank("play")
    refused(s, mv.Play("knight"), "siege.hand.missing")
    refused(s, mv.Discard("knight"), "siege.hand.missing")
    s = blank("draw")
    s.deck = "normal"
    s.decks[A]["normal"] = {"archer": 1}
    refused(s, mv.Draw("knight"), "siege.draw.not-in-deck")


def test_targets_given_or_missing() -> None:
    s = blank("play")
    give(s, A, "knight", "traitor")
    refused(s, mv.Play("knight", "archer-12"), "siege.play.unexpected-target")
    refused(s, mv.Play("traitor"), "siege.play.no-target")


def test_leaders_are_never_played() -> None:
    s = blank("play")
    give(s, A, "commander")
    refused(s, mv.Play("commander"), "siege.play.not-playable")


def test_the_sixth_card_and_the_traitors_grain() -> None:
    s = blank("play")
    give(s, A, "traitor", "knight", "knight", "archer", "archer", "archer")
    s.discards[A] = {"supply_wagon": 1}
    refused(s, mv.Play("traitor", "grain"), "siege.hand.full")
    refused(s, mv.EndPhase(), "siege.hand.full")


def test_attacks_by_the_wrong_unit() -> None:
    s = blank("attack")
    refused(s, mv.Attack("knight-999"), "siege.unit.unknown")
    refused(s, mv.Attack(units(s, D, "r2", "archer")[0]), "siege.attack.not-yours")
    wagon = put(s, A, "r2", "supply_wagon")
    s.rows[A]["rc"].append(wagon)
    s.rows[A]["r2"].remove(wagon)
    refused(s, mv.Attack(wagon), "siege.attack.cannot")
    clear_row(s, D, "r1")
    knight = put(s, A, "r2", "knight")
    refused(s, mv.Attack(knight), "siege.attack.not-front")


def test_a_unit_joins_once_per_turn() -> None:
    s = blank("attack")
    a1 = units(s, A, "r1", "archer")[0]
    a2 = put(s, A, "r2", "archer")
    s.used.append(a2)
    play(s, mv.Attack(a1))
    refused(s, mv.Join(a2), "siege.attack.used")


def test_a_group_must_share_a_target() -> None:
    s = blank("attack", day=2)
    clear_row(s, D, "r1")
    s.rows[D]["r2"] = []
    tower = put(s, A, "r0", "siege_tower")
    inside = put(s, A, "r1", "swordsman")
    s.rows[A]["r1"].remove(inside)
    s.towers[tower].append(inside)
    s.boarded[inside] = 1
    play(s, mv.Attack(units(s, A, "r1", "swordsman")[0]))  # only the Keep is in reach
    refused(s, mv.Join(inside), "siege.attack.no-common-target")  # never the Keep from a tower


def test_targets_that_cannot_be_attacked() -> None:
    s = blank("attack")
    clear_row(s, D, "r1")
    knight = units(s, A, "r1", "knight")[0]
    play(s, mv.Attack(knight))
    refused(s, mv.Target(s.supplies(D)[0]), "siege.attack.bad-target")
    refused(s, mv.Target("castle_walls-999"), "siege.unit.unknown")


def test_only_troops_support() -> None:
    s = blank("attack")
    clear_row(s, D, "r1")
    archer = units(s, D, "r2", "archer")[0]
    put(s, D, "r2", "knight")
    cat = put(s, D, "r2", "catapult")
    play(s, mv.Attack(units(s, A, "r1", "swordsman")[0]), mv.Target(archer))
    refused(s, mv.Support(cat), "siege.support.not-troop")


def test_movement_refusals() -> None:
    s = blank("move")
    knight = units(s, A, "r1", "knight")[0]
    put(s, A, "r1", "siege_tower")
    refused(s, mv.Shift(knight, "r0"), "siege.move.not-machine")
    ram = put(s, A, "r2", "battering_ram")
    refused(s, mv.Shift(ram, "r0"), "siege.move.not-row1")
    refused(s, mv.Shift(knight, "r9"), "siege.move.bad")
    refused(s, mv.Shift(units(s, D, "r2", "archer")[0], "r1"), "siege.attack.not-yours")


def test_no_movement_under_floods() -> None:
    s = blank("move")
    s.active.append({"card": "floods", "seat": A, "until": s.turn + 2, "variant": ""})
    put(s, A, "r1", "siege_tower")
    tower = s.rows[A]["r1"][-1]
    refused(s, mv.Shift(tower, "r0"), "siege.move.forbidden")


def test_moves_of_the_wrong_phase_or_seat() -> None:
    s = blank("attack", seat=D)
    refused(s, mv.Pass(), "siege.phase.wrong")
    refused(s, mv.Feed("peasant"), "siege.phase.wrong")
    refused(s, mv.Spear("bonus"), "siege.phase.wrong")


def test_a_move_of_the_wrong_phase_names_what_the_phase_takes() -> None:
    s = blank("move")
    err = refused(s, mv.Feed("supply_wagon"), "siege.phase.wrong")
    assert err.message("en") == "You cannot feed the troops now; you can: end the phase."
    assert err.message("it") == "Ora non puoi nutrire le truppe; puoi: finire la fase."
