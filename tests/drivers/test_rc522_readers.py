"""Both RC522 backends running their real code against the register-level emulator."""

from __future__ import annotations

import queue
from collections.abc import Callable, Iterator

import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import given, settings
from hypothesis import strategies as st

from drivers.base import ReaderError, TagReader
from drivers.events import TagArrived, TagLeft
from drivers.rc522 import open_mfrc522, open_rc522
from drivers.rc522.driver import DEFAULT_CONFIRM_EVERY, FRESH_CENSUSES, RC522Reader
from drivers.sim.fake_spi import FakeSpiBus, fake_rpi_gpio, fake_spidev
from drivers.sim.rc522_emulator import COLLPOS_READINGS, HALT, IDLE, RC522Chip
from drivers.sim.readers import emulated_rc522
from drivers.watcher import Watcher, WatcherSettings

UID4 = "DEADBEEF"
UID7 = "04A1B2C3D4E5F6"
UID7_B = "04112233445566"


def _no_sleep(_: float) -> None:
    pass


Opener = Callable[[], TagReader]


@pytest.fixture
def chip() -> RC522Chip:
    return RC522Chip()


@pytest.fixture
def bus(chip: RC522Chip) -> Iterator[FakeSpiBus]:
    spi_bus = FakeSpiBus()
    spi_bus.attach(chip, bus=0, device=0)
    with fake_spidev(spi_bus), fake_rpi_gpio():
        yield spi_bus


@pytest.fixture
def own(bus: FakeSpiBus) -> TagReader:
    return open_rc522("seat1.pad", bus=0, device=0, sleep=_no_sleep)


@pytest.fixture
def adapter(bus: FakeSpiBus) -> TagReader:
    return open_mfrc522("seat1.pad", bus=0, device=0)


@pytest.fixture(params=["rc522", "mfrc522"])
def reader(request: pytest.FixtureRequest, bus: FakeSpiBus) -> TagReader:
    if request.param == "rc522":
        return open_rc522("seat1.pad", sleep=_no_sleep)
    return open_mfrc522("seat1.pad")


# -- both backends ---------------------------------------------------------------------------


def test_is_a_tag_reader(reader: TagReader) -> None:
    assert isinstance(reader, TagReader)
    assert reader.name == "seat1.pad"


def test_no_tag(reader: TagReader) -> None:
    assert reader.poll() == frozenset()


def test_four_byte_uid(reader: TagReader, chip: RC522Chip) -> None:
    chip.add_tag(UID4)
    assert reader.poll() == {UID4}


def test_tag_stays_seen_on_every_poll(reader: TagReader, chip: RC522Chip) -> None:
    chip.add_tag(UID4)
    assert [reader.poll() for _ in range(4)] == [{UID4}] * 4


def test_tag_leaving(reader: TagReader, chip: RC522Chip) -> None:
    chip.add_tag(UID4)
    assert reader.poll() == {UID4}
    chip.remove_tag(UID4)
    # The own driver sees a departure at its next census of the halted tags (see below).
    assert [reader.poll() for _ in range(DEFAULT_CONFIRM_EVERY)][-1] == frozenset()
    assert reader.poll() == frozenset()


def test_unplugged_reader_raises_and_recovers(reader: TagReader, chip: RC522Chip) -> None:
    chip.add_tag(UID4)
    chip.connected = False
    with pytest.raises(ReaderError, match=r"seat1\.pad.*no RC522 answers"):
        reader.poll()
    chip.connected = True
    chip.hard_reset()  # it was unplugged: it comes back with its registers at reset values
    assert reader.poll() == {UID4}


# -- the project's driver ----------------------------------------------------------------------


def test_seven_byte_uid(own: TagReader, chip: RC522Chip) -> None:
    chip.add_tag(UID7)
    assert own.poll() == {UID7}


def test_several_tags_in_one_field(own: TagReader, chip: RC522Chip) -> None:
    for uid in (UID4, UID7, UID7_B):
        chip.add_tag(uid)
    assert own.poll() == {UID4, UID7, UID7_B}
    assert own.poll() == {UID4, UID7, UID7_B}
    chip.remove_tag(UID7)
    assert [own.poll() for _ in range(DEFAULT_CONFIRM_EVERY)][-1] == {UID4, UID7_B}


