"""The console a newcomer meets with `tablekeeper run` off a Pi: text that
fits 80 columns, a prompt, each screen printed once, "new game" or
"resumed ... at move N", tags by the names the screens show."""

from __future__ import annotations

import io
import time

import pytest

import rules
from pi_app.cli import main
from pi_app.commands.run import _show_changes
from pi_app.simulated.console import Console
from pi_app.ui.screens import Layout

KID = "king-is-dead"
pytestmark = pytest.mark.skipif(KID not in rules.GAMES, reason="The King is Dead engine not registered")


def _run(tmp_path, monkeypatch, capsys, script: str, *extra: str) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO(script))
    assert main(["run", "--state-dir", str(tmp_path), *extra]) == 0
    return capsys.readouterr().out


def test_text_by_default_each_screen_once_and_new_game_then_resumed(tmp_path, monkeypatch, capsys):
    out = _run(tmp_path, monkeypatch, capsys, "sync start\ntap seat1 GARRISON\npress seat1 ok\nquit\n",
               "--game", KID, "--players", "2", "--seed", "3")
    assert "new game: The King is Dead for 2" in out
    assert "█" not in out and "▀" not in out, "pictures by default"
    start = out.split("= start")[0]
    for screen in ("seat1.screen", "seat2.screen", "shared.screen"):
        assert start.count(f"┌─ {screen}") == 1, start
    lights = [line for line in out.splitlines() if line.startswith("└─ lights")]
    assert lights and all("seat3" not in line and "seat4" not in line for line in lights)
    assert "Player 1 plays Garrison" in out  # a tag by its name in capitals
    out = _run(tmp_path, monkeypatch, capsys, "quit\n")
    assert "resumed The King is Dead for 2 at move " in out


def test_pictures_on_request(tmp_path, monkeypatch, capsys):
    out = _run(tmp_path, monkeypatch, capsys, "quit\n", "--game", KID, "--players", "2", "--pictures")
    assert "█" in out or "▀" in out


def test_tags_by_the_names_the_screens_show_in_either_language(rig):
    r = rig(2)
    s = r.open(KID)
    console = Console(r.table, r.registry, KID, s.scene.adapter.components())
    console.players = 2
    for typed in ("Aquae Sulis", "aquae-sulis", "AQUAE_SULIS"):
        assert console.resolve(typed, 0).id == "region:Aquae Sulis"
    assert console.resolve("Guarnigione", 0).id == "garrison@1"
    assert console.resolve("romano british", 0).id == "romano-british@1"
    assert console.seat("Player2") == "seat2" and console.seat("SEAT1") == "seat1"


def test_interactive_text_fits_80_columns_and_nothing_is_printed_over_the_typed_line(rig):
    r = rig(2)
    s = r.open(KID)
    out = io.StringIO()
    console = Console(r.table, r.registry, KID, s.scene.adapter.components(), out=out, pictures=False,
                      interactive=True)
    console.players = 2
    long = "Next: Aquae Sulis, Londinium, Ratae, Caerleon, Caledonia, Deva, Eboracum, Din Eidyn (crown)"
    console.show({"shared.screen": Layout(title="Turn: Player 1", lines=(long, long))}, {})
    assert all(len(line) <= 80 for line in out.getvalue().splitlines())
    console.flush()  # the prompt is up
    shown = out.getvalue()
    assert shown.endswith("> ")
    console.typed_so_far = lambda: "tap se"
    # the computer's move, made while the prompt is up: printed now, not after the next Enter
    console.show({"seat1.screen": Layout(title="Your turn")}, {})
    after = out.getvalue()[len(shown):]
    assert after.startswith("\r\x1b[K") and "Your turn" in after, "printed at once, on a cleared prompt line"
    assert after.endswith("\n> tap se"), "the prompt and what was typed so far, again below"


def test_show_prints_every_screen_again(tmp_path, monkeypatch, capsys):
    out = _run(tmp_path, monkeypatch, capsys, "sync before\nshow\nsync after\nquit\n",
               "--game", KID, "--players", "2", "--seed", "3")
    shown = out.split("= before")[1].split("= after")[0]
    for screen in ("seat1.screen", "seat2.screen", "shared.screen"):
        assert f"┌─ {screen}" in shown, out


