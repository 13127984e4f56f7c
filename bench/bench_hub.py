"""Reader hub figures: SPI transfers per RC522 scan (the firmware's driver on the
emulator, under MicroPython), tag-to-poll latency and replug recovery of the host
driver against the real firmware over a pty, and the host's line-handling cost.

    .venv/bin/python bench/bench_hub.py

Timings of the firmware here are the unix port on this machine, not an RP2040:
the transfer counts carry over, the milliseconds do not.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from drivers.hub import HubConnection, open_exclusive, protocol  # noqa: E402
from tests.drivers.test_hub_pty import Relay, eventually  # noqa: E402


def until(check, timeout: float = 5.0) -> None:
    """Like eventually(), polling every millisecond, as a watcher would at most."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.001)
    raise AssertionError("timed out")
from tests.firmware import mpy_run  # noqa: E402

SCAN_SCRIPT = """
import time, machine, rc522
from rc522_emulator import RC522Chip
rc522.FIELD_ON_MS = 0
rc522.FIELD_OFF_MS = 0
cases = (("empty field", []), ("one 4-byte UID", ["DEADBEEF"]), ("one 7-byte UID", ["04A1B2C3D4E5F6"]),
         ("four tags, 4- and 7-byte", ["04A1B2C3D4E5F6", "04A1B2C3D4E5F7", "DEADBEEF", "DEADBEEE"]))
for label, uids in cases:
    machine.detach_all()
    chip = RC522Chip()
    machine.attach(17, chip)
    r = rc522.RC522(machine.SPI(0), machine.Pin(17, machine.Pin.OUT, value=1))
    r.init()
    for u in uids:
        chip.add_tag(u)
    n = 50
    t0 = chip.transfers
    us = time.ticks_us()
    for _ in range(n):
        assert len(r.scan()) == len(uids)
    us = time.ticks_diff(time.ticks_us(), us)
    per = (chip.transfers - t0) // n
    print("  %-26s %5d SPI transfers/scan  %7.2f ms/scan (unix port)" % (label, per, us / n / 1000))
"""


def scan_costs() -> None:
    # A private folder: the script's folder comes first on MicroPython's path.
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "hub_scan_bench.py"
        script.write_text(SCAN_SCRIPT)
        done = mpy_run.run(script)
    if done.returncode:
        raise SystemExit(done.stdout + done.stderr)
    print("RC522 scan (firmware driver, emulated chip):")
    print(done.stdout.rstrip())


def live_latency(rounds: int = 15) -> None:
    relay = Relay(readers=4)
    conn = HubConnection(finder=relay.find, opener=open_exclusive, backoff_min=0.05, backoff_max=0.2)
    conn.start()
    try:
        assert conn.wait_synced(5), conn.last_error
        conn.set_hold(None, 0)
        pad = conn.reader(3)
        arrive, leave = [], []
        for k in range(rounds):
            uid = f"04A1B2C3D4E5{k:02X}"
            t0 = time.monotonic()
            relay.table(f"ADD,3,{uid}")
            until(lambda uid=uid: uid in pad.poll())
            arrive.append(time.monotonic() - t0)
            t0 = time.monotonic()
            relay.table(f"DEL,3,{uid}")
            until(lambda uid=uid: uid not in pad.poll())
            leave.append(time.monotonic() - t0)
        recover = []
        for _ in range(5):
            relay.unplug()
            eventually(lambda: not conn.connected)
            t0 = time.monotonic()
            relay.plug()
            until(lambda: conn.synced)
            recover.append(time.monotonic() - t0)
    finally:
        conn.close()
        relay.close()

    def ms(xs: list[float]) -> str:
        return f"median {statistics.median(xs) * 1000:6.1f} ms, max {max(xs) * 1000:6.1f} ms"

    print("Host driver against the firmware over a pty (4 readers, hold 0):")
    print(f"  tag placed -> poll() shows it   {ms(arrive)}  ({rounds} placements)")
    print(f"  tag removed -> poll() drops it  {ms(leave)}")
    print(f"  replug -> synced again          {ms(recover)}  (backoff 50-200 ms)")


def host_parse_cost(n: int = 20000) -> None:
    lines = []
    for seq in range(n):
        body = f"{seq % protocol.SEQ_MOD},STATE,{seq % 16},04A1B2C3D4E5F6,DEADBEEF"
        lines.append(f"${body}*{protocol.crc8(body):02X}\r\n".encode())
    data = b"".join(lines)
    conn = HubConnection(finder=lambda: None)
    t0 = time.perf_counter()
    conn._feed(data)
    dt = time.perf_counter() - t0
    assert conn.stats.lines == n and conn.stats.gaps == 0
    print(f"Host line handling: {n / dt:,.0f} STATE lines/s ({dt / n * 1e6:.1f} us a line) on this machine")


if __name__ == "__main__":
    scan_costs()
    live_latency()
    host_parse_cost()
