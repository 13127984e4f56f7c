"""What the table holds between two inputs: the game, each seat's menu and
notice, what the shared screen says, the transcript.

The session's three parts share it: input (pi_app.session.input_map) moves cursors
and asks for moves, commit (pi_app.session.commit) changes the game and records
what happened (a Notice), presentation (pi_app.session.presentation) words what
happened into the notices and the transcript, and reads the rest to lay out
the screens and set the lights. None of them holds the table's state alone, so
each can be built and tested over a Scene made from a bare game state.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import rules
from pi_app import games
from pi_app import names as naming
from pi_app.games.base import TableAdapter
from pi_app.store.journal import Entry, GameRecord
from pi_app.store.registry import Tag
from pi_app.table.profile import Profile
from pi_app.ui.menu import Cursor, Memory
from pi_app.ui.screens import Layout
from players import Player
from rules.core import IllegalMove, Move, State


@dataclass
class Seat:
    index: int
    name: str  # the profile's seat name: its parts are "<name>.pad" ...
    cursor: Cursor | None = None
    notice: Layout | None = None
    #: the seat's last choices, for its menus to start on (pi_app.ui.menu.Memory)
    memory: Memory = field(default_factory=Memory)
    notice_kind: str | None = None  # what the notice tells (Notice.kind)


@dataclass(frozen=True)
class Notice:
    """What happened, as input, commit and the loop record it: a kind, the
    seat it concerns and what it is about (a refusal's IllegalMove, a move's
    JSON, a tag). Only presentation turns it into words
    (``Presentation.tell``): a seat's notice, the shared screen's, the
    instructions, the transcript."""

    kind: str  # see Presentation.tell for every kind
    seat: int | None = None
    error: IllegalMove | None = None
    move: Any = None  # a move's JSON
    tag: Tag | None = None
    params: dict[str, Any] = field(default_factory=dict)


@dataclass
class Record:
    """One line of the transcript: what happened, in the table's language."""

    kind: str  # move, chance, refused, unknown-tag, undo, note, said
    seat: int | None
    text: str
    move: Any = None
    extra: dict[str, Any] = field(default_factory=dict)


