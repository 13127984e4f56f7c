"""The demo's review sheet: ``index.html``, one line per game (its result,
its frames, its cut or clipped lines, its GIF and transcript) linking to the
game's own page ``<game>.html``: every screen frame by frame, each frame's
words (and its picture, when the demo saved frames with ``--frames``), with
the game's transcript beside them. The index stays small, so it opens at
once; a game's page holds only that game. Any browser reads them (no script
needed; a small one counts what loaded, for the test that opens them in
Chromium)."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class SheetGame:
    name: str  # the folder of its frames, e.g. "siege-2p"
    title: str  # "Siege, 2 players"
    result: str
    transcript: str  # file name beside index.html
    gif: str
    screens: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # screen -> [(png, words)]
    problems: int = 0


_STYLE = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 1em; background: #f4f4f4; }
nav a { margin-right: 1em; }
section.game { background: #fff; margin: 1em 0; padding: .5em 1em; border-radius: 6px; }
.beside { display: flex; gap: 1em; align-items: flex-start; }
.frames { flex: 3; max-height: 80vh; overflow: auto; }
pre.transcript { flex: 2; max-height: 80vh; overflow: auto; background: #222; color: #ddd;
                 padding: .5em; font-size: 12px; margin: 0; }
.strip { display: flex; flex-wrap: wrap; gap: 6px; }
figure { margin: 0; width: 260px; }
figure img { width: 256px; height: 128px; image-rendering: pixelated; background: #000; }
figcaption { font-size: 11px; white-space: pre-wrap; color: #333; }
"""

_SCRIPT = """
addEventListener('load', () => {
  const eager = [...document.querySelectorAll('img[loading=eager]')];
  document.body.dataset.games = document.querySelectorAll('section.game').length;
  document.body.dataset.broken = eager.filter(i => !(i.complete && i.naturalWidth === 128)).length;
  document.body.dataset.loaded = 'yes';
});
"""


#: the sheet's own words, English and Italian (the games' words are already in the night's language)
WORDS: dict[str, tuple[str, str]] = {
    "night": ("Tablekeeper demo: the night's games", "Dimostrazione di Tablekeeper: le partite della serata"),
    "each": ("Each game's page shows every screen frame by frame beside the game's transcript.",
             "La pagina di ogni partita mostra ogni schermo fotogramma per fotogramma accanto alla sua "
             "trascrizione."),
    "demo": ("Tablekeeper demo", "Dimostrazione di Tablekeeper"),
    "frames": ("frames", "fotogrammi"), "cut": ("cut or clipped lines", "righe tagliate"),
    "gif": ("all screens as a GIF", "tutti gli schermi in una GIF"),
    "transcript": ("transcript", "trascrizione"), "every": ("every game", "tutte le partite"),
    "frame": ("frame", "fotogramma"), "shared": ("shared.screen", "schermo comune"),
    "seat": ("seat{n}.screen", "schermo del giocatore {n}"),
}


def _say(key: str, lang: str) -> str:
    return WORDS[key][1 if lang == "it" else 0]


def _screen(screen: str, lang: str) -> str:
    """A screen as the sheet names it: its id in English (the frames' folder), words in Italian."""
    if lang != "it":
        return screen
    if screen == "shared.screen":
        return _say("shared", lang)
    seat = re.fullmatch(r"seat(\d+)\.screen", screen)
    return _say("seat", lang).format(n=seat.group(1)) if seat else screen


def write_sheet(out: Path, games: list[SheetGame], lang: str = "en") -> Path:
    """``out/index.html`` for ``games`` and one page per game beside it;
    image paths relative to ``out``; the sheet's words in ``lang``."""
    e = html.escape
    parts = [_head(_say("night", lang), lang),
             f"<h1>{e(_say('night', lang))}</h1><p>{e(_say('each', lang))}</p>"]
    for g in games:
        frames = sum(len(f) for f in g.screens.values())
        parts.append(f"<section class='game' id='{e(g.name)}' data-game='{e(g.name)}'>"
                     f"<h2><a href='{e(g.name)}.html'>{e(g.title)}</a></h2>"
                     f"<p>{e(g.result)} · {frames} {_say('frames', lang)} · "
                     f"{g.problems} {_say('cut', lang)} · <a href='{e(g.gif)}'>{_say('gif', lang)}</a> · "
                     f"<a href='{e(g.transcript)}'>{_say('transcript', lang)}</a></p></section>")
        _game_page(out, g, lang)
    parts.append("</body></html>\n")
    path = out / "index.html"
    path.write_text("".join(parts), encoding="utf-8")
    return path


def _head(title: str, lang: str = "en") -> str:
    return (f"<!doctype html><html lang='{lang}'><head><meta charset='utf-8'>"
            f"<title>{html.escape(title)}</title><style>{_STYLE}</style>"
            f"<script>{_SCRIPT}</script></head><body>")


def _game_page(out: Path, g: SheetGame, lang: str = "en") -> Path:
    e = html.escape
    frames = sum(len(f) for f in g.screens.values())
    parts = [_head(f"{_say('demo', lang)}: {g.title}", lang),
             f"<nav><a href='index.html'>{_say('every', lang)}</a></nav>"
             f"<section class='game' data-game='{e(g.name)}'>"
             f"<h2>{e(g.title)}</h2><p>{e(g.result)} · {frames} {_say('frames', lang)} · "
             f"{g.problems} {_say('cut', lang)} · <a href='{e(g.gif)}'>{_say('gif', lang)}</a> · "
             f"<a href='{e(g.transcript)}'>{_say('transcript', lang)}</a></p>"
             "<div class='beside'><div class='frames'>"]
    for screen, shots in g.screens.items():
        name = _screen(screen, lang)
        parts.append(f"<details{' open' if screen == 'shared.screen' else ''}>"
                     f"<summary>{e(name)}: {len(shots)} {_say('frames', lang)}</summary><div class='strip'>")
        for i, (png, words) in enumerate(shots, start=1):
            load = "eager" if i == 1 else "lazy"
            alt = f"{name} {_say('frame', lang)} {i}"
            picture = f"<img loading='{load}' src='{e(png)}' alt='{e(alt)}'>" if png else ""
            parts.append(f"<figure>{picture}<figcaption>{i}. {e(words)}</figcaption></figure>")
        parts.append("</div></details>")
    transcript = (out / g.transcript).read_text(encoding="utf-8") if (out / g.transcript).exists() else ""
    parts.append(f"</div><pre class='transcript'>{e(transcript)}</pre></div></section></body></html>\n")
    path = out / f"{g.name}.html"
    path.write_text("".join(parts), encoding="utf-8")
    return path
