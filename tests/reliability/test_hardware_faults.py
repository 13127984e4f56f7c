"""Hardware faults at the level of the whole table: the real session loop, the
real drivers on their simulated backends (RC522 driver on emulated chips, the
reader hub's real firmware over a pty, luma on a fake I2C bus, gpiozero on mock
pins), and The King is Dead played through them. Each test checks the game:
no move lost or made twice (the journal replays to the state), a clear message
on the right screen while the fault lasts, and the game going on."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import drivers.screens
from drivers.events import ButtonHeld
from drivers.hub import factory as hub_factory
from drivers.sim.fake_spi import fake_rpi_gpio, fake_spidev
from drivers.sim.i2c import FakeI2cBus
from drivers.sim.rc522_emulator import RC522Chip
from pi_app.session import presentation
from pi_app.simulated.autoplay import choose
from pi_app.ui.screens import render
from tests.drivers.test_hub_pty import Relay
from tests.pi_app.conftest import Rig
from tests.reliability.tables import (
    ChipRig,
    FlakyBus,
    HubRig,
    MuteChip,
    SimRig,
    journal_agrees,
    point,
    shared_text,
    shown,
    variant,
)

GAME = "king-is-dead"
UNKNOWN = "04AABBCCDDEEFF"


def history(rig: Rig) -> int:
    return len(rig.session.scene.state.history)


def finish_with_buttons(rig: Rig, seat: int, rng: random.Random) -> None:
    """The seat to move finishes its turn with its buttons only (its pad may be dead)."""
    s = rig.session
    while s.scene.state.to_move() == seat and s.scene.state.outcome() is None:
        rig.make(seat, choose(s, rng), taps=False)


# -- an RC522 pad that stops answering -------------------------------------------------------


def _unplug(chips: dict[int, RC522Chip], bus: FlakyBus) -> tuple[Callable[[], None], Callable[[], None]]:
    chip = chips[0]

    def down() -> None:
        chip.connected = False

    def up() -> None:
        chip.connected = True
        chip.hard_reset()  # power came back: every register at its reset value

    return down, up


def _spi_error(chips: dict[int, RC522Chip], bus: FlakyBus) -> tuple[Callable[[], None], Callable[[], None]]:
    return (lambda: bus.broken.add((0, 0))), (lambda: bus.broken.discard((0, 0)))


def _timeout(chips: dict[int, RC522Chip], bus: FlakyBus) -> tuple[Callable[[], None], Callable[[], None]]:
    chip = chips[0]
    assert isinstance(chip, MuteChip)

    def mute(on: bool) -> Callable[[], None]:
        def set_mute() -> None:
            chip.mute = on
        return set_mute

    return mute(True), mute(False)


FAULTS = {"unplugged": _unplug, "spi-error": _spi_error, "timeout": _timeout}


@pytest.fixture
def spi_table(tmp_path: Path) -> Iterator[tuple[ChipRig, FlakyBus]]:
    """Seats 1 and 2 read on RC522s at /dev/spidev0.0 and 0.1 (emulated chips)."""
    chips: dict[int, RC522Chip] = {0: MuteChip(), 1: RC522Chip()}
    bus = FlakyBus()
    for seat, chip in chips.items():
        bus.attach(chip, bus=0, device=seat)
    path = variant(tmp_path, "spi", pads={0: '{ backend = "rc522", bus = 0, device = 0 }',
                                          1: '{ backend = "rc522", bus = 0, device = 1 }'})
    with fake_spidev(bus), fake_rpi_gpio(), ChipRig(tmp_path, 2, str(path), chips) as rig:
        yield rig, bus


@pytest.mark.parametrize("fault", list(FAULTS))
def test_rc522_pad_down_and_back(spi_table: tuple[ChipRig, FlakyBus], fault: str) -> None:
    rig, bus = spi_table
    down, up = FAULTS[fault](rig.chips, bus)
    s = rig.open(GAME)
    rng = random.Random(1)
    start = history(rig)
    rig.tap(0, "garrison@1")  # read by the RC522 driver: the play starts
    assert history(rig) == start + 1 and "Garrison" in s.layouts()["seat1.screen"].title

    down()
    rig.advance(0.2)
    assert "seat1.pad not answering" in shared_text(rig) and shown(rig, "shared.screen")
    assert "seat2.pad" not in shared_text(rig)
    # The game goes on: seat 1 finishes with its buttons, seat 2 plays on its own pad.
    finish_with_buttons(rig, 0, rng)
    while s.scene.state.to_move() == 1:
        rig.make(1, choose(s, rng))
    assert s.scene.state.to_move() == 0 and "seat1.pad not answering" in shared_text(rig)
    # A card put on the dead pad is not read; it stays there.
    before = history(rig)
    rig.put(0, rig.uids["crown@1"])
    rig.advance(1.0)
    assert history(rig) == before

    up()
    rig.advance(6.0)  # the watcher's retries back off to at most 5 s
    assert "not answering" not in shared_text(rig) and shown(rig, "shared.screen")
    # The card that waited on the pad is read once: one move, not one per poll.
    assert history(rig) == before + 1
    assert s.scene.state.history[-1].to_json() == {"type": "play", "card": "crown"}
    rig.advance(1.0)
    rig.lift(0, rig.uids["crown@1"])
    rig.advance(1.0)
    assert history(rig) == before + 1
    finish_with_buttons(rig, 0, rng)
    # And a tap after the fault is read as any other.
    while s.scene.state.to_move() == 1:
        rig.make(1, choose(s, rng))
    moves = history(rig)
    rig.tap(0, "settlement@1")
    assert history(rig) == moves + 1
    assert journal_agrees(rig)


def test_rc522_pad_dies_under_a_resting_card(spi_table: tuple[ChipRig, FlakyBus]) -> None:
    """A card left on the pad through the fault is not a second tap when the reader is back."""
    rig, bus = spi_table
    s = rig.open(GAME)
    rig.put(0, rig.uids["garrison@1"])
    rig.advance(0.3)
    played = history(rig)
    bus.broken.add((0, 0))
    rig.advance(2.0)
    assert "seat1.pad not answering" in shared_text(rig)
    bus.broken.discard((0, 0))
    rig.advance(6.0)
    assert "not answering" not in shared_text(rig)
    assert history(rig) == played and not s.layouts()["seat1.screen"].alert
    assert journal_agrees(rig)


# -- the hub's serial port unplugged and replugged -----------------------------------------------


@pytest.fixture
def hub_table(tmp_path: Path) -> Iterator[tuple[HubRig, Path]]:
    """Seats 1 and 2 read on the reader hub (real firmware), found at a by-id style link."""
    relay = Relay(readers=2)
    link = tmp_path / "usb-MicroPython_Board_in_FS_mode-if00"
    assert relay.path is not None
    point(link, relay.path)
    hub = f'[[hubs]]\nname = "hub"\nport = "{link}"\nhold_ms = 0\n\n'
    path = variant(tmp_path, "hub", extra=hub,
                   pads={0: '{ backend = "hub", hub = "hub", index = 0 }',
                         1: '{ backend = "hub", hub = "hub", index = 1 }'})
    try:
        with HubRig(tmp_path, 2, str(path), relay) as rig:
            yield rig, link
    finally:
        hub_factory.close_all()
        err = relay.close()
        assert "Traceback" not in err, err


def test_hub_unplugged_and_replugged(hub_table: tuple[HubRig, Path]) -> None:
    rig, link = hub_table
    relay = rig.relay
    s = rig.open(GAME)
    rng = random.Random(2)
    start = history(rig)
    rig.tap(0, "garrison@1")
    assert history(rig) == start + 1

    relay.unplug()
    rig.until(lambda: "seat1.pad not answering" in shared_text(rig)
              and "seat2.pad not answering" in shared_text(rig), "both hub pads reported")
    assert shown(rig, "shared.screen")
    finish_with_buttons(rig, 0, rng)  # the game goes on with the buttons
    assert s.scene.state.to_move() == 1
    # Seat 2 puts its card down while the hub is away, and leaves it there.
    before = history(rig)
    rig.put(1, rig.uids["scots@2"])
    rig.advance(1.0)
    assert history(rig) == before

    relay.plug()
    assert relay.path is not None
    point(link, relay.path)  # the same by-id name, a new tty behind it
    rig.until(lambda: "not answering" not in shared_text(rig), "the hub pads back")
    rig.until(lambda: history(rig) > before, "the waiting card read")
    assert shown(rig, "shared.screen")
    rig.advance(1.0)
    rig.lift(1, rig.uids["scots@2"])
    rig.advance(1.0)
    assert history(rig) == before + 1
    assert s.scene.state.history[-1].to_json() == {"type": "play", "card": "scots"}
    assert journal_agrees(rig)


# -- screens that raise I/O errors ---------------------------------------------------------------

LUMA = '{{ backend = "luma", driver = "sh1106", port = 1, address = 0x3C, mux_channel = {} }}'
CHANNELS = {"seat1.screen": 0, "seat2.screen": 1, "shared.screen": 4}


class LumaTable:
    """Seat 1, seat 2 and the shared screen are SH1106s (luma) behind a TCA9548A on a
    fake I2C bus; a screen unplugged answers nothing (EREMOTEIO, as the kernel says)."""

    def __init__(self, rig: Rig, bus: FakeI2cBus) -> None:
        self.rig = rig
        self.bus = bus
        self.sent: dict[str, list[bytes]] = {}

    def record(self) -> None:
        """Keep every frame each luma device took."""
        assert self.rig.table is not None
        for part in CHANNELS:
            device = self.rig.table.screens[part].device
            sent = self.sent.setdefault(part, [])

            def display(image, device_display=device.display, sent=sent) -> None:
                device_display(image)
                sent.append(image.convert("1").tobytes())

            device.display = display

    def unplug(self, part: str) -> None:
        self.bus.devices.discard((CHANNELS[part], 0x3C))

    def plug(self, part: str) -> None:
        self.bus.devices.add((CHANNELS[part], 0x3C))

    def current(self, part: str) -> bool:
        """The screen's last frame is the drawing of what it should show now."""
        want = render(self.rig.session.layouts()[part]).convert("1").tobytes()
        return bool(self.sent[part]) and self.sent[part][-1] == want


