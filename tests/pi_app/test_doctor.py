from __future__ import annotations

from pi_app.cli import main


def test_doctor_on_the_simulated_table(capsys):
    assert main(["doctor", "--table", "sim"]) == 0
    out = capsys.readouterr().out
    assert "ok  reader  seat1.pad" in out and "tag 04" in out
    assert "ok  screen  shared.screen" in out and "test pattern shown" in out
    assert "ok  button  shared.undo" in out and "pressed" in out
    assert "ok  light   seat4.light" in out and "blinked twice" in out
    assert "all 26 parts answered" in out


def test_doctor_names_the_parts_that_do_not_answer(tmp_path, capsys):
    # A table whose seat 2 screen is real hardware: absent here.
    text = (tmp_path / "t.toml")
    from pi_app import profile

    sim = profile.find("sim").read_text()
    text.write_text(sim.replace('name = "seat2"\npad = { backend = "sim" }\nscreen = { backend = "dummy" }',
                                'name = "seat2"\npad = { backend = "sim" }\n'
                                'screen = { backend = "luma", port = 9, address = 0x3D }'))
    assert main(["doctor", "--table", str(text)]) == 1
    out = capsys.readouterr().out
    assert "FAIL screen  seat2.screen" in out
    assert "did not answer: seat2.screen" in out
