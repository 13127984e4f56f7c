"""One way of naming players in all five games (pi_app.names)."""

from __future__ import annotations

import re

import pytest

import rules
from pi_app import names as naming
from pi_app.games import for_game
from rules.core import Event
from rules.mordred import scoring

GAMES = [g for g in ("king-is-dead", "king-and-assassins", "mordred", "artus", "siege") if g in rules.GAMES]


def test_roles_where_the_game_has_them_else_player_n() -> None:
    assert naming.display_name("siege", 0, "en") == "Attacker"
    assert naming.display_name("siege", 1, "it") == "Difensore"
    assert naming.display_name("king-and-assassins", 0, "en") == "King"
    assert naming.display_name("artus", 2, "en") == "Player 3"
    assert naming.display_name("mordred", 1, "it") == "Giocatore 2"
    assert naming.display_name("king-is-dead", None, "en") == "-"


def test_a_lobby_name_and_a_computer_player() -> None:
    assert naming.display_name("artus", 0, "en", names=["Anna"]) == "Anna"
    assert naming.display_name("siege", 0, "en", computer=True) == "Attacker (computer)"
    assert len(naming.display_name("artus", 0, "en", names=["A" * 40])) == naming.MAX_NAME


@pytest.mark.parametrize("game", GAMES)
def test_every_game_names_the_player_to_move_the_same_way(rig, game: str) -> None:
    r = rig(3 if game == "mordred" else 2)
    s = r.open(game)
    to_move = s.scene.state.to_move()
    shared = s.layouts()["shared.screen"]
    if isinstance(to_move, int) and to_move >= 0:
        assert shared.title.startswith(f"Turn: {naming.display_name(game, to_move, 'en')}"), shared
    for layout in s.layouts().values():
        text = layout.text()
        assert not re.search(r"\b[Ss]eat \d\b", text) or game == "artus", text
        assert not re.search(r"\bP\d:? ", layout.title), layout.title


def test_artus_keeps_seat_for_the_round_table_only(rig) -> None:
    r = rig(2)
    s = r.open("artus")
    text = "\n".join(lay.text() for lay in s.layouts().values())
    assert "Player" in text
    assert not re.search(r"\b[Ss]eat [1-4]\b.*turn|Turn: [Ss]eat", text)


def test_king_and_assassins_says_who_ends_the_turn_by_role() -> None:
    from pi_app.games.king_and_assassins.words import event_lines

    assert event_lines([Event("turn_ended", {"seat": 0})], "en") == ["King ends the turn"]
    assert event_lines([Event("turn_ended", {"seat": 1})], "it") == ["Assassino finisce il turno"]


def test_mordreds_end_names_the_winner_as_a_player() -> None:
    outcome = scoring.decide("track_end", 0, 5, 4, [9, 9, 7], [4, 3, 30], [0, 0, 0])
    big, lines = for_game("mordred", 3).outcome_lines(outcome, "en")
    assert big == "Winner: Player 1"
    assert not any("seat" in line for line in lines)
