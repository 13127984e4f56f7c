"""Phase 4: building and attacking Mordred's men."""

from __future__ import annotations

from rules.core import CHANCE
from rules.mordred.moves import Attack, Build, EndTurn
from rules.mordred.state import MordredState
from rules.mordred.tables import BUILDINGS, TABLES

from .helpers import fresh, give, play, refused, to_spend

SPACES = TABLES.spaces


def _framed_village_at_3() -> str:
    return next(s for s in sorted(TABLES.black_frames) if TABLES.cost["village"][SPACES[s].terrain] == 3)


def _rich(seat_money: int = 30, players: int = 4) -> MordredState:
    s = fresh(players)
    to_spend(s)
    s.money[0] = seat_money
    return s


def _build(building: str, space: str) -> dict[str, str]:
    return {"type": "build", "building": building, "space": space}


def test_example_first_building_on_a_black_frame() -> None:
    # You are red and first; a village on a black-framed space costs £3.
    s = _rich(10)
    inner = next(n for n in SPACES if not SPACES[n].black_frame and n not in s.men)
    refused(s, _build("village", inner), "mordred.build.first_on_border")
    assert all(m.space in TABLES.black_frames for m in s.legal_moves() if isinstance(m, Build))
    space = _framed_village_at_3()
    play(s, _build("village", space))
    assert s.money[0] == 7
    assert s.pieces[space] == (0, "village")
    assert s.supply[0]["village"] == TABLES.per_player["village"] - 1


def test_example_where_hannah_may_build_next() -> None:
    # After red's first village: blue builds on black frames ("A") at no extra cost,
    # next to red's piece ("B") for £1 more, and nowhere else ("X").
    s = fresh(4)
    to_spend(s)
    red = _framed_village_at_3()
    s.money[0] = 3
    play(s, _build("village", red), {"type": "end_turn"})
    assert s.current == 1
    to_spend(s)
    s.money[1] = 20
    village = TABLES.cost["village"]
    for space in sorted(TABLES.black_frames - {red}):
        assert s._build("village", space) == village[SPACES[space].terrain]
    for space in sorted(SPACES[red].roads - TABLES.black_frames):
        assert s._build("village", space) == village[SPACES[space].terrain] + TABLES.surcharge
    far = next(
        n for n in SPACES if not SPACES[n].black_frame and n not in s.men and red not in SPACES[n].roads
    )
    refused(s, _build("village", far), "mordred.build.not_reachable")
    b_space = min(SPACES[red].roads - TABLES.black_frames)
    play(s, _build("village", b_space))
    assert s.money[1] == 20 - village[SPACES[b_space].terrain] - TABLES.surcharge


def test_no_surcharge_next_to_your_own_piece() -> None:
    s = _rich()
    give(s, 0, "village", "Flint")
    play(s, _build("village", "Denbigh"))
    assert s.money[0] == 30 - TABLES.cost["village"][SPACES["Denbigh"].terrain]


def test_no_surcharge_next_to_your_own_piece_even_beside_another_players() -> None:
    # Section 4 ("non adiacente ad uno dei vostri pezzi"), not the overview's
    # looser "adiacenti a dei pezzi avversari": see NOTATION.md.
    s = _rich()
    give(s, 0, "village", "Flint")
    give(s, 1, "village", "Conwy")
    assert {"Flint", "Conwy"} <= SPACES["Denbigh"].roads
    play(s, _build("village", "Denbigh"))
    assert s.money[0] == 30 - TABLES.cost["village"][SPACES["Denbigh"].terrain]


def test_towns_never_on_hills() -> None:
    s = _rich()
    hill = next(n for n in sorted(TABLES.black_frames) if SPACES[n].terrain == "hills")
    err = refused(s, _build("town", hill), "mordred.build.terrain")
    assert err.params["terrain"] == "hills"


def test_one_piece_per_space() -> None:
    s = _rich()
    give(s, 1, "village", "Flint")
    refused(s, _build("town", "Flint"), "mordred.build.occupied")
    s.men.add("Wrexham")
    refused(s, _build("village", "Wrexham"), "mordred.build.mordred_there")


