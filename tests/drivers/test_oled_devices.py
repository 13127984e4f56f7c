"""Screens send only what changed: luma's SH1106/SSD1306 subclasses on the fake
I2C bus, checked against the controllers' display RAM as their datasheets
describe it (drivers/sim/oled_controller.py), not against our own sender."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from luma.core.interface.serial import i2c as luma_i2c
from luma.oled.device import sh1106, ssd1306
from PIL import Image, ImageDraw, ImageFont

from drivers.base import ScreenError
from drivers.oled_devices import changed_window, changed_windows, page_bytes
from drivers.screens import I2cBuses, MuxedBus, OledScreen, open_oled
from drivers.sim.i2c import FakeI2cBus, Traffic, wire_seconds
from drivers.sim.oled_controller import OledController

DRIVERS = ["sh1106", "ssd1306"]
# The table's own font: Pillow's default one is a small bitmap before Pillow 10.1 and a larger
# outline font since, and the frames below must change as many pages on Debian's Pillow 9.4.
FONT = ImageFont.truetype(str(Path(__file__).resolve().parents[2] / "pi_app/fonts/DejaVuSansCondensed.ttf"),
                          12)


def rig(driver: str, channel: int = 0) -> tuple[FakeI2cBus, OledController, OledScreen]:
    bus = FakeI2cBus(set())
    chip = OledController(driver, seed=channel)
    bus.attach(channel, 0x3C, chip)
    screen = open_oled(f"seat{channel + 1}.screen", driver=driver, mux_channel=channel,
                       i2c=I2cBuses(opener=lambda port: bus))
    return bus, chip, screen


def picture(words: str, seed: int = 0) -> Image.Image:
    image = Image.new("1", (128, 64), 0)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, 127, 63), outline=1)
    draw.text((4 + seed % 7, 4 + seed % 11), words, fill=1, font=FONT)
    return image


def sent(bus: FakeI2cBus, action) -> Traffic:
    bus.traffic.clear()
    action()
    return bus.traffic.get((0, 0x3C), Traffic())


@pytest.mark.parametrize("driver", DRIVERS)
def test_luma_own_class_and_the_emulated_chip_agree(driver: str) -> None:
    """The emulator reads luma's own full frames as the frame: it is not built around our sender."""
    bus = FakeI2cBus(set(), mux_address=None)
    chip = OledController(driver)
    bus.attach(None, 0x3C, chip)
    device = (sh1106 if driver == "sh1106" else ssd1306)(luma_i2c(bus=bus, address=0x3C))
    frame = picture("luma itself")
    device.display(frame)
    assert chip.on and chip.glass().tobytes() == frame.tobytes()


@pytest.mark.parametrize("driver", DRIVERS)
def test_one_changed_pixel_sends_one_window_of_one_page(driver: str) -> None:
    bus, chip, screen = rig(driver)
    first = picture("Your turn")
    whole = sent(bus, lambda: screen.show(first))
    assert whole.bytes < 1130 and chip.glass().tobytes() == first.tobytes()
    second = first.copy()
    second.putpixel((70, 37), 1)  # page 4, column 70
    one = sent(bus, lambda: screen.show(second))
    # a page-and-column command and one data byte in one I2C_RDWR (two messages),
    # not 40 transactions and 1,128 bytes
    assert one.transactions == 1, one
    assert one.bytes == (2 + 3 + 2 + 1 if driver == "sh1106" else 2 + 6 + 2 + 1)
    assert chip.glass().tobytes() == second.tobytes()


def test_sh1106_windows_start_at_its_column_offset() -> None:
    bus, chip, screen = rig("sh1106")
    screen.show(picture(""))
    frame = picture("")
    frame.putpixel((20, 9), 1)  # page 1, column 20: RAM column 22 = 0x16
    bus.log.clear()
    screen.show(frame)
    commands = [data for _, a, reg, data in bus.log if a == 0x3C and reg == 0x00]
    assert commands == [[0xB1, 0x06, 0x11]]
    assert chip.ram[1][22] == 0b10 and chip.glass().tobytes() == frame.tobytes()


