"""Whole games of Artus through the simulated table (taps on simulated pads,
presses on gpiozero mock pins), in both modes, with Tablekeeper drawing the
cards or the players tapping the cards they drew; every screen checked for
secrets after every input (tests/pi_app/artus_play.py)."""

from __future__ import annotations

import dataclasses
import random

import pytest

import rules
from pi_app.games.artus.words import card_name
from pi_app.ui.screens import render
from rules.core import CHANCE
from tests.pi_app.artus_play import check_screens, hand_text, play_moves, step
from tests.pi_app.table_checks import assert_refused as _assert_refused
from tests.pi_app.table_checks import layout, pin_lit

GAME = "artus"
pytestmark = pytest.mark.skipif(GAME not in rules.GAMES, reason="Artus engine not registered")


def assert_refused(rig, seat, attempt, *, contains):
    _assert_refused(rig, seat, attempt, contains=contains, check=check_screens)


def assert_told_the_table(session) -> None:
    """Every displacement and rotation the engine reported was said, naming
    the seats (as "12→16" or "from place 12 to place 16")."""
    events: list[dict] = []
    said = 0
    for rec in session.scene.transcript:
        if rec.kind in ("move", "chance"):
            events.extend(rec.extra["events"])
        elif rec.kind == "said":
            text = " ".join(rec.extra["lines"])
            for ev in events:
                p = ev
                if ev["type"] in ("figure_moved", "displaced"):
                    a, b = p["from"], p["to"]
                    assert f"{a}→{b}" in text or f"{a} to place {b}" in text or f"{a} al posto {b}" in text \
                        or f"{a} al {b}" in text, (ev, text)
                    said += 1
                elif ev["type"] == "table_rotated":  # said, or said with the King ("King+crown 0→5")
                    to = p["to"]
                    assert any(f in text for f in (f"→{to}", f"place {to}", f"posto {to}")), text
                    said += 1
            events = []
    assert said > 0


def finish(rig, rng, players):
    s = rig.session
    play_moves(rig, rng)
    outcome = s.scene.state.outcome()
    assert outcome is not None and outcome.winners
    shared = layout(s, "shared.screen")
    assert shared.title in ("GAME OVER", "FINE PARTITA")
    assert shared.big.split()[0] in ("Winner:", "Winners:", "Vince:", "Vincono:")
    for p in outcome.winners:
        assert f"{p + 1}" in shared.big
    assert rig.table.frames("shared.screen")[-1].tobytes() == render(shared).tobytes()
    assert s.journal.current() is None
    for seat in s.scene.flash_until:  # let any refusal's flash run out
        s.scene.flash_until[seat] = 0.0
    s.tick()
    for seat in range(players):
        assert pin_lit(rig, seat) == (seat in outcome.winners)
    assert_told_the_table(s)


@pytest.mark.parametrize(("players", "mode"), [(2, "beginner"), (3, "advanced"), (4, "beginner")])
def test_whole_game_drawn_by_tablekeeper(rig, players, mode):
    r = rig(players)
    s = r.open(GAME, options={"mode": mode}, seed=players)
    rng = random.Random(players)
    # The opening hands were drawn by Tablekeeper: each hand only on its own screen.
    view = s.scene.state.view(None)
    assert view["phase"] == "place" and s.scene.state.to_move() == players - 1
    assert "Take the cards shown on your screen" in layout(s, "shared.screen").big
    for p in range(players):
        assert layout(s, f"seat{p + 1}.screen").big == hand_text(s, p) or s.scene.state.to_move() == p
    check_screens(r)
    placer = players - 1
    other = (placer + 1) % players
    mine = s.scene.state.view(placer)["hand"][0]
    assert_refused(r, other, lambda: r.tap(other, f"{mine}@{other + 1}"), contains="turn")
    assert_refused(r, placer, lambda: r.tap(placer, f"{mine}@{other + 1}"),
                   contains=f"belongs to Player {other + 1}")
    assert_refused(r, placer, lambda: r.tap_uid(placer, "04AABBCCDDEEFF"), contains="04AABBCCDDEEFF")
    assert_refused(r, placer, lambda: r.tap(placer, f"{mine}@{placer + 1}"),
                   contains="Knights are still being placed")
    while s.scene.state.view(None)["phase"] == "place":
        step(r, rng)
    # Seat 1 plays: a card still in its pile is refused with the reason.
    assert s.scene.state.to_move() == 0
    pile_card = next(c for c in s.scene.state.view(0)["hand"] + ["knight-1-3", "knight-5-8", "king-4-8"]
                     if c not in s.scene.state.view(0)["hand"])
    assert_refused(r, 0, lambda: r.tap(0, f"{pile_card}@1"), contains="still in its pile")
    played = []
    while not played:
        step(r, rng)
        played = s.scene.state.view(None)["played"][0]
    while s.scene.state.to_move() != 0 or s.scene.state.view(None)["phase"] != "play":
        step(r, rng)
    assert_refused(r, 0, lambda: r.tap(0, f"{played[0]}@1"), contains="already played")
    finish(r, rng, players)


