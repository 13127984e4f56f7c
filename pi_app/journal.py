"""The journal: every accepted move and chance outcome, in SQLite.

WAL mode with ``synchronous=FULL``: a move is on disk before the screens say
it was accepted, so a power cut loses nothing the table was told. On start
the unfinished game is rebuilt by replaying its moves from its seed; a
journal that cannot be read or replayed is refused, naming the file and what
is wrong, and is never modified.

Undo removes the last move, unless it is a *barrier*: a chance outcome, or a
move whose events revealed a secret (an event with an audience).
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import rules
from pi_app.errors import UsageError
from rules.core import JSON, Event, Move, State

SCHEMA_VERSION = 2
_SCHEMA = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    players INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    options TEXT NOT NULL,
    started REAL NOT NULL,
    ended REAL
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
_COLUMNS = {
    "games": ["id", "game", "players", "seed", "options", "started", "ended"],
    "moves": ["game_id", "n", "seat", "move", "chance", "barrier", "at", "snapshot"],
}


class JournalError(UsageError):
    """A journal that cannot be used; the message names the file and the fault."""


@dataclass(frozen=True)
class Entry:
    n: int
    seat: int | None
    move: JSON
    chance: bool
    barrier: bool


@dataclass(frozen=True)
class GameRecord:
    id: int
    game: str
    players: int
    seed: int
    options: dict[str, Any]
    ended: bool


def is_barrier(chance: bool, events: Sequence[Event]) -> bool:
    """Undo may not go back across a chance outcome or a revealed secret."""
    return chance or any(ev.audience is not None for ev in events)


class Journal:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        fresh = not self.path.exists() or self.path.stat().st_size == 0
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            if fresh:
                with self._tx():
                    for statement in _SCHEMA.split(";"):
                        if statement.strip():
                            self.db.execute(statement)
                    self.db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            self._validate()
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"journal {self.path} is not usable: {exc}; move the file aside "
                               "to start a new journal") from None
        except OSError as exc:
            raise JournalError(f"journal {self.path} cannot be opened: {exc.strerror} ({exc.filename}); "
                               "give --state-dir a directory Tablekeeper may write in") from None

    def _tx(self) -> Any:
        return _Transaction(self.db)

    def _fail(self, what: str) -> JournalError:
        return JournalError(f"journal {self.path} is refused: {what}; move the file aside to start a new "
                            "journal (the old one is kept unchanged)")

    def _validate(self) -> None:
        check = self.db.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            raise self._fail(f"the database is damaged ({check})")
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        if version != SCHEMA_VERSION:
            raise self._fail(f"schema version {version}, this Tablekeeper reads version {SCHEMA_VERSION}")
        for table, cols in _COLUMNS.items():
            have = [r[1] for r in self.db.execute(f"PRAGMA table_info({table})")]
            if have != cols:
                raise self._fail(f"table {table!r} has columns {have}, expected {cols}")

    def close(self) -> None:
        self.db.close()

    # -- games -------------------------------------------------------------
    def start(self, game: str, players: int, seed: int, options: dict[str, Any]) -> GameRecord:
        with self._tx():
            cur = self.db.execute(
                "INSERT INTO games (game, players, seed, options, started) VALUES (?, ?, ?, ?, ?)",
                (game, players, seed, json.dumps(options, sort_keys=True), time.time()))
        return GameRecord(int(cur.lastrowid or 0), game, players, seed, dict(options), False)

    def current(self) -> GameRecord | None:
        """The latest game not yet ended, to resume."""
        row = self.db.execute(
            "SELECT id, game, players, seed, options, ended FROM games WHERE ended IS NULL "
            "ORDER BY id DESC LIMIT 1").fetchone()
        return self._record(row) if row else None

    def games(self) -> list[GameRecord]:
        rows = self.db.execute("SELECT id, game, players, seed, options, ended FROM games ORDER BY id")
        return [self._record(r) for r in rows]

    def _record(self, row: tuple) -> GameRecord:
        try:
            options = json.loads(row[4])
        except (TypeError, ValueError):
            raise self._fail(f"game {row[0]} has unreadable options {row[4]!r}") from None
        return GameRecord(row[0], row[1], row[2], row[3], options, row[5] is not None)

    def end(self, record: GameRecord) -> None:
        with self._tx():
            self.db.execute("UPDATE games SET ended = ? WHERE id = ?", (time.time(), record.id))

    def reopen(self, record: GameRecord) -> None:
        """An undo of a game's last move makes it unfinished again."""
        with self._tx():
            self.db.execute("UPDATE games SET ended = NULL WHERE id = ?", (record.id,))

    # -- moves ---------------------------------------------------------------
    def entries(self, record: GameRecord) -> list[Entry]:
        rows = self.db.execute(
            "SELECT n, seat, move, chance, barrier FROM moves WHERE game_id = ? ORDER BY n", (record.id,))
        out = []
        for i, (n, seat, move, chance, barrier) in enumerate(rows):
            if n != i:
                raise self._fail(f"game {record.id} has move {n} where move {i} should be")
            try:
                data = json.loads(move)
            except ValueError:
                raise self._fail(f"game {record.id} move {n} is not JSON: {move[:60]!r}") from None
            out.append(Entry(n, seat, data, bool(chance), bool(barrier)))
        return out

    def append(self, record: GameRecord, n: int, seat: int | None, move: Move, chance: bool,
               barrier: bool, after: State | None = None) -> None:
        """Record move ``n``; ``after`` (the state it led to) is kept as a
        snapshot, so a resume can prove it rebuilt exactly that state."""
        snapshot = json.dumps(after.to_json()["state"], sort_keys=True) if after is not None else None
        with self._tx():
            self.db.execute(
                "INSERT INTO moves (game_id, n, seat, move, chance, barrier, at, snapshot) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (record.id, n, seat, json.dumps(move.to_json(), sort_keys=True), int(chance), int(barrier),
                 time.time(), snapshot))

    def snapshot(self, record: GameRecord, n: int) -> Any:
        row = self.db.execute("SELECT snapshot FROM moves WHERE game_id = ? AND n = ?",
                              (record.id, n)).fetchone()
        if row is None or row[0] is None:
            return None
        try:
            return json.loads(row[0])
        except ValueError:
            raise self._fail(f"game {record.id} move {n} has an unreadable snapshot") from None

    def drop_last(self, record: GameRecord) -> Entry | None:
        """Remove the last move (undo); the caller has checked it is no barrier."""
        entries = self.entries(record)
        if not entries:
            return None
        with self._tx():
            self.db.execute("DELETE FROM moves WHERE game_id = ? AND n = ?", (record.id, entries[-1].n))
        return entries[-1]

    def replay(self, record: GameRecord, upto: int | None = None) -> State:
        """The game rebuilt from its seed and moves; refuses a journal whose
        moves no longer apply (a changed engine, a tampered file)."""
        try:
            game = rules.get(record.game)
        except ValueError as exc:
            raise self._fail(f"game {record.id}: {exc}") from None
        try:
            state = game.new_game(record.players, record.seed, record.options)
        except ValueError as exc:
            raise self._fail(f"game {record.id}: {exc}") from None
        entries = self.entries(record)[:upto]
        for entry in entries:
            try:
                state.apply(game.move_from_json(entry.move))
            except (ValueError, rules.IllegalMove) as exc:
                raise self._fail(f"game {record.id} move {entry.n} {json.dumps(entry.move)} "
                                 f"does not apply: {exc}") from None
        if entries:
            recorded = self.snapshot(record, entries[-1].n)
            rebuilt = json.loads(json.dumps(state.to_json()["state"], sort_keys=True))
            if recorded is not None and recorded != rebuilt:
                raise self._fail(f"game {record.id} replays to a state other than the one recorded after "
                                 f"move {entries[-1].n} (has the {record.game} engine changed?)")
        return state


class _Transaction:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: Any, *_: Any) -> None:
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")
