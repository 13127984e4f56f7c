"""Play King & Assassins on the simulated table, input by input, and plan
scripted games with the engine alone (the table then replays them)."""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import pairwise

import rules
from pi_app.simulated.autoplay import Input, next_input
from pi_app.ui.menu import BACK
from rules.core import Move, State
from rules.king_and_assassins.moves import Choose, End, Step

GAME = "king-and-assassins"


def send(rig, inp: Input) -> None:
    if inp.kind == "tap":
        rig.tap(rig.session.scene.profile.seat_of_part(inp.part), inp.what)
    else:
        rig.press(inp.part)


def step_towards(rig, seat: int, target: Move, taps: bool = True) -> Input:
    """The next input towards ``target``; backs out of a menu branch that
    does not hold it (after a tap that led elsewhere)."""
    s = rig.session
    cursor = s.scene.cursor_for(seat)
    if target not in cursor.moves:
        options = cursor.options()
        want = next(i for i, o in enumerate(options) if o.kind == BACK)
        here = cursor.index % len(options)
        name = s.scene.seats[seat].name
        return Input("press", f"{name}.ok" if want == here else f"{name}.right")
    return next_input(s, seat, target, taps)


def make(rig, target: Move, taps: bool = True, max_inputs: int = 200) -> int:
    """Play ``target`` (a move of the seat to move) through the table."""
    s = rig.session
    seat = s.scene.state.to_move()
    n = len(s.scene.state.history)
    used = 0
    while len(s.scene.state.history) == n:
        send(rig, step_towards(rig, seat, target, taps))
        used += 1
        assert used < max_inputs, f"stuck playing {target.to_json()}"
    return used


def pick(rig, citizens: list[str]) -> None:
    """The Assassin player taps three citizen cards and confirms."""
    for c in citizens:
        rig.tap(1, f"citizen-card:{c}")
    rig.press("seat2.ok")
    assert rig.session.scene.state.view(1)["assassins"] == sorted(citizens, key=lambda n: (len(n), n))


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
    while s.scene.state.outcome() is None and (count is None or played < count):
        inputs += make(rig, random_move(s.scene.state, rng), taps=taps and rng.random() < 0.6)
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


def _cells(view: dict) -> tuple[dict[str, tuple[int, int]], dict[tuple[int, int], str]]:
    """Cell names <-> (row, column) of a view's board."""
    rows = view["rows"]
    names = {f"{chr(65 + c)}{r + 1}": (r, c) for r in range(len(rows)) for c in range(len(rows[0]))}
    return names, {rc: n for n, rc in names.items()}


def _bfs(view: dict, start: str, goal: Callable[[str], bool], passable: Callable[[str], bool]) -> list[str]:
    """The shortest path of cells from ``start`` (excluded) to a cell meeting ``goal``."""
    names, at = _cells(view)
    before: dict[str, str | None] = {start: None}
    frontier = [start]
    while frontier:
        nxt = []
        for cell in frontier:
            if goal(cell) and cell != start:
                path = [cell]
                while before[path[-1]] != start:
                    path.append(before[path[-1]])  # type: ignore[arg-type]
                return path[::-1]
            r, c = names[cell]
            for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
                other = at.get((r + dr, c + dc))
                if other and other not in before and passable(other):
                    before[other] = cell
                    nxt.append(other)
        frontier = nxt
    return []


def _step_to(frm: str, to: str) -> str:
    (fc, fr), (tc, tr) = (ord(frm[0]), int(frm[1:])), (ord(to[0]), int(to[1:]))
    return {(0, -1): "N", (1, 0): "E", (0, 1): "S", (-1, 0): "W"}[(tc - fc, tr - fr)]


def escape_chooser() -> Callable[[State], Move | None]:
    """A cooperative game to the king's escape: the King player clears his
    knights off the king's street path to the nearest gate and walks him out;
    the Assassin player moves citizens off that path and otherwise passes."""
    plan: list[str] = []

    def chooser(state: State) -> Move | None:
        view = state.view(None)
        names, _ = _cells(view)
        street = {n for n, (r, c) in names.items() if view["rows"][r][c] == "G"}
        gates = {g["cell"]: g["dir"] for g in view["gates"]}
        occupied = {p["cell"]: name for name, p in view["pieces"].items()}
        king = view["pieces"]["king"]["cell"]
        if not plan:
            plan.extend(_bfs(view, king, gates.__contains__, street.__contains__))
        path = plan[plan.index(king) + 1:] if king in plan else plan
        moves = state.legal_moves()
        if view["step"] == "assassin":
            for cell in path:
                who = occupied.get(cell, "")
                if who.startswith("citizen"):
                    way = _bfs(view, cell, lambda n: n not in occupied and n not in path,
                               lambda n: n not in occupied)
                    if way and Step(who, _step_to(cell, way[0])) in moves:
                        return Step(who, _step_to(cell, way[0]))
            return End()
        if king in gates and not path and Step("king", gates[king]) in moves:
            return Step("king", gates[king])
        nxt = path[0] if path else None
        if nxt and nxt not in occupied and Step("king", _step_to(king, nxt)) in moves:
            return Step("king", _step_to(king, nxt))
        if nxt and occupied.get(nxt, "").startswith("knight"):
            # Out of the way, to the nearest free cell off the path; knights in the
            # way move first, the one nearest that cell leading.
            way = [nxt, *_bfs(view, nxt, lambda n: n not in occupied and n not in path and n != king,
                              lambda n: n not in occupied or occupied[n].startswith("knight"))]
            for here, there in reversed(list(pairwise(way))):
                if here in occupied and there not in occupied:
                    step = Step(occupied[here], _step_to(here, there))
                    return step if step in moves else End()
        return End()

    return chooser
