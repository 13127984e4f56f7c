"""Every rulebook section a refusal can name has its English name, and a
screen cites it in the screen's language."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import rules
from pi_app import games
from rules import sections
from rules.core import IllegalMove
from rules.datafile import DataError

GAMES = ("king-is-dead", "king-and-assassins", "mordred", "artus", "siege")


def _quoted(game: str) -> set[str]:
    """Every heading the engine and the adapter quote: the module constants
    named R_* / RULE_*, King is Dead's rule tables and the adapter's turn rule."""
    import importlib
    import pkgutil

    package = importlib.import_module(f"rules.{game.replace('-', '_')}")
    found: set[str] = set()
    names = [package.__name__ + "." + m.name for m in pkgutil.iter_modules(package.__path__)]
    table = importlib.import_module(f"pi_app.games.{game.replace('-', '_')}")  # the game's table code
    names += [f"{table.__name__}.{m.name}" for m in pkgutil.iter_modules(table.__path__)]
    for name in names:
        module = importlib.import_module(name)
        for attr, value in vars(module).items():
            if attr.startswith(("R_", "RULE_")) and isinstance(value, str):
                found.add(value)
            if attr in ("CARD_RULES", "STEP_RULES", "CODE_RULES"):
                found.update(value.values())
    found.add(games.for_game(game, 2 if game != "mordred" else 3, "en").turn_rule)
    return found


@pytest.mark.parametrize("game", GAMES)
def test_every_quoted_section_has_an_english_name(game: str) -> None:
    table = sections.table(game)
    quoted = _quoted(game)
    assert len(quoted) >= 4
    missing = sorted(quoted - set(table))
    assert not missing, f"{game}: sections without an English name: {missing}"
    for heading in quoted:
        italian, english = sections.name(game, heading, "it"), sections.name(game, heading, "en")
        assert italian and english and english != italian, (heading, english, italian)


RULEBOOKS = Path("/work/shared/rulebooks")
BOOKS = {"king-is-dead": "the-king-is-dead", "king-and-assassins": "king-and-assassins",
         "mordred": "mordred", "artus": "artus", "siege": "siege"}


def _printed(name: str, text: str) -> bool:
    """Each part of a section's name ("Advanced Game: Gameplay") is printed in
    ``text``, whatever its case (a heading may run on in its first paragraph)."""
    flat = " ".join(text.split()).lower()
    return all(" ".join(part.split()).lower() in flat for part in name.split(": "))


@pytest.mark.parametrize("game", GAMES)
def test_each_section_is_named_by_a_heading_of_its_rulebook(game: str) -> None:
    """An Italian screen cites a heading the Italian rulebook prints, never an
    English one ("Regola: Gameplay"); Artus's English names are its English
    rulebook's headings."""
    book = RULEBOOKS / f"{BOOKS[game]}.it.txt"
    english_book = Path("/work/shared/reference") / f"{game}.en.txt"
    if not book.is_file():  # the rulebooks are not the project's to ship
        pytest.skip(f"the Italian rulebook {book} is not on this machine")
    italian_text = book.read_text(encoding="utf-8")
    for heading, (english, italian) in sections.table(game).items():
        assert _printed(italian, italian_text), f"{game}: {italian!r} is no heading of {book.name}"
        assert "gameplay" not in italian.lower(), f"{game}: {heading!r} cited in English in Italian"
        if english_book.is_file():
            assert _printed(english, english_book.read_text(encoding="utf-8")), (
                f"{game}: {english!r} is no heading of {english_book.name}")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_refusal_names_the_section_in_the_screens_language(rig, game: str, lang: str) -> None:
    if game not in rules.GAMES:
        pytest.skip(f"{game} not registered")
    r = rig(3 if game == "mordred" else 2)
    s = r.open(game, lang=lang)
    rule = s.scene.adapter.turn_rule
    # a game's refusal: the table's own ("table.*") break no rule and cite none
    s.commit.refuse(0, IllegalMove("game.not-now", rule, what="X"))
    shown = s.scene.seats[0].notice.text()
    expected = sections.table(game)[rule][0 if lang == "en" else 1]
    assert f"{'Rule' if lang == 'en' else 'Regola'}: {expected}" in shown
    assert "Gameplay" not in shown or lang == "en"
    other = sections.table(game)[rule][1 if lang == "en" else 0]
    assert other == expected or other not in shown, "the other language's heading on the screen"
    assert s.scene.transcript[-1].extra["rule"] == expected


def test_siege_hand_limit_cites_the_setup_section_that_states_it() -> None:
    from rules.siege import checks

    source = Path(checks.__file__).read_text(encoding="utf-8")
    cited = {line.split('"siege.hand.full", ')[1].split(",")[0]
             for line in source.splitlines() if '"siege.hand.full"' in line}
    assert cited == {"R_SETUP"}, "the hand limit of 5 is stated in 'Preparazione della Partita', step 4"


def test_a_broken_sections_file_is_refused_with_the_file_and_entry(tmp_path: Path, monkeypatch) -> None:
    pkg = tmp_path / "toy" / "data"
    pkg.mkdir(parents=True)
    (pkg / "sections.json").write_text(json.dumps({"sections": [
        {"it": "Turno", "en": "Turn", "provenance": "x", "unverified": True},
        {"it": "Turno", "en": "", "provenance": "x", "unverified": True}]}, indent=1), encoding="utf-8")
    monkeypatch.setattr(sections, "_RULES_DIR", tmp_path)
    sections.table.cache_clear()
    try:
        with pytest.raises(DataError, match=r"sections.json: sections\[1\]\.Turno: needs a non-empty 'en'"):
            sections.table("toy")
    finally:
        sections.table.cache_clear()


def test_a_broken_sections_file_is_not_read_as_the_italian_heading(tmp_path: Path, monkeypatch) -> None:
    """The screen would cite the Italian heading on an English screen: the
    file's fault is raised with its line instead."""
    pkg = tmp_path / "toy" / "data"
    pkg.mkdir(parents=True)
    (pkg / "sections.json").write_text('{"sections": [\n {"it": "Turno", "en": "Turn",\n', encoding="utf-8")
    monkeypatch.setattr(sections, "_RULES_DIR", tmp_path)
    sections.table.cache_clear()
    try:
        with pytest.raises(DataError) as refused:
            sections.name("toy", "Turno", "en")
        assert refused.value.file == pkg / "sections.json" and refused.value.line == 3
    finally:
        sections.table.cache_clear()
