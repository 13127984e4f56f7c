"""The journal as the web process sees it: opened read-only, watched for news.

SQLite's ``PRAGMA data_version`` tells, cheaply, whether the table wrote
anything since the last look; a journal replaced on disk (moved aside, a new
one started) is reopened. A journal that cannot be read (damaged, locked by
a write, not there yet) leaves the last stories as they were and sets
``problem``: the page says so and keeps serving what it read before.

Memory and start-up are bounded by one game, not by the journal: only the
games not yet ended are followed move by move; a finished game is replayed
when a page shows it (its whole story kept for the last few asked), and the
game lists read a summary of each game they show (its name and result,
replayed once and kept: a few hundred bytes a game).
"""

from __future__ import annotations

import os
import threading
import time
from collections import OrderedDict
from pathlib import Path

import rules
from pi_app import games
from pi_app.store.journal import Entry, GameRecord, Journal, JournalError
from pi_app.web.story import Reader, Story
from rules.core import Event, Move, State

NIGHT_GAP = 6 * 3600  # a game started this long after the one before begins another night
KEPT = 12  # finished games whose whole story is kept (a night's report reads each of its games)


class Source:
    def __init__(self, path: Path, lang: str = "en") -> None:
        self.path = Path(path)
        self.lang = lang
        self.lock = threading.RLock()  # held while reading the journal and while a page is drawn
        self.changed = threading.Condition(self.lock)
        self.version = 0  # counts the changes seen
        self.problem: str | None = None  # the journal's fault now, in words
        self.missing = False  # no journal file yet
        self.records: list[GameRecord] = []
        self.faults: dict[int, str] = {}  # game id -> why it cannot be replayed
        self._readers: dict[int, Reader] = {}  # the games not ended: followed move by move
        self._kept: OrderedDict[int, Story] = OrderedDict()  # finished games' stories, the latest asked last
        self._summaries: dict[int, Story] = {}  # finished games' name and result, without their moves
        self._by_id: dict[int, GameRecord] = {}
        self._journal: _Journal | None = None
        self._ident: tuple[int, int] | None = None
        self._seen: object = None  # the journal's data version (or size and time) last read

    # -- reading ------------------------------------------------------------
    def refresh(self) -> bool:
        """Read what the journal added; True when anything changed."""
        with self.lock:
            before = (self.problem, self.missing)
            try:
                news = self._read()
            except JournalError as exc:
                self.problem = _fault_words(exc.fault)
                self._close()
                news = False
            else:
                self.problem = None
            if news or (self.problem, self.missing) != before:
                self.version += 1
                self.changed.notify_all()
                return True
            return False

    def _read(self) -> bool:
        try:
            st = self.path.stat()
        except FileNotFoundError:
            self._close()
            if not self.missing:
                self.missing = True
                return True
            return False
        self.missing = False
        ident = (st.st_dev, st.st_ino)
        if self._journal is None or ident != self._ident or self._journal.readonly_copy:
            self._close()
            self._journal = self._open()  # raises before what was read before is dropped
            if ident != self._ident:  # another file: read it all
                self._readers = {}
                self._kept.clear()
                self._summaries.clear()
                self.faults.clear()
            if ident != self._ident or not self._journal.readonly_copy:
                self._seen = None  # a new connection counts its versions afresh
            self._ident = ident
        journal = self._journal
        # opened immutable, there is no shared memory to ask: the file's size and time tell
        seen = (st.st_size, st.st_mtime_ns) if journal.readonly_copy else journal.data_version()
        if seen == self._seen:
            return False
        records = journal.games()
        by_id = {r.id: r for r in records}
        for cache in (self._kept, self._summaries):  # a game changed since (reopened by an undo)
            for game_id in [i for i, story in cache.items() if by_id.get(i) != story.record]:
                del cache[game_id]
        for game_id, reader in list(self._readers.items()):
            record = by_id.get(game_id)
            if record is None or record.ended:  # ended: read to its end once more, then kept as told
                del self._readers[game_id]
                if record is not None and self._follow(journal, reader):
                    self._keep(reader.story)
        for record in records:
            if not record.ended and record.id not in self._readers:
                reader = Reader(record, self.lang)
                self._follow(journal, reader)
                self._readers[record.id] = reader
            elif not record.ended:
                self._follow(journal, self._readers[record.id])
        self.records = records
        self._by_id = by_id
        self._seen = seen
        return True

    def _follow(self, journal: Journal, reader: Reader) -> bool:
        """Bring ``reader`` up to date; False (its fault noted) when the game cannot be replayed."""
        try:
            reader.refresh(journal)
        except JournalError as exc:
            if _busy(exc.fault):
                raise
            self.faults[reader.record.id] = exc.fault
            return False
        self.faults.pop(reader.record.id, None)
        return True

    def _keep(self, story: Story) -> None:
        self._kept[story.record.id] = story
        self._kept.move_to_end(story.record.id)
        while len(self._kept) > KEPT:
            self._kept.popitem(last=False)

    def _open(self) -> _Journal:
        """The journal, read-only. A WAL journal the table closed cleanly has
        no ``-shm`` file, and a reader that may not write (the web unit)
        cannot make one: then it is read as a file no one writes (SQLite's
        ``immutable``), opened afresh at each look until the table opens it."""
        try:
            journal = _Journal(self.path, readonly=True)
        except JournalError:
            if Path(f"{self.path}-shm").exists() or os.access(self.path.parent, os.W_OK):
                raise
            journal = _Journal(self.path, immutable=True)
            journal.readonly_copy = True
        # a write in progress makes a reader wait: half a second, then try again later
        journal.db.execute("PRAGMA busy_timeout=500")
        return journal

    def _close(self) -> None:
        if self._journal is not None:
            self._journal.close()
        self._journal = None

    def close(self) -> None:
        with self.lock:
            self._close()

    # -- what the pages read (under ``lock``) ---------------------------------
    def story(self, game_id: int) -> Story | None:
        """The game's whole story: followed, kept, or replayed now (then kept)."""
        reader = self._readers.get(game_id)
        if reader is not None:
            return reader.story
        if game_id in self._kept:
            self._kept.move_to_end(game_id)
            return self._kept[game_id]
        record = self._record(game_id)
        if record is None:
            return None
        if self._journal is None:  # cannot be read now: what is known of it
            return self._summaries.get(game_id) or _bare(record, self.lang)
        reader = Reader(record, self.lang)
        try:
            self._follow(self._journal, reader)
        except JournalError:  # busy with a write: what is known of it now, the whole story next time
            return self._summaries.get(game_id) or _bare(record, self.lang)
        self._keep(reader.story)
        return reader.story

    def summary(self, record: GameRecord) -> Story:
        """The game for a list: its name, players and result (its moves may be left out)."""
        reader = self._readers.get(record.id)
        if reader is not None:
            return reader.story
        known = self._kept.get(record.id) or self._summaries.get(record.id)
        if known is not None:
            return known
        story = _bare(record, self.lang)
        if self._journal is not None:
            try:
                story.outcome = _outcome(self._journal, record, self.lang)
            except JournalError as exc:
                if _busy(exc.fault):
                    return story  # read again at the next page
                self.faults[record.id] = exc.fault
            self._summaries[record.id] = story
        return story

    def stories(self) -> list[Story]:
        """Every game's whole story (a demo's few games; the pages read :meth:`story`)."""
        return [s for s in (self.story(r.id) for r in self.records) if s is not None]

    def current(self) -> Story | None:
        """The game the table plays now: the newest unfinished one, else the newest."""
        playing = [r.story for r in sorted(self._readers.values(), key=lambda r: r.record.id)
                   if not r.story.finished]
        if playing:
            return playing[-1]
        return self.story(self.records[-1].id) if self.records else None

    def nights(self) -> list[list[GameRecord]]:
        """The games grouped by night, the latest night last."""
        out: list[list[GameRecord]] = []
        last: float | None = None
        for record in self.records:
            started = record.started or 0.0
            if not out or last is None or started - last > NIGHT_GAP:
                out.append([])
            out[-1].append(record)
            last = started
        return out

    def _record(self, game_id: int) -> GameRecord | None:
        return self._by_id.get(game_id)

    def journal(self) -> Journal | None:
        return self._journal

    # -- watching -----------------------------------------------------------
    def watch(self, stop: threading.Event, every: float = 0.1) -> None:
        """Look for news every ``every`` seconds until ``stop``; the pages'
        live updates wait on ``changed``."""
        while not stop.is_set():
            self.refresh()
            stop.wait(every)

    def wait(self, version: int, timeout: float) -> int:
        """The version once it differs from ``version``, or after ``timeout``."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while self.version == version:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self.changed.wait(left)
            return self.version


class _Journal(Journal):
    readonly_copy = False  # opened immutable: to be opened afresh at each look


def _bare(record: GameRecord, lang: str) -> Story:
    try:
        name = rules.get(record.game).name or record.game
    except ValueError:
        name = record.game
    return Story(record, lang, name=name)


def _outcome(journal: Journal, record: GameRecord, lang: str) -> tuple[str, list[str]] | None:
    """The table's words for the game's end, replayed without drawing its story.
    The adapter takes its notes (a King & Assassins end names the last assassin)."""
    try:
        adapter = games.for_game(record.game, record.players, lang, record.names)
    except (ValueError, KeyError) as exc:
        raise JournalError(f"game {record.id}: {exc}") from None

    def note(_: Entry, before: State, move: Move, events: list[Event]) -> None:
        adapter.take_notes(before, [move], events, before)

    state = journal.replay(record, each=note)
    outcome = state.outcome()
    return adapter.outcome_lines(outcome, lang) if outcome is not None else None


def _busy(fault: str) -> bool:
    return "locked" in fault or "busy" in fault


def _fault_words(fault: str) -> str:
    return "busy" if _busy(fault) else fault
