"""`tablekeeper doctor`: check every part of a table, one at a time.

Lists the readers, screens, buttons and lights of a profile; shows a test
pattern on every screen, blinks every light, reports the tags each reader
sees and each button pressed, and says plainly which part did not answer.
On a simulated table it drives the parts itself (a made-up tag on each pad,
each mock button pressed) so the whole path is exercised on a laptop.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import time
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, TextIO

from drivers import parts
from drivers.events import ButtonPressed, EncoderTurned, ReaderFault, ReaderRecovered, TagArrived
from drivers.watcher import Watcher
from pi_app.errors import UsageError
from pi_app.store.registry import made_up_uid
from pi_app.table import pad_test as reads
from pi_app.table.hardware import watcher_settings
from pi_app.table.profile import Profile
from pi_app.ui.screens import test_pattern


@dataclass
class Check:
    part: str
    kind: str
    where: str
    ok: bool | None = None  # None: not heard from (a button nobody pressed)
    said: list[str] = field(default_factory=list)


def _where(spec: Any) -> str:
    """The connection of a part, in the profile's words."""
    backend = getattr(spec, "backend", None)
    if backend in ("sim", "dummy"):
        return f"backend={backend}"
    luma = (("driver", "interface", "spi_port", "spi_device", "select", "cs_pin")
            if getattr(spec, "interface", None) == "spi"
            else ("driver", "interface", "port", "address", "mux_channel"))
    keys = {"rc522": ("bus", "device", "cs_pin"), "mfrc522": ("bus", "device"), "hub": ("hub", "index"),
            "luma": luma}.get(backend or "", ("pin", "kind"))
    if getattr(spec, "part", None) == "button":
        keys = ("hub", "button") if backend == "hub" else ("pin",)
    out = [f"backend={backend}"] if backend else []
    for k in keys:
        v = getattr(spec, k, None)
        if v is not None:
            out.append(f"{k}={hex(v) if k == 'address' else v}")
    return " ".join(out)


@contextlib.contextmanager
def _drivers_unlogged() -> Iterator[None]:
    """The drivers log each fault as it happens, for the daemon's journal;
    the doctor reports it under its part instead, once."""
    logger = logging.getLogger("drivers")
    null = logging.NullHandler()  # without a handler, Python's last resort would print it anyway
    propagate = logger.propagate
    logger.addHandler(null)
    logger.propagate = False
    try:
        yield
    finally:
        logger.propagate = propagate
        logger.removeHandler(null)


