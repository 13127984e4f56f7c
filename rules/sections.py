"""The rulebook sections a refusal names, in the reader's language.

Engines quote the Italian heading as printed (``IllegalMove.rule``): it is
the original, and the one a player with the Italian rulebook looks up. Each
game keeps the headings it quotes in ``data/sections.json`` with their
English names (Artus's from its English rulebook, the others translated and
marked ``unverified``), so an English screen cites an English section.
Where the Italian rulebook prints a heading in English ("GAMEPLAY") or has
none, the entry's ``name_it`` is the Italian heading of the rulebook that an
Italian screen cites instead (the quoted heading stays the key journals keep;
ruling: docs/rulings.md#artus-italian-section-names).
A broken file is refused with its line when ``rules`` registers the games,
as every other data file is: never a silent fall back to the Italian.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from rules.catalogue import LANGS
from rules.datafile import DataError, read_json

_RULES_DIR = Path(__file__).resolve().parent


def _package(game_id: str) -> str:
    return game_id.replace("-", "_")


@cache
def table(game_id: str) -> dict[str, tuple[str, str]]:
    """Italian heading -> (english, italian) for one game; DataError naming
    the file and entry when the file is broken."""
    return load(_RULES_DIR / _package(game_id) / "data" / "sections.json")


def load(path: Path) -> dict[str, tuple[str, str]]:
    """One ``sections.json`` read and checked (DataError with file and line)."""
    doc = read_json(path)
    entries = doc.get("sections") if isinstance(doc, dict) else None
    if not isinstance(entries, list):
        raise DataError(path, "sections", "must be a list of {it, en, provenance, unverified, name_it?}")
    out: dict[str, tuple[str, str]] = {}
    for i, entry in enumerate(entries):
        where = f"sections[{i}]"
        if not isinstance(entry, dict):
            raise DataError(path, where, "must be an object")
        for key in ("it", "en", "provenance"):
            if not isinstance(entry.get(key), str) or not entry[key].strip():
                raise DataError(path, f"{where}.{entry.get('it', key)}", f"needs a non-empty {key!r}")
        if not isinstance(entry.get("unverified"), bool):
            raise DataError(path, f"{where}.{entry['it']}", "needs 'unverified': true or false")
        italian = entry.get("name_it", entry["it"])
        if not isinstance(italian, str) or not italian.strip():
            raise DataError(path, f"{where}.{entry['it']}", "'name_it' must be a non-empty string")
        if entry["it"] in out:
            raise DataError(path, f"{where}.{entry['it']}", "is listed twice")
        out[entry["it"]] = (entry["en"], italian)
    return out


def name(game_id: str, rule: str, lang: str) -> str:
    """``rule`` (an Italian heading) as the section is called in ``lang``;
    a heading the table lacks is given as quoted (a test keeps that from
    happening). A broken table raises its DataError; a game from outside
    this package (a test's) has no table and is quoted as it is."""
    if not rule:
        return ""
    if not (_RULES_DIR / _package(game_id)).is_dir():
        return rule
    pair = table(game_id).get(rule)
    if pair is None:
        return rule
    return pair[LANGS.index(lang) if lang in LANGS else 0]
