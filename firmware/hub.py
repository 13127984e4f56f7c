# The hub's scan loop: sweeps the readers, keeps each one's tags with a hold
# time, reports changes and answers commands (PROTOCOL.md). No hardware here:
# readers, clock, output and input are given, so tests drive it step by step.

import time

import hubproto

FIRMWARE_VERSION = "0.2.0"
DEFAULT_HOLD_MS = 500
# After a button's reported edge its contact may bounce for a few ms: changes
# are ignored this long, so the first edge is reported at once and one push is
# one press. A release during the lockout is reported when it ends.
KEY_LOCKOUT_MS = 20
HEARTBEAT_MS = 1000
MAX_HOLD_MS = 60000


class ResetRequested(Exception):
    """Raised by the loop after answering RESET; main.py reboots the board."""


class ReaderSlot:
    """One reader and what the hub knows about its field."""

    def __init__(self, chip, hold_ms):
        self.chip = chip
        self.hold_ms = hold_ms
        self.last_seen = {}      # uid -> ticks_ms of its last read
        self.reported = ()       # sorted uids last sent in STATE
        self.fault = None        # reason text while the chip does not answer
        self.ready = False       # chip initialised since boot / recovery

    def current(self):
        return tuple(sorted(self.last_seen))


class KeySlot:
    """One button, wired from its pin to ground (pull-up): 0 is down."""

    def __init__(self, pin, now):
        self.pin = pin
        self.down = pin.value() == 0
        self.changed = now       # ticks_ms of the last reported edge
        self.presses = 0         # since boot, modulo 65536


