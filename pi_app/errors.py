"""Every error the daemon reports to the user as a sentence, not a
traceback: the whole family in one place (after gpiozero's ``exc.py``).

    UsageError                   bad input: a file, a line, an argument (exit status 2)
    ├── NothingToResume          no unfinished game and none asked for
    ├── ProfileError             a table profile that cannot be used
    ├── RegistryError            a tag registry that cannot be used
    ├── JournalError             a journal that cannot be used
    │   └── JournalWriteError    a write the disk refused (full, failing, read-only)
    └── HardwareError            a part of the table that cannot be built; also a
                                 drivers.base.HardwareError, so one ``except`` takes
                                 the drivers' own (ReaderError, ScreenError, GpioError)

The drivers keep their own family in ``drivers/base.py``: they never
import the daemon.
"""

from __future__ import annotations

from pathlib import Path

from drivers.base import HardwareError as DriverError


class UsageError(Exception):
    """Bad input from the user: a file, a line, an argument. Exit status 2."""


class NothingToResume(UsageError):
    """The journal holds no unfinished game and none was asked for."""


class ProfileError(UsageError):
    """A profile that cannot be used: every problem with its line and fix."""


class RegistryError(UsageError):
    """A tag registry that cannot be read or written."""


class JournalError(UsageError):
    """A journal that cannot be used; the message names the file and the fault.
    ``fault`` is the fault alone (``game 3 move 17 ... does not apply: ...``)."""

    def __init__(self, message: str, fault: str = "") -> None:
        super().__init__(message)
        self.fault = fault or message


class JournalWriteError(JournalError):
    """A write refused by the storage (``reason``: disk full, I/O error,
    read-only); the transaction rolled back and nothing was written."""

    def __init__(self, path: Path, reason: str, detail: str) -> None:
        fix = _WRITE_FIXES.get(reason, _WRITE_FIXES["I/O error"]).format(dir=path.parent)
        super().__init__(f"journal {path} cannot be written: {reason} ({detail}); {fix}", reason)
        self.reason = reason


#: what to do about each way the storage refuses a write
_WRITE_FIXES = {
    "disk full": "free space on the disk (old logs: sudo journalctl --vacuum-size=20M) or give --state-dir "
                 "a directory on another one",
    "read-only": "make the journal and {dir} writable by the user the table runs as (sudo chown -R "
                 "tablekeeper: {dir}) or remount the disk read-write",
    "I/O error": "the storage is failing: copy {dir} to another disk and give --state-dir that copy, or "
                 "replace the SD card",
}


class HardwareError(UsageError, DriverError):
    """A part that cannot be built: names the part and what to check."""
