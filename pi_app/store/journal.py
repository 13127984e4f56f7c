"""The journal: every accepted move and chance outcome, in SQLite.

WAL mode with ``synchronous=FULL``: a move is on disk before the screens say
it was accepted, so a power cut loses nothing the table was told. On start
the unfinished game is rebuilt by replaying its moves from its seed; a
journal that cannot be read or replayed is refused, naming the file and what
is wrong, and is never modified.

Undo removes the last move, unless it is a *barrier*, as the rules say
(``State.secrecy``): a chance outcome, a move whose events revealed a secret
(an event with an audience), or one whose undoing would tell a secret.

A write that fails because the disk is full, the storage answers with an I/O
error or the file system went read-only raises :class:`JournalWriteError`,
after its transaction rolled back: the database holds exactly what it held
before, so the caller may keep the moves and write them again later.
``Journal(path, readonly=True)`` reads a journal without ever writing to it
(``tablekeeper journal check`` and ``export``).

Opening checks the file's structure, but not every move: SQLite's check
reads every page, and a decade of game nights (hundreds of megabytes on an
SD card) would make every start take seconds. The moves table is checked
as it is read (a damaged page met is refused like a damaged file), so a
start reads the games and the one game it resumes; ``whole=True`` (what
``tablekeeper journal check`` opens with) checks every page.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
import sqlite3
import stat
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import rules
from pi_app.errors import JournalError, JournalWriteError
from pi_app.names import MAX_NAME
from rules.core import JSON, Event, Move, State

SCHEMA_VERSION = 3
#: below this much free space a journal is refused at start: a game's moves take far less
MIN_FREE_BYTES = 1 << 20
_SCHEMA = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    players INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    options TEXT NOT NULL,
    started REAL NOT NULL,
    ended REAL,
    names TEXT
);
CREATE TABLE moves (
    game_id INTEGER NOT NULL REFERENCES games(id),
    n INTEGER NOT NULL,
    seat INTEGER,
    move TEXT NOT NULL,
    chance INTEGER NOT NULL,
    barrier INTEGER NOT NULL,
    at REAL NOT NULL,
    snapshot TEXT,
    PRIMARY KEY (game_id, n)
);
"""
# The refusals the table said, for the night's report: added beside the
# schema (older journals lack it, older readers ignore it), written without
# waiting for the disk (a refusal lost in a power cut is no lost move).
_REFUSALS = """CREATE TABLE IF NOT EXISTS refusals (
    game_id INTEGER NOT NULL REFERENCES games(id),
    at REAL NOT NULL,
    seat INTEGER,
    code TEXT NOT NULL,
    rule TEXT NOT NULL
)"""
_COLUMNS = {
    "games": ["id", "game", "players", "seed", "options", "started", "ended", "names"],
    "moves": ["game_id", "n", "seat", "move", "chance", "barrier", "at", "snapshot"],
}
# Each older version this Tablekeeper still reads: its tables' columns, and
# the step that brings it to the next version (run when it is opened to be
# written; a read-only reader reads it as it is).
_OLDER: dict[int, tuple[dict[str, list[str]], str]] = {
    # 3: the players' names given at the lobby (a JSON list by seat; NULL: none given)
    2: ({**_COLUMNS, "games": _COLUMNS["games"][:-1]}, "ALTER TABLE games ADD COLUMN names TEXT"),
}


# SQLite's primary result codes for storage that refuses a write.
_SQLITE_WRITE_FAULTS = {13: "disk full", 10: "I/O error", 8: "read-only"}
_OS_WRITE_FAULTS = {errno.ENOSPC: "disk full", errno.EDQUOT: "disk full", errno.EIO: "I/O error",
                    errno.EROFS: "read-only"}


def write_fault(exc: BaseException) -> str | None:
    """``disk full``, ``I/O error`` or ``read-only`` when ``exc`` is the
    storage refusing a write (worth retrying once it has room), else None."""
    if isinstance(exc, sqlite3.Error):
        code = getattr(exc, "sqlite_errorcode", None)
        if code is not None and code & 0xFF in _SQLITE_WRITE_FAULTS:
            return _SQLITE_WRITE_FAULTS[code & 0xFF]
        text = str(exc).lower()
        if "disk is full" in text:
            return "disk full"
        if "disk i/o error" in text:
            return "I/O error"
        return None
    if isinstance(exc, OSError):
        return _OS_WRITE_FAULTS.get(exc.errno or 0)
    return None


