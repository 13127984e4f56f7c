"""hardware/tags.md says how many tags each game takes: it must match the adapters."""

from __future__ import annotations

import math
import re
from collections import Counter
from pathlib import Path

import rules
from pi_app import games as table_games
from pi_app.commands import tag_sheet

TAGS_MD = Path(__file__).resolve().parents[3] / "hardware" / "tags.md"
INSTALL_MD = TAGS_MD.with_name("INSTALL.md")
STICK_S, TAP_S = 15, 5  # the plan's seconds a tag


def needed() -> dict[str, int]:
    counts = {}
    for game_id in table_games.ADAPTERS:
        most = max(rules.get(game_id).player_counts)
        counts[game_id] = sum(c.count for c in table_games.for_game(game_id, most).components())
    return counts


def test_tag_counts_in_the_buying_guide_match_the_adapters() -> None:
    rows = re.findall(r"^\| ([a-z-]+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|$", TAGS_MD.read_text(), re.M)
    counts = needed()
    assert {game: int(tags) for game, tags, *_ in rows} == counts
    sizes = {mm: 0 for mm in (25, 20, 12)}
    for game, _, *by_size in rows:  # by the sticker each piece takes on the game's printed sheet
        most = max(rules.get(game).player_counts)
        took = Counter()
        for comp in table_games.for_game(game, most).components():
            took[tag_sheet.sticker(comp).mm] += comp.count
        assert [int(n) for n in by_size] == [took[mm] for mm in sizes], game
        sizes = {mm: sizes[mm] + took[mm] for mm in sizes}
    said = ", ".join(f"{n} of {mm} mm" for mm, n in sizes.items())
    assert f"{sum(counts.values())} for all five games ({said})" in " ".join(TAGS_MD.read_text().split())


def test_the_enrolment_plan_covers_every_game_with_its_count_and_times() -> None:
    """INSTALL.md's plan: every game once, smallest set first, minutes from the counts."""
    text = INSTALL_MD.read_text()
    plan = re.findall(r"^\| (\d) \| ([a-z-]+) \| (\d+) \| (\d+) min \| (\d+) min \|$", text, re.M)
    counts = needed()
    assert [game for _, game, *_ in plan] == sorted(counts, key=counts.get)
    assert [int(order) for order, *_ in plan] == list(range(1, len(counts) + 1))
    for _, game, tags, stick, tap in plan:
        assert int(tags) == counts[game], game
        assert int(stick) == math.ceil(counts[game] * STICK_S / 60), game
        assert int(tap) == math.ceil(counts[game] * TAP_S / 60), game
    total = sum(counts.values())
    assert f"All five games take {total} tags." in text
    hours, minutes = divmod(math.ceil(total * (STICK_S + TAP_S) / 60), 60)
    assert f"about {hours} h {minutes} min for all five games" in text
