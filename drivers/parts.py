"""Build any part from a table-profile entry: the one call per part the daemon makes.

A spec is a mapping (a TOML table) or any object with the same attributes (a
dataclass). Unknown backends and bad values raise ValueError naming the part,
the bad value and the choices; hardware that does not answer raises a
:class:`~drivers.base.HardwareError` subclass.

Every part's settings (key, type, range, default) are declared once, in
:data:`SETTINGS`: the profile checks a table profile against them
(``pi_app.table.profile``) and the ``open_*`` functions below take their defaults
from them, so a key the driver takes is a key the profile accepts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from drivers.base import TagReader
from drivers.buttons import TableButton, TableEncoder
from drivers.events import EventSink
from drivers.lights import TableLight, open_light
from drivers.rc522 import chip as rc522_chip
from drivers.rc522 import driver as rc522_driver
from drivers.screens import I2cBuses, OledScreen, open_oled

READER_BACKENDS = ("rc522", "mfrc522", "hub", "sim", "emulated")
SCREEN_BACKENDS = ("luma", "sim", "dummy")
BUTTON_BACKENDS = ("gpio", "hub")  # gpio, the default: a pin of the Pi; hub: a button of the reader hub
LIGHT_KINDS = ("led", "pwm", "rgb", "pwmled", "rgbled")  # pwmled, rgbled: gpiozero's names

GPIO_PINS = (0, 27)  # BCM numbers on the 40-pin header
RC522_GAINS_DB = (18, 23, 33, 38, 43, 48)  # the chip's RFCfgReg RxGain steps


@dataclass(frozen=True)
class Setting:
    """One key of a part's profile entry: its type, range and default."""

    key: str
    kind: type  # int, float, str, bool or list
    default: Any = None
    low: float | None = None
    high: float | None = None
    choices: tuple[Any, ...] = ()
    required: bool = False
    size: int | None = None  # a list's length
    example: Any = None  # what to write instead of a bad value (default: the default)

    def problem(self, value: Any) -> str | None:
        """What is wrong with ``value`` for this key, or None."""
        kind = self.kind
        if kind is float:
            ok = isinstance(value, int | float) and not isinstance(value, bool)
        elif kind is int:
            ok = isinstance(value, int) and not isinstance(value, bool)
        else:
            ok = isinstance(value, kind)
        if not ok:
            return f"{self.key} must be {_KIND_WORDS[kind]}, not {value!r}"
        if self.choices and value not in self.choices:
            return f"{self.key} = {value!r} is not one of {', '.join(str(c) for c in self.choices)}"
        items = value if isinstance(value, list) else [value]
        if self.size is not None and len(items) != self.size:
            return f"{self.key} must hold {self.size} values, not {len(items)}"
        for item in items:
            if isinstance(value, list) and (not isinstance(item, int | float) or isinstance(item, bool)):
                return f"{self.key} must hold numbers, not {item!r}"
            if self.low is not None and item < self.low:
                return f"{self.key} = {value!r} is below {_number(self.low)}"
            if self.high is not None and item > self.high:
                return f"{self.key} = {value!r} is above {_number(self.high)}"
        return None

    def range_words(self) -> str:
        if self.choices:
            return "one of " + ", ".join(str(c) for c in self.choices)
        if self.low is not None and self.high is not None:
            return f"{_number(self.low)} to {_number(self.high)}"
        return _KIND_WORDS[self.kind]

    def suggestion(self) -> Any:
        return self.example if self.example is not None else self.default


_KIND_WORDS = {int: "a whole number", float: "a number", str: "a text in quotes", bool: "true or false",
               list: "a list [..]"}


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def _pin(key: str, *, required: bool = False, default: int | None = None, example: int = 17) -> Setting:
    return Setting(key, int, default, *GPIO_PINS, required=required, example=example)


_SPI = (Setting("bus", int, 0, 0, 6), Setting("device", int, 0, 0, 3))
_RST = _pin("rst_pin", example=25)

