"""Every profile recipe in hardware/wiring.md loads with the profile loader, on
the reference table or on the variant the text names, with its pin budget
checked by the loader (no GPIO twice, one reader per chip select or hub
index, one screen per bus address and channel)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pi_app.table import profile

ROOT = Path(__file__).resolve().parents[3]
WIRING = (ROOT / "hardware" / "wiring.md").read_text()
REFERENCE = (ROOT / "hardware" / "tables" / "reference.toml").read_text()
SEAT4 = REFERENCE[REFERENCE.index('[[seats]]\nname = "seat4"'):]

PAD = {i: f'pad = {{ backend = "rc522", bus = 0, device = {i - 1}, rst_pin = 25 }}' for i in (1, 2)}
PAD |= {i: f'pad = {{ backend = "hub", hub = "hub", index = {i - 3} }}' for i in (3, 4)}
SCREEN = {i: 'screen = { backend = "luma", driver = "sh1106", port = 1, address = 0x3C, '
             f'mux_channel = {i - 1} }}' for i in (1, 2, 3, 4, 5)}  # 5: the shared screen
SPI_SCREEN = {i: f'screen = {{ backend = "luma", driver = "sh1106", interface = "spi", select = {i - 1}, '
                 'dc_pin = 2, rst_pin = 3 }' for i in (1, 2, 3, 4, 5)}


def _i2c_table() -> str:
    """The reference table with its screens on I2C1 behind a TCA9548A and
    every button on the Pi, as wiring.md's *Screens on I2C* describes it."""
    text = REFERENCE[:REFERENCE.index("# The 74HC138")] + REFERENCE[REFERENCE.index("[shared]"):]
    for i in SPI_SCREEN:
        text = text.replace(SPI_SCREEN[i], SCREEN[i])
    for old, new in (("right = 16 }  # GPIO19 is SPI1's MISO", "right = 19 }"),
                     ('buttons = { backend = "hub", hub = "hub", left = 0, ok = 1, right = 2 }',
                      "buttons = { left = 20, ok = 21, right = 26 }"),
                     ('buttons = { backend = "hub", hub = "hub", left = 3, ok = 4, right = 5 }',
                      "buttons = { left = 17, ok = 27, right = 18 }")):
        assert old in text, old
        text = text.replace(old, new)
    return text


I2C_TABLE = _i2c_table()
ZONE = '[[zones]]\nname = "Caledonia"\nreader = { backend = "hub", hub = "hub", index = 2 }'


def three_seats() -> str:
    """The I2C table without seat 4 (its buttons' pins freed)."""
    return I2C_TABLE[:I2C_TABLE.index('[[seats]]\nname = "seat4"')]