@pytest.fixture
def luma_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LumaTable]:
    bus = FakeI2cBus({(channel, 0x3C) for channel in CHANNELS.values()})
    real = drivers.screens.I2cBuses
    monkeypatch.setattr(drivers.screens, "I2cBuses", lambda: real(opener=lambda port: bus))
    monkeypatch.setattr(presentation, "SCREEN_RETRY_SECONDS", 0.0)  # each turn of the loop tries
    path = variant(tmp_path, "luma", screens={0: LUMA.format(0), 1: LUMA.format(1)},
                   shared_screen=LUMA.format(4))
    with Rig(tmp_path, 2, str(path)) as rig:
        yield LumaTable(rig, bus)


def play_turn(rig: Rig, rng: random.Random) -> None:
    s = rig.session
    seat = s.scene.state.to_move()
    while s.scene.state.to_move() == seat and s.scene.state.outcome() is None:
        rig.make(seat, choose(s, rng))


def test_seat_screen_io_errors(luma_table: LumaTable) -> None:
    table, rig = luma_table, luma_table.rig
    s = rig.open(GAME)
    table.record()
    rng = random.Random(3)
    table.unplug("seat2.screen")
    play_turn(rig, rng)  # seat 2's screen changes (its turn now) and does not answer
    assert s.scene.state.to_move() == 1
    assert "seat2.screen not answering" in shared_text(rig) and table.current("shared.screen")
    # The game goes on: seat 2 plays blind (taps and buttons), seat 1 sees its screen.
    before = history(rig)
    play_turn(rig, rng)
    assert history(rig) > before and table.current("seat1.screen")
    assert "seat2.screen not answering" in shared_text(rig)
    # Back: the next turn of the loop, with no input, sends it the frame of now.
    table.plug("seat2.screen")
    s.tick()
    assert table.current("seat2.screen")
    assert "not answering" not in shared_text(rig) and table.current("shared.screen")
    assert journal_agrees(rig)


