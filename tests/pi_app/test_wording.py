"""What a player reads at the table: things to do there, not commands."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("lang", ["en", "it"])
def test_an_unknown_tag_mid_game_says_what_to_do_at_the_table(rig, lang: str) -> None:
    r = rig(2)
    s = r.open("king-is-dead", lang=lang)
    r.tap_uid(0, "04DEADBEEF")
    notice = s.seats[0].notice
    assert notice is not None and notice.alert
    text = notice.text()
    assert "tablekeeper" not in text and "enroll" not in text and "run:" not in text
    assert "04DEADBEEF" in text
    assert ("Tap the card or piece" if lang == "en" else "Tocca la carta o il pezzo") in text