@pytest.mark.parametrize("driver", DRIVERS)
@pytest.mark.parametrize("rotate", [0, 2])
def test_the_glass_shows_every_frame_of_a_random_run(driver: str, rotate: int) -> None:
    bus = FakeI2cBus(set())
    chip = OledController(driver, seed=5)
    bus.attach(3, 0x3C, chip)
    screen = open_oled("shared.screen", driver=driver, mux_channel=3, rotate=rotate,
                       i2c=I2cBuses(opener=lambda port: bus))
    rng = random.Random(driver)
    frame = picture("start")
    turned = {0: Image.Transpose.ROTATE_180, 2: Image.Transpose.ROTATE_180}
    for step in range(60):
        frame = frame.copy()
        draw = ImageDraw.Draw(frame)
        x0, y0 = rng.randrange(128), rng.randrange(64)
        x1, y1 = min(127, x0 + rng.randrange(40)), min(63, y0 + rng.randrange(20))
        if step % 10 == 9:
            frame = picture(f"new {step}", step)
        elif rng.random() < 0.5:
            draw.rectangle((x0, y0, x1, y1), fill=rng.randrange(2))
        else:
            frame.putpixel((x0, y0), 1 - frame.getpixel((x0, y0)))
        screen.show(frame)
        glass = chip.glass() if rotate == 0 else chip.glass().transpose(turned[rotate])
        assert glass.tobytes() == frame.tobytes(), f"step {step}"


@pytest.mark.parametrize("driver", DRIVERS)
def test_a_screen_that_lost_power_gets_its_setup_and_a_whole_frame(driver: str) -> None:
    bus, chip, screen = rig(driver)
    frame = picture("before")
    screen.show(frame)
    bus.unplug(0, 0x3C)
    after = picture("after the cut")
    with pytest.raises(ScreenError):
        screen.show(after)
    bus.plug(0, 0x3C)  # powered again: RAM of no content, panel off
    assert not chip.on
    back = sent(bus, lambda: screen.show(after))
    assert chip.on and chip.glass().tobytes() == after.tobytes()
    assert back.bytes > 1024
    # and from then on, changes only
    changed = after.copy()
    changed.putpixel((1, 1), 1)
    assert sent(bus, lambda: screen.show(changed)).transactions == 1
    assert chip.glass().tobytes() == changed.tobytes()


@pytest.mark.parametrize("driver", DRIVERS)
def test_a_frame_failing_half_way_is_sent_whole_next_time(driver: str) -> None:
    bus, chip, screen = rig(driver)
    screen.show(picture("one"))
    real, real_rdwr = bus.write_i2c_block_data, bus.i2c_rdwr
    calls = {"n": 0}

    def fails_second() -> None:  # a window of the frame's second changed page
        calls["n"] += 1
        if calls["n"] == 2:
            raise OSError(121, "Remote I/O error")

    def flaky(address: int, register: int, data: list[int]) -> None:
        fails_second()
        real(address, register, data)

    def flaky_rdwr(*messages) -> None:
        fails_second()
        real_rdwr(*messages)

    bus.write_i2c_block_data = flaky  # type: ignore[method-assign]
    bus.i2c_rdwr = flaky_rdwr  # type: ignore[method-assign]
    two = picture("two", 3)
    with pytest.raises(ScreenError):
        screen.show(two)
    bus.write_i2c_block_data, bus.i2c_rdwr = real, real_rdwr  # type: ignore[method-assign]
    assert sent(bus, lambda: screen.show(two)).bytes > 1024
    assert chip.glass().tobytes() == two.tobytes()


@pytest.mark.parametrize("driver", DRIVERS)
def test_a_whole_page_goes_in_one_transaction(driver: str) -> None:
    """Each changed window, its addressing and its data, is one I2C_RDWR
    transaction, not a command block and 32-byte SMBus blocks: a whole frame
    is eight transactions (and the multiplexer's select)."""
    bus, chip, screen = rig(driver)
    frame = picture("a whole frame")
    screen.device.forget()  # its RAM unknown: the next frame goes whole
    traffic = sent(bus, lambda: screen.show(frame))
    assert traffic.transactions == 8, traffic  # was 8 + 8 * 5 in 32-byte blocks, then 8 + 8
    address = 3 if driver == "sh1106" else 6  # the page's column window command
    assert traffic.bytes == 8 * ((2 + address) + (2 + 128)), traffic
    assert chip.glass().tobytes() == frame.tobytes()
    luma_own = sent(bus, lambda: open_oled("seat1.screen", driver=driver, mux_channel=0, full_frames=True,
                                           i2c=I2cBuses(opener=lambda port: bus)).show(picture("x")))
    assert luma_own.transactions > 40  # luma's class on a bus it was handed: 32-byte blocks


