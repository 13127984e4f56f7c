"""The board strength bench (bench/board_strength.py, bench/sequential.py):
the sequential test decides at its looks only, with the error split between
them; the run plays each shard's games once, goes on where it stopped, stops
a decided cell and says the cost first. Tiny budgets: the figures are for bench/."""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path

import pytest

from bench import board_strength as bs
from bench.sequential import (
    LONG_LOOKS,
    clopper_pearson,
    judge,
    look_errors,
    look_z,
    next_look,
    outlook,
    promise,
    verdict_chances,
)
from bench.sequential import LOOKS as LOOKS_RUN
from players import Level

LOOKS = (4, 8)
CELL = "^mordred 2p normal @Pi 4 vs random$"


def test_the_error_is_spent_late_and_adds_up_to_five_percent() -> None:
    errors = look_errors((12, 24, 48, 88))
    assert sum(errors) == pytest.approx(0.05)
    assert errors == sorted(errors)  # each look spends more than the one before
    assert [round(z, 2) for z in look_z((12, 24, 48, 88))] == [5.31, 3.75, 2.66, 2.03]
    assert look_z((88,)) == [pytest.approx(1.95996, abs=1e-4)]  # one look: the plain 95%


def test_the_exact_interval() -> None:
    lo, hi = clopper_pearson(8, 10, 0.05)
    assert (lo, hi) == (pytest.approx(0.4439, abs=1e-4), pytest.approx(0.9748, abs=1e-4))
    assert clopper_pearson(0, 10, 0.05)[0] == 0.0 and clopper_pearson(10, 10, 0.05)[1] == 1.0
    # a shared win only widens it: the floor's lower end, the ceiling's upper one
    seven, eight = clopper_pearson(7, 10, 0.05), clopper_pearson(8, 10, 0.05)
    assert clopper_pearson(7.5, 10, 0.05) == (seven[0], eight[1])


@pytest.mark.parametrize("looks", [LOOKS_RUN, LONG_LOOKS])
@pytest.mark.parametrize("target", [0.90, 0.65, 0.60, 2 / 3, 0.50, 0.375])
def test_a_side_at_its_target_is_called_either_way_at_most_two_and_a_half_percent_of_the_time(
        target: float, looks: tuple[int, ...]) -> None:
    """A side winning exactly its target's share, over all four looks. With
    Wilson's interval and the error split evenly, a 90% side was called
    missed 4.9% of the time (8 of 12 at the first look was enough)."""
    chances = verdict_chances(target, target, looks)
    assert chances["met"] <= 0.025 and chances["missed"] <= 0.025
    assert sum(chances.values()) == pytest.approx(1.0)


def test_eight_of_twelve_does_not_miss_ninety_percent_at_the_first_look() -> None:
    j = judge([1.0] * 8 + [0.0] * 4, 0.90)
    assert (j.verdict, j.final) == ("undecided", False)


def test_a_cell_is_decided_at_the_first_look_that_decides_and_games_after_it_do_not_count() -> None:
    wins = [1.0] * 96
    j = judge(wins, 0.60, (12, 24, 48))
    assert (j.verdict, j.games, j.final) == ("met", 24, True)
    losses = [0.0] * 30
    assert judge(losses, 0.60, (12, 24)).verdict == "missed"
    # 7 of 12: neither; the later looks not reached yet, so it goes on
    j = judge([1.0] * 7 + [0.0] * 5, 0.60, (12, 24))
    assert (j.verdict, j.final) == ("undecided", False)
    # the last look reached and still straddling: undecided for good
    j = judge([1.0, 0.0, 1.0, 1.0, 0.0] * 5, 0.60, (12, 24))
    assert (j.verdict, j.games, j.final) == ("undecided", 24, True)


def test_the_corrected_interval_is_wider_than_a_single_looks() -> None:
    """18 of 20 at 65%: a single 95% interval would call it met; at the first of four looks it is not yet."""
    assert clopper_pearson(18, 20, 0.05)[0] > 0.65
    assert judge([1.0] * 18 + [0.0] * 2, 0.65, (20, 40, 80, 160)).verdict == "undecided"


