"""The King player's actions: king moves, knight moves with pushes, arrests, eliminations."""

from __future__ import annotations

import pytest

from rules.king_and_assassins.moves import Arrest, Attack, Eliminate, End, Reveal

from .helpers import cell, legal, m, refused, scenario, step


def test_king_moves_one_street_space_for_one_king_point() -> None:
    s = scenario({"king": "E4", "knight1": "A4"})
    events = legal(s, step("king", "S"))
    assert cell(s, "king") == "E5" and s.ap["king"] == 0 and s.ap["knights"] == 6
    assert events[0].params == {
        "piece": "king",
        "from": "E4",
        "to": "E5",
        "action": "move",
        "cost": 1,
        "pushed": [],
    }
    refused(s, step("king", "S"), "ap.not-enough")


def test_king_never_climbs_and_never_pushes() -> None:
    s = scenario({"king": "E5", "citizen4": "E4", "knight1": "D5"})
    refused(s, step("king", "E"), "king.street-only")  # F5 is a roof
    refused(s, step("king", "N"), "move.occupied")  # a citizen: the king does not push
    refused(s, step("king", "W"), "move.occupied")


def test_king_cannot_leave_the_board_except_through_a_gate() -> None:
    s = scenario({"king": "J4"})
    refused(s, step("king", "E"), "move.off-board")
    s = scenario({"king": "B5"}, card=12)
    legal(s, step("king", "W"))  # the west gate into the castle at A5
    assert s.outcome() is not None and s.outcome().winners == [0]  # type: ignore[union-attr]


def test_king_enters_the_castle_whatever_stands_on_the_roof_beyond() -> None:
    """NOTATION.md, Readings: the cell beyond a gate is the building, so a piece
    on it does not bar the king; without a king point he cannot go through."""
    s = scenario({"king": "C3", "citizen4": "C2", "knight1": "A5"}, card=12)
    legal(s, step("king", "N"))
    assert s.outcome() is not None and s.outcome().reason == "king-escaped"  # type: ignore[union-attr]
    s = scenario({"king": "B5", "knight1": "A5"}, card=12)
    legal(s, step("king", "E"))
    legal(s, step("king", "W"))
    refused(s, step("king", "W"), "ap.not-enough")


def test_king_actions_are_moves_only() -> None:
    s = scenario({"king": "E4", "citizen4": "E5"})
    refused(s, Arrest("king", "citizen4"), "piece.cannot-do-that")
    refused(s, Eliminate("king", "citizen4"), "piece.cannot-do-that")


@pytest.mark.parametrize(
    ("start", "d", "end", "cost", "action"),
    [
        ("E4", "N", "E3", 1, "move"),  # street to street
        ("E5", "E", "F5", 2, "climb"),  # street to roof
        ("F5", "W", "E5", 1, "descend"),  # roof to street
        ("F5", "E", "G5", 1, "move"),  # roof to roof
    ],
)
def test_knight_move_climb_descend_costs(start: str, d: str, end: str, cost: int, action: str) -> None:
    s = scenario({"king": "J10", "knight1": start})
    events = legal(s, step("knight1", d))
    assert cell(s, "knight1") == end and s.ap["knights"] == 6 - cost
    assert events[0].params["action"] == action and events[0].params["cost"] == cost


def test_knight_climb_needs_two_points() -> None:
    s = scenario({"king": "J10", "knight1": "E5", "knight2": "B4"}, card=2)  # knights 5
    for _ in range(4):
        legal(s, step("knight2", "E" if cell(s, "knight2") != "D4" else "N"))
    assert s.ap["knights"] == 1
    refused(s, step("knight1", "E"), "ap.not-enough")
    legal(s, step("knight1", "N"))


def test_knight_climb_and_descent_push_too() -> None:
    s = scenario({"king": "J10", "knight1": "E5", "citizen4": "F5"})
    legal(s, step("knight1", "E"))  # climbing pushes citizen4 along the roof
    assert (cell(s, "knight1"), cell(s, "citizen4"), s.ap["knights"]) == ("F5", "G5", 4)
    s = scenario({"king": "J10", "knight1": "F5", "citizen4": "E5"})
    legal(s, step("knight1", "W"))
    assert (cell(s, "knight1"), cell(s, "citizen4"), s.ap["knights"]) == ("E5", "D5", 5)


