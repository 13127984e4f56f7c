from __future__ import annotations

from pathlib import Path

import pytest

import pi_app
from drivers import parts
from drivers.watcher import WatcherSettings
from pi_app.table import profile
from pi_app.table.profile import ProfileError

ROOT = Path(__file__).resolve().parents[3]


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
    path, text = _broken(tmp_path, 'light = { pin = 23 }', 'light = { pin = 23, glow = "red" }')
    with pytest.raises(ProfileError) as err:
        profile.load(path)
    msg = str(err.value)
    assert f"{path}:{_line_of(text, 'glow')}: unknown key 'glow'" in msg
    assert "use one of: active_high, colour, kind, pin, pins" in msg


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


def test_an_encoder_takes_the_place_of_left_and_right(tmp_path):
    """hardware/wiring.md's KY-040 recipe: the encoder on ◀'s and ▶'s pins, its switch on ●'s.
    Before, the loader asked for all three buttons, and with them kept, GPIO 4 was used twice."""
    import queue

    from drivers.events import EncoderTurned
    from pi_app.table import hardware

    light = "light = { pin = 22 }"
    path, text = _broken(tmp_path, "buttons = { left = 4, ok = 5, right = 6 }", "buttons = { ok = 5 }")
    path.write_text(text.replace(light, light + "\nencoder = { pin_a = 4, pin_b = 6 }", 1))
    prof = profile.load(path)
    assert [b.name for b in prof.seats[0].buttons] == ["seat1.ok"]
    assert (prof.seats[0].encoder.pin_a, prof.seats[0].encoder.pin_b) == (4, 6)
    assert [b.name for b in prof.seats[1].buttons] == ["seat2.left", "seat2.ok", "seat2.right"]
    events: queue.Queue = queue.Queue()
    table = hardware.build(prof, events, poll=False)
    try:
        assert "seat1.left" not in table.buttons and "seat1.ok" in table.buttons
        table.turn("seat1.encoder", 1)
        seen = []
        while not events.empty():
            seen.append(events.get_nowait())
    finally:
        table.close()
    turned = [e for e in seen if isinstance(e, EncoderTurned)]
    assert [e.encoder for e in turned] == ["seat1.encoder"] and turned[0].steps > 0, turned


def test_without_an_encoder_left_and_right_are_still_asked_for(tmp_path):
    path, text = _broken(tmp_path, "buttons = { left = 4, ok = 5, right = 6 }", "buttons = { ok = 5 }")
    with pytest.raises(ProfileError) as err:
        profile.load(path)
    line = _line_of(text, "buttons = { ok = 5 }")
    assert f"{path}:{line}: seat1 buttons has no 'left'; add left = ... to seat1 buttons" in str(err.value)
    assert "seat1 buttons has no 'right'" in str(err.value)


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
    hub = re.compile(r"hub button (\d+)")
    for seat in ref.seats:
        row = next(ln for ln in wiring.splitlines() if ln.startswith(f"| {seat.name} |") and "◀" not in ln
                   and len(gpio.findall(ln) or hub.findall(ln)) == 3)
        if all(b.backend == "hub" for b in seat.buttons):
            assert [b.button for b in seat.buttons] == [int(p) for p in hub.findall(row)], row
        else:
            assert [b.pin for b in seat.buttons] == [int(p) for p in gpio.findall(row)], row
        light = next(ln for ln in wiring.splitlines() if ln.startswith(f"| {seat.light.name} |"))
        assert [seat.light.pin] == [int(p) for p in gpio.findall(light)], light
        screen = next(ln for ln in wiring.splitlines() if ln.startswith(f"| {seat.screen.name} |"))
        assert f"| Y{seat.screen.select} |" in screen and f"`select = {seat.screen.select}`" in screen, screen
    undo = next(ln for ln in wiring.splitlines() if ln.startswith("| UNDO"))
    assert [ref.undo.pin] == [int(p) for p in gpio.findall(undo)]
    shared = next(ln for ln in wiring.splitlines() if ln.startswith("| shared.screen |"))
    assert f"| Y{ref.shared_screen.select} |" in shared
    decoder = ref.screen_decoder
    for bit, pin in enumerate(decoder.address_pins):
        assert f"| A{bit} | GPIO{pin} [" in wiring
    assert (decoder.spi_port, decoder.spi_device) == (1, 0)
    assert "| CE0 | GPIO18 [12] | G2A (pin 4) |" in wiring
    assert f"| D/C | GPIO{ref.shared_screen.dc_pin} [" in wiring
    assert f"| reset | GPIO{ref.shared_screen.rst_pin} [" in wiring
    # Seats 1-2 on SPI0 CE0/CE1 with the shared reset line, the others on the hub.
    assert [(s.pad.backend, s.pad.device, s.pad.rst_pin) for s in ref.seats[:2]] == [
        ("rc522", 0, 25), ("rc522", 1, 25)]
    assert "| RST | reset line (shared) | GPIO25 [22] | GPIO25 [22] |" in wiring
    assert all(s.pad.backend == "hub" for s in ref.seats[2:])


