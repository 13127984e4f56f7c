"""The one move codec (rules.notation) against every game.

``data/move_notation.jsonl`` holds the JSON each game's hand-written encoder
gave for the moves met in seeded playouts (tests/rules/notation_fixture.py,
run on commit a663937): the codec must write the very same bytes and read
them back to the same move. Every move met in playouts today must round-trip,
and a move's JSON with a field dropped, added or of the wrong kind must be
refused with a NotationError naming that field.
"""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

import rules
from rules.core import Move
from rules.notation import JSON, Notation, NotationError
from tests.rules.notation_fixture import FIXTURE, move_fields, moves_met

ROWS = [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines()]


def _move(row: dict[str, Any]) -> Move:
    module = importlib.import_module(f"rules.{row['game'].replace('-', '_')}.moves")
    values = {k: tuple(v) if isinstance(v, list) else v for k, v in row["fields"].items()}
    move: Move = getattr(module, row["class"])(**values)
    return move


@pytest.mark.parametrize("game_id", list(rules.GAMES))
def test_the_codec_writes_what_the_hand_written_encoders_wrote(game_id: str) -> None:
    rows = [r for r in ROWS if r["game"] == game_id]
    assert rows, f"no {game_id} moves in {FIXTURE.name}"
    game = rules.get(game_id)
    for row in rows:
        move = _move(row)
        assert json.dumps(move.to_json()) == row["json"], row
        assert game.move_from_json(json.loads(row["json"])) == move, row


@pytest.mark.parametrize("game_id", list(rules.GAMES))
def test_every_move_met_in_playouts_round_trips(game_id: str) -> None:
    game = rules.get(game_id)
    old = {(r["class"], json.dumps(r["fields"])): r["json"] for r in ROWS if r["game"] == game_id}
    compared = 0
    for move in moves_met(game_id):
        text = json.dumps(move.to_json())
        assert game.move_from_json(json.loads(text)) == move, text
        was = old.get((type(move).__name__, json.dumps(move_fields(move))))
        if was is not None:
            assert text == was
            compared += 1
    assert compared > 0


def _refused(game_id: str, data: Any, words: str) -> None:
    with pytest.raises(NotationError) as info:
        rules.get(game_id).move_from_json(data)
    assert words in str(info.value), (data, str(info.value))


@pytest.mark.parametrize("game_id", list(rules.GAMES))
def test_malformed_json_is_refused_naming_the_fault(game_id: str) -> None:
    _refused(game_id, ["pass"], "must be a JSON object")
    _refused(game_id, {"type": "resign"}, f"unknown {game_id} move type 'resign'")
    for row in [r for r in ROWS if r["game"] == game_id]:
        data = json.loads(row["json"])
        kind = data["type"]
        _refused(game_id, {**data, "colour_of_the_sky": "blue"}, "unknown fields colour_of_the_sky")
        for key in set(data) - {"type"}:
            _refused(game_id, {**data, key: {}}, key)
            less = {k: v for k, v in data.items() if k != key}
            try:
                move = rules.get(game_id).move_from_json(less)
            except NotationError as exc:
                assert key in str(exc) or "exactly one" in str(exc), (less, str(exc))
            else:  # a field that may be left out: the move then simply lacks it
                assert key not in move.to_json(), (kind, key)


@dataclass(frozen=True)
class _Go(Move):
    kind: ClassVar[str] = "go"
    steps: int


@dataclass(frozen=True)
class _Run(_Go):
    kind: ClassVar[str] = "run"
    far: bool = False


@dataclass(frozen=True)
class _Said(Move):
    kind: ClassVar[str] = "said"

    def to_json(self) -> JSON:
        return {"type": "said", "by": "hand"}


@dataclass(frozen=True)
class _Shouted(_Said):
    pass


def test_a_subclass_writes_its_own_kind_and_fields_and_keeps_a_hand_written_encoder() -> None:
    assert _Go(1).to_json() == {"type": "go", "steps": 1}  # its encoder compiled first
    assert _Run(2, far=True).to_json() == {"type": "run", "steps": 2, "far": True}
    assert _Run(3).to_json() == {"type": "run", "steps": 3}
    assert _Shouted().to_json() == {"type": "said", "by": "hand"}
    notation = Notation("toy", (_Go, _Run))
    assert notation.parse({"type": "run", "steps": 2, "far": True}) == _Run(2, True)
    with pytest.raises(ValueError, match="needs a kind of its own"):
        Notation("toy", (_Go, _Go))
