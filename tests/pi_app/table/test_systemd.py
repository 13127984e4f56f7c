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
import tomllib
from pathlib import Path

import pytest

from pi_app.table import sdnotify

ROOT = Path(__file__).resolve().parents[3]
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
    main = text[text.index('case "$ACTION" in'):]
    assert main.index("install_udev_rule") < main.index("install_unit")
    assert 'systemctl restart "$UNIT_NAME"' in text


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

    from pi_app.session.lobby import Lobby
    from pi_app.table import hardware, profile

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


# -- the path from a fresh Raspberry Pi OS to a running table ------------------
# (tests/box/test_box.py runs all of it on a booted Debian Bookworm.)


def _unit() -> dict[str, list[str]]:
    """Each key of the unit file and its values, in order."""
    keys: dict[str, list[str]] = {}
    for line in UNIT.read_text().splitlines():
        if "=" in line and not line.lstrip().startswith(("#", "[")):
            key, _, value = line.partition("=")
            keys.setdefault(key.strip(), []).append(value.strip())
    return keys


def _shell_function(name: str) -> str:
    text = (ROOT / "systemd" / "install.sh").read_text()
    start = text.index(f"\n{name}() {{")
    return text[start:text.index("\n}\n", start)]


def test_install_uses_the_systems_lgpio_and_never_builds_it():
    """pip install '.[pi]' in a plain venv built lgpio from source (swig and
    liblgpio, neither installed): the venv now sees Raspberry Pi OS's
    python3-lgpio and python3-spidev, and a missing lgpio is only ever a wheel."""
    text = (ROOT / "systemd" / "install.sh").read_text()
    venv = _shell_function("make_venv")
    assert 'python3 -m venv --system-site-packages "$VENV"' in venv
    assert "[pi]\"" not in venv and "[pi]'" not in venv  # the extra that builds lgpio
    assert '--only-binary=:all: lgpio' in venv
    packages = re.search(r'^APT_PACKAGES="([^"]*)"\nPI_PACKAGES="([^"]*)"', text, re.MULTILINE)
    assert packages is not None
    wanted = packages.group(1).split() + packages.group(2).split()
    assert {"python3-venv", "python3-spidev", "python3-lgpio"} <= set(wanted)
    assert "apt-get install" in _shell_function("install_packages")


def test_install_builds_tablekeeper_with_what_is_on_the_box():
    """Each run had pip fetch setuptools from PyPI into a throwaway build
    environment (142 s of an emulated arm64 install): Tablekeeper is now built
    with the venv's setuptools and Debian's python3-wheel, checked against
    pyproject.toml's [build-system] rather than fetched."""
    text = (ROOT / "systemd" / "install.sh").read_text()
    venv = _shell_function("make_venv").replace("\\\n", " ")
    own = [line for line in venv.splitlines() if line.rstrip().endswith('"$SRC"') and "pip\" install" in line]
    assert len(own) == 1, "make_venv installs Tablekeeper with one pip command"
    assert "--no-build-isolation" in own[0] and "--check-build-dependencies" in own[0]
    packages = re.search(r'^APT_PACKAGES="([^"]*)"', text, re.MULTILINE)
    assert packages is not None and "python3-wheel" in packages.group(1).split()
    # Bookworm's venv carries setuptools 66.1.1 (its ensurepip): enough for the floor.
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["requires"]
    assert requires == ["setuptools>=64"], "a new build requirement: is it on a Bookworm box without PyPI?"


def test_lgpio_has_a_writable_directory_for_its_notify_pipe():
    """lgpio makes .lgd-nfy* in $LG_WD, else the working directory: "/" under
    the unit, read-only with ProtectSystem=strict."""
    unit = _unit()
    assert unit["ProtectSystem"] == ["strict"]
    env = dict(e.split("=", 1) for v in unit.get("Environment", []) for e in v.split())
    writable = {f"%t/{d}" for d in unit.get("RuntimeDirectory", [])}
    writable |= {f"%S/{d}" for d in unit.get("StateDirectory", [])}
    assert env.get("LG_WD") in writable, env
    assert unit.get("WorkingDirectory", ["/"])[0] in writable


