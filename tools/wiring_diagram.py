"""The wiring diagram of a table, drawn from its profile: ``python -m tools.wiring_diagram [PROFILE] [OUT]``.

Defaults: hardware/tables/reference.toml into hardware/wiring.svg. The Pi's
40-pin header is drawn as it sits on the board (odd pins on the left, pin 1
at the top), and every pin the profile uses is labelled with the part on it:
buttons, lights, chip selects, resets, the buses the readers and screens
share, power and ground. A test draws it again from the profile and compares,
so the picture cannot drift from the profile.
"""

from __future__ import annotations

import sys
from html import escape
from pathlib import Path

from pi_app.table import profile

ROOT = Path(__file__).resolve().parents[1]
PROFILE = ROOT / "hardware" / "tables" / "reference.toml"
OUT = ROOT / "hardware" / "wiring.svg"

# Physical header pin -> BCM GPIO number, or the rail it carries.
HEADER: dict[int, int | str] = {
    1: "3V3", 2: "5V", 3: 2, 4: "5V", 5: 3, 6: "GND", 7: 4, 8: 14, 9: "GND", 10: 15,
    11: 17, 12: 18, 13: 27, 14: "GND", 15: 22, 16: 23, 17: "3V3", 18: 24, 19: 10, 20: "GND",
    21: 9, 22: 25, 23: 11, 24: 8, 25: "GND", 26: 7, 27: 0, 28: 1, 29: 5, 30: "GND",
    31: 6, 32: 12, 33: 13, 34: "GND", 35: 19, 36: 16, 37: 26, 38: 20, 39: "GND", 40: 21,
}
COLOURS = {"button": "#1f6fd1", "light": "#d18f1f", "reader": "#2a9d4b", "screen": "#8a3fc1",
           "bus": "#555555", "power": "#c0392b", "ground": "#222222", "free": "#9a9a9a"}


def uses(prof: profile.Profile) -> dict[int, tuple[str, str]]:
    """BCM pin -> (what is on it, its kind), from the profile."""
    on: dict[int, list[str]] = {}
    kind: dict[int, str] = {}

    def put(pin: int | None, what: str, k: str) -> None:
        if pin is None:
            return
        on.setdefault(pin, [])
        if what not in on[pin]:
            on[pin].append(what)
        kind.setdefault(pin, k)

    for b in prof.buttons():
        put(b.get("pin"), f"{b.name} button", "button")  # a hub button is on the hub, not the Pi
    for seat in prof.seats:
        if seat.encoder is not None:
            put(seat.encoder.pin_a, f"{seat.encoder.name} A", "button")
            put(seat.encoder.pin_b, f"{seat.encoder.name} B", "button")
    for light in prof.lights():
        for pin in light.pins or [light.pin]:
            put(pin, f"{light.name}", "light")
    spi_readers = [r for r in prof.readers() if r.backend in ("rc522", "mfrc522")]
    for r in spi_readers:
        if r.get("cs_pin") is not None:
            put(r.cs_pin, f"{r.name} chip select", "reader")
        elif r.get("bus") == 0:
            put({0: 8, 1: 7}.get(r.get("device")), f"{r.name} chip select (CE{r.get('device')})", "reader")
        if r.get("rst_pin") is not None:
            put(r.rst_pin, "readers' reset (RST)", "reader")
    if any(r.get("bus") == 0 for r in spi_readers):
        put(9, "SPI0 MISO (every reader)", "bus")
        put(10, "SPI0 MOSI (every reader)", "bus")
        put(11, "SPI0 SCLK (every reader)", "bus")
    screens = [s for s in prof.screens() if s.backend == "luma"]
    if any(s.interface == "i2c" and s.port == 1 for s in screens):
        mux = any(s.mux_channel is not None for s in screens)
        put(2, "I2C1 SDA (" + ("multiplexer" if mux else "screens") + ")", "bus")
        put(3, "I2C1 SCL (" + ("multiplexer" if mux else "screens") + ")", "bus")
    spi_screens = [s for s in screens if s.interface == "spi"]
    shared = len(spi_screens) > 1
    decoder = prof.screen_decoder
    for s in spi_screens:
        put(s.dc_pin, "screens' D/C" if shared else f"{s.name} D/C", "screen")
        put(s.rst_pin, "screens' reset (RES)" if shared else f"{s.name} RST", "screen")
        if s.get("cs_pin") is not None:
            put(s.cs_pin, f"{s.name} chip select", "screen")
        elif s.get("select") is None:
            ce = profile.SPI_CE_PINS.get(s.spi_port, ())
            if s.spi_device < len(ce):
                put(ce[s.spi_device], f"{s.name} chip select (SPI{s.spi_port} CE{s.spi_device})", "screen")
        for signal, pin in profile.SPI_PINS.get(s.spi_port, {}).items():
            if s.spi_port != 0 or not spi_readers:  # SPI0 with readers: labelled as theirs above
                put(pin, f"SPI{s.spi_port} {signal}" + (" (not wired)" if signal == "MISO" else " (screens)"),
                    "bus")
    if decoder is not None and any(s.get("select") is not None for s in spi_screens):
        ce = profile.SPI_CE_PINS.get(decoder.spi_port, ())
        if decoder.spi_device < len(ce):
            put(ce[decoder.spi_device], f"SPI{decoder.spi_port} CE{decoder.spi_device} (74HC138 enable)",
                "bus")
        for bit, pin in enumerate(decoder.address_pins):
            put(pin, f"74HC138 A{bit} (screen select)", "screen")
    return {pin: (", ".join(what), kind[pin]) for pin, what in on.items()}


