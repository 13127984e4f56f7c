"""One connection to the RP2040 reader hub: the serial port, a reader thread, and
what the hub last said about each reader and each button.

The thread reads lines, checks sequence numbers and checksums, asks for a
snapshot when a line was lost or damaged, and reopens the port with backoff
after an unplug. ``reader(i)`` gives the TagReader for hub reader ``i``.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from serial import SerialException

from drivers.base import ReaderError
from drivers.hub import protocol
from drivers.hub.port import HUB_PID, HUB_VID, SerialPort, find_hub_port, open_exclusive

MAX_HOLD_MS = 60000
#: presses a resynchronising snapshot may show that the host missed; more are
#: not replayed (a player pressing on and on while the line was down meant one)
MAX_MISSED_PRESSES = 3

log = logging.getLogger(__name__)

#: called on the reader thread with (down, host time) at each edge of a button
KeyListener = Callable[[bool, float], None]


@dataclass
class HubStats:
    """Counters of what went wrong on the line (and how often it was fixed)."""

    lines: int = 0
    bad_checksums: int = 0
    malformed: int = 0
    gaps: int = 0
    lost_lines: int = 0
    snapshots_requested: int = 0
    snapshots_received: int = 0
    connects: int = 0
    disconnects: int = 0
    hub_errors: int = 0


@dataclass(frozen=True)
class HubInfo:
    """From the hub's HELLO."""

    protocol: str
    firmware: str
    readers: int
    board_id: str
    buttons: int | None = None  # None: a protocol 1 hub, which has no buttons


@dataclass(frozen=True)
class Heartbeat:
    """The hub's last HB line."""

    uptime_ms: int
    sweep_ms: int
    sweeps: int