def test_whole_game_players_tap_their_draws(rig):
    """A table that enters chance: each drawn card is tapped on its drawer's
    pad; the shared screen offers no menu of cards; the drawer alone sees it."""
    r = rig(2)
    r.profile = dataclasses.replace(r.profile, chance="table")
    s = r.open(GAME, options={"mode": "advanced"}, seed=11, lang="it")
    rng = random.Random(11)
    assert s.scene.state.to_move() == CHANCE
    shared = layout(s, "shared.screen")
    assert shared.title == "Pescata di Giocatore 1: carta Cavaliere" and not shared.footer
    assert layout(s, "seat1.screen").big == "Tocca la carta Cavaliere pescata"
    card = s.scene.state.sample_chance().to_json()["card"]
    # The other seat's card, or a King card while a Knight card is drawn: refused.
    assert_refused(r, 1, lambda: r.tap(1, f"{card}@2"), contains="Attendi")
    assert_refused(r, 0, lambda: r.tap(0, "king-4-8@1"), contains="Attendi")
    before = s.scene.state.to_json()
    r.press("seat2.ok")
    r.press("seat1.right")
    assert s.scene.state.to_json() == before  # no menu picks a secret card
    r.tap(0, f"{card}@1")
    assert s.scene.state.view(0)["hand"] == [card]
    assert card in s.scene.state.view(0)["hand"] and hand_text(s, 0) in layout(s, "seat1.screen").text()
    while s.scene.state.view(None)["phase"] != "play":
        step(r, rng)
    # A refill: only the drawer's screen names the new card.
    while not (0 in s.scene.adapter.drawn and s.scene.state.to_move() == 1):
        step(r, rng)
    short = card_name(s.scene.adapter.drawn[0], "it")
    assert f"carta nuova: {short}" in layout(s, "seat1.screen").text()
    assert f"carta nuova: {short}" not in layout(s, "seat2.screen").text()
    assert short not in layout(s, "shared.screen").text()
    assert "Giocatore 1 pesca carta" in " ".join(rec.text for rec in s.scene.transcript if rec.kind == "said")
    finish(r, rng, 2)


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_drawn_card_tapped_on_another_seats_pad_is_refused_unseen(rig, lang):
    r = rig(2)
    r.profile = dataclasses.replace(r.profile, chance="table")
    s = r.open(GAME, options={"mode": "advanced"}, seed=11, lang=lang)
    assert s.scene.adapter.chance_seat(s.scene.state) == 0
    card = s.scene.state.sample_chance().to_json()["card"]
    # Seat 1's drawn card on seat 2's pad would reveal it on seat 2's screen.
    drawer = ("Player 1", "Giocatore 1")[lang == "it"]
    assert_refused(r, 1, lambda: r.tap(1, f"{card}@1"), contains=drawer)
    assert card_name(card, lang) not in layout(s, "seat2.screen").text()
    assert s.scene.transcript[-1].extra["code"] == "table.draw-own-pad"
    assert s.scene.state.view(0)["hand"] == []
    r.tap(0, f"{card}@1")  # on its own pad: drawn
    assert s.scene.state.view(0)["hand"] == [card]