def test_page_bytes_and_windows() -> None:
    image = Image.new("1", (128, 64), 0)
    image.putpixel((5, 9), 1)
    image.putpixel((127, 63), 1)
    pages = page_bytes(image, 8)
    assert [len(p) for p in pages] == [128] * 8
    assert pages[1][5] == 0b10 and pages[7][127] == 0x80 and sum(map(sum, pages)) == 2 + 0x80
    assert changed_window(pages[1], pages[1]) is None
    assert changed_window(None, pages[1]) == (0, 128)
    assert changed_window(pages[0], pages[1]) == (5, 6)
    assert changed_window(pages[0], pages[7]) == (127, 128)


def test_the_bus_counts_each_screen_and_refuses_long_blocks() -> None:
    bus = FakeI2cBus({(0, 0x3C), (1, 0x3C)})
    buses = I2cBuses(opener=lambda port: bus)
    muxed = MuxedBus(buses.mux(1, 0x70), 1)
    muxed.write_i2c_block_data(0x3C, 0x40, [0] * 32)
    with pytest.raises(ValueError, match="32 bytes"):
        muxed.write_i2c_block_data(0x3C, 0x40, [0] * 33)
    assert bus.traffic[(1, 0x3C)] == Traffic(1, 34)
    assert bus.traffic[(None, 0x70)] == Traffic(1, 2)
    assert bus.total() == Traffic(2, 36)
    # 1,130 bytes in 41 transactions (luma's whole SH1106 frame and a mux select) at 400 kHz
    assert wire_seconds(41, 1130, 400_000) == pytest.approx(0.0256, abs=1e-4)


def test_changes_far_apart_in_a_page_are_sent_as_two_windows() -> None:
    old = bytes(128)
    new = bytearray(old)
    new[3] = new[120] = 0xFF  # far apart: two windows of one column each
    assert changed_windows(old, bytes(new), 8) == [(3, 4), (120, 121)]
    new[10] = 1  # 5 unchanged columns from 3: cheaper sent than addressed again
    assert changed_windows(old, bytes(new), 8) == [(3, 11), (120, 121)]
    assert changed_windows(None, bytes(new), 8) == [(0, 128)]
    assert changed_windows(old, old, 8) == []


def _windows_column_by_column(old: bytes, new: bytes, gap: int) -> list[tuple[int, int]]:
    """The windows as their definition says, one column at a time."""
    windows: list[tuple[int, int]] = []
    for col in range(len(new)):
        if old[col] == new[col]:
            continue
        if windows and col - windows[-1][1] < gap:
            windows[-1] = (windows[-1][0], col + 1)
        else:
            windows.append((col, col + 1))
    return windows


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 127), st.integers(1, 255)), max_size=40), st.integers(1, 16))
def test_the_changed_windows_are_the_changed_columns_with_short_gaps_sent(changes, gap: int) -> None:
    """Two changes closer than ``gap`` unchanged columns share a window;
    every changed column is in one, and each window starts and ends changed."""
    old = bytes(random.Random(gap).randrange(256) for _ in range(128))
    new = bytearray(old)
    for col, flip in changes:
        new[col] ^= flip
    assert changed_windows(old, bytes(new), gap) == _windows_column_by_column(old, bytes(new), gap)


@pytest.mark.parametrize("driver", DRIVERS)
def test_a_page_with_two_distant_changes_sends_less_than_its_whole_span(driver: str) -> None:
    bus, chip, screen = rig(driver)
    frame = picture("two ends")
    screen.show(frame)
    changed = frame.copy()
    changed.putpixel((2, 20), 1 - changed.getpixel((2, 20)))
    changed.putpixel((125, 20), 1 - changed.getpixel((125, 20)))
    traffic = sent(bus, lambda: screen.show(changed))
    assert traffic.transactions == 2 and traffic.bytes < 40, traffic
    assert chip.glass().tobytes() == changed.tobytes()
