"""Whole games with computer players in every seat kind, and the budget's rules."""

from __future__ import annotations

import pytest

import rules
from players import Budget, Greedy, Ismcts, RandomPlayer
from players.base import rewards

SMALL = Budget(iterations=15, seconds=None)


@pytest.mark.parametrize("game_id", list(rules.GAMES))
def test_every_kind_of_player_finishes_a_game(game_id: str) -> None:
    game = rules.get(game_id)
    players = max(game.player_counts)
    state = game.new_game(players, seed=2)
    seats = [Ismcts(SMALL, seed=1), Greedy(seed=1), *(RandomPlayer(seed=s) for s in range(players - 2))]
    while (seat := state.to_move()) is not None:
        move = state.sample_chance() if seat == rules.CHANCE else seats[seat].choose(state, seat)
        state.apply(move)  # the checked apply: a computer's move is legal
    outcome = state.outcome()
    assert outcome is not None and outcome.winners


def test_a_computer_refuses_to_move_for_another_seat() -> None:
    state = rules.get("mordred").new_game(3, seed=1)
    while state.is_chance():
        state.apply(state.sample_chance())
    wrong = (state.to_move() + 1) % 3
    with pytest.raises(ValueError, match=f"seat {wrong} is not the seat to move"):
        Ismcts(SMALL).choose(state, wrong)


def test_same_seed_same_move_and_the_iterations_are_counted() -> None:
    state = rules.get("artus").new_game(3, seed=4)
    while state.is_chance():
        state.apply(state.sample_chance())
    seat = state.to_move()
    bot = Ismcts(Budget(iterations=30, seconds=None), seed=9)
    assert bot.choose(state, seat) == Ismcts(Budget(iterations=30, seconds=None), seed=9).choose(state, seat)
    assert bot.last.iterations == 30


@pytest.mark.parametrize(("iterations", "seconds"), [(0, None), (10, 0.0), (10, -1.0)])
def test_a_budget_must_allow_some_thinking(iterations: int, seconds: float | None) -> None:
    with pytest.raises(ValueError, match="budget"):
        Budget(iterations=iterations, seconds=seconds)


def test_rewards_share_a_win_between_tied_winners() -> None:
    outcome = rules.core.Outcome(winners=[0, 2], scores={}, reason="tie")
    assert rewards(outcome, 3) == [0.5, 0.0, 0.5]


def test_with_fewer_iterations_than_moves_it_plays_the_best_looking_move() -> None:
    """With more moves than iterations every tried move had one visit, and the
    first listed was played: Artus lost every game to the one-move greedy
    player. The search now starts from the one-move look-ahead (the public
    score after each move), so at a tiny budget it plays a move scoring best."""
    from players.simple import HEURISTICS

    game = rules.get("artus")
    checked = 0
    for seed in range(40):
        state = game.new_game(2, seed, {"mode": "beginner"})
        rng = __import__("random").Random(seed)
        while (seat := state.to_move()) is not None and checked < 6:
            if seat == rules.CHANCE:
                state.apply(state.sample_chance())
                continue
            legal = state.legal_moves()
            scores = []
            for move in legal:
                after = state.copy()
                after.apply(move)
                scores.append(HEURISTICS["artus"](after.view(None), seat))
            if len(legal) > 10 and scores.count(max(scores)) == 1 and len(set(scores)) > 2:
                chosen = Ismcts(Budget(iterations=3, seconds=None), seed=seed).choose(state, seat)
                assert scores[legal.index(chosen)] == max(scores), (seed, chosen)
                checked += 1
            state.apply(rng.choice(legal))
        if checked >= 6:
            break
    assert checked == 6


def test_a_move_that_cannot_be_hashed_is_found_by_its_json() -> None:
    from dataclasses import dataclass

    from players.ismcts import _child, _key, _Node

    @dataclass
    class Listed:  # unhashable: a dataclass with eq and without frozen
        cells: list[int]

        def to_json(self) -> dict:
            return {"cells": self.cells}

    move, node = Listed([1, 2]), _Node(0, 2)
    children = {_key(move): node}
    assert _child(children, Listed([1, 2])) == (repr({"cells": [1, 2]}), node)
    assert _child(children, Listed([2, 1]))[1] is None


