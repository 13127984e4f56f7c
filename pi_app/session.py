"""The session loop: the one owner of the game at the table.

Hardware threads only put drivers.events on the queue. The loop takes them in
order: a tap or a press becomes a menu step or a move through the game's
table adapter, the engine checks it, the journal records it, then the screens
that changed are redrawn and the lights set. A refused input changes nothing
but the refusing seat's screen and light.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import sys
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import rules
from drivers.base import ScreenError
from drivers.events import (
    ButtonHeld,
    ButtonPressed,
    EncoderTurned,
    ReaderFault,
    ReaderRecovered,
    TagArrived,
)
from pi_app import adapters, computer, players
from pi_app.adapters.base import Component, TableAdapter
from pi_app.errors import UsageError
from pi_app.hardware import Table
from pi_app.i18n import t
from pi_app.journal import Entry, GameRecord, Journal, JournalWriteError, Pending, is_barrier, pending
from pi_app.menu import BACK, CONFIRM, Cursor, flatten
from pi_app.registry import Registry
from pi_app.screens import SMALL, Layout, font, pages, render, wrap
from players import Player
from rules import sections
from rules.core import CHANCE, Event, IllegalMove, Move, State

FLASH_SECONDS = 0.8
LEGEND_SECONDS = 6.0  # the short forms held ● shows stay this long (or to the next press)
SHOW_ALL = "show-all"  # a queue item: redraw (and report) every screen
STOP = "stop"  # a queue item: stop after everything queued before it
JOURNAL_RETRY_SECONDS = 1.0  # a journal the disk refused is tried again this often while idle
ARROWS = "◀   ●   ▶"
SCREEN_RETRY_SECONDS = 1.0  # a screen that stopped answering is tried again this often

log = logging.getLogger(__name__)


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


#: JournalWriteError.reason -> the words the shared screen says it with
JOURNAL_FAULTS = {"disk full": "journal-full", "I/O error": "journal-io", "read-only": "journal-readonly"}


class NothingToResume(UsageError):
    """The journal holds no unfinished game and none was asked for."""


@dataclass
class Seat:
    index: int
    name: str  # the profile's seat name: its parts are "<name>.pad" ...
    cursor: Cursor | None = None
    notice: Layout | None = None


@dataclass
class Record:
    """One line of the transcript: what happened, in the table's language."""

    kind: str  # move, chance, refused, unknown-tag, undo, note
    seat: int | None
    text: str
    move: Any = None
    extra: dict[str, Any] = field(default_factory=dict)


