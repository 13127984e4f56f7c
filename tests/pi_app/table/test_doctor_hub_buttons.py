"""`doctor` on buttons of the reader hub: pressed ones pass as GPIO ones do; a hub whose
firmware has no buttons fails them, saying to flash it."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from drivers.hub import factory as hub_factory
from pi_app.cli import main
from pi_app.table.profile import TABLES_DIR
from tests.drivers.test_hub_connection import synced_rig
from tests.drivers.test_hub_pty import Relay

HUB_BUTTONS = 'buttons = { backend = "hub", hub = "hub", left = 0, ok = 1, right = 2 }'


def table(folder: Path, port: str) -> Path:
    """sim.toml with seat 1's pad and buttons on the hub: a real table, as far as doctor knows."""
    text = (TABLES_DIR / "sim.toml").read_text(encoding="utf-8").replace(
        'name = "seat1"\npad = { backend = "sim" }',
        'name = "seat1"\npad = { backend = "hub", index = 0 }', 1)
    text = text.replace("buttons = { left = 4, ok = 5, right = 6 }", HUB_BUTTONS, 1)
    path = folder / "t.toml"
    path.write_text(f'[[hubs]]\nname = "hub"\nport = "{port}"\n\n' + text, encoding="utf-8")
    return path


def test_doctor_hears_hub_buttons_pressed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    relay = Relay(readers=1)
    done = threading.Event()

    def person() -> None:  # presses seat 1's three buttons on the hub until the doctor is done
        while not done.wait(0.1):
            for b in range(3):
                relay.table(f"KEY,{b},DOWN")
                done.wait(0.03)
                relay.table(f"KEY,{b},UP")
                done.wait(0.03)

    presser = threading.Thread(target=person, daemon=True)
    presser.start()
    try:
        assert relay.path is not None
        main(["doctor", "--table", str(table(tmp_path, relay.path)), "--listen", "2"])
    finally:
        done.set()
        presser.join()
        hub_factory.close_all()
        relay.close()
    out = capsys.readouterr().out
    for role in ("left", "ok", "right"):
        assert f"ok  button  seat1.{role:10} backend=hub hub=hub button=" in out, out
    assert "  seat1.ok: pressed" in out


def test_doctor_says_to_flash_a_hub_without_buttons(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    old = synced_rig(2)  # a hub on protocol 1 firmware: readers, no buttons

    class Conn:
        def __new__(cls, port: str, name: str) -> Any:
            old.conn.name = name
            old.conn.start = lambda: old.conn  # type: ignore[method-assign]
            return old.conn

    monkeypatch.setattr(hub_factory, "HubConnection", Conn)
    try:
        assert main(["doctor", "--table", str(table(tmp_path, "/dev/old-hub")), "--listen", "0"]) == 1
    finally:
        hub_factory.close_all()
    out = capsys.readouterr().out
    assert "ok  reader  seat1.pad" in out
    assert "FAIL button  seat1.ok" in out
    assert "has no buttons; flash the firmware of this version of tablekeeper onto it" in out