@dataclass(frozen=True)
class Entry:
    n: int
    seat: int | None
    move: JSON
    chance: bool
    barrier: bool


@dataclass(frozen=True)
class Pending:
    """A move to be written: what :meth:`Journal.append` takes, kept in
    memory by the session while the disk refuses it."""

    n: int
    seat: int | None
    move: JSON
    chance: bool
    barrier: bool
    snapshot: str | None  # the state after the move, as JSON text


#: what Journal.replay shows of each move: its entry, the state before it, the move, its events
Step = Callable[[Entry, State, Move, list[Event]], None]


@dataclass(frozen=True)
class GameRecord:
    id: int
    game: str
    players: int
    seed: int
    options: dict[str, Any]
    ended: bool
    started: float | None = None  # seconds since the epoch
    #: the players' names given at the lobby, by seat ("" for a default name); () for none
    names: tuple[str, ...] = ()


def check_names(names: Any, players: int) -> tuple[str, ...]:
    """Players' names as the journal keeps them: one text per seat at most,
    spaces tidied, none longer than a screen shows (players.MAX_NAME);
    ValueError otherwise."""
    if not isinstance(names, (list, tuple)) or not all(isinstance(n, str) for n in names):
        raise ValueError("player names must be a list of texts")
    if len(names) > players:
        raise ValueError(f"{len(names)} player names for {players} players")
    kept = tuple(" ".join(n.split()) for n in names)
    if any(len(n) > MAX_NAME for n in kept):
        raise ValueError(f"a player name is longer than {MAX_NAME} letters")
    return kept if any(kept) else ()


def is_barrier(before: State, move: Move, events: Sequence[Event]) -> bool:
    """Undo may not go back across ``move`` (played on ``before``, giving
    ``events``): the rules' answer, ``State.secrecy`` (chance, a revealed
    secret, a move whose undoing would tell one)."""
    return not before.secrecy(move, events).undoable


