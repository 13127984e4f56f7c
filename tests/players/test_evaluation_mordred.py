"""Mordred: the hard level's finer reading of a position
(players.evaluation.mordred_chances), continuous where the public score
turns a seat's lead into a loss with one piece built."""

from __future__ import annotations

import pytest

import rules
from players.evaluation import mordred, mordred_chances
from players.simple import HEURISTICS
from rules.mordred.tables import TABLES

GAME = "mordred"


def _position(pawns: list[int], vp_pieces: dict[int, int], men: int, money: list[int]) -> rules.State:
    """Three seats: ``pawns`` on the track, seat -> villages on the map, ``men`` of Mordred's on it."""
    state = rules.get(GAME).new_game(3, seed=1, options={})
    spaces = [s for s in TABLES.spaces if s != TABLES.anglesey]
    state.pawns = list(pawns)  # type: ignore[attr-defined]
    state.money = list(money)  # type: ignore[attr-defined]
    free = iter(spaces)
    state.pieces = {next(free): (seat, "village") for seat, n in vp_pieces.items() for _ in range(n)}  # type: ignore[attr-defined]
    state.men = {TABLES.anglesey, *(next(free) for _ in range(men - 1))}  # type: ignore[attr-defined]
    return state


def _with_village(state: rules.State, seat: int) -> rules.State:
    after = state.copy()
    space = next(s for s in TABLES.spaces if s not in after.pieces and s not in after.men)  # type: ignore[attr-defined]
    after.pieces[space] = (seat, "village")  # type: ignore[attr-defined]
    return after


def test_the_chances_are_shares_of_one_win() -> None:
    state = _position([12, 8, 8], {0: 1, 1: 3, 2: 3}, men=9, money=[0, 3, 5])
    chances = mordred_chances(state)
    assert sum(chances) == pytest.approx(1.0)
    assert all(0.0 < c < 1.0 for c in chances)
    assert [mordred(state, s) for s in range(3)] == chances


def test_one_piece_built_moves_the_chance_a_little_where_the_public_score_turns_first_to_last() -> None:
    """Seat 0 leads the track by four steps with few points; Mordred's men
    outnumber the pieces by one. A village of seat 0's ties them: the public
    score then reads the points alone and seat 0 goes from first to last,
    as a cut playout's 0-or-1 lead did; its chance here moves by a little."""
    before = _position([12, 8, 8], {0: 1, 1: 3, 2: 3}, men=8, money=[0, 0, 0])
    after = _with_village(before, 0)
    public = HEURISTICS[GAME]
    assert public(before.view(None), 0) > 0 > public(after.view(None), 0)
    assert abs(mordred(after, 0) - mordred(before, 0)) < 0.15
    assert mordred(before, 0) > mordred(before, 1)


def test_the_track_counts_more_as_mordreds_men_outnumber_the_pieces() -> None:
    few = _position([12, 8, 8], {0: 1, 1: 3, 2: 3}, men=4, money=[0, 0, 0])
    many = _position([12, 8, 8], {0: 1, 1: 3, 2: 3}, men=14, money=[0, 0, 0])
    assert mordred(few, 0) < 0.5 < mordred(many, 0)
    assert mordred(few, 1) > mordred(many, 1)


def test_a_step_on_the_track_and_a_point_more_each_raise_a_seats_chance() -> None:
    state = _position([10, 10, 10], {0: 2, 1: 2, 2: 2}, men=7, money=[0, 0, 0])
    ahead = _position([11, 10, 10], {0: 2, 1: 2, 2: 2}, men=7, money=[0, 0, 0])
    assert mordred(ahead, 0) > mordred(state, 0)
    assert mordred(_with_village(state, 0), 0) > mordred(_with_village(state, 1), 0)


def test_level_men_and_pieces_read_as_the_players_likelier_to_hold_wales() -> None:
    """The players build on to the end: with Mordred's men and their pieces
    level, the points weigh more than the track (the track counted for half
    and hard kept its pawn ahead where normal built and won on points)."""
    state = _position([14, 8, 8], {0: 0, 1: 6, 2: 0}, men=6, money=[0, 0, 0])
    assert len(state.men) == len(state.pieces)  # type: ignore[attr-defined]
    # seat 0 far ahead on the track, seat 1 on the points: the points' leader is the favourite
    assert mordred(state, 1) > mordred(state, 0) > mordred(state, 2)
