"""Siege games recorded before the players named every choice still replay
exactly as they were played (rules/siege/older.py, NOTATION.md "Older
records"), while new play cannot skip a choice.

The logs in ``older/`` were made with the Siege engine of commit 4e07c49 (the
last to put every card at the right end of its row and to make the
Horn of Joshua's, Famine's, a lost melee's and the Spear of Destiny's picks
itself): a seeded random playout's moves (``replay-N.jsonl``, chance from the
seed) with that engine's ``tablekeeper replay`` final line (``replay-N.end.json``),
and the journal entries of an unfinished game (``journal-23.json``) with that
engine's snapshot after its last move."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

import rules
from pi_app.commands.replay import replay
from rules.core import IllegalMove
from rules.siege import moves as mv
from rules.siege.older import SiegeRecordReader
from tests.rules.siege.helpers import A, blank, give

OLDER = Path(__file__).parent / "older"
GAME = rules.get("siege")


def _replay(path: Path) -> list[dict[str, Any]]:
    out = io.StringIO()
    replay(io.StringIO(path.read_text(encoding="utf-8")), out, str(path))
    return [json.loads(line) for line in out.getvalue().splitlines()]


@pytest.mark.parametrize("seed", [23, 37])
def test_a_game_recorded_before_at_replays_to_the_same_end(seed: int) -> None:
    records = _replay(OLDER / f"replay-{seed}.jsonl")
    then = json.loads((OLDER / f"replay-{seed}.end.json").read_text(encoding="utf-8"))
    assert [r for r in records if r.get("ok") is False] == []
    # the picks the old engine made by itself are reported as such
    implied = {r["implied"]["type"] for r in records if "implied" in r}
    assert "place" in implied
    end = records[-1]
    assert end["outcome"] == then["outcome"]
    # the view gained "arriving" (nothing is waiting at the end); all else is as it was
    assert set(end["view"]) - set(then["view"]) == {"arriving"} and end["view"]["arriving"] == []
    assert {k: v for k, v in end["view"].items() if k in then["view"]} == then["view"]


def test_the_older_log_exercises_every_pick_the_old_engine_made() -> None:
    records = _replay(OLDER / "replay-23.jsonl")
    implied = [r["implied"] for r in records if "implied" in r]
    assert {m["type"] for m in implied} == {"place", "raze", "lose"}
    events = [e for r in records for e in r.get("events", [])]
    assert any(e["type"] == "converted" for e in events)  # a Spear without its Peasant, read as the last


def test_a_move_without_at_is_the_right_end_only_in_a_record() -> None:
    state, card = blank("play", A), "knight"
    give(state, A, card)
    row = list(state.rows[A]["r2"])
    with pytest.raises(IllegalMove) as refused:
        state.check(mv.Play(card))  # the table: the place must be named
    assert refused.value.code == "siege.row.name-slot"
    reader = SiegeRecordReader(GAME)
    move = reader.read(state, {"type": "play", "card": card})
    assert move == mv.Play(card, at=len(row)) and reader.older
    assert mv.Play(card) not in state.legal_moves()


def test_a_record_in_todays_notation_gets_no_pick_made_for_it() -> None:
    state, card = blank("play", A), "knight"
    give(state, A, card)
    reader = SiegeRecordReader(GAME)
    state.apply(reader.read(state, {"type": "play", "card": card, "at": 0}))
    assert reader.current and not reader.older
    state.phase = "horn"  # the Attacker owes the Horn of Joshua's wall
    assert reader.implied(state, {"type": "end_phase"}) is None
    assert reader.implied(state, None) is None


def test_an_older_log_with_its_chance_in_the_file_replays_to_the_same_end() -> None:
    """As ``journal export --format jsonl`` writes a finished game: every
    die and draw a line of its own, the moves in the older notation."""
    path = OLDER / "replay-23.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    moves = iter(lines[1:])
    log = [json.dumps({**json.loads(lines[0]), "chance": "file"})]
    for r in _replay(path)[:-1]:
        if "chance" in r:
            log.append(json.dumps(r["chance"]))
        elif "n" in r:
            log.append(next(moves))
    out = io.StringIO()
    replay(io.StringIO("\n".join(log)), out, "log.jsonl")
    records = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [r for r in records if r.get("ok") is False] == []
    then = json.loads((OLDER / "replay-23.end.json").read_text(encoding="utf-8"))
    assert records[-1]["outcome"] == then["outcome"]
    assert {k: v for k, v in records[-1]["view"].items() if k in then["view"]} == then["view"]
