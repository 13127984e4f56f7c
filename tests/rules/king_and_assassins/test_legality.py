"""The listed moves are exactly the moves the rules' check accepts.

``_legal_moves`` decides steps on a fast path of its own (the computer's
search lists moves millions of times); ``_problem`` is what refuses a move.
In positions of seeded random games, on both sides of the board, every
well-formed move of every kind is put to ``_problem``: the ones it accepts,
in the candidates' order, must be the list."""

from __future__ import annotations

import random

import pytest

import rules
from rules.core import CHANCE
from rules.king_and_assassins import moves as mv
from rules.king_and_assassins.data import DIRS
from rules.king_and_assassins.pieces import CITIZEN_NAMES, KING, KNIGHT_NAMES


def _every_move(state) -> list:
    """Every move of the turn's kinds, over every piece, direction and target, in the
    candidates' order (End; then each piece's steps and its actions)."""
    out: list = [mv.End()]
    if state.phase == "king":
        out += [mv.Step(KING, d) for d in DIRS]
        for k in KNIGHT_NAMES:
            out += [mv.Step(k, d) for d in DIRS]
            for d in DIRS:
                target = state.at.get(state.board.steps[state.pos[k]][d]) if k in state.pos else None
                if target in CITIZEN_NAMES:
                    out += [mv.Arrest(k, target), mv.Eliminate(k, target)]
    else:
        for c in CITIZEN_NAMES:
            out.append(mv.Reveal(c))
            out += [mv.Step(c, d) for d in DIRS]
            out.append(mv.Attack(c))
            for d in DIRS:
                target = state.at.get(state.board.steps[state.pos[c]][d]) if c in state.pos else None
                if target in KNIGHT_NAMES:
                    out.append(mv.Eliminate(c, target))
    return [m for m in out if state._problem(m) is None]


@pytest.mark.parametrize("side", ["A", "B"])
def test_the_listed_moves_are_the_moves_the_check_accepts(side):
    game = rules.get("king-and-assassins")
    checked = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = game.new_game(2, seed, {"side": side})
        while (seat := state.to_move()) is not None:
            if seat == CHANCE:
                state.apply(state.sample_chance())
                continue
            listed = state.legal_moves()
            if state.phase in ("king", "assassin"):
                assert listed == _every_move(state), (seed, len(state.history))
                checked += 1
            state.apply(rng.choice(listed))
    assert checked > 500
