"""Sequenza dei Turni: event die, feeding, one card, the hand limit."""

from __future__ import annotations

import pytest

from rules.siege import moves as mv
from tests.rules.siege.helpers import A, D, after_setup, blank, give, play, put, refused


@pytest.mark.parametrize(("value", "deck"), [(1, "events"), (3, "events"), (4, "normal"), (6, "normal")])
def test_event_die_chooses_the_deck(value: int, deck: str) -> None:
    s = after_setup()
    s.hands[A] = {"knight": 1}
    play(s, mv.Die(value))
    assert s.phase == "draw" and s.deck == deck
    assert {m.card for m in s.legal_moves()} == set(s.decks[A][deck])  # type: ignore[attr-defined]


def test_a_spent_deck_sends_the_draw_to_the_other() -> None:
    s = after_setup()
    s.hands[A] = {}
    s.decks[A]["events"] = {}
    play(s, mv.Die(2))
    assert s.deck == "normal"


def test_a_sixth_card_must_be_played_or_discarded() -> None:
    s = after_setup()
    assert s.hand_size(A) == 5
    play(s, mv.Die(5), mv.Draw("knight"))
    assert s.phase == "play" and s.hand_size(A) == 6
    refused(s, mv.EndPhase(), "siege.hand.full")
    play(s, mv.Discard("knight"))
    assert s.hand_size(A) == 5 and s.card_played


def test_an_event_is_played_at_once_and_does_not_count_as_the_card() -> None:
    s = after_setup()
    s.hands[A] = {"knight": 1}
    play(s, mv.Die(1), mv.Draw("bad_weather"))
    assert s.phase == "play" and not s.card_played
    assert s.discards[A]["bad_weather"] == 1
    # Bad Weather: no attack; nothing moves: the turn ends
    play(s, mv.Play("knight", at=len(s.rows[A]["r2"])))
    assert s.rows[A]["r2"][-1].startswith("knight")
    assert s.seat == D


def test_one_card_per_turn_into_row_2() -> None:
    s = blank("play")
    give(s, A, "knight", "archer")
    play(s, mv.Play("knight", at=len(s.rows[A]["r2"])))
    assert s.rows[A]["r2"][-1].startswith("knight")
    assert s.phase != "play"
    refused(s, mv.Play("archer"), "siege.phase.wrong")


def test_discarding_counts_as_the_card_played() -> None:
    s = blank("play")
    give(s, A, "knight", "archer")
    play(s, mv.Discard("archer"))
    assert s.card_played and s.phase != "play"


def test_supplies_go_to_the_command_row_at_most_two() -> None:
    s = blank("play")
    give(s, A, "supply_wagon", "supply_wagon")
    play(s, mv.Play("supply_wagon"))
    assert len(s.supplies(A)) == 2
    s.phase, s.card_played = "play", False
    refused(s, mv.Play("supply_wagon"), "siege.play.supply-limit")


def test_walls_and_moat_drawn_later_can_only_be_discarded() -> None:
    s = blank("play", seat=D)
    give(s, D, "moat", "castle_walls")
    refused(s, mv.Play("moat"), "siege.play.setup-only")
    refused(s, mv.Play("castle_walls"), "siege.play.setup-only")
    play(s, mv.Discard("moat"))
    assert s.discards[D]["moat"] >= 1


def test_walls_and_moat_drawn_later_must_be_the_defenders_discard() -> None:
    # "non potrà giocarle, e nel qual caso esse dovranno essere scartate";
    # a discard "come la Moat" is the turn's card.
    s = blank("play", seat=D)
    give(s, D, "castle_walls", "moat", "knight", "archer")
    assert {m.to_json()["type"] for m in s.legal_moves()} == {"discard"}
    assert {m.to_json()["card"] for m in s.legal_moves()} == {"castle_walls", "moat"}
    err = refused(s, mv.Play("knight"), "siege.play.discard-first")
    assert "Castle Walls" in err.message("en") or "castle_walls" in err.message("en")
    refused(s, mv.Discard("archer"), "siege.play.discard-first")
    refused(s, mv.EndPhase(), "siege.play.discard-first")
    play(s, mv.Discard("moat"))
    assert s.card_played and s.phase != "play"  # one card a turn: the Walls wait for the next
    assert s.hands[D]["castle_walls"] == 1


def test_walls_after_feeding_wait_for_the_next_turn() -> None:
    s = blank("play", seat=D)
    give(s, D, "castle_walls", "knight")
    s.card_played = True  # fed: feeding is the turn's card
    assert s.must_discard() == []


