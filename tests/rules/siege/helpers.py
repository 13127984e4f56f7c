"""Building Siege positions for the rule tests."""

from __future__ import annotations

import pytest

import rules
from rules.core import IllegalMove, Move
from rules.siege import moves as mv
from rules.siege.constants import ATTACKER, DEFENDER
from rules.siege.state import SiegeState

A, D = ATTACKER, DEFENDER
GAME = rules.get("siege")


def new(seed: int = 0) -> SiegeState:
    state = GAME.new_game(players=2, seed=seed)
    assert isinstance(state, SiegeState)
    return state


def after_setup(seed: int = 0) -> SiegeState:
    """The first turn's event die: setup drawn by chance, three discards each."""
    state = new(seed)
    while state.phase != "die":
        if state.is_chance():
            state.apply(state.sample_chance())
        else:
            state.apply(next(m for m in state.legal_moves() if m.to_json()["type"] == "discard"))
    return state


def blank(phase: str = "play", seat: int = A, day: int = 1) -> SiegeState:
    """After setup, with empty hands, the opening layout on the table, and
    ``seat`` in ``phase`` on ``day``."""
    state = after_setup()
    state.hands = [{}, {}]
    state.phase, state.seat, state.day = phase, seat, day
    state.turn = 2 * (day - 1) + 1 + seat
    return state


def put(state: SiegeState, seat: int, row: str, card: str) -> str:
    return state._place(seat, row, card)


def units(state: SiegeState, seat: int, row: str, card: str) -> list[str]:
    return [u for u in state.rows[seat][row] if u.rsplit("-", 1)[0] == card]


def give(state: SiegeState, seat: int, *cards: str) -> None:
    for card in cards:
        state.hands[seat][card] = state.hands[seat].get(card, 0) + 1


def clear_row(state: SiegeState, seat: int, row: str) -> None:
    state.rows[seat][row] = []


def two_swordsmen_beat_a_knight() -> tuple[SiegeState, str, str, str]:
    """The rulebook's example: two Swordsmen attack a Knight and win; the
    state asks the Attacker which Swordsman the Knight takes with him.
    Returns the state, the Knight and the two Swordsmen."""
    state = blank("attack")
    clear_row(state, DEFENDER, "r1")
    state.rows[DEFENDER]["r2"] = []
    knight = put(state, DEFENDER, "r2", "knight")
    s1 = units(state, ATTACKER, "r1", "swordsman")[0]
    s2 = put(state, ATTACKER, "r1", "swordsman")
    play(state, mv.Attack(s1), mv.Join(s2), mv.Target(knight))
    return state, knight, s1, s2


def play(state: SiegeState, *moves: Move) -> list:
    events = []
    for move in moves:
        events.extend(state.apply(move))
    return events


def refused(state: SiegeState, move: Move, code: str) -> IllegalMove:
    before = state.to_json()
    copy_before = state.copy()
    with pytest.raises(IllegalMove) as info:
        state.apply(move)
    assert info.value.code == code, info.value.to_json()
    assert info.value.rule, "every refusal names its rulebook section"
    assert state == copy_before and state.to_json() == before
    assert move not in state.legal_moves()
    return info.value
