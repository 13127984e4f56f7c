"""Every screen of a whole game speaks the table's language: no Italian word
on an English screen, no English word on an Italian one, and neither screens
nor transcript show an internal id or a fault of tests/words.py (the demo's
games, as `tablekeeper demo` plays them)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import rules
from pi_app.simulated.demo import Night
from tests.words import faults

GAMES = [g for g in ("king-is-dead", "king-and-assassins", "mordred", "artus", "siege") if g in rules.GAMES]
# Words of one language only: its short function words and the table's own words.
ONLY = {
    "en": r"\b(the|of|and|your|Player|Turn|Rule|card|cards|Waiting|Tap|confirm|back|Attacker|Defender|Knight|"
          r"Citizen|North|South|West|East|draws|plays|discards|Day|Game over|wins|Winner)\b",
    "it": r"\b(il|della|delle|dei|degli|che|per|con|nel|nella|sul|sulla|Giocatore|Turno|Regola|carta|carte|"
          r"Tocca|Conferma|Indietro|Attaccante|Difensore|Assassino|Cavaliere|Cittadino|Nord|Sud|Ovest|pesca|"
          r"gioca|scarta|Evento|Giorno|Fine partita|Partita|vince)\b",
}


@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("game", GAMES)
def test_no_word_of_the_other_language_on_any_screen(tmp_path: Path, game: str, lang: str) -> None:
    night = Night(tmp_path, lang=lang)
    g, players, options = max(night.games(game), key=lambda c: (c[1], len(c[2])))
    report = night.play(g, players, options)
    said = "\n".join(words for shots in report.screens.values() for _, words in shots)
    assert re.search(ONLY[lang], said), "the check would find nothing: the words are not the screens'"
    other = ONLY["it" if lang == "en" else "en"]
    found = sorted({m.group(0) for m in re.finditer(other, said)})
    lines = [line for line in said.splitlines() if re.search(other, line)]
    assert not found, (found, lines[:5])
    # and nothing else a player must not read: ids, short forms, the faults of issue 33
    transcript = (tmp_path / f"{report.name}.transcript.txt").read_text(encoding="utf-8").splitlines()[1:]
    bad = {fault: line for line in [*said.splitlines(), *transcript] for fault in faults(line, lang)}
    assert not bad, list(bad.items())[:10]
