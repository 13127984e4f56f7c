"""Hands and decks are secret; the public sees sizes; events name their audience."""

from __future__ import annotations

import random

from rules.siege import moves as mv
from tests.rules.siege.helpers import A, D, after_setup, blank, new, play


def test_each_seat_sees_its_own_hand_only() -> None:
    s = after_setup()
    assert s.view(A)["hand"] == sorted(c for c, n in s.hands[A].items() for _ in range(n))
    assert "hand" not in s.view(None)
    assert s.view(None)["sides"][D]["hand_size"] == 5
    for seat in (None, D):
        other = s.perturb_secrets(A, random.Random(1))
        assert other is not None and other.view(seat) == s.view(seat)


def test_a_drawn_card_is_told_to_its_owner_only() -> None:
    s = new()
    events = s.apply(mv.Draw("knight"))
    private = [e for e in events if e.params.get("card") == "knight"]
    assert private and all(e.audience == (A,) for e in private)
    assert any(e.audience is None and "card" not in e.params for e in events)


def test_the_public_view_shows_events_feeding_and_deck_sizes() -> None:
    s = blank("die", day=2)
    s.hands[A] = {"supply_wagon": 1}
    play(s, mv.Die(2), mv.Draw("papal_injunction"))
    view = s.view(None)
    assert view["feeding_due"] is True and view["phase"] == "feed"
    assert view["events"][0]["card"] == "papal_injunction"
    assert view["sides"][A]["event_deck_size"] == 20
    assert {"deck_size", "hand_size", "rows", "discards"} <= set(view["sides"][A])


def _containers(value: object, out: list[object]) -> list[object]:
    if isinstance(value, dict):
        out.append(value)
        for v in value.values():
            _containers(v, out)
    elif isinstance(value, list):
        out.append(value)
        for v in value:
            _containers(v, out)
    return out


def test_a_copy_shares_nothing_mutable() -> None:
    s = blank("attack")
    s.losses = {"count": 1, "reason": "plague", "resume": "feed"}
    s.result = {"winner": 0, "reason": "x"}
    s.active.append({"card": "floods", "seat": 0, "until": 3, "variant": ""})
    s.coming.append({"seat": 0, "troop": "knight", "day": 4})
    other = s.copy()
    mine = {id(c) for c in _containers(s.__dict__, [])}
    theirs = {id(c) for c in _containers(other.__dict__, [])}
    assert not mine & theirs
    assert other == s
    assert not {id(c) for c in _containers(s._to_json(), [])} & mine
