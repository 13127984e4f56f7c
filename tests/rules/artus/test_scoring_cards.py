"""The six scoring cards of the advanced game, with their penalties."""

from __future__ import annotations

from rules.artus import board
from rules.artus.data import DATA
from rules.artus.moves import Play
from tests.rules.artus.helpers import (
    BEIGE,
    BLACK,
    BLUE,
    RED,
    at_turn,
    example_table,
    of_type,
    refused,
    seat,
    seats_with_value,
)

ZERO_BLACK = seats_with_value(0)[0]  # where example_table puts Black's yellow Knight


def _table(player: int, *cards: str):
    return at_turn(example_table(), player, list(cards))


def test_score_all_and_opposite_take_no_choice() -> None:
    state = _table(BLUE, "score-all", "score-all-opposite")
    assert [m for m in state.legal_moves()] == [
        Play("score-all", "score"),
        Play("score-all-opposite", "score"),
    ]
    refused(state, Play("score-all", "score", knights=(seat(7),)), "artus.score.no-choice")
    refused(state, Play("score-all", "penalty"), "artus.card.wrong-action")
    refused(state, Play("score-all", "score", seat=seat(7)), "artus.play.extra")
    events = state.apply(Play("score-all-opposite", "score"))
    assert state.scores[BLUE] == -14
    assert sorted(of_type(events, "prestige")[0]["knights"]) == sorted([seat(7), seat(6), seat(2), seat(-1)])


def test_green_yellow_red_choices_and_refusals() -> None:
    state = _table(BLACK, "score-green-yellow-red")
    chosen = {m.knights for m in state.legal_moves()}
    assert chosen == {tuple(sorted((seat(10), ZERO_BLACK, red))) for red in (seat(-3), seat(-5))}
    card = "score-green-yellow-red"
    refused(state, Play(card, "penalty"), "artus.score.can-fulfil")
    refused(state, Play(card, "score"), "artus.score.wrong-count")
    refused(state, Play(card, "score", knights=(seat(10), seat(10), seat(-3))), "artus.score.same-knight")
    refused(state, Play(card, "score", knights=(seat(10), seat(7), seat(-3))), "artus.score.not-own-knight")
    refused(state, Play(card, "score", knights=(seat(10), seat(-5), seat(-3))), "artus.score.colours")
    refused(state, Play(card, "score", knights=(seat(10), ZERO_BLACK, 40)), "artus.seat.no-seat")
    state.apply(
        Play(card, "score", knights=(seat(-5), ZERO_BLACK, seat(10)))
    )  # a worse choice is his to make
    assert state.scores[BLACK] == 5


def test_penalty_when_the_card_cannot_be_met() -> None:
    state = _table(BLUE, "score-green-yellow-red", "score-carpet", "score-three-red")
    assert state.legal_moves() == [
        Play(c, "penalty") for c in ("score-carpet", "score-green-yellow-red", "score-three-red")
    ]
    refused(state, Play("score-carpet", "score", knights=(seat(7), seat(6))), "artus.score.cannot-fulfil")
    for card, penalty in (("score-green-yellow-red", -15), ("score-carpet", -25), ("score-three-red", -50)):
        trial = state.copy()
        events = trial.apply(Play(card, "penalty"))
        assert trial.scores[BLUE] == penalty and of_type(events, "prestige")[0]["reason"] == "penalty"


def test_carpet_and_red_refusals() -> None:
    state = _table(BLACK, "score-carpet")
    refused(state, Play("score-carpet", "score", knights=(seat(10), seat(-3))), "artus.score.not-carpet")
    state = _table(BEIGE, "score-three-red")
    refused(state, Play("score-three-red", "score", knights=(seat(-2), seat(-4), 99)), "artus.seat.no-seat")
    zero_beige = next(s for s in range(DATA.seats) if state.seats[s] == "k3" and board.value(0, s) == 0)
    refused(
        state,
        Play("score-three-red", "score", knights=(seat(-2), seat(-4), zero_beige)),
        "artus.score.not-red",
    )


def test_choice_card_move_ring_or_best_knight() -> None:
    state = _table(RED, "score-choice")
    moves = state.legal_moves()
    assert Play("score-choice", "score") in moves and Play("score-choice", "penalty") not in moves
    assert {m.do for m in moves} == {"move", "ring", "score"}
    assert all(1 <= m.steps <= 3 for m in moves if m.do == "move")
    refused(state, Play("score-choice", "move", seat(10), 1), "artus.move.foreign-knight")
    refused(state, Play("score-choice", "move", seat(5), 4), "artus.move.out-of-range")
    refused(state, Play("score-choice", "move", seat(5), -1), "artus.move.backwards")
    refused(state, Play("score-choice", "ring", 0), "artus.ring.king")
    refused(state, Play("score-choice", "score", knights=(seat(5),)), "artus.score.no-choice")
    best = state.copy()
    best.apply(Play("score-choice", "score"))
    assert best.scores[RED] == 5  # his Knights sit on 5, 4, 1 and -9
    king = state.copy()
    king.apply(Play("score-choice", "move", 0, 2))  # the King too, with no score
    assert king.king == 2 and king.scores[RED] == 0
    ring = state.copy()
    ring.apply(Play("score-choice", "ring", seat(3)))
    assert ring.king == seat(3) and ring.scores[RED] == 3
