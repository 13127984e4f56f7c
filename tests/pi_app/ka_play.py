"""Play King & Assassins on the simulated table, input by input, and plan
scripted games with the engine alone (the table then replays them)."""

from __future__ import annotations

import random
from collections.abc import Callable

import rules
from pi_app.autoplay import Input, next_input
from pi_app.menu import BACK
from rules.core import Move, State
from rules.king_and_assassins.moves import Choose

GAME = "king-and-assassins"


def send(rig, inp: Input) -> None:
    if inp.kind == "tap":
        rig.tap(rig.session.profile.seat_of_part(inp.part), inp.what)
    else:
        rig.press(inp.part)


def step_towards(rig, seat: int, target: Move, taps: bool = True) -> Input:
    """The next input towards ``target``; backs out of a menu branch that
    does not hold it (after a tap that led elsewhere)."""
    s = rig.session
    cursor = s.cursor_for(seat)
    if target not in cursor.moves:
        options = cursor.options()
        want = next(i for i, o in enumerate(options) if o.kind == BACK)
        here = cursor.index % len(options)
        name = s.seats[seat].name
        return Input("press", f"{name}.ok" if want == here else f"{name}.right")
    return next_input(s, seat, target, taps)


def make(rig, target: Move, taps: bool = True, max_inputs: int = 200) -> int:
    """Play ``target`` (a move of the seat to move) through the table."""
    s = rig.session
    seat = s.state.to_move()
    n = len(s.state.history)
    used = 0
    while len(s.state.history) == n:
        send(rig, step_towards(rig, seat, target, taps))
        used += 1
        assert used < max_inputs, f"stuck playing {target.to_json()}"
    return used


def pick(rig, citizens: list[str]) -> None:
    """The Assassin player taps three citizen cards and confirms."""
    for c in citizens:
        rig.tap(1, f"citizen-card:{c}")
    rig.press("seat2.ok")
    assert rig.session.state.view(1)["assassins"] == sorted(citizens, key=lambda n: (len(n), n))


def random_move(state: State, rng: random.Random) -> Move:
    """Random play that uses its points: a turn ends by choice one time in
    six, otherwise a random kind of action is taken while there is one."""
    moves = state.legal_moves()
    kinds = sorted({m.to_json()["type"] for m in moves} - {"end"})
    if not kinds or (rng.random() < 1 / 6 and any(m.to_json()["type"] == "end" for m in moves)):
        kinds = sorted({m.to_json()["type"] for m in moves} & {"end"}) or kinds
    kind = rng.choice(kinds)
    return rng.choice([m for m in moves if m.to_json()["type"] == kind])


def play(rig, rng: random.Random, count: int | None = None, taps: bool = True) -> int:
    """Play ``count`` random moves (or to the end) through the table."""
    s = rig.session
    inputs = played = 0
    while s.state.outcome() is None and (count is None or played < count):
        inputs += make(rig, random_move(s.state, rng), taps=taps and rng.random() < 0.6)
        played += 1
    return inputs


def script(seed: int, assassins: list[str], chooser: Callable[[State], Move | None],
           limit: int = 400) -> list[Move]:
    """The seats' moves of a game planned with the engine alone: ``chooser``
    gives each move (None: the script is done); the round cards come from
    the seed, as Tablekeeper draws them on the simulated table."""
    state = rules.get(GAME).new_game(2, seed, {})
    out: list[Move] = []
    state.apply(Choose(tuple(assassins)))
    while state.outcome() is None and len(out) < limit:
        if state.is_chance():
            state.apply(state.sample_chance())
            continue
        move = chooser(state)
        if move is None:
            break
        state.apply(move)
        out.append(move)
    return out