#: Every part's settings: part kind -> backend ("" when the kind has none) -> its keys.
#: ``name`` is given by the profile (``seat1.pad``) and is not a setting.
SETTINGS: dict[str, dict[str, tuple[Setting, ...]]] = {
    "reader": {
        "rc522": (*_SPI, _pin("cs_pin", example=8), _RST, _pin("irq_pin", example=24),
                  Setting("speed_hz", int, rc522_chip.DEFAULT_SPI_HZ, 10_000, 10_000_000, example=1_000_000),
                  Setting("antenna_gain_db", int, None, choices=RC522_GAINS_DB, example=33),
                  Setting("timeout_ms", float, rc522_chip.DEFAULT_TIMEOUT_MS, 0.5, 1000),
                  Setting("max_tags", int, 6, 1, 16),
                  Setting("confirm_every", int, rc522_driver.DEFAULT_CONFIRM_EVERY, 1, 20)),
        "mfrc522": (*_SPI, _pin("rst_pin", default=25)),
        # The firmware drives up to 16 readers (firmware/main.py, CS_PINS).
        "hub": (Setting("hub", str, None, example="hub"), Setting("index", int, 0, 0, 15)),
        "sim": (),
        "emulated": (Setting("max_tags", int, 6, 1, 16),),
    },
    "screen": {
        "luma": (Setting("driver", str, "sh1106", choices=("sh1106", "ssd1306")),
                 Setting("interface", str, "i2c", choices=("i2c", "spi")),
                 Setting("port", int, 1, 0, 22),
                 Setting("address", int, 0x3C, 0x03, 0x77, example="0x3C"),
                 Setting("mux_address", int, None, 0x70, 0x77, example="0x70"),
                 Setting("mux_channel", int, None, 0, 7),
                 Setting("spi_port", int, 0, 0, 6),
                 Setting("spi_device", int, 1, 0, 3),
                 _pin("dc_pin", default=24, example=24),
                 _pin("rst_pin", default=25, example=25),
                 _pin("cs_pin", example=16),
                 # the 74HC138 output whose line is this screen's chip select ([screen_decoder])
                 Setting("select", int, None, 0, 7, example=0),
                 Setting("spi_hz", int, None, 500_000, 16_000_000, example=4_000_000),
                 Setting("rotate", int, 0, 0, 3)),
        "sim": (),
        "dummy": (),
    },
    # Not a part: the table's one 74HC138 that turns an SPI chip select into
    # one per screen ([screen_decoder]; drivers.spi_decoder): its enable is
    # /dev/spidev<spi_port>.<spi_device>'s chip select, its A0-A2 the pins.
    "decoder": {"": (Setting("spi_port", int, 1, 0, 6),
                     Setting("spi_device", int, 0, 0, 3),
                     Setting("address_pins", list, None, *GPIO_PINS, size=3, required=True,
                             example="[17, 27, 26]"))},
    "button": {"gpio": (_pin("pin", required=True),
                        Setting("pull_up", bool, True),
                        Setting("hold_time", float, 1.0, 0.1, 10),
                        Setting("bounce_time", float, 0.02, 0, 1)),
               # The hub debounces (firmware/PROTOCOL.md); its buttons are numbered in the
               # order of firmware/main.py's KEY_PINS, six there, up to 16 the protocol allows.
               "hub": (Setting("hub", str, None, example="hub"),
                       Setting("button", int, None, 0, 15, required=True, example=0),
                       Setting("hold_time", float, 1.0, 0.1, 10))},
    "encoder": {"": (_pin("pin_a", required=True), _pin("pin_b", required=True, example=18))},
    "light": {"": (Setting("kind", str, "led", choices=LIGHT_KINDS),
                   _pin("pin", example=22),
                   Setting("pins", list, None, *GPIO_PINS, size=3, example="[16, 19, 26]"),
                   Setting("active_high", bool, True),
                   Setting("colour", list, [1.0, 1.0, 1.0], 0, 1, size=3))},
    # Not a part: the computer player's budget per move ([computer] in a profile,
    # pi_app.session.computer.budget), declared here so that it is checked like the parts'
    # keys. None: players.DEFAULT_BUDGET's, the one place of the default. The
    # levels are players.LEVELS' (a test holds the two the same): the think time
    # above is the whole of a move's, and each level takes its share of it.
    "computer": {"": (Setting("iterations", int, None, 1, 1_000_000, example=2000),
                      Setting("seconds", float, None, 0.05, 60, example=0.9),
                      Setting("level", str, None, choices=("easy", "normal", "hard"), example="normal"))},
}
BACKENDS = {"reader": READER_BACKENDS, "screen": SCREEN_BACKENDS}
#: kinds whose ``backend`` may be left out, and the one it then is
DEFAULT_BACKENDS = {"button": "gpio"}
OPTIONAL_BACKENDS = {"button": BUTTON_BACKENDS}


