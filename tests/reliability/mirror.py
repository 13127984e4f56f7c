"""The daemon's game played again in this process, input for input: it
chooses the simulated players' next input, says what the daemon's screens
must show after it, and holds every history the daemon may have written.

A mirror starts a new game from the same seed as the daemon, or resumes from
a copy of the daemon's journal (the daemon's own files are never opened).
"""

from __future__ import annotations

import queue
import random
import shutil
from pathlib import Path

import rules
from pi_app.session.loop import Session
from pi_app.simulated.autoplay import Input, choose, next_input
from pi_app.store.journal import GameRecord, Journal
from pi_app.store.registry import Registry, made_up_uid
from pi_app.table import hardware, profile
from rules.core import CHANCE, JSON, Move, State

UNDO_RATE = 0.03  # a target move is now and then an undo (two presses of UNDO)
WRONG_RATE = 0.05  # or a press by a seat whose turn it is not, then its ● to dismiss the refusal


def copy_journal(state_dir: Path, into: Path) -> Path:
    """The daemon's journal as it is on disk now: the database and its WAL
    (the wal-index is rebuilt from them on open)."""
    into.mkdir(parents=True, exist_ok=True)
    for suffix in ("", "-wal"):
        src = state_dir / f"journal.sqlite{suffix}"
        if src.exists():
            shutil.copyfile(src, into / src.name)
    return into / "journal.sqlite"


def replay(record: GameRecord, moves: list[JSON]) -> State:
    """The state the engine reaches from the record's seed and ``moves``,
    without the journal's code: an independent check of its replay."""
    game = rules.get(record.game)
    state = game.new_game(record.players, record.seed, record.options)
    for move in moves:
        state.apply(game.move_from_json(move))
    return state


def mirror_table(players: int) -> hardware.Table:
    """The simulated table a mirror plays on (one per game: it outlives the
    mirrors rebuilt after each cut). Its screens are not drawn: the layouts
    are compared with the daemon's, and drawing would double the time."""
    table = hardware.build(profile.load(profile.find("sim")), queue.Queue(), poll=False, seats=players)
    for screen in table.screens.values():
        screen.close()
    table.screens.clear()
    return table


class Mirror:
    def __init__(self, table: hardware.Table, players: int, work: Path, game: str | None = None,
                 seed: int = 0) -> None:
        """A new game of ``game`` in ``work``, or (``game`` None) the game the
        journal in ``work`` holds, resumed; ``found`` is its moves on disk."""
        self.table = table
        self.journal = Journal(work / "journal.sqlite")
        self.journal.db.execute("PRAGMA synchronous=OFF")  # a copy: the daemon's own file is what is tested
        self.registry = Registry(work / "tags.sqlite")
        last = self.journal.games()[-1] if game is None else None
        self.record = last
        self.found: list[JSON] = [e.move for e in self.journal.entries(last)] if last else []
        self.session: Session | None = None
        if last is not None and last.ended:
            return  # nothing to resume: the daemon chooses the next game in its lobby
        s = Session.open(self.table, self.journal, self.registry, game=game, players=players, seed=seed)
        self.record = s.scene.record
        self.session = s
        self.uids = {c.id: made_up_uid(s.scene.record.game, c.id) for c in s.scene.adapter.components()}
        self.registry.auto_enroll(s.scene.record.game,
                                  [(c.id, c.count) for c in s.scene.adapter.components()])
        s.redraw()
        s.set_lights()

    def close(self) -> None:
        while not self.table.queue.empty():
            self.table.queue.get_nowait()
        self.journal.close()
        self.registry.close()

    # -- the game ------------------------------------------------------------
    def over(self) -> bool:
        return self.session is None or self.session.scene.state.outcome() is not None

    def history(self) -> list[JSON]:
        assert self.session is not None
        return [m.to_json() for m in self.session.scene.state.history]

    def line(self, inp: Input) -> str:
        """The console line that makes ``inp`` at the daemon."""
        if inp.kind == "tap":
            return f"tap {inp.part.split('.')[0]} {self.uids[inp.what]}"
        if inp.part == self.table.profile.undo.name:
            return "press undo"
        seat, button = inp.part.split(".")
        return f"press {seat} {button}"

    def apply(self, inp: Input) -> None:
        assert self.session is not None
        if inp.kind == "tap":
            self.table.tap(inp.part, self.uids[inp.what])
        else:
            self.table.press(inp.part)
        self.session.pump()

    def seat_screens(self) -> dict[str, list[str]]:
        """What each seat's screen says now (the shared one pages on a clock
        in the daemon, so it is left out)."""
        assert self.session is not None
        s = self.session
        return {self.table.profile.seats[i].screen.name: s.presentation.seat_layout(i).text().splitlines()
                for i in range(len(s.scene.seats))}


class Players:
    """The simulated players of a mirror: one input at a time toward a
    chosen move, now and then an undo or a press out of turn."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.target: Move | None = None
        self.taps = True
        self.played = -1
        self.queued: list[Input] = []

    def reset(self) -> None:
        """After a restart the menus start afresh: choose again."""
        self.target, self.played, self.queued = None, -1, []

    def next(self, mirror: Mirror) -> Input:
        s = mirror.session
        assert s is not None
        if self.queued:
            return self.queued.pop(0)
        seat = s.scene.state.to_move()
        assert seat is not None and seat != CHANCE, (
            f"the game waits for {'a chance step' if seat == CHANCE else 'nobody'} that the table "
            f"should have drawn (after move {len(s.scene.state.history)})")
        if len(s.scene.state.history) != self.played or self.target not in s.scene.state.legal_moves():
            self.played = len(s.scene.state.history)
            roll = self.rng.random()
            if roll < UNDO_RATE and s.scene.state.history:
                undo = Input("press", s.scene.profile.undo.name)
                self.queued = [undo]
                return undo
            if roll < UNDO_RATE + WRONG_RATE:
                other = self.rng.choice([i for i in range(len(s.scene.seats)) if i != seat])
                name = s.scene.seats[other].name
                self.queued = [Input("press", f"{name}.ok")]  # read the refusal, dismiss it
                return Input("press", f"{name}.{self.rng.choice(['left', 'right'])}")
            self.target = choose(s, self.rng)
            self.taps = self.rng.random() < 0.6
        assert self.target is not None
        return next_input(s, seat, self.target, self.taps)
