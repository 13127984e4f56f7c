# Stand-in for MicroPython's `machine` on the unix port, for tests: Pin, SPI,
# WDT, reset and unique_id. SPI transfers go to the emulated RC522 whose
# chip-select pin is low (drivers/sim/rc522_emulator.py, on MICROPYPATH).
# Not copied to the board.

import time

_levels = {}        # pin id -> level
_chips = {}         # chip-select pin id -> emulated chip
watchdogs = []
transfers = 0


class ResetCalled(Exception):
    """machine.reset() was called: the board would reboot now."""


def attach(cs_pin, chip):
    """Put an emulated chip on the bus, selected by pin ``cs_pin`` low."""
    _chips[cs_pin] = chip


def set_level(pin, level):
    """Drive an input from outside (a jumper, a button)."""
    _levels[pin] = level


def detach_all():
    _chips.clear()
    _levels.clear()
    del watchdogs[:]


def unique_id():
    return b"\xe6\x61\x41\x03\xe7\x45\x6b\x2f"


def freq(hz=None):
    return 125000000


def reset():
    raise ResetCalled()


def soft_reset():
    raise ResetCalled()


def idle():
    pass


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        self.mode = mode
        if value is not None:
            _levels[id] = 1 if value else 0
        elif id not in _levels:
            _levels[id] = 1 if pull == Pin.PULL_UP else 0

    def init(self, mode=-1, pull=-1, value=None):
        if value is not None:
            self.value(value)

    def value(self, v=None):
        if v is None:
            return _levels.get(self.id, 0)
        _levels[self.id] = 1 if v else 0

    def __call__(self, v=None):
        return self.value(v)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    def high(self):
        self.value(1)

    def low(self):
        self.value(0)


class SPI:
    def __init__(self, id, baudrate=1000000, polarity=0, phase=0, bits=8, firstbit=0,
                 sck=None, mosi=None, miso=None):
        self.id = id
        self.baudrate = baudrate

    def init(self, *args, **kw):
        pass

    def deinit(self):
        pass

    def _transfer(self, out):
        global transfers
        transfers += 1
        selected = [p for p in _chips if _levels.get(p, 0) == 0]
        if len(selected) > 1:
            raise AssertionError("SPI transfer with several chip selects low: %r" % selected)
        if not selected:
            return [0xFF] * len(out)     # nobody drives MISO: it floats high
        return _chips[selected[0]].xfer2(list(out))

    def write_readinto(self, out, into):
        got = self._transfer(out)
        for i in range(len(into)):
            into[i] = got[i]

    def write(self, buf):
        self._transfer(buf)

    def read(self, n, write=0):
        return bytes(self._transfer([write] * n))

    def readinto(self, buf, write=0):
        got = self._transfer([write] * len(buf))
        for i in range(len(buf)):
            buf[i] = got[i]


class WDT:
    """Records feeds; `longest_gap_ms()` says how close the loop came to a reboot."""

    def __init__(self, id=0, timeout=5000):
        if not 1 <= timeout <= 8388:
            raise ValueError("WDT timeout out of range (rp2: 1 to 8388 ms)")
        self.timeout = timeout
        self.last = time.ticks_ms()
        self.gap = 0
        self.feeds = 0
        watchdogs.append(self)

    def feed(self):
        now = time.ticks_ms()
        d = time.ticks_diff(now, self.last)
        if d > self.gap:
            self.gap = d
        self.last = now
        self.feeds += 1

    def longest_gap_ms(self):
        return self.gap