def test_a_box_without_keyboard_never_stops_trying():
    """StartLimitBurst=5 in 60 s left the unit failed for good after a bad
    start (a hub unplugged at boot): someone with a keyboard had to come."""
    unit = _unit()
    assert unit.get("StartLimitIntervalSec") == ["0"]
    assert "StartLimitBurst" not in unit
    assert unit["Restart"] in (["on-failure"], ["always"])
    # The daemon's own wait after a failed start fits in the start timeout.
    from pi_app.table import startup

    assert int(unit["TimeoutStartSec"][0]) > startup.LONGEST_WAIT + 10
    assert "RestartSteps" not in unit  # systemd 254; Bookworm has 252


def test_a_failed_start_waits_longer_each_time_and_says_why(tmp_path, monkeypatch):
    """Under systemd, a table that cannot start says what is wrong (STATUS=,
    the system log, every screen that opens) and waits 5, 10, 20, 40, then
    60 s before it exits; a start that reaches READY=1 clears the count."""
    from pi_app import cli
    from pi_app.table import startup
    notify = str(tmp_path / "notify")
    sock = _listener(notify)
    waits: list[float] = []
    monkeypatch.setattr(startup, "_sleep", waits.append)
    monkeypatch.setenv("NOTIFY_SOCKET", notify)
    table = tmp_path / "t.toml"
    # seat1's reader on an RC522 that is not there (no /dev/spidev here)
    table.write_text((ROOT / "pi_app" / "tables" / "sim.toml").read_text().replace(
        'pad = { backend = "sim" }', 'pad = { backend = "rc522", bus = 5, device = 3 }', 1))
    state = tmp_path / "state"
    for _ in range(6):
        code = cli.main(["run", "--table", str(table), "--no-console", "--state-dir", str(state)])
        assert code != 0
    assert waits == [5, 10, 20, 40, 60, 60]
    status = sock.recv(1000).decode()
    assert status.startswith("STATUS=seat1.pad: the rc522 reader did not open")
    assert "(failed start 1 in a row; trying again in 5 s)" in status
    startup.started(state)
    assert startup.failures(state) == 0
    sock.close()
    # The screens that answer say it too.
    from pi_app.table import profile

    shown = startup.show(profile.load(table).screens(), "seat1.pad: no reader", 5, "it")
    assert shown == ["seat1.screen", "seat2.screen", "seat3.screen", "seat4.screen", "shared.screen"]


