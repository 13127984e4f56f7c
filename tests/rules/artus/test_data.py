"""The data files load, hold what the rulebook says, and broken copies are
refused with the file, the entry and the fault."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rules.artus.data import DATA, DATA_DIR, DataError, load


def test_shipped_data() -> None:
    assert DATA.seats == len(DATA.plates)
    assert sorted(DATA.crowns.values()) == ["large", "small", "small", "small"]
    assert sorted(DATA.start_princes.values()) == ["bronze", "bronze", "silver", "silver"]
    assert len(DATA.carpet) == 6
    # Seat values relative to the King: crown, then 10, 8, 7 ... counter-clockwise.
    assert [p.value for p in DATA.plates[:6]] == [0, 10, 8, 7, 6, 5]
    assert DATA.plates[-1].value == -15
    colours = [p.colour for p in DATA.plates]
    assert colours.count("yellow") == 3 and colours.count("crown") == 1
    assert {p.value for p in DATA.plates if p.colour == "green"} <= set(range(1, 11))
    assert {p.value for p in DATA.plates if p.colour == "red"} <= set(range(-15, 0))
    for pile, size in (("knight", 8), ("king", 8), ("scoring", 6)):
        assert len(DATA.pile_cards(pile)) == size
    assert DATA.cards["knight-1-5-both"].both_ways and DATA.cards["king-1-5-both"].both_ways
    assert not DATA.cards["knight-3-6"].both_ways
    assert (DATA.cards["king-1-7-silver"].colour, DATA.cards["king-4-8"].colour) == ("silver", "both")
    assert DATA.knights == {2: 6, 3: 6, 4: 5}
    assert DATA.modes["beginner"].rounds == 16 and DATA.modes["advanced"].rounds == 11


def test_every_entry_has_provenance() -> None:
    for name in ("ring", "table", "cards"):
        data = json.loads((DATA_DIR / f"{name}.json").read_text())
        (entries,) = [v for v in data.values() if isinstance(v, list)]
        for entry in entries:
            assert entry["provenance"] and isinstance(entry["unverified"], bool)


def _broken(tmp_path: Path, name: str, change: Callable[[Any], None]) -> Path:
    target = tmp_path / "data"
    shutil.copytree(DATA_DIR, target)
    path = target / f"{name}.json"
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))
    return target


def _set(key: str, index: int, field: str, value: Any) -> Callable[[Any], None]:
    def change(data: Any) -> None:
        data[key][index][field] = value

    return change


BROKEN = [
    ("table", lambda d: d["plates"].pop(), "table.json: plates: needs one plate per seat"),
    ("ring", lambda d: d["seats"].pop(), "ring.json: seats"),
    ("table", _set("plates", 3, "value", -4), "table.json: plates[3]: a green plate cannot be worth -4"),
    ("table", _set("plates", 3, "colour", "blue"), "table.json: plates[3]: colour must be one of"),
    ("table", _set("plates", 0, "colour", "green"), "table.json: plates[0]"),
    ("table", _set("plates", 5, "offset", 9), "table.json: plates[5]: 'offset' must be 5"),
    ("table", _set("plates", 5, "provenance", ""), "table.json: plates[5]: needs a provenance"),
    ("ring", _set("seats", 14, "prince", "bronze"), "ring.json: seats["),
    (
        "ring",
        _set("seats", 7, "crown", "large"),
        "ring.json: seats: needs four crown seats, exactly one of them large",
    ),
    ("ring", _set("seats", 2, "carpet", True), "ring.json: seats: needs six carpet chairs, not 7"),
    (
        "ring",
        _set("seats", 2, "prince", "silver"),
        "ring.json: seats[2]: a prince starts only on a crown seat",
    ),
    ("cards", _set("cards", 0, "count", 2), "cards.json: knight pile: needs 8 cards, not 9"),
    ("cards", _set("cards", 0, "action", "fly"), "cards.json: card 'knight-1-3': action must be one of"),
    (
        "cards",
        _set("cards", 0, "pile", "king"),
        "cards.json: card 'knight-1-3': a knight card belongs in the knight pile",
    ),
    ("cards", _set("cards", 0, "min", 0), "cards.json: card 'knight-1-3'.min: must be at least 1"),
    ("cards", _set("cards", 0, "max", 30), "cards.json: card 'knight-1-3': range 1-30 is too long"),
    ("cards", _set("cards", 1, "id", "knight-1-3"), "cards.json: card 'knight-1-3': id used twice"),
    ("cards", _set("cards", 8, "colour", "gold"), "cards.json: card 'king-4-8': colour must be one of"),
    (
        "cards",
        _set("cards", 17, "penalty", None),
        "cards.json: card 'score-green-yellow-red': a green-yellow-red card needs penalty",
    ),
    ("cards", _set("cards", 15, "effect", "dance"), "cards.json: card 'score-all': effect must be one of"),
    (
        "components",
        lambda d: d["modes"]["beginner"].update(rounds=15),
        "components.json: modes.beginner: 15 rounds do not play out 16 cards",
    ),
    ("components", lambda d: d["knights"].update({"4": 9}), "components.json: knights.4"),
    ("components", lambda d: d.pop("rings"), "components.json: file: missing or malformed field"),
]


@pytest.mark.parametrize(("name", "change", "message"), BROKEN)
def test_broken_copies_are_refused(
    tmp_path: Path, name: str, change: Callable[[Any], None], message: str
) -> None:
    with pytest.raises(DataError) as info:
        load(_broken(tmp_path, name, change))
    assert message in str(info.value)


def test_unreadable_file(tmp_path: Path) -> None:
    target = tmp_path / "data"
    shutil.copytree(DATA_DIR, target)
    (target / "cards.json").write_text("{not json")
    with pytest.raises(DataError, match=r"cards.json: line 1: not valid JSON"):
        load(target)
    (target / "cards.json").unlink()
    with pytest.raises(DataError, match=r"cards.json: file: cannot be read"):
        load(target)
