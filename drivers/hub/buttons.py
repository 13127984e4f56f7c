"""A seat button wired to the reader hub: the same events as a GPIO button.

The hub debounces (firmware/PROTOCOL.md, ``KEY``) and reports each edge; this
turns them into what drivers.buttons.TableButton puts on the queue, so the
session cannot tell the two apart: ButtonPressed at the press, ButtonHeld once
the button has stayed down ``hold_time`` (timed here, as gpiozero's hold
thread does on the Pi), and ButtonReleased when a held button is let go.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from drivers.events import ButtonHeld, ButtonPressed, ButtonReleased, EventSink
from drivers.hub.connection import HubConnection


class HubButton:
    """Button ``index`` of the hub behind ``hub``."""

    def __init__(
        self,
        name: str,
        hub: HubConnection,
        index: int,
        events: EventSink,
        *,
        hold_time: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
        on_close: Callable[[], None] | None = None,
    ) -> None:
        if hold_time <= 0:
            raise ValueError(f"button {name}: hold_time must be positive, got {hold_time}")
        if index < 0:
            raise ValueError(f"button {name}: the hub's button number must be >= 0, got {index}")
        self.name = name
        self.hub = hub
        self.index = index
        self.hold_time = hold_time
        self._events = events
        self._clock = clock
        self._on_close = on_close
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self.presses = 0
        self.holds = 0
        self.last_press: float | None = None
        self._down = False
        self._holding = False
        self._hold_due: float | None = None  # time.monotonic() at which a press becomes a hold
        self._closed = False
        # One thread for the button's holds, as gpiozero has: started at the first press,
        # not a thread per press (that would cost the reader thread some 0.15 ms a press).
        self._hold_thread: threading.Thread | None = None
        self._stop = hub.on_key(index, self._edge)

    @property
    def is_pressed(self) -> bool:
        return self.hub.is_down(self.index)

    def problem(self) -> str | None:
        """Why this button cannot work on the hub that answered (old firmware, a number
        the hub does not have), or None."""
        return self.hub.key_problem(self.index)

    def _edge(self, down: bool, _at: float) -> None:
        event: ButtonPressed | ButtonReleased | None = None
        with self._lock:
            if down == self._down or self._closed:
                return
            self._down = down
            at = self._clock()  # the table's clock, as a GPIO button's events carry
            if down:
                self.presses += 1
                self.last_press = at
                self._holding = False
                self._hold_due = time.monotonic() + self.hold_time
                event = ButtonPressed(self.name, at)
            else:
                self._hold_due = None
                held, self._holding = self._holding, False
                event = ButtonReleased(self.name, at) if held else None
            self._wake.notify()
        if event is not None:
            self._events.put(event)
        if down and self._hold_thread is None:
            self._hold_thread = threading.Thread(target=self._holds, name=f"{self.name}-hold", daemon=True)
            self._hold_thread.start()

    def _holds(self) -> None:
        """Put ButtonHeld once a press has lasted hold_time (real time, as gpiozero's)."""
        while True:
            with self._lock:
                while not self._closed:
                    due = self._hold_due
                    if due is not None and time.monotonic() >= due:
                        break
                    self._wake.wait(None if due is None else due - time.monotonic())
                if self._closed:
                    return
                self._hold_due = None
                self.holds += 1
                self._holding = True
                at = self._clock()
            self._events.put(ButtonHeld(self.name, at))

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._wake.notify()
        self._stop()
        if self._on_close is not None:
            self._on_close()

    def __repr__(self) -> str:
        return f"HubButton({self.name!r}, index={self.index})"
