"""The watcher's debounce, hold times, fault reporting and retries, on simulated readers."""

from __future__ import annotations

import queue
import time

import pytest

from drivers.events import ReaderFault, ReaderRecovered, TagArrived, TagLeft
from drivers.sim.readers import SimulatedReader, emulated_rc522
from drivers.watcher import Watcher, WatcherSettings

FAST = WatcherSettings(interval=0.01, confirm_polls=2, arrive_hold=0.05, leave_hold=0.2, retry_interval=0.5)


def make(*names: str, settings: WatcherSettings = FAST):
    readers = [SimulatedReader(n) for n in names]
    events: queue.Queue = queue.Queue()
    return readers, events, Watcher(readers, events, settings, clock=lambda: 0.0)


def run(watcher: Watcher, start: float, stop: float, every: float = 0.05) -> list:
    out = []
    t = start
    while t <= stop + 1e-9:
        out += watcher.step(round(t, 6))
        t += every
    return out


def test_placed_tag_arrives_once_after_the_hold() -> None:
    (pad,), events, watcher = make("seat1.pad")
    pad.place("04A1B2C3D4E5F6")
    assert watcher.step(0.0) == []
    assert watcher.step(0.05) == [TagArrived("seat1.pad", "04A1B2C3D4E5F6", 0.0)]
    assert run(watcher, 0.1, 1.0) == []
    assert events.get_nowait() == TagArrived("seat1.pad", "04A1B2C3D4E5F6", 0.0)
    assert watcher.present("seat1.pad") == {"04A1B2C3D4E5F6"}


def test_one_poll_flicker_is_no_event() -> None:
    (pad,), events, watcher = make("seat1.pad")
    pad.tap("DEADBEEF", polls=1)
    assert run(watcher, 0.0, 1.0) == []
    assert events.empty()


def test_one_poll_dropout_is_no_event() -> None:
    (pad,), _, watcher = make("seat1.pad")
    pad.place("DEADBEEF")
    run(watcher, 0.0, 0.1)
    pad.remove("DEADBEEF")
    watcher.step(0.15)  # missed once
    pad.place("DEADBEEF")
    assert run(watcher, 0.2, 1.0) == []
    assert watcher.present("seat1.pad") == {"DEADBEEF"}


def test_tag_leaving_after_the_leave_hold() -> None:
    (pad,), _, watcher = make("seat1.pad")
    pad.place("DEADBEEF")
    run(watcher, 0.0, 0.1)
    pad.remove("DEADBEEF")
    assert run(watcher, 0.15, 0.30) == []  # missing, but not yet for 0.2 s
    assert watcher.step(0.35) == [TagLeft("seat1.pad", "DEADBEEF", 0.15)]


def test_hold_times_are_settings() -> None:
    slow = WatcherSettings(confirm_polls=3, arrive_hold=0.5, leave_hold=0.0)
    (pad,), _, watcher = make("seat1.pad", settings=slow)
    pad.place("DEADBEEF")
    assert run(watcher, 0.0, 0.45) == []
    assert watcher.step(0.5) == [TagArrived("seat1.pad", "DEADBEEF", 0.0)]
    pad.remove("DEADBEEF")
    assert watcher.step(0.55) == []
    assert watcher.step(0.6) == []
    assert watcher.step(0.65) == [TagLeft("seat1.pad", "DEADBEEF", 0.55)]


def test_a_tap_of_three_polls_is_an_arrival_and_a_departure() -> None:
    (pad,), _, watcher = make("seat1.pad", settings=WatcherSettings(arrive_hold=0.05, leave_hold=0.1))
    pad.tap("DEADBEEF", polls=3)
    assert run(watcher, 0.0, 1.0) == [
        TagArrived("seat1.pad", "DEADBEEF", 0.0),
        TagLeft("seat1.pad", "DEADBEEF", 0.15),
    ]


