"""`tablekeeper run` with its console, and `tablekeeper tags`."""

from __future__ import annotations

import io

import pytest

import rules
from pi_app.cli import main

KID = "king-is-dead"
needs_kid = pytest.mark.skipif(KID not in rules.GAMES, reason="The King is Dead engine not registered")


@needs_kid
def test_run_console_taps_presses_and_resumes(tmp_path, monkeypatch, capsys):
    script = ("tap seat2 crown\npress seat2 ok\ntap seat1 garrison\nfly away\ntap seat1 04AABBCCDD\n"
              "press seat3 ok\nquit\n")
    monkeypatch.setattr("sys.stdin", io.StringIO(script))
    code = main(["run", "--game", KID, "--players", "2", "--seed", "3", "--state-dir", str(tmp_path),
                 "--text"])
    out = capsys.readouterr().out
    assert code == 0
    assert "Turn: Player 1, not Player 2. Wait for your turn." in out
    assert "Player 1 plays Garrison" in out
    assert "unknown command 'fly'" in out
    assert "does not know this tag (04AABBCCDD)" in out
    assert "no seat 'seat3' in this game; seats: seat1, seat2" in out  # a seat with no player
    lights = [line for line in out.splitlines() if line.startswith("└─ lights")]
    assert lights[0].startswith("└─ lights seat1:on seat2:off")  # lit from the first frame
    # a second run resumes the game where it was: Garrison's first pick
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["run", "--state-dir", str(tmp_path), "--text"]) == 0
    out = capsys.readouterr().out
    assert "Garrison 1: take a follower" in out  # what the step chooses


def test_run_needs_players_with_a_game_of_several_counts(tmp_path, capsys):
    assert main(["run", "--game", KID, "--state-dir", str(tmp_path)]) == 2
    assert "--game king-is-dead needs --players N: 2, 3 or 4 players" in capsys.readouterr().err
    assert main(["run", "--players", "2", "--state-dir", str(tmp_path)]) == 2
    assert "--players goes with --game" in capsys.readouterr().err


def test_run_takes_the_only_count_of_a_two_player_game(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["run", "--game", "king-and-assassins", "--state-dir", str(tmp_path)]) == 0
    assert "new game: King & Assassins for 2" in capsys.readouterr().out