def test_each_tag_read_is_halted_and_later_polls_cost_what_an_empty_one_does(
    own: TagReader, chip: RC522Chip
) -> None:
    tags = [chip.add_tag(uid) for uid in (UID4, UID7, UID7_B)]
    assert own.poll() == {UID4, UID7, UID7_B}
    assert {tag.state for tag in tags} == {HALT}  # so REQA leaves them be
    for _ in range(FRESH_CENSUSES):
        assert own.poll() == {UID4, UID7, UID7_B}  # new tags are looked for again: a census
    before = chip.transfers
    assert own.poll() == {UID4, UID7, UID7_B}  # not a census: one REQA nobody answers
    assert chip.transfers - before < 15


def test_departure_shows_at_the_next_census(own: TagReader, chip: RC522Chip) -> None:
    for uid in (UID4, UID7):
        chip.add_tag(uid)
    assert own.poll() == {UID4, UID7}  # a census (the first poll)
    for _ in range(FRESH_CENSUSES):
        assert own.poll() == {UID4, UID7}  # and more, since both were new
    chip.remove_tag(UID4)
    between = [own.poll() for _ in range(DEFAULT_CONFIRM_EVERY - 1)]
    assert between == [{UID4, UID7}] * (DEFAULT_CONFIRM_EVERY - 1)  # the halted tags are not asked
    assert own.poll() == {UID7}  # the census
    assert own.poll() == {UID7}


def test_arrival_shows_on_the_next_poll_between_censuses(own: TagReader, chip: RC522Chip) -> None:
    chip.add_tag(UID7)
    assert own.poll() == {UID7}
    for uid in (UID4, UID7_B):
        chip.add_tag(uid)
        assert own.poll() >= {uid}  # a new tag is IDLE: it answers REQA at once


def test_a_tag_back_after_leaving_between_censuses_is_seen(own: TagReader, chip: RC522Chip) -> None:
    chip.add_tag(UID4)
    own.poll()
    chip.remove_tag(UID4)
    own.poll()
    chip.add_tag(UID4)  # powered again: IDLE, not halted
    assert all(own.poll() == {UID4} for _ in range(2 * DEFAULT_CONFIRM_EVERY))


def test_a_tag_missing_from_one_census_is_asked_for_on_the_next_poll(
    own: TagReader, chip: RC522Chip
) -> None:
    # A halted tag the field did not reach once (a hand over it, a bad frame) stays
    # halted; the next poll is a census again, so it is gone from one poll only.
    tag = chip.add_tag(UID4)
    chip.add_tag(UID7)
    assert own.poll() == {UID4, UID7}
    for _ in range(FRESH_CENSUSES - 1 + DEFAULT_CONFIRM_EVERY):  # censuses after the new tags, polls between
        own.poll()
    chip.tags.remove(tag)
    assert own.poll() == {UID7}  # the census missed it
    chip.tags.append(tag)
    assert tag.state == HALT
    assert own.poll() == {UID4, UID7}


def test_confirm_every_one_is_a_census_each_poll(bus: FakeSpiBus, chip: RC522Chip) -> None:
    reader = open_rc522("seat1.pad", confirm_every=1, sleep=_no_sleep)
    tag = chip.add_tag(UID4)
    assert reader.poll() == {UID4}
    assert tag.state == IDLE  # nothing is halted: each poll's WUPA walk lists every tag
    chip.remove_tag(UID4)
    assert reader.poll() == frozenset()
    with pytest.raises(ValueError, match="confirm_every"):
        RC522Reader("seat2.pad", chip, confirm_every=0)


def test_tags_differing_late_in_the_uid(own: TagReader, chip: RC522Chip) -> None:
    # Collisions in the second cascade level and in the last bits.
    uids = {"04A1B2C3D4E5F6", "04A1B2C3D4E5F7", "04A1B2C3D4E5F4", "04A1B2C300E5F6"}
    for uid in uids:
        chip.add_tag(uid)
    assert own.poll() == uids


def test_no_tag_is_left_ready_after_a_poll(own: TagReader, chip: RC522Chip) -> None:
    tags = [chip.add_tag(uid) for uid in (UID4, UID7, UID7_B)]
    own.poll()
    assert {tag.state for tag in tags} <= {IDLE, HALT}  # so the next poll's WUPA wakes them all


def test_tag_arriving_while_others_stay(own: TagReader, chip: RC522Chip) -> None:
    chip.add_tag(UID7)
    assert own.poll() == {UID7}
    chip.add_tag(UID4)
    assert own.poll() == {UID7, UID4}


def test_max_tags_caps_a_poll(bus: FakeSpiBus, chip: RC522Chip) -> None:
    reader = open_rc522("zone", max_tags=2, sleep=_no_sleep)
    for uid in ("01020304", "05060708", "090A0B0C"):
        chip.add_tag(uid)
    assert len(reader.poll()) == 2


