from __future__ import annotations

import sqlite3

import pytest
from PIL import Image

import rules
from pi_app import games
from pi_app.cli import main
from pi_app.simulated.demo import Night, review_sheet, summary
from pi_app.store.journal import Journal
from players import ismcts


@pytest.mark.skipif("king-is-dead" not in rules.GAMES, reason="The King is Dead engine not registered")
def test_demo_game_writes_frames_gif_transcript(tmp_path):
    night = Night(tmp_path, seed=5)
    assert ("king-is-dead", 4, {}) in night.games()
    report = night.play("king-is-dead", 2)
    assert report.options == {}
    assert report.result and report.moves > 20 and report.refused >= 0
    gif = Image.open(tmp_path / "king-is-dead-2p.gif")
    assert gif.n_frames > report.moves // 2
    frames = sorted((tmp_path / "king-is-dead-2p" / "shared.screen").glob("*.png"))
    assert frames and Image.open(frames[0]).size == (128, 64)
    text = (tmp_path / "king-is-dead-2p.transcript.txt").read_text()
    assert "move | Player 1" in text and "outcome" in text
    assert "  Player 1: " in text and "seat " not in text  # players named as the screens name them
    taps = [line for line in text.splitlines() if ": taps " in line]
    assert taps and not [line for line in taps if "@" in line or "region:" in line or "follower:" in line]
    assert text.splitlines()[0].endswith("options: mordred=False; Player 2 (computer) plays")
    # The computer's moves are said on the shared screen and carried out at the table.
    assert report.computer == 1
    assert "said | table     | Player 2 (computer): " in text
    assert "move | Player 2" in text


def test_demo_plans_every_other_option_once_at_the_most_seats(tmp_path):
    plan = Night(tmp_path).games()
    for game in rules.GAMES:
        if game not in games.ADAPTERS:
            continue
        counts = rules.get(game).player_counts
        mine = [(n, opts) for g, n, opts in plan if g == game]
        assert [n for n, opts in mine if not opts] == list(counts)  # every count, the defaults
        defaults = {o.name: o.default for o in rules.get(game).options}
        for opts in (opts for n, opts in mine if opts):
            assert (max(counts), opts) in mine and opts.items() - defaults.items() == opts.items()
    expected = {("artus", 4, ("mode", "advanced")), ("king-is-dead", 4, ("mordred", True)),
                ("king-and-assassins", 2, ("side", "B"))}
    variants = {(g, n, *opts.items()) for g, n, opts in plan if opts}
    assert {v for v in expected if v[0] in rules.GAMES} <= variants
    # an option that only opens an unofficial player count is not a variant to show
    assert not any(g == "mordred" and opts for g, n, opts in plan)


@pytest.mark.skipif("king-is-dead" not in rules.GAMES, reason="The King is Dead engine not registered")
def test_demo_game_with_options_is_named_and_played_with_them(tmp_path):
    night = Night(tmp_path, seed=5)
    report = night.play("king-is-dead", 2, {"mordred": True})
    assert report.options == {"mordred": True} and report.result
    text = (tmp_path / "king-is-dead-2p-mordred-True.transcript.txt").read_text()
    assert text.splitlines()[0] == ("The King is Dead, 2 players, seed 7, options: mordred=True; "
                                    "Player 2 (computer) plays")
    journal = Journal(tmp_path / "king-is-dead-2p-mordred-True" / "journal.sqlite")
    try:
        assert [g.options for g in journal.games()] == [{"mordred": True}]
    finally:
        journal.close()
    table = summary([report], 1.0, tmp_path)
    assert "| game | players | computer | options |" in table
    assert "| king-is-dead | 2 | Player 2 | mordred=True |" in table
    assert "1 game in 1.0 s" in table and "last seat is a computer player" in table


def test_demo_refuses_unknown_game(capsys, tmp_path):
    assert main(["demo", "--game", "nosuch", "--out", str(tmp_path)]) == 2
    assert "unknown game 'nosuch'" in capsys.readouterr().err


