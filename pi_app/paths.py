"""Where the daemon keeps its journal and tag registry."""

from __future__ import annotations

import os
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
