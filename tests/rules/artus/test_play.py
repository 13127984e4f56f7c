"""Every rule of play: moving Knights, Princes and the King, displacement,
rings and crowning, prestige and the 50 tiles, drawing, turns and the end."""

from __future__ import annotations

import random

import pytest

from rules import CHANCE, IllegalMove
from rules.artus import GAME, board
from rules.artus.data import DATA
from rules.artus.moves import Draw, Place, Play, Reveal
from rules.artus.state import ArtusState
from tests.rules.artus.helpers import at_turn, of_type, playout, refused, seat

K = DATA.large_crown  # the King's seat at the start (silver)


def table(knights: dict[int, list[int]], players: int = 2, mode: str = "beginner") -> ArtusState:
    """The starting princes, the given Knights (by seat), setup skipped."""
    state = GAME.new_game(players, 0, {"mode": mode})
    assert isinstance(state, ArtusState)
    for player, seats in knights.items():
        for s in seats:
            assert state.seats[s] is None
            state.seats[s] = board.knight(player)
    return at_turn(state, 0, [])


def play(state: ArtusState, move: Play, player: int = 0):
    at_turn(state, player, [move.card, *state.hands[player]])
    return state.apply(move)


BRONZE_3 = seat(3)  # the bronze prince on the crown seat three before the King
SILVER_2 = seat(-2)  # the other silver prince, opposite the King
BRONZE_9 = seat(-9)


def test_setup_positions_used_here() -> None:
    state = table({})
    assert (state.seats[BRONZE_3], state.seats[SILVER_2], state.seats[BRONZE_9]) == (
        "bronze",
        "silver",
        "bronze",
    )


# -- moving a Knight -----------------------------------------------------
def test_knight_scores_the_seat_it_leaves() -> None:
    state = table({0: [seat(-5)]})
    events = play(state, Play("knight-2-4", "move", seat(-5), 4))
    assert state.seats[seat(-1)] == "k0" and state.scores[0] == -5
    assert of_type(events, "figure_moved")[0] | {"name": None} == {
        "figure": "knight",
        "owner": 0,
        "name": None,
        "from": seat(-5),
        "to": seat(-1),
        "steps": 4,
        "player": 0,
    }


def test_knight_card_range_and_direction() -> None:
    state = table({0: [seat(-5)], 1: [seat(-6)]})
    at_turn(state, 0, ["knight-2-4", "knight-1-5-both"])
    refused(state, Play("knight-2-4", "move", seat(-5), 5), "artus.move.out-of-range")
    refused(state, Play("knight-2-4", "move", seat(-5), 1), "artus.move.out-of-range")
    refused(state, Play("knight-2-4", "move", seat(-5), -2), "artus.move.backwards")
    refused(state, Play("knight-2-4", "move", seat(-6), 2), "artus.move.foreign-knight")
    refused(state, Play("knight-2-4", "move", BRONZE_3, 2), "artus.move.not-own-knight")
    refused(state, Play("knight-2-4", "move", seat(-7), 2), "artus.move.no-figure")
    refused(state, Play("knight-2-4", "move", 99, 2), "artus.seat.no-seat")
    refused(state, Play("knight-2-4", "ring", seat(-5)), "artus.card.wrong-action")
    refused(state, Play("knight-3-6", "move", seat(-5), 3), "artus.card.not-in-hand")
    refused(state, Play("knight-9-9", "move", seat(-5), 3), "artus.card.unknown")
    refused(state, Play("knight-2-4", "move", seat(-5), 2, knights=(1,)), "artus.play.extra")
    # the both-ways card goes back 1 to 5
    assert Play("knight-1-5-both", "move", seat(-5), -5) in state.legal_moves()
    refused(state, Play("knight-1-5-both", "move", seat(-5), -6), "artus.move.out-of-range")
    state.apply(Play("knight-1-5-both", "move", seat(-5), -2))
    assert state.seats[seat(-7)] == "k0" and state.scores[0] == -5


# -- displacement --------------------------------------------------------
def test_displaced_to_next_empty_seat_counter_clockwise_without_score() -> None:
    # Knights on 1, 0, 0 and the target 2: the one on 2 goes past them to the next empty seat.
    zeros = [s for s in range(DATA.seats) if board.value(K, s) == 0 and s != K]
    state = table({0: [seat(-3)], 1: [seat(2), seat(1), *zeros]})
    events = play(state, Play("knight-5-8", "move", seat(-3), 7))
    (moved,) = of_type(events, "displaced")
    # not back to the seat the mover came from (-3): the first empty one, the -1
    assert (moved["from"], moved["to"], moved["owner"]) == (seat(2), seat(-1), 1)
    assert [e["player"] for e in of_type(events, "prestige")] == [0]
    assert state.scores == [-3, 0]


def test_backwards_move_still_displaces_counter_clockwise() -> None:
    state = table({0: [seat(6)], 1: [seat(2)]})
    events = play(state, Play("knight-1-5-both", "move", seat(6), -4))
    (moved,) = of_type(events, "displaced")
    assert (moved["from"], moved["to"]) == (seat(2), seat(1))


