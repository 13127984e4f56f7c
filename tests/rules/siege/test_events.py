"""Il Mazzo delle Carte Evento: each event and how long it lasts."""

from __future__ import annotations

from rules.siege import moves as mv
from tests.rules.siege.helpers import A, D, after_setup, blank, give, play, put, refused, units


def _event(card: str, seat: int = A, hand: dict[str, int] | None = None):  # type: ignore[no-untyped-def]
    s = blank("die", seat=seat)
    s.hands[seat] = dict(hand or {"knight": 1})
    play(s, mv.Die(1), mv.Draw(card))
    return s


def test_plague_kills_half_the_forces_rounded_up() -> None:
    s = _event("plague")
    # catapult, archer, knight, swordsman and the Supply Wagon: 5 -> 3
    assert s.phase == "lose" and s.losses is not None and s.losses["count"] == 3
    refused(s, mv.Lose(unit=s.leader(A)), "siege.lose.bad-unit")
    refused(s, mv.Lose(card="supply_wagon"), "siege.lose.hand-not-allowed")
    for _ in range(3):
        play(s, s.legal_moves()[0])
    assert len(s.units(A)) + len(s.supplies(A)) == 2
    assert s.phase == "play"


def test_plague_counts_troops_machines_and_food_not_walls() -> None:
    s = _event("plague", seat=D)
    assert s.losses is not None and s.losses["count"] == 1  # the Archer and the Peasant
    assert set(s.loss_candidates("plague")) == {*s.rows[D]["r2"], *s.supplies(D)}


def test_low_morale_takes_one_from_every_die_without_modifiers() -> None:
    s = _event("low_morale")
    assert s.active[-1]["variant"] == "dice"
    play(s, mv.EndPhase())
    cat = units(s, A, "r1", "catapult")[0]
    ev = play(s, mv.Attack(cat), mv.Target(s.walls()[0]), mv.Die(4))
    shot = next(e.params for e in ev if e.type == "shot")
    assert shot["modifier"] == -1 and not shot["hit"]


def test_low_morale_sets_the_modifiers_aside() -> None:
    s = blank("die")
    put(s, A, "rc", "field_marshal")
    assert s.row1_limit() == 5
    s.hands[A] = {"knight": 1}
    play(s, mv.Die(2), mv.Draw("low_morale"))
    assert s.active[-1]["variant"] == "ignore" and s.row1_limit() == 4 and s.dice_modifier(A) == 0


def test_bad_weather_and_papal_injunction_stop_the_attacks() -> None:
    for card in ("bad_weather", "papal_injunction"):
        s = _event(card)
        play(s, mv.EndPhase())
        assert s.phase != "attack" and s.seat == D  # straight past the attacks; nothing to move


def test_floods_no_attack_no_movement_and_a_loss() -> None:
    s = _event("floods", hand={"supply_wagon": 1})
    assert s.phase == "lose"
    assert mv.Lose(card="supply_wagon") in s.legal_moves()
    play(s, mv.Lose(card="supply_wagon"))
    assert s.hands[A] == {}
    assert s.no_attack(A) and s.shift_options() == []


def test_famine_destroys_a_food_card_on_the_table() -> None:
    s = _event("famine")
    wagon = s.supplies(A)[0]
    assert s.phase == "lose" and s.legal_moves() == [mv.Lose(unit=wagon)]
    play(s, mv.Lose(unit=wagon))
    assert s.supplies(A) == [] and s.losses is not None and s.losses["reason"] == "starve"


# ruling: docs/rulings.md#siege-the-player-chooses
def test_famine_the_drawer_chooses_which_food_card() -> None:
    s = blank("die")
    s.hands[A] = {"knight": 1}
    first = s.supplies(A)[0]
    second = put(s, A, "rc", "supply_wagon")
    play(s, mv.Die(1), mv.Draw("famine"))
    assert s.phase == "lose" and set(s.legal_moves()) == {mv.Lose(unit=first), mv.Lose(unit=second)}
    refused(s, mv.Lose(unit=units(s, A, "r1", "knight")[0]), "siege.lose.bad-unit")
    play(s, mv.Lose(unit=first))
    assert s.supplies(A) == [second]


def test_reinforcements_enter_row_2_and_do_not_count() -> None:
    s = _event("reinforcement_knight")
    play(s, mv.Place(len(s.rows[A]["r2"])))
    new = s.rows[A]["r2"][-1]
    assert new.startswith("knight") and new in s.played and not s.card_played


# ruling: docs/rulings.md#siege-place-in-the-row
def test_a_reinforcements_owner_names_its_place_in_row_2() -> None:
    s = _event("reinforcement_knight")
    row = list(s.rows[A]["r2"])
    assert s.phase == "arrive" and s.to_move() == A
    assert s.view(None)["arriving"] == [{"seat": A, "row": "r2", "card": "knight"}]
    assert s.legal_moves() == [mv.Place(i) for i in range(len(row) + 1)]
    refused(s, mv.Place(len(row) + 1), "siege.row.bad-slot")
    play(s, mv.Place(0))
    assert s.rows[A]["r2"][1:] == row and s.rows[A]["r2"][0].startswith("knight")
    assert s.phase == "play"  # on with the turn: no food due on day 1 with a wagon


