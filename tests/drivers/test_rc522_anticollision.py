"""The driver reads every tag under either reading of CollReg's CollPos, and clone chips.

The emulator follows NXP's reading by default (CollPos counted from bit 0 of
the FIFO's first byte, RxAlign included); ``collpos=COLLPOS_RECEIVED`` gives
the other. Every multi-tag check runs under both.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Iterator

import pytest

from drivers.base import ReaderError
from drivers.rc522 import chip as r
from drivers.rc522 import open_rc522
from drivers.rc522.collpos import locate_collision
from drivers.rc522.driver import DEFAULT_CONFIRM_EVERY, RC522Reader
from drivers.sim.fake_spi import FakeSpiBus, fake_spidev
from drivers.sim.rc522_emulator import COLLPOS_FIFO, COLLPOS_READINGS, COLLPOS_RECEIVED, RC522Chip

POLLS = 100


def _no_sleep(_: float) -> None:
    pass


def mixed_uids(rng: random.Random, count: int) -> list[str]:
    """4- and 7-byte UIDs, many sharing leading bytes, so collisions fall at every depth."""
    stems4 = [rng.randrange(0x01, 0x88) for _ in range(2)]
    stems7 = [[0x04, rng.randrange(256), rng.randrange(256)] for _ in range(2)]
    uids: list[str] = []
    while len(uids) < count:
        if rng.random() < 0.5:
            head = [rng.choice(stems4)]
            tail = [rng.randrange(256) for _ in range(3)]
            if rng.random() < 0.5:
                tail[:2] = [0xA5, 0x5A]  # shares all but the last byte with others
        else:
            head = list(rng.choice(stems7))
            tail = [rng.randrange(256) for _ in range(4)]
            if rng.random() < 0.5:
                tail[:3] = [0xC3, 0xD4, 0xE5]
        uid = "".join(f"{b:02X}" for b in head + tail)
        if uid not in uids:
            uids.append(uid)
    return uids


@pytest.fixture(params=COLLPOS_READINGS)
def reading(request: pytest.FixtureRequest) -> str:
    return request.param


def _open(chip: RC522Chip, confirm_every: int = DEFAULT_CONFIRM_EVERY) -> Iterator[RC522Reader]:
    bus = FakeSpiBus()
    bus.attach(chip)
    with fake_spidev(bus):
        reader = open_rc522("seat1.pad", max_tags=8, confirm_every=confirm_every, sleep=_no_sleep)
        yield reader
        reader.close()


@pytest.mark.parametrize("confirm_every", [1, DEFAULT_CONFIRM_EVERY])
@pytest.mark.parametrize("count", [1, 2, 3, 4, 5, 6])
def test_every_tag_on_every_poll_under_either_reading(reading: str, count: int, confirm_every: int) -> None:
    # With confirm_every > 1 the tags of the field before stay listed until the next census.
    rng = random.Random(1900 + count)
    chip = RC522Chip(collpos=reading)
    for reader in _open(chip, confirm_every):
        for field in range(5):
            chip.clear_tags()
            uids = set(mixed_uids(rng, count))
            for uid in uids:
                chip.add_tag(uid)
            polls = [reader.poll() for _ in range(POLLS // 5)]
            assert all(uids <= seen for seen in polls), (field, sorted(uids), polls)
            assert all(seen == uids for seen in polls[confirm_every - 1 :]), (field, sorted(uids), polls)


def test_deep_collisions_with_rx_align(reading: str) -> None:
    # Tags differing only in late bits of each byte: every split after the first
    # is sent with RxAlign > 0, where the two readings disagree.
    uids = {"01A55A10", "01A55A30", "01A55A70", "04C3D4E5F6A7B8", "04C3D4E5F6A7B9", "04C3D4E5F6A7BB"}
    chip = RC522Chip(collpos=reading)
    for uid in uids:
        chip.add_tag(uid)
    for reader in _open(chip):
        for _ in range(20):
            assert reader.poll() == uids


def test_the_reader_learns_the_chips_reading(reading: str) -> None:
    chip = RC522Chip(collpos=reading)
    for uid in ("01A55A10", "01A55A30", "01A55A70", "04C3D4E5F6A7B8", "04C3D4E5F6A7BB"):
        chip.add_tag(uid)
    for reader in _open(chip):
        assert reader.collpos_reading is None
        for _ in range(5):
            reader.poll()
        assert reader.collpos_reading == reading


def test_collision_is_looked_at_before_parity() -> None:
    # The emulator sets ParityErr with CollErr, as real chips commonly do.
    chip = RC522Chip(collpos=COLLPOS_FIFO, parity_on_collision=True)
    chip.add_tag("DEADBEEF")
    chip.add_tag("DEADBEEE")
    for reader in _open(chip):
        assert reader.poll() == {"DEADBEEF", "DEADBEEE"}


def test_locate_collision_under_both_readings() -> None:
    # A reply of 20 bits received with RxAlign 3; CollPos 6.
    assert locate_collision(6, 3, 20, r.COLLPOS_FIFO).index == 2
    assert locate_collision(6, 3, 20, r.COLLPOS_RECEIVED).index == 5
    unsure = locate_collision(6, 3, 20, None)
    assert unsure is not None and unsure.index == 2 and unsure.uncertain
    # CollPos 2 with RxAlign 3 falls before the first bit received: only the other reading fits.
    only_received = locate_collision(2, 3, 20, None)
    assert only_received is not None and only_received.index == 1
    assert only_received.proves == r.COLLPOS_RECEIVED
    # CollPos 23 on 20 bits: only NXP's reading fits.
    only_fifo = locate_collision(23, 3, 20, None)
    assert only_fifo is not None and only_fifo.index == 19 and only_fifo.proves == r.COLLPOS_FIFO
    assert locate_collision(0x20, 0, 20, None) is None  # CollPosNotValid
    # Without RxAlign the readings agree.
    same = locate_collision(6, 0, 20, None)
    assert same is not None and same.index == 5 and not same.uncertain


@pytest.mark.parametrize("version", [0x12, 0x82, 0xB1])
def test_clone_versions_are_read_with_a_note(version: int, caplog: pytest.LogCaptureFixture) -> None:
    chip = RC522Chip(version=version)
    chip.add_tag("DEADBEEF")
    with caplog.at_level(logging.WARNING, logger="drivers.rc522.driver"):
        for reader in _open(chip):
            assert reader.poll() == {"DEADBEEF"}
            assert reader.version_note is not None
            assert f"0x{version:02X}" in reader.version_note and "clone" in reader.version_note
    assert f"0x{version:02X}" in caplog.text


@pytest.mark.parametrize("version", [0x00, 0xFF])
def test_no_answer_versions_still_say_check_wiring(version: int) -> None:
    chip = RC522Chip(version=version)
    for reader in _open(chip):
        with pytest.raises(ReaderError, match=rf"VersionReg reads 0x{version:02X}.*check its power"):
            reader.poll()


def test_genuine_chip_has_no_note() -> None:
    for reader in _open(RC522Chip(version=0x92)):
        reader.poll()
        assert reader.version_note is None


def test_the_emulator_reading_defaults_to_nxps() -> None:
    assert RC522Chip().collpos == COLLPOS_FIFO
    assert RC522Chip(collpos=COLLPOS_RECEIVED).collpos == COLLPOS_RECEIVED
    with pytest.raises(ValueError, match="collpos must be one of"):
        RC522Chip(collpos="bits")


@pytest.mark.parametrize("settled", [False, True])
@pytest.mark.parametrize("confirm_every", [1, DEFAULT_CONFIRM_EVERY])
@pytest.mark.parametrize("truth", COLLPOS_READINGS)
def test_a_reading_learnt_wrongly_is_put_right(truth: str, confirm_every: int, settled: bool) -> None:
    # As after a tag left mid-walk: the reader holds the other reading than its chip's,
    # from the first poll, or once the tags are read and halted (censuses only then).
    uids = {"01A55A10", "01A55A30", "01A55A70", "04C3D4E5F6A7B8", "04C3D4E5F6A7B9", "04C3D4E5F6A7BB"}
    chip = RC522Chip(collpos=truth)
    for uid in uids:
        chip.add_tag(uid)
    for reader in _open(chip, confirm_every):
        for _ in range(3 if settled else 0):
            assert reader.poll() == uids
        reader.collpos_reading = COLLPOS_RECEIVED if truth == COLLPOS_FIFO else COLLPOS_FIFO
        for _ in range(10 * confirm_every):  # ten censuses
            reader.poll()
        assert reader.collpos_reading == truth
        assert all(reader.poll() == uids for _ in range(20))