# -- moving a Prince or the King -----------------------------------------
def test_prince_scores_seat_left_and_colour_rule() -> None:
    state = table({})
    at_turn(state, 0, ["king-1-7-silver", "king-4-8"])
    refused(state, Play("king-1-7-silver", "move", BRONZE_3, 2), "artus.move.wrong-colour")
    refused(state, Play("king-4-8", "move", BRONZE_3, 3), "artus.move.out-of-range")
    refused(state, Play("king-4-8", "move", BRONZE_3, -4), "artus.move.backwards")
    state.apply(Play("king-4-8", "move", BRONZE_9, 4))
    assert state.scores[0] == -9 and state.seats[BRONZE_9 + 4] == "bronze" and state.rings[BRONZE_9 + 4] == 1


def test_king_card_on_a_knight_is_refused() -> None:
    state = table({0: [seat(5)]})
    at_turn(state, 0, ["king-4-8"])
    refused(state, Play("king-4-8", "move", seat(5), 4), "artus.move.not-royal")


def test_king_moves_without_score_and_the_table_turns() -> None:
    state = table({0: [seat(-15)]})
    events = play(state, Play("king-1-7-silver", "move", K, 2))
    assert state.scores[0] == 0 and state.king == K + 2 and state.rings[K + 2] == 3
    assert of_type(events, "table_rotated") == [{"from": K, "to": K + 2}]
    assert of_type(events, "figure_moved")[0]["figure"] == "king"
    # the Knight that was on the -15 now sits directly behind the King: the 10
    assert board.value(state.king, seat(-15)) == 10


def test_prince_landing_on_the_king_displaces_him() -> None:
    state = table({1: [seat(10)]})
    events = play(state, Play("king-1-7-bronze", "move", BRONZE_3, DATA.seats - BRONZE_3))
    (moved,) = of_type(events, "displaced")
    assert moved["figure"] == "king" and (moved["from"], moved["to"]) == (K, seat(8))
    assert state.king == seat(8) and state.rings[seat(8)] == 3 and state.scores[0] == 3
    assert of_type(events, "table_rotated") == [{"from": K, "to": seat(8)}]


def test_both_ways_king_card_moves_the_king_backwards() -> None:
    state = table({})
    play(state, Play("king-1-5-both", "move", K, -2))
    assert state.king == (K - 2) % DATA.seats


# -- rings ---------------------------------------------------------------
def test_ring_scores_the_princes_seat_never_the_king() -> None:
    state = table({0: [seat(5)]})
    at_turn(state, 0, ["ring-silver", "ring-bronze"])
    refused(state, Play("ring-silver", "ring", K), "artus.ring.king")
    refused(state, Play("ring-silver", "ring", BRONZE_3), "artus.ring.wrong-colour")
    refused(state, Play("ring-silver", "ring", seat(5)), "artus.ring.not-prince")
    refused(state, Play("ring-silver", "ring", seat(6)), "artus.ring.not-prince")
    refused(state, Play("ring-silver", "ring", SILVER_2, steps=1), "artus.play.extra")
    events = state.apply(Play("ring-bronze", "ring", BRONZE_3))
    assert state.rings[BRONZE_3] == 2 and state.scores[0] == 3 and state.seats[BRONZE_3] == "bronze"
    assert of_type(events, "ring_added")[0]["rings"] == 2


def test_third_ring_crowns_a_new_king() -> None:
    state = table({0: [seat(-1)]})
    state.rings[BRONZE_9] = 2
    events = play(state, Play("ring-both", "ring", BRONZE_9))
    assert state.scores[0] == -9 and state.king == BRONZE_9
    assert state.rings[BRONZE_9] == 3 and state.rings[K] == 1
    assert of_type(events, "crowned") == [
        {"colour": "bronze", "seat": BRONZE_9, "old_king": K, "rings_returned": 2}
    ]
    assert sum(state.rings) <= DATA.rings


# -- prestige ------------------------------------------------------------
def test_fifty_tiles_and_negative_scores() -> None:
    state = table({0: [seat(10)]})
    state.scores[0] = 45
    events = play(state, Play("knight-1-3", "move", seat(10), 1))
    assert state.scores[0] == 55
    assert of_type(events, "point_tiles") == [{"player": 0, "tiles": 1, "change": 1}]
    state = table({0: [seat(-15)]})
    state.scores[0] = 55
    events = play(state, Play("knight-1-3", "move", seat(-15), 1))
    assert state.scores[0] == 40 and of_type(events, "point_tiles")[0]["change"] == -1
    state = table({0: [seat(-15)]})
    play(state, Play("knight-1-3", "move", seat(-15), 1))
    assert state.scores[0] == -15 and state.view(None)["tiles"] == [0, 0]


