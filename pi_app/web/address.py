"""The spectator page's address, for the shared screen, and its QR code.

The daemon has no network (its unit gives it none), so it cannot ask for
its own LAN address: the page is named by the box's mDNS name,
``http://<hostname>.local:<port>/`` (Raspberry Pi OS answers it with
avahi), with the port the owner set in ``/etc/tablekeeper/web.env``;
``TABLEKEEPER_WEB_URL`` there names it outright (phones that do not resolve
``.local``). Whether the web unit runs is read from systemd's own record
of running units, ``/run/systemd/units/invocation:<unit>``: no D-Bus, no
program started.
"""

from __future__ import annotations

import socket
from pathlib import Path

import segno
from PIL import Image

UNIT = "tablekeeper-web.service"
UNITS = Path("/run/systemd/units")
ENV_FILE = Path("/etc/tablekeeper/web.env")
DEFAULT_PORT = 8080  # as `tablekeeper web` and its unit
_LOOPBACK = ("127.", "localhost", "::1")


def running(units: Path = UNITS) -> bool:
    return (units / f"invocation:{UNIT}").is_symlink()


def settings(env_file: Path = ENV_FILE) -> dict[str, str]:
    """``KEY=VALUE`` lines of the web unit's environment file (absent: none)."""
    try:
        text = env_file.read_text(encoding="utf-8")
    except OSError:
        return {}
    out = {}
    for line in text.splitlines():
        key, sep, value = line.strip().partition("=")
        if sep and not key.startswith("#"):
            out[key.strip()] = value.strip().strip('"')
    return out


def page_url(env_file: Path = ENV_FILE, units: Path = UNITS, hostname: str | None = None) -> str | None:
    """The page's address when the web unit runs and listens beyond the box, else None."""
    if not running(units):
        return None
    env = settings(env_file)
    if env.get("TABLEKEEPER_WEB_URL"):
        return env["TABLEKEEPER_WEB_URL"]
    host = env.get("TABLEKEEPER_WEB_HOST", "0.0.0.0")
    if host.startswith(_LOOPBACK):
        return None  # the page is for this box only: nothing to show the players
    port = env.get("TABLEKEEPER_WEB_PORT", str(DEFAULT_PORT))
    name = host if host not in ("0.0.0.0", "::", "") else f"{hostname or socket.gethostname()}.local"
    if ":" in name:
        name = f"[{name}]"
    return f"http://{name}/" if port == "80" else f"http://{name}:{port}/"


def short_lines(url: str) -> tuple[str, ...]:
    """The address for a narrow screen, broken where a person would break it
    (``raspberrypi`` / ``.local:8080``), never inside a name."""
    short = url.removeprefix("http://").rstrip("/")
    head, dot, rest = short.partition(".")
    return (head, dot + rest) if dot and not head.startswith("[") and not head.isdigit() else (short,)


def qr_image(url: str, height: int = 64) -> Image.Image:
    """``url`` as a QR code (mode "1", white modules lit, as the OLED shows
    light on black; a phone's camera reads either), as large as ``height``
    allows: the modules as big as fit with a quiet zone of one module, then
    as much of the standard's four as the height leaves."""
    code = segno.make_qr(url, error="l", boost_error=False)
    size = code.symbol_size(border=0)[0]
    # the biggest modules first (a camera reads them from further away), then
    # as much of the quiet zone as still fits
    scale = max(1, height // (size + 2))
    border = max(1, min(4, (height // scale - size) // 2))
    side = (size + 2 * border) * scale
    img = Image.new("1", (side, side), 1)
    for y, row in enumerate(code.matrix):
        for x, dark in enumerate(row):
            if dark:
                left, top = (x + border) * scale, (y + border) * scale
                img.paste(0, (left, top, left + scale, top + scale))
    return img
