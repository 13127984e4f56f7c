"""Artus: the hard level's reading of a position (players.artus_measure),
each seat's prestige plus what its cards still to play promise."""

from __future__ import annotations

import random

import pytest

import rules
from players.artus_measure import artus, artus_chances, worths
from players.evaluation import FINE
from players.levels import LEVELS, style
from rules.artus import board

GAME = "artus"


def _midgame(players: int, seed: int, rounds: int = 4) -> rules.State:
    """An advanced game played at random up to round ``rounds``, a seat to play."""
    state = rules.get(GAME).new_game(players, seed, {"mode": "advanced"})
    rng = random.Random(seed)
    while state.round < rounds or state.to_move() == rules.CHANCE:  # type: ignore[attr-defined]
        seat = state.to_move()
        assert seat is not None, "the game ended before the position wanted"
        state.apply(state.sample_chance() if seat == rules.CHANCE else rng.choice(state.legal_moves()))
    return state


def test_hard_alone_reads_artus_so() -> None:
    assert FINE[GAME] == (artus, artus_chances)
    assert style(LEVELS["hard"])["chances"][GAME] is artus_chances
    for name in ("easy", "normal"):
        assert GAME not in style(LEVELS[name])["chances"]


def test_the_reading_reads_only_what_the_public_sees() -> None:
    """Worlds dealt from any seat's view differ in the other seats' hands
    (which of their cards still to play are in the hand) and read alike."""
    state = _midgame(3, seed=5)
    for seat in range(3):
        rng = random.Random(seat)
        worlds = [state.sample_unseen(seat, rng) for _ in range(8)]
        other = (seat + 1) % 3
        assert len({tuple(w.hands[other]) for w in worlds}) > 1  # type: ignore[attr-defined]
        assert len({tuple(artus_chances(w)) for w in worlds}) == 1


def test_the_chances_are_shares_of_one_win() -> None:
    state = _midgame(4, seed=2)
    chances = artus_chances(state)
    assert sum(chances) == pytest.approx(1.0)
    assert all(0.0 < c < 1.0 for c in chances)
    assert [artus(state, s) for s in range(4)] == chances


def _table(seats: dict[int, str]) -> rules.State:
    """Two players' table with the King on his start and Knights on ``seats``,
    every card still to play."""
    state = rules.get(GAME).new_game(2, 1, {"mode": "advanced"})
    for s, figure in seats.items():
        state.seats[s] = figure  # type: ignore[attr-defined]
    return state


def _seats_of(value: int, count: int) -> list[int]:
    """``count`` empty seats off the carpet whose plate is worth ``value`` with the King on his start."""
    king = rules.get(GAME).new_game(2, 1, {"mode": "advanced"}).king  # type: ignore[attr-defined]
    from rules.artus.data import DATA

    found = [s for s in range(DATA.seats) if board.value(king, s) == value
             and s not in DATA.carpet and s not in DATA.start_princes]
    return found[:count]


def test_a_penalty_the_knights_cannot_meet_counts_before_its_card_is_played() -> None:
    """Equal prestige; seat 0 has three Knights on red seats (the three-red
    card met, at a few points), seat 1 none (50 points lost when it is played)."""
    reds = [s for v in (-6, -7, -8) for s in _seats_of(v, 1)]
    greens = [s for v in (4, 5, 6) for s in _seats_of(v, 1)]
    assert len(reds) == len(greens) == 3
    state = _table({**{s: "k0" for s in reds}, **{s: "k1" for s in greens}})
    assert state.scores == [0, 0]  # type: ignore[attr-defined]
    w = worths(state)
    assert w[0] > w[1]
    assert artus(state, 0) > 0.5 > artus(state, 1)


def test_a_knight_on_a_better_seat_promises_more_when_all_is_scored() -> None:
    low, high = _seats_of(1, 1)[0], _seats_of(7, 1)[0]
    assert worths(_table({high: "k0"}))[0] > worths(_table({low: "k0"}))[0]
