"""Le Carte: every card's own rule."""

from __future__ import annotations

from rules.siege import moves as mv
from tests.rules.siege.helpers import A, D, blank, clear_row, give, play, put, refused, units


def _shot(events: list) -> dict:  # type: ignore[type-arg]
    return next(e.params for e in events if e.type == "shot")


# -- Battering Ram ----------------------------------------------------------

def test_ram_reaches_row_0_only_without_a_moat() -> None:
    s = blank("move")
    ram = put(s, A, "r1", "battering_ram")
    moat = put(s, D, "r0", "moat")
    refused(s, mv.Shift(ram, "r0"), "siege.move.moat")
    s.rows[D]["r0"].remove(moat)
    play(s, mv.Shift(ram, "r0"))
    assert ram in s.rows[A]["r0"]


def test_ram_breaks_a_wall_on_four_and_stays_when_it_fails() -> None:
    s = blank("attack")
    ram = put(s, A, "r0", "battering_ram")
    refused(s, mv.Target(s.walls()[0]), "siege.phase.wrong")
    ev = play(s, mv.Attack(ram), mv.Target(s.walls()[0]), mv.Die(3))
    assert _shot(ev)["need"] == 4 and not _shot(ev)["hit"] and ram in s.rows[A]["r0"]
    s = blank("attack")
    ram = put(s, A, "r0", "battering_ram")
    play(s, mv.Attack(ram), mv.Target(s.walls()[0]), mv.Die(4))
    assert len(s.walls()) == 4


def test_ram_attacks_only_from_row_0() -> None:
    s = blank("attack")
    ram = put(s, A, "r1", "battering_ram")
    refused(s, mv.Attack(ram), "siege.attack.ram-not-row0")


def test_only_catapults_hit_a_ram_and_only_in_row_0() -> None:
    s = blank("attack", seat=D)
    ram = put(s, A, "r1", "battering_ram")
    cat = put(s, D, "r2", "catapult")
    archer = units(s, D, "r2", "archer")[0]
    play(s, mv.Attack(cat))
    refused(s, mv.Target(ram), "siege.attack.ram-cover")
    s = blank("attack", seat=D)
    ram = put(s, A, "r0", "battering_ram")
    cat = put(s, D, "r2", "catapult")
    archer = units(s, D, "r2", "archer")[0]
    play(s, mv.Attack(archer))
    refused(s, mv.Target(ram), "siege.attack.ram-cover")
    s.phase, s.group = "attack", []
    play(s, mv.Attack(cat), mv.Target(ram), mv.Die(6), )
    assert s.damage.get(ram) == 1  # shield 2: one hit of two


def test_rams_fall_to_melee() -> None:
    s = blank("attack", seat=D)
    ram = put(s, A, "r1", "battering_ram")
    knight = put(s, D, "r2", "knight")
    play(s, mv.Attack(knight))
    s.rows[A]["r1"] = [ram]
    play(s, mv.Target(ram))
    assert ram not in s.rows[A]["r1"] and knight in s.rows[D]["r2"]  # a machine defends with 0


# -- Siege Tower ------------------------------------------------------------

def _tower_with(s, soldier: str, day: int) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    tower = put(s, A, "r0", "siege_tower")
    inside = put(s, A, "r1", soldier)
    s.rows[A]["r1"].remove(inside)
    s.towers[tower].append(inside)
    s.boarded[inside] = day
    return tower, inside


def test_soldiers_board_a_tower_but_not_knights() -> None:
    s = blank("move")
    tower = put(s, A, "r0", "siege_tower")
    sword, knight = units(s, A, "r1", "swordsman")[0], units(s, A, "r1", "knight")[0]
    refused(s, mv.Shift(knight, tower), "siege.move.mounted")
    play(s, mv.Shift(sword, tower))
    assert s.towers[tower] == [sword] and s.boarded[sword] == 1


def test_a_full_tower_takes_no_more() -> None:
    s = blank("move")
    tower = put(s, A, "r0", "siege_tower")
    s.towers[tower] = ["archer-900", "archer-901", "archer-902"]
    refused(s, mv.Shift(units(s, A, "r1", "swordsman")[0], tower), "siege.move.tower-full")


def test_tower_soldiers_fight_over_the_walls_a_day_later() -> None:
    s = blank("attack", day=2)
    _, sword = _tower_with(s, "swordsman", day=1)
    archer = units(s, D, "r2", "archer")[0]
    assert s.walls()
    play(s, mv.Attack(sword))
    assert set(s.legal_moves()) == {mv.Target(archer)}  # never the Keep from a tower


