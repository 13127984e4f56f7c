"""The journal as the web process sees it: opened read-only, watched for news.

SQLite's ``PRAGMA data_version`` tells, cheaply, whether the table wrote
anything since the last look; a journal replaced on disk (moved aside, a new
one started) is reopened. A journal that cannot be read (damaged, locked by
a write, not there yet) leaves the last stories as they were and sets
``problem``: the page says so and keeps serving what it read before.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

from pi_app.store.journal import GameRecord, Journal, JournalError
from pi_app.web.story import Reader, Story

NIGHT_GAP = 6 * 3600  # a game started this long after the one before begins another night


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
        self._readers: dict[int, Reader] = {}
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
            if ident != self._ident or not self._journal.readonly_copy:
                self._seen = None  # a new connection counts its versions afresh
            self._ident = ident
        journal = self._journal
        # opened immutable, there is no shared memory to ask: the file's size and time tell
        seen = (st.st_size, st.st_mtime_ns) if journal.readonly_copy else journal.data_version()
        if seen == self._seen:
            return False
        records = journal.games()
        for record in records:
            reader = self._readers.get(record.id)
            if reader is None:
                reader = self._readers[record.id] = Reader(record, self.lang)
            elif reader.record == record and record.ended and self.faults.get(record.id) is None \
                    and journal.move_count(record.id) == len(reader.story.steps):
                continue  # an ended game the journal did not touch
            try:
                reader.refresh(journal)
                self.faults.pop(record.id, None)
            except JournalError as exc:
                if _busy(exc.fault):
                    raise
                self.faults[record.id] = exc.fault
        self.records = records
        self._seen = seen
        return True

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
        reader = self._readers.get(game_id)
        return reader.story if reader is not None else None

    def stories(self) -> list[Story]:
        return [r.story for r in sorted(self._readers.values(), key=lambda r: r.record.id)]

    def current(self) -> Story | None:
        """The game the table plays now: the newest unfinished one, else the newest."""
        stories = self.stories()
        playing = [s for s in stories if not s.finished]
        return (playing or stories or [None])[-1]

    def nights(self) -> list[list[Story]]:
        """The games grouped by night, the latest night last."""
        out: list[list[Story]] = []
        last: float | None = None
        for story in self.stories():
            started = story.record.started or 0.0
            if not out or last is None or started - last > NIGHT_GAP:
                out.append([])
            out[-1].append(story)
            last = started
        return out

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


def _busy(fault: str) -> bool:
    return "locked" in fault or "busy" in fault


def _fault_words(fault: str) -> str:
    return "busy" if _busy(fault) else fault
