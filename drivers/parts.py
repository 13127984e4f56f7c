"""Build any part from a table-profile entry: the one call per part the daemon makes.

A spec is a mapping (a TOML table) or any object with the same attributes (a
dataclass). Unknown backends and bad values raise ValueError naming the part,
the bad value and the choices; hardware that does not answer raises a
:class:`~drivers.base.HardwareError` subclass.

=========  =====================================================================
part       spec keys (defaults)
=========  =====================================================================
reader     name, backend: rc522 | mfrc522 | hub | sim | emulated;
           rc522: bus (0), device (0), cs_pin, rst_pin, irq_pin, antenna_gain_db,
           timeout_ms (1), speed_hz (4000000), max_tags (6);
           mfrc522: bus, device, rst_pin (25);
           hub: hub (name in ``hubs``), index (0)
screen     name, backend: luma | sim (``dummy`` too); driver (sh1106) | ssd1306,
           interface (i2c) | spi, port (1), address (0x3C), mux_address (0x70),
           mux_channel, spi_port (0), spi_device (1), dc_pin (24), rst_pin (25),
           rotate (0)
button     name, pin, pull_up (true), hold_time (1.0), bounce_time (0.02)
encoder    name, pin_a, pin_b
light      name, kind: led | pwm | rgb, pin (led/pwm) or pins [r, g, b] (rgb),
           active_high (true), colour ([1, 1, 1])
=========  =====================================================================
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from drivers.base import TagReader
from drivers.buttons import TableButton, TableEncoder
from drivers.events import EventSink
from drivers.lights import TableLight, open_light
from drivers.screens import I2cBuses, OledScreen, open_oled

READER_BACKENDS = ("rc522", "mfrc522", "hub", "sim", "emulated")
SCREEN_BACKENDS = ("luma", "sim", "dummy")

_MISSING = object()


def _get(spec: Any, key: str, default: Any = _MISSING) -> Any:
    value = spec.get(key, default) if isinstance(spec, Mapping) else getattr(spec, key, default)
    if value is _MISSING:
        raise ValueError(f"{_name(spec)}: the spec has no {key!r}")
    return value


def _name(spec: Any) -> str:
    name = spec.get("name") if isinstance(spec, Mapping) else getattr(spec, "name", None)
    if not name:
        raise ValueError(f"a part spec has no name: {spec!r}")
    return str(name)


def _first(spec: Any, keys: tuple[str, ...], default: Any) -> Any:
    for key in keys:
        value = _get(spec, key, None)
        if value is not None:
            return value
    return default


def _choice(kind: str, name: str, value: str, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise ValueError(f"{kind} {name}: backend {value!r} is not one of {', '.join(allowed)}")
    return value


def open_reader(spec: Any, *, hubs: Mapping[str, Any] | None = None, **extra: Any) -> TagReader:
    """A TagReader for a profile entry (``extra`` goes to the backend, e.g. ``pin_factory``)."""
    name = _name(spec)
    backend = _choice("reader", name, str(_get(spec, "backend")), READER_BACKENDS)
    if backend == "sim":
        from drivers.sim.readers import SimulatedReader

        return SimulatedReader(name)
    if backend == "emulated":
        from drivers.sim.readers import emulated_rc522

        return emulated_rc522(name, max_tags=int(_get(spec, "max_tags", 6)))[0]
    if backend == "hub":
        hub_name = _get(spec, "hub", None)
        if hubs is None or hub_name not in hubs:
            known = ", ".join(hubs or {}) or "none"
            raise ValueError(f"reader {name}: hub {hub_name!r} is not open (open hubs: {known})")
        return hubs[hub_name].reader(int(_get(spec, "index", 0)), name)  # type: ignore[no-any-return]
    if backend == "mfrc522":
        from drivers.rc522.mfrc522_adapter import open_mfrc522

        return open_mfrc522(
            name,
            bus=int(_get(spec, "bus", 0)),
            device=int(_get(spec, "device", 0)),
            reset_pin=int(_first(spec, ("rst_pin", "reset_pin"), 25)),
        )
    from drivers.rc522.driver import open_rc522

    return open_rc522(
        name,
        bus=int(_get(spec, "bus", 0)),
        device=int(_get(spec, "device", 0)),
        cs_pin=_get(spec, "cs_pin", None),
        reset_pin=_first(spec, ("rst_pin", "reset_pin"), None),
        irq_pin=_get(spec, "irq_pin", None),
        antenna_gain_db=_get(spec, "antenna_gain_db", None),
        timeout_ms=float(_get(spec, "timeout_ms", 1.0)),
        speed_hz=int(_get(spec, "speed_hz", 4_000_000)),
        max_tags=int(_get(spec, "max_tags", 6)),
        **extra,
    )


def open_screen(spec: Any, *, i2c: I2cBuses | None = None, keep: int = 1000) -> OledScreen:
    """An OledScreen for a profile entry; screens sharing a bus should share ``i2c``."""
    name = _name(spec)
    backend = _choice("screen", name, str(_get(spec, "backend", "luma")), SCREEN_BACKENDS)
    if backend in ("sim", "dummy"):
        from drivers.sim.screens import simulated_oled

        return simulated_oled(name, keep=keep)
    return open_oled(
        name,
        driver=str(_get(spec, "driver", "sh1106")),
        interface=str(_get(spec, "interface", "i2c")),
        port=int(_get(spec, "port", 1)),
        address=int(_get(spec, "address", 0x3C)),
        mux_address=_get(spec, "mux_address", None),
        mux_channel=_get(spec, "mux_channel", None),
        spi_port=int(_get(spec, "spi_port", 0)),
        spi_device=int(_get(spec, "spi_device", 1)),
        gpio_dc=int(_first(spec, ("dc_pin", "gpio_dc"), 24)),
        gpio_rst=int(_first(spec, ("rst_pin", "gpio_rst"), 25)),
        rotate=int(_get(spec, "rotate", 0)),
        i2c=i2c,
    )


def open_button(
    spec: Any, events: EventSink, *, pin_factory: Any = None, clock: Callable[[], float] | None = None
) -> TableButton:
    name = _name(spec)
    options: dict[str, Any] = {"pin_factory": pin_factory}
    if clock is not None:
        options["clock"] = clock
    return TableButton(
        name,
        int(_get(spec, "pin")),
        events,
        pull_up=bool(_get(spec, "pull_up", True)),
        hold_time=float(_get(spec, "hold_time", 1.0)),
        bounce_time=_get(spec, "bounce_time", 0.02),
        **options,
    )


def open_encoder(spec: Any, events: EventSink, *, pin_factory: Any = None) -> TableEncoder:
    return TableEncoder(
        _name(spec), int(_get(spec, "pin_a")), int(_get(spec, "pin_b")), events, pin_factory=pin_factory
    )


def open_light_spec(spec: Any, *, pin_factory: Any = None) -> TableLight:
    name = _name(spec)
    kind = str(_get(spec, "kind", "led"))
    kind = {"pwmled": "pwm", "rgbled": "rgb"}.get(kind, kind)
    pins = _get(spec, "pins", None)
    colour = _get(spec, "colour", None) or _get(spec, "color", None) or (1.0, 1.0, 1.0)
    return open_light(
        name,
        kind=kind,
        pin=_get(spec, "pin", None),
        pins=tuple(pins) if pins is not None else None,  # type: ignore[arg-type]
        active_high=bool(_get(spec, "active_high", True)),
        colour=tuple(colour),  # type: ignore[arg-type]
        pin_factory=pin_factory,
    )