# (what wiring.md says, the profile it goes into as (old, new) edits of the base)
RECIPES: list[tuple[str, str, list[tuple[str, str]]]] = [
    ('pad = { backend = "rc522", bus = 0, device = 0, rst_pin = 25 }', REFERENCE, []),
    ('pad = { backend = "rc522", bus = 0, device = 0, cs_pin = 16 }', I2C_TABLE,
     [(PAD[3], 'pad = { backend = "rc522", bus = 0, device = 0, cs_pin = 16 }')]),
    ('pad = { backend = "rc522", bus = 0, device = 0, cs_pin = 25 }  # seat4', I2C_TABLE,
     [(PAD[1], 'pad = { backend = "rc522", bus = 0, device = 0 }'),
      (PAD[2], 'pad = { backend = "rc522", bus = 0, device = 1 }'),
      (PAD[3], 'pad = { backend = "rc522", bus = 0, device = 0, cs_pin = 16 }'),
      (PAD[4], 'pad = { backend = "rc522", bus = 0, device = 0, cs_pin = 25 }')]),
    ("`irq_pin = <BCM>`", I2C_TABLE, [(PAD[1], PAD[1].replace(" }", ", irq_pin = 16 }"))]),
    ("set `speed_hz = 1000000`", REFERENCE, [(PAD[1], PAD[1].replace(" }", ", speed_hz = 1000000 }"))]),
    ('pad = { backend = "hub", hub = "hub", index = 9 }', REFERENCE,
     [(PAD[4], PAD[4].replace("= 1", "= 9"))]),
    (SPI_SCREEN[1], REFERENCE, []),
    ('{ backend = "luma", driver = "sh1106", address = 0x3C, mux_channel = 0 }', I2C_TABLE,
     [(SCREEN[1], SCREEN[1].replace("port = 1, ", ""))]),
    ("profile `{ address = 0x3D }` with no `mux_channel`", I2C_TABLE,
     [(SCREEN[1], 'screen = { backend = "luma", driver = "sh1106", address = 0x3C }'),
      (SCREEN[2], 'screen = { backend = "luma", driver = "sh1106", address = 0x3D }')]),
    ('spi_port = 0, spi_device = 1, dc_pin = 17, rst_pin = 27 }', three_seats(),
     [(PAD[2], 'pad = { backend = "hub", hub = "hub", index = 1 }'),
      (SCREEN[2], 'screen = { backend = "luma", driver = "ssd1306", interface = "spi", spi_port = 0, '
                  'spi_device = 1, dc_pin = 17, rst_pin = 27 }')]),
    ("`encoder = { pin_a = 17, pin_b = 27 }`", three_seats(),
     [("light = { pin = 22 }", "light = { pin = 22 }\nencoder = { pin_a = 17, pin_b = 27 }")]),
    ("`encoder = { pin_a = 4, pin_b = 6 }`", REFERENCE,
     [("buttons = { left = 4, ok = 5, right = 6 }", "buttons = { ok = 5 }"),
      ("light = { pin = 22 }", "light = { pin = 22 }\nencoder = { pin_a = 4, pin_b = 6 }")]),
    (ZONE, REFERENCE, [('[[seats]]\nname = "seat1"', f'{ZONE}\n\n[[seats]]\nname = "seat1"')]),
    ('`kind = "pwm"` dims', REFERENCE, [("light = { pin = 22 }", 'light = { pin = 22, kind = "pwm" }')]),
    ('`light = { kind = "rgb", pins = [17, 27, 18] }`', three_seats(),
     [("light = { pin = 22 }", 'light = { kind = "rgb", pins = [17, 27, 18] }')]),
]


@pytest.mark.parametrize(("said", "base", "edits"), RECIPES, ids=[r[0][:40] for r in RECIPES])
def test_the_recipe_loads(said: str, base: str, edits: list[tuple[str, str]], tmp_path: Path) -> None:
    assert said in WIRING, f"wiring.md no longer says {said!r}: update this test with it"
    text = base
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    path = tmp_path / "table.toml"
    path.write_text(text)
    profile.load(path)


def test_every_profile_line_in_wiring_md_is_one_of_the_recipes() -> None:
    """A recipe added to wiring.md without a test here is caught."""
    written = set(re.findall(r"(?:pad|screen|light|encoder|reader) = \{[^}\n]*\}", WIRING))
    tested = {line for _, _, edits in RECIPES for _, new in edits for line in new.splitlines()}
    tested |= {said.strip("`") for said, _, _ in RECIPES} | set(PAD.values())
    missing = {w for w in written if not any(w in t for t in tested)}
    assert not missing, f"wiring.md recipes with no test: {sorted(missing)}"


def test_a_hub_index_past_the_firmwares_16_readers_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text(REFERENCE.replace(PAD[4], PAD[4].replace("= 1", "= 16")))
    with pytest.raises(profile.ProfileError, match=r"index = 16 is above 15"):
        profile.load(path)


def test_a_pin_used_twice_in_a_recipe_is_refused(tmp_path: Path) -> None:
    """The budget: an RGB light on the reference table's busy pins is refused, naming the pin."""
    path = tmp_path / "table.toml"
    path.write_text(REFERENCE.replace("light = { pin = 22 }",
                                      'light = { kind = "rgb", pins = [17, 27, 18] }'))
    with pytest.raises(profile.ProfileError,
                       match=r"GPIO 17 of seat1\.light is already used by the screen decoder's A0"):
        profile.load(path)
    path.write_text(I2C_TABLE.replace("light = { pin = 22 }",
                                      'light = { kind = "rgb", pins = [17, 27, 18] }'))
    with pytest.raises(profile.ProfileError, match=r"GPIO 17 of seat4\.left is already used by seat1\.light"):
        profile.load(path)


def test_the_i2c_table_loads_and_leaves_gpio16_free(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text(I2C_TABLE)
    table = profile.load(path)
    pins = {b.pin for b in table.buttons()} | {s.light.pin for s in table.seats}
    assert 16 not in pins and {s.interface for s in table.screens()} == {"i2c"}
