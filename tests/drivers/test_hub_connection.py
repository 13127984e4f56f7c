"""The hub connection against a fake hub, stepped by hand on a fake clock."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import SimpleNamespace

import pytest
from serial import SerialException

from drivers.base import ReaderError, TagReader
from drivers.hub import HubConnection, find_hub_port, open_exclusive, protocol
from drivers.hub import port as hub_port

UNPLUG = (
    "device reports readiness to read but returned no data (device disconnected or multiple access on port?)"
)


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t

    def sleep(self, s: float) -> None:
        self.t += s


class FakeHub:
    """Writes hub lines the way the firmware does and answers SNAP/HOLD/RESET."""

    def __init__(self, readers: int = 2, buttons: int | None = None) -> None:
        self.readers = readers
        self.proto = 1 if buttons is None else 2  # protocol 1 firmware has no buttons
        self.buttons = buttons or 0
        self.keys: dict[int, tuple[str, int]] = {i: ("UP", 0) for i in range(self.buttons)}
        self.seq = 0
        self.fields: dict[int, list[str]] = {i: [] for i in range(readers)}
        self.out = bytearray()
        self.commands: list[bytes] = []
        self.drop_next = 0
        self.corrupt_next = 0
        self.hung = False

    def line(self, kind: str, *fields: object) -> None:
        body = ",".join([str(self.seq), kind, *(str(f) for f in fields)])
        self.seq = (self.seq + 1) % protocol.SEQ_MOD
        text = f"${body}*{protocol.crc8(body):02X}\r\n".encode()
        if self.drop_next:
            self.drop_next -= 1
            return
        if self.corrupt_next:
            self.corrupt_next -= 1
            text = text.replace(b"STATE", b"STATF", 1) if b"STATE" in text else text[:3] + b"9" + text[4:]
        self.out += text

    def state(self, i: int, *uids: str) -> None:
        self.fields[i] = sorted(uids)
        self.line("STATE", i, *self.fields[i])

    def key(self, i: int, down: bool) -> None:
        """Button ``i`` goes down or up, reported as the firmware does."""
        presses = self.keys[i][1] + (1 if down else 0)
        self.keys[i] = ("DOWN" if down else "UP", presses)
        self.line("KEY", i, *self.keys[i])

    def snapshot(self) -> None:
        if self.proto == 1:
            self.line("HELLO", self.proto, "0.1.0", self.readers, "B0A4D")
        else:
            self.line("HELLO", self.proto, "0.2.0", self.readers, "B0A4D", self.buttons)
        for i in range(self.readers):
            self.line("STATE", i, *self.fields[i])
        for i in range(self.buttons):
            self.line("KEY", i, *self.keys[i])
        self.line("SYNC", self.readers)

    def boot(self) -> None:
        self.seq = 0
        self.fields = {i: [] for i in range(self.readers)}
        self.keys = {i: ("UP", 0) for i in range(self.buttons)}
        self.snapshot()

    def receive(self, data: bytes) -> None:
        if self.hung:
            return
        for raw in data.splitlines():
            self.commands.append(raw)
            kind = raw[1:].split(b"*")[0].split(b",")[0]
            if kind == b"SNAP":
                self.snapshot()
            elif kind == b"HOLD":
                body = raw[1:].split(b"*")[0].decode()
                self.line("OK", *body.split(","))


class FakePort:
    def __init__(self, hub: FakeHub) -> None:
        self.hub = hub
        self.unplugged = False
        self.closed = False

    @property
    def in_waiting(self) -> int:
        if self.unplugged:
            raise SerialException(UNPLUG)
        return len(self.hub.out)

    def read(self, size: int = 1) -> bytes:
        if self.unplugged or self.closed:
            raise SerialException(UNPLUG)
        data = bytes(self.hub.out[:size])
        del self.hub.out[:size]
        return data

    def write(self, data: bytes) -> int:
        if self.unplugged:
            raise SerialException("write failed: [Errno 5] Input/output error")
        self.hub.receive(data)
        return len(data)

    def close(self) -> None:
        self.closed = True


class Rig:
    def __init__(self, readers: int = 2, buttons: int | None = None, **kw: object) -> None:
        self.clock = Clock()
        self.hub = FakeHub(readers, buttons)
        self.plugged = True
        self.ports: list[FakePort] = []
        self.opens: list[float] = []
        self.conn = HubConnection(
            name="hub",
            finder=self.find,
            opener=self.open,
            clock=self.clock,
            sleep=self.clock.sleep,
            **kw,  # type: ignore[arg-type]
        )

    def find(self) -> str | None:
        self.opens.append(self.clock.t)
        return "/dev/ttyACM0" if self.plugged else None

    def open(self, path: str) -> FakePort:
        if not self.plugged:
            raise SerialException(f"[Errno 2] could not open port {path}")
        p = FakePort(self.hub)
        self.ports.append(p)
        return p

    def steps(self, n: int = 5, dt: float = 0.05) -> None:
        for _ in range(n):
            self.conn.step()
            self.clock.t += dt

    def unplug(self) -> None:
        self.plugged = False
        for p in self.ports:
            p.unplugged = True
        self.hub.out.clear()

    def sent(self) -> list[bytes]:
        got = list(self.hub.commands)
        self.hub.commands.clear()
        return got


def synced_rig(readers: int = 2, buttons: int | None = None, **kw: object) -> Rig:
    rig = Rig(readers, buttons, **kw)
    rig.hub.boot()
    rig.steps(20)
    assert rig.conn.synced
    rig.sent()
    return rig


def test_hub_reader_is_a_tag_reader() -> None:
    rig = synced_rig()
    r = rig.conn.reader(1)
    assert isinstance(r, TagReader)
    assert r.name == "hub.1"
    assert rig.conn.reader(0, name="seat1.pad").name == "seat1.pad"


def test_connect_asks_for_a_snapshot_and_reports_states() -> None:
    rig = Rig(2)
    rig.hub.state(1, "04A1B2C3D4E5F6")  # said before we listened: the snapshot brings it
    rig.hub.out.clear()
    rig.steps(1)
    assert rig.sent() == [protocol.command("SNAP").strip()]
    rig.steps(20)
    assert rig.conn.synced
    assert rig.conn.info is not None and rig.conn.info.readers == 2 and rig.conn.info.firmware == "0.1.0"
    assert rig.conn.reader(0).poll() == frozenset()
    assert rig.conn.reader(1).poll() == frozenset({"04A1B2C3D4E5F6"})
    rig.hub.state(0, "DEADBEEF", "CAFEBABE")
    rig.steps(5)
    assert rig.conn.reader(0).poll() == frozenset({"DEADBEEF", "CAFEBABE"})
    assert rig.conn.stats.gaps == 0 and rig.conn.stats.bad_checksums == 0


def test_polls_fail_until_the_first_snapshot() -> None:
    rig = Rig(2)
    with pytest.raises(ReaderError, match="not connected"):
        rig.conn.reader(0).poll()
    rig.conn.step()  # connected, SNAP sent, nothing read yet
    rig.hub.out.clear()
    with pytest.raises(ReaderError, match="snapshot"):
        rig.conn.reader(0).poll()


def test_lost_line_is_counted_and_a_snapshot_restores_it() -> None:
    rig = synced_rig()
    received = rig.conn.stats.snapshots_received
    rig.hub.drop_next = 1
    rig.hub.state(1, "04A1B2C3D4E5F6")  # lost
    rig.hub.line("HB", 1000, 10, 50)
    rig.steps(1)
    assert rig.conn.heartbeat is not None and rig.conn.heartbeat.sweep_ms == 10
    assert rig.conn.stats.gaps == 1 and rig.conn.stats.lost_lines == 1
    assert protocol.command("SNAP").strip() in rig.sent()
    rig.steps(20)
    assert rig.conn.reader(1).poll() == frozenset({"04A1B2C3D4E5F6"})
    assert rig.conn.stats.snapshots_received == received + 1


def test_corrupted_line_is_counted_and_a_snapshot_restores_it() -> None:
    rig = synced_rig()
    rig.hub.corrupt_next = 1
    rig.hub.state(0, "DEADBEEF")
    rig.steps(3)
    assert rig.conn.stats.bad_checksums == 1
    assert rig.conn.stats.gaps == 0  # the damaged line is not counted twice
    assert rig.conn.reader(0).poll() == frozenset({"DEADBEEF"})


def test_a_snapshot_that_lost_a_line_is_asked_for_again() -> None:
    rig = synced_rig()
    rig.hub.fields[1] = ["CAFEBABE"]
    rig.hub.drop_next = 0
    rig.conn.request_snapshot()
    # Lose the second line of the snapshot (reader 0's STATE): HELLO, [lost], STATE 1, SYNC.
    out = rig.hub.out
    lines = bytes(out).splitlines(keepends=True)
    out.clear()
    out += b"".join(lines[:1] + lines[2:])
    rig.sent()
    rig.steps(10)
    assert rig.conn.stats.gaps == 1
    assert rig.sent().count(protocol.command("SNAP").strip()) == 1  # asked again at its SYNC
    rig.steps(10)
    assert rig.conn.synced
    assert rig.conn.reader(1).poll() == frozenset({"CAFEBABE"})


def test_unplug_then_replug_with_backoff_loses_nothing() -> None:
    rig = synced_rig(backoff_min=0.1, backoff_max=0.8)
    rig.hub.state(0, "DEADBEEF")
    rig.steps(3)
    rig.unplug()
    rig.steps(1)
    with pytest.raises(ReaderError, match=r"not connected.*lost"):
        rig.conn.reader(0).poll()
    assert rig.conn.stats.disconnects == 1
    rig.opens.clear()
    rig.steps(200, dt=0.01)  # two seconds unplugged
    gaps = [round(b - a, 2) for a, b in zip(rig.opens, rig.opens[1:], strict=False)]
    assert gaps[:3] == pytest.approx([0.2, 0.4, 0.8], abs=0.02), gaps
    assert max(gaps) == pytest.approx(0.8, abs=0.02)  # capped
    with pytest.raises(ReaderError, match="no reader hub found"):
        rig.conn.reader(0).poll()
    # While unplugged the pad changed; the hub (same power, a USB glitch) kept counting.
    rig.hub.fields[0] = ["CAFEBABE"]
    rig.hub.seq += 7
    rig.plugged = True
    rig.steps(100, dt=0.01)
    assert rig.conn.stats.connects == 2
    assert rig.conn.reader(0).poll() == frozenset({"CAFEBABE"})
    assert rig.conn.stats.gaps == 0  # the HELLO re-anchors the count


def test_hub_reboot_is_not_a_gap_and_hold_times_are_sent_again() -> None:
    rig = synced_rig()
    rig.conn.set_hold(1, 250)
    rig.conn.set_hold(None, 800)  # all readers: replaces the per-reader one
    assert rig.sent() == [
        protocol.command("HOLD", 1, 250).strip(),
        protocol.command("HOLD", "ALL", 800).strip(),
    ]
    rig.hub.state(0, "DEADBEEF")
    rig.hub.boot()  # watchdog reboot: HELLO with seq 0, empty fields
    rig.steps(20)
    assert rig.conn.stats.gaps == 0
    assert rig.sent() == [protocol.command("HOLD", "ALL", 800).strip()]
    assert rig.conn.reader(0).poll() == frozenset()


def test_silent_hub_makes_polls_fail_and_asks_again() -> None:
    rig = synced_rig(silence_timeout=3.0, snapshot_retry=1.0)
    asked = rig.conn.stats.snapshots_requested
    rig.hub.hung = True
    rig.steps(70, dt=0.05)  # 3.5 s without a line
    with pytest.raises(ReaderError, match=r"silent for \d"):
        rig.conn.reader(0).poll()
    rig.hub.hung = False
    rig.steps(30, dt=0.05)  # the next retry is answered
    rig.conn.reader(0).poll()
    assert 1 <= rig.conn.stats.snapshots_requested - asked <= 3  # once a second, not a storm


def test_faults_and_reader_numbers() -> None:
    rig = synced_rig(3)
    rig.hub.line("FAULT", 2, "no answer (version 0x00)")
    rig.steps(3)
    with pytest.raises(ReaderError, match=r"reader 2: no answer \(version 0x00\)"):
        rig.conn.reader(2).poll()
    with pytest.raises(ReaderError, match="the hub has 3 readers"):
        rig.conn.reader(5).poll()
    rig.hub.state(2, "DEADBEEF")
    rig.steps(3)
    assert rig.conn.reader(2).poll() == frozenset({"DEADBEEF"})


def test_other_protocol_version_is_refused_clearly() -> None:
    rig = Rig(1)
    rig.hub.proto = 3
    rig.steps(10)
    with pytest.raises(ReaderError, match="protocol 3, this driver 2: flash the firmware"):
        rig.conn.reader(0).poll()


def test_repl_noise_and_split_lines_are_handled() -> None:
    rig = Rig(1)
    rig.hub.out += b"MicroPython v1.24 on 2024-10-29; Raspberry Pi Pico with RP2040\r\n>>> "
    rig.hub.boot()
    rig.steps(40, dt=0.0)  # reads a byte or a few at a time
    assert rig.conn.synced
    assert rig.conn.stats.malformed == 0 and rig.conn.stats.bad_checksums == 0


def test_bad_arguments_are_refused() -> None:
    rig = synced_rig()
    with pytest.raises(ValueError, match="0 to 60000 ms"):
        rig.conn.set_hold(0, 70000)
    with pytest.raises(ValueError, match=">= 0"):
        rig.conn.reader(-1)
    with pytest.raises(ValueError, match="framing character"):
        protocol.command("HOLD", "1,2", 5)
    with pytest.raises(ValueError, match="backoff"):
        HubConnection("/dev/null", backoff_min=0)


def test_closed_reader_says_so() -> None:
    rig = synced_rig()
    r = rig.conn.reader(0)
    r.close()
    with pytest.raises(ReaderError, match="closed"):
        r.poll()


def test_parse_hub_line() -> None:
    line = protocol.parse_hub_line("$4,STATE,1,04A1B2C3D4E5F6*8A\r\n")
    assert (line.seq, line.kind, line.fields) == (4, "STATE", ["1", "04A1B2C3D4E5F6"])
    assert protocol.parse_hub_line(b">>> junk$5,HB,1000,12,83*47").kind == "HB"
    with pytest.raises(protocol.BadChecksum):
        protocol.parse_hub_line("$4,STATE,1,04A1B2C3D4E5F7*8A")
    for bad in ("no dollar", "$4,STATE", "$4,STATE*ZZ", "$x,STATE*" + f"{protocol.crc8('x,STATE'):02X}"):
        with pytest.raises(protocol.LineError):
            protocol.parse_hub_line(bad)


def test_checksums_agree_with_the_firmware() -> None:
    path = Path(__file__).resolve().parents[2] / "firmware" / "hubproto.py"
    spec = importlib.util.spec_from_file_location("hubproto", path)
    assert spec is not None and spec.loader is not None
    fw = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fw)
    assert protocol.crc8("123456789") == fw.crc8("123456789") == 0xF4
    assert fw.frame("SNAP").encode() == protocol.command("SNAP")
    assert fw.frame("HOLD,ALL,500").encode() == protocol.command("HOLD", "ALL", 500)
    line = fw.hub_line(65535, "STATE", (3, "04A1B2C3D4E5F6"))
    assert protocol.parse_hub_line(line).seq == 65535


def test_find_hub_port_by_usb_id(monkeypatch: pytest.MonkeyPatch) -> None:
    ports = [
        SimpleNamespace(device="/dev/ttyUSB0", vid=0x10C4, pid=0xEA60, serial_number="x"),
        SimpleNamespace(device="/dev/ttyACM1", vid=0x2E8A, pid=0x0005, serial_number="E661B"),
        SimpleNamespace(device="/dev/ttyACM0", vid=0x2E8A, pid=0x0005, serial_number="E661A"),
        SimpleNamespace(device="/dev/ttyS0", vid=None, pid=None, serial_number=None),
    ]
    monkeypatch.setattr(hub_port.list_ports, "comports", lambda: ports)
    assert find_hub_port() == "/dev/ttyACM0"
    assert find_hub_port(serial_number="E661B") == "/dev/ttyACM1"
    assert find_hub_port(0x1234, 0x5678) is None


def test_finder_errors_back_off_and_closed_connection_says_so() -> None:
    rig = Rig(1)
    calls: list[float] = []

    def broken() -> str | None:
        calls.append(rig.clock.t)
        raise OSError("udev is not running")

    rig.conn._finder = broken
    rig.conn._sleep = lambda s: (rig.clock.sleep(s), rig.conn._stop.set())
    rig.conn._run()  # the thread's loop; the first sleep stops it
    assert calls == [100.0]
    assert "cannot look for the hub: udev is not running" in rig.conn.last_error
    with pytest.raises(ReaderError, match="closed"):
        rig.conn.reader(0).poll()


def test_a_port_that_will_not_open_says_why(tmp_path: Path) -> None:
    import errno
    import os

    master, slave = os.openpty()
    holder = open_exclusive(os.ttyname(slave))

    def no_permission(path: str) -> hub_port.SerialPort:
        # What pyserial raises for a port the user may not open (this test may run as root).
        raise SerialException(errno.EACCES, f"could not open port {path}: [Errno 13] Permission denied")

    cases = [
        (str(tmp_path / "ttyACM9"), open_exclusive, "no such device: is the hub plugged in"),
        (os.ttyname(slave), open_exclusive, "another program has it open (a terminal, mpremote)"),
        ("/dev/ttyACM0", no_permission, "permission denied: add the user to group dialout"),
    ]
    try:
        for path, opener, why in cases:
            conn = HubConnection(path, opener=opener)
            conn.step()
            assert not conn.connected
            assert conn.last_error.startswith(f"cannot open {path}: {why}"), conn.last_error
            with pytest.raises(ReaderError, match=f"not connected at {path}"):
                conn.reader(0).poll()
    finally:
        holder.close()
        os.close(master)
        os.close(slave)