def test_show_at_the_lobby_prints_the_shared_screen(tmp_path, monkeypatch, capsys):
    out = _run(tmp_path, monkeypatch, capsys, "sync before\nshow\nsync after\nquit\n")
    shown = out.split("= before")[1].split("= after")[0]
    assert "┌─ shared.screen" in shown, out


def test_the_paging_shared_screen_is_not_reprinted_as_its_pages_turn(rig, monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)  # lines unwrapped (pytest-xdist sets COLUMNS=80)
    r = rig(2)
    s = r.open(KID)
    out = io.StringIO()
    console = Console(r.table, r.registry, KID, s.scene.adapter.components(), out=out, pictures=False)
    console.players = 2
    s.scene.page_seconds = 0.001
    _show_changes(s, console)
    s.pump()
    assert s.presentation.paging(), "the setup instructions page on the shared screen"
    for _ in range(5):
        time.sleep(0.002)
        s.scene.page_at = 0.0
        s.tick()
        s.pump()
    assert out.getvalue().count("┌─ shared.screen") == 1, out.getvalue()
    shared = out.getvalue().split("┌─ shared.screen")[1]
    assert all(instruction in shared for instruction in s.scene.log)  # every instruction at once


def test_names_given_with_run_name_are_on_the_screens_and_after_a_restart(tmp_path, monkeypatch, capsys):
    out = _run(tmp_path, monkeypatch, capsys, "sync start\nname 1 Marco\nquit\n",
               "--game", KID, "--players", "2", "--seed", "3", "--name", "2=Anna")
    assert "┌─ seat2.screen (Anna)" in out and "Waiting: Player 1" in out
    assert "! names are given at the lobby" in out  # a game keeps the names it began with
    out = _run(tmp_path, monkeypatch, capsys, "show\nsync shown\nquit\n")
    assert "resumed The King is Dead for 2 at move " in out and "┌─ seat2.screen (Anna)" in out


def test_names_typed_at_the_lobby_name_the_players_of_the_game_chosen(tmp_path, monkeypatch, capsys):
    out = _run(tmp_path, monkeypatch, capsys,
               "name 1 Lucia\nname 2 lucia\nname seat2 Anna\npress seat1 ok\npress seat1 ok\nsync go\nquit\n")
    assert "seat 1: Lucia" in out and "seat 2: Anna" in out
    assert "! the name 'lucia' is given to seats 1 and 2" in out
    assert "new game: " in out and "(Lucia)" in out and "(Anna)" in out


A_GAME = ("--game", KID, "--players", "2", "--seed", "1")


@pytest.mark.parametrize("game", [(), A_GAME], ids=["lobby", "game"])
def test_every_console_line_fits_the_columns_it_is_given(tmp_path, monkeypatch, capsys, game):
    """Help, screens (the setup's "Region cards:" and "Next:" lines) and
    refusals (a list of names) at COLUMNS=80, through a pipe too."""
    monkeypatch.setenv("COLUMNS", "80")
    out = _run(tmp_path, monkeypatch, capsys, "help\ntap seat1 nothing-such\nshow\nsync end\nquit\n", *game)
    assert "= end" in out and "sync [WORD]" in out
    wide = [line for line in out.splitlines() if len(line) > 80]
    assert not wide, wide
    if game:
        assert "Region cards:" in out


def test_a_pipe_without_columns_gets_one_line_per_screen_line(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("COLUMNS", raising=False)
    out = _run(tmp_path, monkeypatch, capsys, "sync end\nquit\n", *A_GAME)
    assert any(line.startswith("│ Region cards: ") and len(line) > 80 for line in out.splitlines())


def test_the_console_speaks_the_screens_language(tmp_path, monkeypatch, capsys):
    out = _run(tmp_path, monkeypatch, capsys, "help\nfly\ntap seat1 nothing-such\npress seat1\nquit\n",
               "--game", KID, "--players", "2", "--seed", "1", "--lang", "it")
    assert "scrivi help per l'aiuto" in out and "nuova partita: The King is Dead in 2" in out
    assert "ristampa tutti gli schermi" in out  # the help
    assert "comando sconosciuto 'fly'; scrivi help" in out
    assert "niente si chiama 'nothing-such'; prova con: " in out and "Guarnigione" in out
    assert "scrivi: press POSTO left|ok|right, o press undo" in out
    for english in ("type help", "new game", "unknown command", "nothing called", "write:"):
        assert english not in out
