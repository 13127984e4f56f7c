"""Buttons on the reader hub: KEY lines from a fake hub become the same events a GPIO
button puts on the queue."""

from __future__ import annotations

import queue
import time
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest

from drivers.buttons import TableButton
from drivers.events import ButtonHeld, ButtonPressed, ButtonReleased
from drivers.hub import HubButton
from drivers.hub import factory as hub_factory
from drivers.sim.gpio import mock_factory
from tests.drivers.test_hub_connection import Rig, synced_rig


def kinds(events: queue.Queue) -> list[str]:
    out = []
    while not events.empty():
        out.append(type(events.get_nowait()).__name__)
    return out


def wait_for(done: Callable[[], bool], what: str) -> None:
    """Until ``done()`` (the hold timer runs on its own thread); not a timing check."""
    deadline = time.monotonic() + 5
    while not done():
        assert time.monotonic() < deadline, what
        time.sleep(0.005)


def button(rig: Rig, index: int = 1, hold_time: float = 1.0) -> tuple[HubButton, queue.Queue]:
    events: queue.Queue = queue.Queue()
    return HubButton("seat3.ok", rig.conn, index, events, hold_time=hold_time, clock=rig.clock), events


def test_a_press_is_one_event_at_once() -> None:
    rig = synced_rig(2, buttons=3)
    ok, events = button(rig)
    rig.hub.key(1, True)
    rig.steps(1)
    assert ok.is_pressed and ok.presses == 1
    assert events.get_nowait() == ButtonPressed("seat3.ok", ok.last_press)
    rig.hub.key(1, False)
    rig.steps(1)
    assert not ok.is_pressed and events.empty()  # a plain press is whole at ButtonPressed
    rig.hub.key(0, True)                         # another button: not this one's
    rig.steps(1)
    assert events.empty()
    ok.close()


def test_hold_and_release_as_gpiozero_reports_them() -> None:
    rig = synced_rig(2, buttons=3)
    ok, events = button(rig, hold_time=0.05)
    rig.hub.key(1, True)
    rig.steps(1)
    wait_for(lambda: ok.holds == 1, "the hold was never reported")
    rig.hub.key(1, False)
    rig.steps(1)
    assert kinds(events) == ["ButtonPressed", "ButtonHeld", "ButtonReleased"]
    ok.close()


def test_the_session_cannot_tell_a_hub_button_from_a_gpio_one() -> None:
    """The same finger on each: press and let go; press, hold and let go."""
    rig = synced_rig(2, buttons=3)
    hub_ok, hub_events = button(rig, hold_time=0.05)
    pins = mock_factory()
    gpio_events: queue.Queue = queue.Queue()
    gpio_ok = TableButton("seat3.ok", 21, gpio_events, hold_time=0.05, pin_factory=pins, clock=rig.clock)
    try:
        for hold in (False, True):
            rig.clock.t += 1  # presses apart, not a contact bouncing
            rig.hub.key(1, True)
            rig.steps(1)
            pins.pin(21).drive_low()
            if hold:
                wait_for(lambda: hub_ok.holds == 1 and gpio_ok.holds == 1, "a hold not reported")
            rig.hub.key(1, False)
            rig.steps(1)
            pins.pin(21).drive_high()
        got = [hub_events.get_nowait() for _ in range(hub_events.qsize())]
        want = [gpio_events.get_nowait() for _ in range(gpio_events.qsize())]
        assert [type(e) for e in got] == [type(e) for e in want] == [
            ButtonPressed, ButtonPressed, ButtonHeld, ButtonReleased]
        assert {e.button for e in got} == {"seat3.ok"}
    finally:
        hub_ok.close()
        gpio_ok.close()
        pins.close()


