"""A board run played out from games already played (bench/board_sim.py):
the same order and cap as the run, on a clock of the games' CPU seconds."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bench import board_sim as sim
from bench import board_strength as bs
from bench.sequential import judge
from tests.test_bench_board import _a_record, _plan, _recorded

PAIR = "^mordred 3p (hard vs normal|normal vs easy) @Pi 4$"
HARD, EASY = "mordred 3p hard vs normal @Pi 4", "mordred 3p normal vs easy @Pi 4"


def _games(cells: list[bs.BoardCell], share: float, cpu: float,
           count: int) -> dict[str, dict[int, bs.GameRecord]]:
    return {c.name: {i: bs.GameRecord(**{**_a_record(), "cell": c.name, "index": i, "share": share,
                                         "cpu_seconds": cpu}) for i in range(count)} for c in cells}


def test_one_shard_played_out_gathers_the_games_the_run_takes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The run, taking every game from earlier results, and the simulation of
    it stop at the same looks: the easy cell met at 24, the even one taken to
    48, its look at 88 not begun as the cap leaves too little."""
    earlier, results = tmp_path / "earlier", tmp_path / "r"
    _plan(earlier)
    _plan(results)
    _recorded(earlier, HARD, [1.0, 0.0] * 44, cpu=0.2)
    _recorded(earlier, EASY, [1.0] * 88, cpu=0.1)
    monkeypatch.setattr(bs, "game_costs", lambda cells, plan: {HARD: 0.2, EASY: 0.1})
    monkeypatch.setattr(bs, "play", lambda *_: pytest.fail("a game was played"))
    assert bs.run(results, (1, 1), PAIR, False, cap=15.0, reuse=earlier) == 0
    code = bs.code_of(bs.load_plan(results, lambda _: None))
    ran = bs.gathered(results, code, [])
    cells, games = bs.gathered_cells(earlier, PAIR)
    out = sim.simulate(cells, games, cap=15.0, shards=1)
    assert {n: sorted(g) for n, g in out.games.items()} == {n: sorted(g) for n, g in ran.items()}
    assert (len(out.games[EASY]), len(out.games[HARD]), out.drawn) == (24, 48, 0)
    assert out.verdicts(cells) == {EASY: "met", HARD: "undecided"}


def test_two_shards_winning_every_game_meet_each_cell_at_its_first_deciding_look() -> None:
    cells = bs.board_cells("^artus 2p normal @Pi 4 vs (random|greedy)$|" + PAIR)
    out = sim.simulate(cells, _games(cells, 1.0, 0.5, 176), cap=1e9, shards=2)
    assert set(out.verdicts(cells).values()) == {"met"}
    for c in cells:
        assert len(out.games[c.name]) == judge([1.0] * 176, c.target(), c.looks()).games
    assert out.drawn == 0 and out.cpu == pytest.approx(0.5 * sum(len(g) for g in out.games.values()))


def test_the_cap_stops_the_shards_and_a_slower_machine_gathers_fewer_games() -> None:
    cells = bs.board_cells(PAIR)
    games = _games(cells, 0.5, 1.0, 88)
    fast = sim.simulate(cells, games, cap=40.0, shards=2)
    slow = sim.simulate(cells, games, cap=40.0, shards=2, speed=2.0)
    assert fast.cpu <= 40.0 + 2 * 1.0 and slow.cpu <= 40.0 + 2 * 2.0
    count = [sum(len(g) for g in o.games.values()) for o in (fast, slow)]
    assert count[1] < count[0]
    assert all(r.cpu_seconds == 2.0 for g in slow.games.values() for r in g.values())


def test_a_game_the_gathered_lack_is_drawn_from_its_cell_s_own() -> None:
    cells = bs.board_cells(PAIR)
    games = _games(cells, 1.0, 0.1, 12)
    games[HARD] = {i: bs.GameRecord(**{**_a_record(), "cell": HARD, "index": i, "share": float(i % 2),
                                       "cpu_seconds": 0.1 + i}) for i in range(12)}
    out = sim.simulate(cells, games, cap=1e9, shards=2, rng=random.Random(3))
    assert out.drawn > 0
    pool = {(r.share, r.cpu_seconds) for r in games[HARD].values()}
    assert {(r.share, r.cpu_seconds) for r in out.games[HARD].values()} <= pool
    again = sim.simulate(cells, games, cap=1e9, shards=2, rng=random.Random(3))
    assert again == out


def test_resampled_runs_say_how_often_each_cell_and_the_two_sided_ladder_are_decided() -> None:
    cells = bs.board_cells("^siege 2p (hard vs normal|normal vs easy) @Pi 4$")
    assert sim.two_sided_ladder(cells) == [c.name for c in cells]
    t = sim.tally(cells, _games(cells, 1.0, 0.1, 12), cap=1e9, runs=3)
    assert t.decided == {c.name: 3 for c in cells} and t.undecided == [0, 0, 0] and t.ladder == [True] * 3
    even = sim.tally(cells, _games(cells, 0.6, 0.1, 12), cap=1e9, runs=2)
    assert even.ladder == [False, False] and even.undecided == [2, 2]
    text = "\n".join(sim.lines(cells, _games(cells, 1.0, 0.1, 12), cap=1e9, runs=2))
    assert "at most a third (0) in 2 of 2 runs" in text and "decided in every game in 2 of 2" in text
