"""Whole games of Siege through the simulated table: taps of tagged cards on
the simulated pads, presses on gpiozero mock pins, frames from luma dummy
screens. Hands are checked after every input to show on their owner's screen
only (tests/pi_app/siege_play.py)."""

from __future__ import annotations

import dataclasses
import random

import pytest

import rules
from pi_app.games.siege.words import card_name, hand_text
from pi_app.ui.screens import render
from rules.siege import moves as mv
from rules.siege.data import CARDS
from tests.pi_app.siege_play import check_screens, make, play_moves, step
from tests.pi_app.table_checks import assert_refused as _assert_refused
from tests.pi_app.table_checks import layout, pin_lit

GAME = "siege"
pytestmark = pytest.mark.skipif(GAME not in rules.GAMES, reason="Siege engine not registered")
ATTACKER, DEFENDER = 0, 1


def assert_refused(rig, seat, attempt, *, contains):
    _assert_refused(rig, seat, attempt, contains=contains, check=check_screens)


def settle_lights(rig) -> None:
    """Let any refusal's flash run out."""
    for seat in rig.session.scene.flash_until:
        rig.session.scene.flash_until[seat] = 0.0
    rig.session.tick()


class Watch:
    """After every move: a feeding reminder exactly when feeding is due and
    pending, the events in force with their turns left on the shared screen."""

    def __init__(self, refuse: bool = False) -> None:
        self.reminders = 0
        self.events = 0
        self.refuse = refuse  # once: a card other than food tapped while feeding is due

    def __call__(self, rig) -> None:
        s = rig.session
        view = s.scene.state.view(None)
        shared = layout(s, "shared.screen")
        waiting_to_feed = view["phase"] == "feed" and view["to_move"] == view["seat"]
        if waiting_to_feed:
            assert view["feeding_due"]
            who = ("Attacker", "Defender")[view["seat"]]
            food = card_name(("supply_wagon", "peasant")[view["seat"]], "en")
            assert f"Day {view['day']}: {who}, feed! Tap a {food}" == shared.big, shared
            assert layout(s, f"seat{view['seat'] + 1}.screen").title == f"Feed: tap {food}"
            self.reminders += 1
            seat = view["seat"]
            other = [c for c in s.scene.state.view(seat)["hand"] if c != ("supply_wagon", "peasant")[seat]]
            if self.refuse and other:
                self.refuse = False
                assert_refused(rig, seat, lambda: rig.tap(seat, f"{other[0]}@{seat + 1}"),
                               contains=f"Feed your troops first: tap a {food}")
        else:
            assert "feed!" not in shared.big, (view["phase"], shared)
        sc = s.scene
        if sc.state.outcome() is not None or (sc.state.is_chance()
                                              and sc.adapter.chance_seat(sc.state) is None):
            return  # the final screen; or the menu a die is entered with
        for event in view["events"]:
            n = event["turns_left"]
            side = ("Attacker", "Defender")[event["seat"]]
            assert f"({side}) {n} turn" in "\n".join(shared.lines), (event, shared)
            self.events += 1


