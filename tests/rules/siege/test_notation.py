"""The JSON notation: every move round-trips, malformed input is refused."""

from __future__ import annotations

import pytest

import rules
from rules.siege import moves as mv
from tests.rules.siege.helpers import after_setup, refused

GAME = rules.get("siege")

ALL = [
    mv.Die(4), mv.Draw("knight"), mv.Play("knight", at=2), mv.Play("traitor", "knight-3", 0),
    mv.Play("oil", "battering_ram-9"), mv.Discard("moat"),
    mv.Feed("peasant"), mv.Lose(unit="knight-3"), mv.Lose(card="supply_wagon"), mv.Spear("bonus"),
    mv.Spear("archer", "peasant-4", 0), mv.Raze("castle_walls-9"), mv.Place(3),
    mv.Attack("archer-2"), mv.Attack("archer-2", melee=True), mv.Join("archer-20"),
    mv.Target("castle_walls-7"), mv.Support("knight-3"), mv.Support(None),
    mv.Shift("knight-30", "r1", 1), mv.Shift("battering_ram-31", "r0"), mv.Pass(), mv.EndPhase(),
]


@pytest.mark.parametrize("move", ALL, ids=lambda m: m.to_json()["type"])
def test_moves_round_trip(move: mv.Move) -> None:
    assert GAME.move_from_json(move.to_json()) == move


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"type": "die"}, "missing value"),
        ({"type": "die", "value": "4"}, "integer"),
        ({"type": "die", "value": True}, "integer"),
        ({"type": "play", "card": ""}, "non-empty"),
        ({"type": "play", "card": "knight", "row": 2}, "unknown fields row"),
        ({"type": "lose"}, "exactly one"),
        ({"type": "lose", "unit": "a-1", "card": "b"}, "exactly one"),
        ({"type": "support"}, "missing unit"),
        ({"type": "move", "unit": "knight-3"}, "missing to"),
        ({"type": "attack", "unit": "archer-2", "melee": "yes"}, "melee must be true or false"),
        ({"type": "fly"}, "unknown siege move type"),
    ],
)
def test_malformed_moves_are_refused(data: dict, words: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(ValueError, match=words):
        GAME.move_from_json(data)


def test_well_formed_but_illegal_moves_parse_and_are_refused() -> None:
    s = after_setup()
    move = GAME.move_from_json({"type": "die", "value": 9})
    refused(s, move, "siege.die.value")
    refused(s, GAME.move_from_json({"type": "end_phase"}), "siege.phase.wrong")


def test_every_code_raised_has_sentences() -> None:
    from rules import catalogue
    from rules.siege.messages import MESSAGES

    for code, (en, it) in MESSAGES.items():
        assert code.startswith("siege.") and catalogue.has(code) and en and it
