"""Tag on the pad to its event on the session's queue, on the timed reader emulator.

The reference table's two RC522 pads on the Pi's SPI (seats 1 and 2: the
project's driver at its default SPI clock, on ``drivers.sim.rc522_emulator``
chips with a :class:`VirtualClock`, so every SPI byte, RF frame, tag answer
and timer takes the time it would on the wire) under the real
:class:`drivers.watcher.Watcher` with the profile's settings, its rounds
scheduled as its own thread schedules them. The driver's Python runs here:
its CPU time, less the emulator's own bookkeeping, times a board's factor,
is added to the virtual clock, as a Pi would spend it.

A 7-byte tag lands at a random moment (the chip sees it from its next
transfer on); the time to the watcher's TagArrived on the queue is one
sample. Also: a tag in the field for a given time at random phases (how
many of them become events: the shortest always read, a brush past never),
and a tag at the edge of the field seen in every other poll.
"""

from __future__ import annotations

import gc
import queue
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from drivers.events import TagArrived
from drivers.rc522 import open_rc522
from drivers.sim.fake_spi import FakeSpiBus, fake_spidev
from drivers.sim.rc522_emulator import RC522Chip, VirtualClock
from drivers.watcher import Watcher, WatcherSettings

UID = "04A1B2C3D4E5F6"  # an NTAG21x: a 7-byte UID, two cascade levels
PADS = ("seat1.pad", "seat2.pad")  # the reference table's RC522s on the Pi's own SPI


class _Field(RC522Chip):
    """A chip whose field holds the tag while ``present(now)`` says so, looked
    at before each transfer (the driver only learns of it by talking to the chip)."""

    present: Callable[[float], bool] = staticmethod(lambda now: False)

    def xfer2(self, data: list[int]) -> list[int]:
        want = self.present(self.clock.now())
        if want != bool(self.tags):
            if want:
                self.add_tag(UID)
            else:
                self.clear_tags()
        return list(super().xfer2(data))


@dataclass
class Rig:
    clock: VirtualClock
    chips: list[_Field]
    watcher: Watcher
    events: queue.Queue

    def run_until(self, end: float, stop: Callable[[list[Any]], bool] = lambda e: False) -> float | None:
        """Rounds as the watcher's thread runs them until ``end`` (virtual
        seconds) or until ``stop(events)``; the time of that round's end."""
        while self.clock.now() < end:
            got = self.watcher.step()
            if stop(got):
                return self.clock.now()
            due = getattr(self.watcher, "next_due", None)
            wait = due(self.clock.now()) if due else self.watcher.settings.interval
            self.clock.advance(max(wait, 1e-4))
        return None


def rig(settings: WatcherSettings, factor: float) -> Rig:
    clock = VirtualClock()
    bus = FakeSpiBus()
    chips = []
    readers = []
    with fake_spidev(bus):
        for device, name in enumerate(PADS):
            chip = _Field(clock=clock)
            bus.attach(chip, 0, device)
            chips.append(chip)
            reader = open_rc522(name, bus=0, device=device, clock=clock.now, sleep=clock.sleep)
            readers.append(_costed(reader, chip, clock, factor))
    events: queue.Queue = queue.Queue()
    watcher = Watcher(readers, events, settings, clock=clock.now)
    out = Rig(clock, chips, watcher, events)
    out.run_until(0.1)  # the chips set up, the rounds under way
    return out


def _costed(reader: Any, chip: RC522Chip, clock: VirtualClock, factor: float) -> Any:
    """``reader`` whose polls also spend their Python's CPU time, scaled to
    the board, on the virtual clock."""
    real = reader.poll

    def poll() -> frozenset[str]:
        cpu, emulated = time.thread_time(), chip.busy_cpu
        try:
            return frozenset(real())
        finally:
            spent = (time.thread_time() - cpu) - (chip.busy_cpu - emulated)
            clock.advance(max(0.0, spent) * factor)

    reader.poll = poll
    return reader


def _collector_off(fn: Callable[..., Any]) -> Callable[..., Any]:
    """The cyclic collector does not run inside the simulation: a pause of
    this process's collector, holding the games the benchmark played before,
    is not the driver's CPU and would be scaled as if it were."""

    def run(*args: Any, **kw: Any) -> Any:
        enabled = gc.isenabled()
        gc.collect()
        gc.disable()
        try:
            return fn(*args, **kw)
        finally:
            if enabled:
                gc.enable()

    return run


@_collector_off
def landings(settings: WatcherSettings, factor: float, count: int, seed: int = 1) -> list[float]:
    """Seconds from a tag landing on a pad to its TagArrived on the queue, ``count`` times."""
    rng = random.Random(seed)
    out = []
    for n in range(count):
        r = rig(settings, factor)
        land = r.clock.now() + rng.uniform(0.0, 2 * settings.interval)
        chip = r.chips[n % len(r.chips)]
        chip.present = lambda now, land=land: now >= land  # type: ignore[method-assign]
        done = r.run_until(land + 2.0, lambda got: any(isinstance(e, TagArrived) for e in got))
        if done is None:
            raise RuntimeError("a tag laid on an emulated pad never arrived")
        out.append(done - land)
    return out


@_collector_off
def brushes(settings: WatcherSettings, factor: float, seconds: float, count: int, seed: int = 2) -> int:
    """How many of ``count`` tags in a pad's field for ``seconds`` (random
    phases) became an event."""
    rng = random.Random(seed)
    arrived = 0
    for _ in range(count):
        r = rig(settings, factor)
        land = r.clock.now() + rng.uniform(0.0, 2 * settings.interval)
        r.chips[0].present = lambda now, a=land, b=land + seconds: a <= now < b  # type: ignore[method-assign]
        done = r.run_until(land + seconds + 1.0, lambda got: any(isinstance(e, TagArrived) for e in got))
        arrived += done is not None
    return arrived


@_collector_off
def edge_flicker(settings: WatcherSettings, factor: float, rounds: int = 200) -> int:
    """Events from a tag at the edge of the field, in it for one round and
    out of it the next, over ``rounds`` rounds."""
    r = rig(settings, factor)
    got = 0
    for n in range(rounds):
        r.chips[0].present = lambda now, on=n % 2 == 0: on  # type: ignore[method-assign]
        got += sum(isinstance(e, TagArrived) for e in r.watcher.step())
        due = getattr(r.watcher, "next_due", None)
        r.clock.advance(max(due(r.clock.now()) if due else settings.interval, 1e-4))
    return got
