"""Computer levels at the table: ``--computer SEAT:LEVEL``, the profile's
``[computer] level``, the lobby's choice with ● on a computer seat, a
resumed game at the same levels, and the level's name on the screens in
both languages, whole."""

from __future__ import annotations

import io
import json
import queue
from pathlib import Path

import pytest

from drivers.parts import settings
from pi_app.cli import main
from pi_app.errors import UsageError
from pi_app.session import computer
from pi_app.session.lobby import Lobby
from pi_app.table import hardware, profile
from pi_app.table.profile import ProfileError
from pi_app.ui.screens import plan, problems
from players import LEVELS, Budget, level_budget

SIM = profile.find("sim")


def _profile(tmp_path: Path, block: str) -> Path:
    path = tmp_path / "table.toml"
    path.write_text(SIM.read_text(encoding="utf-8").replace("[shared]", block + "\n\n[shared]", 1),
                    encoding="utf-8")
    return path


@pytest.mark.parametrize(("specs", "game", "players", "levels"), [
    (["2:easy"], "artus", 3, {1: "easy"}),
    (["seat3:HARD", "2"], "artus", 3, {2: "hard", 1: "normal"}),
    (["attacker: easy"], "siege", 2, {0: "easy"}),
    (["King:hard"], "king-and-assassins", 2, {0: "hard"}),
])
def test_computer_seats_with_their_levels(specs, game, players, levels):
    assert computer.parse_computers(specs, game, players) == levels
    assert computer.parse_seats(specs, game, players) == set(levels)


def test_a_seat_without_a_level_takes_the_default_given() -> None:
    assert computer.parse_computers(["2"], "artus", 3, default="easy") == {1: "easy"}


def test_an_unknown_level_is_refused_with_the_levels() -> None:
    with pytest.raises(UsageError, match=r"--computer '2:expert': no level 'expert'; write SEAT:LEVEL with "
                                         r"a level of easy, normal, hard"):
        computer.parse_computers(["2:expert"], "artus", 3)


def test_the_profile_checks_the_same_levels_the_players_have() -> None:
    assert settings("computer")["level"].choices == tuple(LEVELS)


def test_the_profile_sets_the_default_level(tmp_path: Path) -> None:
    prof = profile.load(_profile(tmp_path, '[computer]\nlevel = "easy"'))
    assert computer.level_of(prof.computer) == "easy"
    assert computer.level_of(profile.load(SIM).computer) == "normal"


def test_a_profile_with_an_unknown_level_is_refused_with_the_line(tmp_path: Path) -> None:
    with pytest.raises(ProfileError, match=r"level = 'expert' is not one of easy, normal, hard"):
        profile.load(_profile(tmp_path, '[computer]\nlevel = "expert"'))


def _made(monkeypatch: pytest.MonkeyPatch) -> list[dict]:
    made: list[dict] = []
    real = computer.players_for
    monkeypatch.setattr(computer, "players_for", lambda *a, **k: made.append(real(*a, **k)) or made[-1])
    return made


def test_run_plays_each_seat_at_its_level_within_the_profiles_think_time(tmp_path, monkeypatch, capsys):
    table = _profile(tmp_path, "[computer]\niterations = 40\nseconds = 2.5")
    made = _made(monkeypatch)
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["run", "--table", str(table), "--game", "artus", "--players", "4", "--seed", "4",
                 "--state-dir", str(tmp_path), "--text", "--computer", "2:easy", "--computer", "3:hard",
                 "--computer", "4"]) == 0
    think = Budget(iterations=40, seconds=2.5)
    bots = made[0]
    assert {s: b.level for s, b in bots.items()} == {1: "easy", 2: "hard", 3: "normal"}
    assert {s: b.budget for s, b in bots.items()} == {s: level_budget(LEVELS[lv], think)
                                                      for s, lv in ((1, "easy"), (2, "hard"), (3, "normal"))}
    assert bots[1].temperature > 0 and bots[2].temperature == 0
    out = capsys.readouterr().out
    assert "Level: Easy" in out and "Level: Hard" in out
    # resumed after a restart: the same seats at the same levels
    saved = json.loads((tmp_path / "computers.json").read_text())
    assert saved["levels"] == {"1": "easy", "2": "hard", "3": "normal"}
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["run", "--table", str(table), "--state-dir", str(tmp_path), "--text"]) == 0
    assert {s: b.level for s, b in made[1].items()} == {1: "easy", 2: "hard", 3: "normal"}


def test_a_game_saved_before_levels_resumes_at_the_profiles_level(tmp_path: Path) -> None:
    path = tmp_path / "computers.json"
    path.write_text('{"game": 3, "seats": [1]}\n')
    assert computer.load_levels(path, 3, "hard") == {1: "hard"}
    path.write_text('{"game": 3, "seats": [1], "levels": {"1": "expert"}}\n')
    with pytest.raises(UsageError, match="'levels' must map seats to easy, normal, hard"):
        computer.load_levels(path, 3)


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_lobby_steps_a_computer_seats_level_with_its_own_button(tmp_path: Path, lang: str) -> None:
    prof = profile.load(_profile(tmp_path, '[computer]\nlevel = "easy"'))
    table = hardware.build(prof, queue.Queue(), keep_frames=True, poll=False)
    try:
        lobby = Lobby(table, lang, level=computer.level_of(prof.computer))
        lobby.index = lobby.options.index(("artus", 3))
        lobby.press("seat1.ok")
        lobby.press("seat1.right")
        lobby.press("seat1.right")
        assert lobby.computer_levels() == {1: "easy", 2: "easy"}
        assert lobby.press("seat3.ok") is None  # a computer's ●: its level, the game not started
        assert lobby.press("seat2.ok") is None
        assert lobby.press("seat2.ok") is None
        assert lobby.computer_levels() == {1: "hard", 2: "normal"}
        layouts = lobby.layouts()
        want = {"en": ("Hard", "Normal", "● on its seat: level"),
                "it": ("Difficile", "Normale", "● al suo posto: livello")}[lang]
        assert layouts["seat2.screen"].big == want[0] and layouts["seat3.screen"].big == want[1]
        assert want[2] in layouts["shared.screen"].text()
        for name in ("seat1.screen", "seat2.screen", "seat3.screen", "shared.screen"):
            assert not problems(layouts[name]) and plan(layouts[name]).pages == 1, name
        assert lobby.press("seat1.ok") == ("artus", 3)  # a person's ● starts
    finally:
        table.close()


@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("level", list(LEVELS))
def test_the_computers_own_screen_names_its_level_whole(lang: str, level: str) -> None:
    for to_move in (0, 1):
        layout = computer.seat_layout(1, "Giocatore 2 (computer)", to_move, lang, level)
        assert computer.level_words(level, lang) in layout.text()
        assert not problems(layout), problems(layout)


def test_at_the_console_the_lobby_shows_the_computer_seats_level_and_the_game_keeps_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    script = ("press seat1 right\npress seat1 ok\npress seat1 right\npress seat3 ok\npress seat1 ok\n"
              "quit\n")  # The King is Dead for 3, one computer (seat 3) stepped to hard, then started
    made = _made(monkeypatch)
    monkeypatch.setattr("sys.stdin", io.StringIO(script))
    assert main(["run", "--state-dir", str(tmp_path), "--text"]) == 0
    out = capsys.readouterr().out
    assert "seat3.screen" in out and "Computer player" in out and "● here: another level" in out
    assert {s: b.level for s, b in made[0].items()} == {2: "hard"}
    assert "Level: Hard" in out