def _in_play(seed: int = 3):
    """A 2-player beginner game just past the placing, played by the engine."""
    state = rules.get(GAME).new_game(2, seed, {"mode": "beginner"})
    rng = random.Random(seed)
    while state.view(None)["phase"] != "play":
        state.apply(state.sample_chance() if state.is_chance() else rng.choice(state.legal_moves()))
    return state


@pytest.mark.parametrize("lang", ["en", "it"])
def test_instructions_name_the_figures_and_seats(lang):
    from pi_app.games.artus.adapter import ArtusAdapter, fits_big
    from rules.core import Event

    adapter = ArtusAdapter(2, lang)
    state = _in_play()
    moved = Event("figure_moved", {"figure": "king", "colour": "silver", "name": "silver King",
                                   "from": 0, "to": 5, "steps": 5, "player": 0})
    bumped = Event("displaced", {"figure": "prince", "colour": "bronze", "name": "bronze prince",
                                 "from": 5, "to": 4})
    turned = Event("table_rotated", {"from": 0, "to": 5})
    single = adapter.instructions(state, [], [moved], state, lang)
    assert len(single) == 1
    assert any(f in single[0] for f in ("0→5", "place 0 to place 5", "dal posto 0 al posto 5")), single
    lines = adapter.instructions(state, [], [moved, bumped, turned], state, lang)
    text = " ".join(lines)
    assert ("King" in text or "Re" in text) and "5→4" in text and "0→5" in text
    assert ("bronze prince" in text) == (lang == "en")
    # The big line whole, and the prestige of every seat still on the shared screen.
    public = adapter.public_lines(state, lang)
    assert fits_big(lines[-1], [*lines[:-1], *public])
    assert len(lines) <= 2 and public[0].startswith(("P1:", "G1:"))


def test_a_cards_instruction_stays_on_the_shared_screen_while_its_player_draws(rig):
    r = rig(2)
    s = r.open(GAME, seed=4)
    rng = random.Random(4)
    checked = 0
    while s.scene.state.outcome() is None and checked < 5:
        step(r, rng)
        view = s.scene.state.view(None)
        if view["phase"] != "draw" or s.scene.state.is_chance():
            continue
        (done,) = [e for e in s.scene.transcript[-2].extra["events"]
                   if e["type"] in ("figure_moved", "ring_added")]
        forms = ([f"{done['from']}→{done['to']}", f"place {done['from']} to place {done['to']}"]
                 if "from" in done else [f"place {done['seat']})", f" {done['seat']}."])
        assert any(f in layout(s, "shared.screen").text() for f in forms), forms
        step(r, rng)  # the pile chosen, the card drawn by Tablekeeper
        shared = layout(s, "shared.screen")
        # the draw is said too, unless the instruction (in whole words) takes the big line's
        # room: it is on the drawer's own screen as well
        assert "draws a" in shared.text() or ";" in shared.big, shared
        assert any(f in shared.text() for f in forms), (forms, shared)
        checked += 1
    assert checked == 5


@pytest.mark.parametrize(("lang", "down", "up"), [("en", "on its side", "marker up"),
                                                  ("it", "coricato", "in piedi")])
def test_a_score_crossing_zero_turns_the_marker(lang, down, up):
    from pi_app.games.artus.adapter import ArtusAdapter
    from rules.core import Event

    adapter = ArtusAdapter(2, lang)
    state = _in_play()
    moved = Event("figure_moved", {"figure": "knight", "owner": 1, "name": "knight of player 1",
                                   "from": 3, "to": 5, "steps": 2, "player": 1})

    def said(before: int, points: int) -> str:
        scored = Event("prestige", {"player": 1, "points": points, "score": before + points,
                                    "reason": "seat left", "seat": 3})
        return " ".join(adapter.instructions(state, [], [moved, scored], state, lang))

    if lang == "en":
        assert down in said(4, -7) and "Player 2" in said(4, -7)
        assert up in said(-3, 5)
    else:
        # In whole words ("del Giocatore 2", not "G2") the marker's side gives way
        # to the move where both do not fit the big line (the prestige row's sign shows it).
        assert "Giocatore 2" in said(4, -7) and "G2" not in said(4, -7)
    for before, points in ((4, -4), (-3, 2), (10, 5)):
        text = said(before, points)
        assert down not in text and up not in text, text


