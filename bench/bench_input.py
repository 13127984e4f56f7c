"""What a move costs a person: the fewest inputs (taps, presses, knob steps)
that make each move with the table's screens as they are.

Seeded games of every game, option combination and player count
(``Game.setups()``) are played on the reference table's profile, and The
King is Dead also on the profile with region readers. The moves are chosen by
the greedy computer player (purposeful where it sees a reason, at random
where it does not); the inputs are not. Before each person's move a
breadth-first search runs over input sequences against the table's own input
map (pi_app.session.input_map, the adapters' taps, pi_app.ui.menu): the
seat's ◀ ● ▶ and a tap of every piece or card the move names, on the seat's
pad or on a board zone's reader. An input that gets a refusal is never the
cheapest way (the refusal costs a press to dismiss and changes no menu), nor
is one that leaves the move out of the menu. The cheapest sequence found is
then played on the same scene, so what the menus remember (the last choice)
is what a person who made those inputs would leave. A knob step costs what a
◀ or ▶ press does. Each game's moves are sampled: ``SEEDS`` seeds a setup,
every person's move of the first ``MOVES`` of each game.

The figures of the flows before they were redesigned from these ones
(issue 34) are kept in ``bench/input_before.json`` and printed beside
today's, marked "before".

    python -m bench.run --only input
"""

from __future__ import annotations

import copy
import json
import statistics
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import rules
from bench.common import Row, main
from drivers.events import ButtonPressed, TagArrived
from pi_app.session.input_map import InputMap
from pi_app.session.scene import Scene
from pi_app.store.journal import GameRecord
from pi_app.store.registry import Tag
from pi_app.table import profile as profiles
from players import Greedy
from rules.core import Event, IllegalMove, Move

AREA = "input"
TARGET_MEDIAN = 2.0
TARGET_P90 = 4.0
SEEDS = 2  # seeds a setup
MOVES = 120  # the first so many moves of each game (chance steps included)
QUICK_MOVES = 30
MAX_DEPTH = 14  # deeper than any flow: a move not found by then is reported
TABLES = Path(profiles.__file__).resolve().parent.parent / "tables"
PROFILES = {"reference": TABLES / "reference.toml", "regions": TABLES / "sim-regions.toml"}
BEFORE = Path(__file__).with_name("input_before.json")


class Names:
    """The tag registry of a table where every tag is enrolled: a tag's uid
    is its component's id."""

    def __init__(self, game: str) -> None:
        self.game = game

    def lookup(self, uid: str) -> Tag:
        return Tag(uid, self.game, uid)


class Probe:
    """Commit's stand-in while searching: a move asked for is noted, never
    applied; a refusal is noted."""

    def __init__(self) -> None:
        self.played: Move | None = None
        self.refused = False

    def play(self, seat: int | None, move: Move) -> bool:
        self.played = move
        return True

    def refuse(self, seat: int, exc: IllegalMove) -> None:
        self.refused = True

    def unknown_tag(self, seat: int, uid: str) -> None:
        self.refused = True

    def on_undo(self) -> None:
        pass

    def write_journal(self) -> bool:
        return True


class Live(Probe):
    """Commit's stand-in that plays: the move applied, the chance steps the
    table draws itself drawn, the adapter's notes taken, the menus cleared
    (as pi_app.session.commit does, without a journal)."""

    def __init__(self, scene: Scene) -> None:
        super().__init__()
        self.scene = scene

    def play(self, seat: int | None, move: Move) -> bool:
        sc = self.scene
        before = sc.state
        work = before.copy()
        events: list[Event] = list(work.apply(move))
        moves = [move]
        while work.is_chance() and work.outcome() is None:
            draw = work.sample_chance()
            events += work.apply(draw)
            moves.append(draw)
        sc.state = work
        if seat is not None and hasattr(sc.seats[seat], "memory"):
            sc.seats[seat].memory.note(move.to_json())  # as commit does: the seat's menus start there
        sc.adapter.take_notes(before, moves, events, work)
        sc.clear_menus()
        sc.chance_cursor = None
        self.played = move
        return True


Input = tuple[str, str, str]  # ("press", button, "") or ("tap", reader, component id)


@dataclass
class Cost:
    game: str
    setup: str
    move: str
    inputs: int
    path: list[Input] = field(default_factory=list)


def values(data: Any) -> set[str]:
    """Every scalar of a move's JSON, as text."""
    if isinstance(data, dict):
        return {v for x in data.values() for v in values(x)}
    if isinstance(data, list):
        return {v for x in data for v in values(x)}
    return {str(data)}


