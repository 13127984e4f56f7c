from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest

from pi_app.simulated.autoplay import choose
from pi_app.store.journal import Journal, JournalError, Pending, is_barrier
from rules.core import Event
from tests.pi_app.fakegame import mv


def test_wal_full_and_roundtrip(tmp_path, fake_game):
    j = Journal(tmp_path / "j.sqlite")
    assert j.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert j.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    rec = j.start(fake_game, 2, 7, {})
    j.append(rec, 0, None, mv(type="roll", value=5), True, True)
    j.append(rec, 1, 0, mv(type="play", card="two"), False, False)
    j.close()
    j = Journal(tmp_path / "j.sqlite")
    rec = j.current()
    state = j.replay(rec)
    assert state.pile == 3 and state.scores == [2, 0]
    assert j.drop_last(rec).move == {"type": "play", "card": "two"}
    assert j.replay(rec).pile == 5


def test_barriers():
    assert is_barrier(True, [])
    assert is_barrier(False, [Event("peek", {}, audience=(1,))])
    assert not is_barrier(False, [Event("passed", {})])


def test_not_a_database_is_refused(tmp_path):
    path = tmp_path / "j.sqlite"
    path.write_bytes(b"this is no database at all" * 100)
    with pytest.raises(JournalError, match=rf"{path}.*not usable"):
        Journal(path)
    assert path.read_bytes().startswith(b"this is no database")


def test_wrong_schema_is_refused(tmp_path):
    path = tmp_path / "j.sqlite"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE games (x)")
    db.execute("PRAGMA user_version=2")
    db.commit()
    db.close()
    with pytest.raises(JournalError, match="table 'games' has columns"):
        Journal(path)


def test_move_that_no_longer_applies_is_refused(tmp_path, fake_game):
    j = Journal(tmp_path / "j.sqlite")
    rec = j.start(fake_game, 2, 0, {})
    j.append(rec, 0, None, mv(type="roll", value=5), True, True)
    j.db.execute("""INSERT INTO moves VALUES (?, 1, 0, '{"type": "fly"}', 0, 0, 0, NULL)""", (rec.id,))
    with pytest.raises(JournalError, match=r"move 1 \{\"type\": \"fly\"\} does not apply"):
        j.replay(rec)


def test_resume_proves_it_rebuilt_the_recorded_state(tmp_path, fake_game):
    import rules

    j = Journal(tmp_path / "j.sqlite")
    rec = j.start(fake_game, 2, 0, {})
    state = rules.get(fake_game).new_game(2, 0)
    for move in (mv(type="roll", value=5), mv(type="play", card="two")):
        state.apply(move)
        j.append(rec, len(state.history) - 1, None, move, False, False, state)
    assert j.replay(rec).to_json() == state.to_json()
    # a journal whose snapshot disagrees with the replay (a changed engine) is refused
    j.db.execute("UPDATE moves SET snapshot = ? WHERE n = 1", ('{"pile": 99}',))
    with pytest.raises(JournalError, match="replays to a state other than the one recorded after move 1"):
        j.replay(rec)


def test_an_older_schema_is_refused_with_its_version(tmp_path):
    path = tmp_path / "j.sqlite"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE games (x)")
    db.execute("PRAGMA user_version=1")
    db.commit()
    db.close()
    with pytest.raises(JournalError, match="schema version 1, this Tablekeeper reads versions 2, 3"):
        Journal(path)


def test_an_unfinished_siege_game_of_the_older_notation_resumes(rig):
    """A box upgraded mid-game: its journal holds a Siege game recorded
    before cards named their place in the row (``at``) and before the
    players named the Horn of Joshua's wall, with the older engine's
    snapshot. It resumes where it was: the older engine's picks made, the
    fields that engine knew as it recorded them, and the game goes on."""
    older = json.loads((Path(__file__).parents[2] / "rules/siege/older/journal-23.json").read_text())
    j = Journal(rig(2).tmp / "journal.sqlite")
    rec = j.start("siege", older["players"], older["seed"], {})
    entries, last = older["entries"], json.dumps(older["snapshot"], sort_keys=True)
    j.append_many(rec, [Pending(n, e["seat"], e["move"], e["chance"], e["barrier"],
                                last if n == len(entries) - 1 else None)
                        for n, e in enumerate(entries)])
    j.close()
    r = rig(2)
    s = r.open()  # resume: the journal replays and its snapshot is checked
    now = json.loads(json.dumps(s.scene.state.to_json()["state"], sort_keys=True))
    assert {k: v for k, v in now.items() if k in older["snapshot"]} == older["snapshot"]
    assert now["phase"] == "play" and "castle_walls-10" not in now["rows"][1]["r1"]  # the Horn's wall is gone
    rng = random.Random(23)
    for _ in range(5):
        if s.scene.state.outcome() is None and not s.scene.state.is_chance():
            r.make(s.scene.state.to_move(), choose(s, rng))
    assert len(r.journal.entries(r.journal.current())) > len(entries)


def test_refusals_are_kept_best_effort_and_read_back(tmp_path):
    """The night's report counts the refusals the table said (pi_app.web)."""
    from pi_app.store.journal import Journal

    path = tmp_path / "j.sqlite"
    journal = Journal(path)
    record = journal.start("mordred", 3, 1, {})
    assert journal.refusals(record) == []
    assert journal.refused(record, 2, "table.not-your-turn", "Turno")
    assert journal.refusals(record) == [("Turno", "table.not-your-turn")]
    assert journal.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL again for the moves
    journal.close()
    reader = Journal(path, readonly=True)
    assert reader.refusals(record) == [("Turno", "table.not-your-turn")]
    assert not reader.refused(record, 0, "x", "y")  # not kept, and no error: a refusal is no move
    reader.close()
