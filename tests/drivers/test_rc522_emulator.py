"""The RC522 emulator at register level, under CPython and under MicroPython."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from drivers.sim import rc522_emulator as emu

EMULATOR = Path(emu.__file__)


def transceive(chip: emu.RC522Chip, data: list[int], last_bits: int = 0, align: int = 0):
    chip.xfer2([emu.COM_IRQ << 1, 0x7F])
    chip.xfer2([emu.FIFO_LEVEL << 1, 0x80])
    chip.xfer2([emu.FIFO_DATA << 1, *data])
    chip.xfer2([emu.COMMAND << 1, emu.CMD_TRANSCEIVE])
    chip.xfer2([emu.BIT_FRAMING << 1, 0x80 | (align << 4) | last_bits])
    reg = [0x80 | (a << 1) for a in (emu.COM_IRQ, emu.ERROR, emu.COLL, emu.FIFO_LEVEL)]
    irq, error, coll, level = chip.xfer2([*reg, 0])[1:]
    fifo = chip.xfer2([0x80 | (emu.FIFO_DATA << 1)] * level + [0])[1:]
    return irq, error, coll, fifo


@pytest.fixture
def chip() -> emu.RC522Chip:
    return ready(emu.RC522Chip())


def ready(chip: emu.RC522Chip) -> emu.RC522Chip:
    """Timer on (TAuto, 25 us ticks, 1 ms) and the antenna on, as a driver sets them."""
    chip.write_register(emu.T_MODE, 0x80)
    chip.write_register(emu.T_PRESCALER, 0xA9)
    chip.write_register(emu.T_RELOAD_L, 40)
    chip.write_register(emu.TX_CONTROL, 0x83)
    return chip


def test_version_and_transfer_count(chip: emu.RC522Chip) -> None:
    assert chip.xfer2([0x80 | (emu.VERSION << 1), 0]) == [0, 0x92]
    assert chip.transfers == 1


def test_no_tag_times_out(chip: emu.RC522Chip) -> None:
    irq, _, _, fifo = transceive(chip, [0x26], last_bits=7)
    assert irq & emu.IRQ_TIMER and not irq & emu.IRQ_RX
    assert fifo == []


def test_no_timer_irq_without_tauto(chip: emu.RC522Chip) -> None:
    chip.write_register(emu.T_MODE, 0x00)
    irq, _, _, _ = transceive(chip, [0x26], last_bits=7)
    assert not irq & emu.IRQ_TIMER


def test_reqa_anticollision_select_and_halt_4_byte(chip: emu.RC522Chip) -> None:
    chip.add_tag("DEADBEEF")
    irq, error, _, atqa = transceive(chip, [0x26], last_bits=7)
    assert irq & emu.IRQ_RX and error == 0 and atqa == [0x04, 0x00]
    _, error, _, cl = transceive(chip, [0x93, 0x20])
    assert error == 0 and cl == [0xDE, 0xAD, 0xBE, 0xEF, 0xDE ^ 0xAD ^ 0xBE ^ 0xEF]
    frame = [0x93, 0x70, *cl]
    _, error, _, sak = transceive(chip, frame + emu.crc_a(frame))
    assert error == 0 and sak == [0x08, *emu.crc_a([0x08])]
    irq, _, _, _ = transceive(chip, [0x50, 0x00, *emu.crc_a([0x50, 0x00])])
    assert irq & emu.IRQ_TIMER  # HLTA has no answer
    assert transceive(chip, [0x26], last_bits=7)[3] == []  # halted: REQA does not wake it
    assert transceive(chip, [0x52], last_bits=7)[3] == [0x04, 0x00]  # WUPA does


HLTA = [0x50, 0x00, *emu.crc_a([0x50, 0x00])]


def _select(chip: emu.RC522Chip, sel: int, cln: list[int]) -> list[int]:
    frame = [sel, 0x70, *cln]
    return transceive(chip, frame + emu.crc_a(frame))[3]


def _halted(chip: emu.RC522Chip, uid: str) -> emu.Tag:
    tag = chip.add_tag(uid)
    transceive(chip, [0x26], last_bits=7)
    _select(chip, 0x93, tag.cln(0))
    if len(tag.uid) == 7:
        _select(chip, 0x95, tag.cln(1))
    transceive(chip, HLTA)
    assert tag.state == emu.HALT
    return tag


def test_a_tag_woken_from_halt_falls_back_to_halt(chip: emu.RC522Chip) -> None:
    # ISO 14443-3 READY*: any frame it does not expect sends it back to HALT, not IDLE.
    tag = _halted(chip, "DEADBEEF")
    assert transceive(chip, [0x52], last_bits=7)[3] == [0x04, 0x00]
    assert tag.state == emu.READY
    transceive(chip, HLTA)  # not ACTIVE: an unexpected frame
    assert tag.state == emu.HALT
    assert transceive(chip, [0x26], last_bits=7)[3] == []  # REQA still leaves it be


def test_a_non_matching_select_drops_ready_tags_where_they_were_woken_from(chip: emu.RC522Chip) -> None:
    halted = _halted(chip, "DEADBEEF")
    idle = chip.add_tag("01020304")
    transceive(chip, [0x52], last_bits=7)
    assert halted.state == idle.state == emu.READY
    assert _select(chip, 0x93, [0xCA, 0xFE, 0xBA, 0xBE, 0xCA ^ 0xFE ^ 0xBA ^ 0xBE]) == []
    assert (halted.state, idle.state) == (emu.HALT, emu.IDLE)


def test_reqa_to_a_ready_tag_sends_it_back_to_idle_unanswered(chip: emu.RC522Chip) -> None:
    tag = chip.add_tag("DEADBEEF")
    assert transceive(chip, [0x26], last_bits=7)[3] == [0x04, 0x00]
    assert transceive(chip, [0x26], last_bits=7)[3] == []  # READY: REQA is unexpected
    assert tag.state == emu.IDLE
    assert transceive(chip, [0x26], last_bits=7)[3] == [0x04, 0x00]


def test_a_selected_tag_woken_from_halt_halts_again(chip: emu.RC522Chip) -> None:
    tag = _halted(chip, "04A1B2C3D4E5F6")
    transceive(chip, [0x52], last_bits=7)
    assert _select(chip, 0x93, tag.cln(0))[0] == 0x04
    assert _select(chip, 0x95, tag.cln(1))[0] == 0x00
    assert tag.state == emu.ACTIVE
    transceive(chip, HLTA)
    assert tag.state == emu.HALT


def test_a_halted_tag_that_loses_power_wakes_idle(chip: emu.RC522Chip) -> None:
    tag = _halted(chip, "DEADBEEF")
    chip.write_register(emu.TX_CONTROL, 0x80)  # field off (or the tag lifted off the pad)
    chip.write_register(emu.TX_CONTROL, 0x83)
    assert tag.state == emu.IDLE
    assert transceive(chip, [0x26], last_bits=7)[3] == [0x04, 0x00]  # REQA wakes it again


def test_seven_byte_uid_needs_two_cascade_levels(chip: emu.RC522Chip) -> None:
    chip.add_tag("04A1B2C3D4E5F6")
    assert transceive(chip, [0x52], last_bits=7)[3] == [0x44, 0x00]
    cl1 = transceive(chip, [0x93, 0x20])[3]
    assert cl1[:4] == [0x88, 0x04, 0xA1, 0xB2]
    frame = [0x93, 0x70, *cl1]
    assert transceive(chip, frame + emu.crc_a(frame))[3][0] == 0x04  # cascade bit
    cl2 = transceive(chip, [0x95, 0x20])[3]
    assert cl2[:4] == [0xC3, 0xD4, 0xE5, 0xF6]
    frame = [0x95, 0x70, *cl2]
    assert transceive(chip, frame + emu.crc_a(frame))[3][0] == 0x00


def test_collision_position(chip: emu.RC522Chip) -> None:
    chip.add_tag("01000000")
    chip.add_tag("03000000")  # differs in bit 2 (1-based) of the first byte
    transceive(chip, [0x26], last_bits=7)
    _, error, coll, _ = transceive(chip, [0x93, 0x20])
    assert error & emu.ERR_COLL
    assert coll & 0x1F == 2 and not coll & 0x20
    # One known bit (1), one more chosen (1): only 03000000 matches.
    _, error, _, rest = transceive(chip, [0x93, 0x22, 0x03], last_bits=2, align=2)
    assert error == 0 and rest[0] & 0xFC == 0x00 and rest[1:4] == [0, 0, 0]


def test_collision_sets_parity_error_too(chip: emu.RC522Chip) -> None:
    chip.add_tag("01000000")
    chip.add_tag("03000000")
    transceive(chip, [0x26], last_bits=7)
    _, error, _, _ = transceive(chip, [0x93, 0x20])
    assert error & emu.ERR_COLL and error & emu.ERR_PARITY


def test_collpos_counts_from_the_fifos_first_bit_by_default(chip: emu.RC522Chip) -> None:
    # Tags differ in bit 5 (0-based) of the first UID byte; 3 bits are sent (RxAlign 3),
    # so the collision is the 3rd bit received: CollPos 6 under NXP's reading, 3 under the other.
    chip.add_tag("01000000")
    chip.add_tag("21000000")
    transceive(chip, [0x26], last_bits=7)
    _, error, coll, _ = transceive(chip, [0x93, 0x23, 0x01], last_bits=3, align=3)
    assert error & emu.ERR_COLL and coll & 0x1F == 6
    other = ready(emu.RC522Chip(collpos=emu.COLLPOS_RECEIVED))
    other.add_tag("01000000")
    other.add_tag("21000000")
    transceive(other, [0x26], last_bits=7)
    _, error, coll, _ = transceive(other, [0x93, 0x23, 0x01], last_bits=3, align=3)
    assert error & emu.ERR_COLL and coll & 0x1F == 3


def test_crc_coprocessor(chip: emu.RC522Chip) -> None:
    chip.xfer2([emu.FIFO_DATA << 1, 0x50, 0x00])
    chip.xfer2([emu.COMMAND << 1, emu.CMD_CALC_CRC])
    assert chip.read_register(emu.DIV_IRQ) & emu.DIV_CRC
    assert [chip.read_register(emu.CRC_RESULT_L), chip.read_register(emu.CRC_RESULT_H)] == [0x57, 0xCD]


def test_antenna_off_means_silence_and_power_loss(chip: emu.RC522Chip) -> None:
    tag = chip.add_tag("DEADBEEF")
    transceive(chip, [0x26], last_bits=7)
    assert tag.state == emu.READY
    chip.write_register(emu.TX_CONTROL, 0x80)
    assert tag.state == emu.IDLE
    assert transceive(chip, [0x26], last_bits=7)[3] == []


def test_disconnected_chip_reads_zero(chip: emu.RC522Chip) -> None:
    chip.connected = False
    assert chip.xfer2([0x80 | (emu.VERSION << 1), 0]) == [0, 0]


def test_bad_uids_are_refused(chip: emu.RC522Chip) -> None:
    with pytest.raises(ValueError, match="4- and 7-byte"):
        chip.add_tag("0102")
    with pytest.raises(ValueError, match="not hex"):
        chip.add_tag("ZZZZZZZZ")
    chip.add_tag("DEADBEEF")
    with pytest.raises(ValueError, match="already"):
        chip.add_tag("de:ad:be:ef")
    with pytest.raises(KeyError):
        chip.remove_tag("01020304")


MICROPYTHON_SCRIPT = """
import sys
sys.path.insert(0, {folder!r})
import rc522_emulator as emu
chip = emu.RC522Chip()
chip.write_register(emu.T_MODE, 0x80)
chip.write_register(emu.T_PRESCALER, 0xA9)
chip.write_register(emu.T_RELOAD_L, 40)
chip.write_register(emu.TX_CONTROL, 0x83)
chip.add_tag("04A1B2C3D4E5F6")
chip.add_tag("DEADBEEF")
def tx(data, last=0):
    chip.xfer2([emu.FIFO_LEVEL << 1, 0x80])
    chip.xfer2([emu.FIFO_DATA << 1] + data)
    chip.xfer2([emu.COMMAND << 1, emu.CMD_TRANSCEIVE])
    chip.xfer2([emu.BIT_FRAMING << 1, 0x80 | last])
    n = chip.read_register(emu.FIFO_LEVEL)
    return [chip.read_register(emu.FIFO_DATA) for _ in range(n)]
assert tx([0x52], 7) == [0x44, 0x00]  # ATQAs collide on bit 7, OR reads 0x44
assert chip.read_register(emu.ERROR) & emu.ERR_COLL
assert chip.read_register(emu.COLL) & 0x1F == 7
chip.remove_tag("04A1B2C3D4E5F6")
assert tx([0x93, 0x20]) == [0xDE, 0xAD, 0xBE, 0xEF, 0xDE ^ 0xAD ^ 0xBE ^ 0xEF]
print("ok", chip.transfers)
"""


MICROPYTHON = shutil.which("micropython", path=str(Path(sys.executable).parent)) or shutil.which(
    "micropython"
)


@pytest.mark.skipif(MICROPYTHON is None, reason="micropython is not installed (pip install '.[test]')")
def test_runs_under_micropython(tmp_path: Path) -> None:
    exe = MICROPYTHON
    assert exe is not None
    script = tmp_path / "check.py"
    script.write_text(MICROPYTHON_SCRIPT.format(folder=str(EMULATOR.parent)))
    result = subprocess.run([exe, str(script)], capture_output=True, text=True, timeout=20)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("ok")
