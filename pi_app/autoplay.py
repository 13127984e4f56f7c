"""Simulated players: they pick a move and reach it the way a person would,
one tap or button press at a time, through the real input path (simulated
pads and mock pins). Used by the demo and the end-to-end tests; works for any
game through its adapter's components and the menu."""

from __future__ import annotations

import random
from dataclasses import dataclass

from pi_app.menu import BACK, CONFIRM, Cursor
from pi_app.session import Session
from rules.core import Move


@dataclass(frozen=True)
class Input:
    kind: str  # "tap" (part = the seat's pad, what = a component id) or "press"
    part: str
    what: str = ""


def next_input(session: Session, seat: int, target: Move, taps: bool = True) -> Input:
    """The one input that brings ``seat`` closer to playing ``target``; with
    ``taps`` False the player only uses the buttons."""
    name = session.seats[seat].name
    adapter = session.adapter
    cursor = session.seats[seat].cursor or Cursor.over(session.state.legal_moves())
    data = target.to_json()
    by_field = {f: kind for kind, f in adapter.tap_fields.items()}
    field = cursor.field()
    probe_fields = [field] if len(cursor.stack) > 1 or field != "type" else []
    if len(cursor.stack) == 1:
        probe_fields += [f for f in by_field if f in data and f != field]
    for f in probe_fields if taps else []:
        kind = by_field.get(f or "")
        if kind is None or f not in data:
            continue
        for comp in adapter.components():
            if comp.kind == kind and comp.value == data[f] and comp.seat in (None, seat):
                narrowed = adapter.tap(session.state, seat, comp, cursor.moves, field)
                if narrowed and target in narrowed and (len(narrowed) == 1 or f == field):
                    return Input("tap", f"{name}.pad", comp.id)
    return Input("press", f"{name}.{button_toward(cursor, target)}")


def button_toward(cursor: Cursor, target: Move) -> str:
    """The button (``left``, ``ok``, ``right``) that brings a menu one step
    closer to ``target``, the shorter way round."""
    options = cursor.options()
    here = cursor.index % len(options)
    if target in cursor.moves:
        want = next(i for i, o in enumerate(options)
                    if (o.kind == CONFIRM and o.moves[0] == target)
                    or (o.kind != CONFIRM and target in o.moves))
    else:  # an earlier tap or press led elsewhere: back up, as a player would
        want = next(i for i, o in enumerate(options) if o.kind == BACK)
    if want == here:
        return "ok"
    right = (want - here) % len(options)
    return "right" if right <= len(options) - right else "left"


def choose(session: Session, rng: random.Random) -> Move:
    moves = session.state.legal_moves()
    # A little taste: play cards more often than passing, so games move on.
    weights = [0.3 if m.to_json().get("type") == "pass" else 1.0 for m in moves]
    return rng.choices(moves, weights=weights, k=1)[0]