def test_a_bare_tablekeeper_lists_its_commands(capsys):
    assert main([]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: tablekeeper")
    for command in ("run", "demo", "replay", "tags", "doctor"):
        assert f"\n    {command} " in out


def test_version(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.startswith("tablekeeper 0.")


def test_an_error_in_its_own_window_waits_for_enter_before_it_closes(tmp_path, monkeypatch, capsys):
    """In a terminal multiplexer's window tablekeeper leads its own session:
    the window would close with the message unread."""

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal = Terminal("\n")
    monkeypatch.setattr("sys.stdin", terminal)
    err = Terminal()
    monkeypatch.setattr("sys.stderr", err)
    monkeypatch.setattr("os.getsid", lambda pid: __import__("os").getpid())
    assert main(["run", "--game", KID, "--state-dir", str(tmp_path)]) == 2
    assert "needs --players N" in err.getvalue() and "press Enter to close" in err.getvalue()
    assert terminal.tell() == 1, "it waited for Enter"


def test_run_refuses_a_broken_journal(tmp_path, capsys):
    (tmp_path / "journal.sqlite").write_bytes(b"garbage" * 200)
    assert main(["run", "--game", KID, "--players", "2", "--state-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert str(tmp_path / "journal.sqlite") in err and "not usable" in err


def test_a_broken_tag_registry_is_refused_with_what_to_do(tmp_path, capsys):
    import sqlite3

    (tmp_path / "tags.sqlite").write_bytes(b"garbage" * 200)
    assert main(["tags", "--state-dir", str(tmp_path), "list"]) == 2
    err = capsys.readouterr().err
    assert f"tag registry {tmp_path / 'tags.sqlite'} is not usable: file is not a database" in err
    assert "move the file aside and enroll the tags again" in err and "Traceback" not in err
    other = tmp_path / "other"
    other.mkdir()
    db = sqlite3.connect(other / "tags.sqlite")
    db.execute("CREATE TABLE tags (uid TEXT, what TEXT)")
    db.commit()
    db.close()
    assert main(["run", "--state-dir", str(other), "--game", KID, "--players", "2"]) == 2
    assert "its tags table has columns ['uid', 'what']" in capsys.readouterr().err


def test_run_refuses_a_state_dir_that_is_a_file(tmp_path, capsys):
    state = tmp_path / "state"
    state.write_text("")
    assert main(["run", "--state-dir", str(state)]) == 2
    err = capsys.readouterr().err
    assert f"the state directory {state} cannot be locked" in err  # the first thing run takes
    assert "give --state-dir a directory" in err


def test_run_refuses_a_bad_profile(tmp_path, capsys):
    bad = tmp_path / "t.toml"
    bad.write_text("[table]\nname = 'x'\nwobble = 1\n")
    assert main(["run", "--table", str(bad), "--state-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}:3: unknown key 'wobble'" in err


@needs_kid
def test_tags_enroll_list_forget(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("04A1B2C3D4E5F6\n04A1B2C3D4E5F6\n04A1B2C3D4E5F7\n"))
    code = main(["tags", "--state-dir", str(tmp_path), "enroll", KID, "--players", "2", "--stdin"])
    out = capsys.readouterr().out
    assert code == 1  # stopped before the end: input ran out
    assert "tap the Crown card of Player 1" in out
    assert "refused: tag 04A1B2C3D4E5F6 is already enrolled as crown@1" in out
    assert "04A1B2C3D4E5F7 is garrison@1" in out
    assert main(["tags", "--state-dir", str(tmp_path), "list", KID]) == 0
    assert "04A1B2C3D4E5F6  king-is-dead  crown@1" in capsys.readouterr().out
    assert main(["tags", "list", KID, "--state-dir", str(tmp_path)]) == 0  # after the action too
    assert "04A1B2C3D4E5F6  king-is-dead  crown@1" in capsys.readouterr().out
    assert main(["tags", "--state-dir", str(tmp_path), "forget", "04A1B2C3D4E5F6"]) == 0
    assert main(["tags", "--state-dir", str(tmp_path), "forget", "nothex"]) == 2
    assert "not a tag UID" in capsys.readouterr().err


@needs_kid
def test_run_without_a_game_offers_the_choice_at_the_table(tmp_path, monkeypatch, capsys):
    # ● picks the game, ● again starts it with no computer player
    monkeypatch.setattr("sys.stdin", io.StringIO("press seat1 right\npress seat1 ok\npress seat1 ok\nquit\n"))
    assert main(["run", "--state-dir", str(tmp_path), "--text"]) == 0
    out = capsys.readouterr().out
    assert "New game" in out and "The King is Dead" in out
    assert "3 players" in out
    assert "The King is Dead for 3" in out
    assert "Your turn: play or pass" in out


@needs_kid
def test_run_tells_systemd_it_is_ready(tmp_path, monkeypatch, capsys):
    import socket

    path = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(5)
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["run", "--game", KID, "--players", "2", "--state-dir", str(tmp_path), "--text"]) == 0
    said = [sock.recv(100), sock.recv(100)]
    sock.close()
    assert said == [b"READY=1", b"STOPPING=1"]


@needs_kid
def test_run_passes_game_options(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    args = ["run", "--game", KID, "--players", "3", "--state-dir", str(tmp_path), "--text"]
    assert main([*args, "--option", "mordred=true"]) == 0
    from pi_app.store.journal import Journal

    journal = Journal(tmp_path / "journal.sqlite")
    assert journal.current().options == {"mordred": True}
    journal.close()
    assert main([*args, "--new", "--option", "wobble=1"]) == 2
    assert "unknown option 'wobble'" in capsys.readouterr().err
    journal = Journal(tmp_path / "journal.sqlite")
    assert journal.current() is not None  # the refused start abandoned nothing
    journal.close()


@needs_kid
def test_tags_check_tells_missing_twice_and_foreign_tags(tmp_path, monkeypatch, capsys):
    """A set checked in one pass: every tag tapped once in any order, then what is missing (by the
    sheet's number), tapped twice, or not of this game."""
    from pi_app import games as table_games
    from pi_app.store.registry import Registry, made_up_uid

    comps = table_games.for_game(KID, 2, "en").components()
    registry = Registry(tmp_path / "tags.sqlite")
    uids = registry.auto_enroll(KID, [(c.id, c.count) for c in comps])
    registry.enroll("04F00000000001", "siege", "commander@1")
    registry.close()
    every = [uid for c in comps for uid in uids[c.id]]
    crown, garrison = uids["crown@1"][0], uids["garrison@1"][0]
    taps = [u for u in reversed(every) if u != garrison] + [crown, "04F00000000001", "04EEEEEEEEEEEE"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(taps) + "\n"))
    assert main(["tags", "check", KID, "--players", "2", "--stdin", "--state-dir", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    total = sum(c.count for c in comps)
    assert f"{total - 1} of {total} tags of {KID} answered" in out
    assert "missing (1):\n  2 the Garrison card of Player 1: not tapped\n" in out
    assert f"tapped twice (1):\n  {crown} (the Crown card of Player 1)\n" in out
    assert "04F00000000001 (enrolled as commander@1 of siege)" in out
    assert "04EEEEEEEEEEEE (not enrolled)" in out
    # The whole set, once each: the check ends by itself at the last one, whatever follows.
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(every + ["04EEEEEEEEEEEE"]) + "\n"))
    assert main(["tags", "check", KID, "--players", "2", "--stdin", "--state-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert f"the set of {KID} is whole" in out and "not enrolled" not in out
    assert made_up_uid(KID, "crown@1") == crown  # the simulated UIDs the test used


@needs_kid
def test_tags_check_of_a_set_half_enrolled_names_what_is_left(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("04A1B2C3D4E5F6\n"))
    main(["tags", "--state-dir", str(tmp_path), "enroll", KID, "--players", "2", "--stdin"])
    capsys.readouterr()
    monkeypatch.setattr("sys.stdin", io.StringIO("04A1B2C3D4E5F6\n"))
    assert main(["tags", "check", KID, "--players", "2", "--stdin", "--state-dir", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "[1/" in out and "the Crown card of Player 1" in out
    assert "  2 the Garrison card of Player 1: not enrolled\n" in out
    assert "4-5 the Settlement card of Player 1: 2 of 2 not enrolled" in out


@needs_kid
def test_tags_sheet_numbers_every_piece_as_enroll_asks_for_it(tmp_path, monkeypatch, capsys):
    assert main(["tags", "sheet", KID, "--players", "2", "--out", str(tmp_path)]) == 0
    pages = sorted(tmp_path.glob("*.svg"))
    assert [p.name for p in pages] == [f"{KID}-1.svg"] and "written:" in capsys.readouterr().out
    svg = pages[0].read_text()
    assert ">4-5</text>" in svg and "the Settlement card of Player 1 (×2)" in svg
    # enroll's [4/N] is the sheet's 4: the first Settlement card
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"04A1B2C3D4E5{n:02X}\n" for n in range(4))))
    main(["tags", "--state-dir", str(tmp_path), "enroll", KID, "--players", "2", "--stdin"])
    assert "[4/" in capsys.readouterr().out.split("tap the Settlement card of Player 1 (1 of 2)")[0][-8:]
    assert main(["tags", "sheet", "nosuch"]) == 2
    assert "unknown game 'nosuch'" in capsys.readouterr().err
