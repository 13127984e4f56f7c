"""The hub connection against the real firmware (MicroPython, emulated readers) over a
pseudo-terminal pair standing in for the USB serial device.

A relay copies the firmware's stdout to the pty master and the master to the
firmware's stdin; it can drop or damage a line on the way, and "unplug" by
closing the master (the host then sees exactly pyserial's unplug error).
"""

from __future__ import annotations

import contextlib
import os
import pty
import queue
import select
import subprocess
import threading
import time
import tty
from collections.abc import Callable, Iterator
from types import SimpleNamespace

import pytest
import serial

from drivers.base import ReaderError
from drivers.events import HardwareEvent, ReaderFault, ReaderRecovered, TagArrived, TagLeft
from drivers.hub import HubConnection, open_exclusive
from drivers.hub import factory as hub_factory
from drivers.watcher import Watcher, WatcherSettings
from tests.firmware import mpy_run

HARNESS = mpy_run.FIRMWARE / "tests-support" / "run_unix.py"
HEARTBEAT_MS = 200


class Relay:
    def __init__(self, readers: int = 2) -> None:
        self.proc = subprocess.Popen(
            mpy_run.command(HARNESS, str(readers), str(HEARTBEAT_MS)),
            env=mpy_run.env(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self._lock = threading.Lock()
        self._faults: list[tuple[str, Callable[[bytes], bool]]] = []
        self.dropped: list[bytes] = []
        self.lines: list[bytes] = []  # every line the firmware sent
        self.damaged: list[bytes] = []
        self.master: int | None = None
        self.slave: int | None = None
        self.path: str | None = None
        self.plug()
        self._stop = False
        self._threads = [
            threading.Thread(target=self._up, daemon=True),
            threading.Thread(target=self._down, daemon=True),
        ]
        for t in self._threads:
            t.start()

    # --- the cable ---
    def plug(self) -> None:
        master, slave = pty.openpty()
        tty.setraw(slave)  # no echo, no newline translation
        with self._lock:
            self.master, self.slave, self.path = master, slave, os.ttyname(slave)

    def unplug(self) -> None:
        with self._lock:
            master, slave = self.master, self.slave
            self.master = self.slave = self.path = None
        for fd in (master, slave):
            if fd is not None:
                os.close(fd)

    def find(self) -> str | None:
        return self.path

    # --- the table and the line ---
    def table(self, action: str) -> None:
        """A "!" line for the firmware harness: ADD,r,UID  DEL,r,UID  BOOT ..."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"!" + action.encode() + b"\n")
        self.proc.stdin.flush()

    def drop_next(self, kind: str) -> None:
        self._faults.append(("drop", lambda line: f",{kind}".encode() in line))

    def damage_next(self, kind: str) -> None:
        self._faults.append(("damage", lambda line: f",{kind}".encode() in line))

    def _up(self) -> None:
        # firmware -> host
        assert self.proc.stdout is not None
        for line in iter(self.proc.stdout.readline, b""):
            self.lines.append(line)
            with self._lock:
                for i, (what, pred) in enumerate(self._faults):
                    if pred(line):
                        del self._faults[i]
                        if what == "drop":
                            self.dropped.append(line)
                            line = b""
                        else:
                            self.damaged.append(line)
                            mid = len(line) // 2  # one character changed, as line noise would
                            swap = b"0" if line[mid : mid + 1] != b"0" else b"1"
                            line = line[:mid] + swap + line[mid + 1 :]
                        break
                master = self.master
            if line and master is not None:
                with contextlib.suppress(OSError):
                    os.write(master, line)  # unplugged: the line is lost, as on USB

    def _down(self) -> None:
        # host -> firmware
        assert self.proc.stdin is not None
        while not self._stop:
            master = self.master
            if master is None:
                time.sleep(0.01)
                continue
            try:
                ready, _, _ = select.select([master], [], [], 0.05)
                data = os.read(master, 1024) if ready else b""
            except OSError:
                time.sleep(0.01)
                continue
            if data:
                try:
                    self.proc.stdin.write(data)
                    self.proc.stdin.flush()
                except (BrokenPipeError, ValueError):
                    return

    def close(self) -> str:
        self._stop = True
        self.unplug()
        self.proc.kill()
        _, err = self.proc.communicate(timeout=5)
        return err.decode(errors="replace")


@pytest.fixture
def rig() -> Iterator[tuple[Relay, HubConnection]]:
    relay = Relay(readers=2)
    conn = HubConnection(
        finder=relay.find, opener=open_exclusive, backoff_min=0.05, backoff_max=0.2, snapshot_retry=0.5
    )
    conn.start()
    try:
        yield relay, conn
    finally:
        conn.close()
        err = relay.close()
        assert "Traceback" not in err, err


def eventually(check: Callable[[], object], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    last: BaseException | None = None
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except (ReaderError, AssertionError) as e:
            last = e
        time.sleep(0.01)
    raise AssertionError(f"not true within {timeout} s (last error: {last!r})")


def fails(reader) -> bool:
    try:
        reader.poll()
    except ReaderError:
        return True
    return False


def test_real_firmware_lines_lost_damaged_and_unplugged(rig: tuple[Relay, HubConnection]) -> None:
    relay, conn = rig
    pad0, pad1 = conn.reader(0), conn.reader(1)
    assert conn.wait_synced(5), conn.last_error
    assert conn.info is not None and conn.info.readers == 2 and conn.info.protocol == "2"
    assert pad0.poll() == frozenset() and pad1.poll() == frozenset()

    # The port is ours alone.
    assert relay.path is not None
    with pytest.raises(serial.SerialException):
        serial.Serial(relay.path, exclusive=True)

    conn.set_hold(None, 50)
    relay.table("ADD,1,04A1B2C3D4E5F6")
    eventually(lambda: pad1.poll() == {"04A1B2C3D4E5F6"})

    # A lost line: the STATE never arrives; the next line shows the gap, a snapshot brings it.
    relay.drop_next("STATE")
    relay.table("ADD,0,DEADBEEF")
    eventually(lambda: pad0.poll() == {"DEADBEEF"})
    assert relay.dropped and conn.stats.gaps >= 1 and conn.stats.lost_lines >= 1

    # A damaged line: the checksum catches it, a snapshot repairs it.
    relay.damage_next("STATE")
    relay.table("DEL,0,DEADBEEF")
    eventually(lambda: pad0.poll() == frozenset())
    assert relay.damaged and conn.stats.bad_checksums >= 1

    # Unplug: polls fail at once; the table changes meanwhile; replug: nothing is lost.
    relay.unplug()
    eventually(lambda: fails(pad1))
    with pytest.raises(ReaderError, match="not connected"):
        pad1.poll()
    relay.table("ADD,1,CAFEBABE")
    relay.table("ADD,0,12345678")
    time.sleep(0.3)  # a few reconnect attempts find nothing
    relay.plug()
    eventually(lambda: pad1.poll() == {"04A1B2C3D4E5F6", "CAFEBABE"})
    assert pad0.poll() == {"12345678"}
    assert conn.stats.connects == 2 and conn.stats.disconnects == 1
    assert conn.stats.hub_errors == 0, conn.last_error


def test_real_firmware_reboots_and_reset(rig: tuple[Relay, HubConnection]) -> None:
    relay, conn = rig
    pad1 = conn.reader(1)
    assert conn.wait_synced(5), conn.last_error
    relay.table("ADD,1,04A1B2C3D4E5F6")
    eventually(lambda: pad1.poll() == {"04A1B2C3D4E5F6"})

    # Unplugged and powered down while away: the hub boots again on replug.
    relay.unplug()
    eventually(lambda: fails(pad1))
    relay.table("BOOT")
    relay.table("ADD,1,CAFEBABE")
    relay.plug()
    eventually(lambda: pad1.poll() == {"04A1B2C3D4E5F6", "CAFEBABE"})

    # RESET from the Pi: OK, reboot, HELLO with seq 0; not counted as a lost line.
    gaps = conn.stats.gaps
    synced = conn.stats.snapshots_received
    conn.reset_hub()
    eventually(lambda: conn.stats.snapshots_received > synced)
    eventually(lambda: pad1.poll() == {"04A1B2C3D4E5F6", "CAFEBABE"})
    assert conn.stats.gaps == gaps
    assert conn.stats.bad_checksums == 0 and conn.stats.hub_errors == 0


def test_watcher_gets_events_from_hub_readers(rig: tuple[Relay, HubConnection]) -> None:
    # Hub readers feed the same watcher as the SPI readers.
    relay, conn = rig
    assert conn.wait_synced(5), conn.last_error
    conn.set_hold(None, 100)
    events: queue.Queue[HardwareEvent] = queue.Queue()
    watcher = Watcher(
        [conn.reader(0, "seat1.pad"), conn.reader(1, "zone.north")],
        events,
        WatcherSettings(interval=0.01, retry_interval=0.05, max_retry_interval=0.1),
    )
    got: list[HardwareEvent] = []

    def run_until(pred: Callable[[list[HardwareEvent]], bool], timeout: float = 5.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            got.extend(watcher.step())
            if pred(got):
                return
            time.sleep(0.01)
        raise AssertionError(f"events so far: {got}")

    relay.table("ADD,1,04A1B2C3D4E5F6")
    run_until(lambda ev: any(isinstance(e, TagArrived) for e in ev))
    assert [(e.reader, e.uid) for e in got if isinstance(e, TagArrived)] == [("zone.north", "04A1B2C3D4E5F6")]

    relay.unplug()
    run_until(lambda ev: sum(isinstance(e, ReaderFault) for e in ev) == 2)
    relay.plug()
    run_until(lambda ev: sum(isinstance(e, ReaderRecovered) for e in ev) == 2)
    relay.table("DEL,1,04A1B2C3D4E5F6")
    run_until(lambda ev: any(isinstance(e, TagLeft) for e in ev))
    # The tag stayed through the unplug: it arrived once and left once.
    assert [type(e).__name__ for e in got if isinstance(e, TagArrived | TagLeft)] == ["TagArrived", "TagLeft"]


def test_profile_readers_share_one_connection() -> None:
    relay = Relay(readers=2)
    try:
        assert relay.path is not None
        profile = SimpleNamespace(hubs=(SimpleNamespace(name="hub1", port=relay.path, hold_ms=0),))
        pad = hub_factory.open_reader(SimpleNamespace(name="seat1.pad", hub="hub1", index=0), profile)
        zone = hub_factory.open_reader(SimpleNamespace(name="zone.n", hub=None, index=1), profile)
        assert pad.hub is zone.hub and pad.hub.synced
        # The profile's hold time reached the firmware, which carried it out.
        eventually(lambda: any(b",OK,HOLD,ALL,0*" in line for line in relay.lines))
        relay.table("ADD,1,DEADBEEF")
        eventually(lambda: zone.poll() == {"DEADBEEF"})
        assert pad.poll() == frozenset()
        pad.close()
        assert zone.hub.connected          # still in use by the zone reader
        zone.close()
        assert not zone.hub.connected
        with pytest.raises(ValueError, match=r"'hub9' is not declared.*add a \[\[hubs"):
            hub_factory.open_reader(SimpleNamespace(name="x", hub="hub9", index=0), profile)
    finally:
        hub_factory.close_all()
        relay.close()
