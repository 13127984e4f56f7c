"""A computer player in a seat at the table: whole games of every game typed
at the console, its secrets kept off every screen, the seats named on the
command line, the lobby's choice and a resumed game."""

from __future__ import annotations

import io
import random

import pytest

import rules
from pi_app import names as naming
from pi_app.cli import main
from pi_app.errors import UsageError
from pi_app.session import computer
from pi_app.session.loop import Session
from pi_app.simulated.autoplay import take_turn
from pi_app.simulated.console import Console
from pi_app.simulated.soak import secret_screens
from players import Budget

QUICK = Budget(iterations=8, seconds=None)




def play_at_console(rig, game_id: str, players: int, seat: int, *, seed: int = 3,
                    computers: bool = True) -> tuple[Session, int]:
    """A whole game, every input typed at the console; returns the session and
    how many positions showed a screen depending on seat ``seat``'s secrets."""
    r = rig(players)
    s = r.open(game_id, seed=seed)
    if computers:
        s.seat_computers(computer.players_for({seat}, seed, QUICK))
    console = Console(r.table, r.registry, game_id, s.scene.adapter.components(), out=io.StringIO())
    console.players = players
    uids = r.uids
    rng = random.Random(seed)
    leaked = 0

    def send(inp) -> None:
        nonlocal leaked
        what = uids.get(inp.what, inp.what) if inp.kind == "tap" else inp.part.rsplit(".", 1)[-1]
        line = (f"tap {inp.part.split('.')[0]} {what}" if inp.kind == "tap"
                else f"press {inp.part.split('.')[0]} {what}")
        assert console.execute(line)
        s.pump()
        leaked += bool(secret_screens(s, seat, rng))  # the soak's own check

    steps = 0
    while s.scene.state.outcome() is not None or s.scene.state.to_move() is not None:
        if s.scene.state.outcome() is not None:
            break
        take_turn(s, rng, send)
        steps += 1
        assert steps < 5000, f"{game_id}: the game does not end"
    return s, leaked


@pytest.mark.parametrize("game_id", list(rules.GAMES))
def test_a_whole_game_at_the_console_with_a_computer_seat(rig, game_id):
    players = min(rules.get(game_id).player_counts)
    seat = players - 1
    s, leaked = play_at_console(rig, game_id, players, seat)
    assert s.scene.state.outcome() is not None
    assert leaked == 0, f"{leaked} positions showed the computer's secrets on a screen"
    moves = [rec for rec in s.scene.transcript if rec.kind == "move" and rec.seat == seat]
    said = [rec.text for rec in s.scene.transcript if rec.kind == "said" and "(computer)" in rec.text]
    assert moves and len(said) >= len(moves)
    name = naming.display_name(game_id, seat, "en", computer=True)  # "Player 2 (computer)"
    assert all(text.startswith(name) for text in said)


@pytest.mark.parametrize("game_id", ["king-is-dead", "artus", "siege"])
def test_the_check_sees_a_seat_screen_showing_its_hand(rig, game_id):
    """The same game with a person in that seat: its own screen shows its
    hand, and the check says so (the check can fail)."""
    players = min(rules.get(game_id).player_counts)
    _, leaked = play_at_console(rig, game_id, players, players - 1, computers=False)
    assert leaked > 0


def test_the_computer_screen_and_the_shared_screen_while_it_moves(rig):
    r = rig(2)
    s = r.open("king-is-dead", seed=3)
    s.seat_computers(computer.players_for({0}, 3, QUICK))
    s.redraw()
    move = s.scene.computer_moves[0]
    mine = s.presentation.seat_layout(0)
    assert mine.title == "Player 1 (computer)" and mine.big == "computer"
    assert "Its move: see the shared screen" in mine.lines
    shared = s.presentation.shared_layout()
    assert shared.title == "Turn: Player 1 (computer)"
    assert shared.big == f"Player 1 (computer): {s.scene.adapter.move_text(move.to_json(), 'en')}"
    # The other seat waits for the computer, which is named as one.
    assert s.presentation.seat_layout(1).title == "Waiting: Player 1 (computer)"
    # ◀ ▶ on its seat do nothing; a wrong card on its pad is refused without naming it; ● plays it.
    n = len(s.scene.state.history)
    r.press("seat1.left")
    assert len(s.scene.state.history) == n and s.scene.computer_moves[0] == move
    wrong = next(c for c in s.scene.adapter.components()
                 if c.seat == 0 and c.value != move.to_json().get("card"))
    r.tap(0, wrong.id)
    assert len(s.scene.state.history) == n
    refused = [rec for rec in s.scene.transcript if rec.kind == "refused"][-1]
    assert refused.text == "Not this one: the computer's move is on the shared screen."
    r.press("seat1.ok")
    assert s.scene.state.history[n] == move


