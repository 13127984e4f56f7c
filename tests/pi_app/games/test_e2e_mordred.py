"""Whole games of Mordred through the simulated table: taps of building
pieces on the simulated pads, presses on gpiozero mock pins, dice drawn by
Tablekeeper (the sim profile) or entered with the buttons (a profile where
the table rolls); layouts, frames and light pins checked."""

from __future__ import annotations

import dataclasses
import random

import pytest

import rules
from pi_app.games import for_game
from pi_app.games.mordred.adapter import ENDINGS
from pi_app.ui.menu import Cursor
from pi_app.ui.screens import render
from rules.mordred import scoring
from rules.mordred.moves import Declare, Die, Roll
from rules.mordred.tables import BUILDINGS, FACES, ROWS, TABLES
from tests.pi_app.mordred_play import button_toward, enter_chance, play_moves
from tests.pi_app.table_checks import assert_refused, layout, pin_lit

GAME = "mordred"
pytestmark = pytest.mark.skipif(GAME not in rules.GAMES, reason="Mordred engine not registered")


def said(s):
    """Every line the table was told, in order."""
    return [line for rec in s.scene.transcript if rec.kind == "said" for line in rec.extra["lines"]]


def declare_with_buttons(rig, seat, row):
    """Step the row menu to ``row`` and declare it, as a player would: the
    row's own ● confirms it (the dice follow)."""
    s = rig.session
    label = f"Row {row}" if row else "No row (C)"
    for _ in range(len(ROWS) + 1):
        if layout(s, f"seat{seat + 1}.screen").big == label:
            break
        rig.press(f"seat{seat + 1}.right")
    assert layout(s, f"seat{seat + 1}.screen").big == label
    assert layout(s, f"seat{seat + 1}.screen").lines[0].startswith("● confirm")
    rig.press(f"seat{seat + 1}.ok")


def men_roll() -> tuple[str, tuple[int, int]]:
    """A row and two dice that bring Mordred men, read off the money table."""
    for row in ROWS:
        for face in FACES:
            if TABLES.money[row][face].black:
                return row, (face, face)
    raise AssertionError("the money table has no black box")


@pytest.mark.parametrize("players", [3, 4])
def test_whole_game_with_refusals(rig, players):
    r = rig(players)
    s = r.open(GAME)
    rng = random.Random(players)
    assert s.scene.state.to_move() == 0
    assert layout(s, "seat1.screen").title == "Declare a row"
    assert pin_lit(r, 0) and not any(pin_lit(r, i) for i in range(1, players))
    # A waiting seat sees its money, its pawn, its pieces and the track.
    waiting = layout(s, "seat2.screen")
    assert waiting.title == "Waiting: Player 1"
    assert waiting.big == f"£0  track {TABLES.dragon + 1}"
    assert waiting.lines[0] == (f"Left: {TABLES.per_player['village']} villages, "
                                f"{TABLES.per_player['town']} towns, {TABLES.per_player['small_castle']} "
                                f"small castles, {TABLES.per_player['large_castle']} large castles")
    # Out of turn; another seat's piece; an unknown tag; a building before the row.
    assert_refused(r, 1, lambda: r.tap(1, "village@2"), contains="turn")
    assert_refused(r, 0, lambda: r.tap(0, "town@2"), contains="belongs to Player 2")
    assert_refused(r, 0, lambda: r.tap_uid(0, "04AABBCCDDEEFF"), contains="04AABBCCDDEEFF")
    assert_refused(r, 0, lambda: r.tap(0, "village@1"), contains="Declare a row")
    # The row with the buttons; Tablekeeper rolls (sim profile) and says what to take.
    declare_with_buttons(r, 0, "B")
    rolled = s.scene.state.view(None)
    assert rolled["row"] == "B" and rolled["dice"] is not None
    shared = layout(s, "shared.screen")
    assert shared.big.startswith("Take £")
    men = len(s.scene.state.view(None)["mordred_men"])
    phase = "place men" if s.scene.state.view(None)["phase"] == "place" else "spend"
    assert shared.lines[-2:] == (f"Round 1: {phase} · Mordred's men {men} of {TABLES.men}",
                                 "Pawns: " + ", ".join(f"Player {i + 1} on {p['pawn'] + 1}" for i, p in
                                                       enumerate(s.scene.state.view(None)["players"])))
    # Spending with too little money for a large castle: the engine's reason.
    play_moves(r, rng, until=lambda: s.scene.state.view(None)["phase"] == "spend"
               and s.scene.state.view(None)["players"][s.scene.state.to_move()]["money"] < TABLES.cheapest())
    seat = s.scene.state.to_move()
    me = s.scene.state.view(None)["players"][seat]
    # Spending, the seat's own screen keeps its money and its pawn in the title.
    assert layout(s, f"seat{seat + 1}.screen").title == f"Spend £{me['money']} · track {me['pawn'] + 1}"
    assert_refused(r, seat, lambda: r.tap(seat, f"large_castle@{seat + 1}"), contains="large castle")
    assert "you have £" in s.scene.transcript[-1].text
    play_moves(r, rng)
    outcome = s.scene.state.outcome()
    assert outcome is not None
    shared = layout(s, "shared.screen")
    assert shared.title == "GAME OVER" and "Winner" in shared.big
    assert shared.lines[0].rstrip(".") in {en for en, _ in ENDINGS.values()}, shared.lines
    assert any(line.startswith("Game over: ") for line in said(s))
    assert s.journal.current() is None
    for seat in s.scene.flash_until:  # let any refusal's flash run out
        s.scene.flash_until[seat] = 0.0
    s.tick()
    for seat in range(players):
        assert pin_lit(r, seat) == (seat in outcome.winners)
        assert layout(s, f"seat{seat + 1}.screen").title == "GAME OVER"
    assert r.table.frames("shared.screen")[-1].tobytes() == render(shared).tobytes()


