"""Readers through the RP2040 hub: the firmware's scans and full sweeps of 16
readers (its own code under MicroPython's unix port, on emulated RC522s), the
host driver against that firmware over a pty with 16 readers, and the host's
line-handling cost. The hub's buttons: how long a press can wait in the
firmware's loop (register accesses between two polls), a press to its
ButtonPressed over the pty, and the host's cost of a KEY line.

    python -m bench.bench_hub [--quick]

Timings of the firmware here are the unix port on this machine, not an
RP2040: the transfer counts carry over, the compute milliseconds do not. A
sweep "with the field timing" keeps the firmware's own waits for tags to power
up (FIELD_ON_MS, FIELD_OFF_MS, overlapped with the previous reader's scan):
those are real milliseconds on the board too.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # tests/ holds the firmware runner and the pty relay

from bench.common import Row, main  # noqa: E402
from drivers.hub import HubConnection, open_exclusive, protocol  # noqa: E402
from tests.drivers.test_hub_pty import Relay, eventually  # noqa: E402
from tests.firmware import mpy_run  # noqa: E402

AREA = "readers"
READERS = 16

SCAN_SCRIPT = """
import time, machine, rc522
from rc522_emulator import RC522Chip
rc522.FIELD_ON_MS = 0
rc522.FIELD_OFF_MS = 0
cases = (("empty field", []), ("one 4-byte UID", ["DEADBEEF"]), ("one 7-byte UID", ["04A1B2C3D4E5F6"]),
         ("three tags, 4+7+7", ["DEADBEEF", "04A1B2C3D4E5F6", "04112233445566"]),
         ("four tags, 4- and 7-byte", ["04A1B2C3D4E5F6", "04A1B2C3D4E5F7", "DEADBEEF", "DEADBEEE"]),
         ("six tags, 4+4+4+7+7+7", ["DEADBEEF", "DEADBEEE", "01A55A10", "04A1B2C3D4E5F6",
                                   "04A1B2C3D4E5F7", "04112233445566"]))
