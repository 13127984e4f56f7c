"""Naming at the lobby with a seat's own buttons, for a table without a
console: hold ◀ or ▶, step through the names the table knows (the profile's
[players] names, its recent games'), ● when done. The presses of a seat
that never holds do what they always did."""

from __future__ import annotations

import io
import queue
import threading
from pathlib import Path

import pytest

from pi_app.cli import main
from pi_app.errors import UsageError
from pi_app.session import computer
from pi_app.session.lobby import Lobby
from pi_app.simulated.console import Console
from pi_app.store.journal import Journal
from pi_app.store.registry import Registry
from pi_app.table import hardware, profile
from pi_app.ui.screens import plan, problems

SIM = profile.find("sim")


def _profile(tmp_path: Path, block: str) -> Path:
    path = tmp_path / "table.toml"
    path.write_text(SIM.read_text(encoding="utf-8") + "\n" + block, encoding="utf-8")
    return path


def _table(tmp_path: Path, names: str = '["Anna", "Marco", "Lucia"]') -> hardware.Table:
    prof = profile.load(_profile(tmp_path, f"[players]\nnames = {names}\n"))
    return hardware.build(prof, queue.Queue(), keep_frames=True, poll=False)


def _choose(lobby: Lobby) -> tuple[str, int] | None:
    """Everything queued, then whatever the lobby chose (None: nothing)."""
    stop = threading.Event()
    lobby.table.queue.put("stop")
    return lobby.choose(stop)


def _seat_text(lobby: Lobby, seat: int) -> str:
    return lobby.layouts()[f"seat{seat + 1}.screen"].text()


# -- the profile's names ---------------------------------------------------------
def test_the_profile_keeps_its_players_names(tmp_path: Path) -> None:
    prof = profile.load(_profile(tmp_path, '[players]\nnames = ["Anna", "  Marco  Polo "]\n'))
    assert prof.names == ("Anna", "Marco Polo")
    assert profile.load(SIM).names == ()


@pytest.mark.parametrize(("names", "words"), [
    ('"Anna"', "names must be a list of texts"),
    ('["Anna", 3]', "3 is not a name"),
    ('["Bartholomew"]', "longer than the 10 letters"),
    ('["Anna", "anna"]', "'anna' is written twice"),
    ('["Player 2"]', "is what the table calls seat 2"),
])
def test_bad_players_names_are_refused_with_the_file_and_line(tmp_path: Path, names: str, words: str) -> None:
    path = _profile(tmp_path, f"[players]\n# who comes on Fridays\nnames = {names}\n")
    line = len(path.read_text(encoding="utf-8").splitlines())
    with pytest.raises(profile.ProfileError, match=rf"{path}:{line}: .*{words}"):
        profile.load(path)


def test_an_unknown_key_in_players_is_refused(tmp_path: Path) -> None:
    path = _profile(tmp_path, '[players]\nnamez = ["Anna"]\n')
    with pytest.raises(profile.ProfileError, match=r"unknown key 'namez' in \[players\]"):
        profile.load(path)


# -- naming with the buttons -------------------------------------------------------
def test_a_seat_names_itself_with_its_own_buttons(tmp_path: Path) -> None:
    table = _table(tmp_path)
    try:
        lobby = Lobby(table, "en")
        assert "Hold ◀ or ▶ to give your name" in _seat_text(lobby, 1)
        table.hold("seat2.right")  # its press stepped the games; the hold takes it back
        table.press("seat2.right")
        table.press("seat2.right")
        table.press("seat2.ok")
        table.hold("seat1.right")
        table.press("seat1.right")
        table.press("seat1.right")  # Marco is seat 2's: skipped
        assert _choose(lobby) is None
        assert lobby.index == 0, "the hold did not take its press's step back"
        assert lobby.names == {1: "Marco", 0: "Lucia"}
        assert lobby.naming == {0}
        assert _seat_text(lobby, 0).splitlines()[:2] == ["Your name", "Lucia"]
        assert "Your name: Marco" in _seat_text(lobby, 1)
        game, players = lobby.options[0]
        table.press("seat1.ok")  # done naming: ● is not the games' ●
        table.press("seat2.ok")
        table.press("seat2.ok")
        assert _choose(lobby) == (game, players)
        assert lobby.player_names(game, players)[:2] == ("Lucia", "Marco")
    finally:
        table.close()