def test_empty_poll_is_a_handful_of_transfers(own: TagReader, chip: RC522Chip) -> None:
    own.poll()  # the first poll also sets the chip up
    before = chip.transfers
    own.poll()
    assert chip.transfers - before < 15


def test_antenna_gain_and_bad_gain(bus: FakeSpiBus, chip: RC522Chip) -> None:
    reader = open_rc522("seat1.pad", antenna_gain_db=48, sleep=_no_sleep)
    reader.poll()
    assert (chip.read_register(0x26) >> 4) & 0x07 == 0x07
    reader.set_antenna_gain(18)
    assert (chip.read_register(0x26) >> 4) & 0x07 == 0x02
    with pytest.raises(ValueError, match="antenna gain 20 dB is not one of 18, 23, 33"):
        reader.set_antenna_gain(20)


def test_reset_pin_pulses_and_sets_up_again(chip: RC522Chip) -> None:
    factory = MockFactory()
    spi_bus = FakeSpiBus()
    spi_bus.attach(chip)
    with fake_spidev(spi_bus):
        reader = open_rc522("seat1.pad", reset_pin=25, pin_factory=factory, sleep=_no_sleep)
        chip.add_tag(UID4)
        assert reader.poll() == {UID4}
        factory.pin(25).clear_states()
        reader.reset()
        assert [s for _, s in factory.pin(25).states] == [True, False, True]  # high, pulse low, high
        assert factory.pin(25).state
        assert reader.poll() == {UID4}


def test_gpio_chip_select_shares_the_bus(chip: RC522Chip) -> None:
    factory = MockFactory()
    other = RC522Chip()
    other.add_tag(UID7)
    chip.add_tag(UID4)
    spi_bus = FakeSpiBus()
    spi_bus.attach(chip, bus=0, device=0)
    spi_bus.attach_gpio_cs(other, selected=lambda: not factory.pin(5).state, bus=0)
    with fake_spidev(spi_bus):
        on_ce0 = open_rc522("seat1.pad", bus=0, device=0, sleep=_no_sleep)
        on_gpio = open_rc522("seat3.pad", bus=0, device=0, cs_pin=5, pin_factory=factory, sleep=_no_sleep)
        assert on_ce0.poll() == {UID4}
        assert on_gpio.poll() == {UID7}
        assert factory.pin(5).state  # deselected between transfers


def test_missing_spi_device_is_a_clear_error(bus: FakeSpiBus) -> None:
    with pytest.raises(ReaderError, match=r"cannot open /dev/spidev1\.0.*dtparam=spi=on"):
        open_rc522("seat2.pad", bus=1, device=0)


def test_without_spidev_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "spidev", None)
    with pytest.raises(ReaderError, match=r"needs spidev.*tablekeeper\[pi\]"):
        open_rc522("seat1.pad")


# -- the mfrc522 adapter's documented limits ---------------------------------------------------


def test_adapter_reads_a_seven_byte_uid_wrongly(adapter: TagReader, chip: RC522Chip) -> None:
    chip.add_tag(UID7)
    assert adapter.poll() == {"8804A1B2"}  # cascade tag + first three bytes, not 04A1B2C3D4E5F6


def test_adapter_cannot_list_several_tags(adapter: TagReader, chip: RC522Chip) -> None:
    chip.add_tag(UID4)
    chip.add_tag("DEADBEE0")
    assert adapter.poll() == frozenset()


def test_adapter_empty_poll_spins_two_thousand_transfers(adapter: TagReader, chip: RC522Chip) -> None:
    before = chip.transfers
    adapter.poll()
    assert chip.transfers - before > 2000


def test_adapter_without_a_pi(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "mfrc522", None)
    with pytest.raises(ReaderError, match="needs the mfrc522 package"):
        open_mfrc522("seat1.pad")


_uid4 = st.binary(min_size=4, max_size=4).filter(lambda b: b[0] != 0x88)
_uid7 = st.binary(min_size=6, max_size=6).map(lambda b: b"\x04" + b)


@settings(max_examples=60, deadline=None)
@given(st.sets(st.one_of(_uid4, _uid7), min_size=1, max_size=6), st.sampled_from(COLLPOS_READINGS))
def test_any_mix_of_tags_is_listed(uids: set[bytes], reading: str) -> None:
    chip = RC522Chip(collpos=reading)
    spi_bus = FakeSpiBus()
    spi_bus.attach(chip)
    expected = {uid.hex().upper() for uid in uids}
    for uid in expected:
        chip.add_tag(uid)
    with fake_spidev(spi_bus):
        reader = open_rc522("zone", max_tags=8, sleep=_no_sleep)
        assert reader.poll() == expected
        assert reader.poll() == expected


