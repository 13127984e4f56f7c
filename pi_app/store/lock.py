"""One daemon per state directory: an exclusive lock on a file in it.

Two daemons on one journal would both write moves (the second's resume
racing the first's game) and break it; so ``run`` takes this lock before it
opens anything and keeps it while it runs. The kernel lets go of it when the
process ends, however it ends (a power cut leaves no stale lock to clear).
The file holds the holder's PID, so that a refusal can name it.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import IO

from pi_app.errors import UsageError

NAME = "daemon.lock"


class StateLocked(UsageError):
    """Another process holds the state directory."""


def hold(state_dir: Path) -> IO[str]:
    """The lock of ``state_dir``, held until the returned file is closed or
    the process ends; :class:`StateLocked` at once when another holds it."""
    path = state_dir / NAME
    try:
        state_dir.mkdir(parents=True, exist_ok=True)
        file = open(path, "a+", encoding="utf-8")  # noqa: SIM115 (held for the daemon's life)
    except OSError as exc:
        raise UsageError(f"the state directory {state_dir} cannot be locked ({exc.strerror}: {path}); "
                         "give --state-dir a directory Tablekeeper may write in") from None
    try:
        fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        file.seek(0)
        holder = file.read().strip() or "unknown"
        file.close()
        raise StateLocked(
            f"another Tablekeeper (PID {holder}) is already running on {state_dir} (it holds {path}); "
            "only one may use a journal: stop that one first (sudo systemctl stop tablekeeper, or quit "
            "it), or give --state-dir another directory") from None
    file.seek(0)
    file.truncate()
    file.write(f"{os.getpid()}\n")
    file.flush()
    return file