def test_a_tag_on_its_way_in_is_looked_at_again_when_its_hold_is_up() -> None:
    """Not at the round after: with 20 ms rounds and a 30 ms hold, the
    confirming poll comes 30 ms after the one that first saw the tag, not 40."""
    settings = WatcherSettings(interval=0.02, confirm_polls=2, arrive_hold=0.03)
    (pad,), _, watcher = make("seat1.pad", settings=settings)
    assert watcher.next_due(0.0) == 0.0  # no round yet
    assert watcher.step(0.0) == []
    assert watcher.next_due(0.001) == pytest.approx(0.019)  # nothing arriving: the next round
    pad.place("DEADBEEF")
    assert watcher.step(0.02) == []  # first seen
    assert watcher.next_due(0.021) == pytest.approx(0.019)  # the round at 0.04 comes first
    assert watcher.step(0.04) == []  # seen twice, but for 20 ms only
    assert watcher.next_due(0.041) == pytest.approx(0.009)  # at 0.05, not at the round of 0.06
    assert watcher.step(0.05) == [TagArrived("seat1.pad", "DEADBEEF", 0.02)]
    assert watcher.next_due(0.051) == pytest.approx(0.019)  # back to rounds


def test_the_defaults_still_ignore_a_flicker_and_a_brush_past() -> None:
    """One poll in and one out, however fast the rounds; and a tag in the
    field for less than the hold (a card carried over a pad) is no event,
    whenever it comes, with the rounds as the watcher's own thread runs them."""
    settings = WatcherSettings()
    (pad,), events, watcher = make("seat1.pad", settings=settings)
    t = 0.0
    for n in range(40):
        pad.clear()
        if n % 2 == 0:
            pad.place("DEADBEEF")
        watcher.step(t)
        t += settings.interval
    pad.clear()
    on = False
    brush = settings.arrive_hold - 0.002
    for phase in range(20):
        start = t + phase * settings.interval / 20  # every phase against the rounds
        while t < start + settings.interval * 3:
            inside = start <= t < start + brush
            if inside != on:
                (pad.place if inside else pad.remove)("04A1B2C3D4E5F6")
                on = inside
            watcher.step(t)
            t = round(t + (watcher.next_due(t) or settings.interval), 6)
    assert events.empty()


def test_several_readers_and_tags() -> None:
    (a, b), _, watcher = make("seat1.pad", "zone.north")
    a.place("01020304")
    b.place("05060708", "04A1B2C3D4E5F6")
    assert run(watcher, 0.0, 0.05) == [
        TagArrived("seat1.pad", "01020304", 0.0),
        TagArrived("zone.north", "04A1B2C3D4E5F6", 0.0),
        TagArrived("zone.north", "05060708", 0.0),
    ]


def test_dead_reader_is_reported_retried_and_recovers() -> None:
    (pad, other), _, watcher = make("seat1.pad", "seat2.pad")
    pad.place("DEADBEEF")
    other.place("01020304")
    run(watcher, 0.0, 0.05)
    pad.fail("no RC522 answers")
    other.remove("01020304")
    events = watcher.step(0.1)
    assert events == [ReaderFault("seat1.pad", "reader seat1.pad: no RC522 answers", 0.1)]
    assert watcher.faults() == {"seat1.pad": "reader seat1.pad: no RC522 answers"}
    polls = pad.polls
    assert watcher.step(0.15) == []  # not retried before retry_interval; the other reader goes on
    assert watcher.step(0.35) == [TagLeft("seat2.pad", "01020304", 0.1)]
    assert pad.polls == polls
    assert watcher.step(0.6) == []  # retried at 0.6: still dead, next try in 1.0 s
    assert pad.polls == polls + 1
    assert run(watcher, 0.65, 1.55) == []
    assert pad.polls == polls + 1
    pad.recover()
    pad.remove("DEADBEEF")  # taken off while the reader was dead
    assert watcher.step(1.6) == [ReaderRecovered("seat1.pad", 1.6)]
    assert watcher.faults() == {}
    assert run(watcher, 1.65, 1.85) == [TagLeft("seat1.pad", "DEADBEEF", 1.6)]


