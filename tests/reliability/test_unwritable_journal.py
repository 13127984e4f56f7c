"""A journal the daemon cannot write is found at start, with the file, the
reason and the fix: not after the first move (before, a read-only journal
started without a word and advised "free space on the disk")."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from pi_app import cli
from pi_app.store import journal as journal_module
from pi_app.store.journal import Journal, JournalError


def made(tmp_path: Path) -> Path:
    Journal(tmp_path / "journal.sqlite").close()
    return tmp_path / "journal.sqlite"


def run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = cli.main(["run", "--table", "sim", "--state-dir", str(tmp_path), "--no-console",
                     "--game", "siege", "--players", "2"])
    return code, capsys.readouterr().err


def test_a_journal_another_user_owns_is_refused_at_start(tmp_path, monkeypatch, capsys):
    path = made(tmp_path)
    real = os.access
    # as root every file is writable: the check is made as the table's user would meet it
    monkeypatch.setattr(journal_module.os, "access",
                        lambda p, mode: False if Path(p) == path and mode == os.W_OK else real(p, mode))
    code, said = run(tmp_path, capsys)
    assert code == 2
    assert f"journal {path} cannot be written" in said and "read-only for this user" in said
    assert "chown" in said and "free space" not in said


def test_a_full_disk_is_refused_at_start(tmp_path, monkeypatch, capsys):
    made(tmp_path)
    monkeypatch.setattr(journal_module.shutil, "disk_usage",
                        lambda p: shutil._ntuple_diskusage(10**9, 10**9 - 4096, 4096))  # type: ignore[attr-defined]
    code, said = run(tmp_path, capsys)
    assert code == 2 and "disk full (4 KiB free" in said and "free space on the disk" in said


def test_storage_that_refuses_the_first_write_is_found_by_the_check(tmp_path):
    journal = Journal(made(tmp_path))
    journal.db.execute("PRAGMA query_only=1")  # SQLite answers every write "readonly database"
    with pytest.raises(JournalError, match=r"read-only .*found at start") as refused:
        journal.check_writable()
    assert refused.value.fault == "read-only" and "chown" in str(refused.value)
    journal.close()


def test_a_sound_journal_passes_the_check(tmp_path):
    journal = Journal(made(tmp_path))
    journal.check_writable()
    journal.close()