class Journal:
    def __init__(self, path: str | Path, *, readonly: bool = False, immutable: bool = False,
                 whole: bool = False) -> None:
        self.path = Path(path)
        self.whole = whole
        self.readonly = readonly or immutable
        if self.readonly:
            self._open_readonly(immutable)
            return
        fresh = not self.path.exists() or self.path.stat().st_size == 0
        with self._opening(
                lambda exc: JournalError(f"journal {self.path} is not usable: {exc}; move the file aside "
                                         "to start a new journal"),
                lambda exc: JournalError(f"journal {self.path} cannot be opened: {exc.strerror} "
                                         f"({exc.filename}); give --state-dir a directory Tablekeeper "
                                         "may write in")):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            if not fresh:  # checked before anything is written: a refused file is left as it was
                self._upgrade(self._validate())
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            if fresh:
                with self._tx():
                    for statement in _SCHEMA.split(";"):
                        if statement.strip():
                            self.db.execute(statement)
                    self.db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
                self._validate()
            with contextlib.suppress(sqlite3.Error):  # a full disk: refusals go unkept, moves are not harmed
                self.db.execute(_REFUSALS)

    def _open_readonly(self, immutable: bool = False) -> None:
        """Open without writing anything to the file (SQLite's ``mode=ro``):
        no schema, no pragma that changes it, no checkpoint on close.
        ``immutable``: nor any lock or shared-memory file, for a reader that
        may create none (a read-only directory) while no one writes: a WAL
        journal closed cleanly has no ``-shm`` to share."""
        if not self.path.is_file():
            raise JournalError(f"journal {self.path} does not exist; give the journal's path or "
                               "--state-dir DIR (the directory `tablekeeper run` was given)")
        if self.path.stat().st_size == 0:
            raise self._fail("the file is empty")
        with self._opening(lambda exc: self._fail(f"it is not a readable SQLite database ({exc})"),
                           lambda exc: JournalError(f"journal {self.path} cannot be read: {exc.strerror}")):
            flags = "?mode=ro&immutable=1" if immutable else "?mode=ro"
            self.db = sqlite3.connect(f"{self.path.resolve().as_uri()}{flags}", uri=True,
                                      isolation_level=None, check_same_thread=False)
            self._validate()

    @contextlib.contextmanager
    def _opening(self, unusable: Callable[[sqlite3.DatabaseError], JournalError],
                 unopenable: Callable[[OSError], JournalError]) -> Iterator[None]:
        """Opening refused as a JournalError (the connection closed, if made):
        ``unusable`` words a file SQLite cannot use, ``unopenable`` one the
        system will not open."""
        try:
            yield
        except (JournalError, sqlite3.DatabaseError) as exc:
            with contextlib.suppress(AttributeError):  # no connection was made
                self.db.close()
            if isinstance(exc, JournalError):
                raise
            if not self.readonly and write_fault(exc) is not None:  # the storage, not the file: say so
                raise JournalWriteError(self.path, str(write_fault(exc)), str(exc)) from None
            raise unusable(exc) from None
        except OSError as exc:
            raise unopenable(exc) from None

    def _tx(self, keep: bool = True) -> Any:
        return _Transaction(self.db, keep)

    def _fail(self, what: str) -> JournalError:
        return JournalError(f"journal {self.path} is refused: {what}; move the file aside to start a new "
                            "journal (the old one is kept unchanged)", what)

    @contextlib.contextmanager
    def _reading(self) -> Any:
        """Reads that meet a damaged page (quick_check does not read every
        row) are refused like any damaged journal, not raised as they come."""
        try:
            yield
        except sqlite3.DatabaseError as exc:
            raise self._fail(f"the database is damaged ({exc})") from None

    @contextlib.contextmanager
    def _writing(self, keep: bool = True) -> Any:
        """A write transaction whose storage faults (disk full, I/O error,
        read-only) become JournalWriteError naming the journal; ``keep``
        False rolls it back once the storage has taken it."""
        try:
            with self._tx(keep):
                yield
        except (sqlite3.Error, OSError) as exc:
            reason = write_fault(exc)
            if reason is None:
                raise
            raise JournalWriteError(self.path, reason, str(exc)) from exc

    def _validate(self) -> int:
        """The schema version of a journal fit to use; refused otherwise."""
        if self.whole:
            checks = ["PRAGMA quick_check"]
        else:
            # every table but the moves, whose pages are checked as they are read (see above)
            named = [r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            checks = [f'PRAGMA quick_check("{t}")' for t in named if t != "moves" and '"' not in t] \
                or ["PRAGMA quick_check"]
        for statement in checks:
            check = self.db.execute(statement).fetchone()[0]
            if check != "ok":
                raise self._fail(f"the database is damaged ({check})")
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        tables = [r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        if version == 0 and "games" not in tables:
            raise self._fail(f"it is not a Tablekeeper journal but another SQLite database "
                             f"(tables: {', '.join(tables) or 'none'})")
        if version != SCHEMA_VERSION and version not in _OLDER:
            readable = ", ".join(map(str, sorted([*_OLDER, SCHEMA_VERSION])))
            raise self._fail(f"schema version {version}, this Tablekeeper reads versions {readable}")
        columns = _COLUMNS if version == SCHEMA_VERSION else _OLDER[version][0]
        for table, cols in columns.items():
            have = [r[1] for r in self.db.execute(f"PRAGMA table_info({table})")]
            if have != cols:
                raise self._fail(f"table {table!r} has columns {have}, expected {cols} (schema version "
                                 f"{version})")
        self.version = version
        return version

    def _upgrade(self, version: int) -> None:
        """Bring an older journal to today's schema, one step at a time, each
        in its own transaction with its version: a cut between steps leaves a
        journal of the version before the step, which the next start goes on from."""
        while version != SCHEMA_VERSION:
            with self._writing():
                self.db.execute(_OLDER[version][1])
                version += 1
                self.db.execute(f"PRAGMA user_version={version}")
        self._validate()

    def check_writable(self) -> None:
        """Refuse, at start, a journal the table could not write a move to:
        the file, the reason and the fix, rather than a first move refused."""
        for where in (self.path, self.path.parent):
            if not os.access(where, os.W_OK):
                st = where.stat()
                raise JournalError(
                    f"journal {self.path} cannot be written: {where} is read-only for this user (uid "
                    f"{os.geteuid()}; it belongs to uid {st.st_uid}, mode {stat.filemode(st.st_mode)}); "
                    f"give it to the user the table runs as (sudo chown -R tablekeeper: {self.path.parent}) "
                    "or give --state-dir a directory it may write in", "read-only")
        free = shutil.disk_usage(self.path.parent).free
        if free < MIN_FREE_BYTES:
            raise JournalError(
                f"journal {self.path} cannot be written: disk full ({free // 1024} KiB free, "
                f"{MIN_FREE_BYTES // 1024} KiB needed); free space on the disk (old logs: sudo journalctl "
                "--vacuum-size=20M) or give --state-dir a directory on another one", "disk full")
        try:
            # A write the storage must take, rolled back: a journal refused later (a damaged
            # game found as it is replayed) is then left exactly as it was.
            with self._writing(keep=False):
                version = self.db.execute("PRAGMA user_version").fetchone()[0]
                self.db.execute(f"PRAGMA user_version={int(version)}")
        except JournalWriteError as exc:
            raise JournalError(f"{exc} (found at start)", exc.reason) from None

    def close(self) -> None:
        self.db.close()

    # -- games -------------------------------------------------------------
    def start(self, game: str, players: int, seed: int, options: dict[str, Any],
              names: Sequence[str] = ()) -> GameRecord:
        """A new game; ``names``: the players' names given at the lobby, by
        seat ("" for a seat left to its default name)."""
        started = time.time()
        kept = check_names(names, players)
        with self._writing():
            cur = self.db.execute(
                "INSERT INTO games (game, players, seed, options, started, names) VALUES (?, ?, ?, ?, ?, ?)",
                (game, players, seed, json.dumps(options, sort_keys=True), started,
                 json.dumps(list(kept)) if any(kept) else None))
        return GameRecord(int(cur.lastrowid or 0), game, players, seed, dict(options), False, started, kept)

    def name_players(self, record: GameRecord, names: Sequence[str]) -> GameRecord:
        """Give ``record``'s players the names chosen at the lobby (kept for
        a resume); the record as it now reads."""
        kept = check_names(names, record.players)
        with self._writing():
            self.db.execute("UPDATE games SET names = ? WHERE id = ?",
                            (json.dumps(list(kept)) if any(kept) else None, record.id))
        return replace(record, names=kept)

    def current(self) -> GameRecord | None:
        """The latest game not yet ended, to resume."""
        with self._reading():
            row = self.db.execute(
                f"SELECT {self._game_columns} FROM games WHERE ended IS NULL "
                "ORDER BY id DESC LIMIT 1").fetchone()
        return self._record(row) if row else None

    def games(self) -> list[GameRecord]:
        with self._reading():
            rows = self.db.execute(f"SELECT {self._game_columns} FROM games ORDER BY id").fetchall()
        return [self._record(r) for r in rows]

    def recent_names(self, games: int = 30) -> list[str]:
        """The names given at this table's last ``games`` games, the latest
        first, each once (the lobby offers them to step through)."""
        if self.version < 3:
            return []
        with self._reading():
            rows = self.db.execute("SELECT names FROM games WHERE names IS NOT NULL "
                                   "ORDER BY id DESC LIMIT ?", (games,)).fetchall()
        seen: dict[str, str] = {}
        for (text,) in rows:
            try:
                names = json.loads(text)
            except ValueError:
                continue  # refused with the file where the game itself is read
            for name in names if isinstance(names, list) else ():
                if isinstance(name, str) and name.strip():
                    seen.setdefault(name.strip().lower(), " ".join(name.split()))
        return list(seen.values())

    def game_ids(self) -> list[int]:
        with self._reading():
            return [r[0] for r in self.db.execute("SELECT id FROM games ORDER BY id")]

    def move_count(self, game_id: int) -> int:
        with self._reading():
            row = self.db.execute("SELECT COUNT(*) FROM moves WHERE game_id = ?", (game_id,)).fetchone()
        return int(row[0])

    def game(self, game_id: int) -> GameRecord:
        with self._reading():
            row = self.db.execute(f"SELECT {self._game_columns} FROM games WHERE id = ?",
                                  (game_id,)).fetchone()
        if row is None:
            ids = ", ".join(map(str, self.game_ids())) or "none"
            raise JournalError(f"journal {self.path} holds no game {game_id}; its games: {ids}")
        return self._record(row)

    def _record(self, row: tuple) -> GameRecord:
        try:
            options = json.loads(row[4])
        except (TypeError, ValueError):
            raise self._fail(f"game {row[0]} has unreadable options {row[4]!r}") from None
        if not (isinstance(row[1], str) and isinstance(row[2], int) and isinstance(row[3], int)
                and isinstance(options, dict)):
            raise self._fail(f"game {row[0]} has a malformed record {row[1:5]!r}")
        started = row[6] if len(row) > 6 and isinstance(row[6], (int, float)) else None
        names: tuple[str, ...] = ()
        if len(row) > 7 and row[7] is not None:
            try:
                names = check_names(json.loads(row[7]), row[2])
            except (TypeError, ValueError) as exc:
                raise self._fail(f"game {row[0]} has unreadable player names {row[7]!r} ({exc})") from None
        return GameRecord(row[0], row[1], row[2], row[3], options, row[5] is not None, started, names)

    @property
    def _game_columns(self) -> str:
        """The games table's columns a GameRecord is read from (an older
        journal opened read-only has no names)."""
        names = ", names" if self.version >= 3 else ""
        return f"id, game, players, seed, options, ended, started{names}"

    def end(self, record: GameRecord) -> None:
        with self._writing():
            self.db.execute("UPDATE games SET ended = ? WHERE id = ?", (time.time(), record.id))

    # -- moves ---------------------------------------------------------------
    def entries(self, record: GameRecord) -> list[Entry]:
        with self._reading():
            rows = self.db.execute(
                "SELECT n, seat, move, chance, barrier FROM moves WHERE game_id = ? ORDER BY n",
                (record.id,)).fetchall()
        out = []
        for i, (n, seat, move, chance, barrier) in enumerate(rows):
            if n != i:
                raise self._fail(f"game {record.id} has move {n} where move {i} should be")
            try:
                data = json.loads(move)
            except (TypeError, ValueError):
                raise self._fail(f"game {record.id} move {n} is not JSON: {str(move)[:60]!r}") from None
            if seat is not None and not isinstance(seat, int):
                raise self._fail(f"game {record.id} move {n} has seat {seat!r}, not a number")
            out.append(Entry(n, seat, data, bool(chance), bool(barrier)))
        return out

    def times(self, record: GameRecord) -> list[float]:
        """When each move was written (seconds since the epoch), in order."""
        with self._reading():
            return [float(r[0]) for r in self.db.execute(
                "SELECT at FROM moves WHERE game_id = ? ORDER BY n", (record.id,))]

    def data_version(self) -> int:
        """Changes each time another connection commits: a cheap poll for news."""
        with self._reading():
            return int(self.db.execute("PRAGMA data_version").fetchone()[0])

    def refused(self, record: GameRecord, seat: int | None, code: str, rule: str) -> bool:
        """Keep a refusal the table said (best effort: False when it was not
        kept). It is committed without waiting for the disk: the next move's
        commit, which does, carries it."""
        try:
            self.db.execute("PRAGMA synchronous=NORMAL")
            with self._tx():
                self.db.execute("INSERT INTO refusals (game_id, at, seat, code, rule) VALUES (?, ?, ?, ?, ?)",
                                (record.id, time.time(), seat, code, rule))
            return True
        except (sqlite3.Error, OSError):
            return False
        finally:
            with contextlib.suppress(sqlite3.Error, OSError):
                self.db.execute("PRAGMA synchronous=FULL")

    def refusals(self, record: GameRecord) -> list[tuple[str, str]] | None:
        """(rule, code) of each refusal kept for the game; None when the
        journal keeps none (made before refusals were kept)."""
        with self._reading():
            has = self.db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'refusals'")
            if has.fetchone() is None:
                return None
            rows = self.db.execute("SELECT rule, code FROM refusals WHERE game_id = ? ORDER BY at",
                                   (record.id,)).fetchall()
        return [(str(rule), str(code)) for rule, code in rows]

    def append(self, record: GameRecord, n: int, seat: int | None, move: Move, chance: bool,
               barrier: bool, after: State | None = None) -> None:
        """Record move ``n``; ``after`` (the state it led to) is kept as a
        snapshot, so a resume can prove it rebuilt exactly that state."""
        self.append_many(record, [pending(n, seat, move, chance, barrier, after)])

    def append_many(self, record: GameRecord, moves: Sequence[Pending], end: bool = False) -> None:
        """Record ``moves`` in order, and the game's end when ``end``, in one
        transaction: all of it is written or none (JournalWriteError)."""
        with self._writing():
            for p in moves:
                self.db.execute(
                    "INSERT INTO moves (game_id, n, seat, move, chance, barrier, at, snapshot) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (record.id, p.n, p.seat, json.dumps(p.move, sort_keys=True), int(p.chance),
                     int(p.barrier), time.time(), p.snapshot))
            if end:
                self.db.execute("UPDATE games SET ended = ? WHERE id = ?", (time.time(), record.id))

    def snapshot(self, record: GameRecord, n: int) -> Any:
        with self._reading():
            row = self.db.execute("SELECT snapshot FROM moves WHERE game_id = ? AND n = ?",
                                  (record.id, n)).fetchone()
        if row is None or row[0] is None:
            return None
        try:
            return json.loads(row[0])
        except (TypeError, ValueError):
            raise self._fail(f"game {record.id} move {n} has an unreadable snapshot") from None

    def drop_last(self, record: GameRecord, reopen: bool = False) -> Entry | None:
        """Remove the last move (undo; the caller has checked it is no
        barrier) and, with ``reopen``, make the game unfinished again, in
        one transaction."""
        entries = self.entries(record)
        if not entries:
            return None
        with self._writing():
            self.db.execute("DELETE FROM moves WHERE game_id = ? AND n = ?", (record.id, entries[-1].n))
            if reopen:
                self.db.execute("UPDATE games SET ended = NULL WHERE id = ?", (record.id,))
        return entries[-1]

    def replay(self, record: GameRecord, upto: int | None = None, each: Step | None = None) -> State:
        """The game rebuilt from its seed and moves; refuses a journal whose
        moves no longer apply (a changed engine, a tampered file). ``each``
        sees every move as it is replayed: its entry, the state before it,
        the move and its events."""
        try:
            game = rules.get(record.game)
        except ValueError as exc:
            raise self._fail(f"game {record.id}: {exc}") from None
        try:
            state = game.new_game(record.players, record.seed, record.options)
        except (TypeError, ValueError) as exc:
            raise self._fail(f"game {record.id}: {exc}") from None
        entries = self.entries(record)[:upto]
        # a game an older Tablekeeper recorded may lack choices today's
        # notation names: the reader supplies the older engine's own picks
        reader = game.record_reader()
        for i, entry in enumerate(entries):
            before = state.copy() if each is not None else state
            try:
                events: list[Event] = []
                while (pick := reader.implied(state, entry.move)) is not None:
                    events += state.apply(pick)
                move = reader.read(state, entry.move)
                events += state.apply(move)
                while i == len(entries) - 1 and (pick := reader.implied(state, None)) is not None:
                    events += state.apply(pick)
            except (ValueError, TypeError, KeyError, AttributeError, rules.IllegalMove) as exc:
                # a move whose JSON lost its shape (a flipped byte) may fail
                # in the parser in any of these ways
                raise self._fail(f"game {record.id} move {entry.n} {json.dumps(entry.move)} "
                                 f"does not apply: {exc}") from None
            if each is not None:
                each(entry, before, move, events)
        if entries:
            recorded = self.snapshot(record, entries[-1].n)
            rebuilt = json.loads(json.dumps(state.state_json(), sort_keys=True))
            if isinstance(recorded, dict) and recorded and recorded.keys() < rebuilt.keys() \
                    and rebuilt.keys() - recorded.keys() <= reader.newer_fields:
                # an older engine's snapshot: the fields it knew must agree
                rebuilt = {k: v for k, v in rebuilt.items() if k in recorded}
            # an older engine's snapshot has that engine's shape
            if recorded is not None and not reader.older and recorded != rebuilt:
                raise self._fail(f"game {record.id} replays to a state other than the one recorded after "
                                 f"move {entries[-1].n} (has the {record.game} engine changed?)")
        return state


def pending(n: int, seat: int | None, move: Move, chance: bool, barrier: bool,
            after: State | None = None) -> Pending:
    """A move as the journal writes it; ``after`` becomes its snapshot."""
    snapshot = json.dumps(after.state_json(), sort_keys=True) if after is not None else None
    return Pending(n, seat, move.to_json(), chance, barrier, snapshot)


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT; on any failure (COMMIT's own included) the
    transaction is rolled back, so the database is as it was before."""

    def __init__(self, db: sqlite3.Connection, keep: bool = True) -> None:
        self.db, self.keep = db, keep  # keep False: rolled back even when it worked (a probe)

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: Any, *_: Any) -> None:
        if kind is not None or not self.keep:
            self._rollback()
            return
        try:
            self.db.execute("COMMIT")
        except BaseException:
            self._rollback()
            raise

    def _rollback(self) -> None:
        # SQLite may already have rolled back by itself (SQLITE_FULL can);
        # a failed ROLLBACK must not hide the error that caused it.
        if self.db.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                self.db.execute("ROLLBACK")
