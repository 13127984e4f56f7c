"""The strength run's results: one JSON line per finished game, in a directory.

The 200-game strength run (bench/bench_players.py) is days of CPU, so it is
played in shards, on several machines or over several nights, and gathered
afterwards. Each game is a (cell, index) pair whose seeds follow from the
pair alone, so any machine plays the same game; a pair belongs to one shard
of N by a hash of the pair, so N shards share every cell's games without one
played twice or one left out, whatever ``--games`` or the cells chosen.

Each finished game is appended to the shard's file as one line, flushed and
synced before the next game starts: a crash or an interrupted run loses at
most the game in progress. A last line cut short by such a stop is set aside
with a warning naming the file and the line; a damaged line anywhere else is
refused, since nothing but tampering or a broken disk explains it.

A game counts only for the code that played it: each line carries the
fingerprint of the sources that decide play (rules/, players/, the seeding
here), the budget and Python's version, and a report counts the games of one
fingerprint.
"""

from __future__ import annotations

import contextlib
import datetime
import fcntl
import hashlib
import json
import os
import socket
import sys
from collections.abc import Iterable
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[1]
#: The folders whose every file decides how a strength game is played.
PLAY_SOURCES = ("rules", "players")
#: The seeding and game loop of bench_players.one_game(): bump when they change,
#: since they decide play as much as the sources do.
SCHEME = 1


class ResultsError(Exception):
    """A results file that cannot be read as it is: says which file, which line and why."""


@dataclass(frozen=True)
class GameRecord:
    """One finished strength game, as written on its line."""

    cell: str  # "label vs opponent", e.g. "artus 2p mode=beginner vs greedy"
    index: int  # the game's number in its cell: its seeds follow from it
    game: str
    players: int
    options: dict[str, Any]
    opponent: str  # random or greedy
    seed: int  # the game's own seed (deals, orders)
    bot_seat: int
    bot_seed: int
    result: list[float]  # each seat's share of the win
    winners: list[int]
    share: float  # the computer's share
    moves: int  # every move of the game, chance draws included
    computer_moves: int  # the computer's decisions (with a choice)
    seconds: float  # wall time of the whole game
    cpu_seconds: float  # this process's CPU time over the game
    iterations: int  # the computer's budget
    time_limit: float | None  # its seconds per move, if any (play then follows the machine)
    fingerprint: str
    host: str
    finished: str  # UTC, ISO 8601

    def line(self) -> str:
        return json.dumps(asdict(self), sort_keys=True, separators=(",", ":")) + "\n"


FIELD_TYPES: dict[str, tuple[type, ...]] = {
    "cell": (str,), "index": (int,), "game": (str,), "players": (int,), "options": (dict,),
    "opponent": (str,), "seed": (int,), "bot_seat": (int,), "bot_seed": (int,), "result": (list,),
    "winners": (list,), "share": (int, float), "moves": (int,), "computer_moves": (int,),
    "seconds": (int, float), "cpu_seconds": (int, float), "iterations": (int,),
    "time_limit": (int, float, type(None)), "fingerprint": (str,), "host": (str,), "finished": (str,),
}
assert set(FIELD_TYPES) == {f.name for f in fields(GameRecord)}


def fingerprint(iterations: int, time_limit: float | None, root: Path = ROOT) -> str:
    """A hash of every file under rules/ and players/, the seeding scheme, the
    budget and Python's version: the random module keeps its sequences only
    within a version (its documentation says choice() and shuffle() may change)."""
    python = ".".join(str(part) for part in sys.version_info[:2])
    digest = hashlib.sha256(f"scheme {SCHEME}; iterations {iterations}; seconds {time_limit}; "
                            f"python {python}\n".encode())
    for folder in PLAY_SOURCES:
        for path in sorted((root / folder).rglob("*")):
            if not path.is_file() or "__pycache__" in path.parts or path.suffix == ".pyc":
                continue
            digest.update(f"{path.relative_to(root).as_posix()}\n".encode())
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:16]


def parse_shard(text: str) -> tuple[int, int]:
    """``"K/N"``: shard K of N, K from 1 to N."""
    k, sep, n = text.partition("/")
    if not sep or not k.isdigit() or not n.isdigit() or not 1 <= int(k) <= int(n):
        raise ValueError(f"a shard is K/N with 1 <= K <= N, e.g. 2/4, not {text!r}")
    return int(k), int(n)


def shard_of(cell: str, index: int, shards: int) -> int:
    """The shard (1 to ``shards``) that plays game ``index`` of ``cell``."""
    return int.from_bytes(hashlib.sha256(f"{cell}#{index}".encode()).digest()[:8], "big") % shards + 1


def now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


