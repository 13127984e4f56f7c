"""The four endings, checked when they happen, the round limit, and the winner."""

from __future__ import annotations

from rules.mordred import scoring
from rules.mordred.state import ROUND_LIMIT
from rules.mordred.tables import TABLES

from .helpers import fresh, give, play, to_spend

ANGLESEY = TABLES.anglesey


def test_ending_a_all_men_on_the_map_mid_turn() -> None:
    s = fresh()
    # every man but two already on the map, away from Bangor and Conwy
    s.men |= set(sorted(n for n in TABLES.spaces if n not in {ANGLESEY, "Bangor", "Conwy"})[: TABLES.men - 3])
    s.men_supply = 2
    play(s, {"type": "declare", "row": "C"}, {"type": "roll", "first": 2, "second": 5})
    play(s, {"type": "place", "space": "Bangor"})
    assert s.to_move() == 0
    events = play(s, {"type": "place", "space": "Conwy"})
    assert s.to_move() is None and s.legal_moves() == []
    out = s.outcome()
    assert out is not None and out.detail["ending"] == "all_men_placed"
    assert out.detail["mordred_won"]  # 35 men against no piece
    assert events[-1].type == "game_over"


def test_ending_a_after_mordred_takes_a_piece() -> None:
    s = fresh()
    s.men |= set(sorted(n for n in TABLES.spaces if n not in {ANGLESEY, "Bangor", "Conwy"})[: TABLES.men - 2])
    s.men_supply = 1
    give(s, 1, "village", "Bangor")
    play(s, {"type": "declare", "row": "C"}, {"type": "roll", "first": 1, "second": 5})
    assert s.to_place == 1
    play(s, {"type": "place", "space": "Bangor"}, {"type": "die", "value": 6})
    assert s.outcome() is not None and s.outcome().detail["ending"] == "all_men_placed"


def test_ending_b_only_at_the_start_of_that_players_turn() -> None:
    s = fresh(3)
    to_spend(s)
    s.money[0] = 50
    for space in ("Flint", "Wrexham", "Chirk"):
        give(s, 0, "large_castle", space)
    play(s, {"type": "build", "building": "large_castle", "space": "Welshpool"})
    assert s.supply[0]["large_castle"] == 0
    assert s.to_move() == 0  # the turn goes on
    play(s, {"type": "end_turn"})
    for _ in range(2):
        to_spend(s)
        play(s, {"type": "end_turn"})
    out = s.outcome()
    assert out is not None and out.detail["ending"] == "pieces_exhausted"
    assert s.current == 0 and s.phase == "over"


def test_ending_b_looks_at_the_player_whose_turn_starts() -> None:
    s = fresh(3)
    to_spend(s)
    s.supply[2]["town"] = 0
    play(s, {"type": "end_turn"})
    assert s.outcome() is None and s.current == 1


def test_ending_b_not_met_when_mordred_gave_the_piece_back() -> None:
    s = fresh(3)
    give(s, 1, "village", "Bangor")
    s.supply[1]["village"] = 0
    play(s, {"type": "declare", "row": "C"}, {"type": "roll", "first": 1, "second": 5})
    play(s, {"type": "place", "space": "Bangor"}, {"type": "die", "value": 6})
    assert s.supply[1]["village"] == 1
    play(s, {"type": "end_turn"})
    assert s.outcome() is None and s.current == 1


def test_ending_c_pawn_cannot_move_left_far_enough() -> None:
    s = fresh()
    s.pawns[0] = 1
    events = play(s, {"type": "declare", "row": "C"}, {"type": "roll", "first": 2, "second": 4})
    assert s.pawns[0] == 0
    out = s.outcome()
    assert out is not None and out.detail["ending"] == "track_end"
    assert s.money[0] == 2 + TABLES.money["C"][4].money  # the money was taken first
    assert events[-1].type == "game_over"


def test_pawn_reaching_the_end_exactly_does_not_end() -> None:
    s = fresh()
    s.pawns[0] = 2
    play(s, {"type": "declare", "row": "C"}, {"type": "roll", "first": 2, "second": 4})
    assert s.pawns[0] == 0 and s.outcome() is None


def test_ending_c_pawn_cannot_move_right() -> None:
    s = fresh()
    to_spend(s)
    s.money[0] = 10
    s.pawns[0] = TABLES.track_length - 1
    give(s, 0, "large_castle", "Knighton")
    s.men.add("Hay")
    play(s, {"type": "attack", "from": "Knighton", "space": "Hay"}, {"type": "die", "value": 6})
    out = s.outcome()
    assert out is not None and out.detail["ending"] == "track_end"
    assert "Hay" not in s.men


