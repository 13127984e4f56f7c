"""The King is Dead adapter's words and taps, without the table."""

from __future__ import annotations

import random

import pytest

import rules
from pi_app import adapters
from rules.core import Event

GAME = "king-is-dead"
pytestmark = pytest.mark.skipif(GAME not in rules.GAMES, reason="The King is Dead engine not registered")


def finished(players: int, seed: int):
    state = rules.get(GAME).new_game(players, seed)
    rng = random.Random(seed)
    while state.to_move() is not None:
        state.apply(state.sample_chance() if state.is_chance() else rng.choice(state.legal_moves()))
    return state


def test_registered_with_components_for_enrolment():
    adapter = adapters.for_game(GAME, 3)
    assert adapters.has_own_adapter(GAME)
    comps = adapter.components()
    assert sum(c.count for c in comps if c.seat == 1) == 8  # two Settlement cards
    assert adapter.enroll_prompt(adapter.component("garrison@2"), "en") == "the Garrison card of seat 2"
    assert adapter.enroll_prompt(adapter.component("garrison@2"), "it") == "la carta Guarnigione del posto 2"
    assert {c.value for c in comps if c.kind == "follower"} == {"blue", "red", "yellow"}


def test_instructions_group_what_to_put_where():
    adapter = adapters.for_game(GAME, 2)
    state = rules.get(GAME).new_game(2, 1)
    events = [Event("region_draw", {"region": "Deva", "colour": "blue"}),
              Event("region_draw", {"region": "Deva", "colour": "blue"}),
              Event("region_draw", {"region": "Deva", "colour": "red"}),
              Event("struggle_resolved", {"region": "Ratae", "winner": "welsh", "returned": {"red": 2}}),
              Event("follower_placed", {"region": "Caerleon", "colour": "yellow"})]
    en = adapter.instructions(state, [], events, state, "en")
    assert "Deva: put 2 blue, 1 red" in en and "Put 1 yellow in Caerleon" in en
    assert en[-1] == "Ratae to the Welsh; 2 to reserve"  # the announcement is the big line
    it = adapter.instructions(state, [], events, state, "it")
    assert "Deva: metti 2 blu, 1 rosso" in it and it[-1] == "Ratae ai Gallesi; 2 in riserva"


def test_outcome_names_reason_and_tie_break():
    state = finished(4, 2)
    big, lines = adapters.for_game(GAME, 4).outcome_lines(state.outcome(), "en")
    assert big.startswith("Winner")
    assert lines[0].startswith("by ")
    assert any(line.startswith("Decided by: ") for line in lines)
    big_it, lines_it = adapters.for_game(GAME, 4).outcome_lines(state.outcome(), "it")
    assert big_it.startswith("Vinc") and any(line.startswith("Deciso da: ") for line in lines_it)


def test_a_card_tap_starts_its_play_and_nothing_else():
    adapter = adapters.for_game(GAME, 2)
    state = rules.get(GAME).new_game(2, 4)
    while state.is_chance():
        state.apply(state.sample_chance())
    moves = state.legal_moves()
    crown = adapter.component("crown@1")
    assert [m.to_json() for m in adapter.tap(state, 0, crown, moves, "type")] == [
        {"type": "play", "card": "crown"}]
    state.apply(rules.get(GAME).move_from_json({"type": "play", "card": "crown"}))
    # mid-action, the Crown card is no region pick: the engine says why not
    assert adapter.tap(state, 0, crown, state.legal_moves(), "region") == []
    refusal = adapter.refusal(state, 0, crown, state.legal_moves())
    assert refusal.code.startswith("king-is-dead.") and refusal.rule


def test_private_screen_shows_the_court_and_hand():
    state = rules.get(GAME).new_game(3, 5)
    while state.is_chance():
        state.apply(state.sample_chance())
    big, lines = adapters.for_game(GAME, 3).private_lines(state, 1, "en")
    court = state.view(1)["seats"][1]["court"]
    assert big and all(str(n) in big for n in court.values() if n)
    assert "Cro" in lines[0] and "sets" in lines[0]
