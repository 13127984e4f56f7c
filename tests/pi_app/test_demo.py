from __future__ import annotations

import pytest
from PIL import Image

import rules
from pi_app.cli import main
from pi_app.demo import Night


@pytest.mark.skipif("king-is-dead" not in rules.GAMES, reason="The King is Dead engine not registered")
def test_demo_game_writes_frames_gif_transcript(tmp_path):
    night = Night(tmp_path, seed=5)
    assert ("king-is-dead", 4) in night.games()
    report = night.play("king-is-dead", 2)
    assert report.result and report.moves > 20 and report.refused >= 0
    gif = Image.open(tmp_path / "king-is-dead-2p.gif")
    assert gif.n_frames > report.moves // 2
    frames = sorted((tmp_path / "king-is-dead-2p" / "shared.screen").glob("*.png"))
    assert frames and Image.open(frames[0]).size == (128, 64)
    text = (tmp_path / "king-is-dead-2p.transcript.txt").read_text()
    assert "move | seat 1" in text and "outcome" in text


def test_demo_refuses_unknown_game(capsys, tmp_path):
    assert main(["demo", "--game", "nosuch", "--out", str(tmp_path)]) == 2
    assert "unknown game 'nosuch'" in capsys.readouterr().err


def test_demo_refuses_a_file_as_its_output(capsys, tmp_path):
    out = tmp_path / "night"
    out.write_text("")
    assert main(["demo", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"--out {out} is a file; give a directory" in err and "Traceback" not in err