def test_prince_taps_pick_the_figure(rig):
    r = rig(2)
    s = r.open(GAME, seed=5)
    rng = random.Random(5)
    while s.scene.state.view(None)["phase"] != "play":
        step(r, rng)
    seat = s.scene.state.to_move()
    before = s.scene.state.to_json()
    r.tap(seat, "prince:silver:2")  # the second silver figure: it starts on place 14
    lay = layout(s, f"seat{seat + 1}.screen")
    if lay.alert:
        assert "second silver prince" in lay.text()
    else:
        cursor = s.scene.seats[seat].cursor
        assert {m.to_json()["seat"] for m in cursor.moves} == {14}
    assert s.scene.state.to_json() == before


def test_a_secret_input_is_hidden_from_the_transcript():
    from pi_app.games.artus.adapter import ArtusAdapter

    adapter = ArtusAdapter(2)
    state = _in_play()
    hand = state.view(0)["hand"]
    elsewhere = next(c for c in ("knight-1-3", "knight-5-8", "king-4-8", "ring-both") if c not in hand)
    assert adapter.hides_input(state, 0, f"{elsewhere}@1")
    assert not adapter.hides_input(state, 0, f"{hand[0]}@1")
    assert not adapter.hides_input(state, 0, None)
    assert adapter.record_text({"type": "card", "card": hand[0]}, "en") == "a card drawn"


def test_restart_resumes_and_undo_stops_at_a_draw(rig):
    r = rig(3)
    s = r.open(GAME, options={"mode": "advanced"}, seed=9)
    rng = random.Random(9)
    while s.scene.state.view(None)["phase"] == "place":
        step(r, rng)
    state, shared = s.scene.state.to_json(), layout(s, "shared.screen").lines
    s2 = r.open()  # a fresh table and journal connection resumes the game
    assert s2.scene.state.to_json() == state and layout(s2, "shared.screen").lines == shared
    check_screens(r)
    # The first card of an advanced turn can be undone; a draw cannot.
    before = s2.scene.state.to_json()
    step(r, random.Random(1))
    assert s2.scene.state.view(None)["plays_left"] == 1
    r.press("shared.undo")
    r.press("shared.undo")
    assert s2.scene.state.to_json() == before
    while s2.scene.state.view(None)["phase"] != "draw" or s2.scene.state.is_chance():
        step(r, rng)
    step(r, rng)  # the pile chosen and the card drawn by Tablekeeper
    drawn = s2.scene.state.to_json()
    r.press("shared.undo")
    assert "Cannot undo past" in layout(s2, "shared.screen").title
    r.press("shared.undo")
    assert s2.scene.state.to_json() == drawn


@pytest.mark.parametrize("lang", ["en", "it"])
def test_instructions_say_players_and_figures_in_whole_words(lang):
    # Seen: "Sposta cav. G1 3→5; Re+corona 7→9; segn. G2 coricato".
    import re

    from pi_app.games.artus.adapter import ArtusAdapter
    from rules.core import Event

    adapter = ArtusAdapter(2, lang)
    state = _in_play()
    events = [Event("figure_moved", {"figure": "knight", "owner": 0, "name": "knight of player 0",
                                     "from": 3, "to": 5, "steps": 2, "player": 0}),
              Event("figure_moved", {"figure": "king", "colour": "silver", "name": "king",
                                     "from": 7, "to": 9, "steps": 2, "player": 0}),
              Event("ring_added", {"figure": "prince", "colour": "bronze", "seat": 12, "player": 0}),
              Event("prestige", {"player": 1, "points": -7, "score": -3, "reason": "seat left", "seat": 3})]
    text = " ".join(adapter.instructions(state, [], events, state, lang))
    assert not re.search(r"\b[PG]\d\b|\+corona|\+crown|\bcav\.|\bsegn\.", text), text
    assert ("Player 1's knight" if lang == "en" else "cavaliere del Giocatore 1") in text, text
    if lang == "it":  # the preposition joined to the article; colours as materials
        from pi_app.games.artus.words import card_name

        assert "sul principe di bronzo" in text and "su il " not in text, text
        assert card_name("ring-silver", "it") == "Anello d'argento"
        assert card_name("king-1-7-bronze", "it") == "Re 1-7 di bronzo"
