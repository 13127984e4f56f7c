# The hub's scan loop and protocol, under MicroPython, on emulated readers and
# a hand-moved clock.

import checklib
import hub
import hubproto
import machine
import rc522
from rc522_emulator import RC522Chip

rc522.FIELD_ON_MS = 0        # the emulator powers tags at once
rc522.FIELD_OFF_MS = 0
CS = (17, 20, 21, 22, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)
KEYS = (12, 13, 14, 15, 26, 27)


class Rig:
    def __init__(self, n=3, hold_ms=500, keys=0, chip=RC522Chip):
        machine.detach_all()
        self.clock = checklib.FakeClock()
        self.out = []
        self.at = []             # machine.transfers when each line was sent
        self.inq = []
        self.chips = []
        readers = []
        spi = machine.SPI(0)
        for pin in CS[:n]:
            c = chip()
            machine.attach(pin, c)
            self.chips.append(c)
            readers.append(rc522.RC522(spi, machine.Pin(pin, machine.Pin.OUT, value=1)))
        self.wdt = machine.WDT(timeout=5000)
        pins = [machine.Pin(p, machine.Pin.IN, machine.Pin.PULL_UP) for p in KEYS[:keys]]
        self.hub = hub.Hub(readers, self.write, read_input=self.read, ticks_ms=self.clock,
                           board_id="B0A4D", hold_ms=hold_ms, heartbeat_ms=1000, feed=self.wdt.feed,
                           keys=pins)
        self.hub.snapshot()

    def write(self, line):
        self.out.append(line)
        self.at.append(machine.transfers)

    def key(self, i, down):
        machine.set_level(KEYS[i], 0 if down else 1)

    def step(self, ms=1):
        self.clock.advance(ms)
        self.hub.step()

    def read(self):
        data = b"".join(self.inq)
        del self.inq[:]
        return data

    def command(self, body):
        self.inq.append(hubproto.frame(body).encode())

    def sweep(self, ms=20):
        """One step per reader, the clock moving ``ms`` per step."""
        for _ in self.chips:
            self.clock.advance(ms)
            self.hub.step()

    def take(self):
        """Lines sent since the last take, parsed: [(seq, TYPE, fields)]."""
        got = []
        for line in self.out:
            assert line.endswith("\n") and line.startswith("$"), line
            body, cc = line[1:-1].split("*")
            assert cc == f"{hubproto.crc8(body):02X}", line
            parts = body.split(",")
            got.append((int(parts[0]), parts[1], parts[2:]))
        del self.out[:]
        del self.at[:]
        return got


def kinds(lines):
    return [k for _, k, _ in lines]


def states(lines):
    return [(int(f[0]), f[1:]) for _, k, f in lines if k == "STATE"]


def check_boot_sends_hello_and_empty_snapshot():
    rig = Rig(3)
    got = rig.take()
    assert kinds(got) == ["HELLO", "STATE", "STATE", "STATE", "SYNC"], got
    assert got[0][2] == ["2", hub.FIRMWARE_VERSION, "3", "B0A4D", "0"], got[0]
    assert [s for s, _, _ in got] == [0, 1, 2, 3, 4]
    assert states(got) == [(0, []), (1, []), (2, [])]
    assert got[-1][2] == ["3"]


def check_sequence_numbers_run_on_and_wrap():
    rig = Rig(1)
    rig.take()
    rig.hub.seq = 65535
    rig.command("SNAP")
    rig.sweep()
    got = rig.take()
    assert [s for s, _, _ in got] == [65535, 0, 1], got


def check_arrival_reports_the_whole_field():
    rig = Rig(3)
    rig.take()
    rig.chips[1].add_tag("04A1B2C3D4E5F6")
    rig.sweep()
    assert states(rig.take()) == [(1, ["04A1B2C3D4E5F6"])]
    rig.chips[1].add_tag("CAFEBABE")
    rig.sweep()
    assert states(rig.take()) == [(1, ["04A1B2C3D4E5F6", "CAFEBABE"])]
    rig.sweep()
    assert states(rig.take()) == []          # no change, no line


def check_a_tag_leaves_only_after_the_hold_time():
    rig = Rig(2, hold_ms=500)
    rig.take()
    rig.chips[0].add_tag("DEADBEEF")
    rig.sweep(20)
    assert states(rig.take()) == [(0, ["DEADBEEF"])]
    rig.chips[0].remove_tag("DEADBEEF")
    for _ in range(10):                      # 400 ms: still held
        rig.sweep(20)
    assert states(rig.take()) == []
    rig.chips[0].add_tag("DEADBEEF")         # a missed read, then back: no flicker
    rig.sweep(20)
    rig.chips[0].remove_tag("DEADBEEF")
    for _ in range(12):
        rig.sweep(20)
    assert states(rig.take()) == []
    for _ in range(3):
        rig.sweep(20)
    assert states(rig.take()) == [(0, [])]


