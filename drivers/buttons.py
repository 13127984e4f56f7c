"""Seat buttons (◀ ● ▶, UNDO) and rotary encoders on gpiozero.

Callbacks run on gpiozero's threads (its hold thread, or the pin library's on a
Pi), so they only record the press and put one event on the queue they were given.
A press that comes less than ``bounce_time`` after the last release is the contact
bouncing and no press: the pin libraries debounce unevenly (gpiozero's mock pins
not at all), and one push must never step a menu twice or choose twice.
In simulation the same classes run on ``MockFactory`` pins; a test presses a
button with ``factory.pin(17).drive_low()``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from drivers.events import ButtonHeld, ButtonPressed, ButtonReleased, EncoderTurned, EventSink
from drivers.gpio import build


class TableButton:
    """A push button wired from a GPIO pin to ground (pull-up), or to 3V3 with ``pull_up=False``."""

    def __init__(
        self,
        name: str,
        pin: int,
        events: EventSink,
        *,
        hold_time: float = 1.0,
        bounce_time: float | None = 0.02,
        pull_up: bool = True,
        pin_factory: Any = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        from gpiozero import Button

        if hold_time <= 0:
            raise ValueError(f"button {name}: hold_time must be positive, got {hold_time}")
        self.name = name
        self.pin = pin
        self._events = events
        self._clock = clock
        self._lock = threading.Lock()
        self.presses = 0
        self.last_press: float | None = None
        self.bounces = 0  # presses dropped as the contact bouncing
        self.holds = 0  # holds reported (a simulated hold waits for the next)
        self._bounce = bounce_time or 0.0
        self._released: float | None = None
        self._holding = False  # held since the last press: its release is reported
        self.device = build(
            f"button {name}",
            f"GPIO{pin}",
            lambda: Button(
                pin, pull_up=pull_up, bounce_time=bounce_time, hold_time=hold_time, pin_factory=pin_factory
            ),
        )
        self.device.when_pressed = self._pressed
        self.device.when_released = self._release
        self.device.when_held = self._held

    @property
    def is_pressed(self) -> bool:
        return bool(self.device.is_pressed)

    def _pressed(self) -> None:
        at = self._clock()
        with self._lock:
            if self._released is not None and at - self._released < self._bounce:
                self.bounces += 1
                return
            self.presses += 1
            self.last_press = at
            self._holding = False  # a hold that raced its own release ends here
        self._events.put(ButtonPressed(self.name, at))

    def _release(self) -> None:
        with self._lock:
            at = self._released = self._clock()
            held, self._holding = self._holding, False
        if held:
            self._events.put(ButtonReleased(self.name, at))

    def _held(self) -> None:
        with self._lock:
            self.holds += 1
            self._holding = True
        self._events.put(ButtonHeld(self.name, self._clock()))

    def close(self) -> None:
        self.device.close()


class TableEncoder:
    """A quadrature rotary encoder (its push switch is a separate :class:`TableButton`).

    Each detent puts ``EncoderTurned(steps=+1)`` (clockwise) or ``-1`` on the queue.
    """

    def __init__(
        self,
        name: str,
        pin_a: int,
        pin_b: int,
        events: EventSink,
        *,
        bounce_time: float | None = None,
        pin_factory: Any = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        from gpiozero import RotaryEncoder

        self.name = name
        self.pins = (pin_a, pin_b)
        self._events = events
        self._clock = clock
        self.last_turn: float | None = None
        self.device = build(
            f"encoder {name}",
            f"GPIO{pin_a}/GPIO{pin_b}",
            lambda: RotaryEncoder(
                pin_a, pin_b, max_steps=0, bounce_time=bounce_time, pin_factory=pin_factory
            ),
        )
        self.device.when_rotated_clockwise = lambda: self._turned(1)
        self.device.when_rotated_counter_clockwise = lambda: self._turned(-1)

    @property
    def steps(self) -> int:
        """Net detents turned since start (clockwise positive)."""
        return int(self.device.steps)

    def _turned(self, steps: int) -> None:
        at = self._clock()
        self.last_turn = at
        self._events.put(EncoderTurned(self.name, steps, at))

    def close(self) -> None:
        self.device.close()
