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


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_tap_that_does_not_go_with_an_earlier_pick_says_so(rig, lang: str) -> None:
    # The King is Dead, a Garrison: red tapped, then a region with no red.
    r = rig(2)
    s = r.open("king-is-dead", lang=lang)
    r.tap(0, "garrison@1")
    takes = [m.to_json() for m in s.seats[0].cursor.moves]
    colour = takes[0]["colour"]
    without = next(t["region"] for t in takes if not any(
        u["region"] == t["region"] and u["colour"] == colour for u in takes))
    r.tap(0, f"follower:{colour}")
    narrowed = s.seats[0].cursor.moves
    assert {m.to_json()["colour"] for m in narrowed} == {colour}
    before = s.state.to_json()
    r.tap(0, f"region:{without}")
    notice = s.seats[0].notice
    assert notice is not None and notice.alert, "the tap was used silently"
    assert s.adapter.component(f"region:{without}").name(lang) in notice.text()
    assert s.state.to_json() == before
    assert s.seats[0].cursor.moves == narrowed, "the earlier pick was dropped"
