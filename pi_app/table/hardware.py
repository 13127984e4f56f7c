"""From a table profile to parts: readers, screens, buttons, lights.

The one place that knows which driver backs which profile entry (through
drivers.parts). Driver callbacks only put drivers.events on the queue the
table is given; the session loop is their only consumer.
"""

from __future__ import annotations

import contextlib
import queue
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from drivers import parts
from drivers.base import HardwareError as DriverError
from drivers.base import TagReader
from drivers.watcher import Watcher, WatcherSettings
from pi_app.errors import HardwareError
from pi_app.table.profile import ButtonSpec, Profile, ReaderSpec

PRESS_GAP = 0.1  # simulated seconds between a simulated player's presses


# -- readers ---------------------------------------------------------------------


def _build_reader(spec: ReaderSpec, profile: Profile) -> TagReader:
    try:
        if spec.backend == "hub":
            from drivers.hub import open_reader as open_hub_reader

            return open_hub_reader(spec, profile)
        return parts.open_reader(spec)
    except ImportError as exc:
        raise HardwareError(f"{spec.name}: the {spec.backend} reader backend is not available ({exc}); "
                            "install the [pi] extra or use the simulated table (--table sim)") from None
    except (OSError, ValueError, DriverError) as exc:
        raise HardwareError(f"{spec.name}: the {spec.backend} reader did not open: {exc}") from None


def _build_button(spec: ButtonSpec, profile: Profile, events: queue.Queue, factory: Any,
                  clock: Callable[[], float] | None) -> Any:
    """A GPIO button, or a button of the reader hub (the same events on ``events``)."""
    if spec.backend == "hub":
        from drivers.hub import open_button as open_hub_button

        return open_hub_button(spec, profile, events, clock=clock)
    return parts.open_button(spec, events, pin_factory=factory, clock=clock)


# -- lights --------------------------------------------------------------------------


class SeatLight:
    """A seat light (drivers.lights.TableLight) with what it was last told
    (``on``, ``off``, ``flash``), so the loop sends a pin only what changed
    and tests and the console can read the intent as well as the pin."""

    def __init__(self, light: Any) -> None:
        self.light = light
        self.name = light.name
        self.state = "off"
        self.flashes = 0

    @property
    def device(self) -> Any:
        return self.light.device

    def on(self) -> None:
        if self.state != "on":
            self.light.on()
            self.state = "on"

    def off(self) -> None:
        if self.state != "off":
            self.light.off()
            self.state = "off"

    def blink(self, on_time: float = 0.12, off_time: float = 0.12, n: int | None = 3) -> None:
        self.light.blink(on_time, off_time, n)
        self.state = "flash"
        self.flashes += 1

    @property
    def is_lit(self) -> bool:
        return bool(self.light.is_lit)

    def close(self) -> None:
        self.light.close()


# -- the table -------------------------------------------------------------------------


@dataclass
class Table:
    profile: Profile
    queue: queue.Queue
    readers: dict[str, TagReader] = field(default_factory=dict)
    screens: dict[str, Any] = field(default_factory=dict)
    buttons: dict[str, Any] = field(default_factory=dict)
    lights: dict[str, SeatLight] = field(default_factory=dict)
    watcher: Watcher | None = None
    pin_factory: Any = None
    i2c: Any = None
    #: on mock pins, the simulated SPI bus of the profile's luma SPI screens
    #: (drivers.sim.spi_screens.SimulatedSpi: ``glass(name)`` is what one shows)
    spi: Any = None
    clock: float = 0.0  # simulated time for a stepped watcher
    polling: bool = False  # the watcher runs on its own thread

    # -- simulation: what players do -------------------------------------
    def tap(self, reader: str, uid: str) -> None:
        """Put a tag on a simulated pad and take it off again, stepping the
        watcher through its debounce so it reports one arrival."""
        r = self.readers[reader]
        if not hasattr(r, "place"):
            raise HardwareError(f"{reader} is not a simulated reader")
        r.place(uid)
        self._step_until(lambda: uid in self.watcher.present(reader))  # type: ignore[union-attr]
        r.remove(uid)
        self._step_until(lambda: uid not in self.watcher.present(reader))  # type: ignore[union-attr]

    def _step_until(self, done: Callable[[], bool], step: float = 0.06, limit: int = 50) -> None:
        assert self.watcher is not None
        for _ in range(limit):
            self.clock += step
            self.watcher.step(self.clock)
            if done():
                return
        raise HardwareError("the simulated reader never settled")

    def press(self, button: str) -> None:
        """Press and release a button on its mock pin."""
        if self.pin_factory is None or not hasattr(self.pin_factory, "pin") \
                or not hasattr(self.buttons[button], "pin"):
            raise HardwareError(f"{button} is not on a mock pin")
        pin = self.pin_factory.pin(self.buttons[button].pin)
        self.clock += PRESS_GAP  # a player's presses are apart, not a contact bouncing
        pin.drive_low()
        pin.drive_high()

    def hold(self, button: str) -> None:
        """Press a button on its mock pin and keep it down until gpiozero's
        own hold thread has reported the hold (after its hold_time, a second
        by default), then release it: a press, then a hold, as a finger makes."""
        part = self.buttons[button]
        if self.pin_factory is None or not hasattr(self.pin_factory, "pin") or not hasattr(part, "pin"):
            raise HardwareError(f"{button} is not a button on a mock pin")
        pin = self.pin_factory.pin(part.pin)
        before = part.holds
        deadline = time.monotonic() + 3 * part.device.hold_time + 1
        self.clock += PRESS_GAP
        pin.drive_low()
        try:
            while part.holds == before:
                if time.monotonic() > deadline:
                    raise HardwareError(f"{button} was held but gpiozero reported no hold")
                time.sleep(0.02)
        finally:
            pin.drive_high()

    def alive(self) -> bool:
        """The reader thread still runs (when the watcher has one)."""
        if not self.polling:
            return True
        thread = getattr(self.watcher, "_thread", None)  # drivers.watcher has no public probe yet
        return thread is not None and thread.is_alive()

    def turn(self, encoder: str, steps: int) -> None:
        """Turn a rotary encoder on its mock pins, one detent per step."""
        pin_a, pin_b = self.buttons[encoder].pins
        a, b = self.pin_factory.pin(pin_a), self.pin_factory.pin(pin_b)
        # One detent of gpiozero's quadrature decoding: A leads B clockwise.
        order = [(a, False), (b, False), (a, True), (b, True)] if steps > 0 else \
            [(b, False), (a, False), (b, True), (a, True)]
        for _ in range(abs(steps)):
            for pin, high in order:
                pin.drive_high() if high else pin.drive_low()

    def frames(self, screen: str) -> list[Image.Image]:
        """Every frame a simulated screen was sent, oldest first."""
        from drivers.sim.screens import frames

        return frames(self.screens[screen])

    def texts(self, screen: str) -> list[str]:
        """The words of each frame :meth:`frames` gives, at the same index."""
        from drivers.sim.screens import texts

        return texts(self.screens[screen])

    def close(self) -> None:
        if self.watcher is not None:
            with contextlib.suppress(Exception):
                self.watcher.stop()
        for part in [*self.readers.values(), *self.screens.values(), *self.buttons.values(),
                     *self.lights.values()]:
            with contextlib.suppress(Exception):  # best effort: the table is going away
                part.close()
        if self.i2c is not None:
            with contextlib.suppress(Exception):
                self.i2c.close()
        if self.pin_factory is not None:
            with contextlib.suppress(Exception):
                self.pin_factory.close()


