"""The night's report as one self-contained HTML file, from several journals
(``tablekeeper demo`` plays each game in a journal of its own)."""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources
from pathlib import Path

from pi_app.web import pages
from pi_app.web.source import Source
from pi_app.web.story import Story
from pi_app.web.words import w


def stories(journals: Sequence[Path], lang: str) -> list[Story]:
    """Every game of every journal, in order; a journal that cannot be read is left out."""
    out: list[Story] = []
    for path in journals:
        source = Source(path, lang)
        try:
            source.refresh()
            out += source.stories()
        finally:
            source.close()
    return out


def write(path: Path, journals: Sequence[Path], lang: str) -> Path:
    style = (resources.files("pi_app.web") / "static" / "style.css").read_text(encoding="utf-8")
    body = pages.night_report(stories(journals, lang), lang)
    path.write_text(pages.shell(w("night-report", lang), body, lang, style=style), encoding="utf-8")
    return path
