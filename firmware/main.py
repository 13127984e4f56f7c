# Tablekeeper reader hub: up to 16 RC522 readers on SPI0 of a Raspberry Pi
# Pico, one chip-select pin each, reported over USB serial (PROTOCOL.md).
# Runs at boot; wiring in README.md.

import sys
import time

import machine
import micropython
import select

import hub
import rc522

# SPI0: SCK GP18, MOSI GP19, MISO GP16. Chip selects, reader 0 first.
SPI_ID = 0
SCK, MOSI, MISO = 18, 19, 16
SPI_BAUD = 4000000
CS_PINS = (17, 20, 21, 22, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)
READERS = 16                 # how many of CS_PINS have a reader
# Buttons, each from its pin to GND (internal pull-ups), button 0 first: the
# pins the readers leave free. The reference table wires seat 3's left, ok,
# right to buttons 0-2 and seat 4's to 3-5 (README.md, "Buttons").
KEY_PINS = (12, 13, 14, 15, 26, 27)
WDT_MS = 5000                # a stuck loop reboots the hub
# GP28 to GND at power-up: maintenance, no hub loop, so mpremote can reach
# the REPL (the running hub ignores Ctrl-C).
MAINT_PIN = 28


class StdinBytes:
    """Non-blocking read of whatever the host has sent."""

    def __init__(self, stream):
        self.stream = stream
        self.poller = select.poll()
        self.poller.register(stream, select.POLLIN)

    def __call__(self):
        out = b""
        while len(out) < 64 and self.poller.poll(0):
            c = self.stream.read(1)
            if not c:
                break
            out += c
        return out


def board_id():
    try:
        return "".join("%02X" % b for b in machine.unique_id())
    except Exception:
        return ""


def write_line(line):
    sys.stdout.write(line)


def make_hub(spi, cs_pins, feed=None, read_input=None, key_pins=KEY_PINS, **kw):
    chips = [rc522.RC522(spi, machine.Pin(p, machine.Pin.OUT, value=1)) for p in cs_pins]
    keys = [machine.Pin(p, machine.Pin.IN, machine.Pin.PULL_UP) for p in key_pins]
    if read_input is None:
        read_input = StdinBytes(sys.stdin.buffer)
    return hub.Hub(chips, write_line, read_input=read_input, board_id=board_id(), feed=feed, keys=keys, **kw)


def maintenance():
    return machine.Pin(MAINT_PIN, machine.Pin.IN, machine.Pin.PULL_UP).value() == 0


def main():
    if maintenance():
        print("tablekeeper hub: maintenance jumper on GP28, hub not started")
        return
    # A 0x03 byte from the host must not stop the firmware with KeyboardInterrupt.
    micropython.kbd_intr(-1)
    # Every chip select high before the first transfer, so no reader listens.
    for p in CS_PINS[:READERS]:
        machine.Pin(p, machine.Pin.OUT, value=1)
    spi = machine.SPI(SPI_ID, baudrate=SPI_BAUD, polarity=0, phase=0,
                      sck=machine.Pin(SCK), mosi=machine.Pin(MOSI), miso=machine.Pin(MISO))
    wdt = machine.WDT(timeout=WDT_MS)
    h = make_hub(spi, CS_PINS[:READERS], feed=wdt.feed)
    try:
        h.run()
    except hub.ResetRequested:
        time.sleep_ms(50)    # let the OK line leave the USB buffer
        machine.reset()


if __name__ == "__main__":
    main()
