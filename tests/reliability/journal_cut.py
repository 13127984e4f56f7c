"""Run ``tablekeeper`` with a power cut at a journal write::

    python -m tests.reliability.journal_cut K WHERE REPORT run --table sim ...

The process kills itself with SIGKILL at the K-th ``INSERT INTO moves`` it
sends to SQLite (K = 0: at the INSERT of the move whose number the file
REPORT.arm holds, once it exists), at one of three places (WHERE):

- ``insert``: just before that INSERT runs, inside its open transaction;
- ``commit``: at the COMMIT of the transaction holding it, before it runs;
- ``after``: right after that COMMIT returned, before the screens are told.

Before dying it writes REPORT (JSON): where it died and how many moves of
the game the journal holds for certain at that instant (``committed``).
The hook wraps the SQLite connection of every :class:`Journal` opened, so
the production code carries no test hook; the rest of the command runs as
``python -m pi_app`` would run it.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import sys
from pathlib import Path
from typing import Any

from pi_app.cli import main
from pi_app.store.journal import Journal

PLACES = ("insert", "commit", "after")


class CuttingConnection:
    """A sqlite3 connection that dies at the K-th move written."""

    def __init__(self, db: sqlite3.Connection, cut: Cut) -> None:
        self._db = db
        self._cut = cut

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)

    def execute(self, sql: str, params: Any = ()) -> sqlite3.Cursor:
        cut = self._cut
        verb = sql.lstrip().split(None, 1)[0].upper()
        if verb == "BEGIN":
            cut.tx_moves = []
        elif sql.lstrip().upper().startswith("INSERT INTO MOVES"):
            cut.inserts += 1
            n = int(params[1])  # (game_id, n, ...): the move's number in its game
            if cut.inserts == cut.k or (cut.k == 0 and cut.armed_at() == n):
                cut.armed = True
                if cut.where == "insert":
                    cut.die(committed=cut.tx_moves[0] if cut.tx_moves else n)
            cut.tx_moves.append(n)
        elif verb == "COMMIT" and cut.armed:
            if cut.where == "commit":
                cut.die(committed=cut.tx_moves[0])
            result = self._db.execute(sql, params)
            cut.die(committed=cut.tx_moves[-1] + 1)
            return result
        return self._db.execute(sql, params)


class Cut:
    def __init__(self, k: int, where: str, report: Path) -> None:
        if where not in PLACES:
            raise SystemExit(f"journal_cut: WHERE is one of {', '.join(PLACES)}, not {where!r}")
        self.k, self.where, self.report = k, where, report
        self.inserts = 0
        self.armed = False
        self.tx_moves: list[int] = []

    def armed_at(self) -> int | None:
        arm = self.report.with_name(self.report.name + ".arm")
        return int(arm.read_text()) if arm.exists() else None

    def die(self, committed: int) -> None:
        data = {"where": self.where, "k": self.k, "committed": committed}
        with open(self.report, "w") as f:
            f.write(json.dumps(data))
            f.flush()
            os.fsync(f.fileno())
        os.kill(os.getpid(), signal.SIGKILL)

    def install(self) -> None:
        opened = Journal.__init__

        def init(journal: Journal, *args: Any, **kw: Any) -> None:
            opened(journal, *args, **kw)
            journal.db = CuttingConnection(journal.db, self)  # type: ignore[assignment]

        Journal.__init__ = init  # type: ignore[method-assign]


if __name__ == "__main__":
    k, where, report, *argv = sys.argv[1:]
    Cut(int(k), where, Path(report)).install()
    sys.exit(main(argv))
