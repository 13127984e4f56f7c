from __future__ import annotations

from pathlib import Path

import pytest

import pi_app
from pi_app import profile
from pi_app.profile import ProfileError

ROOT = Path(__file__).resolve().parents[2]


def test_bundled_profiles_load():
    sim = profile.load(profile.find("sim"))
    ref = profile.load(profile.find("reference"))
    assert sim.simulated and not ref.simulated
    assert [s.name for s in sim.seats] == ["seat1", "seat2", "seat3", "seat4"]
    assert sim.seats[1].buttons[1].name == "seat2.ok"
    assert sim.seat_of_part("seat3.pad") == 2 and sim.seat_of_part("shared.undo") is None
    assert ref.seats[2].pad.backend == "hub" and ref.seats[2].pad.index == 0


def test_bundled_profiles_are_package_data():
    """An installed package (not this checkout) finds them: they are in
    pi_app, shipped as package data; hardware/tables is the same folder."""
    import tomllib

    package = Path(pi_app.__file__).resolve().parent
    assert profile.TABLES_DIR.resolve().parent == package
    assert {p.name for p in profile.TABLES_DIR.glob("*.toml")} >= {"sim.toml", "reference.toml"}
    assert (ROOT / "hardware" / "tables").resolve() == profile.TABLES_DIR.resolve()
    assert profile.find("sim").resolve().parent == profile.TABLES_DIR.resolve()
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert setuptools["packages"]["find"]["namespaces"]  # pi_app/tables holds no __init__.py
    shipped = [pattern for patterns in setuptools["package-data"].values() for pattern in patterns]
    assert "*.toml" in shipped and "*.ttf" in shipped  # the profiles and the screens' font


def test_default_profile_off_a_pi_is_sim():
    assert profile.find(None, on_pi=False).stem == "sim"
    assert profile.find(None, on_pi=True).stem == "reference"
    with pytest.raises(ProfileError, match="sim"):
        profile.find("nosuch")


def _broken(tmp_path: Path, old: str, new: str) -> tuple[Path, str]:
    text = profile.find("sim").read_text().replace(old, new, 1)
    path = tmp_path / "t.toml"
    path.write_text(text)
    return path, text


def _line_of(text: str, needle: str, nth: int = 1) -> int:
    lines = [i for i, ln in enumerate(text.splitlines(), 1) if needle in ln]
    return lines[nth - 1]


def test_unknown_key_names_file_line_and_fix(tmp_path):
    path, text = _broken(tmp_path, 'light = { pin = 23 }', 'light = { pin = 23, colour = "red" }')
    with pytest.raises(ProfileError) as err:
        profile.load(path)
    msg = str(err.value)
    assert f"{path}:{_line_of(text, 'colour')}: unknown key 'colour'" in msg
    assert "use one of: kind, pin" in msg


def test_pin_used_twice(tmp_path):
    path, text = _broken(tmp_path, "left = 12, ok = 13", "left = 12, ok = 4")
    with pytest.raises(ProfileError) as err:
        profile.load(path)
    msg = str(err.value)
    assert f"{path}:{_line_of(text, 'ok = 4')}: GPIO 4 of seat2.ok is already used by seat1.left" in msg
    assert "its own pin" in msg


def test_seat_without_screen(tmp_path):
    path, text = _broken(tmp_path, 'screen = { backend = "dummy" }\nbuttons = { left = 20',
                         'buttons = { left = 20')
    with pytest.raises(ProfileError) as err:
        profile.load(path)
    line = _line_of(text, "[[seats]]", 3)
    assert f"{path}:{line}: seat 3 has no 'screen'" in str(err.value)
    assert "add screen = ..." in str(err.value)


def test_bad_value_and_bad_toml(tmp_path):
    path, text = _broken(tmp_path, 'lang = "en"', 'lang = "fr"')
    line = _line_of(text, "lang")
    with pytest.raises(ProfileError, match=rf"{path}:{line}: lang = 'fr' is not known; use one of: en, it"):
        profile.load(path)
    path.write_text("[table\n")
    with pytest.raises(ProfileError, match="not valid TOML"):
        profile.load(path)


def test_key_lines_follow_arrays_of_tables():
    text = "[[seats]]\nname = 'a'\n[seats.light]\npin = 3\n[[seats]]\nbuttons = { ok = 1 }\n"
    lines = profile.key_lines(text)
    assert lines[("seats", 0, "light", "pin")] == 4
    assert lines[("seats", 1, "buttons", "ok")] == 6


def test_encoder_pins_join_the_pin_check(tmp_path):
    light = "light = { pin = 22 }"
    path, text = _broken(tmp_path, light, light + "\nencoder = { pin_a = 16, pin_b = 5 }")
    with pytest.raises(ProfileError) as err:
        profile.load(path)
    line = _line_of(text, "encoder")
    assert f"{path}:{line}: GPIO 5 of seat1.encoder is already used by seat1.ok" in str(err.value)
    path, _ = _broken(tmp_path, light, light + "\nencoder = { pin_a = 16, pin_b = 25 }")
    assert profile.load(path).seats[0].encoder.pin_b == 25