def _gpios_in_use(prof: profile.Profile) -> dict[int, str]:
    """Every GPIO the reference profile's parts take, with its job, worked out
    here from hardware/wiring.md's plan (not from the loader's own count):
    0-1 kept for a HAT's ID EEPROM, SPI0 (7-11) and the readers' reset line,
    the buttons and lights on the Pi, and for the SPI1 screens SPI1's MISO,
    MOSI, SCLK and CE0 (19, 20, 21, 18), the decoder's address lines, the
    screens' D/C and reset lines."""
    used = {0: "HAT EEPROM", 1: "HAT EEPROM", 7: "SPI0 CE1", 8: "SPI0 CE0", 9: "SPI0 MISO", 10: "SPI0 MOSI",
            11: "SPI0 SCLK"}
    for seat in prof.seats:
        used |= {b.pin: b.name for b in seat.buttons if b.backend != "hub"}
        used |= {pin: seat.light.name for pin in seat.light.pins or [seat.light.pin]}
        if seat.pad.backend == "rc522":
            used[seat.pad.rst_pin] = "readers' RST"
    used[prof.undo.pin] = prof.undo.name
    screens = [s.screen for s in prof.seats] + [prof.shared_screen]
    if any(s.interface == "spi" and s.spi_port == 1 for s in screens):
        used |= {19: "SPI1 MISO", 20: "SPI1 MOSI", 21: "SPI1 SCLK", 18: "SPI1 CE0"}
    if prof.screen_decoder is not None:
        used |= {pin: f"decoder A{bit}" for bit, pin in enumerate(prof.screen_decoder.address_pins)}
    for s in screens:
        if s.interface == "spi":
            used |= {s.dc_pin: "screens' D/C", s.rst_pin: "screens' RST"}
    return used


def test_the_reference_table_screens_are_on_spi1_behind_a_decoder_and_every_pin_is_counted():
    """hardware/wiring.md, "Which bus the screens use": seats 3-4's buttons on
    the reader hub free GPIO 17, 18, 20, 21, 26, 27; with GPIO16 (free) and
    GPIO2, 3 (I2C1 carries nothing now) that is 9 pins, 10 with seat2's ▶
    moved off GPIO19 (SPI1's MISO) to GPIO16. SPI1 takes 4 (MISO, MOSI, SCLK,
    CE0), the 74HC138's address lines 3, D/C and reset 2, seat2's ▶ 1: 10, so
    it fits with no pin left. A GPIO chip select per screen would take 5
    instead of the decoder's 3 and would not fit."""
    ref = profile.load(profile.find("reference"))
    screens = [s.screen for s in ref.seats] + [ref.shared_screen]
    assert {(s.interface, s.spi_port, s.spi_device, s.dc_pin, s.rst_pin) for s in screens} == {
        ("spi", 1, 0, 2, 3)}
    assert sorted(s.select for s in screens) == [0, 1, 2, 3, 4]
    assert all(b.backend == "hub" for s in ref.seats[2:] for b in s.buttons)
    used = _gpios_in_use(ref)
    assert set(used) == set(range(28)), sorted(set(range(28)) - set(used))  # every GPIO, each once
    freed = {17, 18, 20, 21, 26, 27} | {16} | {2, 3}  # hub buttons, the free pin, I2C1's
    spi1, decoder, lines, moved = 4, 3, 2, 1  # MISO MOSI SCLK CE0; A0-A2; D/C, RST; seat2's ▶
    assert len(freed | {19}) == spi1 + decoder + lines + moved == 10
    assert spi1 + len(screens) + lines + moved == 12 > len(freed | {19})  # a chip select per screen
    assert ref.seats[1].buttons[2].pin == 16 and used[19] == "SPI1 MISO"
    wiring = (ROOT / "hardware" / "wiring.md").read_text()
    section = wiring[wiring.index("## Which bus the screens use"):]
    assert "74HC138" in section and "10 pins" in section and "12" in section


