"""The computer player decides from its seat's view alone.

In positions of seeded random games of every game, player count and option,
the other seats' secrets are dealt afresh (``State.perturb_secrets``, as the
conformance suite does): the seat's view stays the same, and so must the
move the computer chooses with the same seed. A player that peeks at the
true state is caught by the same positions (the last test), so the check can
fail.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import rules
from players import LEVELS, Budget, Ismcts
from players.levels import player
from rules.core import State

BUDGET = Budget(iterations=40, seconds=None)
POSITIONS = 4  # per game, player count and option combination


def _cases() -> list[tuple[str, int, dict]]:
    return [(gid, n, opts) for gid, game in rules.GAMES.items() for n, opts in game.setups()]


def _perturbed(state: State, seat: int, rng: random.Random) -> State | None:
    """The state with every other seat's secrets dealt afresh, or None when
    no other seat holds a secret now."""
    other: State | None = None
    for owner in range(state.players):
        if owner == seat:
            continue
        dealt = (other or state).perturb_secrets(owner, rng)
        other = dealt or other
    return other


def positions(game_id: str, players: int, options: dict, seed: int) -> Iterator[tuple[State, int]]:
    """Positions spread over a random game where a player (not chance) moves."""
    game = rules.get(game_id)
    rng = random.Random(seed)
    state = game.new_game(players, seed, options)
    picked = 0
    ply = 0
    while state.to_move() is not None and picked < POSITIONS:
        seat = state.to_move()
        if seat == rules.CHANCE:
            state.apply(state.sample_chance())
            continue
        ply += 1
        if ply % 9 == 3 and len(state.legal_moves()) > 1:
            picked += 1
            yield state.copy(), seat
        state.apply(rng.choice(state.legal_moves()))


class Peeking(Ismcts):
    """Searches the true state: the cheat the test must catch."""

    def _world(self, state: State, seat: int, rng: random.Random) -> State:
        return state._unseen_copy()


@pytest.mark.parametrize("level", list(LEVELS))
@pytest.mark.parametrize(("game_id", "players", "options"), _cases(), ids=repr)
def test_same_view_same_move(game_id: str, players: int, options: dict, level: str) -> None:
    rng = random.Random(5)
    checked = 0
    for state, seat in positions(game_id, players, options, seed=11):
        other = _perturbed(state, seat, rng) or state.copy()
        assert other.view(seat) == state.view(seat)
        first = player(LEVELS[level], BUDGET, seed=3).choose(state, seat)
        again = player(LEVELS[level], BUDGET, seed=3).choose(other, seat)
        assert first == again, f"{game_id} seat {seat}: {first} with the true secrets, {again} with others"
        checked += 1
    assert checked == POSITIONS


@pytest.mark.parametrize("game_id", [g for g in rules.GAMES if not rules.get(g).perfect_information])
def test_a_peeking_player_is_caught(game_id: str) -> None:
    """The same check against a player that searches the true state fails in
    some position: the positions do hold secrets that would change the move."""
    game = rules.get(game_id)
    rng = random.Random(5)
    for seed in range(30):
        for state, seat in positions(game_id, game.player_counts[0], {}, seed):
            other = _perturbed(state, seat, rng)
            if other is None:
                continue
            if Peeking(BUDGET, seed=3).choose(state, seat) != Peeking(BUDGET, seed=3).choose(other, seat):
                return
    pytest.fail(f"{game_id}: no position tells a peeking player from an honest one")
