"""`tablekeeper journal check | export`: every game replayed, nothing written,
secrets hidden until the game is over, and a finished game's jsonl replays."""

from __future__ import annotations

import hashlib
import io
import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

import rules
from pi_app import games as table_games
from pi_app.cli import main
from pi_app.commands.replay import replay
from pi_app.store import export
from pi_app.store.journal import GameRecord, Journal, is_barrier
from rules.core import State

# (game, players, options): one of each game; the cut is where the unfinished copy stops
GAMES = [("king-is-dead", 3, {}), ("king-and-assassins", 2, {}), ("mordred", 3, {}),
         ("artus", 3, {"mode": "advanced"}), ("siege", 2, {})]
CUTS = (1, 9, 30)


def play_into(journal: Journal, game_id: str, players: int, seed: int, options: dict[str, Any] | None = None,
              upto: int | None = None) -> tuple[GameRecord, State]:
    """A seeded random game journalled as the session journals it (chance
    steps with no seat, every move with its snapshot)."""
    state = rules.get(game_id).new_game(players, seed, options or {})
    record = journal.start(game_id, players, seed, state.options)
    rng = random.Random(seed)
    while state.outcome() is None and (upto is None or len(state.history) < upto):
        seat, chance = state.to_move(), state.is_chance()
        move = state.sample_chance() if chance else rng.choice(state.legal_moves())
        n = len(state.history)
        events = state.apply(move)
        journal.append(record, n, None if chance else seat, move, chance, is_barrier(chance, events), state)
    if state.outcome() is not None:
        journal.end(record)
    return record, state


def digest(path: Path) -> dict[str, str]:
    """The bytes of a journal and of its -wal, as hashes (a -shm is SQLite's
    shared memory, rebuilt by any reader, not content)."""
    out = {}
    for p in (path, Path(f"{path}-wal")):
        if p.exists() and p.stat().st_size:
            out[p.name] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[int, tuple[GameRecord, State]]]:
    """One journal: every game finished, then cut copies of each unfinished."""
    path = tmp_path_factory.mktemp("journal") / "journal.sqlite"
    journal = Journal(path)
    journal.db.execute("PRAGMA synchronous=OFF")  # building the fixture only
    games = {}
    for seed, (game, players, options) in enumerate(GAMES, start=3):
        record, state = play_into(journal, game, players, seed, options)
        assert state.outcome() is not None
        games[record.id] = (record, state)
    for seed, (game, players, options) in enumerate(GAMES, start=3):
        for cut in CUTS:
            record, state = play_into(journal, game, players, seed, options, upto=cut)
            games[record.id] = (record, state)
    journal.close()
    return path, games


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


def test_check_replays_every_game_and_changes_nothing(played, capsys):
    path, games = played
    before = digest(path)
    code, out, err = run(capsys, "journal", "check", str(path))
    assert code == 0, err
    lines = out.splitlines()
    assert len(lines) == len(games)
    for line, (gid, (record, state)) in zip(lines, sorted(games.items()), strict=True):
        status = "finished" if state.outcome() is not None else "unfinished"
        assert line == (f"game {gid}  {record.game}  {record.players} players  {len(state.history)} moves  "
                        f"{status}  OK")
    assert digest(path) == before


def test_check_finds_the_state_dir_journal(played, capsys, tmp_path):
    path, games = played
    (tmp_path / "journal.sqlite").write_bytes(path.read_bytes())
    code, out, _ = run(capsys, "journal", "check", "--state-dir", str(tmp_path))
    assert code == 0 and len(out.splitlines()) == len(games)


def test_check_reads_a_journal_the_daemon_is_writing(tmp_path, capsys):
    """The daemon keeps its journal open (moves in the -wal, not yet in the
    file): check sees them and writes neither file."""
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    play_into(journal, "mordred", 3, 1, upto=20)
    assert Path(f"{path}-wal").stat().st_size > 0
    before = digest(path)
    code, out, _ = run(capsys, "journal", "check", str(path))
    assert code == 0 and "20 moves  unfinished  OK" in out
    assert digest(path) == before
    play_into(journal, "mordred", 3, 2, upto=5)  # the daemon goes on writing
    journal.close()


def tamper(path: Path, sql: str, *params: Any) -> None:
    db = sqlite3.connect(path)
    db.execute(sql, params)
    db.commit()
    db.close()


@pytest.mark.parametrize(("game", "players", "finished"), [("king-is-dead", 3, False), ("siege", 2, True)])
def test_check_names_the_file_the_game_the_move_and_what_to_do(tmp_path, capsys, game, players, finished):
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    play_into(journal, "mordred", 3, 1, upto=10)
    record, _ = play_into(journal, game, players, 4, upto=None if finished else 25)
    journal.close()
    tamper(path, "UPDATE moves SET move = ? WHERE game_id = ? AND n = 7", '{"type": "nonsense"}', record.id)
    before = digest(path)
    code, out, err = run(capsys, "journal", "check", str(path))
    assert code == 2
    assert out.splitlines()[0].endswith("OK")
    assert f"game {record.id}  {game}" in out.splitlines()[1] and "FAULT" in out.splitlines()[1]
    assert str(path) in err and f"game {record.id} move 7" in err
    assert ("move the file aside" in err) != finished
    assert ("still runs" in err) == finished
    assert digest(path) == before


