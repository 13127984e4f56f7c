"""Table profiles: which reader, screen, buttons and light belong to which seat.

A profile is a TOML file; the bundled ones are in ``pi_app/tables/`` so that
an installed package has them (``hardware/tables/`` in a checkout links
there). Loading it validates every key and every pin; a wrong profile is
refused with the file, the line and the fix, all problems at once. The keys
a part takes, their types, ranges and defaults are drivers.parts.SETTINGS,
the list the parts are built from too: a part entry becomes a PartSpec.
Part names are the ids drivers put on events: ``seat1.pad``, ``seat1.screen``,
``seat1.left`` / ``seat1.ok`` / ``seat1.right``, ``seat1.light``, ``shared.screen``,
``shared.undo``, ``zone.<name>.reader``. A seat's buttons are GPIO pins
(``buttons = { left = 4, ok = 5, right = 6 }``) or buttons of the reader hub
(``buttons = { backend = "hub", hub = "hub", left = 0, ok = 1, right = 2 }``).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from drivers import parts
from drivers.hub.connection import MAX_HOLD_MS
from drivers.watcher import WatcherSettings
from pi_app.errors import ProfileError
from pi_app.names import MAX_NAME, seat_named
from rules.catalogue import LANGS

TABLES_DIR = Path(__file__).resolve().parent.parent / "tables"

BUTTON_ROLES = ("left", "ok", "right")
CHANCE_MODES = ("draw", "table")

PIN_FACTORIES = ("mock", "default")

# The keys of the profile's own tables, and which are required. A part's keys
# (reader, screen, button, light, encoder) are drivers.parts.SETTINGS.
_TABLE_KEYS = {"name": False, "lang": False, "chance": False, "pins": False}
_BUTTON_KEYS = {"left": True, "ok": True, "right": True}
_ENCODER_BUTTON_KEYS = {"left": False, "ok": True, "right": False}  # a seat with an encoder
# What a seat's buttons table takes besides its roles: the buttons' backend, and the hub of hub buttons.
_BUTTONS_BACKEND_KEYS = {"backend": False, "hub": False}
_SEAT_KEYS = {"name": False, "pad": True, "screen": True, "buttons": True, "light": True, "encoder": False}
_SHARED_KEYS = {"screen": True, "undo": True}
_ZONE_KEYS = {"name": True, "reader": True}
_TOP_KEYS = {"table": False, "shared": True, "seats": True, "zones": False, "hubs": False,
             "watcher": False, "computer": False}
_HUB_KEYS = {"name": True, "port": True, "hold_ms": False}
_WATCHER_KEYS = {f.name: False for f in fields(WatcherSettings)}
# [players]: the names the lobby offers each seat to step through (pi_app.session.lobby)
_TOP_KEYS["players"] = False
_PLAYERS_KEYS = {"names": False}
# [screen_decoder]: the 74HC138 whose outputs are the SPI screens' chip selects (drivers.spi_decoder)
_TOP_KEYS["screen_decoder"] = False

#: The header pins of the buses a profile's parts use, as the Pi's overlays
#: put them (hardware/wiring.md): SPI0 (``dtparam=spi=on``, both chip selects),
#: SPI1 (``dtoverlay=spi1-Ncs``: as many chip selects as the devices used) and
#: I2C1. Other buses' pins depend on the overlay's options and are not counted.
SPI_PINS = {0: {"MISO": 9, "MOSI": 10, "SCLK": 11}, 1: {"MISO": 19, "MOSI": 20, "SCLK": 21}}
SPI_CE_PINS = {0: (8, 7), 1: (18, 17, 16)}
I2C_PINS = {1: {"SDA": 2, "SCL": 3}}


class PartSpec(Mapping[str, Any]):
    """A part of the table as its profile entry says: the keys written, and for
    the others the default drivers.parts declares. Read as a mapping or by
    attribute (``spec.cs_pin``); drivers.parts builds the part from it."""

    def __init__(self, name: str, part: str, values: Mapping[str, Any] | None = None) -> None:
        self.name = name
        self.part = part  # reader, screen, button, light or encoder
        self.values = dict(values or {})
        self.backend = str(self.values.get("backend", ""))
        self.settings = parts.settings(part, self.backend)

    def __getitem__(self, key: str) -> Any:
        if key == "name":
            return self.name
        if key in self.values:
            return self.values[key]
        if key in self.settings:
            return self.settings[key].default
        raise KeyError(key)

    def __getattr__(self, key: str) -> Any:
        # Only for settings: anything else (a half-built object, copy's probes) is not here.
        if key.startswith("_") or "settings" not in self.__dict__:
            raise AttributeError(key)
        try:
            return self[key]
        except KeyError:
            raise AttributeError(f"{self.name} has no setting {key!r}") from None

    def __iter__(self) -> Iterator[str]:
        return iter(["name", *self.values])

    def __len__(self) -> int:
        return 1 + len(self.values)

    def __repr__(self) -> str:
        return f"PartSpec({self.name!r}, {self.part!r}, {self.values!r})"


# The parts of a seat, by what they are (all PartSpec).
ReaderSpec = ScreenSpec = ButtonSpec = LightSpec = EncoderSpec = PartSpec


@dataclass(frozen=True)
class SeatSpec:
    name: str
    pad: ReaderSpec
    screen: ScreenSpec
    buttons: tuple[ButtonSpec, ...]  # left, ok, right; only ok where the encoder turns for ◀ ▶
    light: LightSpec
    encoder: EncoderSpec | None = None


@dataclass(frozen=True)
class ZoneSpec:
    name: str
    reader: ReaderSpec


@dataclass(frozen=True)
class HubSpec:
    name: str
    port: str
    hold_ms: int | None = None  # how long the hub keeps a tag it no longer reads; None: the firmware's


@dataclass(frozen=True)
class Profile:
    path: Path
    name: str
    lang: str
    chance: str  # "draw": Tablekeeper may draw chance; "table": read in at the table
    pins: str  # gpiozero pin factory: "mock" in simulation
    seats: tuple[SeatSpec, ...]
    shared_screen: ScreenSpec
    undo: ButtonSpec
    zones: tuple[ZoneSpec, ...] = ()
    hubs: tuple[HubSpec, ...] = ()
    simulated: bool = field(default=False)
    #: the [watcher] table as written (reader polling and debounce), for
    #: drivers.watcher.WatcherSettings.from_mapping; empty: its defaults
    watcher: dict[str, Any] = field(default_factory=dict)
    #: the [computer] table: a computer player's budget per move (iterations,
    #: seconds), for pi_app.session.computer.budget; a key left out: the default
    computer: PartSpec = field(default_factory=lambda: PartSpec("computer", "computer"))
    #: [players] names: the names the lobby offers to step through, as written
    names: tuple[str, ...] = ()
    #: [screen_decoder]: the 74HC138 behind which SPI screens with ``select`` sit; None: none
    screen_decoder: PartSpec | None = None

    def seat_of_part(self, part: str) -> int | None:
        """The seat index a part name belongs to (``seat2.ok`` -> 1)."""
        for i, seat in enumerate(self.seats):
            if part.startswith(seat.name + "."):
                return i
        return None

    def readers(self) -> list[ReaderSpec]:
        return [s.pad for s in self.seats] + [z.reader for z in self.zones]

    def screens(self) -> list[ScreenSpec]:
        return [s.screen for s in self.seats] + [self.shared_screen]

    def buttons(self) -> list[ButtonSpec]:
        return [b for s in self.seats for b in s.buttons] + [self.undo]

    def lights(self) -> list[LightSpec]:
        return [s.light for s in self.seats]


# -- locating keys in the text -----------------------------------------------

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"^\s*([A-Za-z0-9_\-\"\.]+)\s*=")
_INLINE_KEY = re.compile(r"([A-Za-z0-9_\-]+)\s*=")


def key_lines(text: str) -> dict[tuple[Any, ...], int]:
    """Map each key path (``("seats", 1, "buttons", "ok")``) to its line.

    tomllib gives no positions, so the text is scanned: table headers set the
    current path (arrays of tables count their entries) and ``key =`` lines
    name keys under it; keys of an inline table share its line."""
    lines: dict[tuple[Any, ...], int] = {}
    counts: dict[tuple[Any, ...], int] = {}
    current: tuple[Any, ...] = ()

    def resolve(parts: list[str]) -> tuple[Any, ...]:
        path: tuple[Any, ...] = ()
        for part in parts:
            path += (part,)
            if path in counts:
                path += (counts[path] - 1,)
        return path

    for no, raw in enumerate(text.splitlines(), start=1):
        m = _HEADER.match(raw)
        if m:
            parts = [p.strip().strip('"') for p in m.group(2).split(".")]
            if m.group(1) == "[[":
                base = resolve(parts[:-1]) + (parts[-1],)
                counts[base] = counts.get(base, 0) + 1
                current = base + (counts[base] - 1,)
            else:
                current = resolve(parts)
            lines.setdefault(current, no)
            continue
        m = _KEY.match(raw)
        if not m:
            continue
        keys = tuple(k.strip('"') for k in m.group(1).split("."))
        path = current + keys
        lines.setdefault(path, no)
        rest = raw[m.end():]
        if "{" in rest:
            for inner in _INLINE_KEY.findall(rest.split("#", 1)[0]):
                lines.setdefault(path + (inner,), no)
    return lines


# -- validation ---------------------------------------------------------------


class _Checker:
    def __init__(self, path: Path, text: str) -> None:
        self.path = path
        self.lines = key_lines(text)
        self.problems: list[tuple[int, str]] = []

    def line(self, where: tuple[Any, ...]) -> int:
        # The closest enclosing thing that has a line.
        while where:
            if where in self.lines:
                return self.lines[where]
            where = where[:-1]
        return 1

    def fail(self, where: tuple[Any, ...], what: str, fix: str) -> None:
        self.problems.append((self.line(where), f"{what}; {fix}"))

    def table(self, data: Any, where: tuple[Any, ...], allowed: dict[str, bool], what: str) -> dict:
        if data is None:  # a missing part: its parent's check has said so, once
            return {}
        if not isinstance(data, dict):
            self.fail(where, f"{what} must be a table", f"write it as [{_dotted(where)}]")
            return {}
        for key in data:
            if key not in allowed:
                names = ", ".join(sorted(allowed))
                self.fail(where + (key,), f"unknown key {key!r} in {what}",
                          f"remove it or use one of: {names}")
        for key, required in allowed.items():
            if required and key not in data:
                if not where:
                    fix = f"add a [{key}] table"
                elif isinstance(where[-1], int):  # an entry of an array of tables
                    fix = f"add {key} = ... to that [[{_dotted(where)}]] table"
                else:
                    fix = f"add {key} = ... to {what}"
                self.fail(where, f"{what} has no {key!r}", fix)
        return data

    def integer(self, data: dict, key: str, where: tuple[Any, ...], default: Any = None) -> Any:
        value = data.get(key, default)
        if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
            self.fail(where + (key,), f"{key} must be a non-negative integer, not {value!r}",
                      f"write e.g. {key} = 17")
            return default
        return value

    def choice(self, data: dict, key: str, where: tuple[Any, ...], allowed: tuple[str, ...],
               default: str | None = None) -> Any:
        value = data.get(key, default)
        if value not in allowed:
            self.fail(where + (key,), f"{key} = {value!r} is not known",
                      f"use one of: {', '.join(allowed)}")
            return default if default is not None else allowed[0]
        return value


    def part(self, raw: Any, where: tuple[Any, ...], kind: str, name: str, what: str) -> PartSpec:
        """A part's table checked against drivers.parts.SETTINGS: every key
        known for its backend, of its type, in its range."""
        if raw is None:  # a missing part: its parent's check has said so, once
            return PartSpec(name, kind)
        if not isinstance(raw, dict):
            self.fail(where, f"{what} must be a table", "write it as { key = value, ... }")
            return PartSpec(name, kind)
        values: dict[str, Any] = {}
        backend = ""
        backends = parts.BACKENDS.get(kind) or parts.OPTIONAL_BACKENDS.get(kind)
        if backends is not None:
            given = raw.get("backend")
            if given is None:
                if kind in parts.BACKENDS:
                    self.fail(where, f"{what} has no 'backend'",
                              f"add backend = ... to {what} (one of: {', '.join(backends)})")
            elif given not in backends:
                self.fail(where + ("backend",), f"backend = {given!r} is not known",
                          f"use one of: {', '.join(backends)}")
            else:
                backend = values["backend"] = given
        declared = parts.settings(kind, backend)
        for key, value in raw.items():
            if key == "backend" and backends is not None:
                continue
            setting = declared.get(key)
            if setting is None:
                elsewhere = parts.backend_of(kind, key)
                shown = backend or parts.DEFAULT_BACKENDS.get(kind, "")
                if elsewhere and shown:
                    fix = f"remove it; it is for backend {' or '.join(elsewhere)}"
                    if not backend:
                        fix += f' (backend = "{elsewhere[0]}")'
                    self.fail(where + (key,), f"{key!r} is not a setting of a {shown} {kind} ({what})", fix)
                elif not elsewhere:
                    names = ", ".join(sorted(declared)) or "none"
                    self.fail(where + (key,), f"unknown key {key!r} in {what}",
                              f"remove it or use one of: {names}")
                continue
            problem = setting.problem(value)
            if problem:
                self.fail(where + (key,), f"{what}: {problem}",
                          f"write e.g. {key} = {setting.suggestion()} ({setting.range_words()})")
            else:
                values[key] = value
        for setting in declared.values():
            if setting.required and setting.key not in raw:
                self.fail(where, f"{what} has no {setting.key!r}", f"add {setting.key} = ... to {what}")
        return PartSpec(name, kind, values)

    def button_pin(self, data: dict, role: str, where: tuple[Any, ...], name: str) -> ButtonSpec:
        """A seat's button written as ``role = PIN`` in its buttons table, or as
        ``role = NUMBER`` (the hub's button) when the table says backend = "hub"."""
        value = data.get(role)
        if value is None:
            return PartSpec(name, "button")  # reported by the buttons table's check
        if data.get("backend") == "hub":
            number = parts.settings("button", "hub")["button"]
            problem = replace(number, key=role).problem(value)
            if problem:
                self.fail(where + (role,), f"{name}: {problem}",
                          f"write the hub's button number, e.g. {role} = 0 ({number.range_words()}; "
                          "firmware/main.py's KEY_PINS in order)")
                return PartSpec(name, "button", {"backend": "hub", "hub": data.get("hub")})
            return PartSpec(name, "button", {"backend": "hub", "hub": data.get("hub"), "button": value})
        pin = parts.settings("button")["pin"]
        problem = replace(pin, key=role).problem(value)
        if problem:
            self.fail(where + (role,), f"{name}: {problem}",
                      f"write e.g. {role} = {pin.suggestion()} ({pin.range_words()})")
            return PartSpec(name, "button")
        return PartSpec(name, "button", {"pin": value})

    def light_pins(self, light: LightSpec, where: tuple[Any, ...]) -> None:
        """An RGB light takes three pins, the others one."""
        rgb = light.kind in ("rgb", "rgbled")
        key = "pins" if rgb else "pin"
        if light.values.get(key) is None:
            example = "pins = [16, 19, 26]" if rgb else "pin = 22"
            self.fail(where, f"{light.name} has no {key!r}", f"add {example} to it")

def _dotted(where: tuple[Any, ...]) -> str:
    return ".".join(str(p) for p in where if not isinstance(p, int))


def load(path: str | Path) -> Profile:
    """Read and validate a profile; raise ProfileError naming every problem."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ProfileError(f"{path}: cannot read the table profile ({exc.strerror})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise ProfileError(f"{path}:{line}: not UTF-8 text (byte {exc.start}); a table profile is TOML "
                           "saved as UTF-8, like hardware/tables/sim.toml") from None
    # A BOM (Windows' Notepad saves one) is read as what it is, not a syntax error at line 1.
    text = text.removeprefix("\ufeff")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"{path}: not valid TOML: {exc}; fix the syntax on that line") from None
    except RecursionError:  # arrays or tables nested thousands deep: tomllib runs out of stack
        lines = text.splitlines() or [""]
        line = max(range(len(lines)), key=lambda i: lines[i].count("[") + lines[i].count("{")) + 1
        raise ProfileError(f"{path}:{line}: not valid TOML: nested too deep to read; "
                           "a table profile nests tables two or three levels at most") from None
    return parse(data, path, text)


def parse(data: dict, path: Path, text: str) -> Profile:
    c = _Checker(path, text)
    c.table(data, (), _TOP_KEYS, "the profile")
    table = c.table(data.get("table", {}), ("table",), _TABLE_KEYS, "[table]")
    name = str(table.get("name", path.stem))
    lang = c.choice(table, "lang", ("table",), LANGS, "en")
    chance = c.choice(table, "chance", ("table",), CHANCE_MODES, "table")
    pins = c.choice(table, "pins", ("table",), PIN_FACTORIES, "default")

    hubs: list[HubSpec] = []
    for i, raw in enumerate(_array(c, data, "hubs")):
        h = c.table(raw, ("hubs", i), _HUB_KEYS, f"hub {i + 1}")
        hold = c.integer(h, "hold_ms", ("hubs", i))
        if hold is not None and hold > MAX_HOLD_MS:
            c.fail(("hubs", i, "hold_ms"), f"hold_ms = {hold} is more than the hub's {MAX_HOLD_MS} ms",
                   "write e.g. hold_ms = 500, or leave it out for the firmware's default")
            hold = None
        hubs.append(HubSpec(str(h.get("name", f"hub{i + 1}")), str(h.get("port", "")), hold))
    hub_names = {h.name for h in hubs}

    def on_hub(spec: PartSpec, where: tuple[Any, ...], what: str) -> None:
        """A part on the reader hub names a declared hub (the only one, when left out)."""
        if spec.get("hub") is None and len(hubs) == 1:
            spec.values["hub"] = hubs[0].name
        if spec.get("hub") not in hub_names:
            if spec.get("hub") is None:
                said = f"{what} does not say which hub it is on"
                fix = (f'add hub = "NAME" (one of: {", ".join(sorted(hub_names))})' if hub_names
                       else "add a [[hubs]] table with its name and serial port")
            else:
                said = f"{what} names hub {spec.hub!r}, which is not declared"
                fix = (f"use one of: {', '.join(sorted(hub_names))}, or add a [[hubs]] table with that "
                       "name and its serial port" if hub_names
                       else "add a [[hubs]] table with that name and its serial port")
            c.fail(where + ("hub",), said, fix)

    def reader(raw: Any, where: tuple[Any, ...], name: str) -> ReaderSpec:
        spec = c.part(raw, where, "reader", name, f"reader {name}")
        if spec.backend == "hub":
            on_hub(spec, where, f"reader {name}")
        return spec

    decoder = None
    if "screen_decoder" in data:
        decoder = c.part(data["screen_decoder"], ("screen_decoder",), "decoder", "screen_decoder",
                         "[screen_decoder]")

    def screen(raw: Any, where: tuple[Any, ...], name: str) -> ScreenSpec:
        spec = c.part(raw, where, "screen", name, f"screen {name}")
        if spec.backend == "luma" and spec.values.get("select") is not None:
            _behind_decoder(c, spec, where, decoder)
        return spec

    seats: list[SeatSpec] = []
    raw_seats = _array(c, data, "seats")
    if len(raw_seats) < 2:
        c.fail(("seats",), f"the profile has {len(raw_seats)} seat(s)",
               "declare at least two [[seats]] tables, one per player")
    for i, raw in enumerate(raw_seats):
        where = ("seats", i)
        default = f"seat{i + 1}"
        s = c.table(raw, where, _SEAT_KEYS, f"seat {i + 1}")
        sname = str(s.get("name", default))
        if "screen" not in s:
            continue  # already reported: a seat without a screen
        pad = reader(s.get("pad"), where + ("pad",), f"{sname}.pad")
        scr = screen(s.get("screen"), where + ("screen",), f"{sname}.screen")
        # An encoder turns like ◀ and ▶ (pi_app.session.input_map), so with one the seat needs
        # only its ● button (the encoder's push switch): its turns take ◀'s and ▶'s pins.
        b = c.table(s.get("buttons"), where + ("buttons",),
                    {**(_ENCODER_BUTTON_KEYS if "encoder" in s else _BUTTON_KEYS), **_BUTTONS_BACKEND_KEYS},
                    f"{sname} buttons")
        buttons_backend = b.get("backend", "gpio")
        if buttons_backend not in parts.BUTTON_BACKENDS:
            c.fail(where + ("buttons", "backend"),
                   f"{sname} buttons: backend = {buttons_backend!r} is not known",
                   f"use one of: {', '.join(parts.BUTTON_BACKENDS)} (gpio, the default: Pi pins; "
                   "hub: the reader hub's buttons)")
        elif buttons_backend != "hub" and "hub" in b:
            c.fail(where + ("buttons", "hub"), f"{sname} buttons: 'hub' is only for buttons on the hub",
                   'remove it, or add backend = "hub" and give each button the hub\'s number')
        buttons = tuple(c.button_pin(b, role, where + ("buttons",), f"{sname}.{role}")
                        for role in BUTTON_ROLES if role in b or role == "ok" or "encoder" not in s)
        if buttons_backend == "hub" and buttons:
            on_hub(buttons[0], where + ("buttons",), f"{sname} buttons")  # said once for the seat
            for button in buttons[1:]:
                button.values["hub"] = buttons[0].get("hub")
        light = c.part(s.get("light"), where + ("light",), "light", f"{sname}.light", f"{sname} light")
        if "light" in s:
            c.light_pins(light, where + ("light",))
        encoder = None
        if "encoder" in s:
            encoder = c.part(s["encoder"], where + ("encoder",), "encoder", f"{sname}.encoder",
                             f"{sname} encoder")
        seats.append(SeatSpec(sname, pad, scr, buttons, light, encoder))  # type: ignore[arg-type]

    shared = c.table(data.get("shared"), ("shared",), _SHARED_KEYS, "[shared]")
    shared_screen = screen(shared.get("screen"), ("shared", "screen"), "shared.screen")
    undo = c.part(shared.get("undo"), ("shared", "undo"), "button", "shared.undo", "[shared.undo]")
    if undo.backend == "hub":
        on_hub(undo, ("shared", "undo"), "[shared.undo]")

    zones: list[ZoneSpec] = []
    for i, raw in enumerate(_array(c, data, "zones")):
        z = c.table(raw, ("zones", i), _ZONE_KEYS, f"zone {i + 1}")
        zname = str(z.get("name", f"zone{i + 1}"))
        zones.append(ZoneSpec(zname, reader(z.get("reader"), ("zones", i, "reader"),
                                            f"zone.{zname}.reader")))

    watcher = _watcher(c, data.get("watcher", {}))
    computer = c.part(data.get("computer", {}), ("computer",), "computer", "computer", "[computer]")
    names = _player_names(c, data.get("players", {}), len(seats))
    taken = _bus_pins(c, seats, shared_screen, zones, decoder)
    _check_unique(c, seats, shared_screen, undo, zones, taken)
    if c.problems:
        body = "\n".join(f"{path}:{line}: {msg}" for line, msg in sorted(c.problems))
        raise ProfileError(f"table profile {path} is not usable:\n{body}")
    simulated = pins == "mock" and all(r.backend == "sim" for r in [s.pad for s in seats])
    return Profile(path, name, lang, chance, pins, tuple(seats), shared_screen, undo,
                   tuple(zones), tuple(hubs), simulated, watcher, computer, names=names,
                   screen_decoder=decoder)


def _watcher(c: _Checker, raw: Any) -> dict[str, Any]:
    """The [watcher] table, each key checked by drivers' own rules so that
    a problem is reported on its line; the keys that pass are kept."""
    w = c.table(raw, ("watcher",), _WATCHER_KEYS, "[watcher]")
    defaults = WatcherSettings()
    kept: dict[str, Any] = {}
    for key, value in w.items():
        if key not in _WATCHER_KEYS:
            continue  # reported by c.table
        try:
            WatcherSettings.from_mapping({key: value}, where="[watcher]")
        except ValueError as exc:
            c.fail(("watcher", key), str(exc), f"write e.g. {key} = {getattr(defaults, key)}")
        else:
            kept[key] = value
    return kept


def _player_names(c: _Checker, raw: Any, seats: int) -> tuple[str, ...]:
    """[players] names = ["Anna", ...]: texts a screen shows whole, each
    once, none what the table calls a seat ("Player 2"); the good ones kept."""
    p = c.table(raw, ("players",), _PLAYERS_KEYS, "[players]")
    given = p.get("names", [])
    where = ("players", "names")
    if not isinstance(given, list):
        c.fail(where, f"names must be a list of texts, not {given!r}", 'write e.g. names = ["Anna", "Marco"]')
        return ()
    kept: dict[str, str] = {}
    for item in given:
        name = " ".join(item.split()) if isinstance(item, str) else ""
        if not name:
            c.fail(where, f"names: {item!r} is not a name", 'write each as a text, e.g. "Anna"')
        elif len(name) > MAX_NAME:
            c.fail(where, f"names: {name!r} is longer than the {MAX_NAME} letters a screen shows",
                   "shorten it")
        elif name.lower() in kept:
            c.fail(where, f"names: {name!r} is written twice", "keep it once")
        elif seat_named(name, "", seats) is not None:
            c.fail(where, f"names: {name!r} is what the table calls seat {seat_named(name, '', seats) + 1}",
                   "write a person's name")
        else:
            kept[name.lower()] = name
    return tuple(kept.values())


def _array(c: _Checker, data: dict, key: str) -> list:
    value = data.get(key, [])
    if not isinstance(value, list):
        c.fail((key,), f"{key} must be an array of tables", f"write each one as [[{key}]]")
        return []
    return value


def _where_of(part: str, seats: list[SeatSpec]) -> tuple[Any, ...]:
    """The key path of a part name, to find its line."""
    head, _, rest = part.partition(".")
    if head == "shared":
        return ("shared", rest)
    if head == "zone":
        return ("zones",)
    for i, seat in enumerate(seats):
        if seat.name == head:
            if rest in BUTTON_ROLES:
                return ("seats", i, "buttons", rest)
            if rest == "light":
                return ("seats", i, "light", "pin")
            return ("seats", i, rest)
    return ()


def _dc_pin(screen: ScreenSpec) -> int | None:
    """The data/command pin of an SPI screen; an I2C screen has none."""
    return screen.dc_pin if screen.backend == "luma" and screen.interface == "spi" else None


def _screen_cs_pin(screen: ScreenSpec) -> int | None:
    """The GPIO chip select of an SPI screen, if it has one."""
    return screen.get("cs_pin") if screen.backend == "luma" and screen.interface == "spi" else None


#: what SPI screens may share with each other, and nothing else: the D/C line
#: is read only while a screen is selected (hardware/wiring.md)
_SHARED_DC = "the SPI screens' D/C line"


def _behind_decoder(c: _Checker, spec: ScreenSpec, where: tuple[Any, ...], decoder: PartSpec | None) -> None:
    """A screen with ``select`` is on that output of [screen_decoder]: it takes
    the decoder's bus and address pins, written once for the table."""
    what = f"screen {spec.name}"
    if spec.interface != "spi":
        c.fail(where + ("select",), f"{what}: select is the 74HC138 output of an SPI screen",
               'add interface = "spi" to it, or remove select')
        return
    if decoder is None or decoder.values.get("address_pins") is None:
        c.fail(where + ("select",), f"{what}: select names a 74HC138 output but the profile has no decoder",
               "add a [screen_decoder] table with address_pins = [A0, A1, A2] (hardware/wiring.md)")
        return
    if "cs_pin" in spec.values:
        c.fail(where + ("cs_pin",), f"{what} has both select and cs_pin",
               "keep select (the decoder's output) or cs_pin (a GPIO chip select), not both")
    for key in ("spi_port", "spi_device"):
        if key in spec.values and spec.values[key] != decoder[key]:
            c.fail(where + (key,), f"{what}: {key} = {spec.values[key]} but [screen_decoder] is on"
                   f" {key} = {decoder[key]}", f"remove {key} from the screen: it is the decoder's")
        spec.values[key] = decoder[key]
    spec.values["decoder_pins"] = list(decoder.address_pins)


def _bus_pins(c: _Checker, seats: list[SeatSpec], shared_screen: ScreenSpec, zones: list[ZoneSpec],
              decoder: PartSpec | None) -> dict[int, str]:
    """The GPIOs the buses take (SPI_PINS, SPI_CE_PINS, I2C_PINS), the
    decoder's address lines and the shared reset lines, each named, claimed
    before the parts' own pins so that a button on a bus pin is the one told
    to move."""
    taken: dict[int, str] = {}

    def claim(pin: int, what: str, where: tuple[Any, ...]) -> None:
        if pin in taken and taken[pin] != what:
            c.fail(where, f"GPIO {pin} of {what} is already used by {taken[pin]}",
                   "give each bus, chip select and reset line its own pins")
        taken.setdefault(pin, what)

    spi_devices: dict[int, set[int]] = {}
    spi_where: dict[int, tuple[Any, ...]] = {}
    readers = [(s.pad, ("seats", i, "pad")) for i, s in enumerate(seats)]
    readers += [(z.reader, ("zones", i, "reader")) for i, z in enumerate(zones)]
    for r, where in readers:
        if r.backend in ("rc522", "mfrc522"):
            spi_devices.setdefault(r.bus, set()).add(r.device)
            spi_where.setdefault(r.bus, where)
            if r.get("rst_pin") is not None:
                claim(r.rst_pin, "the readers' reset line", where + ("rst_pin",))
    screens = [(s.screen, ("seats", i, "screen")) for i, s in enumerate(seats)]
    screens.append((shared_screen, ("shared", "screen")))
    i2c_where: dict[int, tuple[Any, ...]] = {}
    for scr, where in screens:
        if scr.backend != "luma":
            continue
        if scr.interface == "i2c":
            i2c_where.setdefault(scr.port, where)
            continue
        spi_devices.setdefault(scr.spi_port, set()).add(scr.spi_device)
        spi_where.setdefault(scr.spi_port, where)
        claim(scr.rst_pin, "the SPI screens' reset line", where + ("rst_pin",))
    for port, where in sorted(i2c_where.items()):
        for signal, pin in I2C_PINS.get(port, {}).items():
            claim(pin, f"I2C{port}'s {signal}", where + ("port",))
    for port, devices in sorted(spi_devices.items()):
        where = spi_where[port]
        for signal, pin in SPI_PINS.get(port, {}).items():
            claim(pin, f"SPI{port}'s {signal}", where)
        ces = SPI_CE_PINS.get(port, ())
        used = range(len(ces)) if port == 0 else range(min(max(devices) + 1, len(ces)))
        for device in used:
            claim(ces[device], f"SPI{port}'s CE{device}", where)
    if decoder is not None and decoder.values.get("address_pins") is not None:
        for bit, pin in enumerate(decoder.address_pins):
            claim(pin, f"the screen decoder's A{bit}", ("screen_decoder", "address_pins"))
        # The decoder's enable is that device's chip select: a reader's transfer there would
        # select a screen, and a GPIO-selected reader would switch the device's SPI_NO_CS.
        enable = (decoder.spi_port, decoder.spi_device)
        for r, where in readers:
            if r.backend in ("rc522", "mfrc522") and (r.bus, r.device) == enable:
                c.fail(where + ("device",), f"{r.name} is on /dev/spidev{r.bus}.{r.device}, whose chip select"
                       " enables the screen decoder", "give the reader another bus or device, or the decoder")
    return taken


def _check_unique(c: _Checker, seats: list[SeatSpec], shared_screen: ScreenSpec, undo: ButtonSpec,
                  zones: list[ZoneSpec], taken: dict[int, str] | None = None) -> None:
    names = [s.name for s in seats]
    for i, n in enumerate(names):
        if n in names[:i] or n in ("shared", "zone"):
            c.fail(("seats", i, "name"), f"seat name {n!r} is used twice or reserved",
                   "give every seat its own name (seat1, seat2, ...)")
    znames = [z.name for z in zones]
    for i, n in enumerate(znames):
        if n in znames[:i]:
            c.fail(("zones", i, "name"), f"zone name {n!r} is used twice",
                   "give every zone its own name (the board region it reads)")
    # GPIO pins: buttons, lights, chip selects, DC; after the buses' and reset lines' (``taken``).
    pins: dict[int, str] = dict(taken or {})

    def claim(pin: int | None, part: str, where: tuple[Any, ...]) -> None:
        if pin is None or (pin == 0 and where not in c.lines):
            return  # no pin, or a missing part's stand-in (already reported)
        if pin in pins:
            c.fail(where, f"GPIO {pin} of {part} is already used by {pins[pin]}",
                   "give each button, light and chip select its own pin")
        else:
            pins[pin] = part

    def claim_dc(screen: ScreenSpec, where: tuple[Any, ...]) -> None:
        pin = _dc_pin(screen)
        if pin is not None and pins.get(pin) != _SHARED_DC:
            claim(pin, _SHARED_DC, where)

    # Hub buttons: one part per button number of each hub.
    on_hub: dict[tuple[Any, int], str] = {}

    def claim_hub_button(b: ButtonSpec, where: tuple[Any, ...]) -> None:
        number = b.get("button")
        if number is None:
            return  # reported where it was read
        key = (b.get("hub"), number)
        if key in on_hub:
            c.fail(where, f"hub button {number} of {b.name} is already used by {on_hub[key]}",
                   "give each button its own number on the hub (firmware/main.py's KEY_PINS, from 0)")
        else:
            on_hub[key] = b.name

    for i, seat in enumerate(seats):
        for b in seat.buttons:
            if b.backend == "hub":
                claim_hub_button(b, _where_of(b.name, seats))
            else:
                claim(b.pin, b.name, _where_of(b.name, seats))
        for pin in seat.light.pins or [seat.light.pin]:
            claim(pin, seat.light.name, ("seats", i, "light", "pins" if seat.light.pins else "pin"))
        if seat.encoder is not None:
            claim(seat.encoder.pin_a, seat.encoder.name, ("seats", i, "encoder", "pin_a"))
            claim(seat.encoder.pin_b, seat.encoder.name, ("seats", i, "encoder", "pin_b"))
        claim(seat.pad.get("cs_pin"), seat.pad.name, ("seats", i, "pad", "cs_pin"))
        claim_dc(seat.screen, ("seats", i, "screen", "dc_pin"))
        claim(_screen_cs_pin(seat.screen), seat.screen.name, ("seats", i, "screen", "cs_pin"))
    if undo.backend == "hub":
        claim_hub_button(undo, ("shared", "undo", "button"))
    else:
        claim(undo.get("pin"), undo.name, ("shared", "undo", "pin"))
    claim_dc(shared_screen, ("shared", "screen", "dc_pin"))
    claim(_screen_cs_pin(shared_screen), shared_screen.name, ("shared", "screen", "cs_pin"))
    for i, z in enumerate(zones):
        claim(z.reader.get("cs_pin"), z.reader.name, ("zones", i, "reader", "cs_pin"))
    # Screens on the same bus, address and mux channel would draw over each other.
    at: dict[tuple[Any, ...], str] = {}
    screens = [(s.screen, ("seats", i, "screen")) for i, s in enumerate(seats)]
    screens.append((shared_screen, ("shared", "screen")))
    for scr, where in screens:
        if scr.backend != "luma":
            continue
        key = ((scr.interface, scr.port, scr.address, scr.mux_channel) if scr.interface == "i2c"
               else ("spi-gpio-cs", scr.cs_pin) if _screen_cs_pin(scr) is not None
               else ("spi-decoder", scr.spi_port, scr.spi_device, scr.select) if scr.get("select") is not None
               else (scr.interface, scr.port, scr.spi_device))
        if key in at:
            c.fail(where, f"{scr.name} uses the same bus and address as {at[key]}",
                   "give it another address (0x3C/0x3D), mux_channel, cs_pin or select")
        else:
            at[key] = scr.name
    # Readers: one per SPI chip select, one per hub index.
    seen: dict[tuple[Any, ...], str] = {}
    readers = [(s.pad, ("seats", i, "pad")) for i, s in enumerate(seats)]
    readers += [(z.reader, ("zones", i, "reader")) for i, z in enumerate(zones)]
    for r, where in readers:
        if r.backend == "sim":
            continue
        if r.backend == "hub":
            key: tuple[Any, ...] = ("hub", r.hub, r.index)
        elif r.get("cs_pin") is not None:
            key = ("gpio-cs", r.cs_pin)
        else:
            key = ("spi", r.get("bus"), r.get("device"))
        if key in seen:
            c.fail(where, f"{r.name} uses the same reader connection as {seen[key]}",
                   "give it its own chip select (device or cs_pin) or hub index")
        else:
            seen[key] = r.name


def absent_hubs(prof: Profile) -> list[str]:
    """Hubs whose port is a path that is not there, each with its line and fix.

    For install time: the daemon itself waits for a hub that is unplugged, but
    a path that does not exist when the builder installs is most likely wrong
    (a /dev/serial/by-id/ name carries the board's serial number)."""
    lines = key_lines(prof.path.read_text(encoding="utf-8"))
    problems = []
    for i, hub in enumerate(prof.hubs):
        port = hub.port.strip()
        if port in ("", "auto") or Path(port).exists():
            continue
        line = lines.get(("hubs", i, "port"), lines.get(("hubs", i), 1))
        problems.append(f"{prof.path}:{line}: hub {hub.name!r}: port {port} is not there; plug the hub in, "
                        'or write port = "auto" (found by its USB id) or "/dev/tablekeeper-hub" '
                        "(the udev rule's name)")
    return problems


def find(name: str | None, *, on_pi: bool | None = None) -> Path:
    """The profile a command means: a path, a name in hardware/tables/, or by
    default the reference table on a Pi and the simulated one elsewhere."""
    if name is None:
        if on_pi is None:
            on_pi = is_pi()
        name = "reference" if on_pi else "sim"
    candidate = Path(name)
    if candidate.suffix == ".toml" or candidate.exists():
        return candidate
    bundled = TABLES_DIR / f"{name}.toml"
    if bundled.exists():
        return bundled
    known = ", ".join(sorted(p.stem for p in TABLES_DIR.glob("*.toml"))) or "none"
    raise ProfileError(f"no table profile {name!r}; give a .toml path or one of: {known}")


def is_pi() -> bool:
    try:
        model = Path("/proc/device-tree/model").read_text(errors="replace")
    except OSError:
        return False
    return "Raspberry Pi" in model
