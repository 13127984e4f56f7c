"""`tablekeeper doctor --read-test PAD --tags N`: figures a builder can paste into a bug report."""

from __future__ import annotations

import pytest

from drivers.sim.rc522_emulator import COLLPOS_RECEIVED, RC522Chip
from drivers.sim.readers import SimulatedReader, emulated_rc522
from pi_app.cli import main
from pi_app.table import pad_test as read_test

THREE = ["01A55A10", "01A55A30", "04C3D4E5F6A7B8"]


class VirtualTime:
    def __init__(self) -> None:
        self.t = 0.0

    def now(self) -> float:
        return self.t

    def sleep(self, seconds: float) -> None:
        self.t += seconds


def run_on(reader: object, tags: int, seconds: float = 10.0) -> read_test.ReadTest:
    clock = VirtualTime()
    return read_test.run(reader, "seat1.pad", "backend=rc522 bus=0 device=0", tags, seconds,
                         clock=clock.now, sleep=clock.sleep)


@pytest.mark.parametrize("reading", ["fifo", COLLPOS_RECEIVED])
def test_three_tags_on_an_rc522(reading: str) -> None:
    chip = RC522Chip(collpos=reading)
    for uid in THREE:
        chip.add_tag(uid)
    reader, _ = emulated_rc522("seat1.pad", chip)
    result = run_on(reader, 3)
    assert result.polls == 200 and result.complete == 200
    assert sorted(result.laid()) == sorted(THREE)
    lines = read_test.report(result)
    text = "\n".join(lines)
    assert "polls: 200 (20.0 a second)" in text
    assert "complete polls (all 3 tags seen): 100 in 100" in text
    assert "tag 04C3D4E5F6A7B8: missed 0 of 200 polls" in text
    assert "chip version: 0x92 (v2.0)" in text
    expected = "NXP's" if reading == "fifo" else "the other"
    assert f"CollPos reading: {expected}" in text
    assert text.endswith("verdict: good")


def test_a_clone_chip_is_named_in_the_report() -> None:
    chip = RC522Chip(version=0x12)
    chip.add_tag("DEADBEEF")
    reader, _ = emulated_rc522("seat1.pad", chip)
    text = "\n".join(read_test.report(run_on(reader, 1, seconds=1)))
    assert "chip version: 0x12 (not a known MFRC522 version: probably a clone" in text
    assert "The chip reports VersionReg 0x12, not a known MFRC522 version (probably a clone)" in text


def test_a_tag_never_read_says_what_to_change() -> None:
    chip = RC522Chip()
    for uid in THREE[:2]:
        chip.add_tag(uid)
    reader, _ = emulated_rc522("seat1.pad", chip)
    text = "\n".join(read_test.report(run_on(reader, 3, seconds=1)))
    assert "Only 2 of the 3 tags were ever read" in text and "antenna_gain_db" in text
    assert "verdict: needs attention" in text


class Flaky(SimulatedReader):
    """Misses its second tag on every other poll."""

    def poll(self) -> frozenset[str]:
        seen = super().poll()
        return frozenset(sorted(seen)[:1]) if self.polls % 2 else seen


def test_incomplete_polls_and_misses_per_tag() -> None:
    reader = Flaky("seat1.pad")
    reader.place("DEADBEEF", "CAFEBABE")
    result = run_on(reader, 2, seconds=5)
    text = "\n".join(read_test.report(result))
    assert "complete polls (all 2 tags seen): 50 in 100" in text
    assert "tag DEADBEEF: missed 50 of 100 polls" in text
    assert "Only 50 polls in 100 saw every tag. Increase the spacing" in text
    assert "chip version" not in text  # not an RC522 the driver talks to


def test_an_rc522_that_stops_reading_a_tag_counts_every_miss() -> None:
    # The driver remembers halted tags between its censuses; the read test must not.
    chip = RC522Chip()
    chip.add_tag("DEADBEEF")
    chip.add_tag("04C3D4E5F6A7B8")
    reader, _ = emulated_rc522("seat1.pad", chip)
    clock = VirtualTime()
    waits: list[float] = []

    def sleep(seconds: float) -> None:
        clock.sleep(seconds)
        waits.append(seconds)
        if len(waits) == 98:  # taken off after the 98th poll (the driver's census is every 4th)
            chip.remove_tag("DEADBEEF")

    result = read_test.run(reader, "seat1.pad", "emulated RC522", 2, 10.0, clock=clock.now, sleep=sleep)
    assert result.polls == 200
    assert result.counts["DEADBEEF"] == 98 and result.counts["04C3D4E5F6A7B8"] == 200


def test_doctor_read_test_on_the_simulated_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["doctor", "--table", "sim", "--read-test", "seat2.pad", "--tags", "3"]) == 0
    out = capsys.readouterr().out
    assert "read test: seat2.pad (backend=sim), 3 tag(s) laid, 10.0 s" in out
    assert "complete polls (all 3 tags seen): 100 in 100" in out


def test_doctor_read_test_refuses_what_is_not_there(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["doctor", "--table", "sim", "--read-test", "seat9.pad"]) == 2
    assert "--read-test seat9.pad: table" in capsys.readouterr().err
    assert main(["doctor", "--table", "sim", "--read-test", "seat1.pad", "--tags", "0"]) == 2
    assert "--tags 0 is not a number of tags" in capsys.readouterr().err


def test_doctor_names_a_clone_chip(tmp_path, capsys) -> None:
    from drivers.sim.fake_spi import FakeSpiBus, fake_spidev
    from pi_app.table import profile

    bus = FakeSpiBus()
    bus.attach(RC522Chip(version=0x12), bus=0, device=0)
    sim = profile.find("sim").read_text()
    table = tmp_path / "t.toml"
    table.write_text(sim.replace('name = "seat2"\npad = { backend = "sim" }',
                                 'name = "seat2"\npad = { backend = "rc522", bus = 0, device = 0 }'))
    with fake_spidev(bus):
        assert main(["doctor", "--table", str(table), "--listen", "0"]) == 0
        out = capsys.readouterr().out
        assert "ok  reader  seat2.pad" in out
        assert "reports VersionReg 0x12 (not a known MFRC522 version: probably a clone" in out
        assert main(["doctor", "--table", str(table), "--read-test", "seat2.pad", "--seconds", "0.2"]) == 1
        out = capsys.readouterr().out
        assert "chip version: 0x12" in out and "No tag was read" in out
