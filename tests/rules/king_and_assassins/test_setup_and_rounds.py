"""Setup, the round deck as chance, rounds and the end of the game."""

from __future__ import annotations

import pytest

import rules
from rules.king_and_assassins.data import ROUND_CARDS
from rules.king_and_assassins.moves import Arrest, Choose, Draw, Eliminate, End, Start

from .helpers import GAME, cell, legal, new, refused, scenario


def test_registered_with_side_option() -> None:
    assert rules.get("king-and-assassins") is GAME
    assert GAME.player_counts == (2,)
    assert new().side == "A"
    with pytest.raises(ValueError, match="side"):
        GAME.new_game(2, 1, {"side": "C"})


def test_side_a_setup_the_assassin_player_chooses_first() -> None:
    s = new()
    assert s.to_move() == 1 and s.view(None)["step"] == "choose"
    assert len(s.legal_moves()) == 220  # 12 choose 3
    assert cell(s, "king") == "J10" and len([p for p in s.pos if p.startswith("knight")]) == 7
    refused(s, End(), "setup.choose-first")
    refused(s, Draw(1), "round.no-draw-now")
    refused(s, Choose(("citizen1", "citizen2")), "setup.choose-three")
    refused(s, Choose(("citizen1", "citizen1", "citizen2")), "setup.citizen-twice")
    refused(s, Choose(("citizen1", "citizen2", "knight1")), "setup.unknown-citizen")
    refused(s, Start("J10"), "setup.choose-first")
    events = legal(s, Choose(("citizen9", "citizen10", "citizen2")))
    assert s.assassins == ["citizen2", "citizen9", "citizen10"]
    assert [(e.type, e.audience) for e in events] == [("assassins_chosen", None), ("your_assassins", (1,))]
    assert s.is_chance() and s.view(None)["step"] == "draw"
    refused(s, Choose(("citizen1", "citizen2", "citizen3")), "round.draw-first")


def test_choose_order_does_not_matter() -> None:
    assert Choose(("citizen10", "citizen2", "citizen9")) == Choose(("citizen2", "citizen9", "citizen10"))


def test_example_side_b_king_start_is_chosen_after_the_assassins() -> None:
    s = new("B")
    assert "king" not in s.pos and not any(p.startswith("knight") for p in s.pos)
    refused(s, Start("B10"), "setup.choose-first")
    legal(s, Choose(("citizen1", "citizen2", "citizen3")))
    assert s.to_move() == 0 and s.view(0)["starts"] == ["B10", "I10"]
    refused(s, Draw(1), "round.no-draw-now")
    refused(s, End(), "setup.start-first")
    refused(s, Start("A1"), "setup.not-a-start")
    events = legal(s, Start("I10"))
    assert cell(s, "king") == "I10"
    knights = events[0].params["knights"]
    assert sorted(knights.values()) == sorted(["H9", "I9", "J9", "H10", "J10", "D2", "G2"])
    assert s.is_chance()


def test_side_b_deck_leaves_out_the_red_crystal_card() -> None:
    crystal = next(c.id for c in ROUND_CARDS.values() if c.red_crystal)
    assert len(new("A").deck) == 15 and crystal in new("A").deck
    assert len(new("B").deck) == 14 and crystal not in new("B").deck


def test_round_card_is_a_chance_draw_without_replacement() -> None:
    s = new()
    legal(s, Choose(("citizen1", "citizen2", "citizen3")))
    assert s.legal_moves() == [Draw(c) for c in range(1, 16)]
    refused(s, End(), "round.draw-first")
    refused(s, Draw(99), "round.card-not-in-deck")
    drawn = s.sample_chance()
    assert drawn in s.legal_moves()
    events = legal(s, Draw(7))
    card = ROUND_CARDS[7]
    assert events[0].params["card"]["id"] == 7 and s.round == 1
    assert s.ap == {"king": card.king, "knights": card.knights, "assassins": 0}
    refused(s, Start("J10"), "setup.no-start-now")
    refused(s, Choose(("citizen1", "citizen2", "citizen3")), "setup.already-chosen")
    legal(s, End())
    assert s.ap["assassins"] == card.assassins
    legal(s, End())
    refused(s, Draw(7), "round.card-not-in-deck")
    assert Draw(7) not in s.legal_moves() and len(s.legal_moves()) == 14


@pytest.mark.parametrize(("side", "rounds"), [("A", 15), ("B", 14)])
def test_example_deck_of_15_or_14_cards_exhausted_the_assassin_player_wins(side: str, rounds: int) -> None:
    s = new(side)
    legal(s, s.legal_moves()[0])
    if s.phase == "start":
        legal(s, s.legal_moves()[0])
    for _ in range(rounds):
        legal(s, s.sample_chance())
        legal(s, End())
        events = legal(s, End())
    assert s.to_move() is None and s.legal_moves() == []
    assert events[-1].type == "game_over"
    out = s.outcome()
    assert out is not None and out.winners == [1] and out.reason == "deck-exhausted"
    assert out.scores == {0: 0, 1: 1} and s.round == rounds


def test_all_three_assassins_gone_ends_the_game_at_once() -> None:
    s = scenario(
        {"king": "J10", "knight1": "D4", "citizen1": "E4", "citizen2": "C4", "citizen3": "D5"},
        revealed=("citizen1", "citizen2", "citizen3"),
    )
    legal(s, Eliminate("knight1", "citizen1"))
    legal(s, Eliminate("knight1", "citizen2"))
    events = legal(s, Eliminate("knight1", "citizen3"))
    assert events[-1].type == "game_over" and s.outcome().reason == "assassins-gone"  # type: ignore[union-attr]


def test_mixing_arrest_and_elimination_counts_all_three() -> None:
    s = scenario(
        {"king": "J10", "knight1": "D4", "citizen1": "E4", "citizen2": "C4", "citizen3": "D5"},
        revealed=("citizen2", "citizen3"),
    )
    legal(s, Eliminate("knight1", "citizen2"))
    legal(s, Eliminate("knight1", "citizen3"))
    assert s.to_move() == 0
    legal(s, Arrest("knight1", "citizen1"))
    assert s.outcome() is not None and s.outcome().winners == [0]  # type: ignore[union-attr]
    assert s.view(0)["arrested_assassins"] == ["citizen1"]


def test_arrested_assassin_may_be_revealed_later_by_its_owner() -> None:
    from rules.king_and_assassins.moves import Reveal

    s = scenario({"king": "J10", "knight1": "D4", "citizen1": "E4", "citizen4": "C4"})
    legal(s, Arrest("knight1", "citizen1"))
    assert s.view(0)["arrested_assassins"] == []
    legal(s, End())
    events = legal(s, Reveal("citizen1"))
    assert events[0].params == {"piece": "citizen1", "cell": None, "arrested": True}
    assert s.view(0)["arrested_assassins"] == ["citizen1"]
    assert s.to_move() == 1 and s.ap["assassins"] == 5


def test_max_moves_bounds_the_longest_possible_turns() -> None:
    assert 300 < GAME.max_moves < 1000