def test_the_moat_delays_the_tower_by_a_day() -> None:
    s = blank("attack", day=2)
    put(s, D, "r0", "moat")
    _, sword = _tower_with(s, "swordsman", day=1)
    refused(s, mv.Attack(sword), "siege.attack.tower-delay")
    s.day = 3
    assert mv.Attack(sword) in s.legal_moves()


def test_archers_in_a_tower_gain_the_walls_plus_one() -> None:
    s = blank("attack")
    _, archer = _tower_with(s, "archer", day=1)
    target = units(s, D, "r2", "archer")[0]
    assert s.faces(archer, target) == 2  # 5-6, over the walls


def test_a_tower_fills_the_moat_once_the_walls_are_gone() -> None:
    s = blank("attack")
    moat = put(s, D, "r0", "moat")
    tower, _ = _tower_with(s, "swordsman", day=1)
    assert mv.Attack(tower) not in s.legal_moves()
    clear_row(s, D, "r1")
    soldier = s.towers[tower][0]
    play(s, mv.Attack(tower), mv.Target(moat))
    assert s.moat() is None and tower not in s.rows[A]["r0"]
    # ruling: docs/rulings.md#siege-place-in-the-row: the soldier steps down where the Attacker says
    assert s.phase == "arrive" and s.to_move() == A and soldier not in s.rows[A]["r1"]
    play(s, mv.Place(0))
    assert s.rows[A]["r1"][0] == soldier and s.phase == "attack"


# -- Field Marshal, Assassin, Traitor, Stonemason ---------------------------

def test_row_1_holds_four_or_five_with_the_field_marshal() -> None:
    s = blank("move")
    new = put(s, A, "r2", "knight")
    s.played = [new]
    refused(s, mv.Shift(new, "r1"), "siege.move.row-full")
    put(s, A, "rc", "field_marshal")
    play(s, mv.Shift(new, "r1", 4))
    assert len(s.rows[A]["r1"]) == 5


def test_only_troops_played_this_turn_move_into_row_1() -> None:
    s = blank("move")
    clear_row(s, A, "r1")
    old = put(s, A, "r2", "archer")
    new = put(s, A, "r2", "archer")
    s.played = [new]
    refused(s, mv.Shift(old, "r1"), "siege.move.not-played")
    play(s, mv.Shift(new, "r1", 0))
    assert s.rows[A]["r1"] == [new]


def test_assassin_destroys_a_modifier() -> None:
    s = blank("play")
    mason = put(s, D, "rc", "stonemason")
    give(s, A, "assassin")
    refused(s, mv.Play("assassin"), "siege.play.no-target")
    refused(s, mv.Play("assassin", s.leader(D)), "siege.play.bad-target")
    play(s, mv.Play("assassin", mason))
    assert mason not in s.rows[D]["rc"] and s.discards[D]["stonemason"] == 1


def test_traitor_takes_an_enemy_troop() -> None:
    s = blank("play", seat=D)
    give(s, D, "traitor")
    knight = units(s, A, "r1", "knight")[0]
    refused(s, mv.Play("traitor", s.leader(A)), "siege.play.bad-target")  # "non è una carta Truppa"
    refused(s, mv.Play("traitor", knight), "siege.row.name-slot")
    play(s, mv.Play("traitor", knight, 0))
    assert s.rows[D]["r2"][0] == knight and knight not in s.rows[A]["r1"]


# ruling: docs/rulings.md#siege-what-is-a-truppa
def test_traitor_takes_a_supply_wagon_which_then_feeds_the_taker() -> None:
    # "I Supply Wagon e i Peasant sono anch'essi delle Truppe"
    s = blank("play", seat=D)
    give(s, D, "traitor")
    wagon = s.supplies(A)[0]
    assert mv.Play("traitor", wagon) in s.legal_moves()
    play(s, mv.Play("traitor", wagon))
    assert wagon in s.rows[D]["rc"] and not s.supplies(A)
    assert s.supplies(D) == [*units(s, D, "rc", "peasant"), wagon]
    s.seat, s.day = D, 2
    assert not s.feeding_due()  # two food cards on the table: no feeding