def test_check_names_a_snapshot_that_disagrees(tmp_path, capsys):
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    record, _ = play_into(journal, "artus", 2, 1, upto=12)
    journal.close()
    tamper(path, "UPDATE moves SET snapshot = '{}' WHERE game_id = ? AND n = 11", record.id)
    code, out, err = run(capsys, "journal", "check", str(path))
    assert code == 2 and "FAULT" in out
    assert f"game {record.id} replays to a state other than the one recorded after move 11" in err


def test_check_refuses_a_missing_journal(tmp_path, capsys):
    code, _, err = run(capsys, "journal", "check", "--state-dir", str(tmp_path))
    assert code == 2 and str(tmp_path / "journal.sqlite") in err and "does not exist" in err
    assert not (tmp_path / "journal.sqlite").exists()


# -- export ---------------------------------------------------------------------
def expected_secret(game: str, move: dict[str, Any]) -> bool:
    """The moves each game's rules keep secret, from its NOTATION.md (an
    independent statement of what export.secret_seat reads from adapters)."""
    if game == "artus":
        return move["type"] == "card"  # "only the drawer sees it"
    if game == "siege":  # a draw from the normal deck goes to the hand; an event card is played at once
        from rules.siege.data import CARDS

        return move["type"] == "draw" and CARDS[move["card"]].kind != "event"
    if game == "king-and-assassins":
        return move["type"] == "choose"
    return False  # The King is Dead, Mordred: every move is made in front of the table


def test_export_hides_secrets_until_the_game_is_over(played, capsys):
    path, games = played
    hidden_seen = 0
    for gid, (record, state) in games.items():
        over = state.outcome() is not None
        code, out, _ = run(capsys, "journal", "export", str(path), "--game", str(gid))
        assert code == 0
        lines = out.splitlines()
        assert lines[0].startswith(f"game {gid}: ")
        assert f"({record.game}), {record.players} players" in lines[0]
        assert lines[1] == f"options: {json.dumps(state.options, sort_keys=True)}"
        assert lines[2].startswith("started: 20")
        assert (lines[3] == f"seed: {record.seed}") == over
        body = lines[lines.index("") + 1:]
        moves = body[:len(state.history)]
        assert body[len(state.history):][0] == ""
        assert body[-1].startswith("outcome: ") and ("none yet" in body[-1]) != over
        for n, (line, move) in enumerate(zip(moves, state.history, strict=True), start=1):
            notation = json.dumps(move.to_json(), ensure_ascii=False, sort_keys=True)
            assert line.startswith(f"{n:4}  ")
            secret = expected_secret(record.game, move.to_json())
            if secret and not over:
                hidden_seen += 1
                assert line.endswith("(hidden until the game is over)") and notation not in line
                assert "drew a card" in line or "made a secret choice" in line
            else:
                assert line.endswith(notation), line
    assert hidden_seen > 10


def test_export_defaults_to_the_latest_game(played, capsys):
    path, games = played
    latest = max(games)
    _, out, _ = run(capsys, "journal", "export", str(path))
    assert out.startswith(f"game {latest}: ")
    code, _, err = run(capsys, "journal", "export", str(path), "--game", "999")
    assert code == 2 and "no game 999" in err and str(path) in err


def test_a_secret_seat_is_its_drawer(played):
    path, played_games = played
    journal = Journal(path, readonly=True)
    for gid, (record, _) in played_games.items():
        if record.game != "siege":
            continue
        log = export.read(journal, journal.game(gid))
        adapter = table_games.for_game("siege", 2, "en")
        for line in log.moves:
            # the adapter's own transcript word for such a draw agrees
            assert line.secret == (adapter.record_text(line.move, "en") == "a card drawn")
            if line.secret:
                assert line.seat in (0, 1) and line.chance
    journal.close()


def test_finished_jsonl_replays_to_the_same_outcome(played, capsys, tmp_path):
    path, games = played
    for gid, (record, state) in games.items():
        if state.outcome() is None:
            continue
        code, out, _ = run(capsys, "journal", "export", str(path), "--game", str(gid), "--format", "jsonl")
        assert code == 0
        header = json.loads(out.splitlines()[0])
        assert header == {"game": record.game, "players": record.players, "seed": record.seed,
                          "options": state.options, "chance": "file"}
        assert len(out.splitlines()) == 1 + len(state.history)
        log = tmp_path / f"{gid}.jsonl"
        log.write_text(out)
        code, verdicts, err = run(capsys, "replay", str(log))
        assert code == 0, err
        records = [json.loads(line) for line in verdicts.splitlines()]
        assert all(r["ok"] for r in records[:-1])
        assert records[-1] == json.loads(json.dumps({"outcome": state.outcome().to_json(),
                                                     "view": state.view(None)}))


def test_unfinished_jsonl_keeps_its_secrets(played, capsys):
    path, games = played
    for gid, (record, state) in games.items():
        if state.outcome() is not None:
            continue
        _, out, _ = run(capsys, "journal", "export", str(path), "--game", str(gid), "--format", "jsonl")
        lines = [json.loads(line) for line in out.splitlines()]
        assert "seed" not in lines[0]
        for line, move in zip(lines[1:], state.history, strict=True):
            if expected_secret(record.game, move.to_json()):
                assert set(line) == {"hidden"}
            else:
                assert line == move.to_json()
        if not any("hidden" in line for line in lines[1:]):  # nothing secret yet: it replays
            verdicts = io.StringIO()
            replay(out.splitlines(), verdicts, "export")
            assert verdicts.getvalue().splitlines()[-1].startswith('{"outcome": null')
