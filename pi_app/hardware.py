"""From a table profile to parts: readers, screens, buttons, lights.

The one place that knows which driver backs which profile entry. Driver
callbacks only put drivers.events on the queue the table is given; the
session loop is their only consumer.
"""

from __future__ import annotations

import contextlib
import importlib
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from drivers.base import ReaderError, TagReader
from drivers.events import ReaderFault, ReaderRecovered, TagArrived, TagLeft
from pi_app.errors import UsageError
from pi_app.profile import LightSpec, Profile, ReaderSpec, ScreenSpec


class HardwareError(UsageError):
    """A part that cannot be built: names the part and what to check."""


# -- readers ---------------------------------------------------------------------


class SimReader:
    """A reader pad in simulation: tags are placed and removed by a script."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._tags: set[str] = set()
        self._lock = threading.Lock()
        self.answering = True

    def place(self, uid: str) -> None:
        with self._lock:
            self._tags.add(uid)

    def remove(self, uid: str) -> None:
        with self._lock:
            self._tags.discard(uid)

    def poll(self) -> frozenset[str]:
        if not self.answering:
            raise ReaderError(f"{self.name} does not answer")
        with self._lock:
            return frozenset(self._tags)

    def close(self) -> None:
        pass


def _build_reader(spec: ReaderSpec, profile: Profile) -> TagReader:
    if spec.backend == "sim":
        return SimReader(spec.name)
    # Real backends come from drivers/; their modules import hardware
    # libraries only when built, so a laptop fails here with a clear message.
    factories = {
        "rc522": ("drivers.rc522", "open_reader"),
        "mfrc522": ("drivers.rc522", "open_mfrc522_reader"),
        "hub": ("drivers.hub", "open_reader"),
    }
    module_name, func = factories[spec.backend]
    try:
        module = importlib.import_module(module_name)
        return getattr(module, func)(spec, profile)
    except (ImportError, AttributeError) as exc:
        raise HardwareError(f"{spec.name}: the {spec.backend} reader backend is not available ({exc}); "
                            "install the [pi] extra or use a simulated profile (--table sim)") from None
    except (OSError, ReaderError) as exc:
        raise HardwareError(f"{spec.name}: {spec.backend} reader did not open ({exc}); check its wiring "
                            "and that SPI / the hub is enabled") from None


class Watcher:
    """Polls readers and turns what they see into TagArrived / TagLeft.

    A tag must be seen (or missed) for ``hold`` consecutive polls before it
    counts, so a tag flickering at the edge of the field is not an event. A
    reader that fails is reported once and retried."""

    def __init__(self, readers: dict[str, TagReader], out: queue.Queue, interval: float = 0.05,
                 hold: int = 2) -> None:
        self.readers = readers
        self.out = out
        self.interval = interval
        self.hold = hold
        self.present: dict[str, set[str]] = {name: set() for name in readers}
        self._seen: dict[tuple[str, str], int] = {}
        self._faulty: set[str] = set()
        self._stop = threading.Event()
        self.thread: threading.Thread | None = None

    def poll_once(self) -> None:
        now = time.monotonic()
        for name, reader in self.readers.items():
            try:
                tags = reader.poll()
            except ReaderError as exc:
                if name not in self._faulty:
                    self._faulty.add(name)
                    self.out.put(ReaderFault(name, str(exc), now))
                continue
            if name in self._faulty:
                self._faulty.discard(name)
                self.out.put(ReaderRecovered(name, now))
            have = self.present[name]
            for uid in tags | have:
                key = (name, uid)
                changed = (uid in tags) != (uid in have)
                self._seen[key] = self._seen.get(key, 0) + 1 if changed else 0
                if self._seen[key] >= self.hold:
                    self._seen[key] = 0
                    if uid in tags:
                        have.add(uid)
                        self.out.put(TagArrived(name, uid, now))
                    else:
                        have.discard(uid)
                        self.out.put(TagLeft(name, uid, now))

    def start(self) -> None:
        def loop() -> None:
            while not self._stop.wait(self.interval):
                self.poll_once()

        self.thread = threading.Thread(target=loop, name="reader-watcher", daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self.thread is not None:
            self.thread.join(timeout=2)

    def alive(self) -> bool:
        return self.thread is None or self.thread.is_alive()


# -- screens -----------------------------------------------------------------------


class LumaScreen:
    """A 128x64 screen on a luma device (the dummy device in simulation).

    Only a changed frame is sent. ``frames`` keeps every shown frame when
    ``keep`` is set, for the demo and tests."""

    def __init__(self, name: str, device: Any, keep: bool = False,
                 before: Callable[[], None] | None = None) -> None:
        self.name = name
        self.device = device
        self.size = (128, 64)
        self.keep = keep
        self.frames: list[Image.Image] = []
        self._last: bytes | None = None
        self._before = before

    def show(self, frame: Image.Image) -> bool:
        data = frame.tobytes()
        if data == self._last:
            return False
        if self._before is not None:
            self._before()
        self.device.display(frame.convert(self.device.mode))
        self._last = data
        if self.keep:
            self.frames.append(frame.copy())
        return True

    @property
    def image(self) -> Image.Image | None:
        return self.frames[-1] if self.frames else None

    def close(self) -> None:
        pass


def _build_screen(spec: ScreenSpec, keep: bool) -> LumaScreen:
    if spec.backend == "dummy":
        from luma.core.device import dummy

        return LumaScreen(spec.name, dummy(width=128, height=64, mode="1"), keep=keep)
    try:
        from luma.core.interface.serial import i2c, spi
        from luma.oled.device import sh1106, ssd1306

        serial = (i2c(port=spec.port, address=spec.address) if spec.interface == "i2c"
                  else spi(port=spec.port, device=spec.spi_device, gpio_DC=spec.dc_pin,
                           gpio_RST=spec.rst_pin))
        device = (sh1106 if spec.driver == "sh1106" else ssd1306)(serial, width=128, height=64)
    except Exception as exc:  # luma raises several kinds for a missing bus or device
        raise HardwareError(f"{spec.name}: the {spec.driver} screen on {spec.interface} port {spec.port} "
                            f"address {spec.address:#x} did not open ({exc}); check the wiring and that "
                            "I2C is enabled") from None
    before = None
    if spec.mux_channel is not None:
        before = _mux_selector(spec.port, spec.mux_channel)
    return LumaScreen(spec.name, device, keep=keep, before=before)


def _mux_selector(port: int, channel: int, address: int = 0x70) -> Callable[[], None]:
    """Select a TCA9548A channel before each frame (1 << channel to 0x70)."""

    def select() -> None:
        from smbus2 import SMBus  # type: ignore[import-not-found]  # luma's own I2C dependency

        with SMBus(port) as bus:
            bus.write_byte(address, 1 << channel)

    return select


# -- lights --------------------------------------------------------------------------


class TableLight:
    """A seat light with what it was last told (``on``, ``off``, ``flash``)
    so tests and the console can read the intent as well as the pin."""

    def __init__(self, name: str, device: Any) -> None:
        self.name = name
        self.device = device
        self.state = "off"
        self.flashes = 0

    def on(self) -> None:
        if self.state != "on":
            self.device.on()
            self.state = "on"

    def off(self) -> None:
        if self.state != "off":
            self.device.off()
            self.state = "off"

    def blink(self, on_time: float = 0.12, off_time: float = 0.12, n: int | None = 3) -> None:
        self.device.blink(on_time=on_time, off_time=off_time, n=n, background=True)
        self.state = "flash"
        self.flashes += 1

    @property
    def is_lit(self) -> bool:
        return bool(self.device.is_lit)

    def close(self) -> None:
        self.device.close()


def _build_light(spec: LightSpec) -> TableLight:
    from gpiozero import LED, PWMLED

    return TableLight(spec.name, (PWMLED if spec.kind == "pwmled" else LED)(spec.pin))


# -- the table -------------------------------------------------------------------------


@dataclass
class Table:
    profile: Profile
    queue: queue.Queue
    readers: dict[str, TagReader] = field(default_factory=dict)
    screens: dict[str, LumaScreen] = field(default_factory=dict)
    buttons: dict[str, Any] = field(default_factory=dict)
    lights: dict[str, TableLight] = field(default_factory=dict)
    watcher: Watcher | None = None

    # -- simulation: what players do -------------------------------------
    def tap(self, reader: str, uid: str) -> None:
        """Put a tag on a simulated pad and take it off again."""
        r = self.readers[reader]
        if not isinstance(r, SimReader):
            raise HardwareError(f"{reader} is not a simulated reader")
        r.place(uid)
        self.settle()
        r.remove(uid)
        self.settle()

    def settle(self) -> None:
        """Poll until the watcher has confirmed what the readers hold."""
        if self.watcher is not None:
            for _ in range(self.watcher.hold):
                self.watcher.poll_once()

    def press(self, button: str) -> None:
        """Press and release a button on its mock pin."""
        pin = self.buttons[button].pin
        pin.drive_low()
        pin.drive_high()

    def close(self) -> None:
        if self.watcher is not None:
            self.watcher.stop()
        for part in [*self.readers.values(), *self.screens.values(), *self.buttons.values(),
                     *self.lights.values()]:
            with contextlib.suppress(Exception):  # best effort: the table is going away
                part.close()


def build(profile: Profile, events: queue.Queue, *, keep_frames: bool = False, poll: bool = True,
          seats: int | None = None) -> Table:
    """Every part of ``profile`` (the first ``seats`` seats only, when given);
    buttons put ButtonPressed on ``events``; the reader watcher polls in its
    own thread unless ``poll`` is False (tests and the demo step it)."""
    from gpiozero import Button, Device

    from drivers.events import ButtonPressed

    if profile.pins == "mock":
        from gpiozero.pins.mock import MockFactory, MockPWMPin

        if Device.pin_factory is not None:
            Device.pin_factory.close()
        Device.pin_factory = MockFactory(pin_class=MockPWMPin)
    table = Table(profile, events)
    used = profile.seats[:seats] if seats else profile.seats
    try:
        for seat in used:
            table.readers[seat.pad.name] = _build_reader(seat.pad, profile)
        for zone in profile.zones:
            table.readers[zone.reader.name] = _build_reader(zone.reader, profile)
        for spec in [*(s.screen for s in used), profile.shared_screen]:
            table.screens[spec.name] = _build_screen(spec, keep_frames)
        for b in [*(b for s in used for b in s.buttons), profile.undo]:
            button = Button(b.pin, pull_up=True)
            button.when_pressed = _enqueue(events, ButtonPressed, b.name)
            table.buttons[b.name] = button
        for s in used:
            table.lights[s.light.name] = _build_light(s.light)
    except HardwareError:
        table.close()
        raise
    except Exception as exc:  # gpiozero's pin errors name the pin; say which part
        table.close()
        raise HardwareError(f"table {profile.path}: a button or light did not open ({exc}); check "
                            "the pins in the profile") from None
    table.watcher = Watcher(table.readers, events)
    if poll:
        table.watcher.start()
    return table


def _enqueue(events: queue.Queue, kind: Callable[..., Any], name: str) -> Callable[[], None]:
    def callback() -> None:
        events.put(kind(name, time.monotonic()))

    return callback