class Scene:
    def __init__(self, profile: Profile, record: GameRecord, state: State, lang: str,
                 adapter: TableAdapter | None = None, *, implied: int = 0) -> None:
        self.profile = profile
        self.record = record
        self.game = rules.get(record.game)
        self.state = state
        # moves in the history that are no journal entry: the picks an older
        # engine made by itself in a game it recorded (rules.core.RecordReader)
        self.implied = implied
        self.lang = lang
        self.adapter = adapter or games.for_game(record.game, record.players, lang, record.names)
        subjects = tuple(dict.fromkeys(self.adapter.tap_fields.values()))
        self.seats = [Seat(i, profile.seats[i].name, memory=Memory(subjects, follow=self.adapter.remembered))
                      for i in range(record.players)]
        self.chance_cursor: Cursor | None = None  # the shared screen's menu of a chance step
        self.undo_pending = False  # undo pressed once: the shared screen asks to confirm
        self.pending_text = ""  # the move that undo would take back, in words
        self.shared_notice: Layout | None = None
        self.faults: dict[str, str] = {}  # part -> why it stopped answering
        self.journal_fault: str | None = None  # why the journal refused the last write
        #: the players chose to go on while the journal refuses (a held ●): moves
        #: wait in memory, every screen marks the game unsaved until it catches up
        self.unsaved_ok = False
        #: the shared screen's instructions (what the table is to do now) and
        #: everything said, as read through :attr:`log` and :attr:`transcript`
        self._log: list[str] = []
        self._transcript: list[Record] = []
        self._words_due: tuple[Callable[[], list[str]], Record] | None = None
        self.flash_until: dict[int, float] = {}  # seats whose light blinks a refusal
        #: in the daemon, the shared screen pages through a long list of
        #: instructions (the setup) every so many seconds; None: no paging
        self.page_seconds: float | None = None
        self.page = 0
        self.page_at = time.monotonic()
        #: the page every screen whose words take more than one screenful
        #: shows (pi_app.ui.screens.plan); turned every page_seconds
        self.screen_page = 0
        self.screen_page_at = time.monotonic()
        #: the seat whose input is being handled: its screen is sent first
        self.acting: int | None = None
        #: seat -> its computer player (pi_app/session/computer.py), and the move it
        #: chose, waiting for a person to carry it out and the table to confirm it
        self.computers: dict[int, Player] = {}
        self.computer_moves: dict[int, Move] = {}
        self.computer_line: str | None = None  # the shared screen's line for that move
        self.computer_due = False  # the computer to move has yet to choose
        #: set when a seat presses ● on the final screen: the daemon returns
        #: to choosing the next game
        self.new_game_requested = False

    # The instructions for a move are worded once its journal commit returned,
    # but only when first read: the shared screen reads them, after the acting
    # seat's frame is out (its screen does not show them). Whatever reads or
    # adds to the log or the transcript first has them worded, so the
    # transcript keeps its order.
    def say_later(self, words: Callable[[], list[str]]) -> None:
        """The instructions are ``words()``, worded when first read; their
        line in the transcript is added now, in its place."""
        self.say_due()
        said = Record("said", None, "")
        self._transcript.append(said)
        self._words_due = (words, said)

    def say_due(self) -> None:
        due, self._words_due = self._words_due, None
        if due is not None:
            words, said = due
            self._log = words()
            said.text, said.extra = " | ".join(self._log), {"lines": self._log}

    @property
    def log(self) -> list[str]:
        self.say_due()
        return self._log

    @log.setter
    def log(self, lines: list[str]) -> None:
        self.say_due()
        self._log = lines

    @property
    def transcript(self) -> list[Record]:
        self.say_due()
        return self._transcript

    @transcript.setter
    def transcript(self, records: list[Record]) -> None:
        self.say_due()
        self._transcript = records

    def cursor_for(self, seat: int) -> Cursor:
        """The seat's menu, made when first needed (a computer's "menu" is
        its one move: a tap or zone confirms it or is refused)."""
        ui = self.seats[seat]
        if ui.cursor is None:
            move = self.computer_moves.get(seat)
            if move is not None:
                ui.cursor = Cursor.over([move])
            else:
                ui.cursor = self.adapter.menu(self.state, seat)
                state, adapter = self.state, self.adapter
                ui.cursor.confirms = lambda m: adapter.confirms(state, m)
                ui.cursor.prefer = ui.memory.prefer
                ui.cursor.group = lambda f, v: adapter.group(state, f, v)
                ui.cursor.chosen = lambda m: adapter.choice_confirms(state, m)
                ui.cursor.later = adapter.later_fields
                ui.cursor.start()
        return ui.cursor

    def recall(self, entries: Iterable[Entry]) -> None:
        """Each seat's menus remember its own moves among ``entries`` (the
        journal's, after a resume or an undo), as they did while played."""
        for ui in self.seats:
            ui.memory.chosen.clear()
        for entry in entries:
            if entry.seat is not None and 0 <= entry.seat < len(self.seats) and not entry.chance:
                self.seats[entry.seat].memory.note(entry.move)

    def player(self, seat: int | None) -> str:
        """The player at ``seat`` as the screens name them (pi_app.names)."""
        return naming.display_name(self.record.game, seat, self.lang, self.record.names,
                                    computer=seat in self.computers)

    def note(self, text: str) -> None:
        self.log = [text]
        self.transcript.append(Record("note", None, text))

    def clear_menus(self) -> None:
        """After a move or an undo: every menu starts again from the new state."""
        for ui in self.seats:
            ui.cursor = None
            ui.notice = None
        self.shared_notice = None
