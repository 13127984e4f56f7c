"""gpiozero's mock pins for the simulated table."""

from __future__ import annotations

from typing import Any


def mock_factory() -> Any:
    """A ``MockFactory`` whose pins also do PWM, so PWMLED and RGBLED work too.

    Pass it as ``pin_factory=`` to the drivers (or set ``gpiozero.Device.pin_factory``).
    Press a pull-up button with ``factory.pin(17).drive_low()``; read a light with
    ``factory.pin(22).state``.
    """
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    return MockFactory(pin_class=MockPWMPin)
