"""hardware/wiring.svg is drawn from the reference profile and must not drift from it."""

from __future__ import annotations

import re

from pi_app.table import profile
from tools import wiring_diagram


def test_the_committed_diagram_is_the_one_the_reference_profile_draws() -> None:
    drawn = wiring_diagram.draw(profile.load(wiring_diagram.PROFILE))
    assert wiring_diagram.OUT.read_text() == drawn, (
        "hardware/wiring.svg is out of date: run .venv/bin/python -m tools.wiring_diagram")


def test_every_pin_the_profile_uses_is_labelled_with_its_part() -> None:
    prof = profile.load(wiring_diagram.PROFILE)
    svg = wiring_diagram.draw(prof)
    labels = dict(re.findall(r">GPIO(\d+): ([^<]+)<", svg))
    for b in prof.buttons():
        if b.backend != "hub":  # a hub button is wired to the hub, not the Pi's header
            assert labels[str(b.pin)] == f"{b.name} button"
    for light in prof.lights():
        assert labels[str(light.pin)] == light.name
    assert not any("free" in words for words in labels.values())  # wiring.md: no pin left
    assert labels["18"] == "SPI1 CE0 (74HC138 enable)" and labels["19"] == "SPI1 MISO (not wired)"
    assert [labels[str(pin)] for pin in prof.screen_decoder.address_pins] == [
        f"74HC138 A{bit} (screen select)" for bit in range(3)]
    assert labels["2"] == "screens&#x27; D/C" and labels["3"] == "screens&#x27; reset (RES)"  # escaped '

    assert len(labels) == 28  # every GPIO of the header, once
