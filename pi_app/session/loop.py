"""The session loop: the one owner of the game at the table.

Hardware threads only put drivers.events on the queue. The loop takes them in
order and hands each along one way: input (pi_app.session.input_map) works out what
a tap or a press means, commit (pi_app.session.commit) has the engine check it and
the journal record it, presentation (pi_app.session.presentation) redraws the
screens that changed and sets the lights. A refused input changes nothing
but the refusing seat's screen and light. What they share between inputs is
the scene (pi_app.session.scene); the Session only opens the game, runs the loop and
decides when a computer seat thinks.
"""

from __future__ import annotations

import contextlib
import gc
import queue
import secrets
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import rules
from drivers.events import ReaderFault, ReaderRecovered
from pi_app.errors import NothingToResume, UsageError
from pi_app.games.base import TableAdapter
from pi_app.session import computer
from pi_app.session.commit import Commit, rebuild
from pi_app.session.input_map import InputMap
from pi_app.session.presentation import ARROWS, FLASH_SECONDS, Presentation
from pi_app.session.scene import Notice, Record, Scene, Seat
from pi_app.store.journal import GameRecord, Journal
from pi_app.store.registry import Registry
from pi_app.table.hardware import Table
from pi_app.ui.screens import Layout
from players import Player
from rules.core import State

__all__ = ["ARROWS", "FLASH_SECONDS", "JOURNAL_RETRY_SECONDS", "SHOW_ALL", "STOP",
           "NothingToResume", "Record", "Seat", "Session", "Typed", "rebuild"]

SHOW_ALL = "show-all"  # a queue item: redraw (and report) every screen
STOP = "stop"  # a queue item: stop after everything queued before it
JOURNAL_RETRY_SECONDS = 1.0  # a journal the disk refused is tried again this often while idle


@dataclass(frozen=True)
class Typed:
    """A console line, queued like a hardware event so the loop thread runs
    it in order with everything else. ``done`` is set once it has run, so the
    console queues its next line behind the events this one caused."""

    line: str
    done: threading.Event = field(default_factory=threading.Event, compare=False)

    def run(self, execute: Callable[[str], bool] | None, events: queue.Queue) -> bool:
        try:
            going = execute is None or execute(self.line)
            if not going:
                events.put(STOP)
            return going
        finally:
            self.done.set()


@contextlib.contextmanager
def collector_waits() -> Iterator[None]:
    """Python's cyclic garbage collector does not start while an input goes
    from its event to the screens: it starts at the first allocation after,
    with the frames already out. A collection in the middle of an input cost
    0.4 ms (the youngest objects) to 78 ms (all of them) here, some 30 times
    that on a Pi Zero 2 W, and about one input in forty met one
    (bench/README.md). What an input leaves for the collector is a few
    thousand objects at most (reference counting frees the rest at once)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def fresh_seed() -> int:
    """A new game's seed: 64 bits from the operating system's entropy, so
    that no one can work out the draws (the clock, or a scan of a small
    space, would give them away). Signed, to fit SQLite's INTEGER column."""
    return secrets.randbits(64) - (1 << 63)


