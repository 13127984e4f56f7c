"""Play The King is Dead on the simulated table, input by input."""

from __future__ import annotations

import random

from pi_app.simulated.autoplay import choose


def play_moves(rig, rng: random.Random, count: int | None = None, max_inputs: int = 20000) -> int:
    """Play ``count`` moves (or to the end) the way players would; return inputs used."""
    s = rig.session
    inputs = played = 0
    while s.scene.state.outcome() is None and (count is None or played < count):
        inputs += rig.make(s.scene.state.to_move(), choose(s, rng), limit=max_inputs - inputs)
        played += 1
    return inputs