n = int(NSCANS)
for label, uids in cases:
    machine.detach_all()
    chip = RC522Chip()
    machine.attach(17, chip)
    r = rc522.RC522(machine.SPI(0), machine.Pin(17, machine.Pin.OUT, value=1))
    r.init()
    for u in uids:
        chip.add_tag(u)
    t0 = chip.transfers
    us = time.ticks_us()
    for _ in range(n):
        assert len(r.scan()) == len(uids)
    us = time.ticks_diff(time.ticks_us(), us)
    print("ROW|scan|%s|%d|%.3f" % (label, (chip.transfers - t0) // n, us / n / 1000))
"""

SWEEP_SCRIPT = """
import time, machine, hub, main, rc522
from rc522_emulator import RC522Chip
n = int(NSWEEPS)
field = (rc522.FIELD_ON_MS, rc522.FIELD_OFF_MS)
for label, tagged, timing in (("empty fields", False, False), ("a 7-byte tag on each", True, False),
                              ("empty fields, with the field timing", False, True),
                              ("a 7-byte tag on each, with the field timing", True, True)):
    rc522.FIELD_ON_MS, rc522.FIELD_OFF_MS = field if timing else (0, 0)
    machine.detach_all()
    chips = []
    for i, pin in enumerate(main.CS_PINS[:READERS]):
        chip = RC522Chip()
        machine.attach(pin, chip)
        if tagged:
            chip.add_tag("04A1B2C3D4E5%02X" % i)
        chips.append(chip)
    spi = machine.SPI(0)
    drivers = [rc522.RC522(spi, machine.Pin(p, machine.Pin.OUT, value=1)) for p in main.CS_PINS[:READERS]]
    lines = []
    h = hub.Hub(drivers, lines.append, heartbeat_ms=10 ** 9)
    for _ in range(READERS):
        h.step()  # the first sweep sets every chip up
    t0 = sum(c.transfers for c in chips)
    us = time.ticks_us()
    for _ in range(n * READERS):
        h.step()
    us = time.ticks_diff(time.ticks_us(), us)
    seen = sum(len(s.reported) for s in h.slots)
    per = (sum(c.transfers for c in chips) - t0) // n
    print("ROW|sweep|%s|%d|%.3f|%d" % (label, per, us / n / 1000, seen))
"""


KEYGAP_SCRIPT = """
import time, machine, hub, main, rc522
from rc522_emulator import RC522Chip
rc522.FIELD_ON_MS = 0
rc522.FIELD_OFF_MS = 0
n = int(NSWEEPS)
cases = (("empty fields", 0), ("a 7-byte tag on each", 1), ("six tags on each", 6))
for label, tags in cases:
    machine.detach_all()
    chips = []
    for i, pin in enumerate(main.CS_PINS[:READERS]):
        chip = RC522Chip()
        machine.attach(pin, chip)
        for k in range(tags):
            chip.add_tag("04A1B2C3D4%02X%02X" % (i, k))
        chips.append(chip)
    spi = machine.SPI(0)
    drivers = [rc522.RC522(spi, machine.Pin(p, machine.Pin.OUT, value=1)) for p in main.CS_PINS[:READERS]]
    keys = [machine.Pin(p, machine.Pin.IN, machine.Pin.PULL_UP) for p in main.KEY_PINS]
    h = hub.Hub(drivers, lambda line: None, heartbeat_ms=10 ** 9, keys=keys)
    for _ in range(READERS):
        h.step()
    polls = [0, 0, machine.transfers]   # polls, longest gap in transfers, transfers at the last poll
    poll_keys = h.poll_keys

    def counted():
        gap = machine.transfers - polls[2]
        if gap > polls[1]:
            polls[1] = gap
        polls[2] = machine.transfers
        polls[0] += 1
        poll_keys()

    h.poll_keys = counted
    for d in drivers:
        d.idle = counted
    t0 = machine.transfers
    us = time.ticks_us()
    for _ in range(n * READERS):
        h.step()
    us = time.ticks_diff(time.ticks_us(), us)
    total = machine.transfers - t0
    # The cost of one poll of the six buttons, in the same interpreter.
    k = 2000
    pus = time.ticks_us()
    for _ in range(k):
        poll_keys()
    pus = time.ticks_diff(time.ticks_us(), pus)
    print("ROW|keys|%s|%d|%d|%d|%.2f|%.2f" % (label, polls[1], total // n, polls[0] // n,
                                               us / total, pus / k))
"""


def micropython_rows(script: str, **values: int) -> list[list[str]]:
    """Runs ``script`` on the unix port; its ``ROW|...`` lines, split."""
    for name, value in values.items():
        script = script.replace(name, str(value))
    # A private folder: the script's folder comes first on MicroPython's path.
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "hub_bench.py"
        path.write_text(script)
        done = mpy_run.run(path, timeout=120)
    if done.returncode:
        raise RuntimeError(f"micropython {path.name} failed:\n{done.stdout}{done.stderr}")
    return [line.split("|")[1:] for line in done.stdout.splitlines() if line.startswith("ROW|")]


def firmware(quick: bool) -> list[Row]:
    rows = []
    for _kind, label, transfers, ms in micropython_rows(SCAN_SCRIPT, NSCANS=5 if quick else 50):
        rows.append(Row(AREA, f"hub firmware, one reader, {label}: SPI transfers", float(transfers),
                        "transfers/scan", note=f"{float(ms):.2f} ms a scan on the unix port"))
    sweeps = micropython_rows(SWEEP_SCRIPT.replace("READERS", str(READERS)), NSWEEPS=2 if quick else 20)
    for _kind, label, transfers, ms, seen in sweeps:
        what = f"hub firmware, sweep of {READERS} readers, {label}"
        if "timing" not in label:
            rows.append(Row(AREA, f"{what}: SPI transfers", float(transfers), "transfers/sweep"))
        rows.append(Row(AREA, f"{what}: time on the unix port", float(ms), "ms/sweep",
                        note=f"{seen} of {READERS} tags reported" if "tag" in label else ""))
    return rows


def until(check: Callable[[], bool], timeout: float = 5.0) -> None:
    """Like eventually(), polling every millisecond, as a watcher would at most."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.001)
    raise RuntimeError("the hub did not report it within 5 s")


def host_over_pty(placements: int, replugs: int) -> list[Row]:
    relay = Relay(readers=READERS)
    conn = HubConnection(finder=relay.find, opener=open_exclusive, backoff_min=0.05, backoff_max=0.2)
    conn.start()
    try:
        if not conn.wait_synced(10):
            raise RuntimeError(f"the hub never synced: {conn.last_error}")
        conn.set_hold(None, 0)
        pads = [conn.reader(i) for i in range(READERS)]
        arrive, leave = [], []
        for k in range(placements):
            pad, uid = pads[k % READERS], f"04A1B2C3D4{k:04X}"
            t0 = time.monotonic()
            relay.table(f"ADD,{pad.index},{uid}")
            until(lambda pad=pad, uid=uid: uid in pad.poll())
            arrive.append(time.monotonic() - t0)
            t0 = time.monotonic()
            relay.table(f"DEL,{pad.index},{uid}")
            until(lambda pad=pad, uid=uid: uid not in pad.poll())
            leave.append(time.monotonic() - t0)
        until(lambda: conn.heartbeat is not None)
        sweep_ms = conn.heartbeat.sweep_ms if conn.heartbeat else 0
        t0 = time.perf_counter()
        for _ in range(1000):
            for pad in pads:
                pad.poll()
        poll_us = (time.perf_counter() - t0) / 1000 * 1e6
        recover = []
        for _ in range(replugs):
            relay.unplug()
            eventually(lambda: not conn.connected)
            t0 = time.monotonic()
            relay.plug()
            until(lambda: conn.synced)
            recover.append(time.monotonic() - t0)
    finally:
        conn.close()
        relay.close()
    where = f"host driver and firmware over a pty, {READERS} readers"
    return [
        Row(AREA, f"{where}: tag placed -> poll() shows it, median", statistics.median(arrive) * 1e3, "ms",
            note=f"{placements} placements over the {READERS} readers, hold 0; "
                 f"worst {max(arrive) * 1e3:.1f} ms, tag removed -> poll() drops it median "
                 f"{statistics.median(leave) * 1e3:.1f} ms; "
                 f"the firmware's last heartbeat says {sweep_ms} ms a sweep (unix port, field timing)"),
        Row(AREA, f"{where}: tag placed -> poll() shows it, worst", max(arrive) * 1e3, "ms"),
        Row(AREA, f"{where}: poll() of all {READERS} readers", poll_us, "us"),
        Row(AREA, f"{where}: replug -> synced again", statistics.median(recover) * 1e3, "ms",
            note=f"median of {replugs}, backoff 50-200 ms"),
    ]


def host_parse_cost(n: int) -> Row:
    lines = []
    for seq in range(n):
        body = f"{seq % protocol.SEQ_MOD},STATE,{seq % READERS},04A1B2C3D4E5F6,DEADBEEF"
        lines.append(f"${body}*{protocol.crc8(body):02X}\r\n".encode())
    conn = HubConnection(finder=lambda: None)
    t0 = time.perf_counter()
    conn._feed(b"".join(lines))
    elapsed = time.perf_counter() - t0
    if conn.stats.lines != n or conn.stats.gaps:
        raise RuntimeError(f"the host took {conn.stats.lines} of {n} lines, {conn.stats.gaps} gaps")
    return Row(AREA, "host driver: one STATE line handled", elapsed / n * 1e6, "us",
               note=f"{n / elapsed:,.0f} lines/s")


def firmware_key_polls(quick: bool) -> list[Row]:
    """How long a press can wait in the firmware before it is read: the longest run of
    register accesses between two polls of the buttons, over sweeps of 16 readers."""
    rows = []
    for _kind, label, gap, per_sweep, polls, us_per, poll_us in micropython_rows(
            KEYGAP_SCRIPT.replace("READERS", str(READERS)), NSWEEPS=1 if quick else 10):
        rows.append(Row(AREA, f"hub firmware, buttons, {READERS} readers, {label}: longest run of register "
                              "accesses between two polls of the buttons", float(gap), "transfers",
                        note=f"{polls} polls in a sweep of {per_sweep} transfers; on the unix port "
                             f"{float(us_per):.1f} us a transfer (the emulator's Python included), "
                             f"{float(poll_us):.1f} us a poll of the six buttons"))
    return rows


def key_to_event(presses: int) -> list[Row]:
    """A button pressed on the firmware's pin -> ButtonPressed on the host's queue, through
    the firmware on the unix port, a pty and the host's reader thread (this machine)."""
    from queue import Empty, Queue

    from drivers.hub import HubButton

    relay = Relay(readers=READERS)
    conn = HubConnection(finder=relay.find, opener=open_exclusive, backoff_min=0.05, backoff_max=0.2)
    conn.start()
    events: Queue = Queue()
    took = []
    try:
        if not conn.wait_synced(10):
            raise RuntimeError(f"the hub never synced: {conn.last_error}")
        button = HubButton("seat3.ok", conn, 1, events)
        for _ in range(presses):
            time.sleep(0.03)  # apart: the firmware's 20 ms lockout is over
            t0 = time.monotonic()
            relay.table("KEY,1,DOWN")
            try:
                events.get(timeout=5)
            except Empty:
                raise RuntimeError("no ButtonPressed within 5 s") from None
            took.append(time.monotonic() - t0)
            relay.table("KEY,1,UP")
            until(lambda: not button.is_pressed)
        button.close()
    finally:
        conn.close()
        relay.close()
    took.sort()
    where = f"host driver and firmware over a pty, {READERS} readers (empty)"
    return [
        Row(AREA, f"{where}: button pressed -> ButtonPressed on the queue, median",
            statistics.median(took) * 1e3, "ms",
            note=f"{presses} presses; p90 {took[int(len(took) * 0.9)] * 1e3:.1f} ms, worst "
                 f"{took[-1] * 1e3:.1f} ms: the unix port's loop and the relay's two thread hops "
                 "here, not a Pico's"),
        Row(AREA, f"{where}: button pressed -> ButtonPressed on the queue, worst", took[-1] * 1e3, "ms"),
    ]


def host_key_cost(n: int) -> Row:
    """One KEY line read to its ButtonPressed put on the queue, on the host (CPU here)."""
    from queue import SimpleQueue

    from drivers.hub import HubButton

    lines = []
    for k in range(n):
        down = k % 2 == 0
        body = f"{k % protocol.SEQ_MOD},KEY,1,{'DOWN' if down else 'UP'},{(k // 2 + 1) % protocol.SEQ_MOD}"
        lines.append(f"${body}*{protocol.crc8(body):02X}\r\n".encode())
    conn = HubConnection(finder=lambda: None)
    conn._keys[1] = (False, 0)
    events: SimpleQueue = SimpleQueue()
    button = HubButton("seat3.ok", conn, 1, events, hold_time=60)
    t0 = time.perf_counter()
    for line in lines:
        conn._feed(line)
    elapsed = time.perf_counter() - t0
    button.close()
    if events.qsize() != n // 2:
        raise RuntimeError(f"{events.qsize()} presses reported of {n // 2}")
    return Row(AREA, "host driver: one KEY line handled, its ButtonPressed on the queue", elapsed / n * 1e6,
               "us", note="a press and a release alternate; the press wakes the button's hold thread")


def tty_to_reader(n: int) -> Row:
    """A line written to a tty -> the hub connection's reader thread has it parsed: the
    kernel's tty path and a thread's wake-up, here (a pty standing in for cdc-acm)."""
    import os
    import pty
    import threading
    import tty

    master, slave = pty.openpty()
    tty.setraw(slave)
    path = os.ttyname(slave)
    conn = HubConnection(finder=lambda: path, opener=open_exclusive)
    got = threading.Event()
    conn.on_key(0, lambda down, at: got.set())
    conn.start()
    took = []
    try:
        until(lambda: conn.connected)
        conn._keys[0] = (False, 0)  # as after a snapshot: the lines below are edges
        for k in range(n):
            body = f"{k},KEY,0,{'DOWN' if k % 2 == 0 else 'UP'},{k // 2 + 1}"
            line = f"${body}*{protocol.crc8(body):02X}\r\n".encode()
            got.clear()
            time.sleep(0.002)
            t0 = time.perf_counter()
            os.write(master, line)
            if not got.wait(5):
                raise RuntimeError("the reader thread never had the line")
            took.append(time.perf_counter() - t0)
    finally:
        conn.close()
        os.close(master)
        os.close(slave)
    took.sort()
    return Row(AREA, "host driver: a KEY line written to a tty -> its edge handled on the reader thread, "
                     "median", statistics.median(took) * 1e6, "us",
               note=f"{n} lines; p99 {took[int(n * 0.99)] * 1e6:.0f} us (a pty for the hub's cdc-acm tty: "
                    "the kernel's tty path, the reader thread's wake-up, the parse)")


def measure(quick: bool) -> list[Row]:
    return [
        *firmware(quick),
        *host_over_pty(placements=4 if quick else 48, replugs=1 if quick else 5),
        host_parse_cost(2000 if quick else 20000),
        *firmware_key_polls(quick),
        *key_to_event(presses=5 if quick else 100),
        host_key_cost(2000 if quick else 20000),
        tty_to_reader(50 if quick else 1000),
    ]


if __name__ == "__main__":
    main(measure)