def test_next_look() -> None:
    assert [next_look(n, (12, 24, 48)) for n in (0, 12, 13, 47, 60)] == [12, 24, 24, 48, 48]


def test_no_target_no_verdict() -> None:
    assert judge([1.0] * 8, None, LOOKS).verdict == ""


def test_the_outlook_from_a_cell_s_games_so_far() -> None:
    """A side that wins every game meets 90% at 88 games and not before; from
    no games the outlook is the test's own chances."""
    chances, more = outlook(1.0, 0.90, LONG_LOOKS)
    assert (chances["met"], more) == (1.0, 88.0)
    assert outlook(0.7, 0.6, LOOKS_RUN)[0] == verdict_chances(0.7, 0.6, LOOKS_RUN)
    # from 40 of 48 (no look decided yet): the games still to play are counted from there
    chances, more = outlook(0.8, 0.6, LONG_LOOKS, wins=40, played=48)
    assert 40 <= more <= 40 + 88 and sum(chances.values()) == pytest.approx(1.0)


def test_a_cell_far_from_its_target_promises_a_decision_and_one_at_it_does_not() -> None:
    def spread(wins: int, games: int) -> list[float]:  # wins spread evenly, as no look decides early
        return [float((i + 1) * wins // games - i * wins // games) for i in range(games)]

    far, _ = promise(spread(39, 48), 0.60, LONG_LOOKS)  # 81% of 48 against 60%
    at, _ = promise(spread(24, 48), 0.50, LOOKS_RUN)  # 50% of 48 against 50%
    assert far > 0.9 and at < 0.05
    assert promise(spread(39, 48), None, LONG_LOOKS) == (0.0, 0.0)  # no target: nothing to decide
    assert promise([1.0] * 24, 0.6, LOOKS_RUN) == (0.0, 0.0)  # met at 24: decided already


def _plan(results: Path) -> None:
    """A plan at two iterations a move everywhere: no measuring, quick games."""
    results.mkdir()
    groups = {g.name: {"rate_here": 500, "iterations": {b: {lv: 2 for lv in ("easy", "normal", "hard")}
                                                         for b in (bs.PI4, bs.ZERO)}} for g in bs.groups()}
    plan = {"made": "2026-01-01T00:00:00+00:00", "host": "test", "nbody_us_per_step": 3.0,
            "cpu_factor": {bs.PI4: 9.0, bs.ZERO: 27.0}, "think": {"iterations": 2000, "seconds": 0.9},
            "groups": groups}
    (results / bs.PLAN).write_text(json.dumps(plan))


def _games(results: Path) -> list[tuple[str, int]]:
    return sorted((json.loads(line)["cell"], json.loads(line)["index"]) for path in results.glob("*.jsonl")
                  for line in path.read_text().splitlines())


def test_two_shards_play_each_game_once_and_a_rerun_plays_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    results = tmp_path / "r"
    _plan(results)
    assert bs.run(results, (1, 2), CELL, False, LOOKS) == 0
    assert bs.run(results, (2, 2), CELL, False, LOOKS) == 0
    games = _games(results)
    assert len(games) == len(set(games))
    assert {i for _, i in games} >= set(range(4))
    assert max(i for _, i in games) < LOOKS[-1]  # never beyond the last look
    # judged over both shards' games, the cell is final: the same command again plays nothing
    assert bs.run(results, (1, 1), CELL, False, LOOKS) == 0
    assert _games(results) == games
    table = "\n".join(bs.report(results, CELL, LOOKS))
    assert "| mordred 2p normal @Pi 4 vs random | 2 |" in table and "> 90%" in table
    err = capsys.readouterr().err
    assert "cost (estimate" in err and "CPU hours" in err and "iterations a move" in err


def test_the_dry_run_says_the_budgets_and_the_cost_and_plays_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    results = tmp_path / "r"
    _plan(results)
    assert bs.run(results, (1, 1), "^siege 2p", True, LOOKS) == 0
    err = capsys.readouterr().err
    assert "| siege 2p | 500 | 2 / 2 / 2 | 2 |" in err
    assert "6 cells judged at 4, 8 games" in err
    assert _games(results) == []


def test_option_combinations_share_a_cell_and_the_seat_goes_round_each() -> None:
    group = next(g for g in bs.groups() if g.name == "artus 2p")
    assert [o["mode"] for o in group.options] == ["beginner", "advanced"]
    plan_ = {"groups": {group.name: {"iterations": {bs.PI4: {"normal": 1, "easy": 1, "hard": 1}}}}}
    cell = bs.BoardCell(group, "normal", "random", bs.PI4)
    seen = {(bs.play(cell, i, plan_).options["mode"], bs.play(cell, i, plan_).bot_seat) for i in range(4)}
    assert seen == {("beginner", 0), ("advanced", 0), ("beginner", 1), ("advanced", 1)}


def test_a_team_of_two_is_judged_as_one_side_by_the_two_player_targets(tmp_path: Path) -> None:
    """The King is Dead at four players: partners share each win, so a seat
    scored at most half a game and the 4-player targets (1.5 and twice a
    seat's fair share) asked for three quarters and all of its team's games;
    the team is one of two sides, judged as at two players."""
    cells = {c.name: c for c in bs.board_cells("^king-is-dead 4p")}
    assert cells["king-is-dead 4p hard vs normal @Pi 4"].group.sides == 2
    assert cells["king-is-dead 4p hard vs normal @Pi 4"].target() == 0.60
    assert cells["king-is-dead 4p normal @Pi 4 vs random"].target() == 0.90
    assert next(iter(bs.board_cells("^mordred 4p hard"))).target() == pytest.approx(0.375)
    won = bs.GameRecord(**{**_a_record(), "share": 0.5})
    lost = bs.GameRecord(**{**_a_record(), "share": 0.0})
    games = {i: won for i in range(47)} | {47: lost}
    assert bs.shares(games, 2) == [1.0] * 47 + [0.0]
    assert judge(bs.shares(games, 2), 0.60, (12, 24, 48, 88)).verdict == "met"


def _a_record() -> dict:
    return {"cell": "c", "index": 0, "game": "king-is-dead", "players": 4, "options": {},
            "opponent": "normal", "seed": 0, "bot_seat": 0, "bot_seed": 0,
            "result": [0.5, 0, 0.5, 0], "winners": [0, 2],
            "share": 0.5, "moves": 1, "computer_moves": 1, "seconds": 0.1, "cpu_seconds": 0.1,
            "iterations": 1, "time_limit": None, "fingerprint": "f", "host": "h", "finished": "t"}


def test_cheap_cells_and_the_two_sided_ladder_get_a_look_more_than_the_other_ladders() -> None:
    """The ladder at 2 players (and between The King is Dead's two teams) is
    asked decided in every game: it gets the fifth look the cheap cells have."""
    cells = {c.name: c for c in bs.board_cells()}
    assert cells["siege 2p normal @Pi 4 vs random"].looks() == (12, 24, 48, 88, 176)
    assert cells["siege 2p hard vs normal @Pi 4"].looks() == (12, 24, 48, 88, 176)
    assert cells["king-is-dead 4p normal vs easy @Pi 4"].looks() == (12, 24, 48, 88, 176)
    assert cells["mordred 3p hard vs normal @Pi 4"].looks() == (12, 24, 48, 88)


def test_a_run_stops_once_its_games_have_taken_the_cpu_it_was_given(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    results = tmp_path / "r"
    _plan(results)
    # a cap below the first look's estimate: no game is played
    assert bs.run(results, (1, 1), CELL, False, LOOKS, cap=1e-9) == 0
    assert _games(results) == []
    assert "no undecided cell's next look fits" in capsys.readouterr().err
    # the first look fits as estimated, but its first game takes the whole cap: the run stops there
    monkeypatch.setattr(bs, "game_costs", lambda cells, plan: {c.name: 0.01 for c in cells})
    real_play = bs.play
    monkeypatch.setattr(bs, "play", lambda cell, i, plan: dataclasses.replace(real_play(cell, i, plan),
                                                                              cpu_seconds=1.0))
    assert bs.run(results, (1, 1), CELL, False, LOOKS, cap=LOOKS[0] * 0.01) == 0
    assert len(_games(results)) == 1
    assert "CPU hours are spent" in capsys.readouterr().err
    # the same command with the cap that is left goes on where it stopped
    monkeypatch.setattr(bs, "play", real_play)
    assert bs.run(results, (1, 1), CELL, False, LOOKS) == 0
    assert len(_games(results)) > 1 and len(set(_games(results))) == len(_games(results))


def test_the_cells_and_their_targets() -> None:
    cells = {c.name: c for c in bs.board_cells()}
    assert cells["siege 2p normal @Pi 4 vs random"].target() == 0.90
    assert cells["siege 2p normal @Pi Zero 2 W vs greedy"].target() == 0.65
    assert cells["siege 2p hard vs normal @Pi 4"].target() == 0.60
    assert cells["mordred 3p normal vs easy @Pi 4"].target() == pytest.approx(0.5)
    assert cells["artus 4p normal @Pi 4 vs random"].target() == 0.5
    assert not any(n.startswith("artus 4p") and n.endswith("greedy") for n in cells)
    assert len(cells) == 54


def test_a_shard_stops_a_cell_another_shard_decided_while_it_ran(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two shards side by side: a shard used to judge each cell on the games it
    found when it started and its own, so a cell the other shard had decided
    since was played again. Here the other shard's games of the greedy cell
    (every one lost: missed by the last look) are written while this shard
    plays its first game of the random cell; it then plays none of the greedy one."""
    from bench.strength_results import ResultsWriter

    results = tmp_path / "r"
    _plan(results)
    plan = bs.load_plan(results, lambda _: None)
    code = bs.code_of(plan)
    greedy = next(c for c in bs.board_cells("^mordred 2p normal @Pi 4 vs greedy$"))
    real_play = bs.play
    written: list[bool] = []

    def play_beside_another_shard(cell: bs.BoardCell, index: int, plan_: dict) -> bs.BoardGame:
        if not written:
            written.append(True)
            lost = bs.BoardGame([0.0, 1.0], 0, {"unofficial_two_players": True}, 10, 5, 2, 0.1, 0.1)
            with ResultsWriter(results / "board-other-shard.jsonl") as out:
                for i in range(LOOKS[-1]):
                    out.write(bs.record(greedy, i, lost, code))
        return real_play(cell, index, plan_)

    monkeypatch.setattr(bs, "play", play_beside_another_shard)
    assert bs.run(results, (1, 2), "^mordred 2p normal @Pi 4 vs (random|greedy)$", False, LOOKS) == 0
    mine = [json.loads(line) for path in results.glob("board-*-shard-1-of-2.jsonl")
            for line in path.read_text().splitlines()]
    assert written and mine
    assert {r["cell"] for r in mine} == {"mordred 2p normal @Pi 4 vs random"}


def test_a_shard_counts_the_cpu_the_others_spent_while_it_played_against_the_cap(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A shard read the other shards' games only between its steps (a cell's
    games up to its next look), so two shards side by side went on past the
    cap by as much as the other played meanwhile: 248 CPU minutes of 240 and
    going. Here the other shard spends the whole cap while this one plays its
    first game of a step of six; it stops after that game."""
    from bench.strength_results import ResultsWriter

    results = tmp_path / "r"
    _plan(results)
    plan = bs.load_plan(results, lambda _: None)
    code = bs.code_of(plan)
    cell = bs.board_cells(CELL)[0]
    theirs = [i for i in range(12) if bs.shard_of(cell.name, i, 2) == 2]
    played: list[int] = []

    def play_beside_another_shard(cell_: bs.BoardCell, index: int, plan_: dict) -> bs.BoardGame:
        if not played:
            dear = bs.BoardGame([1.0, 0.0], 0, {"unofficial_two_players": True}, 10, 5, 2, 0.1, 100.0)
            with ResultsWriter(results / "board-other-shard.jsonl") as out:
                for i in theirs:
                    out.write(bs.record(cell, i, dear, code))
        played.append(index)
        return bs.BoardGame([1.0, 0.0], 0, {"unofficial_two_players": True}, 1, 1, 2, 0.01, 0.5)

    monkeypatch.setattr(bs, "play", play_beside_another_shard)
    assert len([i for i in range(12) if bs.shard_of(cell.name, i, 2) == 1]) > 1
    assert bs.run(results, (1, 2), CELL, False, (12, 24), cap=100.0) == 0
    assert len(played) == 1


def _recorded(results: Path, cell: str, shares_: list[float], cpu: float) -> None:
    """Games 0, 1, .. of ``cell`` with these shares, as a run of the results' code wrote them."""
    from bench.strength_results import ResultsWriter

    code = bs.code_of(bs.load_plan(results, lambda _: None))
    with ResultsWriter(results / f"board-earlier-{len(list(results.glob('*.jsonl')))}.jsonl") as out:
        for i, share in enumerate(shares_):
            out.write(bs.GameRecord(**{**_a_record(), "cell": cell, "index": i, "players": 3, "share": share,
                                       "cpu_seconds": cpu, "fingerprint": code}))


def test_after_the_first_look_the_cell_likeliest_decided_for_its_cpu_goes_first(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Played a look at a time, cheapest first, the run spent its cap on cells
    that could not be decided (Mordred 3p hard against normal at 50% of 48
    against 50%) and left the close ones a look short. Here two cells have
    played their first look: the dearer one won every game (decided at the
    next), the cheaper one half (no look will decide it); the dearer cell's
    next look is what the cap leaves, and it is played."""
    results = tmp_path / "r"
    _plan(results)
    hard, easy = "mordred 3p hard vs normal @Pi 4", "mordred 3p normal vs easy @Pi 4"
    _recorded(results, hard, [1.0, 0.0] * 2, cpu=0.1)
    _recorded(results, easy, [1.0] * 4, cpu=0.2)
    played: list[str] = []
    monkeypatch.setattr(bs, "play", lambda cell, i, plan: played.append(cell.name) or bs.BoardGame(
        [1.0, 0.0, 0.0], 0, {}, 1, 1, 2, 0.01, 0.2))
    assert bs.run(results, (1, 1), "^mordred 3p (hard vs normal|normal vs easy)", False, LOOKS,
                  cap=4 * 0.2 + 4 * 0.1 + 4 * 0.2 + 0.05) == 0
    assert played == [easy] * 4


def _step_cells() -> tuple[bs.BoardCell, bs.BoardCell, dict[str, dict[int, bs.GameRecord]]]:
    """Two cells at their first look: the dear one won every game (1 s each),
    the cheap one three of four (0.1 s each)."""
    dear, cheap = (next(iter(bs.board_cells(f"^mordred 3p {n}$"))) for n in ("hard vs normal @Pi 4",
                                                                             "normal vs easy @Pi 4"))

    def games(cell: bs.BoardCell, wins: list[float], cpu: float) -> dict[int, bs.GameRecord]:
        return {i: bs.GameRecord(**{**_a_record(), "cell": cell.name, "index": i, "share": w,
                                    "cpu_seconds": cpu}) for i, w in enumerate(wins)}

    return dear, cheap, {dear.name: games(dear, [1.0] * 4, 1.0),
                         cheap.name: games(cheap, [1.0, 1.0, 1.0, 0.0], 0.1)}


def test_a_look_the_cap_leaves_no_cpu_for_is_not_begun_and_a_look_begun_is_finished() -> None:
    """A run capped mid-step had spent 41 of its 240 CPU minutes on games past
    a look that no look after them judged. Here the dear cell's next look (4
    games, 4 s) is likelier decided for its CPU, but the cap leaves 1 s: the
    cheap cell's (0.4 s) is played. Once a look is begun (a game of it
    played, by any shard) its missing games are the cap's first charge."""
    dear, cheap, have = _step_cells()
    costs = {dear.name: 1.0, cheap.name: 0.1}
    assert bs.next_cell([dear, cheap], have, (1, 1), costs, LOOKS).cell == dear
    assert bs.next_cell([dear, cheap], have, (1, 1), costs, LOOKS, left=1.0).cell == cheap
    short = bs.next_cell([dear, cheap], have, (1, 1), costs, LOOKS, left=0.3)
    assert (short.cell, short.short) == (None, True)
    # one of the dear cell's next four games is played: the other three (3 s) come first
    have[dear.name][4] = dataclasses.replace(have[dear.name][0], index=4)
    begun = bs.next_cell([dear, cheap], have, (1, 1), costs, LOOKS, left=3.2)
    assert begun.cell == dear and begun.todo == [5, 6, 7]
    assert bs.next_cell([cheap], have, (1, 1), costs, LOOKS, left=3.2).cell == cheap
    assert bs.next_cell([dear, cheap], have, (1, 1), costs, LOOKS, left=3.5).cell == dear



def test_the_first_of_many_looks_spends_an_error_too_small_for_one_minus_a_tail() -> None:
    """With a last look at 352 games, the look at 12 spends some 1e-26 of the
    error: 1 - Phi rounded it to 0 and the look's z could not be found."""
    z = look_z((12, 24, 48, 88, 176, 352))
    assert len(z) == 6 and all(math.isfinite(v) for v in z) and z == sorted(z, reverse=True)
    assert z[-1] == pytest.approx(2.01, abs=0.01)


def test_games_played_elsewhere_by_the_same_code_are_taken_not_played(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    earlier, results = tmp_path / "earlier", tmp_path / "r"
    _plan(earlier)
    _plan(results)
    cell = "mordred 3p hard vs normal @Pi 4"
    _recorded(earlier, cell, [1.0] * 8, cpu=0.2)
    monkeypatch.setattr(bs, "play", lambda *_: pytest.fail("a game was played"))
    assert bs.run(results, (1, 1), f"^{cell}$", False, LOOKS, reuse=earlier) == 0
    assert [i for c, i in _games(results)] == list(range(8))
    j = judge(bs.shares(bs.gathered(results, bs.code_of(bs.load_plan(results, lambda _: None)), [])[cell]),
              0.5, LOOKS)
    assert (j.verdict, j.games) == ("met", 8)


def test_a_shard_waits_for_a_look_another_running_shard_is_finishing_and_goes_on_when_alone(
        tmp_path: Path) -> None:
    results = tmp_path / "r"
    _plan(results)
    cell = next(iter(bs.board_cells("^mordred 3p hard vs normal")))
    mine = [i for i in range(LOOKS[0]) if bs.shard_of(cell.name, i, 2) == 1]
    record = bs.GameRecord(**{**_a_record(), "cell": cell.name, "share": 1.0})
    have = {cell.name: {i: record for i in mine}}
    beside = bs.next_cell([cell], have, (1, 2), {cell.name: 1.0}, LOOKS, alone=False)
    assert (beside.cell, beside.awaited) == (None, True)
    alone = bs.next_cell([cell], have, (1, 2), {cell.name: 1.0}, LOOKS, alone=True)
    assert alone.cell == cell and alone.look == LOOKS[1]
    assert alone.todo == [i for i in range(LOOKS[0], LOOKS[1]) if bs.shard_of(cell.name, i, 2) == 1]


def test_each_level_gets_the_iterations_its_own_search_speed_buys() -> None:
    """A level searching otherwise (its own reading of the position) is
    measured at its own speed: at half the speed, half the iterations in its time."""
    same = bs.iterations_on({"easy": 1000.0, "normal": 1000.0, "hard": 1000.0}, 2.0)
    slower = bs.iterations_on({"easy": 1000.0, "normal": 1000.0, "hard": 500.0}, 2.0)
    assert same == {"easy": 28, "normal": 112, "hard": 450}
    assert slower == {**same, "hard": 225}


def test_levels_searching_alike_share_one_measurement(monkeypatch: pytest.MonkeyPatch) -> None:
    measured: list[str] = []

    def rate(group: bs.Group, level: str = "normal", count: int = 4, iterations: int = 100) -> float:
        measured.append(level)
        return 1000.0 if level != "hard" else 600.0

    monkeypatch.setattr(bs, "search_rate", rate)
    hard = bs.LEVELS["hard"]
    monkeypatch.setitem(bs.LEVELS, "hard", Level(hard.name, hard.share, hard.temperature, hard.words,
                                                 reads=("mordred",)))
    mordred = next(g for g in bs.groups() if g.game_id == "mordred")
    assert bs.level_rates(mordred) == {"easy": 1000.0, "normal": 1000.0, "hard": 600.0}
    assert measured == ["easy", "hard"]  # easy and normal read Mordred alike: measured once
    artus = next(g for g in bs.groups() if g.game_id == "artus")
    measured.clear()
    assert bs.level_rates(artus) == {"easy": 1000.0, "normal": 1000.0, "hard": 1000.0}
    assert measured == ["easy"]  # every level reads Artus alike


def test_a_level_with_its_own_playout_is_measured_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hard plays King & Assassins' playouts by its own policy at the same
    horizon as the others (players.playout.FINE): its speed is its own."""
    measured: list[str] = []

    def rate(group: bs.Group, level: str = "normal", count: int = 4, iterations: int = 100) -> float:
        measured.append(level)
        return 1000.0 if level != "hard" else 900.0

    monkeypatch.setattr(bs, "search_rate", rate)
    ka = next(g for g in bs.groups() if g.game_id == "king-and-assassins")
    assert bs.level_rates(ka) == {"easy": 1000.0, "normal": 1000.0, "hard": 900.0}
    assert measured == ["easy", "hard"]


def test_a_replay_plays_the_recorded_games_again_and_names_any_that_differ(tmp_path: Path) -> None:
    results = tmp_path / "r"
    _plan(results)
    assert bs.run(results, (1, 1), CELL, False, LOOKS) == 0
    code = bs.code_of(bs.load_plan(results, lambda _: None))
    said: list[str] = []
    assert bs.replay(results, code, CELL, 3, said.append) == (3, 0)
    # a game recorded otherwise than it plays here (code that played differently) is named
    path = next(results.glob("*.jsonl"))
    lines = path.read_text().splitlines()
    first = json.loads(lines[0])
    first["moves"] += 1
    path.write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n")
    said.clear()
    assert bs.replay(results, code, CELL, 3, said.append) == (3, 1)
    assert any(f"#{first['index']}: recorded" in line for line in said)
    assert said[-1].endswith("2 the same, 1 different")


def test_every_command_of_the_bench_is_dispatched_to_it(capsys: pytest.CaptureFixture[str]) -> None:
    """A command the parser knows but ``COMMANDS`` lacks ran the whole
    speed-and-strength benchmark instead (``board-replay`` did)."""
    import re

    from bench import bench_players

    with pytest.raises(SystemExit):
        bench_players.cli(["--help"])
    listed = re.search(r"\{([a-z,-]+)\}", capsys.readouterr().out)
    assert listed is not None
    assert set(listed.group(1).split(",")) == set(bench_players.COMMANDS)


def test_a_kept_plan_is_played_at_and_a_directory_with_other_budgets_refuses_it(tmp_path: Path) -> None:
    """``--plan``: a plan kept from an earlier run is copied into a new results
    directory and played at (its budgets, its code); a directory whose own
    plan has other budgets is not mixed with it."""
    kept = tmp_path / "kept"
    _plan(kept)
    given = kept / bs.PLAN
    fresh = tmp_path / "fresh"
    plan = bs.load_plan(fresh, lambda _: None, given)
    assert json.loads((fresh / bs.PLAN).read_text()) == json.loads(given.read_text()) == plan
    assert bs.load_plan(fresh, lambda _: None, given) == plan  # again: the same budgets, no complaint
    other = tmp_path / "other"
    _plan(other)
    changed = json.loads((other / bs.PLAN).read_text())
    changed["groups"]["siege 2p"]["iterations"][bs.PI4]["hard"] = 3
    (other / bs.PLAN).write_text(json.dumps(changed))
    with pytest.raises(bs.ResultsError, match=r"other budgets than .*another results directory"):
        bs.load_plan(other, lambda _: None, given)
    with pytest.raises(bs.ResultsError, match="no plan to play at"):
        bs.load_plan(tmp_path / "none", lambda _: None, tmp_path / "missing.json")


def test_the_kept_plan_is_the_board_runs_table() -> None:
    """bench/board_plan.json holds the budgets of the run in bench/README.md."""
    plan = json.loads((Path(bs.__file__).parent / "board_plan.json").read_text())
    assert {g.name for g in bs.groups()} <= set(plan["groups"])
    readme = (Path(bs.__file__).parent / "README.md").read_text()
    assert all(line in readme for line in bs.plan_lines(plan)[1:])