def test_dice_entered_at_the_table_and_combat_guided(rig):
    r = rig(3)
    r.profile = dataclasses.replace(r.profile, chance="table")
    s = r.open(GAME)
    row, dice = men_roll()
    declare_with_buttons(r, 0, row)
    # The roll waits for the table: every screen says what to enter.
    assert layout(s, "shared.screen").title == f"Roll 2 dice, row {row}"
    assert layout(s, "seat2.screen").title == f"Roll 2 dice, row {row}"
    assert_refused(r, 0, lambda: r.tap(0, "village@1"), contains="enter")
    enter_chance(r, Roll(dice), seat=2)
    face = TABLES.money[row][dice[0]]
    men = 2 * face.men
    assert s.scene.state.view(None)["dice"] == list(dice)
    assert s.scene.log[-1] == (f"Take £{2 * face.money}, {men} men, pawn {men} left "
                               f"({dice[0]}+{dice[1]}, row {row})")
    dragon = TABLES.dragon
    assert layout(s, "seat2.screen").lines[1:] == (
        "0 victory points",
        f"Pawns: Player 1 on {dragon - men + 1}, Player 2 on {dragon + 1}, Player 3 on {dragon + 1}")
    # Each man placed with the buttons, named as on the map.
    assert layout(s, "seat1.screen").title == f"Place a man ({men} left)"
    space = layout(s, "seat1.screen").big
    assert space in TABLES.spaces
    r.press("seat1.ok")  # played at once: undo takes a man back
    assert space in s.scene.state.view(None)["mordred_men"]
    assert s.scene.log[-1] == f"Put a Mordred man on {space}"
    # Play on (dice entered with the buttons) until Mordred attacks a piece:
    # the table is told who attacks what and what the die needs.
    rng = random.Random(11)
    play_moves(r, rng, until=lambda: s.scene.state.view(None)["phase"] == "mordred_die")
    prompt = s.scene.state.view(None)["prompt"]
    assert layout(s, "shared.screen").title == f"Mordred on {prompt['space']}: {prompt['need']}+"
    said_last = s.scene.log[-1]
    assert said_last.startswith("Mordred attacks") and said_last.endswith(f"roll {prompt['need']}+")
    enter_chance(r, Die(prompt["need"]), seat=1)  # he makes it: the piece goes home
    assert prompt["space"] in s.scene.state.view(None)["mordred_men"]
    assert any(line.startswith(f"Die {prompt['need']}: man on {prompt['space']}, ") for line in s.scene.log)
    # ... and until a player attacks a man: the die needed, then the man removed.
    play_moves(r, rng, until=lambda: s.scene.state.view(None)["phase"] == "attack_die")
    prompt = s.scene.state.view(None)["prompt"]
    assert layout(s, "shared.screen").title == f"Attack {prompt['space']}: {prompt['need']}+"
    assert s.scene.log[-1].startswith("Pay £")
    enter_chance(r, Die(6), seat=0)
    assert any(line.startswith(f"Die 6: remove the man from {prompt['space']}") for line in s.scene.log)
    play_moves(r, rng)
    assert s.scene.state.outcome() is not None
    assert "Winner" in layout(s, "shared.screen").big or "Winners" in layout(s, "shared.screen").big


