"""Play Mordred on the simulated table, input by input: players through
:func:`pi_app.autoplay.next_input`, dice (when the profile has the table roll
them) entered with a seat's buttons on the shared screen's menu."""

from __future__ import annotations

import random
from collections.abc import Callable

from pi_app.autoplay import next_input
from pi_app.menu import BACK, CONFIRM, Cursor
from rules.core import Move
from rules.mordred.moves import Attack, Build, EndTurn, Place

# Some taste, so that games see builds, fights and both kinds of combat die.
WEIGHTS: dict[type, float] = {EndTurn: 0.4, Build: 2.0, Attack: 4.0}


def choose(rig, rng: random.Random) -> Move:
    state = rig.session.state
    moves = state.legal_moves()
    pieces = state.view(None)["pieces"]

    def weight(m: Move) -> float:
        if isinstance(m, Place):
            return 4.0 if m.space in pieces else 1.0
        return WEIGHTS.get(type(m), 1.0)

    return rng.choices(moves, weights=[weight(m) for m in moves], k=1)[0]


def button_toward(cursor: Cursor, target: Move) -> str:
    """The button (left, ok, right) that brings a menu closer to ``target``."""
    options = cursor.options()
    here = cursor.index % len(options)
    if target in cursor.moves:
        want = next(i for i, o in enumerate(options)
                    if (o.kind == CONFIRM and o.moves[0] == target)
                    or (o.kind != CONFIRM and target in o.moves))
    else:
        want = next(i for i, o in enumerate(options) if o.kind == BACK)
    if want == here:
        return "ok"
    right = (want - here) % len(options)
    return "right" if right <= len(options) - right else "left"


def enter_chance(rig, target: Move, seat: int = 0, max_inputs: int = 100) -> int:
    """Enter a die roll read at the table with ``seat``'s buttons."""
    s = rig.session
    n = len(s.state.history)
    inputs = 0
    while len(s.state.history) == n:
        cursor = s.chance_cursor or Cursor.over(s.state.legal_moves())
        rig.press(f"seat{seat + 1}.{button_toward(cursor, target)}")
        inputs += 1
        assert inputs < max_inputs, "the dice menu is stuck"
    return inputs


def play_moves(rig, rng: random.Random, count: int | None = None,
               until: Callable[[], bool] | None = None, max_inputs: int = 20000) -> int:
    """Play ``count`` moves, or until ``until()`` holds, or to the end, the way
    players would; return the inputs used."""
    s = rig.session
    inputs = played = 0
    while s.state.outcome() is None and (count is None or played < count) and not (until and until()):
        if s.state.is_chance():
            inputs += enter_chance(rig, s.state.sample_chance(), seat=rng.randrange(rig.players))
            played += 1
            continue
        seat = s.state.to_move()
        target = choose(rig, rng)
        n = len(s.state.history)
        while len(s.state.history) == n:
            inp = next_input(s, seat, target)
            if inp.kind == "tap":
                rig.tap(seat, inp.what)
            else:
                rig.press(inp.part)
            inputs += 1
            assert inputs < max_inputs, "the simulated player is stuck"
        played += 1
    return inputs