def test_a_secret_move_is_not_said():
    state = rules.get("king-and-assassins").new_game(2, seed=1)
    while state.to_move() != 1:
        state.apply(state.legal_moves()[0])
    choose = state.legal_moves()[0]
    assert computer.is_secret(state, choose)
    name = naming.display_name("king-and-assassins", 1, "en", computer=True)
    assert computer.said(name, None, "en") == f"{name} has chosen in secret: press ● on its seat"


@pytest.mark.parametrize(("specs", "game", "players", "seats"), [
    (["2"], "artus", 3, {1}),
    (["seat1", "3"], "artus", 3, {0, 2}),
    (["assassins"], "king-and-assassins", 2, {1}),
    (["King"], "king-and-assassins", 2, {0}),
    (["defender"], "siege", 2, {1}),
    (["Player 2"], "mordred", 3, {1}),  # the name the screens show
    (["giocatore 3"], "mordred", 3, {2}),
])
def test_computer_seats_by_number_or_role(specs, game, players, seats):
    assert computer.parse_seats(specs, game, players) == seats


@pytest.mark.parametrize(("specs", "message"), [
    (["5"], "no such seat in artus for 3; give a seat number or role: 1..3"),
    (["king"], "no such seat in artus"),
    (["1", "2", "3"], "every seat would be a computer"),
])
def test_computer_seats_refused_with_the_choices(specs, message):
    with pytest.raises(UsageError, match=message):
        computer.parse_seats(specs, "artus", 3)


def test_run_computer_and_a_resumed_game_keeps_it(tmp_path, monkeypatch, capsys):
    args = ["run", "--game", "mordred", "--players", "3", "--seed", "4", "--state-dir", str(tmp_path),
            "--text", "--computer", "3"]
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(args) == 0
    assert "Player 3 (computer)" in capsys.readouterr().out
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["run", "--state-dir", str(tmp_path), "--text"]) == 0
    assert "Player 3 (computer)" in capsys.readouterr().out
    assert computer.load(tmp_path / "computers.json", 1) == {2}


def test_run_gives_the_computer_the_table_profiles_budget(tmp_path, monkeypatch, capsys):
    from pi_app.table import profile

    table = tmp_path / "t.toml"
    table.write_text(profile.find("sim").read_text().replace(
        "[shared]", "[computer]\niterations = 40\nseconds = 2.5\n\n[shared]", 1))
    made = []
    real = computer.players_for
    monkeypatch.setattr(computer, "players_for", lambda *a, **k: made.append(real(*a, **k)) or made[-1])
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["run", "--table", str(table), "--game", "mordred", "--players", "3", "--seed", "4",
                 "--state-dir", str(tmp_path), "--text", "--computer", "3"]) == 0
    assert [bot.budget for bot in made[0].values()] == [Budget(iterations=40, seconds=2.5)]


def test_run_computer_needs_a_game(tmp_path, capsys):
    assert main(["run", "--state-dir", str(tmp_path), "--computer", "2"]) == 2
    assert "--computer goes with --game" in capsys.readouterr().err
    assert main(["run", "--game", "artus", "--players", "2", "--state-dir", str(tmp_path),
                 "--computer", "west"]) == 2
    assert "--computer 'west': no such seat" in capsys.readouterr().err


def test_the_lobby_seats_computers(tmp_path, monkeypatch, capsys):
    script = "press seat1 right\npress seat1 ok\npress seat1 right\npress seat1 ok\nquit\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(script))
    assert main(["run", "--state-dir", str(tmp_path), "--text"]) == 0
    out = capsys.readouterr().out
    assert "Computer players" in out and "1, in the last seats" in out
    assert "Player 3 (computer)" in out
