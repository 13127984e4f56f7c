"""Screens: frame skipping, PNG saving, I2C addresses and the TCA9548A, on luma's real device code."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from drivers.base import Screen, ScreenError
from drivers.screens import I2cBuses, open_oled, pattern_frame
from drivers.sim.fake_spi import FakeGpio, FakeSpiBus, fake_rpi_gpio, fake_spidev
from drivers.sim.i2c import FakeI2cBus
from drivers.sim.screens import frames, save_all_png, save_png, simulated_oled, texts


def frame(text: str) -> Image.Image:
    image = Image.new("1", (128, 64), 0)
    ImageDraw.Draw(image).text((4, 4), text, fill=1)
    return image


def test_unchanged_frames_are_not_sent() -> None:
    screen = simulated_oled("seat1.screen")
    assert isinstance(screen, Screen)
    assert screen.show(frame("Your turn"))
    assert not screen.show(frame("Your turn"))  # an equal frame, not the same object
    assert screen.show(frame("Pick a card"))
    assert not screen.show(frame("Pick a card"))
    assert screen.show(frame("Your turn"))
    assert (screen.frames_sent, screen.frames_skipped) == (3, 2)
    assert len(frames(screen)) == 3


def test_screens_keep_the_words_of_their_frames() -> None:
    screen = simulated_oled("seat1.screen", keep=2)
    assert screen.text == ""
    assert screen.show(frame("one"), text="one")
    assert not screen.show(frame("one"), text="one, again")  # same pixels: the words still follow
    assert screen.text == "one, again"
    screen.show(frame("two"), text="two")
    screen.show(frame("three"))
    assert screen.text == ""
    assert texts(screen) == ["two", ""]
    assert len(frames(screen)) == 2
    screen.test_pattern()
    assert texts(screen)[-1] == screen.text == "seat1.screen\n128x64 ok"


def test_frames_are_kept_and_saved_as_png(tmp_path: Path) -> None:
    screen = simulated_oled("seat1.screen")
    screen.show(frame("one"))
    screen.show(frame("two"))
    path = save_png(screen, tmp_path / "last.png")
    with Image.open(path) as saved:
        assert saved.size == (128, 64)
        assert saved.convert("1").tobytes() == frame("two").tobytes()
    paths = save_all_png(screen, tmp_path / "all")
    assert [p.name for p in paths] == ["seat1.screen-0001.png", "seat1.screen-0002.png"]


def test_keep_limits_the_frames_kept() -> None:
    screen = simulated_oled("shared.screen", keep=2)
    for text in ("a", "b", "c"):
        screen.show(frame(text))
    assert [f.tobytes() for f in frames(screen)] == [frame("b").tobytes(), frame("c").tobytes()]


def test_test_pattern_and_clear() -> None:
    screen = simulated_oled("seat2.screen")
    assert screen.test_pattern()
    assert frames(screen)[-1].tobytes() == pattern_frame((128, 64), "seat2.screen").tobytes()
    assert not screen.test_pattern()
    assert screen.clear()
    assert not any(frames(screen)[-1].tobytes())


def test_frame_of_the_wrong_size() -> None:
    screen = simulated_oled("seat1.screen")
    with pytest.raises(ValueError, match="the frame is 64x32, the screen 128x64"):
        screen.show(Image.new("1", (64, 32)))


def test_other_modes_are_converted() -> None:
    screen = simulated_oled("seat1.screen")
    assert screen.show(frame("x").convert("L"))
    assert not screen.show(frame("x"))


def test_save_png_errors(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="has not been sent a frame"):
        save_png(simulated_oled("s"), tmp_path / "x.png")


# -- luma.oled's real device code on a fake I2C bus ------------------------------------------


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_i2c_screens_at_both_addresses(driver: str) -> None:
    bus = FakeI2cBus({(None, 0x3C), (None, 0x3D)}, mux_address=None)
    buses = I2cBuses(opener=lambda port: bus)
    one = open_oled("seat1.screen", driver=driver, address=0x3C, i2c=buses)
    two = open_oled("seat2.screen", driver=driver, address=0x3D, i2c=buses)
    bus.log.clear()
    one.show(frame("one"))
    two.show(frame("two"))
    sent = [sum(len(d) for _, a, r, d in bus.log if a == addr and r == 0x40) for addr in (0x3C, 0x3D)]
    # each was set up with a blank frame: only the columns the words darken are sent
    assert all(0 < n < 1024 for n in sent), sent
    bus.log.clear()
    one.show(frame("one"))
    assert bus.log == []


def test_screens_behind_a_tca9548a_select_their_channel_before_each_frame() -> None:
    bus = FakeI2cBus({(0, 0x3C), (1, 0x3C), (2, 0x3D)})
    buses = I2cBuses(opener=lambda port: bus)
    screens = [
        open_oled(f"seat{ch + 1}.screen", mux_channel=ch, address=addr, i2c=buses)
        for ch, addr in ((0, 0x3C), (1, 0x3C), (2, 0x3D))
    ]
    bus.log.clear()
    for i, screen in enumerate(screens):
        screen.show(frame(f"seat {i}"))
    screens[0].show(frame("again"))
    selects = [i for i, (_, a, _, _) in enumerate(bus.log) if a == 0x70]
    assert [bus.log[i][3] for i in selects] == [[0b001], [0b010], [0b100], [0b001]]
    for start in selects:
        assert bus.log[start + 1][1] != 0x70  # every select is followed by that screen's frame
    by_channel = {ch for ch, a, _, _ in bus.log if a != 0x70}
    assert by_channel == {0, 1, 2}


def test_a_missing_screen_is_a_clear_error() -> None:
    bus = FakeI2cBus({(None, 0x3C)}, mux_address=None)
    buses = I2cBuses(opener=lambda port: bus)
    with pytest.raises(ScreenError, match=r"screen seat2\.screen: cannot open the sh1106 on i2c.*0x3D"):
        open_oled("seat2.screen", address=0x3D, i2c=buses)
    screen = open_oled("seat1.screen", address=0x3C, i2c=buses)
    bus.devices.clear()  # unplugged
    with pytest.raises(ScreenError, match=r"seat1\.screen on /dev/i2c-1 at 0x3C did not take a frame"):
        screen.show(frame("x"), text="x")
    assert screen.text == ""  # the words of a frame that never showed are not kept
    bus.devices.add((None, 0x3C))
    assert screen.show(frame("x"), text="x")
    assert screen.text == "x"
    assert not screen.show(frame("x"))


def test_a_missing_mux_is_a_clear_error() -> None:
    bus = FakeI2cBus({(0, 0x3C)})
    buses = I2cBuses(opener=lambda port: bus)
    screen = open_oled("seat1.screen", mux_channel=0, i2c=buses)
    bus.write_byte = _raise_eio  # type: ignore[method-assign]
    with pytest.raises(ScreenError, match="the TCA9548A at 0x70 on /dev/i2c-1 did not answer"):
        screen.show(frame("x"))


def _raise_eio(address: int, value: int) -> None:
    raise OSError(121, "Remote I/O error")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"address": 0x3E}, "I2C address 0x3E is not 0x3C or 0x3D"),
        ({"driver": "ssd1322"}, "driver 'ssd1322' is not one of ssd1306, sh1106"),
        ({"mux_channel": 8}, "channel 8 is not between 0 and 7"),
        ({"mux_channel": 0, "mux_address": 0x20}, "address 0x20 is not between 0x70 and 0x77"),
        ({"mux_address": 0x70}, "mux_address is set but mux_channel is not"),
        ({"interface": "uart"}, "interface 'uart' is not 'i2c' or 'spi'"),
        ({"rotate": 4}, "rotate is 0-3"),
        ({"width": 128, "height": 32}, "only 128x64"),
    ],
)
def test_bad_specs(options: dict, message: str) -> None:
    buses = I2cBuses(opener=lambda port: FakeI2cBus({(None, 0x3C), (0, 0x3C)}))
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        open_oled("seat1.screen", i2c=buses, **options)


def test_spi_off_a_pi_is_a_clear_error() -> None:
    with pytest.raises(
        ScreenError, match=r"screen shared\.screen: cannot open the ssd1306 on spi.*tablekeeper\[pi\]"
    ):
        open_oled("shared.screen", driver="ssd1306", interface="spi")


def test_spi_without_the_pi_libraries_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    for module in ("spidev", "RPi", "RPi.GPIO"):
        monkeypatch.setitem(sys.modules, module, None)
    with pytest.raises(ScreenError, match=r"shared\.screen.*needs /dev/spidev0\.1.*tablekeeper\[pi\]"):
        open_oled("shared.screen", driver="ssd1306", interface="spi")


class SpiRecorder:
    """A device on the fake SPI bus that keeps every byte written to it, with the D/C level."""

    def __init__(self, gpio: FakeGpio, dc_pin: int) -> None:
        self.gpio = gpio
        self.dc_pin = dc_pin
        self.commands: list[int] = []
        self.data: list[int] = []

    def xfer2(self, data: list[int]) -> list[int]:
        (self.data if self.gpio.levels.get(self.dc_pin) else self.commands).extend(data)
        return [0] * len(data)


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_spi_screen_on_fake_spidev_and_gpio(driver: str) -> None:
    bus = FakeSpiBus()
    with fake_rpi_gpio() as gpio, fake_spidev(bus):
        oled = SpiRecorder(gpio, dc_pin=24)
        bus.attach(oled, bus=0, device=1)  # type: ignore[arg-type]
        screen = open_oled("shared.screen", driver=driver, interface="spi", gpio_dc=24, gpio_rst=25)
        assert gpio.mode == FakeGpio.BCM and gpio.levels[25] == 1  # reset pulsed and released
        assert "/dev/spidev0.1" in screen.where and oled.commands  # the controller was set up
        oled.data.clear()
        assert screen.show(frame("spi"))
        first = len(oled.data)
        assert 0 < first < 1024  # set up blank: only the changed column windows
        assert not screen.show(frame("spi"))
        assert len(oled.data) == first  # unchanged: nothing sent
        assert screen.show(frame("changed"))
        assert first < len(oled.data) < first + 1024


# -- SPI screens behind GPIO chip selects ---------------------------------------------------------


class _SpiOled:
    """An emulated controller on the fake SPI bus: D/C read from the fake GPIO
    while it is selected; a low RST line powers it up afresh (RAM and set-up lost)."""

    def __init__(self, kind: str, gpio: FakeGpio, dc: int) -> None:
        from drivers.sim.oled_controller import OledController

        self.chip = OledController(kind)
        self.gpio, self.dc = gpio, dc
        self.spi_hz = 0

    def xfer2(self, data: list[int]) -> list[int]:
        self.chip.write(0x40 if self.gpio.levels.get(self.dc) else 0x00, list(data))
        return [0] * len(data)


def _spi_table(gpio: FakeGpio, shared_resets: bool) -> tuple[list[_SpiOled], list]:
    bus = FakeSpiBus()
    oleds = []
    real_output = gpio.output

    def output(pin: int, value: int) -> None:
        if pin == 25 and not value:
            for o in oleds:
                o.chip.power_on()
        real_output(pin, value)

    sys.modules["RPi.GPIO"].output = output  # what luma calls  # type: ignore[attr-defined]
    resets: set[int] | None = set() if shared_resets else None
    screens = []
    with fake_spidev(bus):
        for n, cs in enumerate((16, 26)):
            oled = _SpiOled("sh1106", gpio, 24)
            oleds.append(oled)
            bus.attach_gpio_cs(oled, lambda cs=cs: gpio.levels.get(cs) == 0, bus=1)  # type: ignore[arg-type]
            screens.append(open_oled(f"seat{n + 1}.screen", driver="sh1106", interface="spi", spi_port=1,
                                     spi_device=0, cs_pin=cs, gpio_dc=24, gpio_rst=25, spi_resets=resets))
    return oleds, screens


def test_spi_screens_share_the_bus_d_c_and_reset_with_a_gpio_chip_select_each() -> None:
    with fake_rpi_gpio() as gpio:
        oleds, screens = _spi_table(gpio, shared_resets=True)
        shown = []
        for n, screen in enumerate(screens):
            frame = Image.new("1", (128, 64))
            ImageDraw.Draw(frame).text((4, 4 + 20 * n), f"screen {n + 1}", fill=1)
            screen.show(frame)
            shown.append(frame)
        assert [o.chip.on for o in oleds] == [True, True]
        assert [o.chip.glass().tobytes() for o in oleds] == [f.tobytes() for f in shown]
        assert "chip select GPIO16" in screens[0].where


def test_a_shared_reset_line_pulsed_for_each_screen_would_blank_the_ones_before() -> None:
    """Why the builder shares spi_resets: without it, opening the second
    screen resets the first, which then shows nothing."""
    with fake_rpi_gpio() as gpio:
        oleds, _ = _spi_table(gpio, shared_resets=False)
        assert [o.chip.on for o in oleds] == [False, True]


def test_spi_clock_is_the_controllers_unless_set() -> None:
    from drivers.screens import SPI_HZ

    assert SPI_HZ == {"sh1106": 4_000_000, "ssd1306": 8_000_000}
    bus = FakeSpiBus()
    with fake_rpi_gpio() as gpio, fake_spidev(bus):
        bus.attach_gpio_cs(_SpiOled("sh1106", gpio, 24), lambda: gpio.levels.get(16) == 0, bus=1)  # type: ignore[arg-type]
        open_oled("seat1.screen", driver="sh1106", interface="spi", spi_port=1, spi_device=0, cs_pin=16)
        assert bus.settings(1, 0)["max_speed_hz"] == 4_000_000
        open_oled("seat1.screen", driver="sh1106", interface="spi", spi_port=1, spi_device=0, cs_pin=16,
                  spi_hz=2_000_000)
        assert bus.settings(1, 0)["max_speed_hz"] == 2_000_000


# -- a sender per bus -----------------------------------------------------------------------------


class _SlowBus(FakeI2cBus):
    """A fake bus whose wire is held until ``free`` is set: a frame on the wire."""

    def __init__(self) -> None:
        import threading

        super().__init__(set())
        self.free = threading.Event()
        self.fail_next = False

    def i2c_rdwr(self, *messages) -> None:
        assert self.free.wait(5.0)
        if self.fail_next:
            self.fail_next = False
            raise OSError(121, "Remote I/O error")
        super().i2c_rdwr(*messages)


def _two_screens(bus: FakeI2cBus) -> tuple[I2cBuses, list]:
    from drivers.sim.oled_controller import OledController

    buses = I2cBuses(opener=lambda port: bus, threaded=True)
    chips = []
    for channel in (0, 1):
        chip = OledController("sh1106", seed=channel)
        bus.attach(channel, 0x3C, chip)
        chips.append(chip)
    bus.free.set()  # the constructors' set-up
    screens = [open_oled(f"seat{c + 1}.screen", driver="sh1106", mux_channel=c, i2c=buses) for c in (0, 1)]
    for screen in screens:
        screen.flush()
    return buses, list(zip(screens, chips, strict=True))


def _words(text: str) -> Image.Image:
    frame = Image.new("1", (128, 64))
    ImageDraw.Draw(frame).text((4, 20), text, fill=1)
    return frame


def test_a_bus_sender_sends_while_the_caller_draws_the_next_frame() -> None:
    bus = _SlowBus()
    buses, pairs = _two_screens(bus)
    try:
        bus.free.clear()  # the wire is busy from now on
        frames = [_words("first"), _words("second")]
        for (screen, _), frame in zip(pairs, frames, strict=True):
            assert screen.show(frame) is True  # queued: returns with the wire still held
        assert [chip.glass().tobytes() == f.tobytes() for (_, chip), f in zip(pairs, frames, strict=True)] \
            == [False, False]
        bus.free.set()
        for screen, _ in pairs:
            screen.flush()
        assert [chip.glass().tobytes() for _, chip in pairs] == [f.tobytes() for f in frames]
    finally:
        buses.close()


def test_screens_on_two_i2c_buses_send_side_by_side() -> None:
    """A table may put its screens on two I2C buses (a screen's ``port``):
    each bus has its own sender, so a frame on one bus does not wait behind
    the other's."""
    from drivers.sim.oled_controller import OledController

    slow, other_bus = _SlowBus(), FakeI2cBus(set())
    buses = I2cBuses(opener=lambda port: slow if port == 1 else other_bus, threaded=True)
    chips = [OledController("sh1106", seed=0), OledController("sh1106", seed=1)]
    slow.attach(0, 0x3C, chips[0])
    other_bus.attach(None, 0x3C, chips[1])
    slow.free.set()  # the constructors' set-up
    held = open_oled("seat1.screen", driver="sh1106", mux_channel=0, i2c=buses)
    other = open_oled("seat2.screen", driver="sh1106", port=3, i2c=buses)
    first, second = _words("first"), _words("second")
    try:
        for screen in (held, other):
            screen.flush()
        slow.free.clear()  # bus 1's wire is busy from now on
        assert held.show(first) is True and other.show(second) is True
        other.flush()  # returns although bus 1 still holds its frame
        assert chips[1].glass().tobytes() == second.tobytes()
        assert chips[0].glass().tobytes() != first.tobytes()
        slow.free.set()
        held.flush()
        assert chips[0].glass().tobytes() == first.tobytes()
    finally:
        slow.free.set()
        buses.close()


def test_a_frame_the_sender_could_not_send_is_reported_at_flush_and_sent_whole_next() -> None:
    bus = _SlowBus()
    buses, pairs = _two_screens(bus)
    screen, chip = pairs[0]
    try:
        bus.fail_next = True
        assert screen.show(_words("lost")) is True
        with pytest.raises(ScreenError, match=r"seat1\.screen"):
            screen.flush()
        screen.flush()  # reported once
        again = _words("again")
        screen.show(again)
        screen.flush()
        assert chip.glass().tobytes() == again.tobytes()
    finally:
        buses.close()