class Session:
    """The game at the table. What its parts keep is theirs: the game and
    what the screens say in ``scene``, the journal's backlog in ``commit``,
    the frames sent in ``presentation``; callers reach them there."""

    def __init__(self, table: Table, journal: Journal, registry: Registry, record: GameRecord,
                 state: State, lang: str, adapter: TableAdapter | None = None) -> None:
        self.table = table
        self.journal = journal
        self.registry = registry
        self.scene = Scene(table.profile, record, state, lang, adapter,
                           implied=len(state.history) - journal.move_count(record.id))
        # the way a tap goes: input -> commit -> presentation, each handed the next
        self.presentation = Presentation(self.scene, table.screens, table.lights)
        self.commit = Commit(self.scene, journal, registry, self.presentation.flash, self.presentation.tell)
        self.input = InputMap(self.scene, registry, self.commit)
        self.heartbeat = time.monotonic()
        #: runs a typed console line; False means quit
        self.on_typed: Callable[[str], bool] | None = None
        self._stop = threading.Event()
        #: True when open() resumed the journal's unfinished game
        self.resumed = False

    # -- opening -------------------------------------------------------------
    @classmethod
    def open(cls, table: Table, journal: Journal, registry: Registry, *, game: str | None = None,
             players: int | None = None, seed: int = 0, options: dict[str, Any] | None = None,
             lang: str | None = None, new: bool = False, names: Sequence[str] = ()) -> Session:
        """Resume the journal's unfinished game (with its players' names), or
        start the one asked for, its players named ``names`` by seat."""
        lang = lang or table.profile.lang
        current = journal.current()
        if current is not None and not new:
            if game is not None and (game, players or current.players) != (current.game, current.players):
                moves = len(journal.entries(current))
                raise UsageError(
                    f"journal {journal.path} holds an unfinished game of {current.game} for "
                    f"{current.players} players ({moves} moves); run without --game to resume it, "
                    "or add --new to abandon it")
            state, adapter, said = rebuild(journal, current, lang, draws=table.profile.chance == "draw")
            session = cls(table, journal, registry, current, state, lang, adapter)
            session.resumed = True
            session.scene.recall(journal.entries(current))
            moves = len(state.history) - session.scene.implied
            session.presentation.tell(Notice("resumed", params={"moves": moves}))
            if said:  # the shared screen as before the cut: what the table was last told to do
                session.scene.log = said
            # A power cut may fall between a move and what follows it in the
            # journal: the chance steps Tablekeeper draws, or the game's end.
            session.commit.catch_up()
            return session
        if game is None or players is None:
            raise NothingToResume("no game to resume; choose one with --game ID --players N "
                                  f"(games: {', '.join(rules.GAMES) or 'none'})")
        if players > len(table.profile.seats):
            raise UsageError(f"table {table.profile.path} has {len(table.profile.seats)} seats, "
                             f"not enough for {players} players")
        try:
            state = rules.get(game).new_game(players, seed, options or {})
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        if current is not None:  # abandoned only once the new game is known to start
            journal.end(current)
        record = journal.start(game, players, seed, state.options, names)
        session = cls(table, journal, registry, record, state, lang)
        session.presentation.tell(Notice("started", params={"game": session.scene.game.name or game}))
        session.commit.auto_chance()
        return session

    # -- the loop ----------------------------------------------------------------
    def run(self, stop: threading.Event | None = None) -> None:
        """Take events until stopped; redraw after each."""
        stop = stop or self._stop
        self.set_lights()  # the seat to move is lit from the first frame on
        self.redraw()
        while not stop.is_set():
            try:
                event = self.table.queue.get(timeout=0.1)
            except queue.Empty:
                event = None
            self.heartbeat = time.monotonic()
            if event == STOP:
                stop.set()
                break
            if self.scene.new_game_requested:
                break
            try:
                if event is not None:
                    self.handle(event)
                self.tick()
            except Exception:  # a fault in one event must not stop the table
                traceback.print_exc(file=sys.stderr)
                self.presentation.tell(Notice("internal-error"))
                with contextlib.suppress(Exception):  # the fault may be in drawing itself
                    self.redraw()
        self.commit.write_journal()  # a last try before the table stops

    def stop(self) -> None:
        self._stop.set()

    def pump(self) -> int:
        """Handle everything queued now (tests, the demo, the console)."""
        n = 0
        while True:
            try:
                event = self.table.queue.get_nowait()
            except queue.Empty:
                break
            self.handle(event)
            n += 1
        self.tick()
        return n

    def handle(self, event: object) -> None:
        """One event, one way through: the acting seat's acknowledgement,
        input, commit, then the screens."""
        with collector_waits():
            self.scene.acting = self.input.acting_seat(event)
            item = self.input.pressed_item(event)
            acting = self.scene.acting
            if acting is not None and item is not None and acting not in self.scene.computers:
                self.presentation.acknowledge(acting, item)  # before the move is worked out
            if self.input.handle(event):
                pass
            elif isinstance(event, ReaderFault):
                self.scene.faults[event.reader] = event.error
            elif isinstance(event, ReaderRecovered):
                self.scene.faults.pop(event.reader, None)
            elif event == SHOW_ALL:
                self.presentation.forget()
            elif isinstance(event, Typed):
                event.run(self.on_typed, self.table.queue)
            # the lights once the acting seat's frame is handed to its screen: it waits for nothing else
            self.presentation.redraw(then=self.set_lights)
        if self.scene.computer_due:  # after the acting seat saw its move: the computer may think long
            self.scene.computer_due = False
            self.computer_turn()
            self.set_lights()
            self.redraw()

    def tick(self) -> None:
        now = time.monotonic()
        due = (self.scene.journal_fault is not None
               and now - self.commit.journal_tried >= JOURNAL_RETRY_SECONDS)
        if due and self.commit.try_again():
            self.set_lights()
            self.redraw()  # the screens' "not saved" goes; a move that waited is told
        self.presentation.tick(now)

    def alive(self) -> bool:
        """For the watchdog: the loop turned recently and the threads run."""
        fresh = time.monotonic() - self.heartbeat < 5.0
        return fresh and self.table.alive()

    # -- computer players ----------------------------------------------------------------
    def seat_computers(self, players: dict[int, Player]) -> None:
        """Make these seats computer players (before the game's first redraw)."""
        self.scene.computers = dict(players)
        self.scene.computer_moves.clear()
        self.computer_turn()

    def computer_turn(self) -> None:
        """The computer to move chooses now, from its seat's view; its move is
        added to what the shared screen tells the table to do."""
        sc = self.scene
        seat = sc.state.to_move()
        if seat is None or seat not in sc.computers or seat in sc.computer_moves:
            return
        move = sc.computers[seat].choose(sc.state, seat)
        sc.computer_moves[seat] = move
        sc.seats[seat].cursor = None
        secret = computer.is_secret(sc.state, move)
        self.presentation.tell(Notice("computer-move", seat, move=None if secret else move.to_json()))

    # -- what the loop does after each input, also asked for by the console and tests -----
    def layouts(self) -> dict[str, Layout]:
        """Every screen's layout now (presentation's)."""
        return self.presentation.layouts()

    def redraw(self) -> None:
        self.presentation.redraw()

    def set_lights(self) -> None:
        self.presentation.set_lights()