@pytest.mark.parametrize("seed", [11, 3])
def test_whole_game_cards_tapped_and_dice_entered(rig, seed):
    r = rig(2)
    r.profile = dataclasses.replace(r.profile, chance="table")
    s = r.open(GAME, seed=seed)
    rng = random.Random(seed)
    # The Attacker draws eight cards, tapping each on its own pad.
    assert layout(s, "shared.screen").title == "Attacker draws 1 of 8"
    assert layout(s, "seat1.screen").big == "Tap the card you drew"
    assert not pin_lit(r, ATTACKER) and not pin_lit(r, DEFENDER)  # a chance step: nobody's move
    # The Defender's card at the Attacker's draw reveals nothing.
    assert_refused(r, DEFENDER, lambda: r.tap(DEFENDER, "archer@2"), contains="Wait")
    for i in range(8):
        card = s.scene.state.sample_chance().to_json()["card"]
        r.tap(ATTACKER, f"{card}@1")
        seat1 = layout(s, "seat1.screen")
        if i < 7:
            assert f"new card: {card_name(card, 'en')}".lower() in seat1.text().lower()
        else:  # the eighth: the setup's menu says what to do, with the hand it is done with
            assert seat1.title == "Setup: play or discard 3 of your 8 cards"
            assert card_name(card, "en").lower() in seat1.text().lower()
        assert card_name(card, "en") not in layout(s, "shared.screen").text()
    assert "Attacker draws a card" in s.scene.log[-1]
    assert s.scene.state.to_move() == ATTACKER and len(s.scene.state.view(ATTACKER)["hand"]) == 8
    settle_lights(r)
    assert pin_lit(r, ATTACKER) and not pin_lit(r, DEFENDER)
    # Out of turn; the other side's card; a card the hand does not hold.
    assert_refused(r, DEFENDER, lambda: r.tap(DEFENDER, "knight@2"), contains="turn")
    assert_refused(r, ATTACKER, lambda: r.tap(ATTACKER, "knight@2"), contains="belongs to Defender")
    hand = s.scene.state.view(ATTACKER)["hand"]
    missing = next(c for c in ("siege_tower", "ballista", "traitor", "field_marshal", "catapult")
                   if c not in hand)
    assert_refused(r, ATTACKER, lambda: r.tap(ATTACKER, f"{missing}@1"), contains="already holds 8 cards")
    assert_refused(r, ATTACKER, lambda: r.tap_uid(ATTACKER, "04AABBCCDDEEFF"), contains="04AABBCCDDEEFF")
    # A card in the hand: the tap goes to its play or discard.
    r.tap(ATTACKER, f"{hand[0]}@1")
    assert {m.to_json()["card"] for m in s.scene.seats[ATTACKER].cursor.moves} == {hand[0]}
    assert layout(s, "seat1.screen").big in ("Play", "Discard")
    watch = Watch(refuse=True)
    # Into the first days, up to the Attacker's play phase with a full hand:
    # no sixth card is taken except by drawing one.
    play_moves(r, rng, until=lambda: s.scene.state.view(None)["phase"] == "play"
               and s.scene.state.to_move() == ATTACKER
               and len(s.scene.state.view(ATTACKER)["hand"]) >= 5, watch=watch)
    assert s.scene.state.outcome() is None
    hand = s.scene.state.view(ATTACKER)["hand"]
    missing = next(c for c in ("siege_tower", "ballista", "traitor", "field_marshal", "catapult", "knight")
                   if c not in hand)
    assert_refused(r, ATTACKER, lambda: r.tap(ATTACKER, f"{missing}@1"),
                   contains=f"already holds {len(hand)} cards")
    if len(hand) > 5:  # the phase does not end until the hand is back to five
        assert {"type": "end_phase"} not in [m.to_json() for m in s.scene.state.legal_moves()]
    play_moves(r, rng, watch=watch)
    outcome = s.scene.state.outcome()
    assert outcome is not None
    assert watch.reminders >= 1 and watch.events >= 1 and not watch.refuse
    shared = layout(s, "shared.screen")
    assert shared.title == "GAME OVER" and shared.big.endswith("wins")
    assert s.journal.current() is None
    settle_lights(r)
    for seat in (ATTACKER, DEFENDER):
        assert pin_lit(r, seat) == (seat in outcome.winners)
    assert r.table.frames("shared.screen")[-1].tobytes() == render(shared).tobytes()
    # Every hand draw went into the journal, but the transcript keeps it secret.
    drawn = [rec for rec in s.scene.transcript if rec.kind == "chance" and rec.move["type"] == "draw"]
    assert drawn and all(rec.text == "a card drawn" for rec in drawn
                         if CARDS[rec.move["card"]].kind != "event")


@pytest.mark.parametrize("seed", [5, 8, 12])  # seed 4 now ends before any event is in force
def test_whole_game_tablekeeper_draws(rig, seed):
    r = rig(2)  # the simulated table's profile lets Tablekeeper draw and roll
    s = r.open(GAME, seed=seed)
    assert s.scene.state.to_move() == ATTACKER
    assert "Attacker draws 8 cards" in s.scene.log
    hand = s.scene.state.view(ATTACKER)["hand"]
    assert len(hand) == 8
    check_screens(r)
    watch = Watch()
    rng = random.Random(seed)
    play_moves(r, rng, watch=watch)
    assert s.scene.state.outcome() is not None and watch.reminders >= 1 and watch.events >= 1
    big, _ = s.scene.adapter.outcome_lines(s.scene.state.outcome(), "en")
    assert layout(s, "shared.screen").big == big


def test_italian_and_resume(rig):
    r = rig(2)
    s = r.open(GAME, seed=2, lang="it")
    hand = s.scene.state.view(ATTACKER)["hand"]
    seat1 = layout(s, "seat1.screen")
    assert seat1.title == "Preparazione: gioca o scarta 3 delle tue 8 carte"
    assert seat1.lines[0].startswith(hand_text(hand, "it"))
    assert_refused(r, DEFENDER, lambda: r.tap(DEFENDER, "knight@2"), contains="turno")
    rng = random.Random(2)
    for _ in range(30):
        step(r, rng)
    state, shared = s.scene.state.to_json(), layout(s, "shared.screen")
    s2 = r.open(lang="it")  # a fresh table and journal connection: resumes
    assert s2.scene.state.to_json() == state
    public = s2.scene.adapter.public_lines(s2.scene.state, "it")
    assert public and set(public) <= set(shared.lines)
    assert set(public) <= set(layout(s2, "shared.screen").lines)


