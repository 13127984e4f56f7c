"""The notation, the check/legal-moves invariant over a wide space of moves,
views that keep hands private, events the table can act on, replay."""

from __future__ import annotations

import itertools
import json
import random
import re
from pathlib import Path

import pytest

import rules.artus as artus_package
from rules import catalogue
from rules.artus import GAME
from rules.artus.data import DATA
from rules.artus.messages import MESSAGES
from rules.artus.moves import DOS, Draw, Place, Play, Reveal
from rules.core import IllegalMove, Move
from tests.rules.artus.helpers import of_type, playout

EXAMPLES = [
    ({"type": "card", "card": "knight-3-6"}, Reveal("knight-3-6")),
    ({"type": "draw", "pile": "king"}, Draw("king")),
    ({"type": "place", "seat": 12}, Place(12)),
    (
        {"type": "play", "card": "knight-1-5-both", "do": "move", "seat": 7, "steps": -3},
        Play("knight-1-5-both", "move", 7, -3),
    ),
    ({"type": "play", "card": "ring-both", "do": "ring", "seat": 21}, Play("ring-both", "ring", 21)),
    (
        {"type": "play", "card": "score-carpet", "do": "score", "knights": [11, 17]},
        Play("score-carpet", "score", knights=(17, 11)),
    ),
    ({"type": "play", "card": "score-all", "do": "score"}, Play("score-all", "score")),
    ({"type": "play", "card": "score-three-red", "do": "penalty"}, Play("score-three-red", "penalty")),
]


@pytest.mark.parametrize(("data", "move"), EXAMPLES)
def test_notation_round_trips(data: dict, move: Move) -> None:
    assert GAME.move_from_json(data) == move
    assert move.to_json() == data
    assert GAME.move_from_json(json.loads(json.dumps(move.to_json()))) == move


@pytest.mark.parametrize(
    "bad",
    [
        None,
        {"type": "card"},
        {"type": "card", "card": 3},
        {"type": "place", "seat": "3"},
        {"type": "place", "seat": True},
        {"type": "draw", "pile": "king", "extra": 1},
        {"type": "play", "card": "knight-3-6", "seat": 3, "steps": 3},
        {"type": "play", "card": "knight-3-6", "do": "fly"},
        {"type": "play", "card": "knight-3-6", "do": "move", "seat": 3},
        {"type": "play", "card": "ring-both", "do": "ring", "seat": 3, "steps": 1},
        {"type": "play", "card": "score-carpet", "do": "score", "knights": 11},
        {"type": "play", "card": "score-carpet", "do": "score", "knights": [11, "x"]},
        {"type": "play", "card": "score-carpet", "do": "penalty", "knights": [11]},
    ],
)
def test_malformed_moves_are_refused_by_the_parser(bad: object) -> None:
    with pytest.raises(ValueError):
        GAME.move_from_json(bad)


def test_every_code_has_both_languages() -> None:
    for code, (en, it) in MESSAGES.items():
        assert code.startswith("artus.") and catalogue.has(code) and en and it


def _candidates(state) -> list[Move]:
    cards = [*DATA.cards, "no-such-card"]
    seats = range(-1, DATA.seats + 1)
    mine = [s for s, f in enumerate(state.seats) if f is not None][:6] + [DATA.seats]
    out: list[Move] = [Reveal(c) for c in cards]
    out += [Draw(p) for p in ("knight", "king", "scoring", "hand")]
    out += [Place(s) for s in seats]
    for card in cards:
        out += [Play(card, "move", s, k) for s in seats for k in range(-9, 10)]
        out += [Play(card, "ring", s) for s in seats]
        out += [
            Play(card, "penalty"),
            Play(card, "score"),
            Play(card, "move", 0, None),
            Play(card, "ring", 0, 1),
        ]
        for size in (1, 2, 3):
            out += [
                Play(card, "score", knights=k) for k in itertools.combinations_with_replacement(mine, size)
            ]
    return out


@pytest.mark.parametrize(("players", "mode"), [(2, "beginner"), (4, "advanced"), (3, "advanced")])
def test_check_passes_exactly_for_listed_moves(players: int, mode: str) -> None:
    state = GAME.new_game(players, 17, {"mode": mode})
    rng = random.Random(17)
    step = 0
    codes = set()
    while state.to_move() is not None:
        if step % 23 == 0:
            legal = state.legal_moves()
            assert len(set(legal)) == len(legal)
            for move in _candidates(state):
                try:
                    state.check(move)
                except IllegalMove as exc:
                    assert move not in legal, move
                    assert catalogue.has(exc.code) and exc.rule
                    codes.add(exc.code)
                else:
                    assert move in legal, move
        state.apply(state.sample_chance() if state.is_chance() else rng.choice(state.legal_moves()))
        step += 1
    assert len(codes) > 15


def test_views_keep_hands_private() -> None:
    state = GAME.new_game(3, 2, {"mode": "advanced"})
    rng = random.Random(2)
    for _ in range(60):
        state.apply(state.sample_chance() if state.is_chance() else rng.choice(state.legal_moves()))
    public = state.view(None)
    assert "hand" not in public and public["hand_sizes"] == [len(h) for h in state.hands]
    for seat in range(3):
        view = state.view(seat)
        assert view["hand"] == state.hands[seat]
        json.dumps(view)
        other = state.perturb_secrets(seat, rng)
        assert other is not None
        for viewer in (None, *(s for s in range(3) if s != seat)):
            assert other.view(viewer) == state.view(viewer)


def test_events_tell_the_table_what_to_move() -> None:
    state = GAME.new_game(4, 9, {"mode": "advanced"})
    events = playout(state, 9)
    for e in events:
        json.dumps(e.to_json())
        if e.type == "card_received":
            assert e.audience is not None
        elif e.audience is None:
            assert "card" not in e.params or e.type in ("card_played", "prestige")  # played cards are open
    moves = of_type(events, "figure_moved") + of_type(events, "displaced")
    assert moves and all({"name", "figure", "from", "to"} <= set(m) for m in moves)
    rotations = of_type(events, "table_rotated")
    assert rotations and all(set(r) == {"from", "to"} for r in rotations)


def test_replay_rebuilds_the_state() -> None:
    for mode in ("beginner", "advanced"):
        state = GAME.new_game(2, 21, {"mode": mode})
        playout(state, 21)
        data = json.loads(json.dumps(state.to_json()))
        assert GAME.state_from_json(data) == state
        data["history"][-1] = {"type": "place", "seat": 0}
        with pytest.raises(ValueError):
            GAME.state_from_json(data)


def test_max_moves_is_an_honest_bound() -> None:
    for mode in ("beginner", "advanced"):
        for players in (2, 3, 4):
            state = GAME.new_game(players, 5, {"mode": mode})
            moves = 0
            rng = random.Random(5)
            while state.to_move() is not None:
                state.apply(state.sample_chance() if state.is_chance() else rng.choice(state.legal_moves()))
                moves += 1
            assert moves <= GAME.max_moves
    assert set(DOS) == {"move", "ring", "score", "penalty"}


def test_codes_raised_are_the_codes_catalogued() -> None:
    source = "".join(
        p.read_text() for p in Path(artus_package.__file__).parent.glob("*.py") if p.name != "messages.py"
    )
    raised = set(re.findall(r'"(artus\.[a-z-]+\.[a-z-]+)"', source))
    assert raised == set(MESSAGES)
