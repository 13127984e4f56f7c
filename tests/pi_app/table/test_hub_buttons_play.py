"""A simulated table whose seat buttons are on the reader hub (its real firmware on
MicroPython's unix port, over a pty): moves played with those buttons, and the same
game on GPIO buttons, end in the same state."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from drivers.hub import HubButton
from drivers.hub import factory as hub_factory
from pi_app.simulated.autoplay import choose
from pi_app.table.profile import TABLES_DIR
from tests.drivers.test_hub_pty import Relay
from tests.pi_app.conftest import Rig

GAME = "king-is-dead"
MOVES = 6


def until(done: Callable[[], bool], what: str) -> None:
    """Until the hub's line has come through (its own thread); not a timing check."""
    deadline = time.monotonic() + 10
    while not done():
        assert time.monotonic() < deadline, what
        time.sleep(0.002)


class HubKeysRig(Rig):
    """The simulated table; a button on the hub is pressed on the firmware's pin."""

    def __init__(self, tmp: Path, players: int, table: str, relay: Relay) -> None:
        super().__init__(tmp, players, table)
        self.relay = relay
        self.hub_presses = 0

    def press(self, part: str) -> None:
        assert self.table is not None
        button = self.table.buttons[part]
        if not isinstance(button, HubButton):
            super().press(part)
            return
        before = button.presses
        self.relay.table(f"KEY,{button.index},DOWN")
        until(lambda: button.presses == before + 1, f"{part} pressed on the hub")
        self.relay.table(f"KEY,{button.index},UP")
        until(lambda: not button.is_pressed, f"{part} let go on the hub")
        self.hub_presses += 1
        self.session.pump()


@pytest.fixture
def relay() -> Iterator[Relay]:
    relay = Relay(readers=2)
    try:
        yield relay
    finally:
        hub_factory.close_all()
        err = relay.close()
        assert "Traceback" not in err, err


def hub_buttons_table(folder: Path, port: str) -> Path:
    """sim.toml with seats 1 and 2's buttons on the hub (0-2 and 3-5)."""
    text = (TABLES_DIR / "sim.toml").read_text(encoding="utf-8")
    text = text.replace("buttons = { left = 4, ok = 5, right = 6 }",
                        'buttons = { backend = "hub", hub = "hub", left = 0, ok = 1, right = 2 }')
    text = text.replace("buttons = { left = 12, ok = 13, right = 19 }",
                        'buttons = { backend = "hub", left = 3, ok = 4, right = 5 }')
    path = folder / "hub-buttons.toml"
    path.write_text(f'[[hubs]]\nname = "hub"\nport = "{port}"\n\n' + text, encoding="utf-8")
    return path


def play(rig: Rig, seed: int) -> str:
    """MOVES moves with the buttons only; the game's state after them."""
    s = rig.open(GAME, seed=seed)
    rng = random.Random(seed)
    for _ in range(MOVES):
        seat = s.scene.state.to_move()
        rig.make(seat, choose(s, rng), taps=False)
    assert s.journal.replay(s.scene.record).to_json() == s.scene.state.to_json()
    return repr(s.scene.state.to_json())


def test_moves_played_with_hub_buttons(tmp_path: Path, relay: Relay) -> None:
    assert relay.path is not None
    table = hub_buttons_table(tmp_path, relay.path)
    with HubKeysRig(tmp_path / "hub", 2, str(table), relay) as rig:
        on_hub = play(rig, seed=5)
        assert rig.hub_presses >= MOVES
        assert rig.table is not None
        assert isinstance(rig.table.buttons["seat2.ok"], HubButton)
    (tmp_path / "gpio").mkdir()
    with Rig(tmp_path / "gpio", 2) as gpio:
        assert play(gpio, seed=5) == on_hub
