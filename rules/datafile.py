"""Reading the games' data files: one error type naming file, entry and line.

Every engine validates its data at import; a broken file is refused with a
sentence a player who edited it can act on: ``map.json:14: Deva: borders
Nowhere, which is not a region``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any


class DataError(ValueError):
    """A data file that cannot be used: names the file, the entry, the fault
    and, where it can be found, the line the entry stands on."""

    def __init__(self, file: Path | str, entry: str, problem: str, line: int | None = None) -> None:
        self.file = Path(file)
        self.entry = entry
        self.problem = problem
        if line is None and self.file.is_file():
            line = locate(self.file.read_text(encoding="utf-8", errors="replace"), entry)
        self.line = line
        # The line goes last so the sentence starts with what to look for.
        at = f" (line {line})" if line and not entry.startswith("line ") else ""
        super().__init__(f"{self.file.name}: {entry}: {problem}{at}")

    def located(self, directory: Path) -> DataError:
        """The same error with its line, for loaders that name files only."""
        if self.line is not None or self.file.is_file():
            return self
        return DataError(directory / self.file.name, self.entry, self.problem)


def read_json(path: Path) -> Any:
    """A data file's JSON; DataError with the line when it is not JSON."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise DataError(path.name, "file", f"cannot be read ({exc.strerror or exc})", line=0) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise DataError(path, f"line {line}", f"not UTF-8 text (byte {exc.start}); save the file as UTF-8",
                        line=line) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(path, f"line {exc.lineno}", f"not valid JSON ({exc.msg}, column {exc.colno})",
                        line=exc.lineno) from None


def locate(text: str, entry: str) -> int | None:
    """The line of ``text`` where ``entry`` (``regions.Deva``, ``card
    knight-3-6``, ``rows[2]``) most likely stands: the first line quoting its
    most specific name that the file quotes at all."""
    names = [n.strip() for n in re.split(r"[.\[\]:,()]|\s{2,}", entry) if n.strip()]
    words = [w for n in names for w in n.split()] if names else []
    lines = text.splitlines()
    for name in [*reversed(names), *reversed(words)]:
        quoted = json.dumps(name)
        for number, line in enumerate(lines, start=1):
            if quoted in line:
                return number
    return None