class HubConnection:
    def __init__(
        self,
        port: str | None = None,
        *,
        name: str = "hub",
        vid: int = HUB_VID,
        pid: int = HUB_PID,
        serial_number: str | None = None,
        opener: Callable[[str], SerialPort] = open_exclusive,
        finder: Callable[[], str | None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], object] | None = None,
        backoff_min: float = 0.1,
        backoff_max: float = 5.0,
        silence_timeout: float = 3.5,
        snapshot_retry: float = 1.0,
    ) -> None:
        """``port``: a device path (e.g. /dev/serial/by-id/usb-MicroPython_...-if00); without it
        the hub is found by USB ``vid``:``pid`` (and ``serial_number``). ``opener``, ``finder``,
        ``clock`` and ``sleep`` are there for tests."""
        if backoff_min <= 0 or backoff_max < backoff_min:
            raise ValueError("backoff_min must be > 0 and backoff_max >= backoff_min")
        self.name = name
        self._port_path = port
        self._opener = opener
        if finder is None:
            finder = (lambda: port) if port else (lambda: find_hub_port(vid, pid, serial_number))
        self._finder = finder
        self._where = port or f"USB {vid:04X}:{pid:04X}"
        self._clock = clock
        self._stop = threading.Event()
        self._sleep = sleep or self._stop.wait
        self._backoff_min = backoff_min
        self._backoff_max = backoff_max
        self._silence_timeout = silence_timeout
        self._snapshot_retry = snapshot_retry

        self._lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._port: SerialPort | None = None
        self._thread: threading.Thread | None = None
        self._buf = b""
        self._failures = 0
        self._retry_at = clock()
        self.last_error = "not connected yet"
        self.stats = HubStats()
        self.info: HubInfo | None = None
        self.heartbeat: Heartbeat | None = None
        self._states: dict[int, frozenset[str]] = {}
        self._faults: dict[int, str] = {}
        self._holds: dict[int | None, int] = {}
        self._expect: int | None = None
        self._fresh = False  # a full snapshot arrived since connecting
        self._snap_clean = False  # no damage since the snapshot's HELLO
        self._snap_sent_at: float | None = None
        self._last_rx = clock()
        self._version_error: str | None = None
        self._keys: dict[int, tuple[bool, int]] = {}  # button -> (down, presses), as last reported
        self._key_listeners: dict[int, list[KeyListener]] = {}
        self._key_warned = False

    # --- lifecycle ---
    def start(self) -> HubConnection:
        """Start the reader thread (it connects, and reconnects, by itself)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name=f"{self.name}-serial", daemon=True)
            self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2.0)
        self._drop_port()

    def __enter__(self) -> HubConnection:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def reader(self, index: int, name: str | None = None) -> HubReader:
        if index < 0:
            raise ValueError(f"hub reader index must be >= 0, got {index}")
        return HubReader(self, index, name or f"{self.name}.{index}")

    @property
    def connected(self) -> bool:
        return self._port is not None

    @property
    def synced(self) -> bool:
        return self._port is not None and self._fresh

    def wait_synced(self, timeout: float) -> bool:
        """Block until a full snapshot has arrived (real time; for start-up and tests)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.synced:
                return True
            time.sleep(0.01)
        return self.synced

    # --- commands ---
    def request_snapshot(self) -> None:
        self._snap_sent_at = self._clock()
        self.stats.snapshots_requested += 1
        self._send(protocol.command("SNAP"))

    def set_hold(self, reader: int | None, ms: int) -> None:
        """How long a tag no longer read still counts as present; ``reader`` None means all.
        Kept and sent again after every reconnect and hub reboot."""
        if not 0 <= ms <= MAX_HOLD_MS:
            raise ValueError(f"hold time must be 0 to {MAX_HOLD_MS} ms, got {ms}")
        if reader is not None and reader < 0:
            raise ValueError(f"hub reader index must be >= 0, got {reader}")
        if reader is None:
            self._holds.clear()
        self._holds[reader] = ms
        self._send_hold(reader, ms)

    def reset_hub(self) -> None:
        """Reboot the hub; it says HELLO again and the connection re-syncs."""
        self._send(protocol.command("RESET"))

    def _send_hold(self, reader: int | None, ms: int) -> None:
        self._send(protocol.command("HOLD", "ALL" if reader is None else reader, ms))

    def _send(self, data: bytes) -> None:
        port = self._port
        if port is None:
            return  # sent again on connect where it matters
        try:
            with self._write_lock:
                port.write(data)
        except (SerialException, OSError) as e:
            self._lost(e)

    # --- what the readers see ---
    def state(self, index: int) -> frozenset[str]:
        with self._lock:
            if self._stop.is_set():
                raise ReaderError(f"{self.name}: reader hub connection closed")
            if self._port is None:
                raise ReaderError(
                    f"{self.name}: reader hub not connected at {self._where} ({self.last_error}); retrying"
                )
            if self._version_error:
                raise ReaderError(f"{self.name}: {self._version_error}")
            if self._clock() - self._last_rx > self._silence_timeout:
                raise ReaderError(
                    f"{self.name}: reader hub silent for {self._clock() - self._last_rx:.1f} s (no heartbeat)"
                )
            if not self._fresh:
                raise ReaderError(f"{self.name}: waiting for the reader hub's snapshot")
            if self.info is not None and index >= self.info.readers:
                raise ReaderError(
                    f"{self.name}: the hub has {self.info.readers} readers "
                    f"(0 to {self.info.readers - 1}), not {index}: check the table profile"
                )
            if index in self._faults:
                raise ReaderError(f"{self.name}: reader {index}: {self._faults[index]}")
            return self._states.get(index, frozenset())

    # --- what the buttons see ---
    def on_key(self, index: int, listener: KeyListener) -> Callable[[], None]:
        """Call ``listener(down, at)`` on the reader thread at each edge of button ``index``;
        returns the function that stops it."""
        if index < 0:
            raise ValueError(f"hub button number must be >= 0, got {index}")
        with self._lock:
            self._key_listeners.setdefault(index, []).append(listener)

        def stop() -> None:
            with self._lock, contextlib.suppress(ValueError):
                self._key_listeners.get(index, []).remove(listener)

        return stop

    def is_down(self, index: int) -> bool:
        with self._lock:
            return self._keys.get(index, (False, 0))[0]

    def key_problem(self, index: int) -> str | None:
        """Why button ``index`` cannot work on the hub that answered, or None (also while
        no hub has answered yet)."""
        info = self.info
        if info is None:
            return None
        if info.buttons is None:
            return (f"{self.name}: the hub's firmware {info.firmware} (protocol {info.protocol}) has no "
                    "buttons; flash the firmware of this version of tablekeeper onto it "
                    "(firmware/README.md, Flashing)")
        if index >= info.buttons:
            return (f"{self.name}: the hub has {info.buttons} buttons (0 to {info.buttons - 1}), not "
                    f"{index}: check the table profile (firmware/main.py's KEY_PINS lists them)")
        return None

    # --- the reader thread ---
    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.step()
            except Exception as e:  # never let the thread die: report and retry
                if self._port is not None:
                    self._lost(e)
                else:
                    self._fail(f"cannot look for the hub: {e}")

    def step(self) -> None:
        """One turn of the reader thread: connect, or read and handle what came."""
        port = self._port
        if port is None:
            now = self._clock()
            if now < self._retry_at:
                self._sleep(min(self._retry_at - now, 0.1))
                return
            self._connect()
            return
        try:
            data = port.read(max(1, port.in_waiting))
        except (SerialException, OSError, TypeError) as e:
            # TypeError: pyserial closed under us by close() on another thread.
            self._lost(e)
            return
        if data:
            self._feed(data)
        self._check_timers()

    def _connect(self) -> None:
        path = self._finder()
        if path is None:
            self._fail(f"no reader hub found ({self._where}): is it plugged in?")
            return
        try:
            port = self._opener(path)
        except (SerialException, OSError) as e:
            self._fail(f"cannot open {path}: {_open_hint(e)}")
            return
        with self._lock:
            self._port = port
            self._buf = b""
            self._expect = None
            self._fresh = False
            self._snap_clean = False
            self._last_rx = self._clock()
            self._failures = 0
            self.last_error = ""
            self._keys.clear()  # the first report of each button sets it, presses no one
        self.stats.connects += 1
        self.request_snapshot()
        self._resend_holds()

    def _fail(self, why: str) -> None:
        self.last_error = why
        delay = min(self._backoff_max, self._backoff_min * (2**self._failures))
        self._failures += 1
        self._retry_at = self._clock() + delay

    def _lost(self, e: BaseException) -> None:
        if self._port is None:
            return
        self._drop_port()
        self.stats.disconnects += 1
        self._fail(f"lost: {e}")

    def _drop_port(self) -> None:
        with self._lock:
            port, self._port = self._port, None
            self._fresh = False
            self._snap_sent_at = None
        if port is not None:
            with contextlib.suppress(Exception):
                port.close()

    def _resend_holds(self) -> None:
        for reader, ms in list(self._holds.items()):
            self._send_hold(reader, ms)

    def _check_timers(self) -> None:
        now = self._clock()
        silent = now - self._last_rx > self._silence_timeout
        pending = self._snap_sent_at is not None
        if (silent or pending) and (not pending or now - (self._snap_sent_at or 0.0) > self._snapshot_retry):
            self.request_snapshot()

    # --- lines ---
    def _feed(self, data: bytes) -> None:
        self._buf += data
        while True:
            nl = self._buf.find(b"\n")
            if nl < 0:
                break
            raw, self._buf = self._buf[:nl], self._buf[nl + 1 :]
            self._handle(raw)
        if len(self._buf) > 4 * protocol.MAX_LINE:
            self._buf = b""
            self.stats.malformed += 1
            self._damaged()

    def _handle(self, raw: bytes) -> None:
        text = raw.decode("ascii", "replace").strip()
        if not text:
            return
        self._last_rx = self._clock()
        self.stats.lines += 1
        try:
            line = protocol.parse_hub_line(text)
        except protocol.BadChecksum:
            self.stats.bad_checksums += 1
            self._expect = None  # its seq is not to be trusted: the next line re-anchors
            self._damaged()
            return
        except protocol.LineError:
            if "$" in text:
                self.stats.malformed += 1
                self._expect = None
                self._damaged()
            return  # anything else is REPL chatter
        if line.kind == "HELLO":
            self._hello(line)
        else:
            if self._expect is not None and line.seq != self._expect:
                self.stats.gaps += 1
                self.stats.lost_lines += (line.seq - self._expect) % protocol.SEQ_MOD
                self._damaged()
            self._dispatch(line)
        self._expect = protocol.next_seq(line.seq)

    def _damaged(self) -> None:
        self._snap_clean = False
        if self._snap_sent_at is None:
            self.request_snapshot()

    def _hello(self, line: protocol.HubLine) -> None:
        f = line.fields
        if len(f) < 3 or not f[2].isdigit():
            self.stats.malformed += 1
            return
        if f[0] not in protocol.SUPPORTED_PROTOCOLS:
            self._version_error = (
                f"the hub speaks protocol {f[0]}, this driver {protocol.PROTOCOL_VERSION}: "
                "flash the firmware that matches this version of tablekeeper"
            )
        else:
            self._version_error = None
        buttons = int(f[4]) if f[0] != "1" and len(f) > 4 and f[4].isdigit() else None
        info = HubInfo(f[0], f[1], int(f[2]), f[3] if len(f) > 3 else "", buttons)
        with self._lock:
            self.info = info
            for i in [i for i in self._states if i >= info.readers]:
                del self._states[i]
            self._snap_clean = True
            if line.seq == 0:
                self._keys.clear()  # a reboot counts presses from 0 again
            wanted = sorted(i for i, ls in self._key_listeners.items() if ls)
        if line.seq == 0:
            self._resend_holds()  # a reboot forgot them
        problems = [p for p in (self.key_problem(i) for i in wanted) if p]
        if problems and not self._key_warned:
            self._key_warned = True  # said once: the log is read by a person
            log.error("%s", problems[0])

    def _dispatch(self, line: protocol.HubLine) -> None:
        kind, f = line.kind, line.fields
        if kind in ("STATE", "FAULT"):
            if not f or not f[0].isdigit():
                self.stats.malformed += 1
                self._damaged()
                return
            index = int(f[0])
            with self._lock:
                if kind == "STATE":
                    self._states[index] = frozenset(u.upper() for u in f[1:] if u)
                    self._faults.pop(index, None)
                else:
                    self._faults[index] = f[1] if len(f) > 1 else "fault"
                    self._states.pop(index, None)
        elif kind == "SYNC":
            if self._snap_clean:
                with self._lock:
                    self._fresh = True
                    self._snap_sent_at = None
                self.stats.snapshots_received += 1
            else:
                self._snap_sent_at = None
                self.request_snapshot()  # that snapshot lost a line: another one
        elif kind == "HB":
            if len(f) >= 3 and all(x.isdigit() for x in f[:3]):
                self.heartbeat = Heartbeat(int(f[0]), int(f[1]), int(f[2]))
        elif kind == "KEY":
            if len(f) < 3 or not f[0].isdigit() or f[1] not in ("DOWN", "UP") or not f[2].isdigit():
                self.stats.malformed += 1
                self._damaged()
                return
            self._key(int(f[0]), f[1] == "DOWN", int(f[2]) % protocol.SEQ_MOD)
        elif kind == "ERR":
            self.stats.hub_errors += 1
            self.last_error = "hub refused a command: " + ",".join(f)
        # OK and types from newer firmware need nothing here.


    def _key(self, index: int, down: bool, presses: int) -> None:
        at = self._clock()
        with self._lock:
            before = self._keys.get(index)
            self._keys[index] = (down, presses)
            listeners = list(self._key_listeners.get(index, ()))
        if not listeners:
            return
        # The first report since a connect or a reboot is a state, not a press; an up
        # there ends a press that was going on when the line or the hub went away.
        edges = _edges(before, (down, presses)) if before is not None else [] if down else [False]
        for edge in edges:
            for listener in listeners:
                try:
                    listener(edge, at)
                except Exception:  # a listener's bug must not cut the hub off
                    log.exception("%s: a button listener failed", self.name)