def test_any_exception_from_a_reader_is_a_fault() -> None:
    class Broken(SimulatedReader):
        def poll(self) -> frozenset[str]:
            raise OSError(5, "Input/output error")

    events: queue.Queue = queue.Queue()
    watcher = Watcher([Broken("seat1.pad")], events, FAST)
    (fault,) = watcher.step(0.0)
    assert isinstance(fault, ReaderFault) and "Input/output error" in fault.error


def test_emulated_rc522_through_the_watcher() -> None:
    reader, chip = emulated_rc522("seat1.pad")
    events: queue.Queue = queue.Queue()
    watcher = Watcher([reader], events, FAST)
    chip.add_tag("04A1B2C3D4E5F6")
    chip.add_tag("DEADBEEF")
    assert {e.uid for e in run(watcher, 0.0, 0.1)} == {"04A1B2C3D4E5F6", "DEADBEEF"}
    chip.connected = False
    assert [type(e) for e in watcher.step(0.2)] == [ReaderFault]
    chip.connected = True
    chip.hard_reset()
    assert watcher.step(0.7) == [ReaderRecovered("seat1.pad", 0.7)]
    assert watcher.present("seat1.pad") == {"04A1B2C3D4E5F6", "DEADBEEF"}


def test_background_thread_puts_events_on_the_queue() -> None:
    pad = SimulatedReader("seat1.pad")
    events: queue.Queue = queue.Queue()
    watcher = Watcher([pad], events, WatcherSettings(interval=0.005, arrive_hold=0.01))
    watcher.start()
    try:
        pad.place("DEADBEEF")
        event = events.get(timeout=2)
    finally:
        watcher.close()
    assert isinstance(event, TagArrived) and event.uid == "DEADBEEF"
    assert pad.closed
    polls = pad.polls
    time.sleep(0.02)
    assert pad.polls == polls  # stopped


def test_bad_settings_and_names() -> None:
    with pytest.raises(ValueError, match="confirm_polls must be at least 1"):
        WatcherSettings(confirm_polls=0)
    with pytest.raises(ValueError, match="leave_hold must not be negative"):
        WatcherSettings(leave_hold=-1)
    with pytest.raises(ValueError, match="two readers are named 'x'"):
        Watcher([SimulatedReader("x"), SimulatedReader("x")], queue.Queue())
    _, _, watcher = make("seat1.pad")
    with pytest.raises(KeyError, match=r"no reader named 'seat9\.pad'; known: seat1\.pad"):
        watcher.present("seat9.pad")


def test_simulated_reader_errors() -> None:
    pad = SimulatedReader("seat1.pad")
    with pytest.raises(KeyError, match="tag DEADBEEF is not on it"):
        pad.remove("deadbeef")
    with pytest.raises(ValueError, match="at least one poll"):
        pad.tap("DEADBEEF", polls=0)


def test_settings_from_a_profile_table() -> None:
    settings = WatcherSettings.from_mapping({"leave_hold": 0.5, "confirm_polls": 3})
    assert settings == WatcherSettings(leave_hold=0.5, confirm_polls=3)
    assert WatcherSettings.from_mapping({}) == WatcherSettings()
    where = "table.toml [watcher]"
    bad = [
        ({"leave_hold_ms": 500}, r"table\.toml \[watcher\]: unknown setting leave_hold_ms; known: interval,"),
        ({"leave_hold": "0.5"}, r"\[watcher\]: leave_hold must be a number of seconds, got '0\.5'"),
        ({"confirm_polls": 2.5}, r"\[watcher\]: confirm_polls must be a whole number of polls, got 2\.5"),
        ({"arrive_hold": True}, r"arrive_hold must be a number of seconds, got True"),
        ({"confirm_polls": 0}, r"\[watcher\]: watcher confirm_polls must be at least 1, got 0"),
    ]
    for values, message in bad:
        with pytest.raises(ValueError, match=message):
            WatcherSettings.from_mapping(values, where)
