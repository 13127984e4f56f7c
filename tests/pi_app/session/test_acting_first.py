"""The acting seat's frame waits for nothing it does not show (issue 35, the
Pi Zero 2 W): the seats' lights are set once it is handed to its screen,
before the next seat's and the shared screen's are laid out."""

from __future__ import annotations

from typing import Any

from tests.pi_app.session.test_send_order import seat2_about_to_pass


def record_lights(r: Any, said: list[str]) -> None:
    """Adds ``lights`` to ``said`` whenever a seat's light is switched on or off."""
    for light in r.table.lights.values():
        for way, real in (("on", light.on), ("off", light.off)):
            def switch(real: Any = real) -> Any:
                said.append("lights")
                return real()

            setattr(light, way, switch)


def test_the_lights_follow_the_acting_seats_frame_and_precede_the_others(rig, fake_game):
    r, s, said = seat2_about_to_pass(rig, fake_game)
    record_lights(r, said)
    r.press("seat2.ok")  # a move: the light goes from seat 2 to seat 3, every screen changes
    assert s.scene.state.to_move() == 2
    first = said.index("lights")
    assert said[:first] == ["seat2.screen", "commit", "seat2.screen"], said
    assert set(said[first:said.index("seat3.screen")]) == {"lights"}, said
    light = r.table.lights
    assert light["seat3.light"].state == "on" and light["seat2.light"].state == "off"


def test_with_no_seat_acting_the_lights_come_first(rig, fake_game):
    r = rig(2)
    s = r.open(fake_game)
    said: list[str] = []
    for name, screen in r.table.screens.items():  # every frame handed over, sent or the same pixels
        def show(frame: Any, text: str = "", real: Any = screen.show, name: str = name) -> bool:
            said.append(name)
            return real(frame, text)

        screen.show = show
    s.scene.acting = None
    s.presentation.forget()  # every screen is sent again
    s.presentation.redraw(then=lambda: said.append("then"))
    assert said == ["then", "seat1.screen", "shared.screen", "seat2.screen"], said

