# A tiny runner for checks under MicroPython (no unittest there): runs every
# function named check_* in a module, prints one line per check, exits 1 if
# any failed.

import sys


def run(namespace):
    names = sorted(n for n in namespace if n.startswith("check_"))
    failed = 0
    for n in names:
        try:
            namespace[n]()
        except Exception as e:
            failed += 1
            print("FAIL", n)
            sys.print_exception(e)
        else:
            print("ok", n)
    print(f"{len(names) - failed} passed, {failed} failed")
    if failed or not names:
        sys.exit(1)


class FakeClock:
    """ticks_ms for the hub, moved by hand."""

    def __init__(self, t=1000):
        self.t = t

    def __call__(self):
        return self.t

    def advance(self, ms):
        self.t += ms