def settings(kind: str, backend: str = "") -> dict[str, Setting]:
    """The keys a ``kind`` part on ``backend`` takes (``backend`` for the kinds that have one)."""
    by_backend = SETTINGS[kind]
    if kind in BACKENDS:
        keys = by_backend.get(backend, ())
    elif kind in DEFAULT_BACKENDS:
        keys = by_backend.get(backend or DEFAULT_BACKENDS[kind], ())
    else:
        keys = by_backend.get("", ())
    return {s.key: s for s in keys}


def backend_of(kind: str, key: str) -> list[str]:
    """The backends of ``kind`` that take ``key`` (to say where a misplaced key belongs)."""
    return [b for b, keys in SETTINGS[kind].items() if any(s.key == key for s in keys)]


_MISSING = object()


def _get(spec: Any, key: str, default: Any = _MISSING) -> Any:
    value = spec.get(key, default) if isinstance(spec, Mapping) else getattr(spec, key, default)
    if value is _MISSING:
        raise ValueError(f"{_name(spec)}: the spec has no {key!r}")
    return value


def _setting(spec: Any, kind: str, backend: str, key: str) -> Any:
    """``key`` of ``spec``, or its declared default."""
    declared = settings(kind, backend)[key]
    if declared.required:
        return _get(spec, key)
    value = _get(spec, key, None)
    return declared.default if value is None else value


def _name(spec: Any) -> str:
    name = spec.get("name") if isinstance(spec, Mapping) else getattr(spec, "name", None)
    if not name:
        raise ValueError(f"a part spec has no name: {spec!r}")
    return str(name)