# -- drawing -------------------------------------------------------------
def test_beginner_turn_play_one_draw_one_from_either_pile() -> None:
    state = table({0: [seat(5)]})
    at_turn(state, 0, ["knight-1-3", "king-4-8"])
    refused(state, Draw("king"), "artus.phase.must-play")
    state.apply(Play("knight-1-3", "move", seat(5), 1))
    assert state.to_move() == 0 and state.legal_moves() == [Draw("knight"), Draw("king")]
    refused(state, Play("king-4-8", "move", K, 4), "artus.phase.must-choose-pile")
    refused(state, Draw("scoring"), "artus.draw.unknown-pile")
    state.apply(Draw("king"))
    assert state.to_move() == CHANCE and state.view(None)["drawing"] == {"player": 0, "pile": "king"}
    refused(state, Draw("knight"), "artus.phase.draw-due")
    card = state.piles[0]["king"][0]
    events = state.apply(Reveal(card))
    assert card in state.hands[0] and state.to_move() == 1 and state.phase == "play"
    assert of_type(events, "turn") == [{"player": 1, "round": 1}]


def test_only_the_other_pile_when_one_runs_out() -> None:
    state = table({0: [seat(5)]})
    at_turn(state, 0, ["knight-1-3"])
    state.piles[0]["knight"] = []
    state.apply(Play("knight-1-3", "move", seat(5), 1))
    assert state.to_move() == CHANCE and state.view(None)["drawing"]["pile"] == "king"
    state.piles[0]["king"] = state.piles[0]["king"][:1]  # (state is ours to edit)
    state.pending = None
    refused(state, Draw("knight"), "artus.draw.pile-empty")


def test_no_draw_when_both_piles_are_empty_and_the_hand_is_played_out() -> None:
    state = table({0: [seat(5)], 1: [seat(-5)]})
    for p in (0, 1):
        state.piles[p] = {"knight": [], "king": []}
        state.hands[p] = ["knight-1-3"]
    at_turn(state, 0, ["knight-1-3", "knight-2-4"])
    state.apply(Play("knight-1-3", "move", seat(5), 1))
    assert state.to_move() == 1 and state.hands[0] == ["knight-2-4"]


def test_advanced_turn_two_plays_then_two_draws() -> None:
    state = table({0: [seat(5), seat(-5)]}, mode="advanced")
    at_turn(state, 0, ["knight-1-3", "knight-2-4", "king-4-8"], plays_left=2)
    state.apply(Play("knight-1-3", "move", seat(5), 1))
    assert state.to_move() == 0 and state.phase == "play"
    state.apply(Play("knight-2-4", "move", seat(-5), 2))
    assert state.legal_moves() == [Draw("knight"), Draw("king"), Draw("scoring")]
    state.apply(Draw("scoring"))
    state.apply(state.sample_chance())
    assert state.to_move() == 0 and state.draws_left == 1  # looked at the first card, now the second
    state.apply(Draw("knight"))
    state.apply(state.sample_chance())
    assert state.to_move() == 1 and len(state.hands[0]) == 3


def test_game_ends_after_the_last_round() -> None:
    for mode, rounds in (("beginner", 16), ("advanced", 11)):
        state = GAME.new_game(3, 11, {"mode": mode})
        events = playout(state)
        turns = of_type(events, "turn")
        assert max(t["round"] for t in turns) == rounds and len(turns) == 3 * rounds
        assert all(not h for h in state.hands) and state.legal_moves() == []
        outcome = state.outcome()
        assert outcome is not None and outcome.scores == dict(enumerate(state.scores))
        with pytest.raises(IllegalMove) as info:
            state.check(Place(0))
        assert info.value.code == "core.game-over"


def test_ties_share_the_win() -> None:
    state = table({0: [seat(5)], 1: [seat(-5)]})
    state.phase = "over"
    state.scores = [12, 12]
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == [0, 1]
    state.scores = [12, 13]
    assert state.outcome().winners == [1]  # type: ignore[union-attr]


def test_game_over_event_and_outcome() -> None:
    state = GAME.new_game(2, 4)
    events = playout(state, 4)
    (over,) = of_type(events, "game_over")
    assert over["scores"] == state.scores and state.outcome().winners == over["winners"]  # type: ignore[union-attr]


def test_prestige_events_name_what_scored_after_the_score_in_one_order() -> None:
    """Each prestige event's params: player, points, score, reason, then what
    scored (the seat left or ringed, the card and its Knights), in that order,
    for every reason over seeded advanced games (the journal keeps them as written)."""
    after = {"seat left": ["seat"], "ring": ["seat"], "penalty": ["card"],
             "scoring card": ["card", "knights"]}
    seen: set[str] = set()
    for seed in range(12):
        rng = random.Random(seed)
        state = GAME.new_game(2 + seed % 3, seed, {"mode": "advanced"})
        while state.to_move() is not None:
            move = state.sample_chance() if state.is_chance() else rng.choice(state.legal_moves())
            for event in of_type(state.apply(move), "prestige"):
                assert list(event) == ["player", "points", "score", "reason", *after[event["reason"]]], event
                seen.add(event["reason"])
    assert seen == set(after)