def test_shared_screen_io_errors(luma_table: LumaTable, caplog: pytest.LogCaptureFixture) -> None:
    table, rig = luma_table, luma_table.rig
    s = rig.open(GAME)
    table.record()
    rng = random.Random(4)
    table.unplug("shared.screen")
    with caplog.at_level("WARNING"):
        play_turn(rig, rng)
    # Nowhere on the table to say it: the daemon's log (journalctl) says it, once.
    said = [r.getMessage() for r in caplog.records if "shared.screen" in r.getMessage()]
    assert len(said) == 1 and "did not take a frame" in said[0], said
    before = history(rig)
    play_turn(rig, rng)
    assert history(rig) > before and table.current("seat1.screen") and table.current("seat2.screen")
    table.plug("shared.screen")
    s.tick()
    assert table.current("shared.screen") and "not answering" not in shared_text(rig)
    assert journal_agrees(rig)


# -- buttons stuck down and bouncing -------------------------------------------------------------


def pin(rig: Rig, button: str) -> Any:  # a gpiozero MockPin
    assert rig.table is not None
    return rig.table.pin_factory.pin(rig.table.buttons[button].pin)


def push(rig: Rig, button: str) -> None:
    """Push a button down (and leave it down), a moment after anything before."""
    assert rig.table is not None
    rig.table.clock += 0.5
    pin(rig, button).drive_low()
    rig.session.pump()