def test_dice_entered_one_die_at_a_time(rig):
    r = rig(3)
    r.profile = dataclasses.replace(r.profile, chance="table")
    s = r.open(GAME)
    declare_with_buttons(r, 0, "A")
    # The first die: six faces, not a list of 36 pairs.
    shared = layout(s, "shared.screen")
    assert (shared.title, shared.big, shared.lines) == ("Roll 2 dice, row A", "1", ("First die  1/6",))
    r.press("seat2.left")  # from 1 back round to 6
    assert layout(s, "shared.screen").big == "6"
    r.press("seat2.ok")
    # The second die: six faces and the way back to the first.
    assert layout(s, "shared.screen").lines == ("Second die  1/7",)
    for _ in range(3):
        r.press("seat3.right")
    r.press("seat3.ok")
    confirm = layout(s, "shared.screen")
    assert confirm.big == "Dice 6 + 4" and "confirm" in confirm.text()
    r.press("seat1.ok")
    assert s.scene.state.view(None)["dice"] == [6, 4]
    assert s.scene.log[-1].endswith("(6+4, row A)")


def test_any_roll_takes_at_most_nine_presses():
    # Three steps at most to each die (either way round), ok on each, ok to confirm;
    # the single menu of 36 pairs needed up to 18 steps.
    state = rules.get(GAME).new_game(3, 1)
    state.apply(Declare("C"))
    worst = 0
    for a in FACES:
        for b in FACES:
            cursor, presses, move = Cursor.over(state.legal_moves()), 0, None
            while move is None:
                button = button_toward(cursor, Roll((a, b)))
                presses += 1
                if button == "ok":
                    move = cursor.select()
                else:
                    cursor.step(1 if button == "right" else -1)
            assert move == Roll((a, b))
            worst = max(worst, presses)
    assert worst == 9


def test_building_chosen_by_tapping_a_piece(rig):
    r = rig(3)
    s = r.open(GAME)
    rng = random.Random(5)
    # Until a seat may build a village: its tap opens the list of spaces.
    play_moves(r, rng, until=lambda: s.scene.state.view(None)["phase"] == "spend" and any(
        m.to_json().get("building") == "village" for m in s.scene.state.legal_moves()))
    seat = s.scene.state.to_move()
    spaces = [m.to_json()["space"] for m in s.scene.state.legal_moves()
              if m.to_json().get("building") == "village"]
    r.tap(seat, f"village@{seat + 1}")
    if len(spaces) > 1:
        screen = layout(s, f"seat{seat + 1}.screen")
        assert screen.big == spaces[0] and screen.lines[0].split() == ["Space", "1/" + str(len(spaces) + 1)]
        r.press(f"seat{seat + 1}.ok")
        r.press(f"seat{seat + 1}.ok")
    assert s.scene.state.view(None)["pieces"][spaces[0]] == {"owner": seat, "building": "village"}
    assert s.scene.log[-1].startswith(f"Put a village on {spaces[0]} (£")


def test_italian_table(rig):
    r = rig(3)
    s = r.open(GAME, lang="it")
    assert layout(s, "seat1.screen").title == "Dichiara una riga"
    assert layout(s, "seat2.screen").big == f"0£  tracciato {TABLES.dragon + 1}"
    r.tap(1, "village@2")
    assert "Turno: Giocatore 1, non Giocatore 2" in layout(s, "seat2.screen").text()
    r.press("seat2.ok")
    r.tap(0, "village@1")
    assert "Dichiarate una riga" in layout(s, "seat1.screen").text()


def test_components_and_words():
    adapter = for_game(GAME, 4)
    comps = adapter.components()
    assert len(comps) == 4 * len(BUILDINGS)
    assert {c.count for c in comps if c.value == "village"} == {TABLES.per_player["village"]}
    assert adapter.enroll_prompt(adapter.component("small_castle@3"), "en") == "a small castle of Player 3"
    it = for_game(GAME, 4, "it")
    assert it.move_text({"type": "build", "building": "town", "space": "Flint"}, "it") == "Città su Flint"
    assert adapter.move_text(Declare(None).to_json(), "en") == "No row (C)"
    lines = adapter.event_lines("built", {"seat": 1, "building": "town", "space": "Flint", "cost": 4,
                                          "replaced": "village"}, "en")
    assert lines == ["Town for the village on Flint (£4)"]
    assert adapter.event_lines("player_combat", {"seat": 0, "from": "Flint", "space": "Denbigh", "need": 6,
                                                 "die": 3, "success": False}, "en") == \
        ["Die 3: the man on Denbigh stays"]
    assert adapter.event_lines("mordred_combat", {"space": "Flint", "owner": 2, "building": "village",
                                                  "need": 2, "die": 1, "success": False}, "en") == \
        ["Die 1: the village holds, discard the man"]


