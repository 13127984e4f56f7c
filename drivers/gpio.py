"""Shared gpiozero plumbing: turning gpiozero's set-up errors into errors naming the part."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from drivers.base import GpioError

T = TypeVar("T")


def build(part: str, pins: str, make: Callable[[], T]) -> T:
    """Create a gpiozero device, or raise GpioError saying which part and pins failed and why."""
    from gpiozero.exc import GPIOZeroError

    try:
        return make()
    except GPIOZeroError as err:
        hint = ""
        name = type(err).__name__
        if name == "BadPinFactory":
            hint = "; no pin library found: install lgpio on the Pi, or use the simulated table"
        elif name == "GPIOPinInUse":
            hint = "; another part of the profile uses the same pin"
        elif name == "PinPWMUnsupported":
            hint = "; this pin factory has no PWM (simulated: MockFactory(pin_class=MockPWMPin))"
        raise GpioError(f"{part} on {pins}: {name}: {err}{hint}") from err
