"""Commit: a move the table asked for is checked by the engine, journalled,
and told; an undo goes back through the journal; a refusal is said and counted.

Input (pi_app.session.input_map) decides *which* move or refusal an input means;
this module is the only one that changes the game in the scene or writes
the journal. It records what happened as a Notice (a kind, a seat, an
IllegalMove, a move) and hands it to ``tell`` (``Presentation.tell``, the one
place it becomes words), and blinks a refused seat's light; it words and
draws nothing.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from pi_app import games
from pi_app.games.base import TableAdapter
from pi_app.session import computer
from pi_app.session.scene import Notice, Scene
from pi_app.store.journal import Entry, GameRecord, Journal, JournalWriteError, Pending, is_barrier, pending
from pi_app.store.registry import Registry
from rules.core import CHANCE, Event, IllegalMove, Move, State


class Commit:
    def __init__(self, scene: Scene, journal: Journal, registry: Registry,
                 flash: Callable[[int], None], tell: Callable[[Notice], None]) -> None:
        self.scene = scene
        self.journal = journal
        self.registry = registry
        self.flash = flash  # blinks a refused seat's light (presentation)
        self.tell = tell  # puts what happened into words (presentation)
        #: moves accepted while the journal could not be written (disk full):
        #: kept in order, written all at once as soon as the disk takes them
        self.backlog: list[Pending] = []
        self.end_due = False  # the game ended; the journal does not say so yet
        self.journal_tried = 0.0

    # -- moves ---------------------------------------------------------------------
    def play(self, seat: int | None, move: Move) -> bool:
        """Apply a move and the chance steps Tablekeeper may draw after it,
        journal each, tell the table what to do. False (and nothing changed)
        when the engine refuses."""
        before = self.scene.state  # apply() works on a copy: this one stays as it is
        events = self.apply(seat, move, commit=False)
        if events is None:
            return False
        self.after_moves(before, [move], events)
        return True

    def apply(self, seat: int | None, move: Move, commit: bool = True) -> list[Event] | None:
        """Apply one move and journal it; with ``commit`` False it waits in the
        backlog for :meth:`after_moves`, which writes it with the chance steps
        drawn after it in one commit (one fsync a tap, before any frame)."""
        sc = self.scene
        chance = sc.state.to_move() == CHANCE
        n = len(sc.state.history) - sc.implied
        work = sc.state.copy()
        try:
            events = work.apply(move)
        except IllegalMove as exc:
            if seat is not None:
                self.refuse(seat, exc)
            return None
        # On disk first: a move the table is told about is never lost. A disk
        # that refuses it (full, failing) leaves it in the backlog, in memory,
        # and the game goes on; any other fault leaves the game as it was.
        barrier = is_barrier(chance, events) or sc.adapter.undo_barrier(move.to_json())
        self.backlog.append(pending(n, seat, move, chance, barrier, work))
        if commit:
            try:
                self.write_journal()
            except Exception:
                self.backlog.pop()
                raise
        sc.state = work
        if seat is not None and not chance:
            sc.seats[seat].memory.note(move.to_json())  # its menus start there next time
        self.tell(Notice("chance" if chance else "move", seat, move=move.to_json(),
                         params={"events": [e.to_json() for e in events if e.audience is None]}))
        return events

    def after_moves(self, before: State, moves: list[Move], events: list[Event]) -> None:
        """The chance steps this table draws itself, the game's end, all in
        one journal commit with ``moves``; then what the table is to do."""
        sc = self.scene
        moves, events = list(moves), list(events)
        unsaved, told = len(self.backlog) - len(moves), len(sc.transcript) - len(moves)
        end_due = self.end_due
        while (sc.profile.chance == "draw" and sc.state.is_chance()
               and sc.state.outcome() is None):
            move = sc.state.sample_chance()
            drawn = self.apply(None, move, commit=False)
            if drawn is None:  # the engine refused its own sample: leave it to the table
                break
            moves.append(move)
            events.extend(drawn)
        if sc.state.outcome() is not None:
            self.end_due = True  # the game's end in the same commit
        try:
            self.write_journal()  # the move and its draws: one commit, before any frame
        except Exception:  # not the disk refusing (that keeps the backlog): as if never played
            del self.backlog[max(unsaved, 0):], sc.transcript[max(told, 0):]
            sc.state, self.end_due = before, end_due
            raise
        if moves:
            # what a seat's screen reads now; the words once the acting seat's frame is out (Scene.say_later)
            adapter, after, lang = sc.adapter, sc.state, sc.lang
            adapter.take_notes(before, moves, events, after)
            sc.say_later(lambda: adapter.instructions(before, moves, events, after, lang))
            sc.page, sc.page_at = 0, time.monotonic()
        sc.clear_menus()
        sc.chance_cursor = None
        # the computer to move thinks once the acting seat's frame is out (Session.handle)
        sc.computer_moves.clear()
        sc.computer_due = True

    def auto_chance(self) -> None:
        """Draw the chance steps due now, when the profile lets Tablekeeper."""
        if self.scene.profile.chance == "draw" and self.scene.state.is_chance():
            self.after_moves(self.scene.state, [], [])  # apply() leaves it as it is

    def write_journal(self) -> bool:
        """Write the backlog (and the game's end, when due) in one transaction;
        False while the disk refuses it: then nothing was written, the moves
        stay in memory in order, and the shared screen says so."""
        sc = self.scene
        if not self.backlog and not self.end_due:
            return True
        self.journal_tried = time.monotonic()
        try:
            self.journal.append_many(sc.record, self.backlog, end=self.end_due)
        except JournalWriteError as exc:
            if sc.journal_fault is None:
                print(f"tablekeeper: {exc}; the game goes on in memory, retrying", file=sys.stderr,
                      flush=True)
                self.tell(Notice("journal-unsaved", params={"reason": exc.reason}))
            sc.journal_fault = exc.reason
            return False
        if sc.journal_fault is not None:
            print(f"tablekeeper: journal {self.journal.path} written again ({len(self.backlog)} moves kept "
                  "in memory meanwhile)", file=sys.stderr, flush=True)
        self.backlog.clear()
        self.end_due = False
        sc.journal_fault = None
        return True

    # -- undo ----------------------------------------------------------------------
    def on_undo(self) -> None:
        """The undo button: the first press asks, the second undoes."""
        sc = self.scene
        # Undo works through the journal: it waits until every move is on disk.
        if not self.write_journal():
            sc.undo_pending = False
            self.tell(Notice("undo-unsaved"))
            return
        if sc.undo_pending:
            sc.undo_pending = False
            self.undo()
            return
        entries = self.journal.entries(sc.record)
        if not entries:
            self.tell(Notice("undo-none"))
        elif entries[-1].barrier:
            self.tell(Notice("undo-barrier", params={"chance": entries[-1].chance}))
        else:
            sc.undo_pending = True
            self.tell(Notice("undo-ask", move=entries[-1].move))

    def undo(self) -> None:
        sc = self.scene
        reopen = sc.record.ended or sc.state.outcome() is not None
        try:
            entry = self.journal.drop_last(sc.record, reopen=reopen)
        except JournalWriteError as exc:  # nothing was undone, in the journal or here
            self.tell(Notice("undo-failed", params={"reason": exc.reason}))
            return
        if entry is None:
            return
        sc.state, sc.adapter, _ = rebuild(self.journal, sc.record, sc.lang,
                                          draws=sc.profile.chance == "draw")
        sc.implied = len(sc.state.history) - self.journal.move_count(sc.record.id)
        sc.recall(self.journal.entries(sc.record))
        sc.clear_menus()
        self.tell(Notice("undo-done", entry.seat, move=entry.move))
        sc.computer_moves.clear()
        sc.computer_due = True

    # -- refusals ------------------------------------------------------------------
    def refuse(self, seat: int, exc: IllegalMove) -> None:
        """Told on the seat's screen, its light blinks, and it is counted in
        the journal for the night's report; the game does not change."""
        if seat in self.scene.computers:
            # Its light flashes; no words, which could name one of its face-down cards.
            exc = computer.NOT_THIS
        self.tell(Notice("refused", seat, error=exc))
        self.flash(seat)
        self.journal.refused(self.scene.record, seat, exc.code, exc.rule)  # the night's report counts them

    def unknown_tag(self, seat: int, uid: str) -> None:
        tag = self.registry.lookup(uid)  # enrolled, but for another game or more seats
        self.tell(Notice("unknown-tag", seat, tag=tag, params={"uid": uid}))
        self.flash(seat)


def rebuild(journal: Journal, record: GameRecord, lang: str, *,
            draws: bool) -> tuple[State, TableAdapter, list[str]]:
    """A game rebuilt from its journal (resume, undo) with what its adapter
    remembers (each seat's newest card, the assassin last revealed) and the
    table's last instructions: the journal's replay hands each move to a
    fresh adapter in the batches the table saw them, a move with the chance
    steps Tablekeeper drew after it when this table ``draws`` them."""
    adapter = games.for_game(record.game, record.players, lang, record.names)
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
