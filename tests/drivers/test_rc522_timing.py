"""The emulator takes a real chip's time; the driver waits for it without spinning.

A :class:`VirtualClock` moves only with SPI transfers and the driver's sleeps,
so these checks are exact and take no wall time.
"""

from __future__ import annotations

import pytest

from drivers.rc522 import chip as r
from drivers.rc522 import open_rc522
from drivers.rc522.driver import RC522Reader
from drivers.sim import rc522_emulator as emu
from drivers.sim.fake_spi import FakeSpiBus, fake_spidev
from drivers.sim.rc522_emulator import RC522Chip, VirtualClock


class CountingChip(RC522Chip):
    """Counts the transfers that read ComIrqReg: how often a driver looks."""

    irq_reads = 0

    def xfer2(self, data: list[int]) -> list[int]:
        if data and data[0] == 0x80 | (emu.COM_IRQ << 1):
            self.irq_reads += 1
        return super().xfer2(data)


def timed_reader(chip: RC522Chip, clock: VirtualClock, **options: float) -> RC522Reader:
    bus = FakeSpiBus()
    bus.attach(chip)
    with fake_spidev(bus):
        return open_rc522("seat1.pad", clock=clock.now, sleep=clock.sleep, **options)  # type: ignore[arg-type]


def ready(chip: RC522Chip) -> RC522Chip:
    chip.write_register(emu.T_MODE, 0x80)
    chip.write_register(emu.T_PRESCALER, 0xA9)
    chip.write_register(emu.T_RELOAD_L, 40)  # 41 ticks of 25 us
    chip.write_register(emu.TX_CONTROL, 0x83)
    return chip


def start(chip: RC522Chip, data: list[int], last_bits: int = 0) -> None:
    chip.write_register(emu.COM_IRQ, 0x7F)
    chip.write_register(emu.FIFO_LEVEL, 0x80)
    for byte in data:
        chip.write_register(emu.FIFO_DATA, byte)
    chip.write_register(emu.COMMAND, emu.CMD_TRANSCEIVE)
    chip.write_register(emu.BIT_FRAMING, 0x80 | last_bits)


def test_an_answer_shows_only_once_it_is_over_the_air() -> None:
    clock = VirtualClock()
    chip = ready(RC522Chip(clock=clock))
    chip.add_tag("DEADBEEF")
    start(chip, [0x26], last_bits=7)
    assert not chip.read_register(emu.COM_IRQ) & emu.IRQ_RX  # nothing at once
    # REQA (7 bits) out, 91 us, then ATQA (16 bits) back.
    over = emu.air_time(7) + emu.FDT_S + emu.air_time(16)
    clock.advance(over - 1e-6)
    assert not chip.read_register(emu.COM_IRQ) & emu.IRQ_RX
    clock.advance(2e-6)
    assert chip.read_register(emu.COM_IRQ) & emu.IRQ_RX
    assert chip.read_register(emu.FIFO_LEVEL) == 2


def test_the_timer_runs_its_period_after_the_frame() -> None:
    clock = VirtualClock()
    chip = ready(RC522Chip(clock=clock))
    start(chip, [0x26], last_bits=7)
    period = (2 * 0xA9 + 1) * 41 / emu.CARRIER_HZ
    clock.advance(emu.air_time(7) + period - 1e-6)
    assert not chip.read_register(emu.COM_IRQ) & emu.IRQ_TIMER
    clock.advance(2e-6)
    assert chip.read_register(emu.COM_IRQ) & emu.IRQ_TIMER


def test_a_timer_too_short_for_the_tag_misses_it() -> None:
    chip = ready(RC522Chip())
    chip.write_register(emu.T_RELOAD_L, 3)  # 100 us: less than the tag's 91 us + 5 bits
    chip.add_tag("DEADBEEF")
    start(chip, [0x26], last_bits=7)
    assert chip.read_register(emu.COM_IRQ) & (emu.IRQ_RX | emu.IRQ_TIMER) == emu.IRQ_TIMER