def label(pin: int, used: dict[int, tuple[str, str]],
          feeds: str = "readers, screens, multiplexer") -> tuple[str, str]:
    """The words beside a header pin and their colour's kind (``feeds``: what the 3V3 pins power)."""
    carries = HEADER[pin]
    if carries == "GND":
        return "GND", "ground"
    if isinstance(carries, str):
        return carries + (f" ({feeds})" if carries == "3V3" else ""), "power"
    if carries in used:
        what, kind = used[carries]
        return f"GPIO{carries}: {what}", kind
    if carries in (0, 1):
        return f"GPIO{carries}: reserved (HAT EEPROM)", "free"
    return f"GPIO{carries}: free", "free"


def draw(prof: profile.Profile) -> str:
    used = uses(prof)
    screens = [s for s in prof.screens() if s.backend == "luma"]
    feeds = ("readers, screens, decoder" if prof.screen_decoder is not None
             else "readers, screens, multiplexer" if any(s.get("mux_channel") is not None for s in screens)
             else "readers, screens")
    row_h, top, mid = 26, 70, 520
    width, height = 1040, top + 20 * row_h + 90
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, sans-serif" font-size="13">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{mid}" y="28" font-size="18" text-anchor="middle" font-weight="bold">'
           f'{escape(prof.name)}: the Raspberry Pi header</text>',
           f'<text x="{mid}" y="50" text-anchor="middle" fill="#444">drawn from '
           f'{escape(prof.path.name)} by tools/wiring_diagram.py; pin 1 is at the top left, '
           'next to the SD card end</text>',
           f'<rect x="{mid - 34}" y="{top - 14}" width="68" height="{20 * row_h + 4}" rx="6" '
           'fill="#1d4d2b"/>']
    for pin in range(1, 41):
        row, right = (pin - 1) // 2, pin % 2 == 0
        y = top + row * row_h
        x = mid + (16 if right else -16)
        words, kind = label(pin, used, feeds)
        colour = COLOURS[kind]
        out.append(f'<circle cx="{x}" cy="{y}" r="8" fill="{colour}" stroke="#f4d03f" stroke-width="2"/>')
        out.append(f'<text x="{x}" y="{y + 4}" font-size="9" text-anchor="middle" fill="white">{pin}</text>')
        end = x + (30 if right else -30)
        out.append(f'<line x1="{x + (9 if right else -9)}" y1="{y}" x2="{end}" y2="{y}" stroke="{colour}"/>')
        anchor = "start" if right else "end"
        out.append(f'<text x="{end + (4 if right else -4)}" y="{y + 4}" text-anchor="{anchor}" '
                   f'fill="{colour}">{escape(words)}</text>')
    y = top + 20 * row_h + 20
    x = 40
    for kind, colour in COLOURS.items():
        out.append(f'<circle cx="{x}" cy="{y}" r="7" fill="{colour}"/>')
        out.append(f'<text x="{x + 12}" y="{y + 4}">{kind}</text>')
        x += 120
    hubs = [r.name for r in prof.readers() if r.backend == "hub"]
    hubs += [b.name for b in prof.buttons() if b.backend == "hub"]
    if hubs:
        out.append(f'<text x="40" y="{y + 34}">On the reader hub (USB, not the header): '
                   f'{escape(", ".join(hubs))}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> int:
    source = Path(argv[0]) if argv else PROFILE
    target = Path(argv[1]) if len(argv) > 1 else OUT
    target.write_text(draw(profile.load(source)))
    print(f"written: {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
