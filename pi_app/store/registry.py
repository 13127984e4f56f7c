"""The tag registry: which UID is which card or piece of which game.

One UID is one thing: enrolling a UID already enrolled as something else is
refused. Several UIDs may stand for one component (every blue cube is
``follower:blue``).
"""

from __future__ import annotations

import contextlib
import hashlib
import sqlite3
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from pi_app.errors import RegistryError

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tags (
    uid TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    component TEXT NOT NULL,
    enrolled REAL NOT NULL
)
"""


_COLUMNS = ["uid", "game", "component", "enrolled"]


@dataclass(frozen=True)
class Tag:
    uid: str
    game: str
    component: str


def normalise(uid: str) -> str:
    """UIDs as drivers report them: upper-case hex, no separators."""
    clean = uid.replace(":", "").replace("-", "").replace(" ", "").upper()
    if not clean or len(clean) % 2 or any(c not in "0123456789ABCDEF" for c in clean):
        raise RegistryError(f"{uid!r} is not a tag UID; write it in hex, e.g. 04A1B2C3D4E5F6")
    return clean


def made_up_uid(game: str, component: str, n: int = 0) -> str:
    """A stable 7-byte NTAG-like UID for simulated tags."""
    digest = hashlib.sha1(f"{game}/{component}/{n}".encode()).hexdigest().upper()
    return "04" + digest[:12]


class Registry:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            # Checked before anything is written: a file that is not a tag
            # registry (another database, a damaged one) is left as it was.
            problem = self._check()
            if problem is None:
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute(_SCHEMA)
        except (sqlite3.DatabaseError, OSError) as exc:
            problem = str(exc)
        if problem is not None:
            with contextlib.suppress(AttributeError, sqlite3.Error):
                self.db.close()
            raise self._refused(problem)
        self._cache: dict[str, Tag] = {}

    def _check(self) -> str | None:
        """What makes the file no tag registry, or None (an empty database
        is a new registry)."""
        check = self.db.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            return f"the database is damaged ({check})"
        tables = [r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        if not tables:
            return None
        if "tags" not in tables:
            return f"it is another SQLite database (tables: {', '.join(tables)})"
        have = [r[1] for r in self.db.execute("PRAGMA table_info(tags)")]
        if have != _COLUMNS:
            return f"its tags table has columns {have}, expected {_COLUMNS}"
        return None

    def _refused(self, what: str) -> RegistryError:
        return RegistryError(f"tag registry {self.path} is not usable: {what}; move the file aside and "
                             "enroll the tags again (tablekeeper tags enroll GAME)")

    def close(self) -> None:
        self.db.close()

    def lookup(self, uid: str) -> Tag | None:
        # Only enrolled tags are kept: a foreign tag (a bank card, a stranger's
        # sticker) is asked again each time, so no tag tapped can grow the cache.
        if uid not in self._cache:
            row = self.db.execute("SELECT uid, game, component FROM tags WHERE uid = ?", (uid,)).fetchone()
            if row is None:
                return None
            self._cache[uid] = Tag(*row)
        return self._cache[uid]

    def enroll(self, uid: str, game: str, component: str) -> Tag:
        uid = normalise(uid)
        known = self.lookup(uid)
        if known is not None and (known.game, known.component) != (game, component):
            raise RegistryError(f"tag {uid} is already enrolled as {known.component} of {known.game}; "
                                f"use another tag, or run: tablekeeper tags forget {uid}")
        if known is None:
            self.db.execute("INSERT INTO tags (uid, game, component, enrolled) VALUES (?, ?, ?, ?)",
                            (uid, game, component, time.time()))
            self._cache.pop(uid, None)
        return Tag(uid, game, component)

    def forget(self, uid: str) -> bool:
        uid = normalise(uid)
        gone = self.db.execute("DELETE FROM tags WHERE uid = ?", (uid,)).rowcount > 0
        self._cache.pop(uid, None)
        return gone

    def tags(self, game: str | None = None) -> list[Tag]:
        if game is None:
            rows = self.db.execute("SELECT uid, game, component FROM tags ORDER BY game, component, uid")
        else:
            rows = self.db.execute(
                "SELECT uid, game, component FROM tags WHERE game = ? ORDER BY component, uid", (game,))
        return [Tag(*r) for r in rows]

    def uids_of(self, game: str, component: str) -> list[str]:
        rows = self.db.execute("SELECT uid FROM tags WHERE game = ? AND component = ? ORDER BY uid",
                               (game, component))
        return [r[0] for r in rows]

    def auto_enroll(self, game: str, components: Iterable[tuple[str, int]]) -> dict[str, list[str]]:
        """Enrol made-up UIDs for every (component, how many tags) in
        simulation and the demo: component -> its uids."""
        out: dict[str, list[str]] = {}
        self.db.execute("BEGIN")
        try:
            for comp, count in components:
                for n in range(count):
                    uid = made_up_uid(game, comp, n)
                    if self.lookup(uid) is None:
                        self.db.execute(
                            "INSERT INTO tags (uid, game, component, enrolled) VALUES (?, ?, ?, ?)",
                            (uid, game, comp, time.time()))
                        self._cache.pop(uid, None)
                    out.setdefault(comp, []).append(uid)
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        return out