def wait_held(rig: Rig, button: str) -> None:
    """Until gpiozero's hold thread reports the hold (hold_time 1 s); then the loop takes it."""
    assert rig.table is not None
    events = rig.table.queue
    deadline = time.monotonic() + 20
    while not any(isinstance(e, ButtonHeld) and e.button == button for e in list(events.queue)):
        assert time.monotonic() < deadline, f"{button} was never reported held"
        time.sleep(0.01)
    rig.session.pump()


@pytest.fixture
def sim_rig(tmp_path: Path) -> Iterator[Rig]:
    with Rig(tmp_path, 2) as rig:
        yield rig


def test_stuck_button_is_one_press(sim_rig: Rig) -> None:
    rig = sim_rig
    s = rig.open(GAME)
    rng = random.Random(5)
    assert rig.table is not None
    # Seat 2's ● sticks down while seat 1 is to move: one refusal, not a stream.
    flashes = rig.table.lights["seat2.light"].flashes
    push(rig, "seat2.ok")
    assert "Turn: Player 1" in s.layouts()["seat2.screen"].text()
    wait_held(rig, "seat2.ok")
    assert rig.table.lights["seat2.light"].flashes == flashes + 1
    # Seat 1 plays on and holds ● down on the choice that makes its move: one move, however long.
    rig.tap(0, "garrison@1")
    rig.press("seat1.ok")  # a region: its followers
    assert s.scene.seats[0].cursor is not None and s.scene.seats[0].cursor.field() == "colour"
    moves = history(rig)
    push(rig, "seat1.ok")  # a follower: the move (undo takes it back: no confirm)
    assert history(rig) == moves + 1
    state = s.scene.state.to_json()
    wait_held(rig, "seat1.ok")
    assert s.scene.state.to_json() == state
    pin(rig, "seat1.ok").drive_high()
    # Seat 2's button comes unstuck; seat 2 plays its turn.
    pin(rig, "seat2.ok").drive_high()
    s.pump()
    play_turn(rig, rng)  # seat 1 finishes its turn
    play_turn(rig, rng)  # seat 2 plays
    assert s.scene.state.to_move() == 0 and journal_agrees(rig)


def test_bouncing_button_is_one_press(sim_rig: Rig) -> None:
    rig = sim_rig
    s = rig.open(GAME)
    assert rig.table is not None
    rig.tap(0, "garrison@1")  # a menu of the eight regions
    before = s.layouts()["seat1.screen"]
    assert s.scene.seats[0].cursor is not None and s.scene.seats[0].cursor.position() == (1, 8)
    # One push of ▶ whose contact bounces: eight edges within a millisecond.
    rig.table.clock += 0.5
    right = pin(rig, "seat1.right")
    for _ in range(4):
        right.drive_low()
        right.drive_high()
    s.pump()
    assert s.scene.seats[0].cursor is not None and s.scene.seats[0].cursor.position()[0] == 2, \
        s.layouts()["seat1.screen"]
    assert s.layouts()["seat1.screen"] != before
    # The next push, a moment later, is a press of its own.
    rig.press("seat1.right")
    assert s.scene.seats[0].cursor.position()[0] == 3


