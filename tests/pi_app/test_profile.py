from __future__ import annotations

from pathlib import Path

import pytest

from pi_app import profile
from pi_app.profile import ProfileError


def test_bundled_profiles_load():
    sim = profile.load(profile.find("sim"))
    ref = profile.load(profile.find("reference"))
    assert sim.simulated and not ref.simulated
    assert [s.name for s in sim.seats] == ["seat1", "seat2", "seat3", "seat4"]
    assert sim.seats[1].buttons[1].name == "seat2.ok"
    assert sim.seat_of_part("seat3.pad") == 2 and sim.seat_of_part("shared.undo") is None
    assert ref.seats[2].pad.backend == "hub" and ref.seats[2].pad.index == 0


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
