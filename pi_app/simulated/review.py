"""The demo's review sheet: ``index.html``, every screen of every game
frame by frame, each frame beside the words it says, with the game's
transcript beside the frames, so that a person reviews a game night's
screens at a glance in any browser (no script needed to read it; a small one
counts what loaded, for the test that opens it in Chromium)."""

from __future__ import annotations

import html
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


def write_sheet(out: Path, games: list[SheetGame]) -> Path:
    """``out/index.html`` for ``games``; image paths relative to ``out``."""
    e = html.escape
    parts = ["<!doctype html><html lang='en'><head><meta charset='utf-8'>",
             "<title>Tablekeeper demo: every screen</title>", f"<style>{_STYLE}</style>",
             f"<script>{_SCRIPT}</script></head><body>",
             "<h1>Tablekeeper demo: every screen, frame by frame</h1><nav>"]
    parts += [f"<a href='#{e(g.name)}'>{e(g.title)}</a>" for g in games]
    parts.append("</nav>")
    for g in games:
        frames = sum(len(f) for f in g.screens.values())
        parts.append(f"<section class='game' id='{e(g.name)}' data-game='{e(g.name)}'>"
                     f"<h2>{e(g.title)}</h2><p>{e(g.result)} · {frames} frames · "
                     f"{g.problems} cut or clipped lines · <a href='{e(g.gif)}'>all screens as a GIF</a> · "
                     f"<a href='{e(g.transcript)}'>transcript</a></p>"
                     "<div class='beside'><div class='frames'>")
        for screen, shots in g.screens.items():
            parts.append(f"<details{' open' if screen == 'shared.screen' else ''}>"
                         f"<summary>{e(screen)}: {len(shots)} frames</summary><div class='strip'>")
            for i, (png, words) in enumerate(shots, start=1):
                load = "eager" if i == 1 else "lazy"
                parts.append(f"<figure><img loading='{load}' src='{e(png)}' alt='{e(screen)} frame {i}'>"
                             f"<figcaption>{i}. {e(words)}</figcaption></figure>")
            parts.append("</div></details>")
        transcript = (out / g.transcript).read_text(encoding="utf-8") if (out / g.transcript).exists() else ""
        parts.append(f"</div><pre class='transcript'>{e(transcript)}</pre></div></section>")
    parts.append("</body></html>\n")
    path = out / "index.html"
    path.write_text("".join(parts), encoding="utf-8")
    return path
