"""Simulated screens: luma's dummy device, keeping every frame it is sent (and the words each
frame says), saved as PNG on demand."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PIL import Image

from drivers.screens import OledScreen


def _recording_device(width: int, height: int, keep: int) -> Any:
    from luma.core.device import dummy

    class RecordingDummy(dummy):
        """luma's dummy device that keeps the last ``keep`` frames in ``frames``
        and, at the same index in ``texts``, the words each one says."""

        def __init__(self) -> None:
            super().__init__(width=width, height=height, mode="1")
            self.frames: list[Image.Image] = []
            self.texts: list[str] = []
            self.caption = ""  # the words of the frame about to be displayed

        def display(self, image: Image.Image) -> None:
            super().display(image)
            self.frames.append(self.image)
            self.texts.append(self.caption)
            del self.frames[:-keep], self.texts[:-keep]

        def cleanup(self) -> None:
            pass  # nothing to switch off

    return RecordingDummy()


class SimulatedOled(OledScreen):
    """An OledScreen on the recording dummy: each kept frame is kept with its words."""

    def show(self, frame: Image.Image, text: str = "") -> bool:
        self.device.caption = text
        return super().show(frame, text)


def simulated_oled(name: str, *, width: int = 128, height: int = 64, keep: int = 1000) -> OledScreen:
    """A screen on luma's dummy device; its ``device.frames`` holds every frame sent (up to ``keep``)
    and ``device.texts`` their words."""
    if keep < 1:
        raise ValueError(f"screen {name}: keep must be at least 1, got {keep}")
    return SimulatedOled(name, _recording_device(width, height, keep), where="simulated screen")


def frames(screen: OledScreen) -> list[Image.Image]:
    """The frames a simulated screen was sent, oldest first."""
    try:
        return list(screen.device.frames)
    except AttributeError:
        raise TypeError(f"screen {screen.name} is not a simulated screen: it keeps no frames") from None


def texts(screen: OledScreen) -> list[str]:
    """The words of each frame :func:`frames` gives, at the same index."""
    try:
        return list(screen.device.texts)
    except AttributeError:
        raise TypeError(f"screen {screen.name} is not a simulated screen: it keeps no frames") from None


def save_png(screen: OledScreen, path: str | Path, index: int = -1) -> Path:
    """Save one frame of a simulated screen (the last by default) as a PNG; returns the path."""
    kept = frames(screen)
    if not kept:
        raise ValueError(f"screen {screen.name} has not been sent a frame yet")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    kept[index].save(path, format="PNG")
    return path


def save_all_png(screen: OledScreen, folder: str | Path) -> list[Path]:
    """Save every kept frame as ``<name>-0001.png`` ... in ``folder``."""
    folder = Path(folder)
    return [
        save_png(screen, folder / f"{screen.name.replace('/', '_')}-{i + 1:04d}.png", i)
        for i in range(len(frames(screen)))
    ]