def build(profile: Profile, events: queue.Queue, *, keep_frames: bool = False, poll: bool = True,
          seats: int | None = None) -> Table:
    """Every part of ``profile`` (the first ``seats`` seats only, when given),
    through drivers.parts. Buttons and the reader watcher put events on
    ``events``. With ``poll`` the watcher polls in its own thread; without,
    it is stepped by :meth:`Table.tap` on simulated time (tests, the demo,
    the console)."""
    from drivers.screens import I2cBuses

    settings = watcher_settings(profile)
    factory = None
    if profile.pins == "mock":
        from drivers.sim.gpio import mock_factory

        factory = mock_factory()
    table = Table(profile, events, pin_factory=factory, i2c=I2cBuses())
    # Mock pins are pressed on the table's simulated time (Table.press), so
    # the buttons' debounce tells a player's presses from a contact bouncing.
    button_clock = (lambda: table.clock) if factory is not None else None
    used = profile.seats[:seats] if seats else profile.seats
    try:
        for seat in used:
            table.readers[seat.pad.name] = _build_reader(seat.pad, profile)
        for zone in profile.zones:
            table.readers[zone.reader.name] = _build_reader(zone.reader, profile)
        keep = 100_000 if keep_frames else 2
        resets: set[int] = set()  # SPI screens' shared reset lines, pulsed once
        specs = [*(s.screen for s in used), profile.shared_screen]
        wires: Any = contextlib.nullcontext()
        if factory is not None:  # mock pins: SPI screens are emulated chips on a simulated bus
            from drivers.sim.spi_screens import SimulatedSpi, is_spi_screen

            if any(is_spi_screen(spec) for spec in specs):
                table.spi = SimulatedSpi(specs)
                wires = table.spi.installed()
        with wires:
            for spec in specs:
                try:
                    table.screens[spec.name] = parts.open_screen(spec, i2c=table.i2c, keep=keep,
                                                                 spi_resets=resets)
                except (OSError, ValueError, DriverError) as exc:
                    raise HardwareError(f"{spec.name}: the screen did not open: {exc}") from None
        for b in [*(b for s in used for b in s.buttons), profile.undo]:
            table.buttons[b.name] = _build_button(b, profile, events, factory, button_clock)
        for s in used:
            table.lights[s.light.name] = SeatLight(parts.open_light_spec(s.light, pin_factory=factory))
            if s.encoder is not None:
                table.buttons[s.encoder.name] = parts.open_encoder(s.encoder, events, pin_factory=factory)
    except HardwareError:
        table.close()
        raise
    except (DriverError, ValueError) as exc:  # pins: the driver's message names the part
        table.close()
        raise HardwareError(f"table {profile.path}: {exc}") from None
    if poll:
        table.watcher = Watcher(list(table.readers.values()), events, settings)
        table.watcher.start()
        table.polling = True
    else:
        table.watcher = Watcher(list(table.readers.values()), events, settings, clock=lambda: table.clock)
    return table


def watcher_settings(profile: Profile) -> WatcherSettings:
    """The reader polling and debounce of the profile's [watcher] table."""
    try:
        return WatcherSettings.from_mapping(profile.watcher, where=f"{profile.path} [watcher]")
    except ValueError as exc:  # a profile made in code, not through profile.load
        raise HardwareError(f"{exc}; fix that key or leave it out for its default") from None
