# main.py as on the board, with the stub machine and 16 emulated readers.
# Stdout carries the protocol; the test drives stdin and reads it.

import sys

import machine
import main
from rc522_emulator import RC522Chip

# Maintenance jumper: main() leaves the board to the REPL, no watchdog started.
machine.set_level(main.MAINT_PIN, 0)
main.main()
assert not machine.watchdogs
machine.set_level(main.MAINT_PIN, 1)

chips = []
for pin in main.CS_PINS:
    c = RC522Chip()
    machine.attach(pin, c)
    chips.append(c)
chips[15].add_tag("04A1B2C3D4E5F6")
chips[0].add_tag("DEADBEEF")

try:
    main.main()
except machine.ResetCalled:
    pass
else:
    raise AssertionError("main() returned without machine.reset()")

wdt = machine.watchdogs[0]
assert wdt.timeout == main.WDT_MS
assert wdt.feeds > 16, wdt.feeds
assert wdt.longest_gap_ms() < main.WDT_MS // 4, wdt.longest_gap_ms()
sys.stdout.write("main checks passed\n")
