"""The kept text widths, line bitmaps and board ground give exactly what
measuring and drawing afresh gives: same wraps, same pixels."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

import rules
from pi_app.games.king_and_assassins import board
from pi_app.session import presentation
from pi_app.ui import screens
from pi_app.ui.screens import BIG_SIZES, SMALL, WIDTH, Layout, font, render, wrap

FONTS = [font(size, bold=True) for size in BIG_SIZES] + [font(SMALL), font(SMALL, bold=True)]
PI_APP = Path(screens.__file__).resolve().parent
# Every character the table's words can hold: ASCII, Italian's accents and
# whatever else the adapters and translations write (arrows, pounds, ±...).
CHARS = sorted({chr(c) for c in range(33, 127)} | set("àèéìòóùÀÈÉÌÒÙ")
               | {ch for path in PI_APP.rglob("*.py") for ch in path.read_text(encoding="utf-8")
                  if ord(ch) > 127 and ch.isprintable() and not ch.isspace()})
WORDS = ("Move", "King+crown", "3→4;", "ring", "on", "Sir Gawain", "(seat", "2)", "£14,", "±0", "Prestige",
         "Llandovery,", "Caerleon", "Din", "Eidyn", "P2:-17", "bump", "Kn±1-5:", "nuovo", "Re!", "più",
         "◀", "●", "▶", "·", "−3", "Wales", "draws", "a", "card", "Ready:", "E5→D5",
         "Supercalifragilisticexpialidocious-and-then-some")


def reference_wrap(text: str, f: screens.ImageFont.FreeTypeFont, width: int) -> list[str]:
    """Greedy wrap measuring every trial line whole, as before widths were kept."""
    out: list[str] = []
    for para in text.split("\n"):
        line = ""
        for word in para.split():
            trial = f"{line} {word}".strip()
            if f.getlength(trial) <= width:
                line = trial
                continue
            if line:
                out.append(line)
            while f.getlength(word) > width and len(word) > 1:
                cut = len(word)
                while cut > 1 and f.getlength(word[:cut]) > width:
                    cut -= 1
                joint = max(word.rfind("/", 0, cut - 1), word.rfind("-", 0, cut - 1))  # a compound's joint
                cut = joint + 1 if joint > 0 else cut
                out.append(word[:cut])
                word = word[cut:]
            line = word
        out.append(line)
    return out


@pytest.mark.parametrize("f", FONTS, ids=lambda f: f"{f.size}{'b' if 'Bold' in f.path else ''}")
def test_no_glyph_kerns_against_a_space(f: screens.ImageFont.FreeTypeFont) -> None:
    # What makes a line's width the sum of its words' and spaces'.
    space = f.getlength(" ")
    bad = [ch for ch in CHARS if f.getlength(f"{ch} ") != f.getlength(ch) + space
           or f.getlength(f" {ch}") != space + f.getlength(ch)]
    assert not bad, f"{f.path} at {f.size}: these kern against a space: {bad}"


def test_wraps_from_kept_widths_equal_wraps_measured_whole() -> None:
    rng = random.Random(7)
    texts = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 14))) for _ in range(16)]
    texts += ["", "one\ntwo  three\n\nfour", "x" * 60, "Take the cards shown on your screen"]
    for text in texts:
        for f in FONTS:
            for width in (WIDTH - 2, 62, 20):
                expected = reference_wrap(text, f, width)
                assert wrap(text, f, width) == expected, (text, f.size, width)
                assert wrap(text, f, width) == expected  # and again, from kept widths


def drawn(x: float, y: int, text: str, f: screens.ImageFont.FreeTypeFont, ink: int,
          kept: bool) -> bytes:
    img = Image.new("1", (WIDTH, 64), 1 - ink)
    if kept:
        screens._text(img, x, y, text, f, ink)
    else:
        ImageDraw.Draw(img).text((x, y), text, font=f, fill=ink)
    return img.tobytes()


@pytest.mark.parametrize("x,y", [(1, 0), (1, -2), (37.5, 51), (64.25, 20), (100, 40)])
def test_kept_line_bitmaps_draw_what_drawing_afresh_draws(x: float, y: int) -> None:
    for text in ("Your turn: play or pass", "Place blue in Din Eidyn", "◀   ●   ▶", "Ágj £14 ±0 →", ""):
        for f in FONTS:
            for ink in (1, 0):
                fresh = drawn(x, y, text, f, ink, kept=False)
                assert drawn(x, y, text, f, ink, kept=True) == fresh, (text, f.size, x, y, ink)
                assert drawn(x, y, text, f, ink, kept=True) == fresh  # from the kept bitmap


def test_a_frame_drawn_twice_is_the_same() -> None:
    lay = Layout(title="Refused: not your turn", big="Place blue in Din Eidyn", lines=("Region 2/8",),
                 footer="◀   ●   ▶", alert=True)
    screens._line_bitmap.cache_clear()
    first = render(lay).tobytes()
    assert render(lay).tobytes() == first


def ka_views() -> list[dict]:
    game = rules.get("king-and-assassins")
    state = game.new_game(2, 3)
    rng = random.Random(3)
    views = []
    for _ in range(40):
        if state.outcome() is not None:
            break
        state.apply(state.sample_chance() if state.is_chance() else rng.choice(state.legal_moves()))
        views.append(state.view(len(views) % 2))
    return views


def pixels(img: Image.Image) -> bytes:
    return img.tobytes()


def test_boards_kept_equal_boards_drawn_afresh() -> None:
    views = ka_views()
    assert len(views) > 10
    for view in views:
        focus = [p["cell"] for p in view["pieces"].values()][:2]
        board._ground.cache_clear()
        board._board.cache_clear()
        plain = pixels(board.draw_board(view))
        board._board.cache_clear()
        focused = pixels(board.draw_board(view, focus=focus))  # on the kept ground
        assert focused != plain
        board._ground.cache_clear()
        board._board.cache_clear()
        assert pixels(board.draw_board(view, focus=focus)) == focused
        assert pixels(board.draw_board(view, focus=focus)) == focused  # the kept board
        board._board.cache_clear()
        assert pixels(board.draw_board(view)) == plain  # the ground kept as it was
        mine = board.draw_board(view)
        mine.putpixel((0, 0), 1 - mine.getpixel((0, 0)))  # a caller's copy is its own
        assert pixels(board.draw_board(view)) == plain


def test_the_caches_are_bounded() -> None:
    for cache in (screens._width, screens._wrapped, screens._fitted, screens._line_bitmap, board._ground,
                  board._board):
        assert cache.cache_info().maxsize is not None


def test_a_kept_wrap_is_not_changed_by_its_caller() -> None:
    f = font(SMALL)
    lines = wrap("Place a Knight on an empty seat", f, 60)
    lines.append("changed")
    assert wrap("Place a Knight on an empty seat", f, 60) == lines[:-1]
    size, big = screens.fit_big("Place a Knight on an empty seat", 40)
    big.append("changed")
    assert screens.fit_big("Place a Knight on an empty seat", 40) == (size, big[:-1])


def frame_layouts() -> list[Layout]:
    """Menus, waiting screens, refusals, pages and boards, some differing
    only in their picture (equal hashes, other pixels)."""
    out = [Layout(title="Play a card", big=big, lines=(f"Card  {i}/4",), footer="◀   ●   ▶")
           for i, big in enumerate(("Merlin", "Sir Gawain", "Place blue in Din Eidyn", "← Back"), 1)]
    out += [Layout(title="Waiting for Player 2", big="Merlin, Morgan", lines=("Prestige 7",)),
            Layout(title="Refused: not your turn", lines=("Wait for Player 3",), alert=True),
            Layout(title="Scores", lines=tuple(f"Player {i}: {i * 7} prestige" for i in range(9)), page=1)]
    for view in ka_views()[:6]:
        out.append(Layout(title="Your move", big="Knight 3", lines=("E5→D5",), footer="◀   ●   ▶",
                          image=board.draw_board(view)))
    return out


def test_a_kept_frame_is_the_frame_drawn_afresh() -> None:
    presentation._kept_frame.cache_clear()
    layouts = frame_layouts()
    assert len({hash(lay) for lay in layouts}) < len(layouts)  # pictures alone do not hash apart
    for _ in range(2):  # drawn, then kept
        for lay in layouts:
            assert pixels(presentation.frame(lay)) == pixels(render(lay)), lay.text()
    assert presentation._kept_frame.cache_info().misses == len(set(layouts))  # one drawing each


def test_a_kept_frame_is_not_changed_by_its_caller() -> None:
    lay = frame_layouts()[0]
    mine = presentation.frame(lay)
    mine.putpixel((0, 0), 1 - mine.getpixel((0, 0)))
    assert pixels(presentation.frame(lay)) == pixels(render(lay))


def test_the_kept_frames_are_bounded() -> None:
    presentation._kept_frame.cache_clear()
    assert presentation._kept_frame.cache_info().maxsize == presentation.FRAMES_KEPT
    for i in range(presentation.FRAMES_KEPT + 20):
        presentation.frame(Layout(title=f"Waiting for Player {i}"))
    assert presentation._kept_frame.cache_info().currsize == presentation.FRAMES_KEPT


def reference_fit(text: str, room: int, max_lines: int, width: int) -> tuple[int, list[str]]:
    """fit_big as it was: every size's whole wrap, then the check."""
    for size in BIG_SIZES:
        lines = wrap(text, font(size, bold=True), width)
        if len(lines) <= max_lines and len(lines) * (size + 1) <= room:
            return size, lines
    size = BIG_SIZES[-1]
    return size, wrap(text, font(size, bold=True), width)[: max(1, room // (size + 1))]


def test_a_fit_that_stops_wrapping_early_is_the_fit_of_the_whole_wraps() -> None:
    rng = random.Random(5)
    texts = ["", "Merlin", "Supercalifragilisticexpialidocious-and-then-some twice over",
             "Move Sir Gawain from seat 3 to seat 5\nthen bump the King"]
    texts += [" ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 24))) for _ in range(300)]
    for text in texts:
        for room in (-3, 0, 11, 12, 29, 40, 52, 64):
            for max_lines in (1, 2, 3):
                for width in (60, 126):
                    screens._fitted.cache_clear()
                    assert screens.fit_big(text, room, max_lines, width) == \
                        reference_fit(text, room, max_lines, width), (text, room, max_lines, width)


@pytest.mark.parametrize("bold", [False, True])
def test_no_character_inks_small_print_deeper_than_its_line_allows(bold: bool) -> None:
    # What lets a plan skip measuring (rendering) a line far from the bar.
    deepest = max(CHARS, key=lambda ch: screens._ink_bottom(ch, 0, SMALL, bold))
    assert screens._ink_bottom(deepest, 0, SMALL, bold) <= screens._SMALL_DEPTH, deepest


def test_a_plan_renders_the_lines_it_draws_not_every_line_it_pages() -> None:
    # pages of small print: the later pages' lines are not drawn on the first
    lines = tuple(f"Line {n}: Garrison {n}, Ambassador {n}, Settlement {n}" for n in range(14))
    layout = Layout(title="Waiting: Player 2", big="Court: 1 blue", lines=lines)
    screens._line_bitmap.cache_clear()
    screens.plan.cache_clear()
    where = screens.plan(layout)
    assert where.pages >= 3
    rendered = screens._line_bitmap.cache_info().currsize
    wrapped = sum(len(wrap(text, font(SMALL), WIDTH - 2)) for text in lines)
    assert rendered < wrapped  # was every line, measured whether drawn or not
    assert render(layout).tobytes() == render(layout).tobytes()