# -- SPI modes belong to the device, as in Linux's spidev ------------------------------------


def test_fake_spidev_keeps_the_mode_per_device() -> None:
    spi_bus = FakeSpiBus()
    spi_bus.attach(RC522Chip(), bus=0, device=0)
    spi_bus.attach(RC522Chip(), bus=0, device=1)
    with fake_spidev(spi_bus) as spidev:
        first, second, other = spidev.SpiDev(), spidev.SpiDev(), spidev.SpiDev()
        first.open(0, 0)
        second.open(0, 0)
        other.open(0, 1)
        second.no_cs = True
        assert first.no_cs  # one device, one mode, whichever file set it
        assert not other.no_cs
        first.mode = 0  # the clock mode bits only: SPI_NO_CS stays, as py-spidev keeps it
        assert second.no_cs


def test_all_four_seats_on_the_pi() -> None:
    # hardware/wiring.md: seat1 on CE0, seat2 on CE1, seat3 and seat4 on GPIO16 and GPIO25
    # chip selects, opened on spidev0.0 with no_cs; RST tied to 3.3 V.
    factory = MockFactory()
    chips = [RC522Chip() for _ in range(4)]
    uids = ["11111111", "22222222", "04333333333333", "44444444"]
    for chip, uid in zip(chips, uids, strict=True):
        chip.add_tag(uid)
    spi_bus = FakeSpiBus()
    spi_bus.attach(chips[0], bus=0, device=0)
    spi_bus.attach(chips[1], bus=0, device=1)
    spi_bus.attach_gpio_cs(chips[2], selected=lambda: not factory.pin(16).state, bus=0)
    spi_bus.attach_gpio_cs(chips[3], selected=lambda: not factory.pin(25).state, bus=0)
    with fake_spidev(spi_bus):
        seats = [
            open_rc522("seat1.pad", bus=0, device=0, sleep=_no_sleep),
            open_rc522("seat2.pad", bus=0, device=1, sleep=_no_sleep),
            open_rc522("seat3.pad", bus=0, device=0, cs_pin=16, pin_factory=factory, sleep=_no_sleep),
            open_rc522("seat4.pad", bus=0, device=0, cs_pin=25, pin_factory=factory, sleep=_no_sleep),
        ]
        for _ in range(3):
            for seat, uid in zip(seats, uids, strict=True):
                assert seat.poll() == {uid}, seat.name
        for seat in seats:
            seat.close()


# -- what the watcher (and so a player) sees of the census ------------------------------------


def _watch(chip_tags: list[str]) -> tuple[Watcher, RC522Chip]:
    reader, chip = emulated_rc522("seat1.pad")
    for uid in chip_tags:
        chip.add_tag(uid)
    return Watcher([reader], queue.Queue(), WatcherSettings()), chip  # 20 Hz, leave_hold 0.25 s


@pytest.mark.parametrize("phase", range(DEFAULT_CONFIRM_EVERY))
def test_a_lifted_tag_leaves_at_most_three_polls_later_than_a_census_each_poll_would(phase: int) -> None:
    watcher, chip = _watch([UID4, UID7])
    tick = 0
    for tick in range(20 + phase):
        watcher.step(tick * 0.05)
    chip.remove_tag(UID4)
    lifted = tick + 1  # the first poll after the tag left
    left = [
        (t, e) for t in range(lifted, lifted + 20) for e in watcher.step(t * 0.05) if isinstance(e, TagLeft)
    ]
    assert len(left) == 1 and left[0][1].uid == UID4
    seen_gone = round(left[0][1].at / 0.05)
    assert lifted <= seen_gone <= lifted + DEFAULT_CONFIRM_EVERY - 1  # at the next census
    assert left[0][0] - seen_gone == 5  # then leave_hold (0.25 s) as before


def test_a_tag_one_census_missed_does_not_leave() -> None:
    watcher, chip = _watch([UID4, UID7])
    for tick in range(20):
        watcher.step(tick * 0.05)
    tag = next(t for t in chip.tags if t.hex == UID4)
    chip.tags.remove(tag)  # a hand over it for the next census: it stays halted
    events = []
    for tick in range(20, 20 + DEFAULT_CONFIRM_EVERY):
        events += watcher.step(tick * 0.05)
    chip.tags.append(tag)
    for tick in range(20 + DEFAULT_CONFIRM_EVERY, 60):
        events += watcher.step(tick * 0.05)
    assert events == []
    assert watcher.present("seat1.pad") == {UID4, UID7}