def test_demo_refuses_a_file_as_its_output(capsys, tmp_path):
    out = tmp_path / "night"
    out.write_text("")
    assert main(["demo", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"--out {out} is a file; give a directory" in err and "Traceback" not in err


def _moves(journal: str) -> list[str]:
    with sqlite3.connect(journal) as db:
        return [row[0] for row in db.execute("SELECT move FROM moves ORDER BY game_id, n")]


def test_a_seeded_demo_plays_the_same_game_on_a_slow_machine_and_in_italian(tmp_path, monkeypatch):
    """The seed fixes the game: the computer thinks on its iterations, not on
    the clock (a loaded machine once made one demo 67 moves and the next 68)."""
    fast = Night(tmp_path / "fast", seed=5).play("king-and-assassins", 2)
    clock = iter(range(10**9))
    monkeypatch.setattr(ismcts.time, "perf_counter", lambda: float(next(clock)))  # a second per look
    slow = Night(tmp_path / "slow", lang="it", seed=5).play("king-and-assassins", 2)
    assert _moves(slow.journal) == _moves(fast.journal) and slow.moves == fast.moves


def test_the_demo_writes_a_small_index_and_no_frames_unless_asked(tmp_path, capsys):
    """A person can open what the demo wrote: a few files per game and a
    small index.html (a night once wrote 8,326 files, its index 2.3 MB)."""
    assert main(["demo", "--game", "king-and-assassins", "--out", str(tmp_path / "plain")]) == 0
    files = [p for p in (tmp_path / "plain").rglob("*") if p.is_file()]
    assert not [p for p in files if p.suffix == ".png"]
    assert len(files) < 30, sorted(map(str, files))
    index = tmp_path / "plain" / "index.html"
    assert index.stat().st_size < 20_000
    page = (tmp_path / "plain" / "king-and-assassins-2p.html").read_text(encoding="utf-8")
    assert "<figcaption>1. " in page and "<img" not in page  # every frame's words, no picture to load
    assert "in words" in capsys.readouterr().out
    assert main(["demo", "--game", "king-and-assassins", "--out", str(tmp_path / "frames"), "--frames"]) == 0
    pngs = list((tmp_path / "frames").rglob("*.png"))
    assert pngs and "<img" in (tmp_path / "frames" / "king-and-assassins-2p.html").read_text(encoding="utf-8")


def test_an_italian_night_writes_its_transcript_and_summary_in_italian(tmp_path):
    # Seen: an Italian demo's transcript labelled "move", "said", "table", "press seat1.ok".
    import re

    night = Night(tmp_path, lang="it", seed=5)
    report = night.play("king-is-dead", 2)
    text = (tmp_path / "king-is-dead-2p.transcript.txt").read_text(encoding="utf-8")
    assert text.splitlines()[0] == ("The King is Dead, 2 giocatori, seme 7, opzioni: mordred=False; "
                                    "Giocatore 2 (computer) gioca")
    assert "mossa | Giocatore 1" in text and "detto | tavolo" in text and "esito |" in text
    assert "  Giocatore 1: tocca " in text and "  Giocatore 1: preme ●" in text
    english = re.findall(r"(?m)^\s*(move|said|chance|refused|outcome|note) \||\| table |"
                         r": (tap|press) |seat\d\.", text)
    assert not english, english[:5]
    table = summary([report], 1.5, tmp_path, lang="it")
    assert "| gioco | giocatori | computer | opzioni |" in table and "1 partita in 1,5 s" in table
    assert "una serata simulata" in table
    sheet = review_sheet([report], tmp_path, "it").read_text(encoding="utf-8")
    page = (tmp_path / "king-is-dead-2p.html").read_text(encoding="utf-8")
    assert "le partite della serata" in sheet and "2 giocatori" in sheet and "fotogrammi" in sheet
    assert "schermo comune" in page and "tutte le partite" in page
    shown = re.sub(r"<(style|script)>.*?</\1>|<[^>]*>", " ", sheet + page, flags=re.S)  # the words read
    assert not re.search(r"\b(frames|every game|cut or clipped|players)\b", shown), shown[:500]
