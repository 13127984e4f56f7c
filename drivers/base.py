"""The small interfaces every backend implements (real and simulated alike)."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from PIL import Image


class ReaderError(Exception):
    """A tag reader did not answer (unplugged, wrong wiring, dead chip)."""


@runtime_checkable
class TagReader(Protocol):
    """A reader pad or zone: which tags are in its field right now."""

    name: str

    def poll(self) -> frozenset[str]:
        """UIDs (upper-case hex) in the field now; raises ReaderError."""
        ...

    def close(self) -> None: ...


@runtime_checkable
class Screen(Protocol):
    """A 128x64 monochrome screen."""

    name: str
    size: tuple[int, int]

    def show(self, frame: Image.Image) -> bool:
        """Display ``frame`` (mode "1", ``size``); return False and send
        nothing when it equals the frame already shown."""
        ...

    def close(self) -> None: ...


@runtime_checkable
class Light(Protocol):
    """A seat's light."""

    name: str

    def on(self) -> None: ...

    def off(self) -> None: ...

    def blink(self, on_time: float = 0.5, off_time: float = 0.5, n: int | None = None) -> None: ...

    def close(self) -> None: ...
