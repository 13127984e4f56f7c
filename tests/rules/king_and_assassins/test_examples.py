"""Every example the rulebook gives, as a test (rulebook section in each docstring)."""

from __future__ import annotations

from rules.king_and_assassins.moves import Arrest, Attack, Eliminate, End, Reveal

from .helpers import cell, legal, refused, scenario, step


def test_example_king_player_spends_points_in_any_order() -> None:
    """Turno del Giocatore Re: with 2 king points and 5 knight points, move the
    king one space, some knights, the king again, then knights with what is left."""
    s = scenario({"king": "F4", "knight1": "C4", "knight2": "H4"}, card=12)  # card 12: king 2, knights 5
    assert s.ap == {"king": 2, "knights": 5, "assassins": 0}
    legal(s, step("king", "N"))
    legal(s, step("knight1", "N"))
    legal(s, step("knight2", "N"))
    legal(s, step("king", "N"))
    legal(s, step("knight1", "E"))
    legal(s, step("knight1", "E"))
    legal(s, step("knight2", "S"))
    assert cell(s, "king") == "F2"
    assert s.ap == {"king": 0, "knights": 0, "assassins": 0}
    # Knight points never pay for the king, nor king points for a knight.
    refused(s, step("king", "S"), "ap.not-enough")
    refused(s, step("knight1", "S"), "ap.not-enough")


def test_example_assassin_player_splits_five_points() -> None:
    """Turno del Giocatore Assassino: with 5 points, move a citizen one space,
    another citizen three spaces, then reveal an assassin and eliminate a guard."""
    s = scenario(
        {"king": "J10", "knight1": "E3", "citizen1": "E4", "citizen4": "B4", "citizen5": "C6"},
        card=1,  # assassins 5
        turn="assassin",
    )
    assert s.ap["assassins"] == 5
    legal(s, step("citizen4", "E"))
    for d in ("E", "N", "N"):
        legal(s, step("citizen5", d))
    assert cell(s, "citizen5") == "D4"
    events = legal(s, Reveal("citizen1"))
    assert events[0].type == "revealed" and events[0].audience is None
    assert s.ap["assassins"] == 1  # revealing is free
    legal(s, Eliminate("citizen1", "knight1"))
    assert "knight1" not in s.pos and s.ap["assassins"] == 0


def test_example_push_chain() -> None:
    """Spingere segnalini: a pushed token blocked by other citizens or assassins
    pushes them too, each one space in the knight's direction, at no extra cost."""
    s = scenario(
        {"king": "J10", "knight1": "B4", "citizen4": "C4", "citizen5": "D4", "citizen6": "E4"},
        revealed=("citizen5",),
    )
    events = legal(s, step("knight1", "E"))
    assert [cell(s, p) for p in ("knight1", "citizen4", "citizen5", "citizen6")] == ["C4", "D4", "E4", "F4"]
    assert s.ap["knights"] == 5
    assert [p["piece"] for p in events[0].params["pushed"]] == ["citizen4", "citizen5", "citizen6"]


def test_example_push_down_from_roof_but_never_up() -> None:
    """Spingere segnalini: tokens may be pushed down from a roof to a street,
    never from a street up onto a roof; an illegal push makes the move illegal."""
    s = scenario({"king": "J10", "knight1": "F6", "citizen4": "F5"})
    legal(s, step("knight1", "N"))  # roof to roof, the citizen goes down to the street F4
    assert cell(s, "citizen4") == "F4"
    s = scenario({"king": "J10", "knight1": "D5", "citizen4": "E5"})
    refused(s, step("knight1", "E"), "push.street-to-roof")


def test_example_knights_and_king_are_never_pushed() -> None:
    """Spingere segnalini: it is forbidden to push a token onto a knight or the king."""
    s = scenario({"king": "E4", "knight1": "B4", "citizen4": "C4", "citizen5": "D4"})
    refused(s, step("knight1", "E"), "push.into-king")
    s = scenario({"king": "J10", "knight1": "B4", "citizen4": "C4", "knight2": "D4"})
    refused(s, step("knight1", "E"), "push.into-knight")
    refused(s, step("knight2", "W"), "push.into-knight")


