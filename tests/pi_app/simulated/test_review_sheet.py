"""The demo's review sheet opened in a real browser: Debian's Chromium,
headless, loads index.html and shows every game with its frames."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import rules
from pi_app import games as table_games
from pi_app.simulated.demo import Night, review_sheet
from tests.system import need


def test_the_review_sheet_loads_in_chromium_and_shows_every_game(tmp_path: Path) -> None:
    chromium = need("chromium", "chromium")
    night = Night(tmp_path, seed=2)
    games = [g for g in table_games.ADAPTERS if g in rules.GAMES]
    reports = [night.play(g, min(rules.get(g).player_counts)) for g in games]
    sheet = review_sheet(reports, tmp_path)
    dom = subprocess.run(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=20000",
         f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", sheet.as_uri()],
        capture_output=True, text=True, timeout=120, check=True).stdout
    body = re.search(r"<body[^>]*>", dom)
    assert body is not None, dom[:500]
    assert 'data-loaded="yes"' in body.group(0), body.group(0)
    assert f'data-games="{len(games)}"' in body.group(0), body.group(0)
    assert 'data-broken="0"' in body.group(0), body.group(0)  # every screen's first frame drawn
    for report in reports:
        assert f'data-game="{report.name}"' in dom
        for screen, shots in report.screens.items():
            assert shots and f"{screen}: {len(shots)} frames" in dom
    assert dom.count("<figure>") == sum(len(s) for r in reports for s in r.screens.values())