def _spi_screens(tmp_path: Path, seat1: str, seat2: str) -> Path:
    """The sim profile with seat 1's and seat 2's screens on SPI, with these settings."""
    spi = 'screen = {{ backend = "luma", driver = "sh1106", interface = "spi", spi_port = 0, {} }}'
    lines = profile.find("sim").read_text().splitlines()
    screens = [i for i, ln in enumerate(lines) if ln.startswith("screen =")]  # the shared screen first
    lines[screens[1]], lines[screens[2]] = spi.format(seat1), spi.format(seat2)
    path = tmp_path / "spi.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_spi_screens_share_a_d_c_line_and_each_has_its_own_chip_select(tmp_path):
    ok = _spi_screens(tmp_path, "cs_pin = 16, dc_pin = 3, rst_pin = 2",
                      "cs_pin = 25, dc_pin = 3, rst_pin = 2")
    prof = profile.load(ok)
    assert [prof.seats[0].screen.cs_pin, prof.seats[1].screen.cs_pin] == [16, 25]
    same_cs = _spi_screens(tmp_path, "cs_pin = 16, dc_pin = 3", "cs_pin = 16, dc_pin = 3")
    with pytest.raises(ProfileError) as err:
        profile.load(same_cs)
    assert "GPIO 16 of seat2.screen is already used by seat1.screen" in str(err.value)
    dc_on_a_button = _spi_screens(tmp_path, "cs_pin = 16, dc_pin = 4", "cs_pin = 25, dc_pin = 3")
    with pytest.raises(ProfileError) as err:
        profile.load(dc_on_a_button)
    assert "GPIO 4 of the SPI screens' D/C line is already used by seat1.left" in str(err.value)


def test_a_chip_select_on_the_bus_s_own_pins_is_refused(tmp_path):
    """The kernel drives SPI0's CE1 (GPIO7) for /dev/spidev0.1 whether or not a
    reader is wired to it: a GPIO chip select there would fight it."""
    on_ce1 = _spi_screens(tmp_path, "cs_pin = 16, dc_pin = 3", "cs_pin = 7, dc_pin = 3")
    with pytest.raises(ProfileError) as err:
        profile.load(on_ce1)
    assert "GPIO 7 of seat2.screen is already used by SPI0's CE1" in str(err.value)


def _decoded(tmp_path: Path, decoder: str, seat1: str, seat2: str) -> Path:
    """The sim profile without seat 4, with a [screen_decoder] and seat 1's
    and 2's screens behind it."""
    spi = 'screen = {{ backend = "luma", driver = "sh1106", interface = "spi", dc_pin = 2, rst_pin = 3, {} }}'
    text = profile.find("sim").read_text()
    lines = text[:text.rindex("[[seats]]")].splitlines()
    screens = [i for i, ln in enumerate(lines) if ln.startswith("screen =")]
    lines[screens[1]], lines[screens[2]] = spi.format(seat1), spi.format(seat2)
    path = tmp_path / "decoded.toml"
    path.write_text(decoder + "\n" + "\n".join(lines) + "\n")
    return path


def test_screens_behind_the_decoder_take_its_bus_and_each_an_output(tmp_path):
    decoder = "[screen_decoder]\nspi_port = 0\nspi_device = 1\naddress_pins = [16, 25, 17]\n"
    prof = profile.load(_decoded(tmp_path, decoder, "select = 0", "select = 1"))
    one, two = prof.seats[0].screen, prof.seats[1].screen
    assert (one.spi_port, one.spi_device, one.select, one.decoder_pins) == (0, 1, 0, [16, 25, 17])
    assert two.select == 1
    problems = {
        "select = 0": "seat2.screen uses the same bus and address as seat1.screen",
        'select = 1, cs_pin = 26': "seat2.screen has both select and cs_pin",
        "select = 1, spi_port = 1": "spi_port = 1 but [screen_decoder] is on spi_port = 0",
        "select = 9": "select = 9 is above 7",
    }
    for seat2, said in problems.items():
        with pytest.raises(ProfileError) as err:
            profile.load(_decoded(tmp_path, decoder, "select = 0", seat2))
        assert said in str(err.value), seat2
    with pytest.raises(ProfileError) as err:
        profile.load(_decoded(tmp_path, "", "select = 0", "select = 1"))
    assert "select names a 74HC138 output but the profile has no decoder" in str(err.value)
    on_miso = "[screen_decoder]\nspi_port = 0\nspi_device = 1\naddress_pins = [16, 25, 9]\n"
    with pytest.raises(ProfileError) as err:
        profile.load(_decoded(tmp_path, on_miso, "select = 0", "select = 1"))
    assert "GPIO 9 of the screen decoder's A2 is already used by SPI0's MISO" in str(err.value)


