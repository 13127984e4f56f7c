"""Play The King is Dead on the simulated table, input by input."""

from __future__ import annotations

import random

from pi_app.autoplay import choose, next_input


def play_moves(rig, rng: random.Random, count: int | None = None, max_inputs: int = 20000) -> int:
    """Play ``count`` moves (or to the end) the way players would; return inputs used."""
    s = rig.session
    inputs = played = 0
    while s.state.outcome() is None and (count is None or played < count):
        seat = s.state.to_move()
        target = choose(s, rng)
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