def test_missing_parts_are_reported_once_each(tmp_path):
    path, text = _broken(tmp_path, "light = { pin = 22 }", "")
    text = text.replace("light = { pin = 23 }", "").replace("undo = { pin = 15 }", "")
    path.write_text(text)
    with pytest.raises(ProfileError) as err:
        profile.load(path)
    problems = str(err.value).splitlines()[1:]
    assert problems == [
        f"{path}:{_line_of(text, '[shared]')}: [shared] has no 'undo'; add undo = ... to [shared]",
        f"{path}:{_line_of(text, '[[seats]]')}: seat 1 has no 'light'; "
        "add light = ... to that [[seats]] table",
        f"{path}:{_line_of(text, '[[seats]]', 2)}: seat 2 has no 'light'; "
        "add light = ... to that [[seats]] table",
    ]  # no second message about the missing part's pin, no made-up pin clash


def test_reference_profile_matches_the_wiring():
    """hardware/tables/reference.toml is the table hardware/wiring.md wires."""
    import re

    ref = profile.load(profile.find("reference"))
    wiring = (ROOT / "hardware" / "wiring.md").read_text()
    gpio = re.compile(r"GPIO(\d+)")
    for seat in ref.seats:
        row = next(ln for ln in wiring.splitlines() if ln.startswith(f"| {seat.name} |") and "◀" not in ln
                   and len(gpio.findall(ln)) == 3)
        assert [b.pin for b in seat.buttons] == [int(p) for p in gpio.findall(row)], row
        light = next(ln for ln in wiring.splitlines() if ln.startswith(f"| {seat.light.name} |"))
        assert [seat.light.pin] == [int(p) for p in gpio.findall(light)], light
        screen = next(ln for ln in wiring.splitlines() if ln.startswith(f"| {seat.screen.name} |"))
        assert f"| {seat.screen.mux_channel} | 0x{seat.screen.address:X} |" in screen, screen
    undo = next(ln for ln in wiring.splitlines() if ln.startswith("| UNDO"))
    assert [ref.undo.pin] == [int(p) for p in gpio.findall(undo)]
    shared = next(ln for ln in wiring.splitlines() if ln.startswith("| shared.screen |"))
    assert f"| {ref.shared_screen.mux_channel} |" in shared
    # Seats 1-2 on SPI0 CE0/CE1 with the shared reset line, the others on the hub.
    assert [(s.pad.backend, s.pad.device, s.pad.rst_pin) for s in ref.seats[:2]] == [
        ("rc522", 0, 25), ("rc522", 1, 25)]
    assert "| RST | reset line (shared) | GPIO25 [22] | GPIO25 [22] |" in wiring
    assert all(s.pad.backend == "hub" for s in ref.seats[2:])


def test_watcher_table_and_hub_hold_reach_the_drivers(tmp_path, monkeypatch):
    import queue

    from drivers.hub import factory
    from pi_app import hardware

    path, _ = _broken(tmp_path, "[shared]", "[watcher]\nleave_hold = 0.4\nconfirm_polls = 3\n\n[shared]")
    prof = profile.load(path)
    assert prof.watcher == {"leave_hold": 0.4, "confirm_polls": 3}
    table = hardware.build(prof, queue.Queue(), poll=False, seats=2)
    try:
        assert table.watcher.settings.leave_hold == 0.4 and table.watcher.settings.confirm_polls == 3
        assert table.watcher.settings.arrive_hold == 0.05  # left out: the default
    finally:
        table.close()
    assert profile.load(profile.find("sim")).watcher == {}

    text = profile.find("reference").read_text()
    ref = tmp_path / "ref.toml"
    ref.write_text(text.replace('[[hubs]]\nname = "hub"', '[[hubs]]\nname = "hub"\nhold_ms = 300', 1))
    spec = profile.load(ref)
    assert spec.hubs[0].hold_ms == 300 and profile.load(profile.find("reference")).hubs[0].hold_ms is None

    sent: list[tuple] = []

    class Conn:  # the hub connection, as far as the factory uses it
        def __init__(self, port, name):
            pass

        def set_hold(self, reader, ms):
            sent.append((reader, ms))

        def start(self):
            pass

        def wait_synced(self, timeout):
            return True

        def close(self):
            pass

    monkeypatch.setattr(factory, "HubConnection", Conn)
    try:
        factory.open_reader(spec.seats[2].pad, spec)
    finally:
        factory.close_all()
    assert sent == [(None, 300)]


def test_watcher_table_and_hub_hold_are_checked_with_line_and_fix(tmp_path):
    path, text = _broken(tmp_path, "[shared]", "[watcher]\nleave_hold = -1\nconfirm_polls = 1.5\n"
                         "arrive = 0.1\n\n[[hubs]]\nname = \"hub\"\nport = \"auto\"\nhold_ms = 90000\n\n"
                         "[shared]")
    with pytest.raises(ProfileError) as err:
        profile.load(path)
    msg = str(err.value)
    assert f"{path}:{_line_of(text, 'leave_hold')}: [watcher]: " in msg
    assert "leave_hold must not be negative, got -1; write e.g. leave_hold = 0.25" in msg
    assert (f"{path}:{_line_of(text, 'confirm_polls')}: [watcher]: confirm_polls must be a whole number "
            "of polls, got 1.5; write e.g. confirm_polls = 2") in msg
    assert f"{path}:{_line_of(text, 'arrive =')}: unknown key 'arrive' in [watcher]" in msg
    assert "arrive_hold" in msg
    assert (f"{path}:{_line_of(text, 'hold_ms')}: hold_ms = 90000 is more than the hub's 60000 ms; "
            "write e.g. hold_ms = 500") in msg
    path.write_text("watcher = 3\n" + profile.find("sim").read_text())
    with pytest.raises(ProfileError, match=r"\[watcher\] must be a table; write it as \[watcher\]"):
        profile.load(path)