def test_a_reader_on_the_decoder_s_device_is_refused(tmp_path):
    """Its transfers would enable the decoder and select a screen."""
    decoder = "[screen_decoder]\nspi_port = 0\nspi_device = 1\naddress_pins = [16, 25, 17]\n"
    path = _decoded(tmp_path, decoder, "select = 0", "select = 1")
    path.write_text(path.read_text().replace('pad = { backend = "sim" }',
                                             'pad = { backend = "rc522", bus = 0, device = 1 }', 1))
    with pytest.raises(ProfileError) as err:
        profile.load(path)
    assert "seat1.pad is on /dev/spidev0.1, whose chip select enables the screen decoder" in str(err.value)


def test_a_button_on_spi1_s_pins_is_told_to_move(tmp_path):
    """SPI1 takes GPIO 19-21 (MISO, MOSI, SCLK) and CE0 on GPIO18: the sim
    profile's seat2 ▶ on GPIO19 clashes with it, and is the part named."""
    decoder = "[screen_decoder]\nspi_port = 1\naddress_pins = [16, 25, 8]\n"
    with pytest.raises(ProfileError) as err:
        profile.load(_decoded(tmp_path, decoder, "select = 0", "select = 1"))
    said = str(err.value)
    assert "GPIO 19 of seat2.right is already used by SPI1's MISO" in said
    assert "GPIO 20 of seat3.left is already used by SPI1's MOSI" in said
    assert "GPIO 21 of seat3.ok is already used by SPI1's SCLK" in said


def test_watcher_table_and_hub_hold_reach_the_drivers(tmp_path, monkeypatch):
    import queue

    from drivers.hub import factory
    from pi_app.table import hardware

    path, _ = _broken(tmp_path, "[shared]", "[watcher]\nleave_hold = 0.4\nconfirm_polls = 3\n\n[shared]")
    prof = profile.load(path)
    assert prof.watcher == {"leave_hold": 0.4, "confirm_polls": 3}
    table = hardware.build(prof, queue.Queue(), poll=False, seats=2)
    try:
        assert table.watcher.settings.leave_hold == 0.4 and table.watcher.settings.confirm_polls == 3
        assert table.watcher.settings.arrive_hold == WatcherSettings().arrive_hold  # left out: the default
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


# -- one source for every part's settings (drivers.parts.SETTINGS) ------------


_FREE_PIN = 16  # no part of sim.toml uses it


def _valid(setting):
    """A value the setting takes that is not its default."""
    if setting.key.endswith("pin") or setting.key.startswith("pin_"):
        return _FREE_PIN
    if setting.choices:
        return next(c for c in setting.choices if c != setting.default)
    if setting.kind is bool:
        return not setting.default
    if setting.kind is list:
        return [3, 7, 8] if setting.key in ("pins", "address_pins") else [0.5] * setting.size
    if setting.kind is str:
        return "hub"
    return setting.high if setting.high != setting.default else setting.low


