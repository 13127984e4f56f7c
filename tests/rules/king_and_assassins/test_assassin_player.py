"""The Assassin player's actions: citizens, reveals, revealed assassins, eliminations, attacks."""

from __future__ import annotations

import pytest

from rules.king_and_assassins.moves import Arrest, Attack, Eliminate, Reveal

from .helpers import cell, legal, refused, scenario, step


@pytest.mark.parametrize(
    ("start", "d", "end", "hidden_cost", "revealed_cost"),
    [
        ("E4", "N", "E3", 1, 1),  # move
        ("E5", "E", "F5", 2, 1),  # climb
        ("F5", "W", "E5", 1, 0),  # descend
        ("F5", "E", "G5", 1, 1),  # roof to roof
    ],
)
def test_citizen_and_revealed_assassin_costs(
    start: str, d: str, end: str, hidden_cost: int, revealed_cost: int
) -> None:
    s = scenario({"king": "J10", "citizen1": start}, turn="assassin")
    legal(s, step("citizen1", d))
    assert cell(s, "citizen1") == end and s.ap["assassins"] == 5 - hidden_cost
    s = scenario({"king": "J10", "citizen1": start}, turn="assassin", revealed=("citizen1",))
    legal(s, step("citizen1", d))
    assert cell(s, "citizen1") == end and s.ap["assassins"] == 5 - revealed_cost


def test_citizens_never_push_and_need_points() -> None:
    s = scenario(
        {"king": "J10", "citizen1": "E4", "citizen2": "E3", "knight1": "D4", "citizen5": "E9"},
        turn="assassin",
    )
    refused(s, step("citizen1", "N"), "move.occupied")
    refused(s, step("citizen1", "W"), "move.occupied")
    for d in ("E", "E", "E", "E", "N"):
        legal(s, step("citizen5", d))
    assert s.ap["assassins"] == 0
    refused(s, step("citizen1", "E"), "ap.not-enough")


def test_revealed_assassin_descends_for_free_with_no_points_left() -> None:
    s = scenario({"king": "J10", "citizen1": "F5", "citizen4": "B4"}, turn="assassin", revealed=("citizen1",))
    for _ in range(5):
        legal(s, step("citizen4", "E"))
    assert s.ap["assassins"] == 0
    legal(s, step("citizen1", "W"))
    assert cell(s, "citizen1") == "E5"


def test_reveal_is_free_and_only_for_chosen_citizens() -> None:
    s = scenario({"king": "J10", "citizen1": "E4", "citizen4": "C4"}, turn="assassin")
    refused(s, Reveal("citizen4"), "reveal.not-assassin")
    refused(s, Reveal("knight1"), "reveal.not-citizen")
    events = legal(s, Reveal("citizen1"))
    assert s.ap["assassins"] == 5 and s.view(0)["pieces"]["citizen1"]["kind"] == "assassin"
    assert events[0].params == {"piece": "citizen1", "cell": "E4", "arrested": False}
    refused(s, Reveal("citizen1"), "reveal.already")


def test_hidden_assassins_act_as_citizens_only() -> None:
    s = scenario({"king": "E4", "citizen1": "E5", "knight1": "D5"}, turn="assassin")
    refused(s, Attack("citizen1"), "assassin.not-revealed")
    refused(s, Eliminate("citizen1", "knight1"), "assassin.not-revealed")


def test_assassin_reach_adjacency_and_targets() -> None:
    s = scenario(
        {"king": "J10", "citizen1": "E5", "knight1": "F5", "knight2": "C5", "citizen2": "E6"},
        turn="assassin",
        revealed=("citizen1", "citizen2"),
    )
    refused(s, Eliminate("citizen1", "knight1"), "target.on-roof")
    refused(s, Eliminate("citizen1", "knight2"), "target.not-adjacent")
    refused(s, Eliminate("citizen1", "citizen2"), "target.wrong-kind")
    refused(s, Eliminate("citizen1", "king"), "target.wrong-kind")
    refused(s, Attack("citizen1"), "attack.not-adjacent")
    refused(s, Eliminate("knight1", "citizen1"), "piece.not-yours")
    refused(s, Arrest("knight1", "citizen1"), "turn.assassins-turn")


def test_roof_assassin_eliminates_on_street_and_roof() -> None:
    s = scenario(
        {"king": "J10", "citizen1": "F6", "knight1": "F5", "knight2": "E6"},
        turn="assassin",
        revealed=("citizen1",),
    )
    legal(s, Eliminate("citizen1", "knight1"))
    legal(s, Eliminate("citizen1", "knight2"))
    assert s.knights_lost == ["knight1", "knight2"] and s.ap["assassins"] == 2


def test_second_elimination_needs_two_points() -> None:
    s = scenario(
        {"king": "J10", "citizen1": "D4", "knight1": "C4", "knight2": "E4", "citizen4": "E9"},
        turn="assassin",
        revealed=("citizen1",),
    )
    for d in ("E", "E", "E"):
        legal(s, step("citizen4", d))
    legal(s, Eliminate("citizen1", "knight1"))
    assert s.ap["assassins"] == 1
    refused(s, Eliminate("citizen1", "knight2"), "ap.not-enough")


def test_attack_costs_two_and_one_wound_is_not_death() -> None:
    s = scenario(
        {"king": "E4", "citizen1": "E5"}, turn="assassin", revealed=("citizen1",), card=2
    )  # 4 points
    legal(s, Attack("citizen1"))
    assert s.wounds == 1 and s.to_move() == 1 and s.view(None)["wounds"] == 1
    legal(s, Attack("citizen1"))
    assert s.outcome() is not None and s.outcome().reason == "king-killed"  # type: ignore[union-attr]


def test_attack_refused_without_two_points() -> None:
    s = scenario({"king": "E4", "citizen1": "E5", "citizen4": "E9"}, turn="assassin", revealed=("citizen1",))
    for d in ("E", "E", "E", "E"):
        legal(s, step("citizen4", d))
    assert s.ap["assassins"] == 1
    refused(s, Attack("citizen1"), "ap.not-enough")


def test_wound_carries_over_rounds() -> None:
    from rules.king_and_assassins.moves import Draw, End

    s = scenario({"king": "E4", "citizen1": "E5"}, turn="assassin", revealed=("citizen1",))
    legal(s, Attack("citizen1"))
    legal(s, End())
    legal(s, Draw(2))
    legal(s, End())
    legal(s, Attack("citizen1"))
    assert s.outcome() is not None and s.outcome().winners == [1]  # type: ignore[union-attr]


def test_a_piece_already_removed_is_no_target() -> None:
    """Removed immediately (Eliminare un Cavaliere): a knight eliminated this turn
    cannot be eliminated again, and the refusal says it is gone, not that two are the limit."""
    s = scenario(
        {"king": "J10", "citizen1": "D4", "knight1": "C4", "knight2": "E4"},
        turn="assassin",
        revealed=("citizen1",),
    )
    legal(s, Eliminate("citizen1", "knight1"))
    legal(s, Eliminate("citizen1", "knight2"))
    refused(s, Eliminate("citizen1", "knight1"), "target.not-on-board")