def test_a_taken_card_goes_to_its_own_decks_discards_when_lost() -> None:
    s = blank("play", seat=D)
    give(s, D, "traitor")
    wagon = s.supplies(A)[0]
    play(s, mv.Play("traitor", wagon))
    s._destroy(wagon, [], "famine")
    assert s.discards[A].get("supply_wagon") == 1 and "supply_wagon" not in s.discards[D]
    s2 = blank("play", seat=D)
    give(s2, D, "traitor")
    knight = units(s2, A, "r1", "knight")[0]
    play(s2, mv.Play("traitor", knight, 0))
    s2.seat, s2.phase, s2.hands[A] = A, "play", {"traitor": 1}
    s2.card_played = False
    play(s2, mv.Play("traitor", knight, 0))  # taken back: the Attacker's own card again
    assert s2.owners == {}
    s2._destroy(knight, [], "melee")
    assert s2.discards[A].get("knight") == 1


def test_traitor_takes_a_war_machine() -> None:
    # "le Truppe comprendono sia le Siege Tower, Catapults e Ballista che gli uomini"
    s = blank("play", seat=D)
    give(s, D, "traitor")
    cat = units(s, A, "r1", "catapult")[0]
    play(s, mv.Play("traitor", cat, 1))
    assert cat in s.rows[D]["r2"] and cat in s.played


def test_traitor_takes_a_tower_its_soldiers_step_down() -> None:
    s = blank("play", seat=D)
    give(s, D, "traitor")
    tower = put(s, A, "r0", "siege_tower")
    sword = put(s, A, "r1", "swordsman")
    s.rows[A]["r1"].remove(sword)
    s.towers[tower].append(sword)
    play(s, mv.Play("traitor", tower, 0))
    assert tower in s.rows[D]["r2"] and not s.towers[tower]
    assert s.phase == "arrive" and s.to_move() == A  # the soldier's own side names his place
    play(s, mv.Place(len(s.rows[A]["r1"])))
    assert s.rows[A]["r1"][-1] == sword and s.to_move() == D and s.card_played


def test_traitor_takes_food_only_while_the_takers_table_has_room() -> None:
    # "non sono permesse più di due carte Supply Wagon o Peasant in gioco"
    s = blank("play", seat=D)
    give(s, D, "traitor")
    put(s, D, "rc", "peasant")
    refused(s, mv.Play("traitor", s.supplies(A)[0]), "siege.play.supply-limit")


def test_starving_or_flooded_may_give_up_a_food_card_on_the_table() -> None:
    s = blank("feed")
    s.day = 2  # one Supply Wagon on the table: feeding is due on even days
    s._advance([])
    assert s.phase == "lose" and mv.Lose(unit=s.supplies(A)[0]) in s.legal_moves()


def test_traitor_grain_needs_food_in_the_discards() -> None:
    s = blank("play")
    give(s, A, "traitor")
    refused(s, mv.Play("traitor", "grain"), "siege.play.no-grain")


def test_stonemason_takes_one_from_the_attackers_die_against_the_walls() -> None:
    s = blank("attack")
    put(s, D, "rc", "stonemason")
    cat = units(s, A, "r1", "catapult")[0]
    ev = play(s, mv.Attack(cat), mv.Target(s.walls()[0]), mv.Die(4))
    assert _shot(ev)["modifier"] == -1 and not _shot(ev)["hit"]


# -- Oil, Pitch, Lead ------------------------------------------------------

def test_pour_cards_strike_row_0_in_the_defenders_play() -> None:
    s = blank("play", seat=D)
    give(s, D, "oil")
    ram = put(s, A, "r0", "battering_ram")
    refused(s, mv.Play("oil", units(s, A, "r1", "knight")[0]), "siege.pour.not-row0")
    play(s, mv.Play("oil", ram))
    assert ram not in s.rows[A]["r0"] and s.card_played


def test_the_defender_is_offered_a_pour_before_the_attacks() -> None:
    s = blank("play")
    give(s, A, "archer")
    ram = put(s, A, "r0", "battering_ram")
    give(s, D, "lead")
    play(s, mv.Play("archer", at=0))
    assert s.phase == "pour" and s.to_move() == D
    assert set(s.legal_moves()) == {mv.Play("lead", ram), mv.Pass()}
    refused(s, mv.Play("archer"), "siege.pour.only-pour")
    play(s, mv.Pass())
    assert s.phase == "attack" and s.to_move() == A


def test_a_pour_out_of_turn_is_not_the_defenders_card() -> None:
    s = blank("play")
    give(s, A, "archer")
    ram = put(s, A, "r0", "battering_ram")
    give(s, D, "pitch")
    play(s, mv.Play("archer", at=0), mv.Play("pitch", ram))
    assert ram not in s.rows[A]["r0"] and s.seat == A
    assert s.hands[D] == {}
