"""A screen whose words take more than one screenful (issue 33): a move to
confirm beside the board reads whole, a page holds whole sentences, and the
page number never stands between a title's lines nor reads as a menu's
choice counter. Checked on the real font's renders."""

from __future__ import annotations

from dataclasses import replace

import pytest

import rules
from pi_app.games.king_and_assassins.adapter import KingAndAssassinsAdapter
from pi_app.session.presentation import ARROWS
from pi_app.ui.screens import SMALL, WIDTH, Layout, plan, problems, render
from rules.king_and_assassins.moves import Arrest, Choose, Draw


def shown(layout: Layout) -> list[list[str]]:
    """Each page's words in reading order (title, big line, small print)."""
    n = plan(layout).pages
    return [[p.text for p in plan(replace(layout, page=i)).placed if p.part not in ("page", "footer")]
            for i in range(n)]


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_move_to_confirm_beside_the_board_reads_whole_on_one_screen(lang: str) -> None:
    # Seen: "King 1 AP, Knights 5" beside the board, then page 1 "Knight 3", page 2 "arrests"...
    adapter = KingAndAssassinsAdapter(2, lang)
    state = rules.get("king-and-assassins").new_game(2, 1, {"side": "A"})
    for move in (Choose(("citizen1", "citizen2", "citizen3")), Draw(1)):
        state.apply(move)
    board = adapter.picture(state, 0, None)
    assert board is not None
    for move in (Arrest("knight3", "citizen8"), Arrest("knight10", "citizen11")):
        text = adapter.move_text(move.to_json(), lang)
        layout = Layout(title=adapter.step_title(state, lang), big=text, lines=("● confirm  1/1",),
                        footer=ARROWS, image=board)
        assert plan(layout).pages == 1, shown(layout)
        assert not problems(layout)
        words = " ".join(" ".join(page) for page in shown(layout))
        assert text in words or " ".join(text.split()) in words
        # the board is left out for the words: no picture's pixels on the left
        assert plan(layout).picture is False
        assert render(layout).tobytes() == render(replace(layout, image=None)).tobytes()


def test_beside_the_board_words_that_fit_keep_the_board() -> None:
    from PIL import Image
    board = Image.new("1", (64, 64), 1)
    layout = Layout(title="Turn", big="End turn", lines=("● confirm  1/1",), footer=ARROWS, image=board)
    assert plan(layout).pages == 1 and plan(layout).picture is True
    assert render(layout).getpixel((10, 10)) == 1


def test_the_page_number_never_stands_between_a_titles_lines() -> None:
    # Seen: "Turn: Assassin / 1/2 / (computer)".
    layout = Layout(title="Turn: Assassin (computer)",
                    lines=("Assassin (computer) has chosen in secret: press ● on its seat",
                           "New game: King & Assassins", "Round 1/15 · 5 action points"))
    where = plan(layout)
    assert where.pages > 1
    for page in range(where.pages):
        placed = plan(replace(layout, page=page)).placed
        marker = next(p for p in placed if p.part == "page")
        assert marker.y == 0, "the page number is on the title's row"
        title = [p for p in placed if p.part == "title"]
        assert title and title[0].y == 0
        if page == 0:
            # the title's rest follows straight under its first line
            first_line = next(p for p in placed if p.part == "line")
            assert first_line.text == "(computer)" and first_line.y <= title[-1].y + SMALL + 3
        assert not problems(replace(layout, page=page))


def test_a_page_holds_whole_sentences_when_each_fits_a_page() -> None:
    # Seen: "Thinks from what its seat" on one page, "sees" on the next.
    layout = Layout(title="Assassin (computer)", big="computer",
                    lines=("Waiting for the others", "Thinks from what its seat sees"))
    pages = shown(layout)
    assert len(pages) == 2
    assert pages[1][-2:] == ["Thinks from what its seat", "sees"]


def test_the_page_number_is_a_tab_not_a_choice_counter() -> None:
    # Seen: the page's "1/3" beside a menu's "● confirm 1/2", read alike.
    layout = Layout(title="A title", big="A long name that takes the small print over two pages "
                    "for sure, with many many words", lines=("● confirm  1/2",), footer=ARROWS)
    where = plan(layout)
    assert where.pages > 1
    marker = next(p for p in where.placed if p.part == "page")
    img = render(layout)
    left, _, right, _ = marker.box
    # inverted: the tab's corners are lit and its digits dark
    assert img.getpixel((left - 1, 0)) == 1 and img.getpixel((min(right, WIDTH - 1), SMALL)) == 1
    lit = sum(img.getpixel((x, y)) for x in range(left, right) for y in range(0, SMALL + 1))
    assert lit > (right - left) * (SMALL + 1) // 2