def _edges(before: tuple[bool, int], now: tuple[bool, int]) -> list[bool]:
    """The edges (True: down) from one report of a button to the next; presses a lost
    line hid come back as presses, at most MAX_MISSED_PRESSES of them."""
    was_down, count = before
    down, presses = now
    missed = (presses - count) % protocol.SEQ_MOD
    if not missed:
        return [down] if down != was_down else []
    edges = [False] if was_down else []
    edges += [True, False] * (min(missed, MAX_MISSED_PRESSES) - 1)
    edges.append(True)
    if not down:
        edges.append(False)
    return edges


def _open_hint(err: BaseException) -> str:
    """Why a port did not open, in the user's terms, from the errno pyserial passes on."""
    no = getattr(err, "errno", None)
    if no in (errno.ENOENT, errno.ENODEV, errno.ENXIO):
        return "no such device: is the hub plugged in, and is the profile's port right?"
    if no in (errno.EACCES, errno.EPERM):
        return "permission denied: add the user to group dialout (and install hardware/udev/)"
    if no in (errno.EAGAIN, errno.EBUSY):
        return "another program has it open (a terminal, mpremote): close it"
    return f"{err} (another program using it? user in group dialout?)"


class HubReader:
    """A TagReader for one reader on the hub."""

    def __init__(
        self, hub: HubConnection, index: int, name: str, on_close: Callable[[], None] | None = None
    ) -> None:
        self.hub = hub
        self.index = index
        self.name = name
        self._closed = False
        self._on_close = on_close

    def poll(self) -> frozenset[str]:
        if self._closed:
            raise ReaderError(f"{self.name}: reader closed")
        return self.hub.state(self.index)

    def close(self) -> None:
        # The connection is shared by all the hub's readers: its owner closes it
        # (or, for readers from a profile, the last reader closed).
        if self._closed:
            return
        self._closed = True
        if self._on_close is not None:
            self._on_close()

    def __repr__(self) -> str:
        return f"HubReader({self.name!r}, index={self.index})"


def open_hub(port: str | None = None, **kw: object) -> HubConnection:
    """A started connection to the reader hub (see HubConnection for the options)."""
    return HubConnection(port, **kw).start()  # type: ignore[arg-type]
