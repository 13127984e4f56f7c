"""The data files: the values the rulebook prints, provenance, and refusal of broken copies."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rules.mordred.tables import BUILDINGS, DATA_DIR, ROWS, DataError, load

T = load()


# -- what the rulebook prints -------------------------------------------------


def test_rulebook_row_c_die_2_gives_2_pounds_in_a_black_box() -> None:
    face = T.money["C"][2]
    assert (face.money, face.black, face.men) == (2, True, 2)


def test_rulebook_row_c_die_5_gives_6_pounds() -> None:
    assert T.money["C"][5].money == 6
    assert not T.money["C"][5].black


def test_rulebook_combat_values() -> None:
    assert T.attack["large_castle"] == 4  # "perché state attaccando da un Castello grande"
    assert T.defence["small_castle"] == 4  # "Per rimuovere il Castello piccolo ... 4 o più"
    assert T.attack_cost == 2


def test_rulebook_building_facts() -> None:
    assert T.vp["village"] == 2
    assert T.surcharge == 1
    # "non potete costruire una Città in uno spazio con delle Colline"
    assert T.cost["town"]["hills"] is None
    # the example's village on a black-framed space costs £3
    framed = {T.spaces[s].terrain for s in T.black_frames}
    assert any(T.cost["village"][t] == 3 for t in framed)


def test_rulebook_box_contents() -> None:
    assert T.men == 35
    box = {"village": 36, "town": 24, "small_castle": 24, "large_castle": 16}
    for b in BUILDINGS:
        assert 4 * T.per_player[b] <= box[b]


def test_sources_row_c_is_the_greedy_row() -> None:
    # A review: row C black-boxed on half its faces; rows A and B give less and fewer boxes.
    def black(row: str) -> int:
        return sum(f.black for f in T.money[row].values())

    def pounds(row: str) -> int:
        return sum(f.money for f in T.money[row].values())

    assert black("C") == 3
    assert black("A") < black("C") and black("B") < black("C")
    assert pounds("A") < pounds("C") and pounds("B") < pounds("C")


def test_map_shape() -> None:
    assert T.anglesey in T.spaces
    assert T.black_frames and T.anglesey not in T.black_frames
    assert set(T.terrains) == {"forest", "hills"}
    for name, space in T.spaces.items():
        for other in space.roads:
            assert name in T.spaces[other].roads


def _entries(node: Any) -> list[dict[str, Any]]:
    found = []
    if isinstance(node, dict):
        if "source" in node:
            found.append(node)
        for value in node.values():
            found.extend(_entries(value))
    return found


@pytest.mark.parametrize("name", ["money", "combat", "buildings", "mordred", "map"])
def test_every_entry_has_provenance_and_placeholders_are_flagged(name: str) -> None:
    data = json.loads((DATA_DIR / f"{name}.json").read_text())
    entries = _entries(data)
    assert entries
    for entry in entries:
        assert isinstance(entry["unverified"], bool)
        if "placeholder" in json.dumps(entry["source"]):
            assert entry["unverified"] is True, entry


# -- broken copies are refused, naming the entry ---------------------------------


def _broken(tmp_path: Path, file: str, change: Callable[[dict[str, Any]], None]) -> DataError:
    copy = tmp_path / "data"
    shutil.copytree(DATA_DIR, copy)
    path = copy / file
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))
    with pytest.raises(DataError) as info:
        load(copy)
    return info.value


def test_the_shipped_data_loads() -> None:
    assert load(DATA_DIR) == T


def test_road_to_nowhere_is_refused(tmp_path: Path) -> None:
    err = _broken(tmp_path, "map.json", lambda d: d["spaces"]["Bangor"]["roads"].append("Atlantis"))
    assert "map.json" in str(err) and "spaces.Bangor" in str(err) and "Atlantis" in str(err)


def test_asymmetric_road_is_refused(tmp_path: Path) -> None:
    err = _broken(tmp_path, "map.json", lambda d: d["spaces"]["Bangor"]["roads"].remove("Conwy"))
    assert err.file.name == "map.json" and err.entry == "spaces.Conwy" and "Bangor" in err.problem


def test_missing_cost_is_refused(tmp_path: Path) -> None:
    err = _broken(tmp_path, "buildings.json", lambda d: d["buildings"]["small_castle"]["cost"].pop("forest"))
    assert str(err).startswith("buildings.json: buildings.small_castle.cost: missing cost on forest")


def test_unknown_terrain_is_refused(tmp_path: Path) -> None:
    err = _broken(tmp_path, "map.json", lambda d: d["spaces"]["Bala"].update(terrain="swamp"))
    assert err.entry == "spaces.Bala" and "swamp" in err.problem


def test_cost_for_an_unknown_terrain_is_refused(tmp_path: Path) -> None:
    err = _broken(tmp_path, "buildings.json", lambda d: d["buildings"]["town"]["cost"].update(swamp=3))
    assert err.entry == "buildings.town.cost.swamp"


def test_dragon_off_the_track_is_refused(tmp_path: Path) -> None:
    err = _broken(tmp_path, "mordred.json", lambda d: d["dragon"].update(value=99))
    assert err.file.name == "mordred.json" and err.entry == "dragon"


def test_missing_face_is_refused(tmp_path: Path) -> None:
    err = _broken(tmp_path, "money.json", lambda d: d["rows"]["B"].pop("4"))
    assert err.entry == "rows.B"


def test_empty_black_box_is_refused(tmp_path: Path) -> None:
    err = _broken(tmp_path, "money.json", lambda d: d["rows"]["C"]["1"].update(money=0))
    assert err.entry == "rows.C.1" and "black box" in err.problem


def test_missing_provenance_is_refused(tmp_path: Path) -> None:
    err = _broken(tmp_path, "combat.json", lambda d: d["buildings"]["town"].pop("source"))
    assert err.entry == "buildings.town" and "source" in err.problem


def test_combat_value_off_the_die_is_refused(tmp_path: Path) -> None:
    err = _broken(tmp_path, "combat.json", lambda d: d["buildings"]["village"].update(attack=7))
    assert err.entry == "buildings.village" and "attack" in err.problem


def test_missing_building_is_refused(tmp_path: Path) -> None:
    err = _broken(tmp_path, "combat.json", lambda d: d["buildings"].pop("town"))
    assert err.entry == "buildings.town" and "missing" in err.problem


def test_space_cut_off_from_anglesey_is_refused(tmp_path: Path) -> None:
    def cut(d: dict[str, Any]) -> None:
        d["spaces"]["StDavids"]["roads"] = []
        d["spaces"]["Haverfordwest"]["roads"].remove("StDavids")

    err = _broken(tmp_path, "map.json", cut)
    assert err.entry == "spaces.StDavids"


def test_anglesey_must_exist(tmp_path: Path) -> None:
    err = _broken(tmp_path, "map.json", lambda d: d.update(anglesey="Avalon"))
    assert err.entry == "anglesey"


def test_wrong_rows_are_refused(tmp_path: Path) -> None:
    err = _broken(tmp_path, "money.json", lambda d: d["rows"].update(D=d["rows"]["A"]))
    assert err.entry == "rows" and all(r in err.problem for r in ROWS)


def test_invalid_json_is_refused(tmp_path: Path) -> None:
    copy = tmp_path / "data"
    shutil.copytree(DATA_DIR, copy)
    (copy / "combat.json").write_text("{ not json")
    with pytest.raises(DataError, match=r"combat\.json: line 1"):
        load(copy)


def test_a_town_priced_on_hills_is_refused(tmp_path: Path) -> None:
    # The rulebook forbids it; a correction to the costs may not lift the rule.
    err = _broken(tmp_path, "buildings.json", lambda d: d["buildings"]["town"]["cost"].update(hills=5))
    assert str(err).startswith("buildings.json: buildings.town.cost.hills: must be null")


def test_a_corrected_value_is_read_without_touching_code(tmp_path: Path) -> None:
    # A player with the box edits the JSON: the loader takes the new values as they are.
    copy = tmp_path / "data"
    shutil.copytree(DATA_DIR, copy)
    money = json.loads((copy / "money.json").read_text())
    money["rows"]["A"]["3"].update(money=4, black=True, source="the box", unverified=False)
    (copy / "money.json").write_text(json.dumps(money))
    track = json.loads((copy / "mordred.json").read_text())
    track["track_length"].update(value=30, unverified=False)
    (copy / "mordred.json").write_text(json.dumps(track))
    fixed = load(copy)
    assert (fixed.money["A"][3].money, fixed.money["A"][3].men) == (4, 4)
    assert fixed.track_length == 30
