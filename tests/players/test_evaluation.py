"""King & Assassins: the search's own measure of a position
(players.evaluation), and the King player's turns it gives at a Pi 4's budget."""

from __future__ import annotations

import random

import pytest

import rules
from players import Budget, Ismcts, RandomPlayer
from players.evaluation import MEASURES, king_and_assassins
from players.simple import HEURISTICS
from rules.king_and_assassins import moves as mv

GAME = "king-and-assassins"


def _kings_first_turn(side: str, seed: int) -> rules.State:
    """A game of ``side`` up to the King player's first turn (side B starts the
    king on B10), the Assassin player's pick drawn from ``seed``."""
    state = rules.get(GAME).new_game(2, seed=seed, options={"side": side})
    rng = random.Random(seed)
    while state.to_move() != 0 or state.phase != "king":  # type: ignore[attr-defined]
        seat = state.to_move()
        if seat == rules.CHANCE:
            state.apply(state.sample_chance())
        elif state.phase == "start":  # type: ignore[attr-defined]
            state.apply(mv.Start("B10"))
        else:
            state.apply(rng.choice(state.legal_moves()))
    return state


def _after(state: rules.State, *moves: rules.Move) -> rules.State:
    after = state.copy()
    for move in moves:
        after.apply(move)
    return after


def test_the_search_measures_king_and_assassins_by_its_own_measure() -> None:
    assert MEASURES[GAME] is king_and_assassins


def test_a_knight_in_the_kings_way_and_the_turns_end_cost_where_the_public_score_sees_nothing() -> None:
    """Side A: the king on J10 is boxed in by his knights. The public score
    (players.simple.HEURISTICS) ranks every knight's step and the turn's end
    alike; the measure ranks a knight stepping into the king's way (H9 to
    H10) below the others, and the turn's end, which loses the king's
    point, below them too."""
    state = _kings_first_turn("A", seed=1)
    board = state.board  # type: ignore[attr-defined]
    assert board.name(state.pos["king"]) == "J10"  # type: ignore[attr-defined]
    assert board.name(state.pos["knight4"]) == "H9"  # type: ignore[attr-defined]
    into_the_way = _after(state, mv.Step("knight4", "S"))
    elsewhere = _after(state, mv.Step("knight1", "E"))
    ended = _after(state, mv.End())
    public = HEURISTICS[GAME]
    assert len({public(s.view(None), 0) for s in (state, into_the_way, elsewhere, ended)}) == 1
    here = king_and_assassins(state, 0)
    assert here == king_and_assassins(elsewhere, 0) > king_and_assassins(into_the_way, 0)
    assert here > king_and_assassins(ended, 0)


def test_the_king_walking_beside_a_revealed_assassin_is_worse_than_beside_a_citizen() -> None:
    state = _after(_kings_first_turn("A", seed=1), mv.Step("knight6", "N"))  # J9 free
    citizen = next(c for c in state.pos if c.startswith("citizen"))  # type: ignore[attr-defined]
    near = state.copy()
    board = near.board  # type: ignore[attr-defined]
    king = near.pos["king"]  # type: ignore[attr-defined]
    free = next(c for c in board.steps[king].values() if c >= 0 and c not in near.at)  # type: ignore[attr-defined]
    near._put(citizen, free)  # type: ignore[attr-defined]
    hidden = king_and_assassins(near, 0)
    shown = near.copy()
    shown.revealed.append(citizen)  # type: ignore[attr-defined]
    assert king_and_assassins(shown, 0) < hidden < king_and_assassins(state, 0)


def test_the_measure_reads_only_what_the_public_sees() -> None:
    """Two worlds that differ only in who the hidden assassins are measure
    alike for both seats: a world the King player's search deals guesses them."""
    state = _kings_first_turn("A", seed=2)
    rng = random.Random(5)
    worlds = [state.sample_unseen(0, rng) for _ in range(6)]
    assert len({tuple(w.assassins) for w in worlds}) > 1  # type: ignore[attr-defined]
    for seat in (0, 1):
        assert len({king_and_assassins(w, seat) for w in worlds}) == 1


def test_for_the_assassin_player_revealing_brings_no_assassin_nearer() -> None:
    """Revealing an assassin lets a knight eliminate him and brings him no
    nearer the king: the Assassin player's measure does not rise with it."""
    state = _kings_first_turn("A", seed=1)
    state.apply(mv.End())
    assert state.to_move() == 1
    for citizen in state.assassins:  # type: ignore[attr-defined]
        assert king_and_assassins(_after(state, mv.Reveal(citizen)), 1) <= king_and_assassins(state, 1)


@pytest.mark.parametrize(("side", "seed"), [("A", 1), ("A", 3), ("B", 2), ("B", 4)])
def test_at_a_pi_4s_budget_the_king_player_does_not_end_his_first_turn_at_once(side: str, seed: int) -> None:
    """A traced game at normal's Pi 4 budget (15 iterations) left the king
    on his start for all fifteen rounds: every move ranked alike and the
    turn's end, listed first, won the ties."""
    state = _kings_first_turn(side, seed)
    assert len(state.legal_moves()) > 1
    chosen = Ismcts(Budget(iterations=15, seconds=None), seed=seed).choose(state, 0)
    assert chosen != mv.End()


def test_a_search_of_king_and_assassins_plays_whole_games() -> None:
    state = rules.get(GAME).new_game(2, seed=7, options={"side": "B"})
    seats = [Ismcts(Budget(iterations=10, seconds=None), seed=1), RandomPlayer(seed=1)]
    while (seat := state.to_move()) is not None:
        state.apply(state.sample_chance() if seat == rules.CHANCE else seats[seat].choose(state, seat))
    assert state.outcome() is not None
