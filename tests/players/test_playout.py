"""King & Assassins: the king's way out as the search and the greedy player
judge it, and the playouts that walk him there."""

from __future__ import annotations

import random

import pytest

import rules
from players import playout
from players.playout import POLICIES, king_steps_out
from players.simple import HEURISTICS
from rules.king_and_assassins import moves as mv


def _steps_out(state: rules.State) -> int:
    return king_steps_out(state.side, state.board.name(state.pos["king"]))  # type: ignore[attr-defined]


def _nearer(state: rules.State) -> list[mv.Step]:
    """The King player's legal steps of the king one step nearer a gate."""
    out = []
    for move in state.legal_moves():
        if isinstance(move, mv.Step) and move.piece == "king":
            after = state.copy()
            after.play_listed(move)
            if after.outcome() is not None or _steps_out(after) == _steps_out(state) - 1:
                out.append(move)
    return out


def _kings_turn(side: str) -> rules.State:
    """A game of side ``side`` played at random up to a King player's move
    where a step takes the king nearer a gate."""
    state = rules.get("king-and-assassins").new_game(2, seed=3, options={"side": side})
    rng = random.Random(3)
    while state.to_move() != 0 or state.phase != "king" or not _nearer(state):  # type: ignore[attr-defined]
        seat = state.to_move()
        assert seat is not None, "the game ended without such a move"
        state.apply(state.sample_chance() if seat == rules.CHANCE else rng.choice(state.legal_moves()))
    return state


def test_the_kings_distance_is_walked_around_the_roofs() -> None:
    """On side A the king starts at J10: 14 steps out (west along row 10 to
    C10, north to C5, west to B5 and through its gate), where the crow flies
    13 to B5; the heuristic counted the crow's 13 and so ranked steps into
    dead ends among the roofs as steps nearer."""
    assert king_steps_out("A", "J10") == 14
    assert king_steps_out("A", "B5") == 1  # a gate: one step through it
    state = rules.get("king-and-assassins").new_game(2, seed=1, options={"side": "A"})
    view = state.view(None)
    assert view["pieces"]["king"]["cell"] == "J10"
    assert HEURISTICS["king-and-assassins"](view, 0) == -0.5 * 14
    assert HEURISTICS["king-and-assassins"](view, 1) == 0.5 * 14


@pytest.mark.parametrize("side", ["A", "B"])
def test_a_king_players_playout_move_walks_the_king_nearer(side: str,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(playout, "KING_WALK", 1.0)
    state = _kings_turn(side)
    legal = state.legal_moves()
    assert len(legal) > len(_nearer(state))
    rng = random.Random(1)
    picked = {POLICIES["king-and-assassins"](state, legal, rng) for _ in range(20)}
    assert picked <= set(_nearer(state))


def test_the_assassins_playout_moves_stay_random() -> None:
    state = _kings_turn("A")
    state.apply(mv.End())
    assert state.to_move() == 1
    legal = state.legal_moves()
    rng = random.Random(2)
    picked = {POLICIES["king-and-assassins"](state, legal, rng) for _ in range(200)}
    assert len(picked) > len(legal) // 2


def _assassins_turn(side: str, seed: int) -> rules.State:
    """A game of side ``side`` played at random to an Assassin player's turn
    with a hidden assassin beside the king and the points to attack him."""
    rng = random.Random(seed)
    for game in range(200):
        state = rules.get("king-and-assassins").new_game(2, seed=game, options={"side": side})
        while (seat := state.to_move()) is not None:
            if seat == 1 and state.phase == "assassin" and state.ap["assassins"] >= 2:  # type: ignore[attr-defined]
                king = state.pos["king"]  # type: ignore[attr-defined]
                near = state.board.steps[king].values()  # type: ignore[attr-defined]
                if any(state.pos.get(c) in near and c not in state.revealed  # type: ignore[attr-defined]
                       for c in state.assassins):  # type: ignore[attr-defined]
                    return state
            state.apply(state.sample_chance() if seat == rules.CHANCE else rng.choice(state.legal_moves()))
    raise AssertionError("no such position in 200 random games")


def test_the_hard_levels_assassins_show_one_beside_the_king_and_attack() -> None:
    """In the hard level's playouts (players.playout.FINE) the Assassin
    player does what random play all but never does: an assassin beside the
    king is shown and attacks, where the default playout picks at random."""
    both = playout.FINE["king-and-assassins"].policy
    assert both is not None
    state = _assassins_turn("A", 5)
    rng = random.Random(4)
    shown = both(state, state.legal_moves(), rng)
    assert isinstance(shown, mv.Reveal)
    assert state.pos[shown.piece] in state.board.steps[state.pos["king"]].values()  # type: ignore[attr-defined]
    state.apply(shown)
    attack = both(state, state.legal_moves(), rng)
    assert attack == mv.Attack(shown.piece)
    picked = {POLICIES["king-and-assassins"](state, state.legal_moves(), rng) for _ in range(50)}
    assert len(picked) > 1


def test_the_hard_levels_assassins_show_none_for_nothing() -> None:
    both = playout.FINE["king-and-assassins"].policy
    assert both is not None
    state = _kings_turn("A")
    state.apply(mv.End())
    legal = state.legal_moves()
    assert any(isinstance(m, mv.Reveal) for m in legal)
    rng = random.Random(2)
    picked = [both(state, legal, rng) for _ in range(200)]
    assert not any(isinstance(m, mv.Reveal) for m in picked)


def test_a_cut_playout_of_the_king_is_dead_is_scored_at_a_turns_start() -> None:
    """The hard level's playouts of The King is Dead (players.playout.FINE)
    play on at random to the start of a turn, where a card played has placed
    and summoned its followers, and are scored there; cut mid-turn, the
    reading counted the card as lost and not what it won. The playout does
    not stop before its horizon, nor wait for a turn's start without a stop."""
    from players.ismcts import _playout

    fine = playout.FINE["king-is-dead"]
    assert fine.policy is None and fine.horizon == 0 and fine.stop is not None
    rng = random.Random(1)
    state = rules.get("king-is-dead").new_game(2, seed=4, options={"mordred": False})
    mid_turn = 0
    scored: list[str] = []

    def chances(world: rules.State) -> list[float]:
        scored.append(world.step)  # type: ignore[attr-defined]
        return [0.5, 0.5]

    for _ in range(300):
        seat = state.to_move()
        if seat is None:
            break
        if seat != rules.CHANCE and not fine.stop(state):
            mid_turn += 1
            scored.clear()
            world = state.copy()
            played = len(world.history)
            _playout(world, random.Random(mid_turn), fine.horizon, None, chances, fine.stop)
            assert scored == ["turn"] or world.outcome() is not None
            assert len(world.history) > played
            at_once = state.copy()
            scored.clear()
            _playout(at_once, random.Random(mid_turn), 0, None, chances)
            assert len(at_once.history) == len(state.history) and scored == [state.step]  # type: ignore[attr-defined]
        state.apply(state.sample_chance() if seat == rules.CHANCE else rng.choice(state.legal_moves()))
    assert mid_turn > 10
