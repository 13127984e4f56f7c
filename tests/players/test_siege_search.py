"""Siege's engine made faster for the search still lists the same moves in
the same order and draws the same chance outcomes with the same weights, so
a fixed-seed search chooses the same moves as before (pinned below from the
engine before those changes)."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

import rules
from players import Budget, Ismcts
from players.base import chance_move
from players.evaluation import MEASURES
from rules.core import CHANCE, State

GAME = rules.get("siege")

#: the moves a search of 40 iterations, seed i, chose in position i (below)
CHOSEN = [
    {"type": "play", "card": "traitor", "target": "catapult-1", "at": 0},
    {"type": "attack", "unit": "catapult-1"},
    {"type": "attack", "unit": "archer-27", "melee": True},
    {"type": "target", "target": "castle_walls-9"},
    {"type": "play", "card": "knight", "at": 0},
    {"type": "end_phase"},
]

#: every menu and chance draw (weights too) of the playouts below, digested
PLAYOUTS_DIGEST = "59e1d753e83827aa272a5e440cd7c5d7"


def _positions(count: int) -> list[State]:
    """Positions where a seat has a choice, from seeded random games."""
    out: list[State] = []
    seed = 0
    while len(out) < count:
        rng = random.Random(seed)
        state = GAME.new_game(2, seed)
        plies = 0
        while (seat := state.to_move()) is not None and len(out) < count:
            if seat == CHANCE:
                state.apply(state.sample_chance())
                continue
            moves = state.legal_moves()
            if len(moves) > 1 and plies % 25 == 7:
                out.append(state.copy())
            plies += 1
            state.apply(rng.choice(moves))
        seed += 1
    return out


def test_a_fixed_seed_search_chooses_the_same_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    # The search as it was when these were pinned: whole playouts, the
    # root ranked by the public score (not Siege's measure of today).
    monkeypatch.delitem(MEASURES, "siege", raising=False)
    chosen = []
    for i, state in enumerate(_positions(len(CHOSEN))):
        seat = state.to_move()
        assert seat is not None
        search = Ismcts(Budget(iterations=40, seconds=None), seed=i, horizons={})
        chosen.append(search.choose(state, seat).to_json())
    assert chosen == CHOSEN


def test_playouts_list_the_same_menus_and_draws() -> None:
    """Playouts as the search plays them (``play_listed`` on a world dealt
    from the seat's view), every menu and every chance step's outcomes and
    weights written down in order."""
    digest = hashlib.blake2b(digest_size=16)
    rng = random.Random(7)
    for state in _positions(4):
        seat = state.to_move()
        assert seat is not None
        for _ in range(5):
            world = state.sample_unseen(seat, rng)
            while (mover := world.to_move()) is not None:
                if mover == CHANCE:
                    step = [[m.to_json(), w] for m, w in world.chance_outcomes()]
                    move = chance_move(world, rng)
                else:
                    menu = world.legal_moves()
                    step = [m.to_json() for m in menu]
                    move = rng.choice(menu)
                digest.update(json.dumps([mover, step, move.to_json()]).encode())
                world.play_listed(move)
            digest.update(json.dumps(world.view(None), sort_keys=True).encode())
    assert digest.hexdigest() == PLAYOUTS_DIGEST
