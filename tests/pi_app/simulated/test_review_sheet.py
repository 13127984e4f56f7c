"""The demo's review sheet opened in a real browser: Debian's Chromium,
headless, loads index.html, which lists every game, and each game's page,
which shows its frames."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import rules
from pi_app import games as table_games
from pi_app.simulated.demo import Night, review_sheet
from tests.system import need


def _body_and_dom(chromium: str, page: Path, profile: Path) -> tuple[str, str]:
    dom = subprocess.run(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=20000",
         f"--user-data-dir={profile}", "--dump-dom", page.as_uri()],
        capture_output=True, text=True, timeout=120, check=True).stdout
    body = re.search(r"<body[^>]*>", dom)
    assert body is not None, dom[:500]
    assert 'data-loaded="yes"' in body.group(0), body.group(0)
    return body.group(0), dom


def test_the_review_sheet_loads_in_chromium_and_shows_every_game(tmp_path: Path) -> None:
    chromium = need("chromium", "chromium")
    night = Night(tmp_path, seed=2)  # frames saved, as demo --frames does
    games = [g for g in table_games.ADAPTERS if g in rules.GAMES]
    reports = [night.play(g, min(rules.get(g).player_counts)) for g in games]
    sheet = review_sheet(reports, tmp_path)
    body, dom = _body_and_dom(chromium, sheet, tmp_path / "profile")
    assert f'data-games="{len(games)}"' in body, body
    assert "<figure>" not in dom, "the index lists the games; their frames are on their own pages"
    for report in reports:
        assert f'data-game="{report.name}"' in dom and f'href="{report.name}.html"' in dom
        body, page = _body_and_dom(chromium, tmp_path / f"{report.name}.html", tmp_path / "profile")
        assert 'data-broken="0"' in body, body  # every screen's first frame drawn
        for screen, shots in report.screens.items():
            assert shots and f"{screen}: {len(shots)} frames" in page
        assert page.count("<figure>") == sum(len(s) for s in report.screens.values())