def test_the_console_holds_a_button_as_a_finger_does(tmp_path: Path) -> None:
    """`hold seat2 right`, typed at a simulated table's console or FIFO:
    gpiozero's own hold thread reports the hold after the press."""
    table = _table(tmp_path)
    out = io.StringIO()
    try:
        console = Console(table, Registry(tmp_path / "tags.sqlite"), "", [], out=out, pictures=False)
        lobby = Lobby(table, "en")
        for line in ("hold seat2 right", "press seat2 right", "press seat2 ok"):
            assert console.execute(line)
        assert _choose(lobby) is None
        assert lobby.names == {1: "Anna"} and lobby.index == 0 and not lobby.naming, out.getvalue()
    finally:
        table.close()


def test_stepping_past_the_names_comes_back_to_the_default(tmp_path: Path) -> None:
    table = _table(tmp_path, '["Anna"]')
    try:
        lobby = Lobby(table, "it")
        lobby.hold("seat3.left")
        assert "Nessun nome" in _seat_text(lobby, 2)
        lobby.press("seat3.right")
        assert lobby.names == {2: "Anna"}
        lobby.press("seat3.right")
        assert lobby.names == {}
        lobby.press("seat3.left")
        assert lobby.names == {2: "Anna"}
    finally:
        table.close()


def test_a_name_the_chosen_game_gives_another_seat_is_not_offered(tmp_path: Path) -> None:
    table = _table(tmp_path, '["Attacker", "Anna"]')
    try:
        lobby = Lobby(table, "en")
        lobby.index = lobby.options.index(("siege", 2))
        assert lobby.name_choices(1) == ["Anna", ""]  # seat 1 is the Attacker
        assert lobby.name_choices(0) == ["Attacker", "Anna", ""]
    finally:
        table.close()


def test_a_hold_while_choosing_computers_takes_its_step_back(tmp_path: Path) -> None:
    table = _table(tmp_path)
    try:
        lobby = Lobby(table, "en")
        lobby.press("seat1.ok")
        lobby.press("seat2.right")
        assert lobby.computers == 1
        lobby.hold("seat2.right")
        assert lobby.computers == 0 and lobby.naming == {1}
    finally:
        table.close()


PRESSES = ["right", "right", "left", "right", "ok", "right", "right", "left", "ok"]


@pytest.mark.parametrize("names", ['["Anna", "Marco"]', "[]"])
def test_the_lobbys_presses_do_what_they_did(tmp_path: Path, names: str) -> None:
    """The presses the soak, box and console tests make choose the same
    game with the same computers, names known or not; a hold on a table
    that knows no names does nothing."""
    table = _table(tmp_path, names)
    try:
        lobby = Lobby(table, "en")
        for i, role in enumerate(PRESSES):
            table.press(f"seat{i % 2 + 1}.{role}")
        assert _choose(lobby) == lobby.options[2] and lobby.computer_seats() == {lobby.options[2][1] - 1}
        assert lobby.names == {}
        if names == "[]":
            assert "Hold" not in _seat_text(lobby, 0)
            again = Lobby(table, "en")
            again.press("seat1.right")
            again.hold("seat1.right")
            assert again.index == 1 and again.naming == set()
    finally:
        table.close()


# -- the journal's recent names ----------------------------------------------------
def test_the_names_of_recent_games_are_offered(tmp_path: Path) -> None:
    j = Journal(tmp_path / "j.sqlite")
    for names in (("Anna", ""), ("", "Bruno"), ("bruno", "Carla")):
        j.end(j.start("siege", 2, 0, {}, names=names))
    assert j.recent_names() == ["bruno", "Carla", "Anna"]
    table = _table(tmp_path, '["Anna", "Dario"]')
    try:
        lobby = Lobby(table, "en", known=j.recent_names())
        assert lobby.known == ("Anna", "Dario", "bruno", "Carla")
    finally:
        table.close()
        j.close()


# -- the screens -----------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_naming_screens_fit_on_one_page(tmp_path: Path, lang: str) -> None:
    longest = "W" * 10
    table = _table(tmp_path, f'["{longest}", "Anna"]')
    try:
        lobby = Lobby(table, lang)
        lobby.give_name(0, longest)
        lobby.hold("seat2.right")
        lobby.press("seat2.right")  # the longest is seat 1's: Anna
        assert lobby.names[1] == "Anna"
        lobby.hold("seat3.left")  # No name / Nessun nome
        for name, layout in lobby.layouts().items():
            assert not problems(layout), (name, problems(layout))
            assert plan(layout).pages == 1, f"{name} pages, and the lobby turns no pages"
        lobby.hold("seat1.right")
        assert not problems(lobby.layouts()["seat1.screen"]) and lobby.names[0] == longest
    finally:
        table.close()