def snapshot(scene: Scene, seat: int) -> tuple[Any, ...]:
    """What an input may change: the seat's menu and notice, the undo
    question, and whatever the adapter or the scene keep of the menu."""
    ui = scene.seats[seat]
    cursor = ui.cursor
    aliases = [k for k, v in vars(scene.adapter).items() if v is cursor and cursor is not None]
    memory = getattr(ui, "memory", None)  # what the seat chose last: noted as a move is asked for
    kept = dict(memory.chosen) if memory is not None else None
    return (clone(cursor), ui.notice, scene.undo_pending, scene.shared_notice, aliases, kept)


def clone(cursor: Any) -> Any:
    if cursor is None:
        return None
    new = copy.copy(cursor)
    new.stack = list(cursor.stack)
    if isinstance(getattr(cursor, "_home", None), dict):
        new._home = dict(cursor._home)
    return new


def restore(scene: Scene, seat: int, snap: tuple[Any, ...]) -> None:
    cursor, notice, undo, shared, aliases, kept = snap
    ui = scene.seats[seat]
    ui.cursor = clone(cursor)
    ui.notice, scene.undo_pending, scene.shared_notice = notice, undo, shared
    for k in aliases:
        setattr(scene.adapter, k, ui.cursor)
    if kept is not None:
        ui.memory.chosen = dict(kept)


def key(scene: Scene, seat: int) -> Any:
    cursor = scene.seats[seat].cursor
    if cursor is None:
        return None
    return tuple((moves, index) for moves, index in cursor.stack)


def inputs_for(scene: Scene, seat: int, target: Move) -> list[Input]:
    """The inputs worth trying for ``target``: the seat's three buttons, and
    a tap of each component the move names (a piece or card of this seat or
    a shared one), or that the seat may tap and that keeps the move in its
    menu (a card standing for a unit, the other side's for a target), on
    the seat's pad and on each board zone's reader."""
    name = scene.seats[seat].name
    out: list[Input] = [("press", f"{name}.{b}", "") for b in ("left", "right", "ok")]
    named = values(target.to_json())
    adapter, state = scene.adapter, scene.state
    root = scene.cursor_for(seat).stack[0][0]

    def leads(comp: Any) -> bool:  # the tap keeps the move in its menu (a figure that stands for a seat)
        try:
            return target in adapter.tap(state, seat, comp, root, None)
        except (KeyError, ValueError, TypeError):
            return False

    comps = [c for c in adapter.components()
             if (c.seat in (None, seat) and c.value in named)
             or (adapter.may_tap(state, seat, c) and leads(c))]
    out += [("tap", f"{name}.pad", c.id) for c in comps]
    for zone in scene.profile.zones:
        if zone.name in named:
            out += [("tap", zone.reader.name, c.id) for c in comps]
    return out


def send(imap: InputMap, inp: Input) -> None:
    kind, part, what = inp
    imap.handle(TagArrived(part, what, 0.0) if kind == "tap" else ButtonPressed(part, 0.0))


def cheapest(scene: Scene, imap: InputMap, seat: int, target: Move) -> list[Input] | None:
    """Breadth first over input sequences from the scene as it is; the scene
    is left as it was found."""
    probe = Probe()
    live, imap.commit = imap.commit, probe
    start = snapshot(scene, seat)
    candidates = inputs_for(scene, seat, target)
    queue: deque[tuple[tuple[Any, ...], list[Input]]] = deque([(start, [])])
    seen = {key(scene, seat)}
    try:
        while queue:
            snap, path = queue.popleft()
            if len(path) >= MAX_DEPTH:
                break
            for inp in candidates:
                restore(scene, seat, snap)
                probe.played, probe.refused = None, False
                send(imap, inp)
                if probe.played is not None:
                    if probe.played == target:
                        return [*path, inp]
                    continue  # another move: not this way
                if probe.refused:
                    continue
                cursor = scene.seats[seat].cursor
                if cursor is None or target not in cursor.moves:
                    continue
                k = key(scene, seat)
                if k in seen:
                    continue
                seen.add(k)
                queue.append((snapshot(scene, seat), [*path, inp]))
        return None
    finally:
        restore(scene, seat, start)
        imap.commit = live


Watch = Callable[[Scene, InputMap, int, Move, "list[Input] | None"], None]


