"""A journal of many game nights: the web process and the daemon read what
they show or resume, not the whole journal."""

from __future__ import annotations

import gc
import sqlite3
from pathlib import Path

import pytest

from pi_app.store.journal import Journal, JournalError
from pi_app.web.server import App
from pi_app.web.source import Source
from rules.core import State
from tests.web.play import Table

WEEK = 7 * 24 * 3600
NIGHTS = 40  # three games a night, a night a week


def read_bytes() -> int:
    """What this process has read from files so far (``rchar``)."""
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("rchar:"):
            return int(line.split()[1])
    raise AssertionError("no rchar in /proc/self/io")


@pytest.fixture(scope="module")
def many(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """NIGHTS nights of three finished games (copies of three played ones,
    a week apart), then tonight's game, going on."""
    path = tmp_path_factory.mktemp("many") / "journal.sqlite"
    journal = Journal(path)
    for game, players, seed in (("mordred", 3, 3), ("king-and-assassins", 2, 4), ("siege", 2, 5)):
        table = Table(journal, game, players, seed)
        table.run()
    journal.close()
    with sqlite3.connect(path) as db:
        for night in range(1, NIGHTS):
            for game_id in (1, 2, 3):
                new = night * 3 + game_id
                db.execute("INSERT INTO games (id, game, players, seed, options, started, ended, names) "
                           "SELECT ?, game, players, seed, options, started + ?, ended + ?, names "
                           "FROM games WHERE id = ?", (new, night * WEEK, night * WEEK, game_id))
                db.execute("INSERT INTO moves SELECT ?, n, seat, move, chance, barrier, at + ?, snapshot "
                           "FROM moves WHERE game_id = ?", (new, night * WEEK, game_id))
        back = NIGHTS * WEEK  # the last of them a week ago
        db.execute("UPDATE games SET started = started - ?, ended = ended - ?", (back, back))
    db.close()
    journal = Journal(path)
    tonight = Table(journal, "artus", 2, seed=6)
    tonight.run(10)
    journal.close()
    return path


def states_alive() -> int:
    gc.collect()
    return sum(1 for o in gc.get_objects() if isinstance(o, State))


def test_the_page_replays_what_it_shows_not_every_game(many: Path) -> None:
    size = many.stat().st_size
    before_states = states_alive()
    before = read_bytes()
    source = Source(many)
    try:
        source.refresh()
        app = App(source)
        home = app.respond("/").body.decode()
        read = read_bytes() - before
        assert f"Artus · game {NIGHTS * 3 + 1}" in home
        assert read < size / 4, f"the first page read {read} bytes of a {size}-byte journal"
        assert states_alive() - before_states <= 2  # tonight's game (and no other) followed move by move
        assert "Games tonight" in home and "Earlier nights" in home
        assert f"{NIGHTS * 3 - 10} more earlier games" in home  # the lists are paged
        assert 'href="/earlier/1"' in home
        second = app.respond("/earlier/1").body.decode()
        assert f'href="/game/{NIGHTS * 3 - 10}"' in second and 'href="/earlier/2"' in second
        assert app.respond("/earlier/999").status == 404
        # an old game's page replays it then, and its result is the same in the list and on its page
        report = app.respond("/game/4/report").body.decode()
        assert "Mordred · game 4" in report and "<svg" in report
        for _ in range(20):  # games looked at one after another are not all kept
            app.respond(f"/game/{NIGHTS * 3 - _}")
        assert states_alive() - before_states <= 2
    finally:
        source.close()


def test_opening_the_journal_reads_the_games_not_every_move(many: Path) -> None:
    size = many.stat().st_size
    before = read_bytes()
    journal = Journal(many)
    try:
        record = journal.current()
        assert record is not None and record.game == "artus"
        journal.replay(record)
        assert read_bytes() - before < size / 4
    finally:
        journal.close()
    before = read_bytes()
    Journal(many, readonly=True, whole=True).close()  # `journal check`: every page
    assert read_bytes() - before >= size / 2


def test_a_damaged_old_game_is_found_by_journal_check(many: Path, tmp_path: Path) -> None:
    """What opening no longer reads is still checked where it is read."""
    damaged = tmp_path / "journal.sqlite"
    data = bytearray(many.read_bytes())
    page = 4096
    at = len(data) // 3 // page * page  # a page of an early night's moves
    data[at:at + 16] = b"\xff" * 16
    damaged.write_bytes(bytes(data))
    with pytest.raises(JournalError, match="damaged"):
        Journal(damaged, readonly=True, whole=True).close()