# -- --computer by name ----------------------------------------------------------------
def test_computer_takes_a_seat_by_the_name_given() -> None:
    assert computer.parse_seats(["Anna"], "artus", 3, ("", "Anna", "")) == {1}
    assert computer.parse_seats(["marco"], "siege", 2, ("Marco", "")) == {0}
    with pytest.raises(UsageError, match=r"give a seat number or role or name: 1\.\.3, Anna"):
        computer.parse_seats(["Bruno"], "artus", 3, ("", "Anna", ""))


def test_run_takes_a_computer_seat_by_its_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    args = ["run", "--game", "artus", "--players", "3", "--seed", "4", "--state-dir", str(tmp_path),
            "--name", "2=Anna", "--computer", "anna"]
    assert main(args) == 0
    assert "Anna (computer)" in capsys.readouterr().out
    assert computer.load(tmp_path / "computers.json", 1) == {1}


def test_the_daemons_lobby_offers_the_journals_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    j = Journal(tmp_path / "journal.sqlite")
    j.end(j.start("siege", 2, 0, {}, names=("Anna", "Marco")))
    j.close()
    offered: list[tuple[str, ...]] = []
    monkeypatch.setattr(Lobby, "choose", lambda self, stop: offered.append(self.known))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["run", "--state-dir", str(tmp_path), "--no-console"]) == 0
    assert offered == [("Anna", "Marco")]


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_name_that_became_another_seats_role_is_mended_with_the_buttons(tmp_path: Path, lang: str) -> None:
    """Named while another game was on the shared screen, then that game
    chosen: ● says to hold ◀ or ▶ on the seat (not "at the console", which
    a table without one has not), and stepping on mends it."""
    table = _table(tmp_path, '["Attacker", "Anna"]')
    try:
        lobby = Lobby(table, lang)
        lobby.hold("seat2.right")
        lobby.press("seat2.right")
        lobby.press("seat2.ok")
        assert lobby.names == {1: "Attacker"}
        lobby.index = lobby.options.index(("siege", 2))
        lobby.press("seat1.ok")
        assert lobby.press("seat1.ok") is None
        shared = lobby.layouts()["shared.screen"]
        assert shared.alert and ("Hold ◀ or ▶ on that seat" in shared.text()
                                 or "Tieni ◀ o ▶ a quel posto" in shared.text())
        assert not problems(shared) and plan(shared).pages == 1
        lobby.hold("seat2.left")
        lobby.press("seat2.right")  # Attacker is seat 1's here: Anna
        lobby.press("seat2.ok")
        assert lobby.names == {1: "Anna"}
        assert lobby.press("seat1.ok") == ("siege", 2)
    finally:
        table.close()


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_name_clash_fits_one_screen_with_the_longest_name(lang: str) -> None:
    """The lobby turns no pages: a refusal on more than one is cut. A
    table with no [players] names: the fix is at the console."""
    table = hardware.build(profile.load(SIM), queue.Queue(), keep_frames=True, poll=False)
    try:
        lobby = Lobby(table, lang)
        lobby.give_name(1, "Attaccante")  # seat 1 in Siege, in Italian: ten letters, the most a name has
        lobby.index = lobby.options.index(("siege", 2))
        lobby.press("seat1.ok")
        assert lobby.press("seat1.ok") is None
        shared = lobby.layouts()["shared.screen"]
        assert "console" in shared.text() and shared.alert
        assert not problems(shared) and plan(shared).pages == 1, plan(shared)
    finally:
        table.close()


def test_a_daemon_game_begun_after_naming_with_the_buttons_uses_the_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    path = _profile(tmp_path, '[players]\nnames = ["Anna", "Marco"]\n')
    script = ["hold seat2 right", "press seat2 right", "press seat2 ok", "press seat1 ok", "press seat1 ok",
              "sync go", "quit"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(script) + "\n"))
    assert main(["run", "--state-dir", str(tmp_path / "state"), "--table", str(path)]) == 0
    out = capsys.readouterr().out
    assert "new game: " in out and "(Anna)" in out, out[-2000:]
    assert Journal(tmp_path / "state" / "journal.sqlite").games()[-1].names[:2] == ("", "Anna")