def _part_toml(kind: str, backend: str, key: str, value) -> tuple[str, str]:
    """The sim profile with ``key = value`` on a part of ``kind``."""
    import json

    v = f"0x{value:X}" if key.endswith("address") else json.dumps(value)
    base = profile.find("sim").read_text()
    if kind == "reader":
        old, new = 'pad = { backend = "sim" }', f'pad = {{ backend = "{backend}", {key} = {v} }}'
        if backend == "hub":
            base = base.replace("[shared]", '[[hubs]]\nname = "hub"\nport = "auto"\n\n[shared]', 1)
    elif kind == "screen":  # the shared screen
        spi = ", dc_pin = 16" if key == "interface" else ""  # an SPI screen's DC pin, not seat3's light
        if key == "select":  # an SPI screen behind the table's decoder, on seat4's pins
            spi = ', interface = "spi", dc_pin = 16'
            base = base[:base.rindex("[[seats]]")].replace(
                "[shared]", "[screen_decoder]\nspi_port = 0\naddress_pins = [17, 27, 18]\n\n[shared]", 1)
        old, new = 'screen = { backend = "dummy" }', f'screen = {{ backend = "{backend}", {key} = {v}{spi} }}'
    elif kind == "decoder":  # not a part: the table's [screen_decoder]
        pins = "" if key == "address_pins" else "address_pins = [3, 7, 8]\n"
        old, new = "[shared]", f"[screen_decoder]\n{pins}{key} = {v}\n\n[shared]"
    elif kind == "light":
        old = "light = { pin = 22 }"
        rgb = "light = { kind = 'rgb', pins = [3, 7, 8] }"
        new = {"kind": rgb, "pins": rgb, "pin": "light = { pin = 16 }"}.get(
            key, f"light = {{ pin = 22, {key} = {v} }}")
    elif kind == "computer":  # not a part: the table's [computer] budget
        old = "[shared]"
        new = f"[computer]\n{key} = {v}\n\n[shared]"
    elif kind == "encoder":
        old, new = "light = { pin = 22 }", "light = { pin = 22 }\nencoder = { pin_a = 3, pin_b = 16 }"
    elif backend == "hub":  # the undo button, on the reader hub
        old = "undo = { pin = 15 }"
        base = base.replace("[shared]", '[[hubs]]\nname = "hub"\nport = "auto"\n\n[shared]', 1)
        new = ('undo = { backend = "hub", hub = "hub", button = 0' + ("" if key in ("hub", "button")
                                                                       else f", {key} = {v}") + " }")
    else:  # the undo button
        old = "undo = { pin = 15 }"
        new = "undo = { pin = 16 }" if key == "pin" else f"undo = {{ pin = 15, {key} = {v} }}"
    assert old in base
    return base.replace(old, new, 1), new


_EVERY_SETTING = [(kind, backend, s.key) for kind, by in getattr(parts, "SETTINGS", {}).items()
                  for backend, keys in by.items() for s in keys]


@pytest.mark.parametrize("kind,backend,key", _EVERY_SETTING)
def test_every_setting_a_driver_takes_is_a_key_the_profile_takes(tmp_path, kind, backend, key):
    """drivers.parts.SETTINGS is the one list: the profile takes each key with
    a value in its range (speed_hz, antenna_gain_db, timeout_ms and max_tags
    of an RC522 pad were refused as unknown keys)."""
    setting = parts.settings(kind, backend)[key]
    text, line = _part_toml(kind, backend, key, _valid(setting))
    path = tmp_path / "t.toml"
    path.write_text(text)
    loaded = profile.load(path)
    spec = {"reader": loaded.seats[0].pad, "screen": loaded.shared_screen, "light": loaded.seats[0].light,
            "encoder": loaded.seats[0].encoder, "button": loaded.undo,
            "computer": getattr(loaded, "computer", None), "decoder": loaded.screen_decoder}[kind]
    assert key in spec.values or kind == "encoder", line


def test_rc522_settings_reach_the_driver(tmp_path, monkeypatch):
    from drivers.rc522 import driver

    text = profile.find("sim").read_text().replace(
        'pad = { backend = "sim" }',
        'pad = { backend = "rc522", device = 0, speed_hz = 400000, antenna_gain_db = 43, timeout_ms = 8, '
        'max_tags = 3 }', 1)
    path = tmp_path / "t.toml"
    path.write_text(text)
    spec = profile.load(path).seats[0].pad
    seen = {}
    monkeypatch.setattr(driver, "open_rc522", lambda name, **kw: seen.update(kw, name=name))
    parts.open_reader(spec)
    assert seen["name"] == "seat1.pad"
    given = (seen["speed_hz"], seen["antenna_gain_db"], seen["timeout_ms"], seen["max_tags"])
    assert given == (400000, 43, 8, 3)
    assert seen["bus"] == 0 and seen["cs_pin"] is None  # left out: the one declared default


