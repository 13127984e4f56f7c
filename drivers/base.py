"""The small interfaces every backend implements (real and simulated alike)."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from PIL import Image


class HardwareError(Exception):
    """A part could not be set up or stopped answering; the message names the part and what to check."""


class ReaderError(HardwareError):
    """A tag reader did not answer (unplugged, wrong wiring, dead chip)."""


class ScreenError(HardwareError):
    """A screen could not be opened or did not take a frame (wrong address, bus or wiring)."""


class GpioError(HardwareError):
    """A button, encoder or light could not get its GPIO pins (pin in use, no pin library)."""


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
    text: str  # the words of the frame shown now

    def show(self, frame: Image.Image, text: str = "") -> bool:
        """Display ``frame`` (mode "1", ``size``), which says ``text``; return
        False and send nothing when it equals the frame already shown."""
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
