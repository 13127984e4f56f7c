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
        super().__init__(f"journal {path} cannot be written: {reason} ({detail}); free space on the "
                         "disk or give --state-dir a directory on another one", reason)
        self.reason = reason


class HardwareError(UsageError, DriverError):
    """A part that cannot be built: names the part and what to check."""
