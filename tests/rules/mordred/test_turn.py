"""The turn: setup, declaring, rolling, taking money and men, placing Mordred's men."""

from __future__ import annotations

from rules.core import CHANCE
from rules.mordred.moves import Declare, Die, Place, Roll
from rules.mordred.state import MordredState
from rules.mordred.tables import TABLES

from .helpers import black_face, clean_face, fresh, give, play, refused, to_spend

ANGLESEY = TABLES.anglesey


def test_setup() -> None:
    # "Prendetene uno e piazzatelo sul Castello di Anglesey"; pawns on the dragon.
    s = fresh(4)
    assert s.men == {ANGLESEY}
    assert s.men_supply == TABLES.men - 1
    assert s.pawns == [TABLES.dragon] * 4
    assert s.money == [0] * 4
    assert s.pieces == {}
    assert s.supply[2] == dict(TABLES.per_player)
    assert s.to_move() == 0 and s.phase == "declare"


def test_declare_then_chance_roll() -> None:
    s = fresh()
    assert set(s.legal_moves()) == {Declare("A"), Declare("B"), Declare("C"), Declare(None)}
    play(s, {"type": "declare", "row": "B"})
    assert s.to_move() == CHANCE
    assert len(s.legal_moves()) == 36 and Roll((6, 1)) in s.legal_moves()
    assert s.sample_chance() in s.legal_moves()


def test_undeclared_roll_counts_as_row_c() -> None:
    s = fresh()
    events = play(s, {"type": "declare", "row": None}, {"type": "roll", "first": 5, "second": 5})
    assert s.row == "C" and not s.declared
    assert s.money[0] == 2 * TABLES.money["C"][5].money
    assert events[0].params == {"seat": 0, "row": "C", "declared": False}


def test_nothing_before_the_declaration() -> None:
    s = fresh()
    refused(s, {"type": "build", "building": "village", "space": "Flint"}, "mordred.turn.declare_first")
    refused(s, {"type": "end_turn"}, "mordred.turn.declare_first")
    refused(s, {"type": "roll", "first": 1, "second": 1}, "mordred.chance.not_due")
    refused(s, {"type": "declare", "row": "D"}, "mordred.declare.bad_row")


def test_declare_only_once() -> None:
    s = fresh()
    play(s, {"type": "declare", "row": "A"})
    refused(s, {"type": "declare", "row": "C"}, "mordred.chance.pending")
    refused(s, {"type": "die", "value": 3}, "mordred.chance.wrong_kind")
    refused(s, {"type": "roll", "first": 0, "second": 7}, "mordred.roll.bad_value")
    to_spend_state = fresh()
    to_spend(to_spend_state)
    refused(to_spend_state, {"type": "declare", "row": "C"}, "mordred.declare.already")


def test_example_take_money_and_mordred_men() -> None:
    # Row C, dice 2 and 5: £2 (black box) + £6 = £8, 2 men, pawn 2 spaces left.
    s = fresh()
    events = play(s, {"type": "declare", "row": "C"}, {"type": "roll", "first": 2, "second": 5})
    assert s.money[0] == 8
    assert s.to_place == 2
    assert s.men_supply == TABLES.men - 1 - 2
    assert s.pawns[0] == TABLES.dragon - 2
    assert s.phase == "place"
    assert [e.type for e in events] == ["declared", "rolled", "pawn"]


def test_no_black_box_no_men_straight_to_spending() -> None:
    s = fresh()
    f = clean_face("C")
    play(s, {"type": "declare", "row": "C"}, {"type": "roll", "first": f, "second": f})
    assert s.to_place == 0 and s.phase == "spend"
    assert s.pawns[0] == TABLES.dragon


def test_two_black_boxes_add_up() -> None:
    s = fresh()
    f = black_face("C")
    play(s, {"type": "declare", "row": "C"}, {"type": "roll", "first": f, "second": 2})
    owed = TABLES.money["C"][f].men + TABLES.money["C"][2].men
    assert s.to_place == owed and s.pawns[0] == TABLES.dragon - owed