def _choice(kind: str, name: str, value: str, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise ValueError(f"{kind} {name}: backend {value!r} is not one of {', '.join(allowed)}")
    return value


def open_reader(spec: Any, *, hubs: Mapping[str, Any] | None = None, **extra: Any) -> TagReader:
    """A TagReader for a profile entry (``extra`` goes to the backend, e.g. ``pin_factory``)."""
    name = _name(spec)
    backend = _choice("reader", name, str(_get(spec, "backend")), READER_BACKENDS)

    def get(key: str) -> Any:
        return _setting(spec, "reader", backend, key)

    if backend == "sim":
        from drivers.sim.readers import SimulatedReader

        return SimulatedReader(name)
    if backend == "emulated":
        from drivers.sim.readers import emulated_rc522

        return emulated_rc522(name, max_tags=int(get("max_tags")))[0]
    if backend == "hub":
        hub_name = get("hub")
        if hubs is None or hub_name not in hubs:
            known = ", ".join(hubs or {}) or "none"
            raise ValueError(f"reader {name}: hub {hub_name!r} is not open (open hubs: {known})")
        return hubs[hub_name].reader(int(get("index")), name)  # type: ignore[no-any-return]
    if backend == "mfrc522":
        from drivers.rc522.mfrc522_adapter import open_mfrc522

        return open_mfrc522(
            name, bus=int(get("bus")), device=int(get("device")), reset_pin=int(get("rst_pin"))
        )
    from drivers.rc522.driver import open_rc522

    return open_rc522(
        name,
        bus=int(get("bus")),
        device=int(get("device")),
        cs_pin=get("cs_pin"),
        reset_pin=get("rst_pin"),
        irq_pin=get("irq_pin"),
        speed_hz=int(get("speed_hz")),
        antenna_gain_db=get("antenna_gain_db"),
        timeout_ms=float(get("timeout_ms")),
        max_tags=int(get("max_tags")),
        confirm_every=int(get("confirm_every")),
        **extra,
    )


def open_screen(spec: Any, *, i2c: I2cBuses | None = None, keep: int = 1000,
                spi_resets: set[int] | None = None) -> OledScreen:
    """An OledScreen for a profile entry; screens sharing a bus should share
    ``i2c``, SPI screens sharing a reset line ``spi_resets``."""
    name = _name(spec)
    backend = _choice("screen", name, str(_get(spec, "backend", "luma")), SCREEN_BACKENDS)
    if backend in ("sim", "dummy"):
        from drivers.sim.screens import simulated_oled

        return simulated_oled(name, keep=keep)

    def get(key: str) -> Any:
        return _setting(spec, "screen", backend, key)

    return open_oled(
        name,
        driver=str(get("driver")),
        interface=str(get("interface")),
        port=int(get("port")),
        address=int(get("address")),
        mux_address=get("mux_address"),
        mux_channel=get("mux_channel"),
        spi_port=int(get("spi_port")),
        spi_device=int(get("spi_device")),
        gpio_dc=int(get("dc_pin")),
        gpio_rst=int(get("rst_pin")),
        cs_pin=get("cs_pin"),
        select=get("select"),
        decoder_pins=_get(spec, "decoder_pins", None),  # [screen_decoder]'s, given by the profile
        spi_hz=get("spi_hz"),
        spi_resets=spi_resets,
        rotate=int(get("rotate")),
        i2c=i2c,
    )


def open_button(
    spec: Any, events: EventSink, *, pin_factory: Any = None, clock: Callable[[], float] | None = None
) -> TableButton:
    name = _name(spec)
    backend = _choice("button", name, str(_get(spec, "backend", None) or "gpio"), BUTTON_BACKENDS)
    if backend == "hub":
        raise ValueError(f"button {name} is on the reader hub: open it with drivers.hub.open_button(spec, "
                         "profile, events), which shares the hub's connection")
    options: dict[str, Any] = {"pin_factory": pin_factory}
    if clock is not None:
        options["clock"] = clock

    def get(key: str) -> Any:
        return _setting(spec, "button", "gpio", key)

    return TableButton(
        name,
        int(get("pin")),
        events,
        pull_up=bool(get("pull_up")),
        hold_time=float(get("hold_time")),
        bounce_time=get("bounce_time"),
        **options,
    )


def open_encoder(spec: Any, events: EventSink, *, pin_factory: Any = None) -> TableEncoder:
    def get(key: str) -> Any:
        return _setting(spec, "encoder", "", key)

    return TableEncoder(_name(spec), int(get("pin_a")), int(get("pin_b")), events, pin_factory=pin_factory)


def open_light_spec(spec: Any, *, pin_factory: Any = None) -> TableLight:
    name = _name(spec)

    def get(key: str) -> Any:
        return _setting(spec, "light", "", key)

    kind = str(get("kind"))
    kind = {"pwmled": "pwm", "rgbled": "rgb"}.get(kind, kind)
    pins = get("pins")
    colour = get("colour")
    return open_light(
        name,
        kind=kind,
        pin=get("pin"),
        pins=tuple(pins) if pins is not None else None,  # type: ignore[arg-type]
        active_high=bool(get("active_high")),
        colour=tuple(colour),  # type: ignore[arg-type]
        pin_factory=pin_factory,
    )
