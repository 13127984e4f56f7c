"""Buttons and encoders on gpiozero's mock pins: presses become events on the queue."""

from __future__ import annotations

import queue
import time
from collections.abc import Iterator
from typing import Any

import pytest

from drivers.base import GpioError
from drivers.buttons import TableButton, TableEncoder
from drivers.events import ButtonHeld, ButtonPressed, ButtonReleased, EncoderTurned
from drivers.sim.gpio import mock_factory


@pytest.fixture
def factory() -> Iterator[Any]:
    f = mock_factory()
    yield f
    f.close()


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_press_puts_one_event_and_records_the_last_press(factory: Any) -> None:
    events: queue.Queue = queue.Queue()
    clock = Clock()
    ok = TableButton("seat1.ok", 17, events, pin_factory=factory, clock=clock)
    assert not ok.is_pressed and ok.last_press is None
    factory.pin(17).drive_low()
    assert ok.is_pressed
    factory.pin(17).drive_high()
    clock.now = 101.5
    factory.pin(17).drive_low()
    factory.pin(17).drive_high()
    assert [events.get_nowait(), events.get_nowait()] == [
        ButtonPressed("seat1.ok", 100.0),
        ButtonPressed("seat1.ok", 101.5),
    ]
    assert events.empty()
    assert ok.presses == 2 and ok.last_press == 101.5


def test_seat_buttons_and_undo_each_name_their_event(factory: Any) -> None:
    events: queue.Queue = queue.Queue()
    pins = {"seat1.left": 5, "seat1.ok": 6, "seat1.right": 13, "undo": 26}
    buttons = [TableButton(n, p, events, pin_factory=factory, clock=lambda: 0.0) for n, p in pins.items()]
    for pin in (13, 26, 5):
        factory.pin(pin).drive_low()
        factory.pin(pin).drive_high()
    assert [events.get_nowait().button for _ in range(3)] == ["seat1.right", "undo", "seat1.left"]
    for b in buttons:
        b.close()


def test_holding_a_button(factory: Any) -> None:
    events: queue.Queue = queue.Queue()
    TableButton("undo", 26, events, hold_time=0.02, pin_factory=factory, clock=lambda: 7.0)
    factory.pin(26).drive_low()
    assert events.get(timeout=1) == ButtonPressed("undo", 7.0)
    assert events.get(timeout=2) == ButtonHeld("undo", 7.0)  # from gpiozero's hold thread
    factory.pin(26).drive_high()
    assert events.get(timeout=1) == ButtonReleased("undo", 7.0)  # the end of the hold


def test_a_plain_press_reports_no_release(factory: Any) -> None:
    # The queue carries one event per push; only a hold has an end to report.
    events: queue.Queue = queue.Queue()
    TableButton("seat1.ok", 17, events, hold_time=5.0, pin_factory=factory, clock=lambda: 3.0)
    factory.pin(17).drive_low()
    factory.pin(17).drive_high()
    assert events.get(timeout=1) == ButtonPressed("seat1.ok", 3.0)
    time.sleep(0.05)
    assert events.empty()


def test_active_high_button(factory: Any) -> None:
    events: queue.Queue = queue.Queue()
    TableButton("seat2.ok", 19, events, pull_up=False, pin_factory=factory, clock=lambda: 1.0)
    factory.pin(19).drive_high()
    assert events.get_nowait() == ButtonPressed("seat2.ok", 1.0)


def test_encoder_turns(factory: Any) -> None:
    events: queue.Queue = queue.Queue()
    knob = TableEncoder("shared.knob", 20, 21, events, pin_factory=factory, clock=lambda: 3.0)
    a, b = factory.pin(20), factory.pin(21)
    for pin, low in ((a, True), (b, True), (a, False), (b, False)):  # one detent clockwise
        pin.drive_low() if low else pin.drive_high()
    for pin, low in ((b, True), (a, True), (b, False), (a, False)):  # one detent back
        pin.drive_low() if low else pin.drive_high()
    assert [events.get_nowait(), events.get_nowait()] == [
        EncoderTurned("shared.knob", 1, 3.0),
        EncoderTurned("shared.knob", -1, 3.0),
    ]
    assert knob.steps == 0


def test_pin_conflict_names_the_part(factory: Any) -> None:
    events: queue.Queue = queue.Queue()
    TableButton("seat1.ok", 17, events, pin_factory=factory)
    with pytest.raises(GpioError, match=r"button seat2\.ok on GPIO17.*uses the same pin"):
        TableButton("seat2.ok", 17, events, pin_factory=factory)


def test_bad_hold_time() -> None:
    with pytest.raises(ValueError, match="hold_time must be positive"):
        TableButton("seat1.ok", 17, queue.Queue(), hold_time=0)
