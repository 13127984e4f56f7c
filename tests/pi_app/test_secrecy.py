"""Which move is secret is said once, by the rules (``State.secrecy``), and
every reader asks it: the journal's undo barrier, the export and the page,
the computer seat, the adapters' words and inputs. Before, five places each
decided for themselves; one missed place was one leak."""

from __future__ import annotations

import pytest

import rules
from pi_app import games
from pi_app.session import computer
from pi_app.store import export
from pi_app.store.journal import is_barrier
from rules.core import Secrecy, State
from rules.king_and_assassins.state import ASSASSIN_SEAT, KAState


def ka_choosing() -> State:
    state = rules.get("king-and-assassins").new_game(2, 3, {})
    while state.secret_seat() is None:
        state.apply(state.sample_chance() if state.is_chance() else state.legal_moves()[0])
    return state


def readers(state: State) -> dict[str, object]:
    """What each reader says of the first legal move now."""
    move = state.legal_moves()[0]
    events = state.copy().apply(move)
    adapter = games.for_game(state.game_id, state.players, "en")
    seat = state.to_move()
    return {
        "export": export.secret_seat(state, move, events),
        "computer": computer.is_secret(state, move),
        "barrier": is_barrier(state, move, events),
        "hides_input": adapter.hides_input(state, seat, None),
        "words": adapter.record_text(move.to_json(), "en", state.secrecy(move, events).secret),
    }


def test_the_assassins_pick_is_secret_to_every_reader():
    state = ka_choosing()
    assert state.to_move() == ASSASSIN_SEAT
    # secret to the Assassin player; told to that seat alone, so undo may not cross it
    assert state.secrecy(state.legal_moves()[0]) == Secrecy(ASSASSIN_SEAT, False)
    assert readers(state) == {"export": ASSASSIN_SEAT, "computer": True, "barrier": True,
                              "hides_input": True, "words": "Assassins chosen in secret"}


def test_every_reader_follows_the_rules_answer(monkeypatch: pytest.MonkeyPatch):
    """Change the engine's answer and nothing else: every reader changes with it."""
    state = ka_choosing()
    monkeypatch.setattr(KAState, "_secret_seat", lambda self: None)
    monkeypatch.setattr(KAState, "_undoable", lambda self, move: False)
    said = readers(state)
    assert said["export"] is None and said["computer"] is False and said["barrier"] is True
    assert said["hides_input"] is False and said["words"] != "Assassins chosen in secret"


def test_an_arrest_is_public_but_never_undone():
    from rules.king_and_assassins import moves as mv

    state = ka_choosing()
    arrest = mv.Arrest.__new__(mv.Arrest)  # only its type is asked
    assert KAState._undoable(state, arrest) is False


@pytest.mark.parametrize("game_id", ["artus", "siege"])
def test_a_card_drawn_into_a_hand_is_secret_to_its_drawer(game_id: str):
    game = rules.get(game_id)
    state = game.new_game(2, 1, game.option_combinations()[0])
    while not (state.is_chance() and state.secret_seat() is not None):
        state.apply(state.sample_chance() if state.is_chance() else state.legal_moves()[0])
    drawer = state.secret_seat()
    draw = state.sample_chance()
    said = state.secrecy(draw)
    assert said.holder == drawer and not said.undoable
    adapter = games.for_game(game_id, 2, "en")
    assert adapter.chance_seat(state) == drawer
    assert adapter.record_text(draw.to_json(), "en", said.secret) == "a card drawn"
