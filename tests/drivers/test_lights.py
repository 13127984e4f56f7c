"""Lights on gpiozero's mock (PWM) pins."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from drivers.base import GpioError, Light
from drivers.lights import PATTERNS, BlinkPattern, open_light
from drivers.sim.gpio import mock_factory


@pytest.fixture
def factory() -> Iterator[Any]:
    f = mock_factory()
    yield f
    f.close()


def test_led_on_off(factory: Any) -> None:
    light = open_light("seat1.light", pin=22, pin_factory=factory)
    assert isinstance(light, Light)
    light.on()
    assert factory.pin(22).state and light.is_lit
    light.off()
    assert not factory.pin(22).state


def test_active_low_led(factory: Any) -> None:
    light = open_light("seat1.light", pin=22, active_high=False, pin_factory=factory)
    light.on()
    assert not factory.pin(22).state


def test_blink_n_times(factory: Any) -> None:
    light = open_light("seat1.light", pin=22, pin_factory=factory)
    factory.pin(22).clear_states()
    light.blink(0.001, 0.001, n=3, wait=True)
    assert [s for _, s in factory.pin(22).states] == [False, True, False, True, False, True, False]


def test_named_pattern_and_self_test(factory: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(PATTERNS, "self_test", BlinkPattern(0.001, 0.001, n=3))
    light = open_light("seat1.light", pin=22, pin_factory=factory)
    factory.pin(22).clear_states()
    light.self_test(wait=True)
    assert sum(1 for _, s in factory.pin(22).states if s) == PATTERNS["self_test"].n
    with pytest.raises(ValueError, match="no blink pattern 'disco'; known: your_turn"):
        light.pattern("disco")


def test_background_blink_stops_on_off(factory: Any) -> None:
    light = open_light("seat1.light", pin=22, pin_factory=factory)
    light.pattern("attention")
    light.off()
    assert not factory.pin(22).state


def test_pwm_brightness(factory: Any) -> None:
    light = open_light("seat1.light", kind="pwm", pin=12, pin_factory=factory)
    light.set_brightness(0.25)
    assert factory.pin(12).state == pytest.approx(0.25)
    light.on()
    assert factory.pin(12).state == 1


def test_rgb_colour(factory: Any) -> None:
    light = open_light("shared.light", kind="rgb", pins=(16, 20, 21), colour=(1, 0, 0), pin_factory=factory)
    light.on()
    assert [factory.pin(p).state for p in (16, 20, 21)] == [1, 0, 0]
    light.set_colour((0, 0.5, 1))
    assert [factory.pin(p).state for p in (16, 20, 21)] == [0, 0.5, 1]
    light.set_brightness(0.5)
    assert [factory.pin(p).state for p in (16, 20, 21)] == [0, 0.25, 0.5]
    light.off()
    assert light.value == (0, 0, 0)


def test_rgb_blink(factory: Any) -> None:
    light = open_light("shared.light", kind="rgb", pins=(16, 20, 21), colour=(0, 1, 0), pin_factory=factory)
    factory.pin(20).clear_states()
    light.blink(0.001, 0.001, n=2, wait=True)
    assert [s for _, s in factory.pin(20).states] == [0, 1, 0, 1, 0]


def test_clear_errors(factory: Any) -> None:
    led = open_light("seat1.light", pin=22, pin_factory=factory)
    with pytest.raises(ValueError, match="plain LED"):
        led.set_brightness(0.5)
    with pytest.raises(ValueError, match="no colour"):
        led.set_colour((1, 0, 0))
    with pytest.raises(ValueError, match="kind 'neon' is not one of led, pwm, rgb"):
        open_light("x", kind="neon", pin=1, pin_factory=factory)
    with pytest.raises(ValueError, match=r"needs pins = \[red, green, blue\]"):
        open_light("x", kind="rgb", pin=1, pin_factory=factory)
    with pytest.raises(ValueError, match="needs one pin"):
        open_light("x", pin_factory=factory)
    with pytest.raises(GpioError, match=r"light seat2\.light on GPIO22"):
        open_light("seat2.light", pin=22, pin_factory=factory)


def test_pwm_light_without_pwm_pins() -> None:
    from gpiozero.pins.mock import MockFactory

    with pytest.raises(GpioError, match=r"PinPWMUnsupported.*MockPWMPin"):
        open_light("seat1.light", kind="pwm", pin=12, pin_factory=MockFactory())
