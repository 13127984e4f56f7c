"""The box test's hands (tests/box/test_box.py): an answer the daemon wrote to
its log counts even when the log's follower missed it, as `journalctl -f -D`
can (a CI run of the arm64 box waited 240 s for ``= box-2`` while the log
held it)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.box import test_box
from tests.box.container import BoxError


class _Box:
    """What Hands reads of a box: its root, its speed and its log."""

    def __init__(self, root: Path, log: list[str]) -> None:
        self.root = root
        self.slow = 0.02  # the answer's limit, 30 s times this
        self.log = log

    def journal(self, unit: str) -> list[str]:
        return list(self.log)


@pytest.fixture
def fifo_end() -> Iterator[int]:
    read, write = os.pipe()
    yield write
    os.close(read)


def _hands(tmp_path: Path, log: list[str], fd: int) -> test_box.Hands:
    hands = test_box.Hands(_Box(tmp_path, log))  # type: ignore[arg-type]
    hands.fd = fd  # nobody follows the log: the follower has missed every line
    return hands


def test_an_answer_the_follower_missed_is_found_in_the_whole_log(
        tmp_path: Path, fifo_end: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(test_box, "REREAD_AFTER", 0.05, raising=False)
    hands = _hands(tmp_path, ["< press seat1 ok", "< sync box-1", "= box-1"], fifo_end)
    hands.say("press seat1 ok")
    assert hands.sent == ["press seat1 ok"] and "box-1" in hands.answers and hands.missed == ["box-1"]


def test_an_answer_in_no_log_is_still_an_error(tmp_path: Path, fifo_end: int,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(test_box, "REREAD_AFTER", 0.05, raising=False)
    hands = _hands(tmp_path, ["< press seat1 ok", "< sync box-1", "= box-10"], fifo_end)
    with pytest.raises(BoxError, match="no answer to \\['press seat1 ok'\\]"):
        hands.say("press seat1 ok")
