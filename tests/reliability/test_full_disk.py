"""A full disk while journaling: the game goes on in memory, the shared
screen says so, every later move and tick (at most about once a second)
tries again, and once the disk takes them every move is written, in order,
once. SQLite itself says "database or disk is full": ``PRAGMA
max_page_count`` caps the journal's connection at the pages it has."""

from __future__ import annotations

import contextlib
import errno
import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pi_app.session import loop as session_module
from pi_app.session.loop import Session
from pi_app.store.journal import Journal, write_fault
from tests.pi_app.conftest import Rig

GAMES = [("siege", 2), ("king-and-assassins", 2), ("mordred", 3)]


def fill_disk(journal: Journal) -> None:
    pages = journal.db.execute("PRAGMA page_count").fetchone()[0]
    journal.db.execute(f"PRAGMA max_page_count={pages}")


def free_space(journal: Journal) -> None:
    journal.db.execute("PRAGMA max_page_count=1073741823")


def play(session: Session, rng: random.Random, moves: int) -> None:
    """``moves`` random legal moves by the seats (chance is drawn by the
    session: the simulated table's profile says ``chance = "draw"``)."""
    for _ in range(moves):
        if session.scene.state.outcome() is not None:
            return
        seat = session.scene.state.to_move()
        assert seat is not None and seat >= 0
        assert session.commit.play(seat, rng.choice(session.scene.state.legal_moves()))


def shared_text(session: Session) -> str:
    return session.presentation.shared_layout().text()


def shown(rig: Rig) -> str:
    """The words of the frame the shared screen shows now."""
    assert rig.table is not None
    return rig.table.screens[rig.profile.shared_screen.name].text


def on_disk(path: Path, session: Session) -> tuple[list[dict[str, Any]], bool]:
    """The moves and the ended flag another reader sees in the journal now."""
    other = Journal(path, readonly=True)
    try:
        record = other.game(session.scene.record.id)
        return [e.move for e in other.entries(record)], record.ended
    finally:
        other.close()


def resumed_equals(path: Path, session: Session) -> None:
    """A new Journal on the file rebuilds exactly the game in memory: every
    move once, in order."""
    journal = Journal(path)
    record = journal.game(session.scene.record.id)
    entries = journal.entries(record)
    assert [e.n for e in entries] == list(range(len(session.scene.state.history)))
    assert [e.move for e in entries] == [m.to_json() for m in session.scene.state.history]
    assert journal.replay(record).to_json() == session.scene.state.to_json()
    journal.close()


@contextlib.contextmanager
def failing(s: Session, statement: str, message: str) -> Iterator[None]:
    """The session's journal connection answers every statement starting
    with ``statement`` with SQLite's ``message``, as failing storage would."""
    real = s.journal.db

    class Failing:
        def __getattr__(self, name: str) -> Any:
            return getattr(real, name)

        def execute(self, sql: str, *args: Any) -> Any:
            if sql.startswith(statement):
                raise sqlite3.OperationalError(message)
            return real.execute(sql, *args)

    s.journal.db = Failing()  # type: ignore[assignment]
    try:
        yield
    finally:
        s.journal.db = real


@pytest.fixture
def table(tmp_path: Path):
    with contextlib.ExitStack() as rigs:

        def make(game: str, players: int) -> tuple[Rig, Session]:
            r = rigs.enter_context(Rig(tmp_path, players))
            return r, r.open(game, seed=11)

        yield make


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_a_full_disk_keeps_the_game_and_writes_every_move_once_freed(table, tmp_path, monkeypatch, game,
                                                                     players):
    rig, s = table(game, players)
    path = tmp_path / "journal.sqlite"
    rng = random.Random(5)
    play(s, rng, 6)
    assert s.scene.journal_fault is None and not s.commit.backlog
    fill_disk(s.journal)
    written = len(s.scene.state.history)
    for _ in range(40):  # the first move that needs a new page finds the disk full
        play(s, rng, 1)
        if s.scene.journal_fault is not None:
            break
    assert s.scene.journal_fault == "disk full"
    play(s, rng, 15)
    assert s.scene.state.outcome() is None  # the seeds leave the game going
    assert "journal not saved: disk full, retrying" in shared_text(s)
    s.redraw()  # as the loop does after every event
    assert "journal not saved: disk full" in shown(rig)
    # nothing half-written: another reader sees a sound journal without the backlog
    moves, _ = on_disk(path, s)
    assert len(moves) + len(s.commit.backlog) == len(s.scene.state.history) and len(moves) >= written
    assert [p.n for p in s.commit.backlog] == list(range(len(moves), len(s.scene.state.history)))
    assert not s.journal.db.in_transaction
    free_space(s.journal)
    monkeypatch.setattr(session_module, "JOURNAL_RETRY_SECONDS", 1e9)
    s.tick()  # tried just now by the last move: not again yet, however free the disk is
    assert s.commit.backlog and "not saved" in shared_text(s)
    monkeypatch.setattr(session_module, "JOURNAL_RETRY_SECONDS", 0.0)  # as if a second had passed
    s.tick()
    assert not s.commit.backlog and s.scene.journal_fault is None
    assert "not saved" not in shown(rig)  # the tick that wrote it redrew the screen
    play(s, rng, 5)  # and the game goes on, written as before
    assert not s.commit.backlog
    rig.close()
    resumed_equals(path, s)