def test_undo_a_build_but_never_a_roll(rig):
    r = rig(3)
    s = r.open(GAME)
    # Right after the roll Tablekeeper drew: the dice are not taken back.
    declare_with_buttons(r, 0, "A")
    assert s.journal.entries(s.scene.record)[-1].chance
    before = s.scene.state.to_json()
    r.press("shared.undo")
    assert "Cannot undo past a chance step" in layout(s, "shared.screen").title
    assert s.scene.state.to_json() == before
    # A build is undone after the confirming second press.
    play_moves(r, random.Random(2), until=lambda: s.scene.state.view(None)["phase"] == "spend" and any(
        m.to_json()["type"] == "build" for m in s.scene.state.legal_moves()))
    before = s.scene.state.to_json()
    build = next(m for m in s.scene.state.legal_moves() if m.to_json()["type"] == "build")
    s.commit.play(s.scene.state.to_move(), build)
    assert s.scene.state.to_json() != before
    r.press("shared.undo")
    assert layout(s, "shared.screen").title == "UNDO?"
    r.press("shared.undo")
    assert s.scene.state.to_json() == before
    assert layout(s, "shared.screen").big.startswith("Undone: ")


@pytest.mark.parametrize(("outcome", "big", "lines"), [
    (scoring.decide("track_end", 0, 5, 4, [9, 9, 7], [4, 3, 30], [0, 0, 0]), "Winner: Player 1",
     ["A pawn could not move the full distance on the Mordred track.",
      "Mordred won Wales (5 men against 4 pieces): the pawn furthest right on the Mordred track wins.",
      "Tie: victory points decide."]),
    (scoring.decide("all_men_placed", 0, 1, 4, [0, 9, 7], [10, 10, 3], [4, 4, 9]),
     "Winners: Player 1, Player 2",
     ["All of Mordred's men are on the map.",
      "King Arthur held Wales (1 man of Mordred's against 4 pieces): most victory points wins.",
      "Tie: the victory is shared."]),
    (scoring.decide("mordred_slain", 2, 30, 4, [0, 9, 7], [10, 10, 3], [4, 4, 9]), "Winner: Player 3",
     ["Mordred was defeated in his castle on Anglesey.", "Whoever defeats Mordred wins outright."]),
])
def test_the_end_is_announced_with_its_reason(outcome, big, lines):
    said_big, said = for_game(GAME, 3).outcome_lines(outcome, "en")
    assert said_big == big
    assert said[:len(lines)] == lines
    vp = outcome.detail["vp"]
    assert said[len(lines):] == [f"Player {s + 1}: {vp[s]} victory point{'' if vp[s] == 1 else 's'}, "
                                 f"£{outcome.detail['money'][s]}, track {outcome.detail['pawns'][s] + 1}"
                                 for s in range(3)]


def test_unofficial_two_player_game_is_marked_and_plays_to_the_end(rig):
    r = rig(2)
    s = r.open(GAME, options={"unofficial_two_players": True})
    dragon = TABLES.dragon
    on = dragon + 1  # the track's spaces counted from 1
    assert layout(s, "shared.screen").lines[-1] == f"Pawns: Player 1 on {on}, Player 2 on {on} · unofficial"
    play_moves(r, random.Random(2))
    assert s.scene.state.outcome() is not None and layout(s, "shared.screen").title == "GAME OVER"


@pytest.mark.parametrize(("outcome", "lines"), [
    (scoring.decide("track_end", 0, 5, 4, [9, 9, 7], [4, 3, 30], [0, 0, 0]),
     ["Un pedone non ha potuto muoversi di tutti gli spazi sul Tracciato di Mordred.",
      "Mordred ha vinto il Galles (5 uomini contro 4 pezzi): vince il pedone più a destra sul "
      "Tracciato di Mordred.", "Parità: decidono i punti vittoria."]),
    (scoring.decide("all_men_placed", 0, 1, 4, [0, 9, 7], [10, 10, 3], [4, 4, 9]),
     ["Tutti gli uomini di Mordred sono sulla mappa.",
      "Re Artù ha tenuto il Galles (1 uomo di Mordred contro 4 pezzi): vince chi ha più punti vittoria.",
      "Parità: la vittoria è condivisa."]),
    (scoring.decide("mordred_slain", 2, 30, 4, [0, 9, 7], [10, 10, 3], [4, 4, 9]),
     ["Mordred è stato sconfitto nel suo Castello di Anglesey.",
      "Chi sconfigge Mordred vince subito la partita."]),
])
def test_the_end_says_in_italian_sentences_why_who_wins(outcome, lines):
    # Seen: "Vince Mordred: pedoni", and "Tutti gli uomini fuori" when all Mordred's men were on the map.
    _, said = for_game(GAME, 3, "it").outcome_lines(outcome, "it")
    assert said[:len(lines)] == lines