@pytest.mark.parametrize("written,said", [
    ("speed_hz = 50000000", "seat1.pad: speed_hz = 50000000 is above 10000000; "
                            "write e.g. speed_hz = 1000000 (10000 to 10000000)"),
    ("antenna_gain_db = 40", "antenna_gain_db = 40 is not one of 18, 23, 33, 38, 43, 48; "
                             "write e.g. antenna_gain_db = 33"),
    ("timeout_ms = \"5\"", "timeout_ms must be a number, not '5'; write e.g. timeout_ms = 1.0"),
    ("max_tags = 0", "max_tags = 0 is below 1; write e.g. max_tags = 6 (1 to 16)"),
    ("index = 1", "'index' is not a setting of a rc522 reader (reader seat1.pad); "
                  "remove it; it is for backend hub"),
])
def test_a_part_setting_out_of_range_is_refused_with_line_and_fix(tmp_path, written, said):
    base = profile.find("sim").read_text()
    text = base.replace('pad = { backend = "sim" }', f'pad = {{ backend = "rc522", {written} }}', 1)
    path = tmp_path / "t.toml"
    path.write_text(text)
    with pytest.raises(ProfileError) as err:
        profile.load(path)
    assert f"{path}:{_line_of(text, written)}: " in str(err.value)
    assert said in str(err.value)


def test_the_hub_port_is_one_that_exists_on_a_pi():
    """The reference table's hub port: "auto" (found by its USB id) or the
    udev rule's own symlink. /dev/serial/by-id names carry the board's serial
    number (usb-MicroPython_Board_in_FS_mode-e6614c311b6d8e2a-if00), so a name
    without it never exists and seats 3-4 never connected."""
    import re

    ref = profile.load(profile.find("reference"))
    rule = (ROOT / "hardware" / "udev" / "99-tablekeeper-hub.rules").read_text()
    links = {"/dev/" + m for m in re.findall(r'SYMLINK\+="([^"]+)"', rule)}
    assert links and all(h.port in {"auto", *links} for h in ref.hubs), [h.port for h in ref.hubs]


def test_a_hub_port_that_is_not_there_is_named_with_its_line(tmp_path):
    """At install time (systemd/install.sh): a port path that does not exist."""
    text = profile.find("reference").read_text().replace(
        'port = "auto"', 'port = "/dev/serial/by-id/usb-MicroPython_Board_in_FS_mode-if00"', 1)
    path = tmp_path / "t.toml"
    path.write_text(text)
    problems = profile.absent_hubs(profile.load(path))
    assert problems == [
        f"{path}:{_line_of(text, 'by-id/usb')}: hub 'hub': port "
        "/dev/serial/by-id/usb-MicroPython_Board_in_FS_mode-if00 is not there; plug the hub in, "
        'or write port = "auto" (found by its USB id) or "/dev/tablekeeper-hub" (the udev rule\'s name)']
    assert profile.absent_hubs(profile.load(profile.find("reference"))) == []
    assert 'problems = profile.absent_hubs(profile.load(sys.argv[1]))' in (
        ROOT / "systemd" / "install.sh").read_text()


# -- the computer's budget ([computer]) ---------------------------------------


@pytest.mark.parametrize("written,said", [
    ("iterations = 0", "[computer]: iterations = 0 is below 1; write e.g. iterations = 2000 (1 to 1000000)"),
    ("seconds = -1", "[computer]: seconds = -1 is below 0.05; write e.g. seconds = 0.9 (0.05 to 60)"),
    ('seconds = "1"', "[computer]: seconds must be a number, not '1'; write e.g. seconds = 0.9"),
    ("depth = 3", "unknown key 'depth' in [computer]; remove it or use one of: iterations, level, seconds"),
])
def test_a_bad_computer_budget_is_refused_with_line_and_fix(tmp_path, written, said):
    text = profile.find("sim").read_text().replace("[shared]", f"[computer]\n{written}\n\n[shared]", 1)
    path = tmp_path / "t.toml"
    path.write_text(text)
    with pytest.raises(ProfileError) as err:
        profile.load(path)
    assert f"{path}:{_line_of(text, written)}: {said}" in str(err.value)


def test_the_computer_budget_is_read_and_defaults_to_the_players_default(tmp_path):
    from pi_app.session import computer
    from players import DEFAULT_BUDGET, Budget

    text = profile.find("sim").read_text().replace("[shared]", "[computer]\niterations = 300\n\n[shared]", 1)
    path = tmp_path / "t.toml"
    path.write_text(text)
    assert computer.budget(profile.load(path).computer) == Budget(300, DEFAULT_BUDGET.seconds)
    assert computer.budget(profile.load(profile.find("sim")).computer) == DEFAULT_BUDGET
