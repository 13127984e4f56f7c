"""hardware/tags.md says how many tags each game takes: it must match the adapters."""

from __future__ import annotations

import re
from pathlib import Path

import rules
from pi_app import games as table_games

TAGS_MD = Path(__file__).resolve().parents[3] / "hardware" / "tags.md"


def test_tag_counts_in_the_buying_guide_match_the_adapters() -> None:
    listed = {m[1]: int(m[2]) for m in re.finditer(r"^\| ([a-z-]+) \| (\d+) \|$", TAGS_MD.read_text(), re.M)}
    needed = {}
    for game_id in table_games.ADAPTERS:
        most = max(rules.get(game_id).player_counts)
        needed[game_id] = sum(c.count for c in table_games.for_game(game_id, most).components())
    assert listed == needed
    assert f"{sum(needed.values())} for all five games" in TAGS_MD.read_text()
