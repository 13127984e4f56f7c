"""Numbers as each language writes them on the pages (issue 33: "3.7 s" in Italian)."""

from __future__ import annotations

from pi_app.web.words import duration


def test_a_decimal_comma_in_italian_and_a_point_in_english() -> None:
    assert duration(3.72, "it") == "3,7 s"
    assert duration(3.72, "en") == "3.7 s"
    assert duration(75, "it") == "1 min 15 s"