def test_a_cut_playout_is_won_by_the_seats_ahead_on_the_public_position() -> None:
    """With a horizon of no moves a playout is scored where it starts: the
    seat the public position puts ahead (players.simple.HEURISTICS) wins it,
    tied seats share it, and a game already over counts as it ended."""
    from random import Random

    from players.ismcts import _playout
    from players.simple import HEURISTICS

    state = rules.get("artus").new_game(3, seed=4)
    while state.is_chance():
        state.apply(state.sample_chance())
    values = _playout(state.copy(), Random(1), 0)
    margins = [HEURISTICS["artus"](state.view(None), s) for s in range(3)]
    leaders = [s for s, m in enumerate(margins) if m == max(margins)]
    assert values == [1 / len(leaders) if s in leaders else 0.0 for s in range(3)]
    finished = state.copy()
    rng = Random(2)
    while (mover := finished.to_move()) is not None:
        legal = finished.legal_moves()
        finished.apply(finished.sample_chance() if mover == rules.CHANCE else rng.choice(legal))
    outcome = finished.outcome()
    assert outcome is not None
    assert _playout(finished, Random(1), 0) == rewards(outcome, 3)


def test_a_cut_playout_stops_after_its_moves() -> None:
    from random import Random

    from players.ismcts import _playout

    state = rules.get("artus").new_game(2, seed=1)
    world = state.copy()
    _playout(world, Random(3), 5)
    assert len(world.history) == len(state.history) + 5 and world.to_move() is not None


def test_the_search_cuts_the_playouts_of_the_games_named_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """A search of Artus, Mordred, King & Assassins or Siege (in HORIZONS)
    cuts its playouts; The King is Dead's play to the end."""
    from players import ismcts

    assert "artus" in ismcts.HORIZONS and "king-is-dead" not in ismcts.HORIZONS
    cut: list[int] = []
    real = ismcts._playout

    def counting(world: rules.State, rng: object, horizon: int | None = None,
                 policy: object = None, chances: object = None, stop: object = None) -> list[float]:
        if horizon is not None:
            cut.append(horizon)
        return real(world, rng, horizon, policy, chances, stop)  # type: ignore[arg-type]

    monkeypatch.setattr(ismcts, "_playout", counting)
    for game_id, players in (("siege", 2), ("artus", 2), ("mordred", 3), ("king-and-assassins", 2),
                             ("king-is-dead", 2)):
        cut.clear()
        state = rules.get(game_id).new_game(players, seed=1)
        while state.is_chance():
            state.apply(state.sample_chance())
        Ismcts(SMALL, seed=1).choose(state, state.to_move())
        named = game_id in ismcts.HORIZONS
        assert cut == ([ismcts.HORIZONS[game_id]] * SMALL.iterations if named else [])


def test_a_negative_horizon_is_refused() -> None:
    with pytest.raises(ValueError, match="horizon is 0 or more moves"):
        Ismcts(SMALL, horizons={"artus": -1})


def test_mordreds_heuristic_reads_the_track_while_mordred_holds_wales() -> None:
    """Under random play Mordred holds Wales at the end of nearly every game,
    and then the pawn furthest right wins: victory points alone (the old
    heuristic) ranked a seat ahead that was losing."""
    from players.simple import HEURISTICS

    score = HEURISTICS["mordred"]
    players = [{"seat": 0, "pawn": 12, "vp": 9}, {"seat": 1, "pawn": 16, "vp": 2}]
    mordred_ahead = {"players": players, "mordred_men": ["Anglesey", "Gwynedd"], "pieces": {"Powys": {}}}
    assert score(mordred_ahead, 1) > 0 > score(mordred_ahead, 0)
    arthur_ahead = {**mordred_ahead, "mordred_men": ["Anglesey"], "pieces": {"Powys": {}, "Dyfed": {}}}
    assert score(arthur_ahead, 0) > 0 > score(arthur_ahead, 1)
