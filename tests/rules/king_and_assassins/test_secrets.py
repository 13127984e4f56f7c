"""The identities of unrevealed assassins never reach the public or the King player:
not in views, not in events they see, not in the King player's legal moves or refusals."""

from __future__ import annotations

import json
import random

import pytest

from rules.core import IllegalMove, Move
from rules.king_and_assassins.moves import Arrest, Eliminate, Step
from rules.king_and_assassins.pieces import CITIZEN_NAMES, KNIGHT_NAMES
from rules.king_and_assassins.state import KAState

from .helpers import GAME, legal, scenario

SEATS_WITHOUT_SECRETS = (None, 0)


def _code(state: KAState, move: Move) -> str | None:
    try:
        state.check(move)
    except IllegalMove as exc:
        return exc.code
    return None


def _king_probes() -> list[Move]:
    probes: list[Move] = []
    for k in KNIGHT_NAMES:
        probes += [Step(k, d) for d in "NESW"]
        probes += [Arrest(k, c) for c in CITIZEN_NAMES] + [Eliminate(k, c) for c in CITIZEN_NAMES]
    return probes


PROBES = _king_probes()


def _public_events(events: list) -> str:
    return json.dumps([e.to_json() for e in events if e.visible_to(0)], sort_keys=True)


def _assert_nothing_shown(state: KAState, events: list) -> None:
    hidden = [c for c in state.assassins if c not in state.revealed]
    for seat in SEATS_WITHOUT_SECRETS:
        view = state.view(seat)
        assert "assassins" not in view and "assassins_left" not in view
        for c in hidden:
            assert view["pieces"].get(c, {}).get("kind") in (None, "citizen")
            assert c not in view["arrested_assassins"]
    for e in events:
        if e.type in ("your_assassins", "arrested_assassin") and not e.params.get("last"):
            assert e.audience == (1,)


@pytest.mark.parametrize("side", ["A", "B"])
def test_random_playouts_never_leak_an_unrevealed_assassin(side: str) -> None:
    for seed in range(40):
        rng = random.Random(seed)
        s = GAME.new_game(2, seed, {"side": side})
        assert isinstance(s, KAState)
        n = 0
        while s.to_move() is not None:
            move = s.sample_chance() if s.is_chance() else rng.choice(s.legal_moves())
            twin = s.perturb_secrets(1, rng)
            if twin is not None:
                assert isinstance(twin, KAState) and twin.assassins != s.assassins
                for seat in SEATS_WITHOUT_SECRETS:
                    assert twin.view(seat) == s.view(seat)
                if s.to_move() == 0:
                    assert twin.legal_moves() == s.legal_moves()
                    if n % 5 == 0:
                        assert [_code(twin, p) for p in PROBES] == [_code(s, p) for p in PROBES]
            events = s.apply(move)
            _assert_nothing_shown(s, events)
            if twin is not None and move in twin.legal_moves():
                twin_events = twin.apply(move)
                if not (twin.to_move() is None) ^ (s.to_move() is None):
                    assert _public_events(twin_events) == _public_events(events)
            n += 1


def test_arrest_of_a_hidden_assassin_looks_like_any_arrest() -> None:
    pieces = {"king": "J10", "knight1": "D4", "citizen1": "E4", "citizen4": "C4"}
    guilty = scenario(pieces, assassins=("citizen1", "citizen2", "citizen3"))
    innocent = scenario(pieces, assassins=("citizen4", "citizen2", "citizen3"))
    e1 = legal(guilty, Arrest("knight1", "citizen1"))
    e2 = legal(innocent, Arrest("knight1", "citizen1"))
    assert _public_events(e1) == _public_events(e2)
    assert guilty.view(0) == innocent.view(0) and guilty.view(None) == innocent.view(None)
    assert guilty.view(1)["assassins_left"] == 2 and innocent.view(1)["assassins_left"] == 3


def test_king_player_refusals_do_not_depend_on_identities() -> None:
    pieces = {"king": "J10", "knight1": "D4", "citizen1": "E4", "citizen4": "C4", "citizen5": "D5"}
    a = scenario(pieces, assassins=("citizen1", "citizen2", "citizen3"), card=2)
    b = scenario(pieces, assassins=("citizen4", "citizen5", "citizen3"), card=2)
    assert [_code(a, p) for p in PROBES] == [_code(b, p) for p in PROBES]
