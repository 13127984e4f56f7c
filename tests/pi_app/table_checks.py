"""Checks every end-to-end game test makes on the simulated table."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from pi_app.simulated.autoplay import take_turn
from pi_app.ui.screens import Layout, render


def layout(session: Any, part: str) -> Layout:
    return session.layouts()[part]


def pin_lit(rig: Any, seat: int) -> bool:
    return bool(rig.table.lights[f"seat{seat + 1}.light"].device.pin.state)


def assert_refused(rig: Any, seat: int, attempt: Callable[[], None], *, contains: str,
                   check: Callable[[Any], None] | None = None, unchanged: Iterable[str] = ()) -> None:
    """An input that changes nothing but the seat's screen and light: the
    refusal is drawn there, the light flashes once, the state, the journal and
    the ``unchanged`` screens stay as they were; ● dismisses it."""
    s = rig.session
    part = f"seat{seat + 1}.screen"
    before = s.scene.state.to_json()
    entries = len(s.journal.entries(s.scene.record))
    light = rig.table.lights[f"seat{seat + 1}.light"]
    flashes = light.flashes
    others = {p: rig.table.frames(p)[-1].tobytes() for p in unchanged if p != part}
    attempt()
    lay = layout(s, part)
    assert lay.alert and contains in lay.text(), lay.text()
    assert s.scene.state.to_json() == before
    assert len(s.journal.entries(s.scene.record)) == entries
    assert light.flashes == flashes + 1
    assert rig.table.frames(part)[-1].tobytes() == render(lay).tobytes()
    assert {p: rig.table.frames(p)[-1].tobytes() for p in others} == others
    if check is not None:
        check(rig)
    rig.press(f"seat{seat + 1}.ok")  # read, dismiss
    assert not layout(s, part).alert


def words_shown(rig: Any, session: Any, *, turns: int = 40, seed: int = 3) -> str:
    """Every screen's words over a stretch of seeded play."""
    shown: set[str] = set(lay.text() for lay in session.layouts().values())
    session.presentation.observer = lambda changed: shown.update(lay.text() for lay in changed.values())
    rng = random.Random(seed)

    def send(inp: Any) -> None:
        if inp.kind == "tap":
            rig.table.tap(inp.part, rig.uids.get(inp.what, inp.what))
        else:
            rig.table.press(inp.part)
        session.pump()

    for _ in range(turns):
        if session.scene.state.outcome() is not None or session.scene.state.to_move() is None:
            break
        take_turn(session, rng, send)
    return "\n".join(shown)
