"""The unit file and the notify/watchdog protocol."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from pi_app import sdnotify

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "tablekeeper.service"


def test_unit_has_what_the_table_needs():
    # The hardening (user, capabilities, file system, network, system calls,
    # devices left reachable) is checked in tests/reliability/test_security.py.
    text = UNIT.read_text()
    for line in ("Type=notify", "WatchdogSec=", "Restart=on-failure",
                 "SupplementaryGroups=gpio spi i2c dialout", "StateDirectory=tablekeeper"):
        assert line in text, line


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed here")
def test_systemd_analyze_verify_says_nothing(tmp_path):
    # The unit names the installed binary; verify it against this checkout's.
    exe = Path(sys.executable).with_name("tablekeeper")
    unit = tmp_path / "tablekeeper.service"
    unit.write_text(UNIT.read_text().replace("/opt/tablekeeper/venv/bin/tablekeeper", str(exe)))
    proc = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True,
                          timeout=60)
    said = (proc.stdout + proc.stderr).strip()
    assert proc.returncode == 0 and said == "", said


def test_install_script_is_valid_shell():
    assert subprocess.run(["sh", "-n", str(ROOT / "systemd" / "install.sh")]).returncode == 0
    assert os.access(ROOT / "systemd" / "install.sh", os.X_OK)


def test_install_script_installs_the_hub_udev_rule():
    text = (ROOT / "systemd" / "install.sh").read_text()
    rule = re.search(r"^UDEV_RULE=(\S+)$", text, re.MULTILINE)
    assert rule is not None and (ROOT / rule.group(1)).is_file(), "install.sh names no udev rule that exists"
    assert 'install -m 0644 "$SRC/$UDEV_RULE" /etc/udev/rules.d/' in text
    assert "if command -v udevadm >/dev/null 2>&1; then" in text
    assert "udevadm control --reload-rules && udevadm trigger" in text
    # before the service starts and first opens the hub's port
    assert text.index("/etc/udev/rules.d/") < text.index("systemctl enable --now")


def _listener(path: str) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(2)
    return sock


def test_notify_sends_datagrams(tmp_path):
    path = str(tmp_path / "notify")
    sock = _listener(path)
    assert sdnotify.notify("READY=1", {"NOTIFY_SOCKET": path})
    assert sock.recv(100) == b"READY=1"
    assert not sdnotify.notify("READY=1", {})  # not under systemd: nothing to do
    sock.close()


def test_notify_abstract_namespace():
    name = f"tablekeeper-test-{os.getpid()}"
    sock = _listener("\0" + name)
    assert sdnotify.notify("WATCHDOG=1", {"NOTIFY_SOCKET": "@" + name})
    assert sock.recv(100) == b"WATCHDOG=1"
    sock.close()


def test_watchdog_pings_only_while_alive(tmp_path):
    path = str(tmp_path / "notify")
    sock = _listener(path)
    alive = threading.Event()
    alive.set()
    env = {"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "100000", "WATCHDOG_PID": str(os.getpid())}
    assert sdnotify.watchdog_interval(env) == 0.05
    assert sdnotify.watchdog_interval({**env, "WATCHDOG_PID": "1"}) is None
    dog = sdnotify.Watchdog(alive.is_set, env)
    dog.start()
    assert sock.recv(100) == b"READY=1"
    assert sock.recv(100) == b"WATCHDOG=1"
    alive.clear()  # the loop is stuck: the pings stop
    sock.settimeout(0.15)
    with contextlib.suppress(TimeoutError):
        while True:  # drain what was sent before the loop "stuck"
            sock.recv(100)
    sock.settimeout(0.3)
    with pytest.raises(TimeoutError):
        sock.recv(100)
    alive.set()
    sock.settimeout(2)
    assert sock.recv(100) == b"WATCHDOG=1"
    dog.stop()
    sock.close()


def test_session_alive_follows_its_loop(rig, fake_game):
    r = rig(2)
    s = r.open(fake_game)
    assert s.alive()
    s.heartbeat -= 60  # a loop that stopped turning a minute ago
    assert not s.alive()


def test_lobby_alive_follows_its_loop_and_the_reader_thread():
    """Choosing the next game, the watchdog still pings only while the
    lobby's loop turns and the reader thread runs."""
    import queue

    from pi_app import hardware, profile
    from pi_app.lobby import Lobby

    table = hardware.build(profile.load(profile.find("sim")), queue.Queue(), poll=True)
    try:
        lobby = Lobby(table, "en")
        assert lobby.alive()
        lobby.heartbeat -= 60  # a lobby loop that stopped turning a minute ago
        assert not lobby.alive()
        lobby.heartbeat += 60
        table.watcher.stop()  # the reader thread died
        assert not lobby.alive()
    finally:
        table.close()


def test_notify_never_blocks_on_a_listener_that_does_not_read(tmp_path):
    # systemd reads at once; a stalled listener must still not stall the table.
    path = str(tmp_path / "notify")
    sock = _listener(path)
    sent = [sdnotify.notify("WATCHDOG=1", {"NOTIFY_SOCKET": path}) for _ in range(5000)]
    assert sent[0] and not all(sent)  # its queue filled up; the rest were dropped, not waited for
    sock.close()
