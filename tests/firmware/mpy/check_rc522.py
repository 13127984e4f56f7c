# The RC522 driver against the register-level emulator, under MicroPython.

import time

import checklib
import machine
import rc522
import rc522_emulator
from rc522_emulator import RC522Chip

SPI = machine.SPI(0)


READINGS = (rc522_emulator.COLLPOS_FIFO, rc522_emulator.COLLPOS_RECEIVED)


def reader(pin=17, version=0x92, collpos=rc522_emulator.COLLPOS_FIFO):
    machine.detach_all()
    chip = RC522Chip(version, collpos)
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


class TripleTag(rc522_emulator.Tag):
    """A 10-byte UID (three cascade levels), which the shared emulator leaves out."""

    def __init__(self, uid):
        rc522_emulator.Tag.__init__(self, uid[:14])
        self.uid = rc522_emulator.parse_uid(uid)
        self.hex = uid

    def levels(self):
        return 3

    def cln(self, level):
        u = self.uid
        part = ([CT] + u[0:3], [CT] + u[3:6], u[6:10])[level]
        return part + [part[0] ^ part[1] ^ part[2] ^ part[3]]


CT = rc522_emulator.CASCADE_TAG


def check_ten_byte_uid_uses_cascade_level_3():
    chip, r = reader()
    chip.tags.append(TripleTag("04112233445566778899"))
    chip.add_tag("DEADBEEF")
    assert sorted(r.scan()) == ["04112233445566778899", "DEADBEEF"]


def check_random_fields_are_read_whole():
    # Seeded mixes of 4- and 7-byte UIDs, many sharing leading bytes, so the
    # anticollision meets collisions at every bit position and level.
    chip, r = reader()
    seed = 12345
    for trial in range(60):
        chip.clear_tags()
        want = []
        for _ in range(1 + trial % rc522.MAX_TAGS):
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            uid = f"04A1{seed >> 1:010X}" if seed & 1 else f"{(seed >> 3) | 0x01000000:08X}"
            if uid not in want:
                want.append(uid)
                chip.add_tag(uid)
        got = r.scan()
        assert sorted(got) == sorted(want), (trial, got, want)


def mixed_uids(seed, count):
    """4- and 7-byte UIDs sharing leading bytes, so collisions fall at every depth."""
    uids = []
    while len(uids) < count:
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        low = seed >> 8
        if seed & 1:
            uid = "04C3D4%08X" % (0xE5000000 | (low & 0xFFFFFF)) if seed & 2 else "04A1%010X" % low
        else:
            uid = "01A55A%02X" % (low & 0xFF) if seed & 2 else "%08X" % ((low & 0x7FFFFFF) | 0x01000000)
        if uid not in uids:
            uids.append(uid)
    return seed, uids


def check_every_tag_under_either_collpos_reading():
    # 1 to 6 tags, 4- and 7-byte UIDs mixed, 50 scans a field: every scan lists every tag.
    for collpos in READINGS:
        chip, r = reader(collpos=collpos)
        seed = 1900
        for count in range(1, 7):
            for _ in range(3):
                seed, want = mixed_uids(seed, count)
                chip.clear_tags()
                for u in want:
                    chip.add_tag(u)
                for _ in range(50 // 3 + 1):
                    got = r.scan()
                    assert sorted(got) == sorted(want), (collpos, got, want)


def check_deep_collisions_with_rx_align():
    uids = ["01A55A10", "01A55A30", "01A55A70", "04C3D4E5F6A7B8", "04C3D4E5F6A7B9", "04C3D4E5F6A7BB"]
    for collpos in READINGS:
        chip, r = reader(collpos=collpos)
        for u in uids:
            chip.add_tag(u)
        for _ in range(10):
            assert sorted(r.scan()) == sorted(uids), collpos
        assert r.collpos in (None, collpos), (r.collpos, collpos)  # never the wrong one


def check_collision_with_parity_error_is_a_collision():
    chip, r = reader()
    assert chip.parity_on_collision
    chip.add_tag("DEADBEEF")
    chip.add_tag("DEADBEEE")
    assert sorted(r.scan()) == ["DEADBEEE", "DEADBEEF"]


def check_clone_versions_are_accepted():
    for version in (0x12, 0x82, 0xB1):
        chip, r = reader(version=version)
        chip.add_tag("DEADBEEF")
        assert r.scan() == ["DEADBEEF"]


checklib.run(globals())