class Session:
    def __init__(self, table: Table, journal: Journal, registry: Registry, record: GameRecord,
                 state: State, lang: str, adapter: TableAdapter | None = None) -> None:
        self.table = table
        self.profile = table.profile
        self.journal = journal
        self.registry = registry
        self.record = record
        self.game = rules.get(record.game)
        self.state = state
        # moves in the history that are no journal entry: the picks an older
        # engine made by itself in a game it recorded (rules.core.RecordReader)
        self.implied = len(state.history) - journal.move_count(record.id)
        self.lang = lang
        self.adapter = adapter or adapters.for_game(record.game, record.players, lang, record.names)
        self.seats = [Seat(i, self.profile.seats[i].name) for i in range(record.players)]
        self.chance_cursor: Cursor | None = None
        self.undo_pending = False
        self.shared_notice: Layout | None = None
        self.faults: dict[str, str] = {}
        self.log: list[str] = []
        self.transcript: list[Record] = []
        self.flash_until: dict[int, float] = {}
        self.legend_until: dict[int, float] = {}  # seats showing the legend held ● asked for
        self.heartbeat = time.monotonic()
        self._layouts: dict[str, Layout] = {}
        #: called from the loop with the layouts that changed (the console)
        self.observer: Callable[[dict[str, Layout]], None] | None = None
        #: runs a typed console line; False means quit
        self.on_typed: Callable[[str], bool] | None = None
        self._stop = threading.Event()
        self.pending_text = ""
        #: in the daemon, the shared screen pages through a long list of
        #: instructions (the setup) every so many seconds; None: no paging
        self.page_seconds: float | None = None
        #: set when a seat presses ● on the final screen: the daemon returns
        #: to choosing the next game
        self.new_game_requested = False
        self.page = 0
        self._page_at = time.monotonic()
        #: True when open() resumed the journal's unfinished game
        self.resumed = False
        #: the page every screen whose words take more than one screenful
        #: shows (pi_app.screens.plan); turned every page_seconds
        self.screen_page = 0
        self._screen_page_at = time.monotonic()
        #: moves accepted while the journal could not be written (disk full):
        #: kept in order, written all at once as soon as the disk takes them
        self.backlog: list[Pending] = []
        self.journal_fault: str | None = None  # why the backlog is not on disk yet
        self._end_due = False  # the game ended; the journal does not say so yet
        self._journal_tried = 0.0
        #: the seat whose input is being handled: its screen is sent first
        self.acting: int | None = None
        self._screens_tried = time.monotonic()
        self._faults_checked: set[str] = set()  # the faults retry_screens last saw
        #: seat -> its computer player (pi_app/computer.py), and the move it
        #: chose, waiting for a person to carry it out and the table to confirm it
        self.computers: dict[int, Player] = {}
        self.computer_moves: dict[int, Move] = {}
        self.computer_line: str | None = None  # the shared screen's line for that move
        self._computer_due = False  # the computer to move has yet to choose

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
            session.note(t("resumed", lang, moves=len(state.history) - session.implied))
            if said:  # the shared screen as before the cut: what the table was last told to do
                session.log = said
            # A power cut may fall between a move and what follows it in the
            # journal: the chance steps Tablekeeper draws, or the game's end.
            session.after_moves(state.copy(), [], [])
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
        session.note(t("started", lang, game=session.game.name or game))
        session.auto_chance()
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
            if self.new_game_requested:
                break
            try:
                if event is not None:
                    self.handle(event)
                self.tick()
            except Exception:  # a fault in one event must not stop the table
                traceback.print_exc(file=sys.stderr)
                self.shared_notice = Layout(title=t("internal-error", self.lang), alert=True)
                with contextlib.suppress(Exception):  # the fault may be in drawing itself
                    self.redraw()
        self.write_journal()  # a last try before the table stops

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
        self.acting = self.acting_seat(event)
        if isinstance(event, TagArrived):
            self.on_tag(event.reader, event.uid)
        elif isinstance(event, ButtonPressed):
            self.on_button(event.button)
        elif isinstance(event, ButtonHeld):
            self.on_held(event.button)
        elif isinstance(event, EncoderTurned):
            # A turn is ◀ or ▶ once per detent, with everything a press means.
            role = "right" if event.steps > 0 else "left"
            for _ in range(abs(event.steps)):
                self.on_button(event.encoder.rsplit(".", 1)[0] + "." + role)
        elif isinstance(event, ReaderFault):
            self.faults[event.reader] = event.error
        elif isinstance(event, ReaderRecovered):
            self.faults.pop(event.reader, None)
        elif event == SHOW_ALL:
            self._layouts.clear()
        elif isinstance(event, Typed):
            event.run(self.on_typed, self.table.queue)
        self.set_lights()
        self.redraw()
        if self._computer_due:  # after the acting seat saw its move: the computer may think long
            self._computer_due = False
            self.computer_turn()
            self.set_lights()
            self.redraw()

    def acting_seat(self, event: object) -> int | None:
        """The seat whose input ``event`` is (a piece on a board zone: the seat
        to move), so that its screen is the first sent; None for none."""
        part = getattr(event, "reader", None) or getattr(event, "button", None) \
            or getattr(event, "encoder", None)
        seat = self.seat_of(part) if isinstance(part, str) else None
        if seat is None and isinstance(event, TagArrived):
            seat = self.state.to_move()
        return seat if seat is not None and 0 <= seat < len(self.seats) else None

    def send_order(self, names: list[str]) -> list[str]:
        """Feedback first: the acting seat's screen, then the shared screen,
        then the other seats' (on one I2C bus they go one after another)."""
        first = [] if self.acting is None else [self.profile.seats[self.acting].screen.name]
        first.append(self.profile.shared_screen.name)
        return [n for n in first if n in names] + [n for n in names if n not in first]

    def paging(self) -> bool:
        """The shared screen takes the instructions in turn on its big line:
        below it the standing lines (scores) leave no room for earlier ones,
        and every instruction is something to do on the table."""
        return bool(self.page_seconds) and len(self.log) > 1

    def tick(self) -> None:
        now = time.monotonic()
        due = self.journal_fault is not None and now - self._journal_tried >= JOURNAL_RETRY_SECONDS
        if due and self.write_journal():
            self.redraw()  # the shared screen's "not saved" line goes
        if self.paging() and now - self._page_at >= (self.page_seconds or 0.0):
            self.page = (self.page + 1) % len(self.log)
            self._page_at = now
            self.redraw()
        if self.page_seconds and now - self._screen_page_at >= self.page_seconds:
            self._screen_page_at = now
            if any(pages(layout) > 1 for layout in self._layouts.values()):
                self.screen_page += 1
                self.redraw()
        for seat, until in list(self.legend_until.items()):
            if now >= until:
                del self.legend_until[seat]
                notice = self.seats[seat].notice
                if notice is not None and notice.title == t("legend", self.lang):
                    self.seats[seat].notice = None
                    self.redraw()
        for seat, until in list(self.flash_until.items()):
            if now >= until:
                del self.flash_until[seat]
        self.retry_screens(now)
        self.set_lights()

    def retry_screens(self, now: float) -> None:
        """A screen that stopped answering gets the frame of now as soon as
        it answers again, and the shared screen its fault lines (a fault that
        began or ended while the screens were drawn), even while nothing
        happens at the table."""
        shared = self.profile.shared_screen.name
        due = now - self._screens_tried >= SCREEN_RETRY_SECONDS
        for _ in range(2):  # a screen that answers again changes the shared screen's lines
            faulty = self.faults.keys() & self.table.screens.keys()
            # the shared layout is only worked out when the faults changed: it is not cheap
            changed = self.faults.keys() != self._faults_checked and shared not in self.faults
            self._faults_checked = set(self.faults)
            stale = changed and self._layouts.get(shared) != self.shared_layout()
            if not (stale or (faulty and due)):
                return
            self._screens_tried, due = now, False
            self.redraw()

    # -- input ---------------------------------------------------------------------
    def seat_of(self, part: str) -> int | None:
        seat = self.profile.seat_of_part(part)
        return seat if seat is not None and seat < len(self.seats) else None

    def on_held(self, button: str) -> None:
        """● held: the seat's screen spells out the short forms the screens
        use, for LEGEND_SECONDS or until the next press (which does nothing
        else, as for any notice). The press that began the hold has acted."""
        seat = self.seat_of(button)
        if seat is None or button.rsplit(".", 1)[-1] != "ok":
            return
        lines = self.adapter.legend(self.state, self.lang) or [t("legend-none", self.lang)]
        self.seats[seat].notice = Layout(title=t("legend", self.lang), lines=tuple(lines))
        self.legend_until[seat] = time.monotonic() + LEGEND_SECONDS

    def on_button(self, button: str) -> None:
        if button == self.profile.undo.name:
            self.on_undo()
            return
        seat = self.seat_of(button)
        if seat is None:
            return
        role = button.rsplit(".", 1)[-1]
        if self.undo_pending:
            self.undo_pending = False
            self.shared_notice = Layout(title=t("undo-cancelled", self.lang))
            return
        ui = self.seats[seat]
        if ui.notice is not None:
            ui.notice = None  # the press that dismisses a refusal does nothing else
            return
        if self.state.outcome() is not None:
            # the next game starts only once this one is on disk
            self.new_game_requested = role == "ok" and self.write_journal()
            return
        if self.state.is_chance():
            self.chance_press(seat, role)
            return
        if seat in self.computers:
            # ● on a computer's seat confirms its move, carried out on the table
            move = self.computer_moves.get(seat)
            if role == "ok" and move is not None and seat == self.state.to_move():
                self.play(seat, move)
            return
        if seat != self.state.to_move():
            self.refuse(seat, self.not_your_turn(seat))
            return
        cursor = self.cursor_for(seat)
        if role == "left":
            cursor.step(-1)
        elif role == "right":
            cursor.step(1)
        elif role == "ok":
            move = cursor.select()
            if move is not None:
                self.play(seat, move)

    def on_tag(self, reader: str, uid: str) -> None:
        seat = self.seat_of(reader)
        if seat is None:
            self.on_zone_tag(reader, uid)
            return
        self.undo_pending = False
        self.seats[seat].notice = None
        tag = self.registry.lookup(uid)
        comp = self.adapter.component(tag.component) if tag and tag.game == self.record.game else None
        if comp is None:
            self.unknown_tag(seat, uid)
            return
        if self.state.outcome() is not None:
            self.refuse(seat, IllegalMove("table.game-over", ""))
            return
        if self.state.is_chance():
            self.chance_tap(seat, comp)
            return
        if seat != self.state.to_move():
            self.refuse(seat, self.not_your_turn(seat))
            return
        if comp.seat is not None and comp.seat != seat:
            self.refuse(seat, IllegalMove("table.not-your-piece", self.adapter.turn_rule,
                                          owner=self.player(comp.seat),
                                          seat=self.player(seat)))
            return
        cursor = self.cursor_for(seat)
        subset = self.adapter.tap(self.state, seat, comp, cursor.moves, cursor.field())
        if not subset and len(cursor.stack) > 1:
            # The tap may start over: a card tapped while deep in a menu, or
            # a new pick of what was picked before (blue instead of red). A
            # tap that only fails to go with an earlier pick of something
            # else (a region with no red, after red) is refused, not used to
            # drop that pick unseen.
            root = cursor.stack[0][0]
            subset = self.adapter.tap(self.state, seat, comp, root, Cursor.over(root).field())
            chosen = _chosen(cursor.moves, root)
            field = self.adapter.tap_fields.get(comp.kind)
            if subset and chosen and field is not None and field not in chosen:
                words = ", ".join(str(self.adapter.value_label(f, v, self.lang)) for f, v in chosen.items())
                self.refuse(seat, IllegalMove("table.tap-conflict", self.adapter.turn_rule,
                                              what=comp.name(self.lang), chosen=words))
                return
            if subset:
                del cursor.stack[1:]
        if not subset:
            self.refuse(seat, self.adapter.refusal(self.state, seat, comp, cursor.moves))
            return
        if len(subset) == 1 and not self.adapter.tap_confirms:
            self.play(seat, subset[0])  # the tap itself chose the move
        else:
            # A tap that is the whole turn (a card played in Siege) waits for
            # ● as a menu does: a card tapped by mistake costs nothing.
            cursor.narrow(subset)

    def on_zone_tag(self, reader: str, uid: str) -> None:
        """A piece put on a board zone's reader: for the seat to move, it
        picks that zone (and the piece's own field, a colour) in its menu."""
        zone = next((z for z in self.profile.zones if z.reader.name == reader), None)
        seat = self.state.to_move()
        field = self.adapter.zone_field
        if zone is None or field is None or seat is None or seat < 0 or self.state.outcome() is not None:
            return
        self.undo_pending = False
        self.seats[seat].notice = None
        tag = self.registry.lookup(uid)
        comp = self.adapter.component(tag.component) if tag and tag.game == self.record.game else None
        if comp is None:
            self.unknown_tag(seat, uid)
            return
        cursor = self.cursor_for(seat)

        def narrowed(moves: tuple[Move, ...]) -> list[Move]:
            here = [m for m in moves if flatten(m.to_json()).get(field) == zone.name]
            return self.adapter.tap(self.state, seat, comp, here, field) if here else []

        subset = narrowed(cursor.moves)
        if not subset and len(cursor.stack) > 1:
            subset = narrowed(cursor.stack[0][0])
            if subset:
                del cursor.stack[1:]
        if not subset:
            self.refuse(seat, self.zone_refusal(seat, comp, zone.name, cursor.moves))
        elif len(subset) == 1:
            self.play(seat, subset[0])
        else:
            cursor.narrow(subset)

    def zone_refusal(self, seat: int, comp: Component, zone: str, moves: tuple[Move, ...]) -> IllegalMove:
        """Why a piece on a zone fits no move: the engine is asked about the
        move offered now with the zone (and the piece's field) put in it."""
        own = self.adapter.tap_fields.get(comp.kind)
        for move in moves[:1]:
            data = move.to_json()
            if self.adapter.zone_field in data:
                probe = {**data, str(self.adapter.zone_field): zone}
                if own in data:
                    probe[str(own)] = comp.value
                try:
                    self.state.check(self.game.move_from_json(probe))
                except IllegalMove as exc:
                    return exc
                except ValueError:
                    pass  # no such move in the notation: say it plainly below
        what = f"{comp.name(self.lang)} @ {zone}"
        return IllegalMove("table.not-now", self.adapter.turn_rule, what=what)

    def chance_press(self, seat: int, role: str) -> None:
        if self.profile.chance == "draw" or self.adapter.chance_seat(self.state) is not None:
            return  # a secret draw is entered by a tap on the drawer's pad only
        cursor = self.chance_cursor = self.chance_cursor or Cursor.over(self.state.legal_moves())
        if role in ("left", "right"):
            cursor.step(-1 if role == "left" else 1)
        elif role == "ok":
            move = cursor.select()
            if move is not None:
                self.play(None, move)

    def chance_tap(self, seat: int, comp: Component) -> None:
        drawer = self.adapter.chance_seat(self.state)
        if drawer is not None and seat != drawer:
            # A secret draw shows on the screen of the pad it is tapped on:
            # only the drawer's own pad may reveal it.
            self.refuse(seat, IllegalMove("table.draw-own-pad", "", drawer=self.player(drawer)))
            return
        moves = self.state.legal_moves()
        subset = self.adapter.chance_tap(self.state, comp, moves)
        if len(subset) == 1:
            self.play(None, subset[0])
        elif subset:
            self.chance_cursor = Cursor.over(moves)
            self.chance_cursor.narrow(subset)
        else:
            self.refuse(seat, IllegalMove("table.chance-pending", "",
                                          what=self.adapter.chance_title(self.state, self.lang)))

    def cursor_for(self, seat: int) -> Cursor:
        ui = self.seats[seat]
        if ui.cursor is None:
            move = self.computer_moves.get(seat)
            # A computer's "menu" is its one move: a tap or zone confirms it or is refused.
            ui.cursor = Cursor.over([move]) if move is not None else self.adapter.menu(self.state, seat)
        return ui.cursor

    def player(self, seat: int | None) -> str:
        """The player at ``seat`` as the screens name them (pi_app.players)."""
        return players.display_name(self.record.game, seat, self.lang, self.record.names,
                                    computer=seat in self.computers)

    def not_your_turn(self, seat: int) -> IllegalMove:
        to_move = self.state.to_move()
        return IllegalMove("table.not-your-turn", self.adapter.turn_rule,
                           to_move=self.player(to_move) if to_move is not None else "-",
                           seat=self.player(seat))

    # -- outcomes of input ---------------------------------------------------------
    def refuse(self, seat: int, exc: IllegalMove) -> None:
        if seat in self.computers:
            # Its light flashes; no words, which could name one of its face-down cards.
            exc = computer.NOT_THIS
        message = exc.message(self.lang, self.player)
        rule = sections.name(self.record.game, exc.rule, self.lang)
        lines = [message] + ([t("rule", self.lang, rule=rule)] if rule else [])
        if seat not in self.computers:
            self.seats[seat].notice = Layout(title=t("refused", self.lang), lines=tuple(lines), alert=True)
        self.flash(seat)
        self.transcript.append(Record("refused", seat, message, extra={"code": exc.code, "rule": rule}))
        self.journal.refused(self.record, seat, exc.code, exc.rule)  # the night's report counts them

    def unknown_tag(self, seat: int, uid: str) -> None:
        tag = self.registry.lookup(uid)  # enrolled, but for another game or more seats
        if tag is None:
            detail = t("unknown-tag-detail", self.lang, uid=uid, game=self.record.game)
        elif tag.game == self.record.game:
            detail = t("tag-not-for-players", self.lang, component=self.tag_words(tag.game, tag.component),
                       players=self.record.players)
        else:
            detail = t("tag-not-in-game", self.lang, component=self.tag_words(tag.game, tag.component),
                       game=self.game_words(tag.game))
        if seat not in self.computers:  # a computer's screen shows no notices: nobody reads it
            self.seats[seat].notice = Layout(title=t("unknown-tag", self.lang), lines=(detail,), alert=True)
        self.flash(seat)
        self.transcript.append(Record("unknown-tag", seat, detail, extra={"uid": uid}))

    def game_words(self, game: str) -> str:
        """A game's title; the id only for a game this box does not know."""
        try:
            return rules.get(game).name or game
        except (KeyError, ValueError):
            return game

    def tag_words(self, game: str, component: str) -> str:
        """A component of any game as its screens name it (its id only when
        that game does not know it)."""
        try:
            players = max(rules.get(game).player_counts)
        except (KeyError, ValueError):
            return component
        comp = adapters.for_game(game, players, self.lang).component(component)
        return comp.name(self.lang) if comp is not None else component

    def flash(self, seat: int) -> None:
        light = self.table.lights.get(self.profile.seats[seat].light.name)
        if light is not None:
            light.blink()
        self.flash_until[seat] = time.monotonic() + FLASH_SECONDS

    def note(self, text: str) -> None:
        self.log = [text]
        self.transcript.append(Record("note", None, text))

    def play(self, seat: int | None, move: Move) -> bool:
        """Apply a move and the chance steps Tablekeeper may draw after it,
        journal each, tell the table what to do. False (and nothing changed)
        when the engine refuses."""
        before = self.state.copy()
        events = self.apply(seat, move, commit=False)
        if events is None:
            return False
        self.after_moves(before, [move], events)
        return True

    def apply(self, seat: int | None, move: Move, commit: bool = True) -> list[Event] | None:
        """Apply one move and journal it; with ``commit`` False it waits in the
        backlog for :meth:`after_moves`, which writes it with the chance steps
        drawn after it in one commit (one fsync a tap, before any frame)."""
        chance = self.state.to_move() == CHANCE
        n = len(self.state.history) - self.implied
        work = self.state.copy()
        try:
            events = work.apply(move)
        except IllegalMove as exc:
            if seat is not None:
                self.refuse(seat, exc)
            return None
        # On disk first: a move the table is told about is never lost. A disk
        # that refuses it (full, failing) leaves it in the backlog, in memory,
        # and the game goes on; any other fault leaves the game as it was.
        barrier = is_barrier(chance, events) or self.adapter.undo_barrier(move.to_json())
        self.backlog.append(pending(n, seat, move, chance, barrier, work))
        if commit:
            try:
                self.write_journal()
            except Exception:
                self.backlog.pop()
                raise
        self.state = work
        self.transcript.append(Record(
            "chance" if chance else "move", seat, self.adapter.record_text(move.to_json(), self.lang),
            move.to_json(), {"events": [e.to_json() for e in events if e.audience is None]}))
        return events

    def after_moves(self, before: State, moves: list[Move], events: list[Event]) -> None:
        moves, events = list(moves), list(events)
        unsaved, told = len(self.backlog) - len(moves), len(self.transcript) - len(moves)
        end_due = self._end_due
        while (self.profile.chance == "draw" and self.state.is_chance()
               and self.state.outcome() is None):
            move = self.state.sample_chance()
            drawn = self.apply(None, move, commit=False)
            if drawn is None:  # the engine refused its own sample: leave it to the table
                break
            moves.append(move)
            events.extend(drawn)
        if self.state.outcome() is not None:
            self._end_due = True  # the game's end in the same commit
        try:
            self.write_journal()  # the move and its draws: one commit, before any frame
        except Exception:  # not the disk refusing (that keeps the backlog): as if never played
            del self.backlog[max(unsaved, 0):], self.transcript[max(told, 0):]
            self.state, self._end_due = before, end_due
            raise
        if moves:
            self.log = self.adapter.instructions(before, moves, events, self.state, self.lang)
            self.page, self._page_at = 0, time.monotonic()
            self.transcript.append(Record("said", None, " | ".join(self.log), extra={"lines": self.log}))
        for ui in self.seats:
            ui.cursor = None
            ui.notice = None
        self.chance_cursor = None
        self.shared_notice = None
        # the computer to move thinks once the acting seat's frame is out (handle)
        self.computer_moves.clear()
        self._computer_due = True

    # -- computer players ----------------------------------------------------------------
    def seat_computers(self, players: dict[int, Player]) -> None:
        """Make these seats computer players (before the game's first redraw)."""
        self.computers = dict(players)
        self.computer_moves.clear()
        self.computer_turn()

    def computer_turn(self) -> None:
        """The computer to move chooses now, from its seat's view; its move is
        added to what the shared screen tells the table to do."""
        seat = self.state.to_move()
        if seat is None or seat not in self.computers or seat in self.computer_moves:
            return
        move = self.computers[seat].choose(self.state, seat)
        self.computer_moves[seat] = move
        self.seats[seat].cursor = None
        secret = computer.is_secret(self.state, move)
        text = None if secret else self.adapter.move_text(move.to_json(), self.lang)
        self.computer_line = computer.said(self.player(seat), text, self.lang)
        self.log = [*self.log, self.computer_line]
        self.transcript.append(Record("said", None, self.log[-1], extra={"lines": self.log[-1:]}))

    def write_journal(self) -> bool:
        """Write the backlog (and the game's end, when due) in one transaction;
        False while the disk refuses it: then nothing was written, the moves
        stay in memory in order, and the shared screen says so."""
        if not self.backlog and not self._end_due:
            return True
        self._journal_tried = time.monotonic()
        try:
            self.journal.append_many(self.record, self.backlog, end=self._end_due)
        except JournalWriteError as exc:
            if self.journal_fault is None:
                print(f"tablekeeper: {exc}; the game goes on in memory, retrying", file=sys.stderr,
                      flush=True)
                self.transcript.append(Record("note", None, self.journal_line(exc.reason)))
            self.journal_fault = exc.reason
            return False
        if self.journal_fault is not None:
            print(f"tablekeeper: journal {self.journal.path} written again ({len(self.backlog)} moves kept "
                  "in memory meanwhile)", file=sys.stderr, flush=True)
        self.backlog.clear()
        self._end_due = False
        self.journal_fault = None
        return True

    def journal_line(self, reason: str) -> str:
        return t("journal-unsaved", self.lang, reason=t(JOURNAL_FAULTS.get(reason, "journal-io"), self.lang))

    def auto_chance(self) -> None:
        """Draw the chance steps due now, when the profile lets Tablekeeper."""
        if self.profile.chance == "draw" and self.state.is_chance():
            self.after_moves(self.state.copy(), [], [])

    # -- undo --------------------------------------------------------------------------
    def on_undo(self) -> None:
        # Undo works through the journal: it waits until every move is on disk.
        if not self.write_journal():
            self.undo_pending = False
            self.shared_notice = Layout(title=t("undo-unsaved", self.lang), alert=True)
            return
        if self.undo_pending:
            self.undo_pending = False
            self.undo()
            return
        entries = self.journal.entries(self.record)
        if not entries:
            self.shared_notice = Layout(title=t("undo-none", self.lang))
        elif entries[-1].barrier:
            what = t("undo-barrier-chance" if entries[-1].chance else "undo-barrier-secret", self.lang)
            self.shared_notice = Layout(title=t("undo-barrier", self.lang, what=what), alert=True)
            self.transcript.append(Record("refused", None, self.shared_notice.title))
        else:
            self.undo_pending = True
            self.pending_text = self.adapter.move_text(entries[-1].move, self.lang)


    def undo(self) -> None:
        reopen = self.record.ended or self.state.outcome() is not None
        try:
            entry = self.journal.drop_last(self.record, reopen=reopen)
        except JournalWriteError as exc:  # nothing was undone, in the journal or here
            words = t(JOURNAL_FAULTS.get(exc.reason, "journal-io"), self.lang)
            self.shared_notice = Layout(title=t("undo-failed", self.lang, reason=words), alert=True)
            return
        if entry is None:
            return
        self.state, self.adapter, _ = rebuild(self.journal, self.record, self.lang,
                                              draws=self.profile.chance == "draw")
        self.implied = len(self.state.history) - self.journal.move_count(self.record.id)
        text = t("undo-done", self.lang, move=self.adapter.move_text(entry.move, self.lang))
        for ui in self.seats:
            ui.cursor = None
            ui.notice = None
        self.shared_notice = None
        self.log = [text]
        self.transcript.append(Record("undo", entry.seat, text, entry.move))
        self.computer_moves.clear()
        self._computer_due = True

    # -- output ------------------------------------------------------------------------
    def seat_layout(self, seat: int) -> Layout:
        ui = self.seats[seat]
        lang = self.lang
        if seat in self.computers and self.state.outcome() is None:
            return computer.seat_layout(seat, self.player(seat), self.state.to_move(), lang)
        if ui.notice is not None:
            return ui.notice
        outcome = self.state.outcome()
        if outcome is not None:
            big, lines = self.adapter.outcome_lines(outcome, lang)
            return Layout(title=t("game-over", lang), big=big, lines=tuple(lines))
        to_move = self.state.to_move()
        if to_move == seat:
            cursor = self.cursor_for(seat)
            menu = self.menu_layout(cursor, self.adapter.step_title(self.state, lang))
            return replace(menu, image=self.adapter.picture(self.state, seat, cursor))
        big, lines = self.adapter.private_lines(self.state, seat, lang)
        waiting = (self.adapter.chance_title(self.state, lang) if to_move == CHANCE
                   else t("waiting-for", lang, seat=self.player(to_move)))
        return Layout(title=waiting, big=big, lines=tuple(lines),
                      image=self.adapter.picture(self.state, seat, None))

    def menu_layout(self, cursor: Cursor, title: str) -> Layout:
        lang = self.lang
        opt = cursor.current()
        pos, count = cursor.position()
        if opt.kind == CONFIRM:
            big = self.adapter.move_text(opt.moves[0].to_json(), lang)
            sub = f"● {t('confirm', lang)}"
        elif opt.kind == BACK:
            big, sub = f"← {t('back', lang)}", ""
        else:
            big = self.adapter.value_label(opt.field, opt.value, lang)
            sub = self.adapter.field_label(opt.field, lang)
        lines = (f"{sub}  {pos}/{count}".strip(),)
        if sub and len(wrap(lines[0], font(SMALL))) > 1:
            # A long label (a hand of cards) and the counter each on a line of its own.
            lines = (sub, f"{pos}/{count}")
        return Layout(title=title, big=big, lines=lines, footer=ARROWS)

    def shared_layout(self) -> Layout:
        lang = self.lang
        if self.undo_pending:
            return Layout(title=t("undo-ask", lang), big=self.pending_text,
                          lines=(t("undo-confirm", lang),), alert=True)
        faults = tuple(t("reader-fault", lang, reader=r) for r in self.faults)
        if self.journal_fault is not None:
            faults = (self.journal_line(self.journal_fault), *faults)
        outcome = self.state.outcome()
        if outcome is not None:
            big, lines = self.adapter.outcome_lines(outcome, lang)
            return Layout(title=t("game-over", lang), big=big, lines=faults + tuple(lines))
        chance = self.state.is_chance() and self.profile.chance == "table"
        if chance and self.adapter.chance_seat(self.state) is None:
            cursor = self.chance_cursor or Cursor.over(self.state.legal_moves())
            return self.menu_layout(cursor, self.adapter.chance_title(self.state, lang))
        head = self.shared_notice
        to_move = self.state.to_move()
        title = (head.title if head else self.adapter.chance_title(self.state, lang) if chance
                 else t("turn-of", lang, seat=self.player(to_move)))
        if self.paging() and not head:
            page = self.page % len(self.log)
            return Layout(title=f"{title} · {page + 1}/{len(self.log)}", big=self.log[page],
                          lines=faults + tuple(self.adapter.public_lines(self.state, lang)))
        big = self.log[-1] if self.log else ""
        earlier = self.log[:-1][-2:]
        return Layout(title=title, big=big, alert=bool(head and head.alert),
                      lines=faults + tuple(self.adapter.public_lines(self.state, lang)) + tuple(earlier))

    def layouts(self) -> dict[str, Layout]:
        out = {self.profile.seats[s.index].screen.name: self.seat_layout(s.index) for s in self.seats}
        out[self.profile.shared_screen.name] = self.shared_layout()
        return out

    def layout_of(self, name: str) -> Layout:
        """What screen ``name`` says now: its entry of :meth:`layouts`."""
        for ui in self.seats:
            if self.profile.seats[ui.index].screen.name == name:
                return self.seat_layout(ui.index)
        return self.shared_layout()

    def redraw(self) -> None:
        changed = {}
        names = [self.profile.seats[s.index].screen.name for s in self.seats]
        names.append(self.profile.shared_screen.name)
        # each screen's layout is worked out just before it is sent: the acting
        # seat's frame does not wait for the others' layouts
        for name in self.send_order(names):
            layout = self.layout_of(name)
            if self.screen_page and pages(layout) > 1:
                layout = replace(layout, page=self.screen_page)
            if self._layouts.get(name) == layout:
                continue
            self._layouts[name] = layout
            changed[name] = layout
            screen = self.table.screens.get(name)
            if screen is None:
                continue
            try:
                screen.show(render(layout), text=layout.text())
            except ScreenError as exc:  # a screen that stops answering is reported, not fatal
                self._layouts.pop(name, None)  # so it is sent again once it answers
                if name not in self.faults:
                    log.warning("%s", exc)  # the shared screen itself can say it nowhere else
                    self.faults[name] = str(exc)
                    self._layouts.pop(self.profile.shared_screen.name, None)
                continue
            if self.faults.pop(name, None) is not None:
                self._layouts.pop(self.profile.shared_screen.name, None)
        if changed and self.observer is not None:
            self.observer(changed)

    def set_lights(self) -> None:
        to_move = self.state.to_move()
        outcome = self.state.outcome()
        for ui in self.seats:
            light = self.table.lights.get(self.profile.seats[ui.index].light.name)
            if light is None or ui.index in self.flash_until:
                continue
            lit = ui.index in outcome.winners if outcome is not None else ui.index == to_move
            if lit:
                light.on()
            else:
                light.off()

    def alive(self) -> bool:
        """For the watchdog: the loop turned recently and the threads run."""
        fresh = time.monotonic() - self.heartbeat < 5.0
        return fresh and self.table.alive()


