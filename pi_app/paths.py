"""Where the daemon keeps its journal and tag registry, and where lgpio may write."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def state_dir(given: str | None = None) -> Path:
    """``--state-dir``, else systemd's $STATE_DIRECTORY, else
    $TABLEKEEPER_STATE, else ~/.local/state/tablekeeper."""
    if given:
        return Path(given)
    for var in ("STATE_DIRECTORY", "TABLEKEEPER_STATE"):
        value = os.environ.get(var)
        if value:
            return Path(value.split(":")[0])
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "tablekeeper"


def journal_path(given: str | None = None) -> Path:
    return state_dir(given) / "journal.sqlite"


def registry_path(given: str | None = None) -> Path:
    return state_dir(given) / "tags.sqlite"


def lgpio_workdir() -> None:
    """Give lgpio a folder it can write when the working directory is not one.

    lgpio makes its notification pipe at import in $LG_WD, else in the working
    directory. ``sudo -u tablekeeper tablekeeper doctor`` run from the
    builder's home cannot write there: lgpio's import fails and gpiozero falls
    back to another library or, on a Pi 5, says BadPinFactory. The unit sets
    LG_WD itself; a command without it uses the temporary directory."""
    if os.environ.get("LG_WD"):
        return
    try:
        writable = os.access(os.getcwd(), os.W_OK)
    except OSError:  # the working directory is gone or cannot be read
        writable = False
    if not writable:
        os.environ["LG_WD"] = tempfile.gettempdir()
