"""A table that cannot start, under systemd: say what is wrong, wait, exit.

A box has no keyboard, so the unit never stops restarting the daemon
(``StartLimitIntervalSec=0``). What slows the retries down is here, because
Bookworm's systemd (252) has no ``RestartSteps=``: each failed start in a row
waits longer before the daemon exits (5, 10, 20, 40, then 60 s), while every
screen that answers and ``systemctl status`` say what is wrong. The count of
failed starts lives in the state directory and is cleared once a start gets
as far as READY=1. A start by hand or at boot is a first try again: the count
is never above systemd's own count of restarts (NRestarts, which a stop
clears for the next start, even a stop between two tries), so a
``systemctl start`` that fails says so in 5 s, not after up to a minute; a
stop during the wait clears the count too, where systemd cannot be asked.
From a shell (no $NOTIFY_SOCKET) a failed start exits at once.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from pi_app import i18n
from pi_app.table.sdnotify import notify

COUNTER = "failed-starts"
FIRST_WAIT = 5.0
LONGEST_WAIT = 60.0  # within the unit's TimeoutStartSec=90
_sleep = time.sleep  # replaced in tests


def under_systemd(env: dict[str, str] | None = None) -> bool:
    return bool((env if env is not None else os.environ).get("NOTIFY_SOCKET"))


def wait_after(failures: int) -> float:
    """Seconds to wait after the ``failures``-th failed start in a row."""
    return min(FIRST_WAIT * 2 ** max(failures - 1, 0), LONGEST_WAIT)


def failures(state_dir: Path) -> int:
    try:
        return int((state_dir / COUNTER).read_text().strip() or 0)
    except (OSError, ValueError):
        return 0


def failed(state_dir: Path, problem: str, screens: list, lang: str = "en", *,
           env: dict[str, str] | None = None, sleep: Callable[[float], None] | None = None) -> float:
    """Record a failed start, say ``problem`` everywhere it can be seen and
    wait before the caller exits; returns the wait in seconds. ``screens``
    are the profile's screen specs: each is opened on its own, so the ones
    that answer show the problem even when another part is missing."""
    count = failures(state_dir) + 1
    restarts = _restarts()
    if restarts is not None:  # started by a person or at boot since: a first try again
        count = min(count, restarts + 1)
    with contextlib.suppress(OSError):
        state_dir.mkdir(parents=True, exist_ok=True)
        (state_dir / COUNTER).write_text(f"{count}\n")
    wait = wait_after(count)
    said = f"{problem} (failed start {count} in a row; trying again in {wait:.0f} s)"
    with _stopped_clears(state_dir):
        print(f"tablekeeper: {said}", file=sys.stderr, flush=True)
        notify(f"STATUS={said}", env)
        show(screens, problem, wait, lang)
        (sleep or _sleep)(wait)
    return wait


def restarts_by_systemd(env: dict[str, str] | None = None,
                        cgroup: Path = Path("/proc/self/cgroup")) -> int | None:
    """How often systemd restarted this daemon's unit since it was last started
    by hand or at boot (its NRestarts: a stop, even between two tries, clears
    it for the next start); None when this process is not a unit's main one or
    systemd cannot be asked."""
    if not (env if env is not None else os.environ).get("INVOCATION_ID"):  # not started by systemd
        return None
    try:
        unit = next((m.group(1) for line in cgroup.read_text().splitlines()
                     if (m := re.search(r"/([^/]+\.service)(?:/|$)", line.split(":", 2)[-1]))), None)
        if unit is None:
            return None
        shown = subprocess.run(["systemctl", "show", "--property=MainPID", "--property=NRestarts", unit],
                               capture_output=True, text=True, timeout=30, check=True).stdout
        props = dict(line.split("=", 1) for line in shown.splitlines() if "=" in line)
        if int(props["MainPID"]) != os.getpid():
            return None
        return int(props["NRestarts"])
    except (OSError, subprocess.SubprocessError, KeyError, ValueError):
        return None


_restarts = restarts_by_systemd  # replaced in tests


class _Stopped(Exception):
    pass


def _stop(signum: int, frame: object) -> None:
    raise _Stopped


@contextlib.contextmanager
def _stopped_clears(state_dir: Path) -> Iterator[None]:
    """SIGTERM during the wait: the count of failed starts is cleared, then the
    daemon ends by SIGTERM as it would have (systemd counts that a clean stop)."""
    if threading.current_thread() is not threading.main_thread():  # only the main thread takes signals
        yield
        return
    before = signal.signal(signal.SIGTERM, _stop)
    try:
        yield
    except _Stopped:
        started(state_dir)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)
        raise SystemExit(128 + signal.SIGTERM) from None  # not reached: the signal ends the process
    finally:
        if signal.getsignal(signal.SIGTERM) is _stop:
            signal.signal(signal.SIGTERM, before)


def started(state_dir: Path) -> None:
    """The table came up: the next failure waits the shortest time again."""
    with contextlib.suppress(FileNotFoundError):
        (state_dir / COUNTER).unlink()


def show(screens: list, problem: str, wait: float, lang: str) -> list[str]:
    """Draw the problem on each screen that opens; the names of those that did."""
    from drivers import parts
    from drivers.base import HardwareError as DriverError
    from pi_app.ui.screens import Layout, render

    frame = render(Layout(title=i18n.t("startup.not-ready", lang), lines=(problem,),
                          footer=i18n.t("startup.retry", lang, seconds=f"{wait:.0f}"), alert=True))
    shown: list[str] = []
    resets: set[int] = set()  # SPI screens share a reset line: pulsing it again would blank the others
    for spec in screens:
        try:
            screen = parts.open_screen(spec, spi_resets=resets)
        except (OSError, ValueError, DriverError):  # this screen is missing too: try the next
            continue
        try:
            if screen.show(frame, problem):
                shown.append(spec.name)
        except (OSError, DriverError):
            pass
        finally:
            # luma blanks a screen it closes unless told to persist: the message
            # must stay up while the daemon waits and after it exits.
            device = getattr(screen, "device", None)
            if device is not None:
                device.persist = True
            with contextlib.suppress(OSError, DriverError):
                screen.close()
    return shown


def gpio_library() -> str:
    """What the GPIO library says when imported here, for the system log.

    lgpio makes its notification pipe at import, in $LG_WD or else the working
    directory; under a unit that cannot write there, gpiozero cannot use it.
    Said at every start under systemd, on a simulated table too, so that a
    broken install shows before a real table's buttons do."""
    try:
        import lgpio  # type: ignore[import-not-found, import-untyped, unused-ignore]
    except ImportError as exc:
        return f"GPIO library: lgpio is not installed ({exc})"
    except Exception as exc:  # whatever lgpio raises, it goes to the log
        return f"GPIO library: lgpio cannot be imported: {type(exc).__name__}: {exc}"
    from importlib import metadata

    try:
        version = metadata.version("lgpio")
    except metadata.PackageNotFoundError:  # Raspberry Pi OS's python3-lgpio has no metadata
        version = hex(getattr(lgpio, "LGPIO_PY_VERSION", 0))
    where = os.environ.get("LG_WD") or os.getcwd()
    return f"GPIO library: lgpio {version} (its notification pipe in {where})"
