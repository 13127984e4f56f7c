"""Play Mordred on the simulated table, input by input: players through
:func:`pi_app.simulated.autoplay.next_input`, dice (when the profile has the table roll
them) entered with a seat's buttons on the shared screen's menu."""

from __future__ import annotations

import random
from collections.abc import Callable

from pi_app.simulated.autoplay import button_toward
from pi_app.ui.menu import Cursor
from rules.core import Move
from rules.mordred.moves import Attack, Build, EndTurn, Place

# Some taste, so that games see builds, fights and both kinds of combat die.
WEIGHTS: dict[type, float] = {EndTurn: 0.4, Build: 2.0, Attack: 4.0}


def choose(rig, rng: random.Random) -> Move:
    state = rig.session.scene.state
    moves = state.legal_moves()
    pieces = state.view(None)["pieces"]

    def weight(m: Move) -> float:
        if isinstance(m, Place):
            return 4.0 if m.space in pieces else 1.0
        return WEIGHTS.get(type(m), 1.0)

    return rng.choices(moves, weights=[weight(m) for m in moves], k=1)[0]


def enter_chance(rig, target: Move, seat: int = 0, max_inputs: int = 100) -> int:
    """Enter a die roll read at the table with ``seat``'s buttons."""
    s = rig.session
    n = len(s.scene.state.history)
    inputs = 0
    while len(s.scene.state.history) == n:
        cursor = s.scene.chance_cursor or Cursor.over(s.scene.state.legal_moves())
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
    while s.scene.state.outcome() is None and (count is None or played < count) and not (until and until()):
        if s.scene.state.is_chance():
            inputs += enter_chance(rig, s.scene.state.sample_chance(), seat=rng.randrange(rig.players))
            played += 1
            continue
        inputs += rig.make(s.scene.state.to_move(), choose(rig, rng), limit=max_inputs - inputs)
        played += 1
    return inputs