def _placing(men: int = 2) -> MordredState:
    s = fresh()
    play(s, {"type": "declare", "row": "C"}, {"type": "roll", "first": 2, "second": 5})
    assert s.to_place == men
    return s


def test_example_first_man_goes_next_to_anglesey() -> None:
    s = _placing()
    assert {m.space for m in s.legal_moves()} == set(TABLES.spaces[ANGLESEY].roads)


def test_place_every_man_before_spending() -> None:
    s = _placing()
    refused(s, {"type": "build", "building": "village", "space": "Flint"}, "mordred.place.men_first")
    refused(s, {"type": "end_turn"}, "mordred.place.men_first")
    refused(s, {"type": "place", "space": "Cardiff"}, "mordred.place.not_adjacent")
    refused(s, {"type": "place", "space": ANGLESEY}, "mordred.place.occupied")
    refused(s, {"type": "place", "space": "Camelot"}, "mordred.place.unknown_space")
    play(s, {"type": "place", "space": "Bangor"})
    # the man just placed opens its own neighbours
    assert Place("Conwy") in s.legal_moves()
    play(s, {"type": "place", "space": "Conwy"})
    assert s.men == {ANGLESEY, "Bangor", "Conwy"}
    assert s.phase == "spend"
    refused(s, {"type": "place", "space": "Denbigh"}, "mordred.place.none_left")


def test_a_man_may_join_a_group_cut_off_from_the_main_one() -> None:
    s = _placing()
    s.men.add("Cardiff")  # a man left alone in the south
    assert Place("Newport") in s.legal_moves()
    play(s, {"type": "place", "space": "Newport"})
    assert "Newport" in s.men


def test_men_do_not_attack_their_placers_own_pieces() -> None:
    s = _placing()
    give(s, 0, "village", "Bangor")
    refused(s, {"type": "place", "space": "Bangor"}, "mordred.place.own_piece")


def test_example_mordred_attacks_a_small_castle() -> None:
    # Two men to place; Hannah (seat 1) has a small castle next to Anglesey: 4+ removes it.
    s = _placing()
    give(s, 1, "small_castle", "Bangor")
    supply_before = s.supply[1]["small_castle"]
    events = play(s, {"type": "place", "space": "Bangor"})
    assert s.to_move() == CHANCE and s.legal_moves() == [Die(v) for v in range(1, 7)]
    assert events[-1].params["need"] == 4
    # a 3 fails: the man is discarded
    events = play(s, {"type": "die", "value": 3})
    assert not events[0].params["success"]
    assert s.pieces["Bangor"] == (1, "small_castle") and "Bangor" not in s.men
    assert s.men_supply == TABLES.men - 1 - 1 and s.to_place == 1
    # another chance with the second man: a 4 takes the castle back to its owner
    play(s, {"type": "place", "space": "Bangor"}, {"type": "die", "value": 4})
    assert "Bangor" in s.men and "Bangor" not in s.pieces
    assert s.supply[1]["small_castle"] == supply_before + 1
    assert s.phase == "spend"


def test_men_with_nowhere_to_go_are_discarded() -> None:
    s = fresh()
    # Mordred's only man is gone from Anglesey's neighbours' reach: no man on the map.
    s.men = set()
    s.men_supply = TABLES.men
    play(s, {"type": "declare", "row": "C"}, {"type": "roll", "first": 2, "second": 5})
    assert s.to_place == 0 and s.men_supply == TABLES.men and s.phase == "spend"


def test_men_beyond_the_supply_are_not_taken() -> None:
    s = fresh()
    s.men_supply = 1
    play(s, {"type": "declare", "row": "C"}, {"type": "roll", "first": 2, "second": 2})
    assert s.to_place == 1 and s.men_supply == 0
    assert s.pawns[0] == TABLES.dragon - 4  # the pawn still moves in full


def test_money_carries_over() -> None:
    s = fresh(3)
    to_spend(s, "C", (5, 5))
    earned = s.money[0]
    play(s, {"type": "end_turn"})
    to_spend(s)
    play(s, {"type": "end_turn"})
    to_spend(s)
    play(s, {"type": "end_turn"})
    assert s.round == 2 and s.current == 0
    assert s.money[0] == earned
