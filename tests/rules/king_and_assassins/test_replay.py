"""`tablekeeper replay` on a King & Assassins log: verdicts for good and bad
moves, and no secret event in its output (the log itself holds the pick)."""

from __future__ import annotations

import io
import json

import pytest

from pi_app.commands.replay import replay
from pi_app.errors import UsageError

HEADER = {"game": "king-and-assassins", "players": 2, "seed": 1, "chance": "file"}
MOVES = [
    {"type": "move", "piece": "king", "dir": "N"},  # 1: before the pick
    {"type": "choose", "citizens": ["citizen3", "citizen7", "citizen11"]},
    {"type": "draw", "card": 1},
    {"type": "move", "piece": "knight2", "dir": "E"},  # A4 -> B4
    {"type": "move", "piece": "knight2", "dir": "E"},  # B4 -> C4
    {"type": "move", "piece": "knight2", "dir": "E"},  # C4 -> D4, next to citizen3 on E4
    {"type": "arrest", "piece": "knight2", "target": "citizen3"},  # a hidden assassin
    {"type": "arrest", "piece": "knight2", "target": "citizen4"},  # 8: one per turn
    {"type": "end"},
    {"type": "reveal", "piece": "citizen3"},  # the arrested one, shown by its owner
    {"type": "end"},
]


def _run(lines: list[str]) -> list[dict]:
    out = io.StringIO()
    replay(io.StringIO("\n".join(lines)), out, "ka.jsonl")
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_replay_verdicts_and_only_public_events() -> None:
    records = _run([json.dumps(HEADER)] + [json.dumps(m) for m in MOVES])
    verdicts = {r["n"]: r for r in records if "n" in r}
    assert verdicts[1]["code"] == "king-and-assassins.setup.choose-first"
    assert verdicts[8]["code"] == "king-and-assassins.arrest.one-per-turn"
    assert all(verdicts[n]["ok"] for n in (2, 3, 4, 5, 6, 7, 9, 10, 11))
    events = [e for r in records for e in r.get("events", [])]
    types = [e["type"] for e in events]
    assert "assassins_chosen" in types and "arrested" in types
    assert "your_assassins" not in types and "arrested_assassin" not in types
    # The other two of the pick are named by no event, and shown as plain citizens.
    assert "citizen7" not in json.dumps(events) and "citizen11" not in json.dumps(events)
    assert {"type": "revealed", "piece": "citizen3", "cell": None, "arrested": True} in events
    final = records[-1]
    assert final["outcome"] is None and final["view"]["arrested_assassins"] == ["citizen3"]
    assert "assassins" not in final["view"]
    assert {final["view"]["pieces"][c]["kind"] for c in ("citizen7", "citizen11")} == {"citizen"}


def test_replay_refuses_a_malformed_move_by_line() -> None:
    words = r"ka.jsonl:2: not a king-and-assassins move: .*dir 'NE' is not one of N, E, S, W"
    with pytest.raises(UsageError, match=words):
        _run([json.dumps(HEADER), json.dumps({"type": "move", "piece": "king", "dir": "NE"})])
