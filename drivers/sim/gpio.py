"""gpiozero's mock pins for the simulated table."""

from __future__ import annotations

from typing import Any

#: changes of state a mock pin remembers (gpiozero's MockPin keeps them all,
#: which in a long-running simulated table grows without end)
KEEP_STATES = 20


def mock_factory() -> Any:
    """A ``MockFactory`` whose pins also do PWM, so PWMLED and RGBLED work too.

    Pass it as ``pin_factory=`` to the drivers (or set ``gpiozero.Device.pin_factory``).
    Press a pull-up button with ``factory.pin(17).drive_low()``; read a light with
    ``factory.pin(22).state``, its last ``KEEP_STATES`` changes with ``.states``.
    """
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    class BoundedMockPin(MockPWMPin):
        def _change_state(self, value: Any) -> bool:
            changed = bool(super()._change_state(value))
            if len(self.states) > KEEP_STATES:  # exactly as many: a pin's memory stays the same
                del self.states[0]
            return changed

    return MockFactory(pin_class=BoundedMockPin)
