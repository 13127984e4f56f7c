"""Preparazione della Partita: layout, eight draws, three plays or discards."""

from __future__ import annotations

import rules
from rules.siege import moves as mv
from tests.rules.siege.helpers import A, D, new, play, refused


def test_opening_layout_by_rows() -> None:
    s = new()
    rows = [{r: [u.rsplit("-", 1)[0] for u in us] for r, us in s.rows[seat].items()} for seat in (A, D)]
    assert rows[A] == {"r0": [], "r1": ["catapult", "archer", "knight", "swordsman"], "r2": [],
                       "rc": ["commander", "supply_wagon"]}
    assert rows[D] == {"r0": [], "r1": ["castle_walls"] * 5, "r2": ["archer"],
                       "rc": ["castle_keep", "peasant"]}
    assert sum(s.decks[A]["normal"].values()) == 44 - 6
    assert sum(s.decks[D]["normal"].values()) == 47 - 8


def test_eight_cards_drawn_one_by_one_as_chance() -> None:
    s = new()
    assert s.to_move() == rules.CHANCE
    outcomes = dict(s.chance_outcomes())
    assert outcomes[mv.Draw("swordsman")] == 7.0  # weighted by the copies left (8, one in the layout)
    assert len(s.legal_moves()) == len(s.decks[A]["normal"])
    for _ in range(8):
        s.apply(s.sample_chance())
    assert s.hand_size(A) == 8 and s.phase == "setup" and s.to_move() == A


def _draw(s, *cards: str) -> None:  # type: ignore[no-untyped-def]
    play(s, *(mv.Draw(c) for c in cards))


def test_three_plays_or_discards_then_the_defender_then_the_attacker_begins() -> None:
    s = new()
    _draw(s, "knight", "knight", "archer", "supply_wagon", "catapult", "traitor", "assassin", "swordsman")
    play(s, mv.Play("knight", at=0), mv.Discard("assassin"), mv.Play("supply_wagon"))
    assert s.hand_size(A) == 5
    assert any(u.startswith("knight") for u in s.rows[A]["r2"])
    assert len(s.supplies(A)) == 2
    assert s.seat == D and s.phase == "setup_draw"
    _draw(s, "castle_walls", "moat", "archer", "archer", "oil", "peasant", "knight", "stonemason")
    play(s, mv.Play("castle_walls"), mv.Play("moat"), mv.Discard("oil"))
    assert len(s.walls()) == 6 and s.moat() is not None
    assert s.seat == A and s.phase == "die" and s.turn == 1 and s.day == 1


def test_defender_plays_only_walls_and_moat_at_setup() -> None:
    s = new()
    _draw(s, *["knight"] * 3, "archer", "archer", "swordsman", "swordsman", "catapult")
    assert s.phase == "setup"
    play(s, mv.Discard("knight"), mv.Discard("knight"), mv.Discard("knight"))
    _draw(s, "archer", "moat", "moat", "peasant", "oil", "knight", "castle_walls", "stonemason")
    refused(s, mv.Play("archer"), "siege.play.setup-defender")
    refused(s, mv.Play("stonemason"), "siege.play.setup-defender")
    play(s, mv.Play("moat"))
    refused(s, mv.Play("moat"), "siege.play.moat-present")
    play(s, mv.Discard("moat"), mv.Discard("archer"))
    assert s.phase == "die"


def test_setup_cannot_end_early_nor_draw_out_of_turn() -> None:
    s = new()
    _draw(s, *["knight"] * 4, *["archer"] * 4)
    refused(s, mv.EndPhase(), "siege.phase.wrong")
    refused(s, mv.Draw("knight"), "siege.phase.wrong")
