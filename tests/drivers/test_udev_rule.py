"""The hub's udev rule: well-formed, and for the USB id the host driver looks for."""

from __future__ import annotations

import re
from pathlib import Path

from drivers.hub.port import HUB_PID, HUB_VID

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "hardware" / "udev" / "99-tablekeeper-hub.rules"

# One udev key: NAME or NAME{attr}, an operator, a double-quoted value.
_KEY = re.compile(r'\s*([A-Z_]+(?:\{[^}]*\})?)\s*(==|!=|\+=|-=|:=|=)\s*"([^"]*)"\s*(,|$)')


def parse_rule(line: str) -> list[tuple[str, str, str]]:
    """The keys of one rule line; AssertionError where the line is not udev syntax."""
    keys, pos = [], 0
    while pos < len(line):
        m = _KEY.match(line, pos)
        assert m, f"{RULES.name}: not a udev key at column {pos + 1}: {line[pos:]!r}"
        keys.append((m.group(1), m.group(2), m.group(3)))
        pos = m.end()
    return keys


def rules() -> list[list[tuple[str, str, str]]]:
    lines = RULES.read_text(encoding="utf-8").splitlines()
    return [parse_rule(ln) for ln in lines if ln.strip() and not ln.lstrip().startswith("#")]


def test_the_rule_matches_the_host_drivers_usb_id() -> None:
    (rule,) = rules()
    matches = {k: v for k, op, v in rule if op == "=="}
    # sysfs spells idVendor/idProduct as four lower-case hex digits; "2E8A" would never match.
    assert matches["ATTRS{idVendor}"] == f"{HUB_VID:04x}"
    assert matches["ATTRS{idProduct}"] == f"{HUB_PID:04x}"
    assert matches["SUBSYSTEM"] == "tty"


def test_the_rule_keeps_modemmanager_off_and_gives_the_port_to_dialout() -> None:
    (rule,) = rules()
    sets = {k: v for k, op, v in rule if op in ("=", "+=")}
    assert sets["ENV{ID_MM_DEVICE_IGNORE}"] == "1"
    assert sets["GROUP"] == "dialout"
    assert sets["MODE"] == "0660"
    assert sets["SYMLINK"] == "tablekeeper-hub"


def test_a_malformed_rule_is_caught() -> None:
    for bad in ('ATTRS{idVendor}=="2e8a", GROUP=dialout', 'SUBSYSTEM=="tty" ATTRS{idProduct}=="0005"'):
        try:
            parse_rule(bad)
        except AssertionError:
            continue
        raise AssertionError(f"parse_rule accepted {bad!r}")


def test_the_firmware_readme_points_at_the_rule_file() -> None:
    readme = (ROOT / "firmware" / "README.md").read_text(encoding="utf-8")
    assert "hardware/udev/99-tablekeeper-hub.rules" in readme
    assert "ID_MM_DEVICE_IGNORE" not in readme  # one copy of the rule: the file
