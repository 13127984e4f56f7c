# The hub firmware on the unix port with emulated readers, for the host's tests:
#   micropython run_unix.py READERS [HEARTBEAT_MS]
# stdout is the hub's serial line. stdin carries the Pi's commands, and also
# lines starting with "!" that move things on the emulated table:
#   !ADD,r,UID   !DEL,r,UID   !DEAD,r   !LIVE,r   !BOOT (power cycle)
#   !KEY,b,DOWN  !KEY,b,UP (button b of main.KEY_PINS pressed, let go)
# Not copied to the board.

import sys

import hub
import machine
import main
from rc522_emulator import RC522Chip


class Reboot(Exception):
    pass


class TableInput:
    """The hub's input: passes protocol bytes on, acts on "!" lines itself."""

    def __init__(self, chips):
        self.chips = chips
        self.src = main.StdinBytes(sys.stdin.buffer)
        self.buf = b""

    def __call__(self):
        self.buf += self.src()
        out = b""
        while True:
            nl = self.buf.find(b"\n")
            if nl < 0:
                break
            line, self.buf = self.buf[:nl + 1], self.buf[nl + 1:]
            if line.startswith(b"!"):
                self.act(line.decode().strip()[1:].split(","))
            else:
                out += line
        if not self.buf.startswith(b"!"):
            out, self.buf = out + self.buf, b""
        return out

    def act(self, parts):
        what = parts[0]
        if what == "BOOT":
            raise Reboot()
        if what == "KEY":
            machine.set_level(main.KEY_PINS[int(parts[1])], 0 if parts[2] == "DOWN" else 1)
            return
        chip = self.chips[int(parts[1])]
        if what == "ADD":
            chip.add_tag(parts[2])
        elif what == "DEL":
            chip.remove_tag(parts[2])
        elif what == "DEAD":
            chip.connected = False
        elif what == "LIVE":
            chip.connected = True
            chip.hard_reset()
        else:
            sys.stderr.write("run_unix: unknown table action %r\n" % what)


def run():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    heartbeat = int(sys.argv[2]) if len(sys.argv) > 2 else hub.HEARTBEAT_MS
    chips = []
    for p in main.CS_PINS[:n]:
        c = RC522Chip()
        machine.attach(p, c)
        chips.append(c)
    table = TableInput(chips)
    spi = machine.SPI(0)
    while True:
        wdt = machine.WDT(timeout=main.WDT_MS)
        h = main.make_hub(spi, main.CS_PINS[:n], feed=wdt.feed, read_input=table, heartbeat_ms=heartbeat)
        try:
            h.run()
        except hub.ResetRequested:
            pass                 # machine.reset(): the readers keep power and tags
        except Reboot:
            for c in chips:      # power cycle: the readers lose their settings
                c.hard_reset()


run()