def play_game(game_id: str, players: int, options: dict[str, Any], seed: int, table: str,
              moves: int, watch: Watch | None = None) -> Iterator[Cost]:
    """The cost of each person's move of one game; ``watch`` sees each move
    and its cheapest inputs before they are played (bench.input_kinds)."""
    game = rules.get(game_id)
    prof = profiles.load(PROFILES[table])
    state = game.new_game(players, seed, options)
    record = GameRecord(0, game_id, players, seed, state.options, False)
    scene = Scene(prof, record, state, "en")
    imap = InputMap(scene, Names(game_id), Probe())  # type: ignore[arg-type]
    live = Live(scene)
    imap.commit = live  # type: ignore[assignment]
    chooser = Greedy(seed)
    setup = f"{players}p" + "".join(f" {k}={v}" for k, v in options.items()) + f" ({table})"
    for _ in range(moves):
        st = scene.state
        if st.outcome() is not None:
            return
        if st.is_chance():  # a step the table enters: drawn here, as the reference table does
            live.play(None, st.sample_chance())
            continue
        seat = st.to_move()
        assert seat is not None and seat >= 0
        target = chooser.choose(st, seat)
        path = cheapest(scene, imap, seat, target)
        if watch is not None:
            watch(scene, imap, seat, target, path)
        text = scene.adapter.move_text(target.to_json(), "en")
        if path is None:
            yield Cost(game_id, setup, text, MAX_DEPTH + 1)
            live.play(seat, target)
            continue
        n = len(st.history)
        for inp in path:
            send(imap, inp)
        if len(scene.state.history) == n:
            raise RuntimeError(f"{game_id} {setup}: the inputs found for {text} did not play it: {path}")
        yield Cost(game_id, setup, text, len(path), path)


def setups(game_id: str) -> list[tuple[int, dict[str, Any], str]]:
    tables = ["reference", "regions"] if game_id == "king-is-dead" else ["reference"]
    return [(n, opts, t) for n, opts in rules.get(game_id).setups() for t in tables]


def pct(values: list[int], p: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def costs(quick: bool = False, progress: Callable[[str], None] | None = None) -> dict[str, list[Cost]]:
    out: dict[str, list[Cost]] = {}
    for game_id in rules.GAMES:
        for n, opts, table in setups(game_id):
            for seed in range(1 if quick else SEEDS):
                out.setdefault(game_id, []).extend(
                    play_game(game_id, n, opts, seed, table, QUICK_MOVES if quick else MOVES))
        if progress:
            progress(game_id)
    return out


def worst(game: list[Cost], k: int = 3) -> str:
    """The dearest moves, each with its inputs."""
    seen: dict[str, Cost] = {}
    for c in sorted(game, key=lambda c: -c.inputs):
        if c.move not in seen:
            seen[c.move] = c
        if len(seen) >= k:
            break
    return "; ".join(f"{c.move} [{c.setup}]: {c.inputs} ({' '.join(describe(i) for i in c.path)})"
                     for c in seen.values())


def describe(inp: Input) -> str:
    kind, part, what = inp
    if kind == "press":
        return {"left": "◀", "ok": "●", "right": "▶"}.get(part.rsplit(".", 1)[-1], part)
    return f"tap {what}" if part.endswith(".pad") else f"{what}@{part}"


def before() -> dict[str, dict[str, Any]]:
    """The kept figures of the flows before issue 34, by row."""
    try:
        data = json.loads(BEFORE.read_text())
    except (OSError, ValueError):
        return {}
    return {r["what"]: {**r, "when": f"{data.get('date', '?')}, load {data['machine']['load_1min']}"}
            for r in data.get("rows", [])}


def measure(quick: bool = False) -> list[Row]:
    rows: list[Row] = []
    kept = before()
    for game_id, game in costs(quick).items():
        for what in ("median", "p90", "worst"):
            old = kept.get(f"{game_id}: inputs a move, {what}")
            if old is not None:
                rows.append(Row(AREA, f"{game_id}: inputs a move, {what} (before)", old["value"], "inputs",
                                note=f"{old['note']} [{old['when']}]" if what == "worst" else ""))
        counts = [c.inputs for c in game]
        rows.append(Row(AREA, f"{game_id}: inputs a move, median", statistics.median(counts), "inputs",
                        TARGET_MEDIAN + 0.5,
                        note=f"{len(counts)} moves of {len({c.setup for c in game})} setups"))
        rows.append(Row(AREA, f"{game_id}: inputs a move, p90", pct(counts, 0.9), "inputs", TARGET_P90 + 0.5))
        rows.append(Row(AREA, f"{game_id}: inputs a move, worst", max(counts), "inputs",
                        note="dearest: " + worst(game)))
    return rows


if __name__ == "__main__":
    main(measure)
