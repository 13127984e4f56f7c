"""Turns reader polls into debounced TagArrived / TagLeft events, and reports dead readers.

:meth:`Watcher.step` polls every reader that is due once and returns (and
queues) the events: deterministic, for tests and for a caller with its own loop.
:meth:`Watcher.start` runs the same step on a background thread.

Debounce: a tag arrives once it has been seen in ``confirm_polls`` consecutive
polls spanning at least ``arrive_hold`` seconds, and leaves once it has been
missing as long (``leave_hold``); anything shorter is a flicker and no event.
A tag on its way in is looked at again the moment its hold is up, not at the
next round (:meth:`Watcher.next_due`): a laid tag is an event one hold after
the poll that first saw it.
Events carry the time the change was first seen (an arrival: the end of the
poll that first read the tag). A reader whose ``poll`` raises
is reported once (ReaderFault), retried with a growing back-off, and reported
again when it answers (ReaderRecovered); its tags are kept meanwhile and
compared with what it sees once it is back.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from drivers.base import TagReader
from drivers.events import EventSink, HardwareEvent, ReaderFault, ReaderRecovered, TagArrived, TagLeft

log = logging.getLogger(__name__)

_EPS = 1e-6  # clock readings are floats: 0.35 - 0.15 is a hair under 0.2


#: what a real table can use, per setting (seconds; polls for confirm_polls):
#: beyond these a tap is never felt (a hold of minutes), or the readers are
#: polled so fast that nothing else runs
LIMITS: dict[str, tuple[float, float]] = {
    "interval": (0.005, 1.0),
    "confirm_polls": (1, 20),
    "arrive_hold": (0.0, 2.0),
    "leave_hold": (0.0, 10.0),
    "retry_interval": (0.05, 60.0),
    "max_retry_interval": (0.05, 600.0),
}


@dataclass(frozen=True)
class WatcherSettings:
    """Timings, in seconds unless named otherwise."""

    # A tag laid on a pad is an event within interval + arrive_hold + two
    # polls' time (bench_session's tag rows, on the timed emulator: about
    # 52 ms at the p99 on a Pi 4 and 56 on a Zero 2 W at 12 ms rounds,
    # against 55 and 61 at 15 ms, 122 and 135 with rounds of 50 ms and a
    # 50 ms hold); a tag in the field for less than arrive_hold, or seen in
    # one poll and not the next, never is (30 ms in the field: none of 40 on
    # the Zero). Two RC522s polled empty at this rate take about 4% of a
    # Pi 4's core, 12% of a Zero 2 W's.
    interval: float = 0.012  # between polling rounds on the background thread
    confirm_polls: int = 2  # consecutive polls a change must be seen in
    arrive_hold: float = 0.025  # and for at least this long before a tag arrives
    leave_hold: float = 0.25  # a tag must be missing this long before it leaves
    retry_interval: float = 0.5  # first retry of a faulty reader
    max_retry_interval: float = 5.0  # the back-off doubles up to this

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any], where: str = "watcher") -> WatcherSettings:
        """Settings from a profile's table (e.g. ``[watcher]``); defaults for keys it leaves out.

        Unknown keys and values of the wrong type are refused, naming ``where``, the key and the fix.
        """
        known = [f.name for f in fields(cls)]
        unknown = sorted(set(values) - set(known))
        if unknown:
            raise ValueError(f"{where}: unknown setting {', '.join(unknown)}; known: {', '.join(known)}")
        for key, value in values.items():
            whole = key == "confirm_polls"
            ok = isinstance(value, int) if whole else isinstance(value, int | float)
            if isinstance(value, bool) or not ok:
                want = "a whole number of polls" if whole else "a number of seconds"
                raise ValueError(f"{where}: {key} must be {want}, got {value!r}")
        try:
            return cls(**values)
        except ValueError as err:
            raise ValueError(f"{where}: {err}") from None

    def __post_init__(self) -> None:
        if self.confirm_polls < 1:
            raise ValueError(f"watcher confirm_polls must be at least 1, got {self.confirm_polls}")
        for name in ("interval", "arrive_hold", "leave_hold", "retry_interval", "max_retry_interval"):
            value = getattr(self, name)
            if value < 0:
                raise ValueError(f"watcher {name} must not be negative, got {value}")
            if not math.isfinite(value):  # nan never compares: no tag would ever arrive
                raise ValueError(f"watcher {name} must be a finite number of seconds, got {value}")
        for name, (low, high) in LIMITS.items():
            value = getattr(self, name)
            if not low <= value <= high:
                unit = "polls" if name == "confirm_polls" else "seconds"
                raise ValueError(f"watcher {name} = {value} is outside {low:g} to {high:g} {unit}, "
                                 "the range a table can use")


@dataclass
class _Change:
    since: float
    polls: int = 1


@dataclass
class _ReaderState:
    reader: TagReader
    present: set[str] = field(default_factory=set)
    arriving: dict[str, _Change] = field(default_factory=dict)
    leaving: dict[str, _Change] = field(default_factory=dict)
    fault: str | None = None
    next_try: float = 0.0
    backoff: float = 0.0
    last_seen: frozenset[str] = frozenset()
    last_poll: float | None = None


class Watcher:
    """Polls a set of TagReaders and puts debounced events on ``events``."""

    def __init__(
        self,
        readers: Iterable[TagReader],
        events: EventSink,
        settings: WatcherSettings | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.settings = settings or WatcherSettings()
        self._events = events
        self._clock = clock
        self._states: dict[str, _ReaderState] = {}
        for reader in readers:
            if reader.name in self._states:
                raise ValueError(f"two readers are named {reader.name!r}: reader names must be unique")
            self._states[reader.name] = _ReaderState(reader)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._round_at: float | None = None  # when the last round began

    # -- queries -----------------------------------------------------------------

    @property
    def reader_names(self) -> list[str]:
        return list(self._states)

    def present(self, reader: str) -> frozenset[str]:
        """The tags confirmed on ``reader`` now."""
        return frozenset(self._state(reader).present)

    def faults(self) -> dict[str, str]:
        """Readers not answering now, with their last error."""
        return {name: s.fault for name, s in self._states.items() if s.fault is not None}

    def last_poll(self, reader: str) -> tuple[float | None, frozenset[str]]:
        """When ``reader`` last answered and the raw UIDs it saw (undebounced)."""
        state = self._state(reader)
        return state.last_poll, state.last_seen

    def _state(self, reader: str) -> _ReaderState:
        try:
            return self._states[reader]
        except KeyError:
            raise KeyError(f"no reader named {reader!r}; known: {', '.join(self._states)}") from None

    # -- polling -------------------------------------------------------------------

    def step(self, now: float | None = None) -> list[HardwareEvent]:
        """Poll each due reader once; queue and return the events, in order."""
        with self._lock:
            events: list[HardwareEvent] = []
            self._round_at = self._clock() if now is None else now
            for state in self._states.values():
                at = self._clock() if now is None else now
                if state.fault is not None and at < state.next_try:
                    continue
                events += self._poll_one(state, at, timed=now is None)
            for event in events:
                self._events.put(event)
            return events

    def poll_once(self) -> list[HardwareEvent]:
        """:meth:`step` at the clock's current time."""
        return self.step()

    def _poll_one(self, state: _ReaderState, now: float, timed: bool = True) -> list[HardwareEvent]:
        name = state.reader.name
        try:
            seen = state.reader.poll()
            # A tag seen in this poll may have come in the moment before its
            # read, late in the poll: its hold counts from the poll's end
            # (``timed``: from the clock; else polls take no time).
            done = self._clock() if timed else now
        except Exception as err:  # any failure of one reader must not stop the others
            if state.fault is None:
                state.fault = str(err) or type(err).__name__
                state.backoff = self.settings.retry_interval
                state.next_try = now + state.backoff
                log.warning("reader %s stopped answering: %s", name, state.fault)
                return [ReaderFault(name, state.fault, now)]
            state.backoff = min(state.backoff * 2, self.settings.max_retry_interval)
            state.next_try = now + state.backoff
            return []
        events: list[HardwareEvent] = []
        if state.fault is not None:
            log.info("reader %s answers again", name)
            state.fault = None
            events.append(ReaderRecovered(name, now))
        state.last_seen = frozenset(seen)
        state.last_poll = now
        events += self._debounce(state, seen, now, done)
        return events

    def _debounce(self, state: _ReaderState, seen: frozenset[str], now: float,
                  done: float | None = None) -> list[HardwareEvent]:
        """``now``: when the poll began; ``done``: when it returned (a tag
        first seen is counted from then, so that a tag in the field for less
        than ``arrive_hold`` never arrives, however long a poll takes)."""
        s = self.settings
        name = state.reader.name
        events: list[HardwareEvent] = []
        for uid in list(state.arriving):
            if uid not in seen:
                del state.arriving[uid]  # a flicker: it did not stay
        for uid in list(state.leaving):
            if uid in seen:
                del state.leaving[uid]  # it was only missed for a moment
        for uid in sorted(seen - state.present):
            change = state.arriving.get(uid)
            if change is None:
                change = state.arriving[uid] = _Change(now if done is None else done, 0)
            change.polls += 1
            if change.polls >= s.confirm_polls and now - change.since >= s.arrive_hold - _EPS:
                del state.arriving[uid]
                state.present.add(uid)
                events.append(TagArrived(name, uid, change.since))
        for uid in sorted(state.present - seen):
            change = state.leaving.get(uid)
            if change is None:
                change = state.leaving[uid] = _Change(now, 0)
            change.polls += 1
            if change.polls >= s.confirm_polls and now - change.since >= s.leave_hold - _EPS:
                del state.leaving[uid]
                state.present.discard(uid)
                events.append(TagLeft(name, uid, change.since))
        return events

    # -- background thread -----------------------------------------------------------

    def start(self) -> None:
        """Poll on a daemon thread every ``settings.interval`` until :meth:`stop`."""
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="tag-watcher", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def next_due(self, now: float | None = None) -> float:
        """Seconds from ``now`` to the next round: ``interval`` after the last
        one began, or sooner, when a tag seen arriving will have been seen
        for ``arrive_hold`` (it is confirmed then rather than up to a round
        later). 0 when a round is due now or none has run."""
        with self._lock:
            at = self._clock() if now is None else now
            if self._round_at is None:
                return 0.0
            due = self._round_at + self.settings.interval
            for state in self._states.values():
                for change in state.arriving.values():
                    if change.polls + 1 >= self.settings.confirm_polls:  # the next poll may confirm it
                        due = min(due, change.since + self.settings.arrive_hold)
            return max(0.0, due - at)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.step()
            self._stop.wait(self.next_due())

    def close(self) -> None:
        """Stop polling and close every reader."""
        self.stop()
        for state in self._states.values():
            try:
                state.reader.close()
            except Exception as err:  # closing is best effort, one reader at a time
                log.warning("closing reader %s failed: %s", state.reader.name, err)
