"""Every module a laptop uses imports with the Pi-only libraries absent."""

from __future__ import annotations

import subprocess
import sys

LAPTOP_MODULES = [
    "drivers",
    "drivers.base",
    "drivers.events",
    "drivers.parts",
    "drivers.watcher",
    "drivers.buttons",
    "drivers.lights",
    "drivers.screens",
    "drivers.spi_decoder",
    "drivers.rc522",
    "drivers.rc522.driver",
    "drivers.rc522.mfrc522_adapter",
    "drivers.sim.rc522_emulator",
    "drivers.sim.fake_spi",
    "drivers.sim.readers",
    "drivers.sim.screens",
    "drivers.sim.gpio",
    "drivers.sim.i2c",
    "drivers.sim.spi_screens",
]

SCRIPT = """
import sys
for name in ("spidev", "RPi", "RPi.GPIO", "lgpio", "mfrc522"):
    sys.modules[name] = None  # importing it now raises ImportError
import importlib
for module in {modules!r}:
    importlib.import_module(module)
from drivers.sim.readers import emulated_rc522
reader, chip = emulated_rc522("pad")
chip.add_tag("04A1B2C3D4E5F6")
assert reader.poll() == {{"04A1B2C3D4E5F6"}}
leaked = [m for m in ("spidev", "RPi.GPIO", "lgpio", "mfrc522") if sys.modules.get(m) is not None]
assert not leaked, leaked
print("ok")
"""


def test_laptop_modules_import_without_pi_libraries() -> None:
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT.format(modules=LAPTOP_MODULES)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
