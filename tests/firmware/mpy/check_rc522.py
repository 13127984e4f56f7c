# The RC522 driver against the register-level emulator, under MicroPython.

import time

import checklib
import machine
import rc522
from rc522_emulator import RC522Chip

SPI = machine.SPI(0)


def reader(pin=17, version=0x92):
    machine.detach_all()
    chip = RC522Chip(version)
    machine.attach(pin, chip)
    r = rc522.RC522(SPI, machine.Pin(pin, machine.Pin.OUT, value=1))
    assert r.init() == version
    return chip, r


def check_crc_a_known_vector():
    # HLTA frame 50 00 carries CRC_A 57 CD (ISO 14443-3).
    assert rc522.crc_a([0x50, 0x00]) == [0x57, 0xCD]


def check_empty_field_costs_few_transfers():
    # The usual drivers spin ~2000 transfers on an empty poll; the timer
    # interrupt ends ours at once.
    chip, r = reader()
    t0 = chip.transfers
    assert r.scan() == []
    n = chip.transfers - t0
    assert n < 30, n


def check_four_byte_uid():
    chip, r = reader()
    chip.add_tag("DEADBEEF")
    assert r.scan() == ["DEADBEEF"]


def check_seven_byte_uid_uses_cascade_level_2():
    chip, r = reader()
    chip.add_tag("04A1B2C3D4E5F6")
    assert r.scan() == ["04A1B2C3D4E5F6"]   # not 88 04 A1 B2


def check_several_tags_found_every_sweep():
    chip, r = reader()
    uids = ["04A1B2C3D4E5F6", "04A1B2C3D4E5F7", "0411223344556F", "DEADBEEF", "DEADBEEE"]
    for u in uids:
        chip.add_tag(u)
    for _ in range(3):
        assert sorted(r.scan()) == sorted(uids)


def check_tag_leaving_and_arriving():
    chip, r = reader()
    chip.add_tag("04A1B2C3D4E5F6")
    chip.add_tag("CAFEBABE")
    assert sorted(r.scan()) == ["04A1B2C3D4E5F6", "CAFEBABE"]
    chip.remove_tag("CAFEBABE")
    assert r.scan() == ["04A1B2C3D4E5F6"]
    chip.add_tag("12345678")
    assert sorted(r.scan()) == ["04A1B2C3D4E5F6", "12345678"]


def check_field_is_off_between_scans():
    chip, r = reader()
    chip.add_tag("DEADBEEF")
    r.scan()
    assert chip.read_register(rc522.TX_CONTROL) & 0x03 == 0


def check_dead_chip_is_an_error():
    chip, r = reader()
    chip.connected = False
    assert not r.alive()
    try:
        r.init()
    except rc522.ChipError as e:
        assert "no answer" in e.args[0]
    else:
        raise AssertionError("init on a dead chip did not raise")


def check_no_interrupt_times_out():
    # TAuto off: the chip never raises TimerIRq; the guard must end the wait.
    chip, r = reader()
    chip.write_register(rc522.T_MODE, 0x00)
    t0 = time.ticks_ms()
    try:
        r.scan()
    except rc522.ChipError as e:
        assert "interrupt" in e.args[0]
    else:
        raise AssertionError("no timeout")
    assert time.ticks_diff(time.ticks_ms(), t0) < 200


def check_readers_share_the_bus():
    machine.detach_all()
    chips = []
    readers = []
    for i, pin in enumerate((17, 20, 21)):
        c = RC522Chip()
        c.add_tag(f"0000000{i}")
        machine.attach(pin, c)
        chips.append(c)
        readers.append(rc522.RC522(SPI, machine.Pin(pin, machine.Pin.OUT, value=1)))
    for r in readers:
        r.init()
    for i, r in enumerate(readers):
        assert r.scan() == [f"0000000{i}"]


checklib.run(globals())