def test_replacing_your_own_piece_at_full_cost() -> None:
    s = _rich()
    give(s, 0, "village", "Flint")
    give(s, 0, "village", "Chepstow")
    refused(s, _build("village", "Flint"), "mordred.build.same_piece")
    events = play(s, _build("town", "Flint"))
    assert s.pieces["Flint"] == (0, "town")
    assert s.money[0] == 30 - TABLES.cost["town"][SPACES["Flint"].terrain]
    assert s.supply[0]["village"] == TABLES.per_player["village"] - 1  # the old village is back
    assert events[0].params["replaced"] == "village"


def test_cannot_build_without_pieces_or_money() -> None:
    s = _rich(1)
    refused(s, _build("village", "Flint"), "mordred.build.cannot_afford")
    s.money[0] = 30
    s.supply[0]["large_castle"] = 0
    refused(s, _build("large_castle", "Flint"), "mordred.build.none_left")
    refused(s, _build("palace", "Flint"), "mordred.build.unknown_building")
    refused(s, _build("village", "Camelot"), "mordred.build.unknown_space")


def test_surcharge_counts_in_what_you_can_afford() -> None:
    s = _rich()
    give(s, 1, "village", "Flint")
    price = TABLES.cost["village"][SPACES["Denbigh"].terrain]
    s.money[0] = price
    refused(s, _build("village", "Denbigh"), "mordred.build.cannot_afford")
    s.money[0] = price + TABLES.surcharge
    assert Build("village", "Denbigh") in s.legal_moves()


def test_example_attacking_from_a_large_castle() -> None:
    # Two men in reach; £2 per attack; 4+ from a large castle: a 3 fails, a 6 wins;
    # the pawn moves one space right and the freed space may be built on.
    s = _rich(10)
    give(s, 0, "large_castle", "Knighton")
    s.men |= {"Hay", "Rhayader"}
    assert {m for m in s.legal_moves() if isinstance(m, Attack)} == {
        Attack("Knighton", "Hay"),
        Attack("Knighton", "Rhayader"),
    }
    events = play(s, {"type": "attack", "from": "Knighton", "space": "Hay"})
    assert s.money[0] == 8 and s.to_move() == CHANCE and events[0].params["need"] == 4
    play(s, {"type": "die", "value": 3})
    assert "Hay" in s.men and s.pawns[0] == TABLES.dragon
    play(s, {"type": "attack", "from": "Knighton", "space": "Hay"}, {"type": "die", "value": 6})
    assert s.money[0] == 6
    assert "Hay" not in s.men and s.pawns[0] == TABLES.dragon + 1
    assert Build("village", "Hay") in s.legal_moves()


def test_attack_refusals() -> None:
    s = _rich(10)
    give(s, 0, "village", "Flint")
    give(s, 1, "village", "Chirk")
    s.men |= {"Wrexham", "Cardiff"}
    refused(s, {"type": "attack", "from": "Chirk", "space": "Wrexham"}, "mordred.attack.not_your_piece")
    refused(s, {"type": "attack", "from": "Flint", "space": "Denbigh"}, "mordred.attack.no_man")
    refused(s, {"type": "attack", "from": "Flint", "space": "Cardiff"}, "mordred.attack.not_adjacent")
    refused(s, {"type": "attack", "from": "Flint", "space": "Avalon"}, "mordred.attack.unknown_space")
    s.money[0] = 1
    refused(s, {"type": "attack", "from": "Flint", "space": "Wrexham"}, "mordred.attack.cannot_afford")


def test_attacks_and_builds_interleave_and_end_turn_is_always_there() -> None:
    s = _rich(2)
    assert s.legal_moves()[-1] == EndTurn()
    s.money[0] = 0
    assert s.legal_moves() == [EndTurn()]


def test_dice_only_when_due() -> None:
    s = _rich()
    refused(s, {"type": "die", "value": 4}, "mordred.chance.not_due")
    give(s, 0, "village", "Flint")
    s.men.add("Wrexham")
    play(s, {"type": "attack", "from": "Flint", "space": "Wrexham"})
    refused(s, {"type": "die", "value": 7}, "mordred.die.bad_value")
    refused(s, {"type": "end_turn"}, "mordred.chance.pending")
    refused(s, {"type": "roll", "first": 3, "second": 3}, "mordred.chance.wrong_kind")


def test_all_buildings_priced_on_their_terrain() -> None:
    s = _rich(99)
    space = "Chepstow"
    for b in BUILDINGS:
        cost = TABLES.cost[b][SPACES[space].terrain]
        assert s._build(b, space) == cost
