"""The King is Dead adapter's words and taps, without the table."""

from __future__ import annotations

import random
import re

import pytest

import rules
from pi_app import games
from pi_app.games.king_is_dead.adapter import fits_one_line
from pi_app.ui.screens import Layout, problems, render
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
    adapter = games.for_game(GAME, 3)
    assert games.has_own_adapter(GAME)
    comps = adapter.components()
    assert sum(c.count for c in comps if c.seat == 1) == 8  # two Settlement cards
    assert adapter.enroll_prompt(adapter.component("garrison@2"), "en") == "the Garrison card of Player 2"
    assert adapter.enroll_prompt(adapter.component("garrison@2"), "it") == (
        "la carta Guarnigione di Giocatore 2")
    assert {c.value for c in comps if c.kind == "follower"} == {"blue", "red", "yellow"}


def test_instructions_group_what_to_put_where():
    adapter = games.for_game(GAME, 2)
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


def shown_whole(big: str, lines: list[str], n: int) -> bool:
    """The first ``n`` small lines of a final screen are drawn, each whole."""
    def frame(k):
        return render(Layout(title="GAME OVER", big=big, lines=tuple(lines[:k]))).tobytes()

    return all(fits_one_line(line) for line in lines[:n]) and frame(n) != frame(n - 1)


def ended_with(players: int, decided_by: list[str]):
    """The outcome of the first seeded game decided by ``decided_by``'s kinds
    of step ("faction" for any faction's followers)."""
    for seed in range(80):
        outcome = finished(players, seed).outcome()
        steps = ["faction" if s in ("scots", "welsh", "romano-british") else s
                 for s in outcome.detail.get("decided_by", [])]
        if steps == decided_by:
            return outcome
    pytest.skip(f"no seeded game decided by {decided_by}")


@pytest.mark.parametrize(("players", "decided_by", "en", "it"), [
    (2, ["faction", "faction", "last card played loses"],
     "Tie-break: {}, last loses", "Parità: {}, perde l'ultimo"),
    (3, ["faction", "faction"], "Tie-break: {} followers", "Spareggio: Seguaci {}"),
    (3, ["sets", "last card played wins"], "Tie-break: last wins", "Spareggio: vince l'ultimo"),
])
def test_final_screen_shows_reason_and_tie_break(players, decided_by, en, it):
    outcome = ended_with(players, decided_by)
    colours = {"scots": ("blue", "blu"), "welsh": ("red", "rossi"), "romano-british": ("yellow", "gialli")}
    second = colours.get(outcome.detail["decided_by"][1], ("", ""))
    adapter = games.for_game(GAME, players)
    big, lines = adapter.outcome_lines(outcome, "en")
    assert big.startswith("Winner")
    assert lines[0].startswith("by ") and lines[1] == en.format(second[0])
    assert shown_whole(big, lines, 2)
    big_it, lines_it = adapter.outcome_lines(outcome, "it")
    assert big_it.startswith("Vinc") and lines_it[0].startswith("per ")
    assert lines_it[1] == it.format(second[1])
    assert shown_whole(big_it, lines_it, 2)


def test_final_screen_without_a_tie_names_what_decided():
    for players, seed in ((2, 0), (4, 0), (4, 2)):
        outcome = finished(players, seed).outcome()
        for lang in ("en", "it"):
            big, lines = games.for_game(GAME, players).outcome_lines(outcome, lang)
            assert lines[1].split()[0] in ("Most", "Più", "Sets:", "Set:", "Tie-break:", "Spareggio:",
                                           "Parità:"), lines
            assert shown_whole(big, lines, 2)


def test_a_card_tap_starts_its_play_and_nothing_else():
    adapter = games.for_game(GAME, 2)
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
    big, lines = games.for_game(GAME, 3).private_lines(state, 1, "en")
    court = state.view(1)["seats"][1]["court"]
    assert big and all(str(n) in big for n in court.values() if n)
    assert lines[0].startswith("Sets: ") and lines[1].startswith("Hand: ") and "Crown" in lines[1]


def test_a_pick_inside_an_action_is_reported_not_asked_for():
    adapter = games.for_game(GAME, 2)
    game = rules.get(GAME)
    state = game.new_game(2, 4)
    while state.is_chance():
        state.apply(state.sample_chance())
    state.apply(game.move_from_json({"type": "play", "card": "romano-british"}))
    before = state.copy()
    place = state.legal_moves()[0]
    events = state.apply(place)
    assert not [e for e in events if e.audience is None]  # nothing happens on the table yet
    region = place.to_json()["region"]
    assert adapter.instructions(before, [place], events, state, "en") == [
        f"Player 1 chose yellow for {region}"]
    assert adapter.instructions(before, [place], events, state, "it") == [
        f"Giocatore 1 sceglie giallo per {region}"]
    before = state.copy()
    second = state.legal_moves()[0]
    done = adapter.instructions(before, [second], state.apply(second), state, "en")
    assert any(line.startswith("Put ") for line in done)  # now the table is told what to put where


def test_standing_lines_are_words_and_fit_or_page_all_game():
    """Scores and the whole order of region cards in whole words on the
    shared screen, crowns named, in both languages: fitting or paging."""
    adapter = games.for_game(GAME, 4)
    state = rules.get(GAME).new_game(4, 3)
    rng = random.Random(3)
    seen = set()
    while state.to_move() is not None:
        state.apply(state.sample_chance() if state.is_chance() else rng.choice(state.legal_moves()))
        for lang in ("en", "it"):
            lines = adapter.public_lines(state, lang)
            shared = Layout(title="Turn: Player 1", big="Put 2 blue in Deva", lines=tuple(lines))
            assert problems(shared) == []
            seen.update(lines)
    assert not any(re.search(r"\b(Sc|We|RB|Sax|Sas)\d", line) for line in seen)
    assert any(line.startswith("Next: ") and line.count(",") == 7 for line in seen)  # all eight cards
    assert any("(crown)" in line for line in seen) and any("(corona)" in line for line in seen)
    assert any(line.startswith("Scozzesi 0, Gallesi 0") for line in seen)  # Italian words