def test_every_later_move_retries(table, tmp_path):
    rig, s = table("mordred", 3)
    rng = random.Random(2)
    play(s, rng, 3)
    fill_disk(s.journal)
    while s.scene.journal_fault is None:
        play(s, rng, 1)
    free_space(s.journal)
    play(s, rng, 1)  # no tick needed: the next move writes the backlog with itself
    assert not s.commit.backlog and s.scene.journal_fault is None
    rig.close()
    resumed_equals(tmp_path / "journal.sqlite", s)


def test_the_end_of_a_game_waits_for_its_moves(table, tmp_path):
    rig, s = table("king-and-assassins", 2)
    rng = random.Random(3)
    play(s, rng, 4)
    fill_disk(s.journal)
    for _ in range(1000):
        play(s, rng, 1)
        if s.scene.state.outcome() is not None:
            break
    assert s.scene.state.outcome() is not None and s.commit.backlog
    moves, ended = on_disk(tmp_path / "journal.sqlite", s)
    assert not ended and len(moves) < len(s.scene.state.history)
    rig.press("seat1.ok")  # the final screen's ● asks for the next game: not while moves are unwritten
    assert not s.scene.new_game_requested
    free_space(s.journal)
    rig.press("seat1.ok")
    assert s.scene.new_game_requested and not s.commit.backlog
    moves, ended = on_disk(tmp_path / "journal.sqlite", s)
    assert ended and moves == [m.to_json() for m in s.scene.state.history]
    rig.close()
    resumed_equals(tmp_path / "journal.sqlite", s)


def undoable(s: Session, rng: random.Random) -> None:
    """Play on until the last move is one undo may take back (no chance)."""
    play(s, rng, 1)
    def last_is_barrier() -> bool:
        backlog = s.commit.backlog
        return backlog[-1].barrier if backlog else s.journal.entries(s.scene.record)[-1].barrier

    while last_is_barrier():
        play(s, rng, 1)


def test_undo_waits_until_the_backlog_is_written(table, tmp_path):
    rig, s = table("king-is-dead", 3)
    rng = random.Random(4)
    undoable(s, rng)
    fill_disk(s.journal)
    while s.scene.journal_fault is None:
        play(s, rng, 1)
    undoable(s, rng)
    before = s.scene.state.to_json()
    rig.press("shared.undo")
    assert s.presentation.shared_layout().title == "No undo until saved" and not s.scene.undo_pending
    assert s.scene.state.to_json() == before
    free_space(s.journal)
    rig.press("shared.undo")  # written first, then undo asks as always
    assert not s.commit.backlog and s.scene.undo_pending
    rig.press("shared.undo")
    assert len(s.scene.state.history) == len(before["history"]) - 1
    rig.close()
    resumed_equals(tmp_path / "journal.sqlite", s)


def test_an_undo_the_disk_refuses_changes_nothing(table, tmp_path):
    rig, s = table("king-is-dead", 3)
    undoable(s, random.Random(6))
    before = s.scene.state.to_json()
    rig.press("shared.undo")
    assert s.scene.undo_pending
    # a deletion only adds to the -wal, which max_page_count does not cap
    with failing(s, "DELETE", "database or disk is full"):
        rig.press("shared.undo")
    assert s.scene.state.to_json() == before
    assert s.presentation.shared_layout().title == "Undo failed: disk full"
    rig.close()
    resumed_equals(tmp_path / "journal.sqlite", s)


def test_a_disk_io_error_is_said_in_italian_too(table, tmp_path):
    """SQLite turns an OSError of the disk (EIO, ENOSPC) into "disk I/O error"
    or "database or disk is full": no OSError reaches the session. The I/O
    error is made here by the connection, as SQLite would answer it."""
    rig, s = table("siege", 2)
    s.scene.lang = "it"
    rng = random.Random(8)
    with failing(s, "INSERT INTO moves", "disk I/O error"):
        play(s, rng, 3)
        assert s.scene.journal_fault == "I/O error" and s.commit.backlog
        assert "partita non salvata: errore del disco, riprovo" in shared_text(s)
    play(s, rng, 1)
    assert not s.commit.backlog and "non salvata" not in shared_text(s)
    rig.close()
    resumed_equals(tmp_path / "journal.sqlite", s)


def test_what_counts_as_the_storage_refusing():
    assert write_fault(OSError(errno.ENOSPC, "No space left on device")) == "disk full"
    assert write_fault(OSError(errno.EIO, "Input/output error")) == "I/O error"
    assert write_fault(OSError(errno.EROFS, "Read-only file system")) == "read-only"
    assert write_fault(OSError(errno.ENOENT, "No such file")) is None
    assert write_fault(sqlite3.OperationalError("database or disk is full")) == "disk full"
    assert write_fault(sqlite3.IntegrityError("UNIQUE constraint failed")) is None


def test_a_fault_that_is_not_the_disk_still_refuses_the_move(table):
    """Not every journal fault is worth keeping in memory: a broken journal
    (a duplicate move number) still leaves the game as it was."""
    _, s = table("mordred", 3)
    play(s, random.Random(9), 3)
    n = len(s.scene.state.history)
    s.journal.db.execute("INSERT INTO moves VALUES (?, ?, 0, '{}', 0, 0, 0, NULL)", (s.scene.record.id, n))
    before = s.scene.state.to_json()
    seat = s.scene.state.to_move()
    with pytest.raises(sqlite3.IntegrityError):
        s.commit.play(seat, s.scene.state.legal_moves()[0])
    assert s.scene.state.to_json() == before and not s.commit.backlog
