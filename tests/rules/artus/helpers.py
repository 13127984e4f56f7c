"""Building Artus positions for tests: the rulebook's example table, and
states moved straight to a player's turn with a chosen hand."""

from __future__ import annotations

import random

from rules.artus import GAME, board
from rules.artus.data import DATA
from rules.artus.state import ArtusState
from rules.core import Event, IllegalMove, Move

BLACK, BLUE, RED, BEIGE = 0, 1, 2, 3


def seats_with_value(value: int, king: int = 0) -> list[int]:
    """The seats whose plate shows ``value``, counter-clockwise from the King."""
    found = [s for s in range(DATA.seats) if board.value(king, s) == value and s != king]
    return sorted(found, key=lambda s: (king - s) % DATA.seats)


def seat(value: int, king: int = 0) -> int:
    (only,) = seats_with_value(value, king)
    return only


def empty_table(state: ArtusState) -> None:
    state.seats = [None] * DATA.seats
    state.rings = [0] * DATA.seats


def at_turn(state: ArtusState, player: int, hand: list[str], plays_left: int = 1) -> ArtusState:
    """Skip setup: ``player`` is to play from ``hand``."""
    state.phase = "play"
    state.deal_queue = []
    state.place_order = []
    state.current = player
    state.plays_left = plays_left
    state.hands[player] = sorted(hand)
    return state


def example_table(mode: str = "advanced") -> ArtusState:
    """The table of the rulebook's Examples A to G (page 8): four players,
    the bronze King, the silver Prince with two rings on the 3, the other
    silver Prince on the -12, the bronze Prince on a yellow seat."""
    state = GAME.new_game(4, 0, {"mode": mode})
    assert isinstance(state, ArtusState)
    empty_table(state)
    state.king = 0
    zeros = seats_with_value(0)
    layout = {
        BLACK: [seat(10), seat(-3), seat(-5), zeros[0]],
        BEIGE: [seat(-2), seat(-4), seat(-7), zeros[1]],
        BLUE: [seat(7), seat(6), seat(2), seat(-1)],
        RED: [seat(5), seat(4), seat(1), seat(-9)],
    }
    for player, seats in layout.items():
        for s in seats:
            state.seats[s] = board.knight(player)
    for s, colour, rings in (
        (0, "bronze", 3),
        (seat(3), "silver", 2),
        (seat(-12), "silver", 1),
        (zeros[2], "bronze", 1),
    ):
        state.seats[s] = colour
        state.rings[s] = rings
    return at_turn(state, BLACK, [])


def refused(state: ArtusState, move: Move, code: str) -> IllegalMove:
    """``move`` is refused with ``code`` and leaves ``state`` as it was."""
    before = state.copy()
    assert move not in state.legal_moves()
    try:
        state.apply(move)
    except IllegalMove as exc:
        assert exc.code == code, f"{exc.code} ({exc}) instead of {code}"
        assert exc.rule
        assert state == before
        return exc
    raise AssertionError(f"{move} was accepted")


def of_type(events: list[Event], kind: str) -> list[dict]:
    return [dict(e.params) for e in events if e.type == kind]


def playout(state: ArtusState, seed: int = 0) -> list[Event]:
    rng = random.Random(seed)
    events: list[Event] = []
    while state.to_move() is not None:
        move = state.sample_chance() if state.is_chance() else rng.choice(state.legal_moves())
        events.extend(state.apply(move))
    return events
