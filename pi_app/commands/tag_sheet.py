"""A game's enrolment sheet, drawn from its table adapter's components: A4
pages to print, every card and piece in the order `tablekeeper tags enroll`
asks for it, with its number ([12/43] on the screen is 12 on the sheet) and
the sticker it takes. Lay the pieces out on the printed sheet, stick them,
then enrol them in its order. ``tablekeeper tags sheet GAME`` writes it;
hardware/sheets/ holds the five games' sheets (``python -m
pi_app.commands.tag_sheet`` draws them), and a test draws them again, so
they cannot drift from the adapters."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from html import escape
from pathlib import Path

import rules
from pi_app import games as table_games
from pi_app.games.base import Component

SHEETS = Path(__file__).resolve().parents[2] / "hardware" / "sheets"
PAGE_W, PAGE_H = 210, 297  # A4, millimetres (the SVG's user unit)
MARGIN, TOP, ROW_H, COLUMNS = 12, 52, 12.5, 2
WORDS_MM = 2.6  # a component's words: the longest (Siege, Italian) takes 66 of the 74 mm
FONTS = "DejaVu Sans Condensed, DejaVu Sans, sans-serif"
SIZES_Y = 36  # the centre line of the true-size stickers
ROWS = int((PAGE_H - TOP - MARGIN) // ROW_H)


@dataclass(frozen=True)
class Sticker:
    """The round sticker a component takes (hardware/tags.md's table)."""

    mm: int
    what: tuple[str, str]  # (english, italian)


CARD = Sticker(25, ("card: round 25 mm on the back", "carta: tonda 25 mm sul retro"))
TOKEN = Sticker(20, ("token: round 20 mm underneath", "segnalino: tondo 20 mm sotto"))
SMALL = Sticker(12, ("small piece: round 12 mm under the base", "pezzo piccolo: tondo 12 mm sotto la base"))

WORDS = {
    "title": ("Tags of {game}: {total} stickers, enrolled in this order",
              "Tag di {game}: {total} adesivi, registrati in quest'ordine"),
    "how": ("Stick each piece, lay it on its number, then: tablekeeper tags enroll {game} "
            "--table /etc/tablekeeper/table.toml --state-dir /var/lib/tablekeeper",
            "Attacca ogni pezzo, posalo sul suo numero, poi: tablekeeper tags enroll {game} "
            "--table /etc/tablekeeper/table.toml --state-dir /var/lib/tablekeeper"),
    "page": ("page {n} of {of}", "pagina {n} di {of}"),
    "sizes": ("Stickers at their real size:", "Adesivi a grandezza reale:"),
}


def sticker(comp: Component) -> Sticker:
    if "card" in comp.kind:
        return CARD
    if "token" in comp.kind:
        return TOKEN
    return SMALL  # cubes, buildings, figures


def entries(game: str, players: int, lang: str) -> list[tuple[str, str, Sticker]]:
    """(the numbers, the words, the sticker) of each component, in enrolment order."""
    adapter = table_games.for_game(game, players, lang)
    rows = []
    n = 0
    for comp in adapter.components():
        first, n = n + 1, n + comp.count
        numbers = str(first) if comp.count == 1 else f"{first}-{n}"
        words = adapter.enroll_prompt(comp, lang) + (f" (×{comp.count})" if comp.count > 1 else "")
        rows.append((numbers, words, sticker(comp)))
    return rows


def pages(game: str, players: int, lang: str = "en") -> list[str]:
    """The sheet's A4 pages as SVG documents."""
    rows = entries(game, players, lang)
    total = sum(int(num.split("-")[-1]) - int(num.split("-")[0]) + 1 for num, _, _ in rows)
    per_page = ROWS * COLUMNS
    count = max(1, -(-len(rows) // per_page))
    i = 1 if lang == "it" else 0
    sizes = sorted({s for _, _, s in rows}, key=lambda s: -s.mm)
    out = []
    for p in range(count):
        svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{PAGE_W}mm" height="{PAGE_H}mm" '
               f'viewBox="0 0 {PAGE_W} {PAGE_H}" font-family="{FONTS}" font-size="3">',
               f'<rect width="{PAGE_W}" height="{PAGE_H}" fill="white"/>',
               f'<text x="{MARGIN}" y="{MARGIN + 3}" font-size="5" font-weight="bold">'
               f'{escape(WORDS["title"][i].format(game=game, total=total))}</text>',
               f'<text x="{MARGIN}" y="{MARGIN + 9}" font-size="2.4">'
               f'{escape(WORDS["how"][i].format(game=game))}</text>',
               f'<text x="{PAGE_W - MARGIN}" y="{MARGIN + 3}" text-anchor="end">'
               f'{escape(WORDS["page"][i].format(n=p + 1, of=count))}</text>',
               f'<text x="{MARGIN}" y="{SIZES_Y + 1}">{escape(WORDS["sizes"][i])}</text>']
        x = MARGIN + 45.0
        for s in sizes:  # true size, to hold the stickers bought against
            svg.append(f'<circle cx="{x + s.mm / 2}" cy="{SIZES_Y}" r="{s.mm / 2}" fill="none" '
                       'stroke="black" stroke-width="0.3"/>')
            svg.append(f'<text x="{x + s.mm / 2}" y="{SIZES_Y + 1}" text-anchor="middle" font-size="2.4">'
                       f'{s.mm} mm</text>')
            x += s.mm + 6
        col_w = (PAGE_W - 2 * MARGIN) / COLUMNS
        for k, (numbers, words, s) in enumerate(rows[p * per_page:(p + 1) * per_page]):
            cx = MARGIN + (k // ROWS) * col_w
            y = TOP + (k % ROWS) * ROW_H
            svg.append(f'<rect x="{cx}" y="{y}" width="{col_w - 2}" height="{ROW_H - 1.5}" rx="1.5" '
                       'fill="none" stroke="#888" stroke-width="0.25"/>')
            svg.append(f'<text x="{cx + 2}" y="{y + 5}" font-size="4" font-weight="bold">'
                       f'{escape(numbers)}</text>')
            svg.append(f'<text x="{cx + 17}" y="{y + 4.5}" font-size="{WORDS_MM}">{escape(words)}</text>')
            svg.append(f'<text x="{cx + 17}" y="{y + 8.5}" font-size="2.3" fill="#555">'
                       f'{escape(s.what[i])}</text>')
        svg.append("</svg>")
        out.append("\n".join(svg) + "\n")
    return out


def write(game: str, players: int, lang: str, into: Path) -> list[Path]:
    """The sheet's pages as ``GAME-N.svg`` (``GAME-it-N.svg`` in Italian) in ``into``."""
    into.mkdir(parents=True, exist_ok=True)
    stem = game if lang == "en" else f"{game}-{lang}"
    written = []
    for n, svg in enumerate(pages(game, players, lang), 1):
        path = into / f"{stem}-{n}.svg"
        path.write_text(svg)
        written.append(path)
    return written


def main() -> int:
    """hardware/sheets/: the five games' sheets at the most players, in English."""
    for old in SHEETS.glob("*.svg"):
        old.unlink()
    for game in rules.GAMES:
        for path in write(game, max(rules.get(game).player_counts), "en", SHEETS):
            print(f"written: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