def test_a_stop_during_the_wait_makes_the_next_start_a_first_try(tmp_path):
    """`systemctl stop` (SIGTERM) while a failed start waits clears the count:
    the next start, a person's or a new boot's, waits 5 s, not the 60 s of a
    sixth failure in a row (`systemctl start` hung that long before it said the
    start failed); the daemon still ends by SIGTERM, as systemd expects."""
    import signal

    from pi_app.table import startup
    notify = str(tmp_path / "notify")
    sock = _listener(notify)
    sock.settimeout(60)
    table = tmp_path / "t.toml"
    table.write_text((ROOT / "pi_app" / "tables" / "sim.toml").read_text().replace(
        'pad = { backend = "sim" }', 'pad = { backend = "rc522", bus = 5, device = 3 }', 1))
    state = tmp_path / "state"
    state.mkdir()
    (state / startup.COUNTER).write_text("5\n")  # five failed starts in a row so far
    daemon = subprocess.Popen([sys.executable, "-m", "pi_app", "run", "--table", str(table), "--no-console",
                               "--state-dir", str(state)], env={**os.environ, "NOTIFY_SOCKET": notify},
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        status = sock.recv(1000).decode()
        assert "(failed start 6 in a row; trying again in 60 s)" in status, status
        daemon.send_signal(signal.SIGTERM)
        assert daemon.wait(timeout=60) == -signal.SIGTERM, daemon.communicate()
    finally:
        daemon.kill()
        daemon.communicate()
        sock.close()
    assert startup.failures(state) == 0
    assert startup.wait_after(startup.failures(state) + 1) == startup.FIRST_WAIT


def test_a_start_by_hand_after_failed_starts_is_a_first_try(tmp_path, monkeypatch):
    """`systemctl stop` then `start` (or a boot) between two tries: systemd's
    NRestarts is 0 again, so the start that fails waits 5 s, where the count in
    the state directory alone made `systemctl start` hang for a minute; after a
    crash past READY=1 the state directory's count stays the lower."""
    from pi_app.table import startup
    waits: list[float] = []
    state = tmp_path / "state"
    state.mkdir()
    for in_a_row, restarts, waited in ((5, 0, 5), (5, 3, 40), (1, 3, 10)):
        (state / startup.COUNTER).write_text(f"{in_a_row}\n")
        monkeypatch.setattr(startup, "_restarts", lambda restarts=restarts: restarts)
        assert startup.failed(state, "seat1.pad: no reader", [], sleep=waits.append, env={}) == waited
    assert waits == [5, 40, 10]


def test_systemds_count_of_restarts_is_read_for_the_units_own_main_process(tmp_path, monkeypatch):
    from pi_app.table import startup
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    asked = tmp_path / "asked"
    fake = bin_dir / "systemctl"
    fake.write_text(f"#!/bin/sh\necho \"$*\" > {asked}\necho MainPID={os.getpid()}\necho NRestarts=3\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    cgroup = tmp_path / "cgroup"
    cgroup.write_text("1:name=systemd:/system.slice/tablekeeper.service\n0::/system.slice/tablekeeper.service\n")
    assert startup.restarts_by_systemd({"INVOCATION_ID": "1"}, cgroup) == 3
    assert asked.read_text().split()[-1] == "tablekeeper.service"
    assert startup.restarts_by_systemd({}, cgroup) is None  # not started by systemd: not asked
    fake.write_text("#!/bin/sh\necho MainPID=1\necho NRestarts=3\n")  # another process is the unit's
    assert startup.restarts_by_systemd({"INVOCATION_ID": "1"}, cgroup) is None
    cgroup.write_text("0::/user.slice/user-1000.slice/session-2.scope\n")  # not in a service
    assert startup.restarts_by_systemd({"INVOCATION_ID": "1"}, cgroup) is None


def test_the_reason_stays_on_a_real_screen_after_the_daemon_lets_go(monkeypatch):
    """luma's cleanup blanks a screen unless it is told to persist."""
    from drivers import parts
    from drivers.screens import I2cBuses
    from drivers.sim.i2c import FakeI2cBus
    from pi_app.table import startup

    bus = FakeI2cBus({(0, 0x3C)})
    opened = []

    def open_screen(spec, **kw):
        screen = real_open(spec, i2c=I2cBuses(opener=lambda port: bus))
        opened.append(screen)
        return screen

    real_open = parts.open_screen
    monkeypatch.setattr(parts, "open_screen", open_screen)
    from pi_app.table.profile import PartSpec

    spec = PartSpec("shared.screen", "screen", {"backend": "luma", "mux_channel": 0})
    assert startup.show([spec], "seat3.pad: reader hub not connected", 10, "en") == ["shared.screen"]
    assert opened[0].device.persist


def test_from_a_shell_a_failed_start_exits_at_once(tmp_path, monkeypatch):
    from pi_app import cli
    from pi_app.table import startup
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    monkeypatch.setattr(startup, "_sleep", lambda s: pytest.fail("waited from a shell"))
    table = tmp_path / "t.toml"
    table.write_text((ROOT / "pi_app" / "tables" / "sim.toml").read_text().replace(
        'pad = { backend = "sim" }', 'pad = { backend = "rc522", bus = 5, device = 3 }', 1))
    assert cli.main(["run", "--table", str(table), "--no-console", "--state-dir", str(tmp_path)]) != 0
    assert startup.failures(tmp_path) == 0


def _import_lgpio_in_a_read_only_cwd(work: Path, env: dict[str, str],
                                     code: str = "import lgpio") -> subprocess.CompletedProcess:
    """``import lgpio`` (the real one) with the working directory read-only, as
    "/" is under ProtectSystem=strict: in a private mount namespace."""
    ro = work / "ro"
    ro.mkdir(parents=True)
    script = (f"mount --bind {ro} {ro} && mount -o remount,bind,ro {ro} && cd {ro} && "
              f"exec {sys.executable} -c '{code}'")
    base = {k: v for k, v in os.environ.items() if k != "LG_WD"}
    return subprocess.run(["unshare", "-m", "sh", "-c", script], env={**base, **env},
                          capture_output=True, text=True, timeout=60)


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("unshare") is None,
                    reason="needs root and unshare for a read-only bind mount")
def test_lgpio_imports_under_the_units_environment(tmp_path):
    """The real lgpio: with the working directory read-only its import fails
    (it makes and opens .lgd-nfy* there), with the unit's LG_WD it works."""
    pytest.importorskip("lgpio")
    if subprocess.run(["unshare", "-m", "true"], capture_output=True, timeout=30).returncode != 0:
        pytest.skip("unshare -m does not work here")
    runtime = tmp_path / "run"
    (runtime / "tablekeeper").mkdir(parents=True)
    unit_env = dict(e.split("=", 1) for v in _unit().get("Environment", []) for e in v.split())
    unit_env = {k: v.replace("%t", str(runtime)) for k, v in unit_env.items()}
    failed = _import_lgpio_in_a_read_only_cwd(tmp_path / "without", {})
    assert failed.returncode != 0 and ".lgd-nfy" in failed.stderr, failed
    done = _import_lgpio_in_a_read_only_cwd(tmp_path / "with", unit_env)
    assert done.returncode == 0, done.stderr
    assert any(p.name.startswith(".lgd-nfy") for p in (runtime / "tablekeeper").iterdir())


def test_a_refused_journal_at_start_waits_and_says_why(tmp_path, monkeypatch):
    """A journal refused at start (a future schema, here) goes the way of a
    missing reader under systemd: STATUS=, the screens, the growing wait;
    before, it exited at once and systemd restarted it every two seconds."""
    import sqlite3

    from pi_app import cli
    from pi_app.table import startup
    notify = str(tmp_path / "notify")
    sock = _listener(notify)
    waits: list[float] = []
    monkeypatch.setattr(startup, "_sleep", waits.append)
    monkeypatch.setenv("NOTIFY_SOCKET", notify)
    shown: list[str] = []
    monkeypatch.setattr(startup, "show", lambda screens, problem, wait, lang: shown.append(problem) or [])
    state = tmp_path / "state"
    state.mkdir()
    db = sqlite3.connect(state / "journal.sqlite")
    db.execute("CREATE TABLE games (id INTEGER PRIMARY KEY)")
    db.execute("PRAGMA user_version=99")
    db.commit()
    db.close()
    for _ in range(3):
        assert cli.main(["run", "--table", "sim", "--no-console", "--state-dir", str(state)]) == 2
    assert waits == [5, 10, 20]
    status = sock.recv(1000).decode()
    assert status.startswith(f"STATUS=journal {state / 'journal.sqlite'} is refused: schema version 99")
    assert "(failed start 1 in a row; trying again in 5 s)" in status
    assert len(shown) == 3 and "schema version 99" in shown[0]
    sock.close()


def test_both_units_cap_their_memory_above_what_a_night_takes():
    """A runaway (a 100 MB input line took the daemon to 654 MB) is stopped by
    the unit, not the system; bench/bench_memory.py and bench_web.py measure
    the peak against the same MemoryMax."""
    from bench.bench_memory import unit_memory_max_mb

    daemon, web = unit_memory_max_mb("tablekeeper.service"), unit_memory_max_mb("tablekeeper-web.service")
    assert 80 < daemon <= 256  # above the bench's 80 MB peak target, far below a Pi Zero 2 W's 512 MB
    assert 40 < web <= 128


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("unshare") is None,
                    reason="needs root and unshare for a read-only bind mount")
def test_a_command_run_from_a_folder_it_cannot_write_still_gets_lgpio(tmp_path):
    """`sudo -u tablekeeper tablekeeper doctor` from the builder's home: lgpio's
    import failed there (its notification pipe); the command's entry gives it
    the temporary directory when the working directory is not writable."""
    pytest.importorskip("lgpio")
    if subprocess.run(["unshare", "-m", "true"], capture_output=True, timeout=30).returncode != 0:
        pytest.skip("unshare -m does not work here")
    entry = "\n".join([f"import os, sys; sys.path.insert(0, \"{ROOT}\")", "from pi_app import cli",
                       "try:", "    cli.main([\"--help\"])", "except SystemExit:", "    pass",
                       "import lgpio", "print(os.environ[\"LG_WD\"])"])
    done = _import_lgpio_in_a_read_only_cwd(tmp_path / "entry", {"TMPDIR": str(tmp_path)}, entry)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == str(tmp_path)
    assert any(p.name.startswith(".lgd-nfy") for p in tmp_path.iterdir())
