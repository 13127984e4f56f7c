"""Seat buttons on the reader hub in a table profile: the form, and what is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_app.table import profile
from pi_app.table.profile import ProfileError

SEAT3 = "buttons = { left = 20, ok = 21, right = 26 }"
SEAT4 = "buttons = { left = 17, ok = 27, right = 18 }"
HUB3 = 'buttons = { backend = "hub", hub = "hub", left = 0, ok = 1, right = 2 }'
HUB4 = 'buttons = { backend = "hub", hub = "hub", left = 3, ok = 4, right = 5 }'


def reference(tmp_path: Path, *swaps: tuple[str, str]) -> tuple[Path, str]:
    """The reference table with seats 3 and 4's buttons on the hub, then ``swaps``."""
    text = profile.find("reference").read_text().replace(SEAT3, HUB3).replace(SEAT4, HUB4)
    for old, new in swaps:
        assert old in text, old
        text = text.replace(old, new, 1)
    path = tmp_path / "t.toml"
    path.write_text(text)
    return path, text


def refused(path: Path) -> str:
    with pytest.raises(ProfileError) as err:
        profile.load(path)
    return str(err.value)


def line_of(text: str, needle: str) -> int:
    return next(i for i, ln in enumerate(text.splitlines(), 1) if needle in ln)


def test_seat_buttons_on_the_hub_free_their_gpio_pins(tmp_path):
    path, _ = reference(tmp_path)
    loaded = profile.load(path)
    seat3 = loaded.seats[2]
    assert [(b.name, b.backend, b.hub, b.button, b.hold_time) for b in seat3.buttons] == [
        ("seat3.left", "hub", "hub", 0, 1.0), ("seat3.ok", "hub", "hub", 1, 1.0),
        ("seat3.right", "hub", "hub", 2, 1.0)]
    assert [b.button for b in loaded.seats[3].buttons] == [3, 4, 5]
    assert [b.pin for b in loaded.seats[0].buttons] == [4, 5, 6]  # GPIO buttons as before
    # seat3's old ◀ and ● pins, GPIO20 and 21, are the screens' SPI1 MOSI and SCLK now
    assert loaded.shared_screen.interface == "spi" and loaded.shared_screen.spi_port == 1


def test_the_hub_may_be_left_out_when_there_is_one(tmp_path):
    path, _ = reference(tmp_path, (HUB3, 'buttons = { backend = "hub", left = 0, ok = 1, right = 2 }'),
                        ("undo = { pin = 15 }", 'undo = { backend = "hub", button = 6 }'))
    loaded = profile.load(path)
    assert {b.hub for b in loaded.seats[2].buttons} == {"hub"} and loaded.undo.hub == "hub"
    assert loaded.undo.button == 6 and loaded.undo.get("pin") is None


@pytest.mark.parametrize("swap,needle,said", [
    ((HUB3, HUB3.replace('hub = "hub"', 'hub = "pico"')), 'hub = "pico"',
     "seat3 buttons names hub 'pico', which is not declared; use one of: hub, or add a [[hubs]] table"),
    ((HUB4, HUB4.replace("left = 3", "left = 1")), "left = 1, ok = 4",
     "hub button 1 of seat4.left is already used by seat3.ok; give each button its own number on the hub"),
    (("undo = { pin = 15 }", 'undo = { backend = "hub", button = 5 }'), "undo = {",
     "hub button 5 of shared.undo is already used by seat4.right"),
    ((HUB3, HUB3.replace("right = 2", "right = 16")), "ok = 1, right = 16",
     "seat3.right: right = 16 is above 15; write the hub's button number, e.g. right = 0 (0 to 15"),
    ((HUB3, HUB3.replace("ok = 1", 'ok = "1"')), 'ok = "1"',
     "seat3.ok: ok must be a whole number, not '1'"),
    ((HUB3, HUB3.replace('backend = "hub"', 'backend = "usb"')), 'backend = "usb"',
     "seat3 buttons: backend = 'usb' is not known; use one of: gpio, hub"),
    (("buttons = { left = 4, ok = 5, right = 6 }",
      'buttons = { hub = "hub", left = 4, ok = 5, right = 6 }'), 'hub = "hub", left = 4',
     "seat1 buttons: 'hub' is only for buttons on the hub"),
    (("undo = { pin = 15 }", "undo = { button = 6 }"), "undo = { button = 6 }",
     "'button' is not a setting of a gpio button ([shared.undo]); remove it; it is for backend hub "
     '(backend = "hub")'),
])
def test_bad_hub_buttons_are_refused_with_line_and_fix(tmp_path, swap, needle, said):
    path, text = reference(tmp_path, swap)
    msg = refused(path)
    assert said in msg, msg
    assert f"{path}:{line_of(text, needle)}: " in msg, msg


def test_hub_buttons_without_a_declared_hub(tmp_path):
    sim = profile.find("sim").read_text()
    path = tmp_path / "t.toml"
    path.write_text(sim.replace("buttons = { left = 4, ok = 5, right = 6 }",
                                'buttons = { backend = "hub", left = 0, ok = 1, right = 2 }'))
    msg = refused(path)
    said = "seat1 buttons does not say which hub it is on; add a [[hubs]] table with its name and serial port"
    assert msg.count(said) == 1, msg


def test_the_recipe_in_wiring_md_loads(tmp_path):
    wiring = (Path(__file__).resolve().parents[3] / "hardware" / "wiring.md").read_text()
    assert HUB3 in wiring and 'undo = { backend = "hub", button = 6 }' in wiring
    path, _ = reference(tmp_path, ("undo = { pin = 15 }", 'undo = { backend = "hub", button = 6 }'))
    assert profile.load(path).undo.button == 6
