"""The board and round-card data: what it holds, and broken copies refused with a clear error."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rules.king_and_assassins.data import (
    BOARDS,
    BOARDS_FILE,
    CARDS_FILE,
    ROUND_CARDS,
    DataError,
    load_boards,
    load_cards,
)


def test_side_a_matches_the_reference() -> None:
    a = BOARDS["A"]
    assert (len(a.rows), a.cols) == (10, 10)
    assert a.rows[0] == "RRRRRGGRRR" and a.rows[9] == "RRGGGGGGGG"
    assert [a.name(s.king) for s in a.starts] == ["J10"]
    assert {a.name(c) for c in a.starts[0].knights} == {"D2", "A4", "I8", "H9", "I9", "J9", "I10"}
    assert [(a.name(g.cell), g.dir) for g in a.gates] == [("C3", "N"), ("B5", "W")]
    assert a.unverified


def test_side_b_is_marked_unverified_and_has_two_starts() -> None:
    b = BOARDS["B"]
    assert b.unverified and "placeholder" in b.source
    assert len(b.starts) == 2 and len(b.knights) == 2
    assert all(len(s.knights) == 5 for s in b.starts)


def test_round_cards_match_the_reference() -> None:
    assert len(ROUND_CARDS) == 15
    table = [(c.king, c.knights, c.handcuffs, c.assassins) for c in ROUND_CARDS.values()]
    assert table[0] == (1, 6, True, 5) and table[6] == (2, 7, False, 5) and table[11] == (2, 5, False, 4)
    assert sum(c.handcuffs for c in ROUND_CARDS.values()) == 7
    assert sum(c.red_crystal for c in ROUND_CARDS.values()) == 1
    assert all(c.unverified for c in ROUND_CARDS.values())


def _broken(tmp_path: Path, source: Path, change: Callable[[Any], None]) -> Path:
    data = json.loads(source.read_text(encoding="utf-8"))
    change(data)
    out = tmp_path / source.name
    out.write_text(json.dumps(data), encoding="utf-8")
    return out


def _side(data: Any, side: str = "A") -> Any:
    return next(s for s in data["sides"] if s["side"] == side)


@pytest.mark.parametrize(
    ("change", "entry", "problem"),
    [
        (lambda d: _side(d)["starts"][0].update(king="A1"), "side A starts[0]", "must start on a street"),
        (lambda d: _side(d)["citizens"].pop(), "side A citizens", "list of 12 cells"),
        (lambda d: _side(d)["citizens"].__setitem__(0, "K1"), "side A citizens", "not a cell"),
        (
            lambda d: _side(d)["citizens"].__setitem__(0, "J9"),
            "side A starts[0]",
            "more than one piece on J9",
        ),
        (lambda d: _side(d)["gates"][0].update(cell="D4"), "side A gates[0]", "not the street D3"),
        (lambda d: _side(d)["gates"][0].update(cell="A1"), "side A gates[0]", "a gate is a street cell"),
        (lambda d: _side(d)["rows"].__setitem__(3, "RGGGXGGGGG"), "side A row 4", "letters R or G"),
        (lambda d: _side(d, "B")["starts"][1]["knights"].pop(), "side B starts[1] knights", "list of 5"),
        (lambda d: _side(d).pop("source"), "side A", "missing field 'source'"),
        (lambda d: d["sides"].pop(), "sides", "side B is missing"),
    ],
)
def test_broken_board_file_is_refused(
    tmp_path: Path, change: Callable[[Any], None], entry: str, problem: str
) -> None:
    path = _broken(tmp_path, BOARDS_FILE, change)
    with pytest.raises(DataError) as exc:
        load_boards(path)
    assert str(exc.value).startswith(f"boards.json: {entry}: "), str(exc.value)
    assert problem in str(exc.value)


@pytest.mark.parametrize(
    ("change", "entry", "problem"),
    [
        (lambda d: d["cards"].pop(), "cards", "list of 15"),
        (lambda d: d["cards"][3].update(id=1), "card 1", "listed twice"),
        (lambda d: d["cards"][3].update(knights=-1), "card 4", "whole number 0-9"),
        (lambda d: d["cards"][3].update(handcuffs="yes"), "card 4", "true or false"),
        (lambda d: d["cards"][3].update(red_crystal=True), "cards", "exactly one card bears the red crystal"),
        (lambda d: d["cards"][3].pop("unverified"), "card 4", "missing field 'unverified'"),
    ],
)
def test_broken_cards_file_is_refused(
    tmp_path: Path, change: Callable[[Any], None], entry: str, problem: str
) -> None:
    path = _broken(tmp_path, CARDS_FILE, change)
    with pytest.raises(DataError) as exc:
        load_cards(path)
    assert str(exc.value).startswith(f"round_cards.json: {entry}: "), str(exc.value)
    assert problem in str(exc.value)


def test_unreadable_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "boards.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(DataError, match=r"boards\.json: line 1: not valid JSON"):
        load_boards(path)


def test_shipped_files_load_again() -> None:
    assert load_boards() == BOARDS and load_cards() == ROUND_CARDS