def check_hold_command_sets_one_reader_or_all():
    rig = Rig(2)
    rig.take()
    rig.command("HOLD,1,0")
    rig.sweep()
    got = rig.take()
    assert ("OK", ["HOLD", "1", "0"]) in [(k, f) for _, k, f in got], got
    assert rig.hub.slots[1].hold_ms == 0 and rig.hub.slots[0].hold_ms == 500
    rig.chips[1].add_tag("DEADBEEF")
    rig.sweep()
    rig.chips[1].remove_tag("DEADBEEF")
    rig.sweep()
    assert states(rig.take()) == [(1, ["DEADBEEF"]), (1, [])]
    rig.command("HOLD,ALL,250")
    rig.sweep()
    assert [s.hold_ms for s in rig.hub.slots] == [250, 250]


def check_bad_commands_get_clear_errors():
    rig = Rig(2)
    rig.take()
    rig.command("HOLD,7,100")
    rig.command("HOLD,0,-5")
    rig.command("HOLD,0")
    rig.command("FROB")
    rig.inq.append(b"$SNAP*00\n")
    rig.inq.append(b"SNAP\n")
    rig.sweep()
    errs = [f for _, k, f in rig.take() if k == "ERR"]
    assert errs == [["bad reader", "7"], ["bad hold", "-5"], ["bad hold", "want HOLD reader-or-ALL ms"],
                    ["unknown command", "FROB"], ["bad checksum", "95"], ["no $", ""]], errs


def check_commands_split_across_reads_and_noise_before_dollar():
    rig = Rig(1)
    rig.take()
    line = hubproto.frame("SNAP").encode()
    rig.inq.append(b"\x03garbage" + line[:3])
    rig.sweep()
    assert "SYNC" not in kinds(rig.take())
    rig.inq.append(line[3:])
    rig.sweep()
    assert "SYNC" in kinds(rig.take())
    rig.inq.append(hubproto.frame("SNAP").encode().replace(b"\n", b"\r"))  # Enter in a terminal
    rig.sweep()
    assert "SYNC" in kinds(rig.take())


def check_snapshot_reports_every_reader_now():
    rig = Rig(3)
    rig.take()
    rig.chips[0].add_tag("DEADBEEF")
    rig.chips[2].add_tag("04A1B2C3D4E5F6")
    rig.chips[2].add_tag("04A1B2C3D4E5F7")
    rig.sweep()
    rig.take()
    rig.command("SNAP")
    rig.sweep()
    got = rig.take()
    ks = kinds(got)
    i = ks.index("HELLO")
    assert ks[i:i + 5] == ["HELLO", "STATE", "STATE", "STATE", "SYNC"], ks
    assert states(got[i:]) == [(0, ["DEADBEEF"]), (1, []), (2, ["04A1B2C3D4E5F6", "04A1B2C3D4E5F7"])]


def check_reset_answers_then_stops_the_loop():
    rig = Rig(1)
    rig.take()
    rig.command("RESET")
    try:
        rig.sweep()
    except hub.ResetRequested:
        pass
    else:
        raise AssertionError("RESET did not stop the loop")
    assert [(k, f) for _, k, f in rig.take()] == [("OK", ["RESET"])]


def check_unplugged_reader_is_a_fault_then_recovers():
    rig = Rig(2)
    rig.take()
    rig.chips[1].add_tag("DEADBEEF")
    rig.sweep()
    rig.take()
    rig.chips[1].connected = False
    rig.sweep()
    rig.sweep()
    got = rig.take()
    assert [(k, f[0]) for _, k, f in got] == [("FAULT", "1")], got   # once, not every sweep
    rig.command("SNAP")
    rig.sweep()
    assert [(k, f[0]) for _, k, f in rig.take() if k in ("FAULT", "STATE")] == [
        ("STATE", "0"), ("FAULT", "1")]
    rig.chips[1].connected = True
    rig.chips[1].hard_reset()               # it lost power: init again
    rig.sweep()
    assert states(rig.take()) == [(1, ["DEADBEEF"])]


def check_missing_reader_reads_ff_and_is_a_fault():
    rig = Rig(2)
    rig.take()
    del machine._chips[CS[1]]               # nothing drives MISO: it floats high
    rig.sweep()
    assert [(k, f) for _, k, f in rig.take()] == [("FAULT", ["1", "no answer (version 0xFF)"])]


def check_heartbeat_once_a_second():
    rig = Rig(2)
    rig.take()
    for _ in range(25):                      # 25 sweeps of 2 x 20 ms = 1 s
        rig.sweep(20)
    hbs = [f for _, k, f in rig.take() if k == "HB"]
    assert len(hbs) == 1, hbs
    uptime, sweep_ms, sweeps = [int(x) for x in hbs[0]]
    assert uptime == 1000 and sweep_ms == 40 and sweeps >= 24, hbs


def check_sixteen_readers_on_one_bus_and_the_watchdog_is_fed():
    rig = Rig(16)
    rig.take()
    rig.chips[0].add_tag("DEADBEEF")
    rig.chips[15].add_tag("04A1B2C3D4E5F6")
    rig.chips[7].add_tag("CAFEBABE")
    rig.chips[7].add_tag("0411223344556F")
    feeds = rig.wdt.feeds
    rig.sweep(5)
    assert rig.wdt.feeds - feeds == 16
    assert states(rig.take()) == [(0, ["DEADBEEF"]), (7, ["0411223344556F", "CAFEBABE"]),
                                  (15, ["04A1B2C3D4E5F6"])]