def test_a_tag_brushed_past_the_pad_is_listed_in_one_poll_only(own: TagReader, chip: RC522Chip) -> None:
    chip.add_tag(UID7)
    for _ in range(DEFAULT_CONFIRM_EVERY + 1):
        own.poll()  # settled: the next poll is not a census
    chip.add_tag(UID4)
    assert own.poll() == {UID7, UID4}
    chip.remove_tag(UID4)  # slid on across the pad
    assert own.poll() == {UID7}  # a new tag is looked for again at once


def test_a_new_tag_is_read_afresh_until_the_watchers_hold_is_up(own: TagReader, chip: RC522Chip) -> None:
    """A tag laid and lifted again within the hold: the polls that span the
    hold read the field instead of listing the tag it halted, so it is gone
    from them and makes no event."""
    for _ in range(DEFAULT_CONFIRM_EVERY + 1):
        own.poll()  # settled, empty
    chip.add_tag(UID7)
    assert own.poll() == {UID7}  # read and halted
    for _ in range(FRESH_CENSUSES - 1):
        assert own.poll() == {UID7}  # a census: still there
    chip.remove_tag(UID7)
    assert own.poll() == frozenset()  # the last of them: read afresh, gone
    watcher, chip = _watch([])
    settings = watcher.settings
    t = 0.0
    for _ in range(10):
        watcher.step(t)
        t += settings.interval
    chip.add_tag(UID4)
    events = watcher.step(t)
    t += settings.interval
    events += watcher.step(t)  # read again within the hold
    chip.remove_tag(UID4)
    for _ in range(40):
        t += watcher.next_due(t) or settings.interval
        events += watcher.step(t)
    assert events == []


def _rounds_until(watcher: Watcher, t: float, end: float) -> tuple[float, list[object]]:
    """The watcher's rounds in virtual time, as its thread schedules them, from ``t`` to ``end``."""
    events: list[object] = []
    while t < end - 1e-9:
        t = round(t + (watcher.next_due(t) or watcher.settings.interval), 6)
        events += watcher.step(t)
        if any(isinstance(e, TagArrived) for e in events):
            break
    return t, events


@pytest.mark.parametrize("phase", [0.01, 0.25, 0.5, 0.75, 0.99])
def test_at_the_default_rounds_a_tag_laid_is_an_event_within_a_round_and_the_hold(phase: float) -> None:
    """A tag laid at any moment between two rounds is read at the next and
    confirmed when the hold is up (polls taking no time here: the benchmark
    adds theirs on the timed emulator)."""
    watcher, chip = _watch([])
    s = watcher.settings
    t = 0.0
    for _ in range(10):
        watcher.step(t)
        t = round(t + s.interval, 6)
    land = t - s.interval * (1 - phase)
    chip.add_tag(UID7)
    watcher.step(t)  # the next round reads it
    t, events = _rounds_until(watcher, t, land + 1.0)
    assert [type(e) for e in events] == [TagArrived]
    assert t - land <= s.interval + s.arrive_hold + 1e-9


def test_at_the_default_rounds_a_tag_lifted_before_the_second_census_makes_no_event() -> None:
    """The driver's fresh censuses span the rounds up to the hold: a tag
    lifted before the second of them (two rounds after its first read) is
    read gone there, and never arrives."""
    watcher, chip = _watch([])
    s = watcher.settings
    t = 0.0
    for _ in range(DEFAULT_CONFIRM_EVERY + 2):
        watcher.step(t)
        t = round(t + s.interval, 6)
    chip.add_tag(UID7)
    first = t
    events = watcher.step(t)
    while True:
        t = round(t + (watcher.next_due(t) or s.interval), 6)
        if t >= first + FRESH_CENSUSES * s.interval - 1e-9:
            break
        events += watcher.step(t)
    chip.remove_tag(UID7)  # lifted just before the second census
    _, later = _rounds_until(watcher, t - 1e-6, t + 1.0)
    assert events + later == []
    assert FRESH_CENSUSES * s.interval <= s.arrive_hold  # the censuses come before the hold is up


def test_a_tag_brushed_past_makes_no_event() -> None:
    watcher, chip = _watch([UID7])
    for tick in range(21):
        watcher.step(tick * 0.05)
    chip.add_tag(UID4)
    events = watcher.step(21 * 0.05)
    chip.remove_tag(UID4)
    for tick in range(22, 60):
        events += watcher.step(tick * 0.05)
    assert events == []
