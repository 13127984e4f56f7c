"""`tablekeeper replay` on every registered game and on bad input."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

import rules
import tests.rules.toy_game as toy
from pi_app.commands.replay import replay
from pi_app.errors import UsageError


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(rules.GAMES, "toy", toy.GAME)


def run_replay(*lines: object) -> list[dict]:
    text = "\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines)
    out = io.StringIO()
    replay(io.StringIO(text), out, "game.jsonl")
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_seeded_chance_moves_and_an_illegal_one() -> None:
    records = run_replay(
        {"game": "toy", "players": 2, "seed": 3},
        {"type": "take", "seat": 0, "n": 2},
        {"type": "take", "seat": 0, "n": 1},
        {"type": "take", "seat": 1, "n": 2},
    )
    chance = [r for r in records if "chance" in r]
    assert [c["chance"]["type"] for c in chance] == ["deal", "deal"]
    # Secret deals are not printed in the shared transcript.
    assert all(c["events"] == [] for c in chance)
    verdicts = [r for r in records if "n" in r]
    assert [v["ok"] for v in verdicts] == [True, False, True]
    assert verdicts[1]["code"] == "toy.turn.not-yours" and verdicts[1]["rule"] == "Turno"
    assert records[-1]["outcome"] is None and records[-1]["view"]["pile"] == 3


def test_chance_from_file_to_the_end() -> None:
    moves = [{"type": "deal", "value": 3}, {"type": "deal", "value": 1}]
    moves += [{"type": "take", "seat": s % 2, "n": 2} for s in range(3)]
    moves += [{"type": "take", "seat": 1, "n": 1}]
    records = run_replay({"game": "toy", "players": 2, "seed": 0, "chance": "file"}, *moves)
    assert all(r["ok"] for r in records[:-1])
    assert records[-1]["outcome"]["winners"] == [1]


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ((), "empty file"),
        (("not json",), "game.jsonl:1: not JSON"),
        (({"game": "chess", "players": 2},), "unknown game 'chess'"),
        (({"game": "toy", "players": 9},), "9 players is not allowed"),
        (({"game": "toy", "players": 2, "colour": "red"},), "unknown header field"),
        (({"game": "toy", "players": 2, "chance": "dice"},), '"chance" must be'),
        (({"game": ["toy"], "players": 2},), '"game" must be one of'),
        (({"game": "toy", "players": 2, "options": []},), '"options" must be an object'),
        (({"game": "toy", "players": "two"},), "'two' players is not allowed"),
        (({"game": "toy", "players": 2}, "", {"type": "fly"}), "game.jsonl:3: not a toy move"),
    ],
)
def test_malformed_input_names_the_line(lines: tuple, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        run_replay(*lines)


def test_command_exits_2_without_traceback(tmp_path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"game": "king-is-dead", "players": 3}\n{"type"\n')
    proc = subprocess.run([sys.executable, "-m", "pi_app", "replay", str(bad)],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and "bad.jsonl" in proc.stderr
    missing = subprocess.run([sys.executable, "-m", "pi_app", "replay", str(tmp_path / "nope.jsonl")],
                             capture_output=True, text=True)
    assert missing.returncode == 2 and "cannot read" in missing.stderr
    binary = tmp_path / "journal.sqlite"
    binary.write_bytes(b"SQLite format 3\x00\xff\xfe\x80")
    proc = subprocess.run([sys.executable, "-m", "pi_app", "replay", str(binary)],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and "not a text file" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("game_id", [g for g in rules.GAMES if g != "toy"])
def test_every_game_replays_a_seeded_playout(game_id: str) -> None:
    game = rules.get(game_id)
    players = game.player_counts[0]
    state = game.new_game(players=players, seed=11)
    moves = []
    while state.to_move() is not None and len(moves) < 300:
        move = state.sample_chance() if state.is_chance() else state.legal_moves()[0]
        if not state.is_chance():
            moves.append(move.to_json())
        state.apply(move)
    records = run_replay({"game": game_id, "players": players, "seed": 11}, *moves)
    assert all(r["ok"] for r in records if "n" in r)
    assert records[-1]["view"] == json.loads(json.dumps(state.view(None)))