def check_lines_stay_short_with_a_full_field():
    rig = Rig(16)
    rig.take()
    for k in range(rc522.MAX_TAGS):
        rig.chips[15].add_tag(f"04A1B2C3D4E5{k:02X}")
    rig.sweep()
    out = list(rig.out)
    assert states(rig.take())[0][1][-1] == f"04A1B2C3D4E5{rc522.MAX_TAGS - 1:02X}"
    assert max(len(x) for x in out) <= hubproto.MAX_LINE


def keys(lines):
    return [(int(f[0]), f[1], int(f[2])) for _, k, f in lines if k == "KEY"]


def check_snapshot_says_how_many_buttons_and_each_ones_state():
    rig = Rig(2, keys=6)
    got = rig.take()
    assert kinds(got) == ["HELLO", "STATE", "STATE"] + ["KEY"] * 6 + ["SYNC"], got
    assert got[0][2][4] == "6", got[0]
    assert keys(got) == [(i, "UP", 0) for i in range(6)]
    rig.key(4, True)
    rig.step()
    rig.take()
    rig.command("SNAP")
    rig.step(30)
    got = rig.take()
    assert keys(got) == [(0, "UP", 0), (1, "UP", 0), (2, "UP", 0), (3, "UP", 0), (4, "DOWN", 1), (5, "UP", 0)]
    assert kinds(got)[-1] == "SYNC"


def check_press_and_release_are_reported_at_once():
    rig = Rig(1, keys=3)
    rig.take()
    rig.key(1, True)
    rig.step()
    assert keys(rig.take()) == [(1, "DOWN", 1)]
    rig.step(100)
    assert keys(rig.take()) == []            # held: nothing new
    rig.key(1, False)
    rig.step()
    assert keys(rig.take()) == [(1, "UP", 1)]
    rig.step(100)
    rig.key(1, True)
    rig.step()
    assert keys(rig.take()) == [(1, "DOWN", 2)]


def check_a_bouncing_contact_is_one_press():
    rig = Rig(1, keys=1)
    rig.take()
    rig.key(0, True)                         # the first edge counts, with no delay
    rig.step(1)
    for level in (False, True, False, True):  # bounces within the lockout
        rig.key(0, level)
        rig.step(2)
    rig.step(30)
    assert keys(rig.take()) == [(0, "DOWN", 1)]
    rig.key(0, False)                        # the release bounces too
    rig.step(1)
    rig.key(0, True)
    rig.step(2)
    rig.key(0, False)
    rig.step(2)
    rig.step(30)
    assert keys(rig.take()) == [(0, "UP", 1)]


def check_a_release_inside_the_lockout_is_reported_when_it_ends():
    rig = Rig(1, keys=1)
    rig.take()
    rig.key(0, True)
    rig.step(1)
    rig.key(0, False)                        # a tap shorter than the lockout
    rig.step(5)
    assert keys(rig.take()) == [(0, "DOWN", 1)]
    rig.step(hub.KEY_LOCKOUT_MS)
    assert keys(rig.take()) == [(0, "UP", 1)]


class PressingChip(RC522Chip):
    """An emulated reader during whose scan a finger presses button 0."""

    press_after = None                       # transfers into the scan, then the press

    def xfer2(self, data):
        if PressingChip.press_after is not None:
            PressingChip.press_after -= 1
            if PressingChip.press_after == 0:
                PressingChip.pressed_at = machine.transfers
                machine.set_level(KEYS[0], 0)
        return super().xfer2(data)


def check_a_press_during_a_scan_is_reported_before_the_scan_ends():
    rig = Rig(2, keys=1, chip=PressingChip)
    rig.chips[1].add_tag("04A1B2C3D4E5F6")
    rig.sweep()
    rig.take()
    rig.chips[1].add_tag("DEADBEEF")         # a scan of two tags: long, with waits for answers
    start = machine.transfers
    rig.step()                               # reader 0
    rig.clock.advance(20)
    PressingChip.press_after = 6             # early in reader 1's scan
    rig.hub.step()
    PressingChip.press_after = None
    end = machine.transfers
    lines = list(zip(rig.out, rig.at))
    got = rig.take()
    assert [k for _, k, _ in got] == ["KEY", "STATE"], got
    key_at = lines[0][1]
    # Reported at the next wait for the chip (at most one frame's set-up: 7
    # register writes and up to 9 FIFO bytes later), long before the scan's end.
    assert key_at - PressingChip.pressed_at <= 16, (key_at, PressingChip.pressed_at)
    assert end - key_at > 30, (start, key_at, end)


def check_no_buttons_no_key_lines():
    rig = Rig(2)
    machine.set_level(KEYS[0], 0)
    rig.sweep()
    assert keys(rig.take()) == []
    machine.set_level(KEYS[0], 1)


checklib.run(globals())
