"""Simulated games written to a real journal as the table writes them, and
the web process (`tablekeeper web`) serving that journal on loopback."""

from __future__ import annotations

import contextlib
import os
import random
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import rules
from pi_app.store.journal import GameRecord, Journal, is_barrier, pending
from rules.core import Move, State


class Table:
    """One game played by random players, each move journalled the way the
    session does (the state after it as the snapshot; chance drawn by the seed)."""

    def __init__(self, journal: Journal, game: str, players: int, seed: int, options: dict | None = None):
        self.journal = journal
        self.game = rules.get(game)
        self.record: GameRecord = journal.start(game, players, seed, options or {})
        self.state: State = self.game.new_game(players, seed, options or {})
        self.rng = random.Random(f"{game}/{players}/{seed}")

    @property
    def over(self) -> bool:
        return self.state.outcome() is not None or self.state.to_move() is None

    def choose(self) -> Move:
        if self.state.is_chance():
            return self.state.sample_chance()
        return self.rng.choice(self.state.legal_moves())

    def play(self, move: Move) -> None:
        chance = self.state.is_chance()
        seat = None if chance else self.state.to_move()
        n = len(self.state.history)
        before = self.state.copy()
        events = self.state.apply(move)
        barrier = is_barrier(before, move, events)
        self.journal.append_many(self.record, [pending(n, seat, move, chance, barrier, self.state)],
                                 end=self.state.outcome() is not None)

    def run(self, moves: int | None = None) -> None:
        """Play to the game's end, or ``moves`` moves if it is not over sooner."""
        played = 0
        while not self.over and (moves is None or played < moves):
            self.play(self.choose())
            played += 1


@contextlib.contextmanager
def web_process(journal: Path, lang: str = "en", poll: float = 0.1) -> Iterator[str]:
    """`tablekeeper web` on 127.0.0.1 (a free port) for ``journal``; yields its URL."""
    proc = subprocess.Popen([sys.executable, "-m", "pi_app", "web", "--journal", str(journal),
                             "--host", "127.0.0.1", "--port", "0", "--lang", lang, "--poll", str(poll)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:\d+/", line)
        if found is None:
            proc.kill()
            raise AssertionError(f"tablekeeper web did not start: {line!r} {proc.stderr.read()!r}")
        yield found.group(0)
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.stderr is not None:
            errors = proc.stderr.read()
            proc.stderr.close()
            assert "Traceback" not in errors, errors
        if proc.stdout is not None:
            proc.stdout.close()


def get(url: str, timeout: float = 10.0) -> tuple[int, str, bytes]:
    """(status, content type, body) of a GET; 4xx and 5xx answers included."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:
            return answer.status, answer.headers.get("Content-Type", ""), answer.read()
    except urllib.error.HTTPError as exc:
        with exc:
            return exc.code, exc.headers.get("Content-Type", ""), exc.read()


def first_event(url: str, timeout: float = 10.0) -> bytes:
    """The first server-sent event of ``url`` (the stream is then closed)."""
    with urllib.request.urlopen(url, timeout=timeout) as answer:
        lines = []
        while True:
            line = answer.readline()
            if line.startswith(b"data:"):
                return line
            lines.append(line)
            if len(lines) > 20:
                raise AssertionError(f"no event in {lines!r}")


def wait_for_moves(base: str, moves: int, game: int, timeout: float = 10.0) -> None:
    """Until the web process shows ``moves`` moves of game ``game``."""
    deadline = time.monotonic() + timeout
    want = f'data-moves="{moves}"'.encode()
    while True:
        _, _, body = get(f"{base}game/{game}/live")
        if want in body:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"the page did not show move {moves} within {timeout} s")
        time.sleep(0.01)