def test_spi_transfers_take_their_bytes_at_the_clock() -> None:
    clock = VirtualClock()
    chip = RC522Chip(clock=clock, spi_hz=1_000_000)
    chip.xfer2([0x80 | (emu.VERSION << 1), 0])
    assert clock.now() == pytest.approx(16e-6)


def test_the_fake_spidev_gives_the_chip_the_devices_clock() -> None:
    clock = VirtualClock()
    chip = RC522Chip(clock=clock)
    timed_reader(
        chip,
        clock,
    ).poll()
    assert chip.spi_hz == r.DEFAULT_SPI_HZ  # what open_rc522 set on /dev/spidev0.0


@pytest.mark.parametrize("tags", [[], ["DEADBEEF"], ["DEADBEEF", "04A1B2C3D4E5F6", "04112233445566"]])
def test_the_driver_looks_at_comirq_a_few_times_a_frame(tags: list[str]) -> None:
    clock = VirtualClock()
    chip = CountingChip(clock=clock)
    for uid in tags:
        chip.add_tag(uid)
    reader = timed_reader(chip, clock)
    assert reader.poll() == set(tags)  # the first poll also sets the chip up
    chip.irq_reads = 0
    frames_before = chip.frames
    assert reader.poll() == set(tags)
    frames = chip.frames - frames_before
    # A spinning wait reads ComIrqReg every 16 us of SPI time: 320 times in an empty
    # poll with the old 5 ms timer, 60 with a 1 ms one.
    assert chip.irq_reads <= 5 * frames, (chip.irq_reads, frames)


def test_an_empty_poll_takes_about_the_timer() -> None:
    clock = VirtualClock()
    chip = RC522Chip(clock=clock)
    reader = timed_reader(chip, clock)
    reader.poll()
    before = clock.now()
    assert reader.poll() == frozenset()
    took = clock.now() - before
    assert r.DEFAULT_TIMEOUT_MS / 1000 < took < 2.5 * r.DEFAULT_TIMEOUT_MS / 1000


def test_every_tag_under_either_reading_with_time() -> None:
    uids = {"01A55A10", "01A55A30", "04C3D4E5F6A7B8", "04C3D4E5F6A7B9", "DEADBEEF", "04112233445566"}
    for reading in emu.COLLPOS_READINGS:
        clock = VirtualClock()
        chip = RC522Chip(clock=clock, collpos=reading)
        for uid in uids:
            chip.add_tag(uid)
        reader = timed_reader(chip, clock)
        for _ in range(10):
            assert reader.poll() == uids


def test_the_irq_pin_follows_comirq_and_comien() -> None:
    chip = ready(RC522Chip(clock=VirtualClock()))
    levels: list[int] = []
    chip.wire_irq(levels.append)
    assert levels == [1]  # IRqInv (reset value): high while no enabled interrupt is up
    chip.xfer2([emu.COM_IEN << 1, 0x80 | emu.IRQ_TIMER])
    start(chip, [0x26], last_bits=7)  # no tag: the timer runs out
    chip.clock.advance(0.01)
    chip.xfer2([0x80 | (emu.VERSION << 1), 0])
    assert levels == [1, 0]  # active, so low
    chip.xfer2([emu.COM_IRQ << 1, 0x7F])
    assert levels == [1, 0, 1]


def test_with_the_irq_line_wired_the_driver_waits_on_it() -> None:
    from gpiozero.pins.mock import MockFactory

    from drivers.sim.rc522_emulator import RealClock

    uids = {"01A55A10", "01A55A30", "04C3D4E5F6A7B8"}
    factory = MockFactory()
    line = factory.pin(6)
    chip = CountingChip(clock=RealClock())
    for uid in uids:
        chip.add_tag(uid)
    chip.wire_irq(lambda level: line.drive_high() if level else line.drive_low())
    bus = FakeSpiBus()
    bus.attach(chip)
    with fake_spidev(bus):
        reader = open_rc522("seat1.pad", irq_pin=6, pin_factory=factory)
        assert reader.poll() == uids
        chip.irq_reads = 0
        frames_before = chip.frames
        assert reader.poll() == uids
        assert reader.poll() == uids
        assert chip.irq_reads == chip.frames - frames_before  # one look a frame: the line said when
        reader.close()