# -- tags that flicker, and the same tag twice ---------------------------------------------------


@pytest.fixture
def pads(tmp_path: Path) -> Iterator[SimRig]:
    with SimRig(tmp_path, 2) as rig:
        yield rig


def flicker(rig: SimRig, seat: int, uid: str, on: float, off: float, times: int) -> None:
    """``uid`` in the field for ``on`` seconds, out for ``off``, ``times`` over."""
    for _ in range(times):
        rig.put(seat, uid)
        rig.advance(on)
        rig.lift(seat, uid)
        rig.advance(off)


def test_tag_flickering_faster_than_the_debounce(pads: SimRig) -> None:
    """One poll in, one poll out: a card at the edge of the field is never read,
    and a card resting on the pad that drops out now and then is not read again."""
    rig = pads
    s = rig.open(GAME)
    start = history(rig)
    flicker(rig, 0, rig.uids["garrison@1"], on=0.05, off=0.05, times=20)
    assert history(rig) == start and not s.layouts()["seat1.screen"].alert
    rig.put(0, rig.uids["garrison@1"])
    rig.advance(0.2)
    assert history(rig) == start + 1  # read once it stayed
    for _ in range(20):  # it drops out of the field for a poll, again and again
        rig.lift(0, rig.uids["garrison@1"])
        rig.advance(0.05)
        rig.put(0, rig.uids["garrison@1"])
        rig.advance(0.1)
    assert history(rig) == start + 1 and not s.layouts()["seat1.screen"].alert
    assert journal_agrees(rig)


def test_tag_flickering_slower_than_the_debounce(pads: SimRig) -> None:
    """In for 0.3 s, out for 0.4 s: each time is a tap. The first plays the card;
    the table refuses each later one on the seat's screen (the card is in play
    already), and the game has the move once."""
    rig = pads
    s = rig.open(GAME)
    start = history(rig)
    flicker(rig, 0, rig.uids["garrison@1"], on=0.3, off=0.4, times=4)
    assert history(rig) == start + 1
    assert s.scene.state.history[-1].to_json() == {"type": "play", "card": "garrison"}
    refusals = [r for r in s.scene.transcript if r.kind == "refused" and r.seat == 0]
    assert len(refusals) == 3 and all("Not now" in r.text for r in refusals), refusals
    assert s.layouts()["seat1.screen"].alert
    assert journal_agrees(rig)


def test_same_tag_tapped_twice(pads: SimRig) -> None:
    """Lifted and put back: a new tap. While the card's play is open the second
    tap is refused with the reason; once the turn passed, it is not this seat's
    turn. Never the same move twice."""
    rig = pads
    s = rig.open(GAME)
    rng = random.Random(6)
    start = history(rig)
    rig.tap(0, "garrison@1")
    rig.tap(0, "garrison@1")
    assert history(rig) == start + 1
    text = s.layouts()["seat1.screen"].text()
    assert "REFUSED" in text and "Not now" in text and "Rule:" in text
    rig.press("seat1.ok")  # read, dismissed
    finish_with_buttons(rig, 0, rng)
    moves = history(rig)
    rig.tap(0, "garrison@1")
    assert history(rig) == moves and "Turn: Player 2" in s.layouts()["seat1.screen"].text()
    # Seat 2 taps a card twice; then seat 1, later, taps its used Garrison again.
    rig.tap(1, "scots@2")
    rig.tap(1, "scots@2")
    assert history(rig) == moves + 1 and s.layouts()["seat2.screen"].alert
    rig.press("seat2.ok")
    finish_with_buttons(rig, 1, rng)
    while s.scene.state.to_move() != 0 or s.scene.state.view(None)["step"] != "turn":
        play_turn(rig, rng)
    moves = history(rig)
    rig.tap(0, "garrison@1")
    assert history(rig) == moves and "Rule:" in s.layouts()["seat1.screen"].text()
    assert journal_agrees(rig)