class Doctor:
    def __init__(self, profile: Profile, out: TextIO, listen: float) -> None:
        self.profile = profile
        self.out = out
        self.listen = listen
        self.events: queue.Queue = queue.Queue()
        self.checks: dict[str, Check] = {}
        self.opened: list[Any] = []
        self.hub_buttons: list[Any] = []  # drivers.hub.HubButton: checked again after listening
        self.factory: Any = None
        if profile.pins == "mock":
            from drivers.sim.gpio import mock_factory

            self.factory = mock_factory()

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def attempt(self, check: Check, action: Callable[[], Any]) -> Any:
        try:
            result = action()
        except Exception as exc:  # any failure of a part is the report, not a crash
            check.ok = False
            check.said.append(f"did not answer: {exc}")
            return None
        return True if result is None else result

    def run(self) -> int:
        with warnings.catch_warnings(), _drivers_unlogged():
            # gpiozero warns for each pin library it cannot load; the report says it once per part.
            warnings.simplefilter("ignore")
            return self._run()

    def _run(self) -> int:
        p = self.profile
        self.say(f"table {p.name} ({p.path}){' — simulated' if p.simulated else ''}")
        readers = {r.name: r for r in p.readers()}
        for spec in p.screens():
            self.checks[spec.name] = Check(spec.name, "screen", _where(spec))
        for spec in readers.values():
            self.checks[spec.name] = Check(spec.name, "reader", _where(spec))
        for spec in p.buttons():
            self.checks[spec.name] = Check(spec.name, "button", _where(spec))
        for spec in p.lights():
            self.checks[spec.name] = Check(spec.name, "light", _where(spec))
        for spec in self.encoders():
            self.checks[spec.name] = Check(spec.name, "encoder", f"pin_a={spec.pin_a} pin_b={spec.pin_b}")
        try:
            self.screens()
            self.lights()
            opened = self.readers()
            self.buttons()
            self.watch(opened)
            self.hub_buttons_heard()
        finally:
            for part in self.opened:
                with contextlib.suppress(Exception):  # closing is best effort
                    part.close()
        return self.report()

    def screens(self) -> None:
        resets: set[int] = set()  # SPI screens share a reset line: pulsed once, or it blanks the others
        for spec in self.profile.screens():
            check = self.checks[spec.name]
            screen = self.attempt(check, lambda spec=spec: parts.open_screen(spec, spi_resets=resets))
            if screen is None:
                continue
            self.opened.append(screen)
            if self.attempt(check, lambda s=screen, n=spec.name: s.show(test_pattern(n))) is not None:
                check.ok = True
                check.said.append("test pattern shown")

    def lights(self) -> None:
        for spec in self.profile.lights():
            check = self.checks[spec.name]
            light = self.attempt(check, lambda spec=spec: parts.open_light_spec(spec,
                                                                                 pin_factory=self.factory))
            if light is None:
                continue
            self.opened.append(light)
            if self.attempt(check, lambda lt=light: lt.blink(0.1, 0.1, 2)) is not None:
                check.ok = True
                check.said.append("blinked twice")

    def readers(self) -> list[Any]:
        opened = []
        for spec in self.profile.readers():
            check = self.checks[spec.name]
            if spec.backend == "hub":
                from drivers.hub import open_reader as open_hub_reader

                reader = self.attempt(check, lambda spec=spec: open_hub_reader(spec, self.profile))
            else:
                reader = self.attempt(check, lambda spec=spec: parts.open_reader(spec))
            if reader is None:
                continue
            opened.append(reader)
            self.opened.append(reader)
        return opened

    def encoders(self) -> list[Any]:
        return [s.encoder for s in self.profile.seats if s.encoder is not None]

    def buttons(self) -> None:
        for spec in self.encoders():
            check = self.checks[spec.name]
            encoder = self.attempt(check, lambda spec=spec: parts.open_encoder(spec, self.events,
                                                                               pin_factory=self.factory))
            if encoder is not None:
                self.opened.append(encoder)
                check.said.append("opened")
        for spec in self.profile.buttons():
            check = self.checks[spec.name]
            if spec.backend == "hub":
                # Refused when the hub that answered has no such button (old firmware): said here.
                from drivers.hub import open_button as open_hub_button

                button = self.attempt(check, lambda spec=spec: open_hub_button(spec, self.profile,
                                                                               self.events))
                if button is not None:
                    self.hub_buttons.append(button)
            else:
                button = self.attempt(check, lambda spec=spec: parts.open_button(spec, self.events,
                                                                                 pin_factory=self.factory))
            if button is not None:
                self.opened.append(button)
                check.said.append("opened")

    def hub_buttons_heard(self) -> None:
        """A hub button nobody pressed is failed when its hub never answered or cannot
        have it (old firmware): waiting for a press there would not help."""
        for button in self.hub_buttons:
            check = self.checks[button.name]
            if check.ok:
                continue
            problem = button.problem()
            if problem is None and not button.hub.synced:
                problem = f"the reader hub did not answer ({button.hub.last_error or 'no snapshot'})"
            if problem is not None:
                check.ok = False
                check.said.append(f"did not answer: {problem}")

    def watch(self, readers: list[Any]) -> None:
        clock = [0.0]
        simulated = self.profile.simulated
        watcher = Watcher(readers, self.events, watcher_settings(self.profile),
                          clock=(lambda: clock[0]) if simulated else time.monotonic)
        for reader in readers:
            check = self.checks[reader.name]
            try:
                tags = reader.poll()
            except Exception as exc:  # the reader's fault is what the doctor reports
                check.ok = False
                check.said.append(f"did not answer: {exc}")
                continue
            check.ok = True
            check.said.append(f"answers; tags now: {', '.join(sorted(tags)) or 'none'}")
            note = getattr(reader, "version_note", None)  # a clone chip: read, but named
            if note:
                check.said.append(note)
        if simulated:
            # Drive the parts ourselves: a tag on every pad, every button pressed.
            for reader in readers:
                reader.place(made_up_uid("doctor", reader.name))
            for _ in range(5):
                clock[0] += 0.06
                watcher.step()
            for spec in self.profile.buttons():
                if spec.backend == "hub":
                    continue  # pressed on the hub, by a person (or a test's emulated hub)
                pin = self.factory.pin(spec.pin)
                pin.drive_low()
                pin.drive_high()
            for spec in self.encoders():  # one detent clockwise
                a, b = self.factory.pin(spec.pin_a), self.factory.pin(spec.pin_b)
                a.drive_low()
                b.drive_low()
                a.drive_high()
                b.drive_high()
        elif self.listen > 0 and not self.can_hear():
            # Nothing opened that a tap or a press could reach: waiting would only delay the report.
            self.say("not listening for taps and presses: no pad, button or encoder opened")
        elif self.listen > 0:
            self.say(f"tap tags on the pads and press every button: listening {self.listen:g} s")
            watcher.start()
            deadline = time.monotonic() + self.listen
            while time.monotonic() < deadline:
                self.drain(timeout=0.1)
            watcher.stop()
        self.drain(timeout=0)

    def can_hear(self) -> bool:
        """Whether a pad answered or a button or encoder opened."""
        listened = ("reader", "button", "encoder")
        return any(c.ok is not False for c in self.checks.values() if c.kind in listened)

    def drain(self, timeout: float) -> None:
        while True:
            try:
                event = self.events.get(timeout=timeout) if timeout else self.events.get_nowait()
            except queue.Empty:
                return
            if isinstance(event, TagArrived) and event.reader in self.checks:
                self.checks[event.reader].said.append(f"tag {event.uid} arrived")
                if not self.profile.simulated:
                    self.say(f"  {event.reader}: tag {event.uid}")
            elif isinstance(event, ButtonPressed) and event.button in self.checks:
                self.answered(event.button, "pressed", "pressed")
            elif isinstance(event, EncoderTurned) and event.encoder in self.checks:
                self.answered(event.encoder, "turned", f"turned {event.steps:+d}")
            elif isinstance(event, ReaderFault) and event.reader in self.checks:
                check = self.checks[event.reader]
                check.ok = False
                if f"did not answer: {event.error}" not in check.said:  # the same fault, said once
                    check.said.append(f"stopped answering: {event.error}")
            elif isinstance(event, ReaderRecovered) and event.reader in self.checks:
                self.checks[event.reader].said.append("answered again")

    def answered(self, part: str, said: str, live: str) -> None:
        """A button or encoder that answered: it passes, and a person at a
        real table sees it at once."""
        check = self.checks[part]
        check.ok = True
        check.said.append(said)
        if not self.profile.simulated:
            self.say(f"  {part}: {live}")

    def report(self) -> int:
        failed, silent = [], []
        for kind in ("reader", "screen", "button", "encoder", "light"):
            for check in (c for c in self.checks.values() if c.kind == kind):
                mark = {True: "ok ", False: "FAIL", None: "?  "}[check.ok]
                self.say(f"{mark} {kind:7} {check.part:16} {check.where}")
                for line in dict.fromkeys(check.said):
                    self.say(f"       {line}")
                if check.ok is False:
                    failed.append(check.part)
                elif check.ok is None:
                    silent.append(check.part)
        if failed:
            self.say(f"did not answer: {', '.join(failed)}")
        if silent:
            self.say(f"not pressed (so not checked): {', '.join(silent)}")
        if not failed and not silent:
            self.say(f"all {len(self.checks)} parts answered")
        return 1 if failed else 0


