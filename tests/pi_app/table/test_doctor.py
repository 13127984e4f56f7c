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
    from pi_app.table import profile

    sim = profile.find("sim").read_text()
    text.write_text(sim.replace('name = "seat2"\npad = { backend = "sim" }\nscreen = { backend = "dummy" }',
                                'name = "seat2"\npad = { backend = "sim" }\n'
                                'screen = { backend = "luma", port = 9, address = 0x3D }'))
    assert main(["doctor", "--table", str(text)]) == 1
    out = capsys.readouterr().out
    assert "FAIL screen  seat2.screen" in out
    assert "did not answer: seat2.screen" in out


def test_doctor_refuses_a_listen_time_that_is_no_time(capsys):
    for value in ("-1", "nan"):
        assert main(["doctor", "--table", "sim", "--listen", value]) == 2
        err = capsys.readouterr().err
        assert f"--listen {value} is not a number of seconds to listen; give 0 or more" in err


def test_doctor_says_a_hub_fault_once(tmp_path, capsys, caplog, monkeypatch):
    from drivers.hub import factory
    from pi_app.table import profile

    monkeypatch.setattr(factory, "STARTUP_WAIT", 0.1)
    sim = profile.find("sim").read_text()
    table = tmp_path / "t.toml"
    table.write_text('[[hubs]]\nname = "hub"\nport = "/dev/no-such-hub"\n\n' + sim.replace(
        'name = "seat2"\npad = { backend = "sim" }', 'name = "seat2"\npad = { backend = "hub", index = 0 }'))
    assert main(["doctor", "--table", str(table), "--listen", "0.5"]) == 1
    captured = capsys.readouterr()
    assert "FAIL reader  seat2.pad" in captured.out
    said = captured.out + captured.err
    assert said.count("/dev/no-such-hub (") == 1, said
    # not in the drivers' live log either (the daemon's journal keeps it)
    assert not [r for r in caplog.records if r.name.startswith("drivers")]


def test_doctor_does_not_listen_when_nothing_can_be_heard(capsys, monkeypatch):
    """No pad answered and no button or encoder opened (SPI off, no pin library): the
    report comes at once, not after --listen seconds of waiting for taps nobody can make."""
    import pytest

    import drivers.hub
    from drivers import parts
    from drivers.watcher import Watcher

    def absent(spec, *args, **kw):
        raise OSError(f"{spec.name} is not here")

    for opener in ("open_reader", "open_button", "open_encoder", "open_light_spec", "open_screen"):
        monkeypatch.setattr(parts, opener, absent)
    monkeypatch.setattr(drivers.hub, "open_reader", absent)
    monkeypatch.setattr(drivers.hub, "open_button", absent)  # buttons on the hub, where a table has them
    monkeypatch.setattr(Watcher, "start", lambda self: pytest.fail("listened with nothing to hear"))
    assert main(["doctor", "--table", "reference", "--listen", "15"]) == 1
    out = capsys.readouterr().out
    assert "not listening for taps and presses: no pad, button or encoder opened" in out
    assert "FAIL reader  seat1.pad" in out and "FAIL button  shared.undo" in out
