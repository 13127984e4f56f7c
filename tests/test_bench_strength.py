"""The strength run in shards (bench/bench_players.py, bench/strength_results.py):
every game played once across the shards, a rerun going on where it stopped,
a torn last line set aside with its file and line, games of other code kept
out of the table, and the table the same as playing the games directly.
A tiny cell at a tiny budget: the figures themselves are for bench/."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bench import bench_players as bp
from bench.strength_results import (
    ResultsError,
    ResultsWriter,
    fingerprint,
    parse_shard,
    read_results,
    shard_of,
)
from players import Budget

ROOT = Path(__file__).resolve().parents[1]
CELL = "^artus 2p mode=beginner vs random$"
BUDGET = Budget(iterations=3, seconds=None)
GAMES = 6


def run(results: Path, games: int = GAMES, shard: tuple[int, int] = (1, 1)) -> int:
    return bp.run_shard(results, games, shard, CELL, BUDGET)


def lines(results: Path) -> list[dict]:
    return [json.loads(line) for path in sorted(results.glob("*.jsonl"))
            for line in path.read_text().splitlines()]


def test_shards_play_every_game_of_every_cell_once() -> None:
    names = [c.name for c in bp.strength_cells()]
    assert len(names) == len(set(names)) == 36
    pairs = [(name, i) for name in names for i in range(200)]
    for n in (1, 2, 3, 7):
        owners = [shard_of(name, i, n) for name, i in pairs]
        assert set(owners) == set(range(1, n + 1))
        # Each shard's share of a cell's games is near 200/n: no shard gets a whole cell.
        for k in range(1, n + 1):
            share = sum(o == k for (name, _), o in zip(pairs, owners, strict=True) if name == names[0])
            assert abs(share - 200 / n) < 0.3 * 200 / n + 5


def test_three_shards_into_one_directory_hold_each_game_exactly_once(tmp_path: Path) -> None:
    for k in (1, 2, 3):
        assert run(tmp_path, shard=(k, 3)) == 0
    got = [(r["cell"], r["index"]) for r in lines(tmp_path)]
    assert sorted(got) == [("artus 2p mode=beginner vs random", i) for i in range(GAMES)]
    for path in tmp_path.glob("*.jsonl"):
        k = int(path.name.split("-shard-")[1].split("-of-")[0])
        records = map(json.loads, path.read_text().splitlines())
        assert all(shard_of(r["cell"], r["index"], 3) == k for r in records)


def test_a_rerun_plays_only_the_games_not_yet_in_the_directory(tmp_path: Path) -> None:
    run(tmp_path, games=4)
    first = lines(tmp_path)
    assert [r["index"] for r in first] == [0, 1, 2, 3]
    run(tmp_path, games=GAMES)
    assert lines(tmp_path)[:4] == first
    assert [r["index"] for r in lines(tmp_path)] == [0, 1, 2, 3, 4, 5]
    run(tmp_path, games=GAMES)
    assert len(lines(tmp_path)) == GAMES


def test_a_stop_loses_only_the_game_in_progress(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    played = bp.one_game
    calls: list[int] = []

    def stopped_at_the_third(cell: bp.Cell, index: int, budget: Budget) -> bp.Played:
        calls.append(index)
        if len(calls) == 3:
            raise KeyboardInterrupt  # Ctrl-C, or SIGTERM from `timeout`, in the middle of a game
        return played(cell, index, budget)

    monkeypatch.setattr(bp, "one_game", stopped_at_the_third)
    assert run(tmp_path) == 130
    assert [r["index"] for r in lines(tmp_path)] == [0, 1]
    monkeypatch.setattr(bp, "one_game", played)
    assert run(tmp_path) == 0
    assert [r["index"] for r in lines(tmp_path)] == list(range(GAMES))


def test_two_runs_cannot_write_one_file(tmp_path: Path) -> None:
    with ResultsWriter(tmp_path / "a.jsonl"), pytest.raises(ResultsError, match="another process is writing"):
        ResultsWriter(tmp_path / "a.jsonl")


def test_a_record_says_the_cell_the_seeds_the_winners_the_moves_and_the_code() -> None:
    cell = bp.strength_cells(CELL)[0]
    game = bp.one_game(cell, 3, BUDGET)
    r = bp.record(cell, 3, game, BUDGET, "abc")
    assert (r.cell, r.index, r.seed, r.bot_seat, r.bot_seed) == (cell.name, 3, 1003, 1, 3)
    assert r.winners == [s for s, v in enumerate(r.result) if v > 0] and r.share == r.result[1]
    assert r.moves > r.computer_moves > 0 and (r.iterations, r.time_limit, r.fingerprint) == (3, None, "abc")


def test_a_torn_last_line_is_set_aside_with_its_file_and_line_and_the_rest_counted(tmp_path: Path) -> None:
    run(tmp_path, games=3)
    (path,) = tmp_path.glob("*.jsonl")
    whole = path.read_text()
    path.write_text(whole + whole.splitlines()[0][:40])  # a stop in the middle of writing a fourth game
    warn: list[str] = []
    assert [r.index for r in read_results(tmp_path, warn)] == [0, 1, 2]
    assert warn == [f"{path}, line 4: a torn last line (a game being written when the run stopped) "
                    f"is not counted; that game will be played again"]
    rows, notes = bp.report(tmp_path, 3, CELL, fingerprint(3, None))
    assert "over 3 of 3 games" in rows[0].note and any("line 4: a torn last line" in n for n in notes)
    # Going on cuts the torn line off and appends whole lines after the good ones.
    run(tmp_path, games=4)
    assert path.read_text().startswith(whole) and [r["index"] for r in lines(tmp_path)] == [0, 1, 2, 3]


def test_a_damaged_line_before_the_last_is_refused_with_its_file_and_line(tmp_path: Path) -> None:
    run(tmp_path, games=3)
    (path,) = tmp_path.glob("*.jsonl")
    good = path.read_text().splitlines()
    path.write_text("\n".join([good[0], good[1][:30], good[2]]) + "\n")
    with pytest.raises(ResultsError, match=rf"^{path}, line 2: not a JSON line"):
        read_results(tmp_path, [])
    record = json.loads(good[1])
    del record["share"]
    path.write_text("\n".join([good[0], json.dumps(record), good[2]]) + "\n")
    with pytest.raises(ResultsError, match=rf"^{path}, line 2: a game record lacks share$"):
        read_results(tmp_path, [])
    done = subprocess.run([sys.executable, "-m", "bench.bench_players", "report", "--results", str(tmp_path),
                           "--iterations", "3", "--cells", CELL], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 2 and f"{path}, line 2: a game record lacks share" in done.stderr


def test_the_fingerprint_follows_the_play_sources_the_budget_and_python(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for folder in ("rules", "players"):
        shutil.copytree(ROOT / folder, tmp_path / folder, ignore=shutil.ignore_patterns("__pycache__"))
    before = fingerprint(2000, None, tmp_path)
    assert before == fingerprint(2000, None, ROOT)
    assert len({before, fingerprint(1999, None, tmp_path), fingerprint(2000, 0.9, tmp_path)}) == 3
    with monkeypatch.context() as m:
        m.setattr(sys, "version_info", (3, 99, 0))
        assert fingerprint(2000, None, tmp_path) != before
    ranking = tmp_path / "players" / "simple.py"
    ranking.write_text(ranking.read_text() + "\n# one changed byte decides nothing, but it is other code\n")
    changed = fingerprint(2000, None, tmp_path)
    assert changed != before
    (tmp_path / "players" / "__pycache__").mkdir(exist_ok=True)
    (tmp_path / "players" / "__pycache__" / "simple.cpython-311.pyc").write_bytes(b"compiled")
    assert fingerprint(2000, None, tmp_path) == changed  # what Python caches is not a source


def test_games_of_other_code_are_set_apart_and_played_again(tmp_path: Path) -> None:
    run(tmp_path, games=4)
    (path,) = tmp_path.glob("*.jsonl")
    records = lines(tmp_path)
    records[1]["fingerprint"] = "0123456789abcdef"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    rows, notes = bp.report(tmp_path, 4, CELL, fingerprint(3, None))
    assert "over 3 of 4 games" in rows[0].note
    assert any("set apart, not counted: 1 games of 0123456789abcdef" in n for n in notes)
    # The old code's game is not this code's: a rerun plays it again.
    run(tmp_path, games=4)
    assert [r["index"] for r in lines(tmp_path)] == [0, 1, 2, 3, 1]
    rows, _ = bp.report(tmp_path, 4, CELL, "0123")  # the old code's games, asked for by its fingerprint
    assert "over 1 of 4 games" in rows[0].note


def test_the_report_equals_playing_the_same_games_directly(tmp_path: Path) -> None:
    for k in (1, 2):
        run(tmp_path, shard=(k, 2))
    rows, notes = bp.report(tmp_path, GAMES, CELL, fingerprint(3, None))
    won, n, _, among = bp.strength("artus", 2, {"mode": "beginner"}, "random", GAMES, BUDGET)
    lo, hi = bp.wilson(won, n)
    (row,) = rows
    assert row.value == pytest.approx(100 * won / n) and row.target == 90.0
    assert f"95% interval {100 * lo:.0f}-{100 * hi:.0f}% over {n} of {GAMES} games" in row.note
    assert f"among the winners in {among}" in row.note
    assert f"by the interval: {bp.verdict(lo, hi, 0.9)}" in row.note
    (counted,) = [n for n in notes if "no game yet" not in n]
    assert counted.startswith(f"counted: {GAMES} of {GAMES} games, the computer at 3 iterations a move "
                              f"(no time limit), finished ")


def test_the_command_line_plays_a_shard_and_reports_it(tmp_path: Path) -> None:
    common = ["--results", str(tmp_path), "--iterations", "3", "--cells", CELL, "--games", "2"]
    for command in (["strength", "--shard", "1/1"], ["report"]):
        done = subprocess.run([sys.executable, "-m", "bench.bench_players", *command, *common], cwd=ROOT,
                              capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == 0, done.stderr
    assert "artus 2p mode=beginner vs random: win share" in done.stdout
    assert f"games of code {fingerprint(3, None)}" in done.stdout


def test_a_shard_is_k_of_n() -> None:
    assert parse_shard("2/4") == (2, 4)
    for bad in ("0/4", "5/4", "2", "a/b", "-1/3"):
        with pytest.raises(ValueError, match="a shard is K/N"):
            parse_shard(bad)