def test_one_tag_per_physical_card_any_tag_of_a_kind(rig):
    r = rig(2)
    r.profile = dataclasses.replace(r.profile, chance="table")
    s = r.open(GAME, seed=6)
    comps = s.scene.adapter.components()
    assert sum(c.count for c in comps if c.seat == ATTACKER) == 44 + 21
    assert sum(c.count for c in comps if c.seat == DEFENDER) == 47 + 18
    for _ in range(8):  # each draw revealed by the last-enrolled tag of its kind
        card = s.scene.state.sample_chance().to_json()["card"]
        uids = r.registry.uids_of(GAME, f"{card}@1")
        assert len(uids) == next(c.count for c in comps if c.id == f"{card}@1")
        r.tap_uid(ATTACKER, uids[-1])
    drawn = [e.move["card"] for e in s.journal.entries(s.scene.record) if e.move["type"] == "draw"]
    assert sorted(s.scene.state.view(ATTACKER)["hand"]) == sorted(drawn) and len(drawn) == 8


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_drawn_card_tapped_on_another_seats_pad_is_refused_unseen(rig, lang):
    r = rig(2)
    r.profile = dataclasses.replace(r.profile, chance="table")
    s = r.open(GAME, seed=6, lang=lang)
    card = s.scene.state.sample_chance().to_json()["card"]
    # The Attacker's drawn card on the Defender's pad would reveal it on the Defender's screen.
    drawer = ("Attacker", "Attaccante")[lang == "it"]
    assert_refused(r, DEFENDER, lambda: r.tap(DEFENDER, f"{card}@1"), contains=drawer)
    assert card_name(card, lang) not in layout(s, "seat2.screen").text()
    assert s.scene.transcript[-1].extra["code"] == "table.draw-own-pad"
    assert not s.scene.state.view(ATTACKER)["hand"]
    r.tap(ATTACKER, f"{card}@1")  # on its own pad: drawn
    assert s.scene.state.view(ATTACKER)["hand"] == [card]


def test_walls_drawn_later_are_the_defenders_discard_at_the_table(rig):
    # "non potrà giocarle, e nel qual caso esse dovranno essere scartate"
    r = rig(2)
    r.profile = dataclasses.replace(r.profile, chance="table")
    s = r.open(GAME, seed=5)
    rng = random.Random(5)
    for _ in range(8):
        r.tap(ATTACKER, f"{s.scene.state.sample_chance().to_json()['card']}@1")
    for card in s.scene.state.view(ATTACKER)["hand"][:3]:
        make(r, mv.Discard(card))
    r.tap(DEFENDER, "castle_walls@2")  # the Defender draws a Walls card and keeps it
    while s.scene.state.view(None)["phase"] == "setup_draw":
        cards = [m.to_json()["card"] for m in s.scene.state.legal_moves()]
        card = next(c for c in cards if c != "castle_walls")
        r.tap(DEFENDER, f"{card}@2")
    for card in [c for c in s.scene.state.view(DEFENDER)["hand"] if c != "castle_walls"][:3]:
        make(r, mv.Discard(card))
    assert "castle_walls" in s.scene.state.view(DEFENDER)["hand"]
    play_moves(r, rng, until=lambda: s.scene.state.to_move() == DEFENDER
               and s.scene.state.view(None)["phase"] == "play")
    assert s.scene.state.outcome() is None
    assert [m.to_json() for m in s.scene.state.legal_moves()] == [{"type": "discard", "card": "castle_walls"}]
    assert layout(s, "seat2.screen").title == "Must discard Walls"
    other = next(c for c in s.scene.state.view(DEFENDER)["hand"] if c != "castle_walls")
    assert_refused(r, DEFENDER, lambda: r.tap(DEFENDER, f"{other}@2"), contains="must be discarded")
    n = len(s.scene.state.history)
    r.tap(DEFENDER, "castle_walls@2")  # the tap asks for ●, as every menu does
    assert len(s.scene.state.history) == n and layout(s, "seat2.screen").lines[0].startswith("● confirm")
    r.press("seat2.ok")
    assert s.scene.state.history[-1].to_json() == {"type": "discard", "card": "castle_walls"}
    assert "castle_walls" not in s.scene.state.view(DEFENDER)["hand"]
    assert any("Defender discards Castle Walls" in line for line in s.scene.log)


def test_a_traitor_takes_the_attackers_supply_wagon_at_the_table(rig):
    # "I Supply Wagon e i Peasant sono anch'essi delle Truppe": the Traitor may
    # take one (ruling: docs/rulings.md#siege-what-is-a-truppa).
    r = rig(2)
    s = r.open(GAME, seed=3)
    rng = random.Random(3)
    play_moves(r, rng, until=lambda: s.scene.state.to_move() == DEFENDER
               and s.scene.state.view(None)["phase"] == "play"
               and not s.scene.state.card_played and bool(s.scene.state.supplies(ATTACKER)))
    assert s.scene.state.outcome() is None
    s.scene.state.hands[DEFENDER]["traitor"] = s.scene.state.hands[DEFENDER].get("traitor", 0) + 1
    s.scene.seats[DEFENDER].cursor = None  # the menu is built afresh over the new hand
    s.redraw()
    wagon = s.scene.state.supplies(ATTACKER)[0]
    n = len(s.scene.state.history)
    make(r, mv.Play("traitor", wagon), taps=False)
    assert s.scene.state.history[n] == mv.Play("traitor", wagon)
    assert wagon not in s.scene.state.supplies(ATTACKER)
    said = [rec.text for rec in s.scene.transcript if rec.kind == "said"]
    assert any("Traitor: Attacker, give Supply Wagon (command row #" in text for text in said), said[-3:]
