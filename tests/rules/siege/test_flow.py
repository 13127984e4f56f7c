"""A scripted opening: setup, the first day, feeding on the second."""

from __future__ import annotations

from rules.siege import moves as mv
from tests.rules.siege.helpers import A, D, new, play


def test_a_scripted_opening() -> None:
    s = new(seed=3)
    play(s, *(mv.Draw(c) for c in ("catapult", "archer", "archer", "supply_wagon", "siege_tower",
                                   "knight", "swordsman", "field_marshal")))
    play(s, mv.Play("field_marshal"), mv.Play("supply_wagon"), mv.Discard("siege_tower"))
    play(s, *(mv.Draw(c) for c in ("castle_walls", "moat", "archer", "archer", "oil", "peasant",
                                   "knight", "stonemason")))
    play(s, mv.Play("moat"), mv.Play("castle_walls"), mv.Discard("stonemason"))
    assert (s.turn, s.day, s.seat, s.phase) == (1, 1, A, "die")
    assert s.view(None)["sides"][D]["hand_size"] == 5 and len(s.walls()) == 6

    # Day 1, the Attacker: a sixth card, played; the catapult breaks a wall.
    play(s, mv.Die(6), mv.Draw("catapult"))
    assert s.phase == "play" and s.hand_size(A) == 6  # two wagons: no feeding
    play(s, mv.Play("catapult", at=len(s.rows[A]["r2"])))
    new_cat = s.rows[A]["r2"][-1]
    old_cat = s.rows[A]["r1"][0]
    play(s, mv.Attack(old_cat), mv.Target(s.walls()[0]), mv.Die(4))
    assert len(s.walls()) == 5
    play(s, mv.Attack(new_cat), mv.Target(s.walls()[0]), mv.Die(1), mv.EndPhase())
    # The Field Marshal lets the new catapult into row 1 (five cards).
    assert s.phase == "move" and mv.Shift(new_cat, "r1", 4) in s.legal_moves()
    play(s, mv.Shift(new_cat, "r1", 4))  # nothing else can move: the turn ends
    assert (s.turn, s.day, s.seat) == (2, 1, D)

    # Day 1, the Defender: Papal Injunction, then the play phase.
    play(s, mv.Die(2), mv.Draw("papal_injunction"))
    assert s.phase == "play"
    play(s, mv.Discard("oil"))
    assert (s.turn, s.day, s.seat, s.phase) == (3, 2, A, "die")  # no attack, nothing to move
    assert s.view(None)["events"] == [
        {"card": "papal_injunction", "seat": D, "variant": "", "turns_left": 1}
    ]

    # Day 2, the Attacker: Famine takes a wagon, so feeding falls due on this
    # even day; with no food in hand a troop starves, and the card is still free.
    play(s, mv.Die(3), mv.Draw("famine"))
    play(s, mv.Lose(unit=s.supplies(A)[-1]))  # the Attacker names the wagon lost
    assert len(s.supplies(A)) == 1 and s.view(None)["feeding_due"]
    assert s.phase == "lose" and s.losses == {"count": 1, "reason": "starve", "resume": "play"}
    knight = next(u for u in s.rows[A]["r1"] if u.startswith("knight"))
    play(s, mv.Lose(unit=knight))
    assert s.phase == "play" and s.to_move() == A and not s.card_played
