"""A frame is packed into its controller's pages once per show (issue 35,
the Pi Zero 2 W's acting seat): the screen tells an unchanged frame by those
pages and the device sends them as packed, where it packed the frame twice
(its bytes for the comparison, its pages to send). What reaches the glass is
checked on the controllers' display RAM (drivers/sim/oled_controller.py)."""

from __future__ import annotations

import random

import pytest
from PIL import Image, ImageDraw

from drivers.screens import I2cBuses, open_oled
from drivers.sim.i2c import FakeI2cBus
from drivers.sim.oled_controller import OledController
from tests.drivers.test_oled_devices import DRIVERS, picture


def counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the frames' conversions to bytes (Pillow's ``tobytes``, packing's costly step)."""
    calls = [0]
    real = Image.Image.tobytes

    def tobytes(self: Image.Image, *args: object) -> bytes:
        calls[0] += 1
        return real(self, *args)

    monkeypatch.setattr(Image.Image, "tobytes", tobytes)
    return calls


@pytest.mark.parametrize("driver", DRIVERS)
@pytest.mark.parametrize("threaded", [False, True])
def test_each_frame_is_packed_once_and_the_glass_shows_it(driver: str, threaded: bool,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    bus = FakeI2cBus(set())
    chip = OledController(driver, seed=3)
    bus.attach(0, 0x3C, chip)
    screen = open_oled("seat1.screen", driver=driver, mux_channel=0,
                       i2c=I2cBuses(opener=lambda port: bus, threaded=threaded))
    screen.show(picture("start"))
    screen.flush()
    calls = counted(monkeypatch)
    rng = random.Random(driver)
    frame = picture("start")
    for step in range(30):
        frame = frame.copy()
        ImageDraw.Draw(frame).rectangle((rng.randrange(120), rng.randrange(56), 127, 63), fill=step % 2)
        before = calls[0]
        screen.show(frame)
        screen.flush()
        assert calls[0] - before == 1, f"step {step}: converted {calls[0] - before} times"
        assert chip.glass().tobytes() == frame.tobytes(), f"step {step}"
    assert screen.frames_sent + screen.frames_skipped == 31


@pytest.mark.parametrize("driver", DRIVERS)
def test_a_frame_changed_in_place_after_its_show_is_sent_again(driver: str) -> None:
    bus = FakeI2cBus(set())
    chip = OledController(driver, seed=4)
    bus.attach(0, 0x3C, chip)
    screen = open_oled("seat1.screen", driver=driver, mux_channel=0, i2c=I2cBuses(opener=lambda port: bus))
    frame = picture("one")
    assert screen.show(frame)
    assert not screen.show(frame)  # the same pixels: nothing sent
    frame.putpixel((5, 5), 1 - frame.getpixel((5, 5)))  # the same image object, other pixels
    assert screen.show(frame)
    assert chip.glass().tobytes() == frame.tobytes()
