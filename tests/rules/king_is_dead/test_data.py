"""The data files are checked at load: a broken copy is refused, naming the
file, the entry and the fault."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rules.king_is_dead.data import DATA, DATA_DIR, DataError, load


def test_the_shipped_data_loads_and_matches_the_rulebook() -> None:
    assert len(DATA.regions) == 8
    assert {f.home for f in DATA.factions} == {"Caledonia", "Caerleon", "Londinium"}
    # game-data.md over the Italian text: Scots blue, Welsh red, Romano-British yellow.
    assert {f.id: f.colour for f in DATA.factions} == {
        "scots": "blue",
        "welsh": "red",
        "romano-british": "yellow",
    }
    assert len(DATA.deck) == 8 and DATA.cards["settlement"] == 2
    assert sum(len(b) for b in DATA.borders.values()) == 2 * 13


def test_every_entry_carries_its_provenance_and_the_map_is_flagged_unverified() -> None:
    regions = json.loads((DATA_DIR / "map.json").read_text())["regions"]
    assert all(r["unverified"] is True and r["source"] for r in regions)


def _broken(tmp_path: Path, name: str, change: Callable[[Any], None]) -> Path:
    copy = tmp_path / "data"
    shutil.copytree(DATA_DIR, copy)
    data = json.loads((copy / name).read_text())
    change(data)
    (copy / name).write_text(json.dumps(data))
    return copy


def _region(data: Any, name: str) -> dict[str, Any]:
    return next(r for r in data["regions"] if r["name"] == name)


CASES: list[tuple[str, Callable[[Any], None], str]] = [
    (
        "map.json",
        lambda d: _region(d, "Deva")["borders"].remove("Ratae"),
        "region 'Ratae': borders 'Deva' but",
    ),
    (
        "map.json",
        lambda d: _region(d, "Deva")["borders"].append("Atlantis"),
        "region 'Deva': borders 'Atlantis'",
    ),
    ("map.json", lambda d: _region(d, "Deva")["borders"].append("Deva"), "region 'Deva': borders itself"),
    ("map.json", lambda d: _region(d, "Deva").update(banner="Avalon"), "region 'Deva': banner 'Avalon'"),
    ("map.json", lambda d: _region(d, "Deva").pop("source"), "region 'Deva': needs a \"source\""),
    ("map.json", lambda d: d["regions"].append(dict(_region(d, "Deva"))), "region 'Deva': listed twice"),
    ("components.json", lambda d: d["factions"][0].update(home="Avalon"), "faction 'scots': home 'Avalon'"),
    ("components.json", lambda d: d["factions"][1].update(colour="blue"), "two factions share a colour"),
    ("components.json", lambda d: d["counts"]["followers_per_faction"].update(value=10), "cannot fill"),
    ("components.json", lambda d: d["counts"]["saxon_tokens"].update(value="four"), "counts.saxon_tokens"),
    ("components.json", lambda d: d["counts"].pop("loyalists"), "counts.loyalists"),
    ("components.json", lambda d: d["cards"].pop(), "cards: must be exactly"),
    ("components.json", lambda d: d["cards"][0].update(count=0), "card 'crown'"),
    ("components.json", lambda d: d["mordred_start"][0].update(loyalists=5), "mordred_start"),
    ("components.json", lambda d: d["factions"][2].pop("unverified"), "faction 'romano-british': needs"),
]


@pytest.mark.parametrize(("name", "change", "message"), CASES, ids=[c[2] for c in CASES])
def test_a_broken_copy_is_refused_naming_file_and_entry(
    tmp_path: Path, name: str, change: Callable[[Any], None], message: str
) -> None:
    with pytest.raises(DataError) as info:
        load(_broken(tmp_path, name, change))
    assert str(info.value).startswith(name + ": ")
    assert message in str(info.value)


def test_a_file_that_is_not_json_is_refused_with_its_line(tmp_path: Path) -> None:
    copy = tmp_path / "data"
    shutil.copytree(DATA_DIR, copy)
    (copy / "map.json").write_text('{\n  "regions": [,]\n}')
    with pytest.raises(DataError, match=r"map.json: line 2: not valid JSON"):
        load(copy)


def test_a_split_map_is_refused(tmp_path: Path) -> None:
    def cut(d: Any) -> None:  # Caledonia and Din Eidyn become an island
        for other in ("Deva", "Eboracum"):
            _region(d, "Din Eidyn")["borders"].remove(other)
            _region(d, other)["borders"].remove("Din Eidyn")

    with pytest.raises(DataError, match=r"map\.json: regions: the map is split: Eboracum, Deva"):
        load(_broken(tmp_path, "map.json", cut))