# -- feeding ----------------------------------------------------------------

def _to_feed(day: int, supplies: int, hand: dict[str, int]) -> object:
    s = blank("die", seat=A, day=day)
    s.rows[A]["rc"] = [u for u in s.rows[A]["rc"] if not u.startswith("supply_wagon")]
    for _ in range(supplies):
        put(s, A, "rc", "supply_wagon")
    s.hands[A] = dict(hand)
    play(s, mv.Die(5))  # the normal deck
    return s


@pytest.mark.parametrize(("day", "supplies", "due"), [
    (1, 1, False), (2, 1, True), (3, 1, False), (4, 1, True),  # one wagon: every other day
    (1, 0, True), (2, 0, True),  # none: every day
    (1, 2, False), (2, 2, False),  # two: never
])
def test_feeding_falls_due(day: int, supplies: int, due: bool) -> None:
    s = _to_feed(day, supplies, {"supply_wagon": 1})
    play(s, mv.Draw("knight"))
    assert (s.phase == "feed") == due
    assert s.view(None)["feeding_due"] == due


def test_feeding_is_the_card_played() -> None:
    s = _to_feed(2, 1, {"supply_wagon": 1, "archer": 1})
    play(s, mv.Draw("knight"))
    refused(s, mv.Play("knight"), "siege.phase.wrong")
    refused(s, mv.Feed("knight"), "siege.feed.not-food")
    play(s, mv.Feed("supply_wagon"))
    assert s.card_played and s.phase not in ("feed", "play")
    assert s.hands[A] == {"archer": 1, "knight": 1}


def test_a_troop_is_lost_when_the_troops_cannot_be_fed() -> None:
    s = _to_feed(2, 1, {"archer": 1})
    play(s, mv.Draw("knight"))
    assert s.phase == "lose" and s.losses == {"count": 1, "reason": "starve", "resume": "play"}
    refused(s, mv.Lose(unit=s.leader(A)), "siege.lose.bad-unit")
    victim = s.rows[A]["r1"][0]
    play(s, mv.Lose(unit=victim))
    assert victim not in s.rows[A]["r1"]
    assert s.phase == "play" and not s.card_played  # starving is not the card


def test_the_hand_limit_holds_through_the_traitors_grain() -> None:
    s = blank("setup")
    s.count = 3
    s.hands[A] = {"traitor": 1, "knight": 7}
    s.discards[A] = {"supply_wagon": 1}
    refused(s, mv.Play("traitor", "grain"), "siege.hand.full")
    s2 = blank("play")
    give(s2, A, "traitor")
    s2.discards[A] = {"supply_wagon": 1}
    play(s2, mv.Play("traitor", "grain"))
    assert s2.hands[A] == {"supply_wagon": 1}


# ruling: docs/rulings.md#siege-place-in-the-row
def test_a_card_entering_a_row_takes_the_place_its_player_names() -> None:
    s = blank("play")
    give(s, A, "knight")
    row = list(s.rows[A]["r2"])
    assert {m for m in s.legal_moves() if isinstance(m, mv.Play) and m.card == "knight"} == {
        mv.Play("knight", at=i) for i in range(len(row) + 1)}
    refused(s, mv.Play("knight"), "siege.row.name-slot")
    refused(s, mv.Play("knight", at=len(row) + 1), "siege.row.bad-slot")
    refused(s, mv.Play("knight", at=-1), "siege.row.bad-slot")
    play(s, mv.Play("knight", at=0))
    assert s.rows[A]["r2"][1:] == row and s.rows[A]["r2"][0].startswith("knight")


def test_the_place_in_the_row_decides_who_may_support() -> None:
    s = blank("move")
    s.rows[A]["r1"] = []
    left, right = put(s, A, "r1", "archer"), put(s, A, "r1", "archer")
    new = put(s, A, "r2", "knight")
    s.played = [new]
    play(s, mv.Shift(new, "r1", 1))
    assert s.rows[A]["r1"] == [left, new, right]
    assert set(s.supporters(left)) == {new} and set(s.supporters(right)) == {new}


def test_a_place_only_for_cards_entering_row_1_or_2() -> None:
    s = blank("play")
    give(s, A, "supply_wagon")
    s.rows[A]["rc"] = [s.leader(A)]
    refused(s, mv.Play("supply_wagon", at=0), "siege.row.unexpected-slot")
    s2 = blank("move")
    ram = put(s2, A, "r1", "battering_ram")
    s2.rows[D]["r0"] = []
    refused(s2, mv.Shift(ram, "r0", 0), "siege.row.unexpected-slot")