def _chosen(moves: tuple[Move, ...], root: tuple[Move, ...]) -> dict[str, Any]:
    """The fields a menu's earlier picks fixed: one value in ``moves``, more in ``root``."""
    here = [flatten(m.to_json()) for m in moves]
    every = [flatten(m.to_json()) for m in root]
    out = {}
    for key, value in here[0].items() if here else ():
        if all(h.get(key) == value for h in here) and any(e.get(key) != value for e in every):
            out[key] = value
    return out


def rebuild(journal: Journal, record: GameRecord, lang: str, *,
            draws: bool) -> tuple[State, TableAdapter, list[str]]:
    """A game rebuilt from its journal (resume, undo) with what its adapter
    remembers (each seat's newest card, the assassin last revealed) and the
    table's last instructions: the journal's replay hands each move to a
    fresh adapter in the batches the table saw them, a move with the chance
    steps Tablekeeper drew after it when this table ``draws`` them."""
    adapter = adapters.for_game(record.game, record.players, lang, record.names)
    said: list[str] = []
    batch: list[tuple[State, Move, list[Event]]] = []

    def tell(after: State) -> None:
        nonlocal said
        said = adapter.instructions(batch[0][0], [m for _, m, _ in batch],
                                    [e for *_, events in batch for e in events], after, lang)
        batch.clear()

    def step(_: Entry, before: State, move: Move, events: list[Event]) -> None:
        if batch and not (draws and before.is_chance()):
            tell(before)
        batch.append((before, move, events))

    state = journal.replay(record, each=step)
    if batch:
        tell(state)
    return state, adapter, said
