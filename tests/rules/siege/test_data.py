"""The card lists, the ranged table and the layout: totals, values and the
validation that refuses broken copies."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from rules.siege.data import DATA, DATA_DIR, KINDS, DataError, load


def test_decks_add_up_to_the_rulebook_totals() -> None:
    totals = {name: sum(deck.values()) for name, deck in DATA.decks.items()}
    assert totals == {"attacker": 44, "attacker_events": 21, "defender": 47, "defender_events": 18}


def test_known_values_from_the_rulebook() -> None:
    assert DATA.cards["knight"].melee == 3
    assert DATA.cards["swordsman"].melee == 2
    assert DATA.cards["commander"].defence == 0
    assert DATA.cards["castle_keep"].defence == 0


def test_ranged_table_is_the_rulebooks() -> None:
    attacker, defender = DATA.ranged
    assert attacker == {
        "archer": {1: 6, 2: None},
        "ballista": {1: 5, 2: 6},
        "catapult": {1: 4, 2: 5},
        "battering_ram": {1: 4, 2: None},
    }
    assert defender == {
        "archer": {1: 5, 2: 5},
        "ballista": {1: 4, 2: 5},
        "catapult": {1: 4, 2: 5},
        "battering_ram": {1: None, 2: None},
    }


def test_every_entry_has_provenance_and_unknowns_are_flagged() -> None:
    raw = json.loads((DATA_DIR / "cards.json").read_text())
    for cid, item in raw["cards"].items():
        assert item["provenance"], cid
        assert item["kind"] in KINDS
    for deck in raw["decks"].values():
        for cid, item in deck["cards"].items():
            assert item["provenance"], cid
            # Only the one Commander and one Castle are printed facts.
            assert item.get("unverified") or cid in ("commander", "castle_keep"), cid


def test_layout_comes_out_of_the_decks() -> None:
    attacker, defender = DATA.layout
    assert attacker["r1"] == ["catapult", "archer", "knight", "swordsman"]
    assert attacker["rc"] == ["commander", "supply_wagon"]
    assert defender["r1"] == ["castle_walls"] * 5
    assert defender["r2"] == ["archer"]
    assert defender["rc"] == ["castle_keep", "peasant"]


def _broken(tmp_path: Path, name: str, change: Any) -> Path:
    folder = tmp_path / "data"
    shutil.copytree(DATA_DIR, folder)
    raw = json.loads((folder / name).read_text())
    change(raw)
    (folder / name).write_text(json.dumps(raw))
    return folder


def _set(path: list[str], value: Any) -> Any:
    def change(raw: dict[str, Any]) -> None:
        for key in path[:-1]:
            raw = raw[key]
        if value is _DELETE:
            del raw[path[-1]]
        else:
            raw[path[-1]] = value

    return change


_DELETE = object()


@pytest.mark.parametrize(
    ("name", "change", "words"),
    [
        ("cards.json", _set(["decks", "attacker", "cards", "knight", "count"], 7),
         ["decks.attacker", "45, not 44"]),
        ("cards.json", _set(["decks", "defender_events", "total"], 19), ["decks.defender_events", "not 19"]),
        ("cards.json", _set(["cards", "knight", "kind"], "dragon"), ["knight", "unknown kind"]),
        ("cards.json", _set(["cards", "swordsman", "melee"], _DELETE), ["swordsman", "melee"]),
        ("cards.json", _set(["cards", "catapult", "shield"], _DELETE), ["catapult", "shield"]),
        ("cards.json", _set(["cards", "plague", "effect"], "rain"), ["plague", "unknown effect"]),
        ("cards.json", _set(["cards", "archer", "provenance"], ""), ["archer", "provenance"]),
        ("cards.json", _set(["cards", "reinforcement_knight", "delay_days"], -1),
         ["reinforcement_knight", "delay_days"]),
        ("cards.json", _set(["cards", "reinforcement_bowman", "troop"], "dragon"),
         ["reinforcement_bowman", "not a card"]),
        ("cards.json", _set(["cards", "moat"], _DELETE), ["moat"]),
        ("cards.json", _set(["decks", "attacker", "cards", "plague"], {"count": 1, "provenance": "x"}),
         ["decks.attacker.plague", "does not belong"]),
        ("ranged.json", _set(["table", "attacker", "catapult", "2"], _DELETE),
         ["attacker.catapult", "lines"]),
        ("ranged.json", _set(["table", "defender", "archer", "1"], 7), ["defender.archer.1", "1..6"]),
        ("ranged.json", _set(["table", "defender", "ballista"], _DELETE),
         ["defender.ballista", "incomplete"]),
        ("layout.json", _set(["defender", "r1"], ["castle_walls"] * 9), ["defender.castle_walls", "needs 9"]),
        ("layout.json", _set(["attacker", "rc"], ["supply_wagon"]), ["attacker.rc", "commander"]),
    ],
)
def test_broken_copies_are_refused(tmp_path: Path, name: str, change: Any, words: list[str]) -> None:
    folder = _broken(tmp_path, name, change)
    with pytest.raises(DataError) as info:
        load(folder)
    message = str(info.value)
    assert message.startswith(name)
    for word in words:
        assert word in message, message


def test_unreadable_file_is_named(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    shutil.copytree(DATA_DIR, folder)
    (folder / "ranged.json").write_text("{not json")
    with pytest.raises(DataError, match=r"ranged\.json"):
        load(folder)