def test_reinforcements_can_arrive_later_when_the_cards_say_so(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import dataclasses

    from rules.siege import state as state_module

    cards = dict(state_module.CARDS)
    cards["reinforcement_knight"] = dataclasses.replace(cards["reinforcement_knight"], delay_days=1)
    monkeypatch.setattr(state_module, "CARDS", cards)
    s = _event("reinforcement_knight")
    assert s.coming == [{"seat": A, "troop": "knight", "day": 2}]
    assert not any(u.startswith("knight") for u in s.rows[A]["r2"])
    for seat in (D, A):  # end this turn and the Defender's
        s.phase = "end"
        s._advance([])
        assert s.seat == seat
    assert s.day == 2 and s.coming == [] and s.phase == "arrive"
    play(s, mv.Place(0))
    assert s.rows[A]["r2"][0].startswith("knight") and s.phase == "die"


def test_horn_of_joshua_removes_a_wall_from_the_game() -> None:
    s = _event("horn_of_joshua")
    play(s, mv.Raze(s.walls()[-1]))
    assert len(s.walls()) == 4
    assert "castle_walls" not in s.discards[D] and s.discards[A]["horn_of_joshua"] == 1


# ruling: docs/rulings.md#siege-the-player-chooses
def test_horn_of_joshua_the_attacker_names_the_wall() -> None:
    s = _event("horn_of_joshua")
    walls = s.walls()
    assert s.phase == "horn" and s.to_move() == A
    assert s.legal_moves() == [mv.Raze(w) for w in walls]
    refused(s, mv.Raze(units(s, A, "r1", "knight")[0]), "siege.horn.not-wall")
    play(s, mv.Raze(walls[1]))
    assert s.walls() == [walls[0], *walls[2:]] and s.phase == "play"


def test_horn_of_joshua_without_walls_asks_nothing() -> None:
    s = blank("die")
    s.hands[A] = {"knight": 1}
    s.rows[D]["r1"] = []
    play(s, mv.Die(1), mv.Draw("horn_of_joshua"))
    assert s.phase == "play"


def test_spear_of_destiny_converts_a_peasant() -> None:
    s = _event("spear_of_destiny", seat=D)
    assert s.phase == "event" and s.to_move() == D
    refused(s, mv.Spear("knight"), "siege.spear.bad-choice")
    peasant = s.peasants()[0]
    play(s, mv.Spear("archer", peasant, len(s.rows[D]["r2"])))
    assert s.supplies(D) == [] and s.rows[D]["r2"][-1].startswith("archer")


# ruling: docs/rulings.md#siege-the-player-chooses
def test_spear_of_destiny_the_defender_names_the_peasant() -> None:
    s = _event("spear_of_destiny", seat=D)
    first = s.peasants()[0]
    second = put(s, D, "rc", "peasant")
    assert {mv.Spear("swordsman", first, 0), mv.Spear("swordsman", second, 0)} <= set(s.legal_moves())
    refused(s, mv.Spear("swordsman"), "siege.spear.name-peasant")
    refused(s, mv.Spear("swordsman", s.leader(D)), "siege.spear.name-peasant")
    refused(s, mv.Spear("bonus", first), "siege.spear.unexpected-unit")
    play(s, mv.Spear("swordsman", first, 0))
    assert s.peasants() == [second]


def test_spear_of_destiny_adds_one_to_the_current_attack() -> None:
    s = _event("spear_of_destiny", seat=D)
    play(s, mv.Spear("bonus"), mv.EndPhase())
    archer = units(s, D, "r2", "archer")[0]
    knight = units(s, A, "r1", "knight")[0]
    ev = play(s, mv.Attack(archer), mv.Target(knight), mv.Die(4))
    shot = next(e.params for e in ev if e.type == "shot")
    assert shot["modifier"] == 1 and shot["hit"] and s.bonus == 0


def test_spear_needs_a_peasant_to_convert() -> None:
    s = _event("spear_of_destiny", seat=D)
    s.rows[D]["rc"] = [s.leader(D)]
    refused(s, mv.Spear("swordsman"), "siege.spear.no-peasant")


def test_an_event_lasts_until_the_drawers_next_turn() -> None:
    s = _event("bad_weather")
    play(s, mv.EndPhase())
    assert s.seat == D and [e["card"] for e in s.active] == ["bad_weather"]
    assert s.view(None)["events"] == [{"card": "bad_weather", "seat": A, "variant": "", "turns_left": 1}]
    s.hands[D] = {}
    play(s, mv.Die(5), mv.Draw("archer"), mv.EndPhase())
    while s.seat == D:
        play(s, next(m for m in s.legal_moves() if m.to_json()["type"] in ("end_phase", "pass")))
    assert s.seat == A and s.active == []


def test_the_siege_is_lifted_when_the_attacker_has_nothing_to_draw() -> None:
    s = after_setup()
    s.phase, s.seat = "end", D
    s.decks[A] = {"normal": {}, "events": {}}
    s.hands[D] = {}
    give(s, D, "archer")
    s._advance([])
    outcome = s.outcome()
    assert outcome is not None and outcome.winners == [D] and outcome.reason == "siege_lifted"