def test_ending_d_slaying_mordred_on_anglesey_wins_outright() -> None:
    s = fresh()
    to_spend(s)
    s.money[0] = 10
    give(s, 0, "large_castle", "Bangor")
    give(s, 1, "large_castle", "Chepstow")  # more VP elsewhere do not matter
    give(s, 1, "large_castle", "Monmouth")
    s.men |= set(
        sorted(n for n in TABLES.spaces if n not in {ANGLESEY, "Bangor", "Chepstow", "Monmouth"})[:20]
    )
    play(s, {"type": "attack", "from": "Bangor", "space": ANGLESEY}, {"type": "die", "value": 6})
    out = s.outcome()
    assert out is not None
    assert out.winners == [0] and out.detail["ending"] == "mordred_slain"


def test_round_limit_ends_the_game() -> None:
    s = fresh(3)
    s.round = ROUND_LIMIT
    for seat in range(3):
        assert s.current == seat
        to_spend(s)
        assert s.outcome() is None
        play(s, {"type": "end_turn"})
    out = s.outcome()
    assert out is not None and out.detail["ending"] == "round_limit"


# -- the winner -----------------------------------------------------------------


def test_winner_mordred_holds_wales_pawn_furthest_right() -> None:
    out = scoring.decide("track_end", 0, 5, 4, [0, 9, 7], [10, 2, 30], [1, 1, 1])
    assert out.winners == [1] and out.detail["mordred_won"] and out.detail["tie_break"] == "none"


def test_winner_mordred_pawn_tie_broken_by_vp_then_money_then_shared() -> None:
    assert scoring.decide("track_end", 0, 5, 4, [9, 9, 7], [3, 4, 30], [9, 1, 1]).winners == [1]
    out = scoring.decide("track_end", 0, 5, 4, [9, 9, 7], [4, 4, 30], [2, 5, 1])
    assert out.winners == [1] and out.detail["tie_break"] == "money"
    out = scoring.decide("track_end", 0, 5, 4, [9, 9, 7], [4, 4, 30], [5, 5, 1])
    assert out.winners == [0, 1] and out.detail["tie_break"] == "shared"


def test_winner_arthur_holds_wales_most_vp() -> None:
    out = scoring.decide("all_men_placed", 0, 4, 4, [0, 9, 7], [10, 2, 30], [1, 1, 1])
    assert not out.detail["mordred_won"]  # equal numbers: Mordred does not outnumber
    assert out.winners == [2] and out.scores == {0: 10, 1: 2, 2: 30}


def test_winner_arthur_vp_tie_broken_by_money_then_shared() -> None:
    out = scoring.decide("track_end", 0, 1, 4, [0, 9, 7], [10, 10, 3], [4, 2, 9])
    assert out.winners == [0] and out.detail["tie_break"] == "money"
    out = scoring.decide("track_end", 0, 1, 4, [0, 9, 7], [10, 10, 3], [4, 4, 9])
    assert out.winners == [0, 1] and out.detail["tie_break"] == "shared"


def test_outcome_from_the_map() -> None:
    s = fresh(3)
    give(s, 0, "village", "Flint")
    give(s, 1, "large_castle", "Chepstow")
    s.end = ("track_end", 0)
    s.phase = "over"
    out = s.outcome()
    assert out is not None
    assert out.scores == {0: TABLES.vp["village"], 1: TABLES.vp["large_castle"], 2: 0}
    assert out.detail["mordred_men"] == 1 and out.detail["player_pieces"] == 2


def test_example_all_your_towns_on_the_map() -> None:
    # "avete piazzato sulla mappa tutti i vostri pezzi di un particolare tipo, ad esempio
    # tutte le vostre Città": the game ends as that player's next turn begins.
    s = fresh(3)
    forest = [n for n in sorted(TABLES.spaces) if TABLES.spaces[n].terrain == "forest" and n != ANGLESEY]
    for space in forest[: TABLES.per_player["town"]]:
        give(s, 0, "town", space)
    assert s.supply[0]["town"] == 0
    for _ in range(3):
        assert s.outcome() is None
        to_spend(s)
        play(s, {"type": "end_turn"})
    out = s.outcome()
    assert out is not None and out.detail["ending"] == "pieces_exhausted" and s.current == 0
