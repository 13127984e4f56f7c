"""Simulated players: they pick a move and reach it the way a person would,
one tap or button press at a time, through the real input path (simulated
pads and mock pins). Used by the demo, the soak and the end-to-end tests; works for any
game through its adapter's components and the menu; now and then they try
something illegal first."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from pi_app.session.loop import Session
from pi_app.ui.menu import BACK, CONFIRM, Cursor
from rules.core import Move

ATTEMPT_RATE = 0.06  # how often a simulated player first tries something illegal
MAX_INPUTS = 50_000  # in a game: simulated players past this are stuck, a defect to report


@dataclass(frozen=True)
class Input:
    kind: str  # "tap" (part = the seat's pad, what = a component id) or "press"
    part: str
    what: str = ""


def next_input(session: Session, seat: int, target: Move, taps: bool = True) -> Input:
    """The one input that brings ``seat`` closer to playing ``target``; with
    ``taps`` False the player only uses the buttons."""
    name = session.scene.seats[seat].name
    adapter = session.scene.adapter
    cursor = session.scene.seats[seat].cursor or Cursor.over(session.scene.state.legal_moves())
    data = target.to_json()
    if len(cursor.stack) == 1 and target not in cursor.moves:
        # A move no menu offers (an arrested assassin's reveal) is made by a tap alone.
        for comp in adapter.components():
            if comp.seat in (None, seat) and target in adapter.tap(session.scene.state, seat, comp,
                                                                    cursor.moves, cursor.field()):
                return Input("tap", f"{name}.pad", comp.id)
    by_field: dict[str, set[str]] = {}  # a field and every kind of component whose tap chooses it
    for kind, f in adapter.tap_fields.items():
        by_field.setdefault(f, set()).add(kind)
    field = cursor.field()
    probe_fields = [field] if len(cursor.stack) > 1 or field != "type" else []
    if len(cursor.stack) == 1:
        probe_fields += [f for f in by_field if f in data and f != field]
    for f in probe_fields if taps else []:
        kinds = by_field.get(f or "")
        if not kinds or f not in data:
            continue
        for comp in adapter.components():
            if comp.kind in kinds and comp.value == data[f] and comp.seat in (None, seat):
                narrowed = adapter.tap(session.scene.state, seat, comp, cursor.moves, field)
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
    moves = session.scene.state.legal_moves()
    # A little taste: play cards more often than passing, so games move on.
    weights = [0.3 if m.to_json().get("type") == "pass" else 1.0 for m in moves]
    return rng.choices(moves, weights=weights, k=1)[0]


def illegal_attempt(session: Session, seat: int, rng: random.Random) -> Input | None:
    """Something a player might wrongly do now: out of turn, another
    seat's card, a card already played, a tag nobody enrolled."""
    comps = session.scene.adapter.components()
    owned = [c for c in comps if c.seat is not None]
    others = [i for i in range(len(session.scene.seats)) if i != seat]
    kinds = ["out-of-turn", "not-yours", "unknown"] + (["used"] if owned else [])
    kind = rng.choice(kinds)
    me = session.scene.seats[seat].name
    if kind == "out-of-turn" and owned:
        other = rng.choice(others)
        mine = [c for c in owned if c.seat == other]
        return Input("tap", f"{session.scene.seats[other].name}.pad", rng.choice(mine).id)
    if kind == "out-of-turn":
        return Input("press", f"{session.scene.seats[rng.choice(others)].name}.ok")
    if kind == "not-yours" and owned:
        theirs = [c for c in owned if c.seat not in (seat, None) and (c.seat or 0) < len(session.scene.seats)]
        return Input("tap", f"{me}.pad", rng.choice(theirs).id)
    if kind == "used":
        legal = {m.to_json().get("card") for m in session.scene.state.legal_moves()}
        used = [c for c in owned if c.seat == seat and c.value not in legal]
        if used:
            return Input("tap", f"{me}.pad", rng.choice(used).id)
        return None
    return Input("tap", f"{me}.pad", "04" + "".join(rng.choice("0123456789ABCDEF") for _ in range(12)))


def take_turn(session: Session, rng: random.Random, send: Callable[[Input], None], *,
              attempts: bool = True, between: Callable[[], None] = lambda: None) -> bool:
    """The inputs of one turn of the seat to move, each given to ``send``:
    with ``attempts``, now and then first something illegal (``between``
    runs once it is sent), read and dismissed with the culprit's ●; then a
    move chosen and reached input by input. False when the attempt was legal
    after all (a building not yet built): whose turn it is must be read again."""
    seat = session.scene.state.to_move()
    if seat is None or seat < 0:
        record = session.scene.record
        raise RuntimeError(f"{record.game} for {record.players}: no seat to move and no "
                           "outcome (chance steps are drawn on the sim table)")
    if seat in session.scene.computers:
        return carry_out(session, seat, rng, send)
    if attempts and rng.random() < ATTEMPT_RATE:
        attempt = illegal_attempt(session, seat, rng)
        if attempt is not None:
            culprit = session.scene.profile.seat_of_part(attempt.part) or 0
            n = len(session.scene.state.history)
            send(attempt)
            between()
            send(Input("press", f"{session.scene.seats[culprit].name}.ok"))  # read, dismiss
            if len(session.scene.state.history) != n:
                return False
    target = choose(session, rng)
    taps = rng.random() < 0.6  # some players tap, some prefer the buttons
    n = len(session.scene.state.history)
    while len(session.scene.state.history) == n:
        send(next_input(session, seat, target, taps))
    return True


def carry_out(session: Session, seat: int, rng: random.Random, send: Callable[[Input], None]) -> bool:
    """A person carries out the computer's move shown on the shared screen and
    confirms it: by tapping the piece or card it names on the computer's pad
    (when one tap says it) or by pressing ● on the computer's seat."""
    target = session.scene.computer_moves[seat]
    n = len(session.scene.state.history)
    if rng.random() < 0.6:
        first = next_input(session, seat, target, taps=True)
        if first.kind == "tap":
            send(first)
    if len(session.scene.state.history) == n:
        send(Input("press", f"{session.scene.seats[seat].name}.ok"))
    if len(session.scene.state.history) == n:
        raise RuntimeError(f"{session.scene.record.game}: ● on the computer's seat did not play its move")
    return True
