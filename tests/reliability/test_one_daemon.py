"""One daemon per state directory: a second `tablekeeper run` on the same
directory refuses at once, naming the process that holds it, and the first
goes on as if nothing happened (before, both ran: the second resumed the
game, the first met a UNIQUE constraint on every move)."""

from __future__ import annotations

import fcntl
from pathlib import Path

import pytest

from pi_app.errors import UsageError
from pi_app.store import lock
from pi_app.store.journal import Journal
from tests.reliability.daemon import WAIT, Daemon


def test_a_second_daemon_refuses_naming_the_first(tmp_path: Path) -> None:
    first = Daemon(["run", "--table", "sim", "--state-dir", str(tmp_path), "--text",
                    "--game", "mordred", "--players", "3", "--seed", "4"])
    second = None
    try:
        first.sync()
        second = Daemon(["run", "--table", "sim", "--state-dir", str(tmp_path), "--text"])
        assert second.proc.stdin is not None
        second.proc.stdin.close()  # a console with nothing typed: it would quit at once if it ran
        assert second.proc.wait(timeout=WAIT) == 2
        second.finish()
        said = second.stderr()
        assert f"another Tablekeeper (PID {first.pid}) is already running on {tmp_path}" in said
        assert "systemctl stop tablekeeper" in said
        first.sync()  # the first still answers
        first.send("quit")
        assert first.finish() == 0, first.stderr()
        assert "IntegrityError" not in first.stderr()
    finally:
        first.close()
        if second is not None:
            second.close()
    journal = Journal(tmp_path / "journal.sqlite", readonly=True)
    try:
        assert len(journal.game_ids()) == 1
    finally:
        journal.close()


def test_the_lock_goes_with_its_holder(tmp_path: Path) -> None:
    held = lock.hold(tmp_path)
    with pytest.raises(lock.StateLocked, match="PID"):
        lock.hold(tmp_path)
    held.close()
    again = lock.hold(tmp_path)  # let go: the next daemon takes it
    again.close()


def test_a_lock_held_by_another_program_is_respected(tmp_path: Path) -> None:
    with open(tmp_path / lock.NAME, "w") as other:
        other.write("4242\n")
        other.flush()
        fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(UsageError, match="PID 4242"):
            lock.hold(tmp_path)