class Hub:
    def __init__(self, chips, write, read_input=None, ticks_ms=None, board_id="",
                 hold_ms=DEFAULT_HOLD_MS, heartbeat_ms=HEARTBEAT_MS, feed=None,
                 keys=(), key_lockout_ms=KEY_LOCKOUT_MS):
        self.slots = [ReaderSlot(c, hold_ms) for c in chips]
        self._write = write
        self._read_input = read_input
        self._ticks = ticks_ms or time.ticks_ms
        self._feed = feed
        self.board_id = board_id
        self.heartbeat_ms = heartbeat_ms
        self.seq = 0
        self.boot = self._ticks()
        self.next_reader = 0
        self.sweeps = 0
        self.sweep_ms = 0
        self._sweep_start = self.boot
        self._last_hb = self.boot
        self.uptime_ms = 0
        self._inbuf = b""
        self._reset_pending = False
        self.key_lockout_ms = key_lockout_ms
        self.keys = [KeySlot(p, time.ticks_add(self.boot, -key_lockout_ms)) for p in keys]
        if self.keys:
            for c in chips:
                if hasattr(c, "idle"):
                    c.idle = self.poll_keys

    # --- output ---
    def send(self, kind, fields=()):
        self._write(hubproto.hub_line(self.seq, kind, fields))
        self.seq = (self.seq + 1) % hubproto.SEQ_MOD

    def send_state(self, i):
        s = self.slots[i]
        if s.fault is not None:
            self.send("FAULT", (i, s.fault))
        else:
            self.send("STATE", (i,) + s.reported)

    def send_key(self, i):
        k = self.keys[i]
        self.send("KEY", (i, "DOWN" if k.down else "UP", k.presses))

    def snapshot(self):
        self.send("HELLO", (hubproto.PROTOCOL_VERSION, FIRMWARE_VERSION, len(self.slots), self.board_id,
                            len(self.keys)))
        for i in range(len(self.slots)):
            self.send_state(i)
        for i in range(len(self.keys)):
            self.send_key(i)
        self.send("SYNC", (len(self.slots),))

    # --- buttons ---
    def poll_keys(self):
        """Report each button whose level changed, unless it is in its lockout."""
        if not self.keys:
            return
        now = self._ticks()
        for i in range(len(self.keys)):
            k = self.keys[i]
            down = k.pin.value() == 0
            if down == k.down or time.ticks_diff(now, k.changed) < self.key_lockout_ms:
                continue
            k.down = down
            k.changed = now
            if down:
                k.presses = (k.presses + 1) % hubproto.SEQ_MOD
            self.send_key(i)

    # --- scanning ---
    def scan_reader(self, i):
        s = self.slots[i]
        chip = s.chip
        try:
            if not s.ready:
                chip.init()
                s.ready = True
            else:
                chip.check()
            uids = chip.scan()
        except Exception as e:
            reason = hubproto.clean(e.args[0] if e.args else type(e).__name__)
            s.ready = False
            s.last_seen = {}
            s.reported = ()
            if s.fault != reason:
                s.fault = reason
                self.send_state(i)
            return
        now = self._ticks()
        was_faulty = s.fault is not None
        s.fault = None
        for u in uids:
            s.last_seen[u] = now
        for u in list(s.last_seen):
            if time.ticks_diff(now, s.last_seen[u]) > s.hold_ms:
                del s.last_seen[u]
        cur = s.current()
        if cur != s.reported or was_faulty:
            s.reported = cur
            self.send_state(i)

    def warm_up(self, i):
        # Switch the next reader's field on now, so its tags have powered up
        # by the time it is scanned.
        s = self.slots[i]
        on = getattr(s.chip, "field_on", None)
        if on is None or not s.ready or len(self.slots) < 2:
            return
        try:
            on()
        except Exception:
            pass                 # its own scan will report the fault

    # --- commands ---
    def poll_input(self):
        if self._read_input is None:
            return
        data = self._read_input()
        if not data:
            return
        # A terminal's Enter sends CR: it ends a line too.
        self._inbuf += data.replace(b"\r", b"\n")
        while True:
            nl = self._inbuf.find(b"\n")
            if nl < 0:
                break
            line = self._inbuf[:nl]
            self._inbuf = self._inbuf[nl + 1:]
            self.handle_line(line)
        if len(self._inbuf) > hubproto.MAX_LINE:
            self._inbuf = b""
            self.send("ERR", ("line too long",))

    def handle_line(self, raw):
        try:
            line = raw.decode()
        except Exception:
            self.send("ERR", ("not ascii",))
            return
        if not line.strip():
            return
        if len(line) > hubproto.MAX_LINE:
            self.send("ERR", ("line too long",))
            return
        try:
            parts = hubproto.parse_command(line)
        except hubproto.BadLine as e:
            self.send("ERR", (e.args[0], e.args[1]))
            return
        cmd = parts[0]
        if cmd == "SNAP":
            self.snapshot()
        elif cmd == "HOLD":
            self.cmd_hold(parts[1:])
        elif cmd == "RESET":
            self.send("OK", ("RESET",))
            self._reset_pending = True
        else:
            self.send("ERR", ("unknown command", hubproto.clean(cmd)))

    def cmd_hold(self, args):
        if len(args) != 2:
            self.send("ERR", ("bad hold", "want HOLD reader-or-ALL ms"))
            return
        which, ms = args
        if which.upper() == "ALL":
            targets = range(len(self.slots))
        else:
            try:
                r = int(which)
            except ValueError:
                r = -1
            if not 0 <= r < len(self.slots):
                self.send("ERR", ("bad reader", hubproto.clean(which)))
                return
            targets = (r,)
        try:
            v = int(ms)
        except ValueError:
            v = -1
        if not 0 <= v <= MAX_HOLD_MS:
            self.send("ERR", ("bad hold", hubproto.clean(ms)))
            return
        for r in targets:
            self.slots[r].hold_ms = v
        self.send("OK", ("HOLD", which, v))

    # --- the loop ---
    def heartbeat_due(self):
        now = self._ticks()
        d = time.ticks_diff(now, self._last_hb)
        if d >= self.heartbeat_ms:
            self._last_hb = now
            # Summed, since ticks_ms wraps after 12 days.
            self.uptime_ms += d
            self.send("HB", (self.uptime_ms, self.sweep_ms, self.sweeps))

    def step(self):
        """Scan one reader, answer commands, send a heartbeat when due."""
        if self._feed is not None:
            self._feed()
        self.poll_keys()
        if self.slots:
            i = self.next_reader
            self.warm_up((i + 1) % len(self.slots))
            self.scan_reader(i)
            self.next_reader = (i + 1) % len(self.slots)
            if self.next_reader == 0:
                now = self._ticks()
                self.sweep_ms = time.ticks_diff(now, self._sweep_start)
                self._sweep_start = now
                self.sweeps += 1
        self.poll_keys()
        self.poll_input()
        self.heartbeat_due()
        if self._reset_pending:
            raise ResetRequested()

    def run(self):
        self.snapshot()
        while True:
            self.step()
