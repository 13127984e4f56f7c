"""The enrolment sheets (pi_app/commands/tag_sheet.py): hardware/sheets/ is what the adapters
draw, every piece is numbered as `tags enroll` counts it, and no words run out of their box."""

from __future__ import annotations

import re

import pytest
from PIL import ImageFont

import rules
from pi_app import games as table_games
from pi_app.commands import tag_sheet
from pi_app.ui.screens import FONT_DIR

GAMES = list(rules.GAMES)


def test_the_committed_sheets_are_the_ones_the_adapters_draw(tmp_path) -> None:
    for game in GAMES:
        tag_sheet.write(game, max(rules.get(game).player_counts), "en", tmp_path)
    drawn = {p.name: p.read_text() for p in tmp_path.glob("*.svg")}
    committed = {p.name: p.read_text() for p in tag_sheet.SHEETS.glob("*.svg")}
    assert committed == drawn, (
        "hardware/sheets is out of date: run .venv/bin/python -m pi_app.commands.tag_sheet")


@pytest.mark.parametrize("game", GAMES)
def test_the_numbers_are_enrolls_one_to_the_last(game: str) -> None:
    players = max(rules.get(game).player_counts)
    comps = table_games.for_game(game, players, "en").components()
    numbers = [n for num, _, _ in tag_sheet.entries(game, players, "en") for n in _span(num)]
    assert numbers == list(range(1, sum(c.count for c in comps) + 1))
    svg = "".join(tag_sheet.pages(game, players, "en"))
    assert f"{len(numbers)} stickers" in svg


def _span(numbers: str) -> range:
    first, _, last = numbers.partition("-")
    return range(int(first), int(last or first) + 1)


@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("game", GAMES)
def test_no_words_run_out_of_their_box(game: str, lang: str) -> None:
    """Measured with the condensed DejaVu the sheet asks for, with a tenth to spare (a printer
    that falls back to the wider DejaVu Sans)."""
    font = ImageFont.truetype(str(FONT_DIR / "DejaVuSansCondensed.ttf"), 100)
    column = (tag_sheet.PAGE_W - 2 * tag_sheet.MARGIN) / tag_sheet.COLUMNS - 2
    for page in tag_sheet.pages(game, max(rules.get(game).player_counts), lang):
        for x, size, words in re.findall(r'<text x="([\d.]+)" y="[\d.]+" font-size="([\d.]+)"[^>]*>([^<]+)<',
                                         page):
            width = font.getlength(words.replace("&#x27;", "'").replace("&amp;", "&")) / 100 * float(size)
            right = float(x) + width * 1.1
            if float(x) < tag_sheet.MARGIN + column:  # the left column, or a heading
                limit = (tag_sheet.MARGIN + column if float(x) > tag_sheet.MARGIN + 1
                         else tag_sheet.PAGE_W - tag_sheet.MARGIN / 2)
            else:
                limit = tag_sheet.PAGE_W - tag_sheet.MARGIN
            assert right <= limit, f"{game} ({lang}): {words!r} ends at {right:.0f} mm, past {limit:.0f} mm"
