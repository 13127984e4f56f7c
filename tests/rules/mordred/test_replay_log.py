"""A Mordred game log in the notation replays through `tablekeeper replay`."""

from __future__ import annotations

import io
import json

from pi_app.commands.replay import replay


def _replay(*lines: dict[str, object]) -> list[dict[str, object]]:
    out = io.StringIO()
    replay(io.StringIO("\n".join(json.dumps(line) for line in lines)), out, "mordred.jsonl")
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_example_turn_replays_with_dice_from_the_file() -> None:
    records = _replay(
        {"game": "mordred", "players": 3, "seed": 1, "chance": "file"},
        {"type": "declare", "row": "C"},
        {"type": "roll", "first": 2, "second": 5},
        {"type": "build", "building": "village", "space": "Flint"},
        {"type": "place", "space": "Bangor"},
        {"type": "place", "space": "Conwy"},
        {"type": "build", "building": "town", "space": "Hay"},
        {"type": "end_turn"},
    )
    verdicts = [(r["ok"], r.get("code")) for r in records if "n" in r]
    assert verdicts == [
        (True, None),
        (True, None),
        (False, "mordred.place.men_first"),
        (True, None),
        (True, None),
        (False, "mordred.build.terrain"),
        (True, None),
    ]
    final = records[-1]
    assert final["outcome"] is None
    view = final["view"]
    assert (
        isinstance(view, dict)
        and view["turn"] == 1
        and view["mordred_men"] == ["Anglesey", "Bangor", "Conwy"]
    )


def test_a_log_with_the_older_roll_form_replays_the_same() -> None:
    head = {"game": "mordred", "players": 3, "seed": 1, "chance": "file"}
    declare = {"type": "declare", "row": "C"}
    old = _replay(head, declare, {"type": "roll", "dice": [2, 5]})
    new = _replay(head, declare, {"type": "roll", "first": 2, "second": 5})
    assert old == new and all(r["ok"] for r in old if "n" in r)
