"""Letters stay apart at every size the screens use (issue 33: "End turn"
read "End tum" and the small print's "wins" read "wirs"): drawn as the
screens draw them, at every sub-pixel start, an "r" leaves a blank column
before the "n" after it, and an "n" is one stroke (its arch joins both
stems, also set in a word), so that "rn" never reads as "m", nor "n" as "r" and an "i"."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops

from pi_app.ui.screens import BIG_SIZES, SMALL, _line_bitmap, font

#: (size, bold) of every face the screens set text in
FACES = [(SMALL, False), (SMALL, True), *((size, True) for size in BIG_SIZES)]
STARTS = (0.0, 0.25, 0.5, 0.75)


def drawn(text: str, size: int, bold: bool, start: float) -> Image.Image:
    """``text``'s ink at its place on a canvas, as the screens draw a line."""
    glyphs, (ox, oy) = _line_bitmap(text, font(size, bold), start)
    canvas = Image.new("1", (glyphs.width + 64, glyphs.height + 64), 0)
    canvas.paste(glyphs, (32 - ox, 32 - oy))
    return canvas


def components(img: Image.Image) -> int:
    """How many strokes ``img`` inks (pixels touching at a side or a corner)."""
    px, (w, h) = img.load(), img.size
    seen: set[tuple[int, int]] = set()
    count = 0
    for x in range(w):
        for y in range(h):
            if px[x, y] and (x, y) not in seen:
                count += 1
                todo = [(x, y)]
                seen.add((x, y))
                while todo:
                    a, b = todo.pop()
                    for c, d in ((a + i, b + j) for i in (-1, 0, 1) for j in (-1, 0, 1)):
                        if 0 <= c < w and 0 <= d < h and px[c, d] and (c, d) not in seen:
                            seen.add((c, d))
                            todo.append((c, d))
    return count


@pytest.mark.parametrize(("size", "bold"), FACES)
@pytest.mark.parametrize("start", STARTS)
def test_an_r_leaves_a_blank_column_before_an_n(size: int, bold: bool, start: float) -> None:
    for word, r_part in (("rn", "r"), ("turn", "tur"), ("modern", "moder")):
        whole, head = drawn(word, size, bold, start), drawn(r_part, size, bold, start)
        tail = ImageChops.logical_and(whole, ImageChops.invert(head.convert("L")).convert("1"))
        head_box, tail_box = head.getbbox(), tail.getbbox()
        assert head_box is not None and tail_box is not None
        assert tail_box[0] - head_box[2] >= 1, f"{word!r} at {size} px: the r touches the n"
    assert drawn("rn", size, bold, start).tobytes() != drawn("m", size, bold, start).tobytes()


@pytest.mark.parametrize(("size", "bold"), FACES)
@pytest.mark.parametrize("start", STARTS)
def test_an_n_is_one_stroke(size: int, bold: bool, start: float) -> None:
    for word in ("n", "wins", "in"):
        n = drawn(word[word.index("n"):word.index("n") + 1], size, bold, start) if word == "n" else None
        img = n if n is not None else drawn(word, size, bold, start)
        if n is None:  # the n alone, cut out of the word: the ink right of what comes before it
            head = drawn(word[:word.index("n")], size, bold, start)
            rest = drawn(word[:word.index("n") + 1], size, bold, start)
            img = ImageChops.logical_and(rest, ImageChops.invert(head.convert("L")).convert("1"))
        box = img.getbbox()
        assert box is not None
        img = img.crop(box)
        assert components(img) == 1, f"{word!r} at {size} px: the n's arch is cut from a stem"
    for letter in ("m", "u"):
        assert components(drawn(letter, size, bold, start)) == 1, f"{letter!r} at {size} px is broken"
