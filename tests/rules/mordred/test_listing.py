"""The listed moves are exactly the moves the rules' check accepts.

``_legal_moves`` decides builds and placements on a fast path of its own (the
computer's search lists moves millions of times); ``_verdict`` is what
refuses a move. In positions of seeded random games at 3 and 4 players,
every build and placement on every space is put to ``_verdict``: the ones it
accepts, in the candidates' order, must be the list."""

from __future__ import annotations

import random

import pytest

from rules.core import CHANCE
from rules.mordred.moves import Build, Place
from rules.mordred.tables import BUILDINGS, TABLES

from .helpers import fresh


def _every(state, kind) -> list:
    if kind is Place:
        out = [Place(s) for s in TABLES.spaces]
    else:
        out = [Build(b, s) for s in TABLES.spaces for b in BUILDINGS]
    return [m for m in out if state._verdict(m) is None]


@pytest.mark.parametrize("players", [3, 4])
def test_the_listed_builds_and_places_are_the_moves_the_check_accepts(players):
    checked = {Place: 0, Build: 0}
    for seed in range(6):
        rng = random.Random(seed)
        state = fresh(players, seed)
        while (seat := state.to_move()) is not None:
            if seat == CHANCE:
                state.apply(state.sample_chance())
                continue
            listed = state.legal_moves()
            if state.phase in ("place", "spend"):
                kind = Place if state.phase == "place" else Build
                assert [m for m in listed if isinstance(m, kind)] == _every(state, kind), seed
                checked[kind] += 1
            state.apply(rng.choice(listed))
    assert min(checked.values()) > 100, checked
