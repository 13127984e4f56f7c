"""The choices a Siege card or loss leaves to a player, asked at the table
(ruling: docs/rulings.md#siege-the-player-chooses): the menu lists them
in words, and the player's pick is the move made."""

from __future__ import annotations

import dataclasses
import random

from pi_app.games.siege.adapter import SiegeAdapter
from pi_app.games.siege.words import card_name, hand_text
from rules.siege import moves as mv
from tests.pi_app.siege_play import enter_chance, make, play_moves
from tests.pi_app.table_checks import layout
from tests.rules.siege.helpers import A, D, blank, give, play, put, two_swordsmen_beat_a_knight

GAME = "siege"


def _labels(adapter: SiegeAdapter, state, seat: int, lang: str = "en") -> list[str]:
    cursor = adapter.menu(state, seat)
    return [adapter.move_text(m.to_json(), lang) for m in cursor.moves]


def test_the_horn_of_joshuas_wall_is_named_at_the_table(rig):
    r = rig(2)
    r.profile = dataclasses.replace(r.profile, chance="table")
    s = r.open(GAME, seed=5)
    rng = random.Random(5)
    play_moves(r, rng, until=lambda: s.scene.state.view(None)["phase"] == "die"
               and s.scene.state.view(None)["seat"] == A)
    enter_chance(r, mv.Die(1))
    enter_chance(r, mv.Draw("horn_of_joshua"))
    walls = s.scene.state.walls()
    assert len(walls) > 1 and s.scene.state.legal_moves() == [mv.Raze(w) for w in walls]
    assert layout(s, "seat1.screen").title == "Horn: which wall goes?"
    make(r, mv.Raze(walls[1]), taps=False)
    assert walls[1] not in s.scene.state.walls() and walls[0] in s.scene.state.walls()
    said = " ".join(rec.text for rec in s.scene.transcript if rec.kind == "said")
    assert "Remove the Defender's Castle Walls (row 1 #2)" in said


def test_the_swordsman_lost_to_a_knight_is_named_in_words() -> None:
    s, _, _, _ = two_swordsmen_beat_a_knight()
    adapter = SiegeAdapter(2)
    assert adapter.step_title(s, "en") == "Lose 1 to hand-to-hand combat"  # one term for it
    assert adapter.step_title(s, "it") == "Perdi 1 per il corpo a corpo"
    assert _labels(adapter, s, A) == ["Lose Swordsman (row 1 #4)", "Lose Swordsman (row 1 #5)"]


def test_the_peasant_the_spear_converts_is_named_in_words() -> None:
    s = blank("die", seat=D)
    s.hands[D] = {"archer": 1}
    put(s, D, "rc", "peasant")
    play(s, mv.Die(1), mv.Draw("spear_of_destiny"))
    adapter = SiegeAdapter(2)
    labels = _labels(adapter, s, D)
    assert "Peasant to Archer: Peasant (castle row #2) to row 2 #1" in labels
    assert "Peasant to Archer: Peasant (castle row #3) to row 2 #2" in labels
    assert "Contadino: Arciere: Contadino (fila castello #3) in fila 2 #1" in _labels(adapter, s, D, "it")


# ruling: docs/rulings.md#siege-place-in-the-row
def test_the_place_in_the_row_is_asked_and_told_at_the_table(rig):
    r = rig(2)
    s = r.open(GAME, seed=3)
    rng = random.Random(3)
    play_moves(r, rng, until=lambda: s.scene.state.to_move() == A
               and s.scene.state.view(None)["phase"] == "play"
               and not s.scene.state.card_played)
    s.scene.state.hands[A]["knight"] = s.scene.state.hands[A].get("knight", 0) + 1
    s.scene.seats[A].cursor = None  # the menu is built afresh over the new hand
    row = list(s.scene.state.rows[A]["r2"])
    assert {m.at for m in s.scene.state.legal_moves()
            if isinstance(m, mv.Play) and m.card == "knight"} == set(
        range(len(row) + 1))
    n = len(s.scene.state.history)
    make(r, mv.Play("knight", at=0))
    assert s.scene.state.history[n] == mv.Play("knight", at=0)
    assert s.scene.adapter.move_text(mv.Play("knight", at=0).to_json(), "en") == "Play Knight to row 2 #1"
    assert SiegeAdapter(2).move_text({"type": "play", "card": "knight", "at": 0}, "it") == \
        "Gioca Cavaliere in fila 2 #1"


def test_the_shared_screen_says_where_a_played_card_goes() -> None:
    from pi_app.games.siege.said import said

    s = blank("play")
    give(s, A, "knight")
    put(s, A, "r2", "archer")
    before = s.view(None)
    ev = s.apply(mv.Play("knight", at=1))
    lines = [text for _, text in said(ev, [s.view(None), before], "en")]
    assert "Attacker: Knight to row 2 #2" in lines


def test_a_reinforcements_place_is_asked_in_words() -> None:
    from pi_app.games.siege.said import said

    s = blank("die")
    s.hands[A] = {"archer": 1}
    play(s, mv.Die(1), mv.Draw("reinforcement_knight"))
    adapter = SiegeAdapter(2)
    assert adapter.step_title(s, "en") == "Knight: where?"
    assert adapter.step_title(s, "it") == "Cavaliere: dove?"
    assert _labels(adapter, s, A)[0] == "Place to row 2 #1"
    before = s.view(None)
    ev = s.apply(mv.Place(0))
    assert "Knight arrives in row 2 #1" in [text for _, text in said(ev, [s.view(None), before], "en")]


def test_a_soldier_stepping_down_from_a_tower_is_placed_in_words() -> None:
    s = blank("play", seat=D)
    s.hands[D] = {"traitor": 1}
    tower = put(s, A, "r0", "siege_tower")
    sword = put(s, A, "r1", "swordsman")
    s.rows[A]["r1"].remove(sword)
    s.towers[tower].append(sword)
    play(s, mv.Play("traitor", tower, 0))
    adapter = SiegeAdapter(2)
    assert adapter.menu(s, A).moves and adapter.step_title(s, "en") == "Swordsman: where?"
    n = len(s.rows[A]["r1"])
    assert _labels(adapter, s, A)[-1] == f"Place to row 1 #{n + 1}"


def test_after_a_tap_the_screen_names_the_card_tapped_not_the_hand(rig):
    """The tapped card is the subject: its choices are shown under its own
    name, where the first level shows the whole hand to choose from."""
    r = rig(2)
    s = r.open(GAME, seed=3)
    rng = random.Random(3)
    play_moves(r, rng, until=lambda: s.scene.state.to_move() == A
               and s.scene.state.view(None)["phase"] == "play" and not s.scene.state.card_played)
    hand = s.scene.state.view(A)["hand"]
    moves = [m.to_json() for m in s.scene.state.legal_moves()]
    kinds = {c: {m["type"] for m in moves if m.get("card") == c} for c in hand}
    card = next(c for c in hand if len(kinds[c]) > 1)  # a card with a choice of what to do with it
    assert len(set(hand)) > 1
    assert layout(s, "seat1.screen").lines[0].startswith(hand_text(hand, "en"))
    r.tap(A, f"{card}@1")
    lines = layout(s, "seat1.screen").lines
    assert lines[0].startswith(card_name(card, "en")), lines
    assert hand_text(hand, "en") not in " ".join(lines)
