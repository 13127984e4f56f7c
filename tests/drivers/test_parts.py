"""Building parts from profile entries (mappings or dataclasses)."""

from __future__ import annotations

import queue
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from drivers import parts
from drivers.base import Light, Screen, TagReader
from drivers.events import ButtonPressed
from drivers.sim.fake_spi import FakeSpiBus, fake_spidev
from drivers.sim.gpio import mock_factory
from drivers.sim.i2c import FakeI2cBus
from drivers.sim.rc522_emulator import RC522Chip
from drivers.sim.readers import SimulatedReader


@pytest.fixture
def factory() -> Iterator[Any]:
    f = mock_factory()
    yield f
    f.close()


@dataclass(frozen=True)
class ReaderSpec:
    name: str
    backend: str
    bus: int = 0
    device: int = 0
    cs_pin: int | None = None
    rst_pin: int | None = None


def test_simulated_and_emulated_readers() -> None:
    sim = parts.open_reader({"name": "seat1.pad", "backend": "sim"})
    assert isinstance(sim, SimulatedReader) and isinstance(sim, TagReader)
    emulated = parts.open_reader(ReaderSpec("zone.north", "emulated"))
    assert emulated.poll() == frozenset()


def test_rc522_readers_sharing_a_reset_line(factory: Any) -> None:
    chips = [RC522Chip(), RC522Chip()]
    chips[0].add_tag("DEADBEEF")
    chips[1].add_tag("04A1B2C3D4E5F6")
    spi_bus = FakeSpiBus()
    spi_bus.attach(chips[0], 0, 0)
    spi_bus.attach(chips[1], 0, 1)
    with fake_spidev(spi_bus):
        one = parts.open_reader(ReaderSpec("seat1.pad", "rc522", device=0, rst_pin=25), pin_factory=factory)
        two = parts.open_reader(ReaderSpec("seat2.pad", "rc522", device=1, rst_pin=25), pin_factory=factory)
        assert one.poll() == {"DEADBEEF"}
        assert two.poll() == {"04A1B2C3D4E5F6"}
        one.close()
        assert factory.pin(25).state  # still held high for seat2.pad
        two.close()


def test_hub_reader_needs_an_open_hub() -> None:
    class Hub:
        def reader(self, index: int, name: str) -> SimulatedReader:
            return SimulatedReader(f"{name}#{index}")

    spec = {"name": "seat3.pad", "backend": "hub", "hub": "hub", "index": 1}
    assert parts.open_reader(spec, hubs={"hub": Hub()}).name == "seat3.pad#1"
    with pytest.raises(ValueError, match="hub 'hub' is not open"):
        parts.open_reader(spec)


def test_unknown_backends_and_missing_keys() -> None:
    with pytest.raises(ValueError, match=r"reader seat1\.pad: backend 'rc523' is not one of rc522, mfrc522"):
        parts.open_reader({"name": "seat1.pad", "backend": "rc523"})
    with pytest.raises(ValueError, match="screen s: backend 'lcd' is not one of luma, sim"):
        parts.open_screen({"name": "s", "backend": "lcd"})
    with pytest.raises(ValueError, match="a part spec has no name"):
        parts.open_reader({"backend": "sim"})
    with pytest.raises(ValueError, match=r"seat1\.ok: the spec has no 'pin'"):
        parts.open_button({"name": "seat1.ok"}, queue.Queue())


def test_screens() -> None:
    sim = parts.open_screen({"name": "shared.screen", "backend": "sim"})
    assert isinstance(sim, Screen) and sim.test_pattern()
    from drivers.screens import I2cBuses

    bus = FakeI2cBus({(4, 0x3C)})
    real = parts.open_screen(
        {"name": "shared.screen", "backend": "luma", "mux_channel": 4},
        i2c=I2cBuses(opener=lambda port: bus),
    )
    assert real.test_pattern()
    assert "channel 4" in real.where


def test_buttons_encoders_and_lights(factory: Any) -> None:
    events: queue.Queue = queue.Queue()
    ok = parts.open_button({"name": "seat1.ok", "pin": 5}, events, pin_factory=factory, clock=lambda: 2.0)
    factory.pin(5).drive_low()
    assert events.get_nowait() == ButtonPressed("seat1.ok", 2.0)
    assert ok.last_press == 2.0
    parts.open_encoder({"name": "knob", "pin_a": 20, "pin_b": 21}, events, pin_factory=factory)
    light = parts.open_light_spec({"name": "seat1.light", "pin": 22, "kind": "pwmled"}, pin_factory=factory)
    assert isinstance(light, Light) and light.kind == "pwm"
    rgb = parts.open_light_spec(
        {"name": "shared.light", "kind": "rgb", "pins": [16, 19, 26], "colour": [0, 0, 1]},
        pin_factory=factory,
    )
    rgb.on()
    assert factory.pin(26).state == 1 and factory.pin(16).state == 0
