"""What hardware reports: small frozen events put on the queue a driver is given.

Driver callbacks only build one of these and ``queue.put`` it; the daemon's
session loop is the only consumer. Names (``reader``, ``button`` ...) are the
ids the table profile gives each part, e.g. ``seat1.pad`` or ``seat1.ok``.
UIDs are upper-case hex without separators (``04A1B2C3D4E5F6``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class TagArrived:
    reader: str
    uid: str
    at: float


@dataclass(frozen=True)
class TagLeft:
    reader: str
    uid: str
    at: float


@dataclass(frozen=True)
class ButtonPressed:
    button: str
    at: float


@dataclass(frozen=True)
class ButtonHeld:
    button: str
    at: float


@dataclass(frozen=True)
class ButtonReleased:
    """A held button let go: the end of what ButtonHeld began. Put only
    after a hold; a plain press is whole at ButtonPressed, so the queue does
    not carry a second event for every push."""

    button: str
    at: float


@dataclass(frozen=True)
class EncoderTurned:
    encoder: str
    steps: int
    at: float


@dataclass(frozen=True)
class ReaderFault:
    """A reader stopped answering; the watcher keeps retrying it."""

    reader: str
    error: str
    at: float


@dataclass(frozen=True)
class ReaderRecovered:
    reader: str
    at: float


HardwareEvent = (
    TagArrived | TagLeft | ButtonPressed | ButtonHeld | ButtonReleased | EncoderTurned | ReaderFault
    | ReaderRecovered
)


class EventSink(Protocol):
    """Where drivers put events: a ``queue.Queue`` or anything with ``put``."""

    def put(self, item: HardwareEvent) -> None: ...