def test_example_roof_knight_reaches_street_but_street_knight_not_roof() -> None:
    """Azioni dei Cavalieri, Eliminare un assassino: a knight on a roof eliminates
    on a roof or a street; a knight on a street cannot reach a roof."""
    s = scenario(
        {"king": "J10", "knight1": "F5", "citizen4": "E5", "knight2": "H5", "citizen5": "G5"},
        revealed=("citizen4", "citizen5"),
    )
    refused(s, Eliminate("knight2", "citizen5"), "target.on-roof")
    legal(s, Eliminate("knight1", "citizen4"))
    assert "citizen4" not in s.pos


def test_example_assassin_on_roof_attacks_king_on_street() -> None:
    """Azioni degli Assassini, Attaccare il Re: an assassin on a roof may attack
    the king on a street."""
    s = scenario({"king": "E5", "citizen1": "F5"}, revealed=("citizen1",), turn="assassin")
    events = legal(s, Attack("citizen1"))
    assert events[0].type == "king_wounded" and s.wounds == 1 and s.ap["assassins"] == 3


def test_example_two_wounds_in_one_turn_by_two_assassins() -> None:
    """Attaccare il Re: two wounds kill the king, both may come in one turn, from
    one or two assassins; the game ends at once and the Assassin player wins."""
    s = scenario({"king": "E4", "citizen1": "D4", "citizen2": "F4"}, card=7, turn="assassin")
    legal(s, Reveal("citizen1"))
    legal(s, Reveal("citizen2"))
    legal(s, Attack("citizen1"))
    events = legal(s, Attack("citizen2"))
    assert [e.type for e in events] == ["king_wounded", "game_over"]
    assert s.to_move() is None and "king" not in s.pos
    out = s.outcome()
    assert out is not None and out.winners == [1] and out.reason == "king-killed"


def test_example_second_elimination_costs_two_whichever_assassin() -> None:
    """Eliminare un Cavaliere: the first elimination of a turn costs 1, the second
    2, whether one or two assassins make them; never more than two a turn."""
    s = scenario(
        {
            "king": "J10",
            "citizen1": "D4",
            "citizen2": "G4",
            "knight1": "C4",
            "knight2": "H4",
            "knight3": "G3",
        },
        revealed=("citizen1", "citizen2"),
        turn="assassin",
    )
    legal(s, Eliminate("citizen1", "knight1"))
    assert s.ap["assassins"] == 4
    legal(s, Eliminate("citizen2", "knight2"))
    assert s.ap["assassins"] == 2
    refused(s, Eliminate("citizen2", "knight3"), "eliminate.two-per-turn")


def test_example_stopping_on_the_gate_is_not_enough() -> None:
    """Fine del gioco: the king enters the castle by leaving the gate space off the
    board; stopping on the gate is not enough."""
    s = scenario({"king": "C4"}, card=12)
    legal(s, step("king", "N"))
    assert cell(s, "king") == "C3" and s.to_move() == 0
    events = legal(s, step("king", "N"))
    assert [e.type for e in events] == ["king_escaped", "game_over"]
    out = s.outcome()
    assert out is not None and out.winners == [0] and out.reason == "king-escaped"


def test_example_arrested_hidden_assassin_stays_secret_until_the_last() -> None:
    """Catturare un assassino nascosto: the Assassin player need not reveal an
    arrested assassin, so the King player never knows how many are left; the
    last one is announced and the King player wins at once."""
    s = scenario({"king": "J10", "knight1": "C4", "citizen1": "D4", "citizen2": "C5", "citizen3": "B4"})
    events = legal(s, Arrest("knight1", "citizen1"))
    public = [e.type for e in events if e.visible_to(0)]
    assert public == ["arrested"]
    assert [e.type for e in events if e.visible_to(1)] == ["arrested", "arrested_assassin"]
    assert "assassins_left" not in s.view(0) and s.view(1)["assassins_left"] == 2
    refused(s, Arrest("knight1", "citizen2"), "arrest.one-per-turn")
    legal(s, End())
    legal(s, End())
    # Next rounds: the other two go too; the last arrest ends the game for all to see.
    s.deck.remove(3)
    s.deck.insert(0, 3)
    from rules.king_and_assassins.moves import Draw

    legal(s, Draw(3))
    legal(s, Arrest("knight1", "citizen2"))
    assert s.to_move() == 0
    legal(s, End())
    legal(s, End())
    legal(s, Draw(4))
    events = legal(s, Arrest("knight1", "citizen3"))
    assert [(e.type, e.audience) for e in events] == [
        ("arrested", None),
        ("arrested_assassin", None),
        ("game_over", None),
    ]
    out = s.outcome()
    assert out is not None and out.winners == [0] and out.reason == "assassins-gone"