def host() -> str:
    return socket.gethostname() or "host"


def _record(raw: str, where: str) -> GameRecord:
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as e:
        raise ResultsError(f"{where}: not a JSON line ({e.msg})") from None
    if not isinstance(data, dict):
        raise ResultsError(f"{where}: not a game record (a JSON object)")
    missing = sorted(set(FIELD_TYPES) - set(data))
    if missing:
        raise ResultsError(f"{where}: a game record lacks {', '.join(missing)}")
    for name, types in FIELD_TYPES.items():
        value = data[name]
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            raise ResultsError(f"{where}: {name} is {value!r}, which is not a {types[0].__name__}")
    return GameRecord(**{name: data[name] for name in FIELD_TYPES})


def _torn(raw: str) -> bool:
    try:
        _record(raw, "")
    except ResultsError:
        return True
    return False


def split_lines(text: str) -> tuple[list[str], str | None]:
    """The file's complete lines, and its torn last line if it has one: a
    last line without its newline, or whose record does not read (a game
    being written when the run stopped)."""
    lines = text.split("\n")
    if lines[-1] != "":
        return lines[:-1], lines[-1]
    lines.pop()
    if lines and _torn(lines[-1]):
        return lines[:-1], lines[-1]
    return lines, None


def read_file(path: Path, warn: list[str]) -> list[GameRecord]:
    """The games of one results file. A torn last line is left out with a
    warning in ``warn``; a damaged line before it raises ResultsError."""
    complete, torn = split_lines(path.read_bytes().decode("utf-8", errors="replace"))
    records = [_record(raw, f"{path}, line {number}") for number, raw in enumerate(complete, 1)]
    if torn is not None:
        warn.append(f"{path}, line {len(complete) + 1}: a torn last line (a game being written when "
                    f"the run stopped) is not counted; that game will be played again")
    return records


def read_results(folder: Path, warn: list[str]) -> list[GameRecord]:
    """Every game of every ``*.jsonl`` file in ``folder``, in file and line order."""
    if not folder.is_dir():
        raise ResultsError(f"{folder}: no such results directory")
    return [r for path in sorted(folder.glob("*.jsonl")) for r in read_file(path, warn)]


def unique(records: Iterable[GameRecord], warn: list[str]) -> dict[tuple[str, str, int], GameRecord]:
    """One record per (fingerprint, cell, index): the first. A game played twice
    (two machines given the same shard) counts once; if its results differ the
    play was not repeatable, which the warning says."""
    out: dict[tuple[str, str, int], GameRecord] = {}
    twice = differ = 0
    for r in records:
        key = (r.fingerprint, r.cell, r.index)
        if key in out:
            twice += 1
            differ += out[key].result != r.result
            continue
        out[key] = r
    if twice:
        warn.append(f"{twice} game(s) were played more than once and count once"
                    + (f"; {differ} of them ended differently (play with a time limit follows the machine)"
                       if differ else ""))
    return out


def being_written(path: Path) -> bool:
    """Whether a running ResultsWriter holds ``path`` (its lock is let go when
    the process ends, however it ends)."""
    try:
        with open(path, "rb") as f:
            fcntl.flock(f.fileno(), fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:  # gone since the listing: nobody writes it
        pass
    return False


class ResultsWriter:
    """Appends finished games to one file of the results directory, each line
    flushed and synced to the disk before the next game starts. One process
    writes a file at a time (a lock says so)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        new = not path.exists()
        self._file: IO[bytes] = open(path, "a+b")  # noqa: SIM115 (closed by close())
        try:
            fcntl.flock(self._file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self._file.close()
            raise ResultsError(f"{path}: another process is writing this file; give each run its own "
                               f"shard or results directory") from None
        if new:  # the file's name must survive a power cut as well as its lines
            with contextlib.suppress(OSError):
                fd = os.open(path.parent, os.O_RDONLY)
                os.fsync(fd)
                os.close(fd)
        self._cut_torn_tail()

    def _cut_torn_tail(self) -> None:
        """A torn last line would glue itself to the next game's line: cut it off."""
        self._file.seek(0)
        complete, torn = split_lines(self._file.read().decode("utf-8", errors="replace"))
        if torn is None:
            return
        print(f"{self.path}, line {len(complete) + 1}: a torn last line (a game being written when the "
              f"run stopped) is removed; that game will be played again", file=sys.stderr)
        self._file.truncate(sum(len(line.encode()) + 1 for line in complete))
        self._sync()

    def _sync(self) -> None:
        self._file.flush()
        os.fsync(self._file.fileno())

    def write(self, record: GameRecord) -> None:
        self._file.write(record.line().encode())  # append mode: always at the end
        self._sync()

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> ResultsWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
