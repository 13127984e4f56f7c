"""docs/rulings.md is kept honest: every entry has its words, reading, why
and tests; every test it names exists; every ``ruling:`` pointer in the
code names an entry, and every entry is pointed to from the code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULINGS = ROOT / "docs" / "rulings.md"
POINTER = re.compile(r"ruling: docs/rulings\.md#([a-z0-9-]+)")
FIELDS = ("**Words:**", "**Reading:**", "**Why:**", "**Test:**")


def entries() -> dict[str, str]:
    """Entry id -> its text, from the ``### id`` headings."""
    parts = re.split(r"^### ([a-z0-9-]+)\s*$", RULINGS.read_text(encoding="utf-8"), flags=re.M)
    return {parts[i]: parts[i + 1].split("\n## ")[0] for i in range(1, len(parts), 2)}


def pointers() -> dict[str, list[str]]:
    """Entry id -> the code files that point to it (rules/ and pi_app/)."""
    out: dict[str, list[str]] = {}
    for top in ("rules", "pi_app"):
        for path in sorted((ROOT / top).rglob("*.py")):
            for name in POINTER.findall(path.read_text(encoding="utf-8")):
                out.setdefault(name, []).append(str(path.relative_to(ROOT)))
    return out


def test_every_game_has_its_section() -> None:
    text = RULINGS.read_text(encoding="utf-8")
    for game in ("Siege", "King & Assassins", "The King is Dead", "Mordred", "Artus"):
        assert f"\n## {game}\n" in text, game


@pytest.mark.parametrize("entry", sorted(entries()))
def test_an_entry_says_words_reading_why_and_its_tests(entry: str) -> None:
    body = entries()[entry]
    for field in FIELDS:
        assert field in body, f"{entry}: no {field}"
    tests = re.findall(r"`(tests/[^`:]+)::(test_\w+)`", body.split("**Test:**", 1)[1])
    assert tests, f"{entry}: names no test"
    for file, name in tests:
        path = ROOT / file
        assert path.is_file(), f"{entry}: {file} does not exist"
        assert re.search(rf"^def {name}\(", path.read_text(encoding="utf-8"), flags=re.M), \
            f"{entry}: {file} has no {name}"


def test_every_pointer_in_the_code_names_an_entry() -> None:
    known = set(entries())
    unknown = {name: files for name, files in pointers().items() if name not in known}
    assert not unknown, unknown


def test_every_entry_is_pointed_to_from_the_code() -> None:
    missing = sorted(set(entries()) - set(pointers()))
    assert not missing, f"no code points to: {missing}"