def read_test(profile: Profile, out: TextIO, pad: str, tags: int, seconds: float) -> int:
    """`doctor --read-test PAD --tags N`: poll one reader and report how well it reads N tags.

    On a simulated table the doctor lays N made-up tags on the pad itself and
    runs on a virtual clock. Exit status 0 when no figure needs attention.
    """
    specs = {r.name: r for r in profile.readers()}
    if pad not in specs:
        raise UsageError(f"--read-test {pad}: table {profile.name} has no reader of that name; "
                         f"its readers are {', '.join(specs) or 'none'}")
    spec = specs[pad]
    with warnings.catch_warnings(), _drivers_unlogged():
        warnings.simplefilter("ignore")
        try:
            if spec.backend == "hub":
                from drivers.hub import open_reader as open_hub_reader

                reader = open_hub_reader(spec, profile)
            else:
                reader = parts.open_reader(spec)
        except Exception as exc:  # the part's failure is the report
            print(f"read test: {pad} ({_where(spec)}) did not open: {exc}", file=out)
            return 1
        try:
            if profile.simulated:
                clock = [0.0]

                def sleep(seconds: float) -> None:
                    clock[0] += seconds

                if hasattr(reader, "place"):
                    reader.place(*(made_up_uid("read-test", f"{pad}-{i}") for i in range(tags)))
                result = reads.run(reader, pad, _where(spec), tags, seconds,
                                   clock=lambda: clock[0], sleep=sleep)
            else:
                print(f"polling {pad} for {seconds:g} s: keep the {tags} tag(s) still on it",
                      file=out, flush=True)
                result = reads.run(reader, pad, _where(spec), tags, seconds)
        finally:
            with contextlib.suppress(Exception):  # closing is best effort
                reader.close()
    for line in reads.report(result):
        print(line, file=out)
    return 0 if not reads.advice(result) else 1
