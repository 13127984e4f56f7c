"""A table whose screens are on SPI1 behind a 74HC138 (the reference table's
wiring, hardware/wiring.md), run on the simulated bus: luma's SPI driver and
the decoder's interface talk to emulated SH1106 chips, and each panel shows
the frame its screen was last sent, and no other screen's."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from drivers.sim.spi_screens import SimulatedSpi

PROFILE = """
[table]
name = "SPI screens"
lang = "en"
chance = "draw"
pins = "mock"

[screen_decoder]
spi_port = 1
spi_device = 0
address_pins = [17, 27, 26]

[shared]
screen = { backend = "luma", driver = "sh1106", interface = "spi", select = 4, dc_pin = 2, rst_pin = 3 }
undo = { pin = 15 }

[[seats]]
name = "seat1"
pad = { backend = "sim" }
screen = { backend = "luma", driver = "sh1106", interface = "spi", select = 0, dc_pin = 2, rst_pin = 3 }
buttons = { left = 4, ok = 5, right = 6 }
light = { pin = 22 }

[[seats]]
name = "seat2"
pad = { backend = "sim" }
screen = { backend = "luma", driver = "sh1106", interface = "spi", select = 1, dc_pin = 2, rst_pin = 3 }
buttons = { left = 12, ok = 13, right = 16 }
light = { pin = 23 }
"""

NAMES = ("seat1.screen", "seat2.screen", "shared.screen")


def _glass_is_what_each_was_sent(table) -> None:
    for screen in table.screens.values():
        screen.flush()
    spi: SimulatedSpi = table.spi
    for name in NAMES:
        screen = table.screens[name]
        sent = screen._last  # the frame it last sent, as it keeps it: its controller's pages
        assert sent is not None and _as_kept(screen, spi.glass(name)) == sent, name


def _as_kept(screen, image: Image.Image) -> bytes:
    """A panel's pixels in the form a screen keeps its last frame in."""
    pages_of = getattr(screen.device, "pages_of", None)
    return b"".join(pages_of(image)) if pages_of is not None else image.tobytes()


def test_a_game_on_spi_screens_behind_the_decoder(tmp_path: Path, rig, fake_game):
    path = tmp_path / "spi.toml"
    path.write_text(PROFILE)
    r = rig(2, str(path))
    s = r.open(fake_game)
    table = r.table
    assert set(table.spi.chips) == set(NAMES)
    _glass_is_what_each_was_sent(table)
    blank = Image.new("1", (128, 64), 0).tobytes()
    glass = {name: table.spi.glass(name).tobytes() for name in NAMES}
    assert blank not in glass.values()  # every panel is on and shows its page
    moves = len(s.scene.state.history)
    r.press("seat1.ok")  # seat 1 passes: a move, and seat 1's screen leaves its menu
    assert len(s.scene.state.history) == moves + 1
    _glass_is_what_each_was_sent(table)
    assert table.spi.glass("seat1.screen").tobytes() != glass["seat1.screen"]
    # every byte went through the decoder on SPI1's CE0, at the SH1106's clock
    assert {chip.spi_hz for chip in table.spi.chips.values()} == {4_000_000}
    assert all(f.bus == 1 and f.device == 0 and not f.no_cs for f in table.spi.bus.opened)


def test_the_start_up_message_stays_on_every_spi_screen(tmp_path: Path):
    """The screens share one reset line: opening each for the message must
    not pulse it again, which would blank the screens already showing it."""
    from pi_app.table import profile, startup

    path = tmp_path / "spi.toml"
    path.write_text(PROFILE)
    specs = profile.load(path).screens()
    spi = SimulatedSpi(specs)
    with spi.installed():
        shown = startup.show(specs, "seat3.pad: reader hub not connected", 10, "en")
    assert sorted(shown) == sorted(NAMES)
    panels = {spi.glass(name).tobytes() for name in NAMES}
    assert len(panels) == 1 and Image.new("1", (128, 64), 0).tobytes() not in panels


def test_a_reset_pulse_blanks_every_screen_on_the_line(tmp_path: Path):
    """The emulation the test above relies on: the reset line reaches every chip on it."""
    from pi_app.table import profile, startup

    path = tmp_path / "spi.toml"
    path.write_text(PROFILE)
    specs = profile.load(path).screens()
    spi = SimulatedSpi(specs)
    with spi.installed():
        startup.show(specs[:1], "a message", 10, "en")
        assert spi.glass(NAMES[0]).getbbox() is not None
        spi.gpio.output(3, 0)
    assert spi.glass(NAMES[0]).getbbox() is None


def test_screens_with_a_gpio_chip_select_each(tmp_path: Path):
    """The other SPI choice (wiring.md, *Screens on I2C*): a GPIO chip select
    per screen on SPI0's device 1, one D/C and reset line for all."""
    import queue

    from drivers.screens import pattern_frame
    from pi_app.table import hardware, profile

    text = PROFILE[:PROFILE.index("[screen_decoder]")] + PROFILE[PROFILE.index("[shared]"):]
    for select, cs in ((4, 20), (0, 21), (1, 26)):
        text = text.replace(f"select = {select},", f"spi_port = 0, cs_pin = {cs},")
    path = tmp_path / "cs.toml"
    path.write_text(text)
    table = hardware.build(profile.load(path), queue.Queue(), poll=False)
    try:
        for name in NAMES:
            table.screens[name].show(pattern_frame((128, 64), name))
        _glass_is_what_each_was_sent(table)
        assert all(f.no_cs for f in table.spi.bus.opened)  # luma's gpio_cs_spi: the kernel's CE1 left alone
    finally:
        table.close()