def test_knight_cannot_enter_knight_or_king_or_leave_board() -> None:
    s = scenario({"king": "E4", "knight1": "D4", "knight2": "D3", "knight3": "A6"})
    refused(s, step("knight1", "E"), "move.occupied")
    refused(s, step("knight1", "N"), "move.occupied")
    refused(s, step("knight3", "W"), "move.off-board")


def test_push_off_the_board_is_illegal() -> None:
    s = scenario({"king": "J10", "knight1": "H4", "citizen4": "I4", "citizen5": "J4"})
    refused(s, step("knight1", "E"), "push.off-board")


def test_push_into_king_or_knight_is_illegal_anywhere_in_the_chain() -> None:
    s = scenario({"king": "F4", "knight1": "B4", "citizen4": "C4", "citizen5": "D4", "citizen6": "E4"})
    refused(s, step("knight1", "E"), "push.into-king")


def test_arrest_needs_handcuffs_and_removes_the_citizen() -> None:
    s = scenario({"king": "J10", "knight1": "D4", "citizen4": "E4"}, card=2)
    refused(s, Arrest("knight1", "citizen4"), "arrest.no-handcuffs")
    s = scenario({"king": "J10", "knight1": "D4", "citizen4": "E4"}, card=1)
    events = legal(s, Arrest("knight1", "citizen4"))
    assert "citizen4" not in s.pos and s.arrested == ["citizen4"] and s.ap["knights"] == 5
    assert [e.type for e in events] == ["arrested"]


def test_one_arrest_per_turn_only() -> None:
    s = scenario({"king": "J10", "knight1": "D4", "citizen4": "E4", "citizen5": "C4"})
    legal(s, Arrest("knight1", "citizen4"))
    refused(s, Arrest("knight1", "citizen5"), "arrest.one-per-turn")


def test_arrest_reach_and_targets() -> None:
    s = scenario(
        {
            "king": "J10",
            "knight1": "E5",
            "citizen4": "F5",
            "citizen5": "C5",
            "knight2": "E3",
            "citizen6": "J6",
        },
        revealed=("citizen6",),
    )
    refused(s, Arrest("knight1", "citizen4"), "target.on-roof")
    refused(s, Arrest("knight1", "citizen5"), "target.not-adjacent")
    refused(s, Arrest("knight1", "knight2"), "target.wrong-kind")
    refused(s, Arrest("knight1", "citizen6"), "arrest.revealed")
    refused(s, Arrest("knight1", "nobody"), "target.unknown")
    refused(s, Arrest("knight7", "citizen4"), "piece.not-on-board")
    refused(s, Arrest("citizen5", "citizen4"), "piece.not-yours")


def test_knights_eliminate_revealed_assassins_only() -> None:
    s = scenario(
        {"king": "J10", "knight1": "D4", "citizen1": "E4", "citizen4": "C4"}, revealed=("citizen1",), card=2
    )
    refused(s, Eliminate("knight1", "citizen4"), "eliminate.not-revealed")
    events = legal(s, Eliminate("knight1", "citizen1"))
    assert events[0].params["cost"] == 1 and s.eliminated == ["citizen1"] and s.ap["knights"] == 4


def test_king_player_cannot_take_assassin_actions() -> None:
    s = scenario({"king": "J10", "citizen1": "E4"})
    refused(s, Reveal("citizen1"), "turn.kings-turn")
    refused(s, Attack("citizen1"), "turn.kings-turn")
    refused(s, step("citizen1", "N"), "piece.not-yours")


def test_bad_names_and_directions() -> None:
    s = scenario({"king": "J10", "knight1": "E4"})
    refused(s, step("knight9", "N"), "piece.unknown")
    from rules.king_and_assassins.moves import Step

    refused(s, Step("knight1", "NE"), "move.bad-direction")
    with pytest.raises(ValueError, match="dir"):
        m({"type": "move", "piece": "knight1", "dir": "NE"})


def test_end_is_always_listed_and_unused_points_are_lost() -> None:
    s = scenario({"king": "E4", "knight1": "D4"})
    assert End() in s.legal_moves()
    legal(s, End())
    assert s.phase == "assassin" and s.ap == {"king": 0, "knights": 0, "assassins": 5}
    assert End() in s.legal_moves()
    legal(s, End())
    assert s.phase == "draw" and s.ap == {"king": 0, "knights": 0, "assassins": 0}