def test_presses_on_lost_lines_come_back_with_the_snapshot() -> None:
    rig = synced_rig(2, buttons=3)
    ok, events = button(rig)
    rig.hub.drop_next = 2                        # the press's DOWN and UP lines are lost
    rig.hub.key(1, True)
    rig.hub.key(1, False)
    rig.hub.state(0, "DEADBEEF")                 # the next line shows the gap; a SNAP follows
    rig.steps(10)
    assert rig.conn.stats.gaps == 1
    assert kinds(events) == ["ButtonPressed"] and not ok.is_pressed
    rig.hub.snapshot()                           # a second snapshot: nothing more
    rig.steps(5)
    assert events.empty()
    ok.close()


def test_a_button_held_at_connect_or_reboot_is_no_press() -> None:
    rig = Rig(2, buttons=3)
    ok, events = button(rig)
    rig.hub.keys[1] = ("DOWN", 7)               # held while the Pi connects
    rig.hub.snapshot()
    rig.steps(20)
    assert rig.conn.synced and ok.is_pressed and events.empty()
    rig.hub.key(1, False)
    rig.hub.key(1, True)
    rig.steps(2)
    assert kinds(events) == ["ButtonPressed"]
    rig.hub.boot()                               # a reboot counts from 0 again: no presses
    rig.steps(5)
    assert events.empty() and not ok.is_pressed
    rig.hub.key(1, True)                         # and the press that was going on is over
    rig.steps(2)
    assert kinds(events) == ["ButtonPressed"]
    ok.close()


def test_old_firmware_or_a_missing_button_says_what_to_do() -> None:
    old = synced_rig(2)                          # protocol 1: readers, no buttons
    assert old.conn.reader(0).poll() == frozenset()
    ok, _ = button(old)
    assert "has no buttons; flash the firmware" in (ok.problem() or "")
    new = synced_rig(2, buttons=3)
    assert button(new, index=1)[0].problem() is None
    assert "the hub has 3 buttons (0 to 2), not 5" in (button(new, index=5)[0].problem() or "")


def test_profile_buttons_share_the_readers_connection_and_old_firmware_is_refused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    rigs: dict[str, Rig] = {"/dev/new": synced_rig(1, buttons=3), "/dev/old": synced_rig(1)}

    class Conn:
        def __new__(cls, port: str, name: str) -> Any:
            conn = rigs[port].conn
            conn.name = name
            conn.start = lambda: conn  # stepped by hand: already synced
            return conn

    monkeypatch.setattr(hub_factory, "HubConnection", Conn)
    profile = SimpleNamespace(hubs=(SimpleNamespace(name="hub", port="/dev/new", hold_ms=None),
                                    SimpleNamespace(name="old", port="/dev/old", hold_ms=None)))
    events: queue.Queue = queue.Queue()
    try:
        pad = hub_factory.open_reader(SimpleNamespace(name="seat3.pad", hub="hub", index=0), profile)
        left = hub_factory.open_button(SimpleNamespace(name="seat3.left", hub="hub", button=0, hold_time=1.0),
                                       profile, events)
        assert left.hub is pad.hub
        rigs["/dev/new"].hub.key(0, True)
        rigs["/dev/new"].steps(1)
        assert [e.button for e in [events.get_nowait()]] == ["seat3.left"]
        with pytest.raises(ValueError, match=r"seat4.ok: old: the hub's firmware 0.1.0 .protocol 1. has no "
                                             r"buttons; flash the firmware"):
            hub_factory.open_button(SimpleNamespace(name="seat4.ok", hub="old", button=1, hold_time=1.0),
                                    profile, events)
        with pytest.raises(ValueError, match=r"the hub has 3 buttons .0 to 2., not 9"):
            hub_factory.open_button(SimpleNamespace(name="seat4.ok", hub="hub", button=9, hold_time=1.0),
                                    profile, events)
        assert hub_factory._users == {"/dev/new": 2}  # the refused ones were let go
        left.close()
        pad.close()
        assert hub_factory._users == {}
    finally:
        hub_factory.close_all()
