"""The spectator page's unit: checked by systemd's own tools, opt-in at install,
read-only, and the daemon's unit left without any network."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pi_app.commands import web
from tests.reliability.test_security import unit_settings
from tests.system import need

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "tablekeeper-web.service"
SERVICE = unit_settings(UNIT.read_text())["Service"]
MOST_EXPOSURE = 2.0  # systemd-analyze's scale: 0 safe .. 10 unsafe; a network service cannot reach 0


@pytest.fixture
def local_unit(tmp_path: Path) -> Path:
    """The unit naming this checkout's tablekeeper, as install-web.sh installs it."""
    need("systemd-analyze", "systemd")
    exe = Path(sys.executable).with_name("tablekeeper")
    unit = tmp_path / "tablekeeper-web.service"
    unit.write_text(UNIT.read_text().replace("/opt/tablekeeper/venv/bin/tablekeeper", str(exe)))
    return unit


def test_systemd_analyze_verify_says_nothing(local_unit: Path) -> None:
    proc = subprocess.run(["systemd-analyze", "verify", str(local_unit)], capture_output=True, text=True,
                          timeout=60)
    said = (proc.stdout + proc.stderr).strip()
    assert proc.returncode == 0 and said == "", said


def test_systemd_analyze_security_finds_little_exposed(local_unit: Path) -> None:
    proc = subprocess.run(["systemd-analyze", "security", "--offline=yes", "--no-pager", str(local_unit)],
                          capture_output=True, text=True, timeout=60)
    found = re.search(r"Overall exposure level for \S+: ([0-9.]+)", proc.stdout)
    assert found, proc.stdout + proc.stderr
    assert float(found.group(1)) <= MOST_EXPOSURE, proc.stdout
    exposed = {line.split()[1].split("=")[0] for line in proc.stdout.splitlines() if line.startswith("✗")}
    # what a web server must keep (a network, its sockets), and nothing more
    assert exposed <= {"RootDirectory", "SupplementaryGroups", "RestrictAddressFamilies", "PrivateNetwork",
                       "PrivateUsers", "DeviceAllow", "IPAddressDeny"}, exposed


def setting(key: str) -> str | None:
    values = SERVICE.get(key)
    return values[-1] if values else None


def test_the_web_unit_cannot_write_the_journal() -> None:
    assert setting("ProtectSystem") == "strict"
    for key in ("StateDirectory", "ReadWritePaths", "ReadWriteDirectories", "BindPaths", "LogsDirectory",
                "CacheDirectory", "RuntimeDirectory"):
        assert key not in SERVICE, f"{key} would give the web process somewhere to write"
    assert "/var/lib/tablekeeper" in (setting("ReadOnlyPaths") or "")
    assert setting("DynamicUser") == "yes" and setting("SupplementaryGroups") == "tablekeeper"
    assert SERVICE.get("CapabilityBoundingSet") == [""] and setting("NoNewPrivileges") == "yes"
    exec_start = setting("ExecStart") or ""
    assert " web " in exec_start and "--state-dir /var/lib/tablekeeper" in exec_start


def test_the_daemons_unit_keeps_no_network() -> None:
    daemon = unit_settings((ROOT / "systemd" / "tablekeeper.service").read_text())["Service"]
    assert daemon["RestrictAddressFamilies"] == ["AF_UNIX"] and daemon["PrivateNetwork"] == ["yes"]


def test_the_address_defaults_agree() -> None:
    """The unit's defaults, the env file install-web.sh writes and the command's own."""
    defaults = dict(pair.split("=", 1) for pair in (setting("Environment") or "").split())
    script = (ROOT / "systemd" / "install-web.sh").read_text()
    written = dict(re.findall(r"^(TABLEKEEPER_WEB_\w+)=(\S+)$", script, re.MULTILINE))
    assert defaults == written
    assert defaults["TABLEKEEPER_WEB_HOST"] == web.DEFAULT_HOST
    assert defaults["TABLEKEEPER_WEB_PORT"] == str(web.DEFAULT_PORT)
    assert setting("EnvironmentFile") == "-/etc/tablekeeper/web.env"


def test_the_web_unit_is_opt_in_at_install() -> None:
    install = ROOT / "systemd" / "install.sh"
    install_web = ROOT / "systemd" / "install-web.sh"
    for script in (install, install_web):
        assert subprocess.run(["sh", "-n", str(script)]).returncode == 0
        assert os.access(script, os.X_OK)
    text = install.read_text()
    assert 'if [ "$WEB" = yes ]; then sh "$SRC/systemd/install-web.sh"; fi' in text
    # the web unit's logic lives in install-web.sh; install.sh only removes it with --uninstall
    assert [line for line in text.splitlines() if "tablekeeper-web" in line and "rm -f" not in line
            and "disable" not in line and "if [ -f" not in line] == []
    web_text = install_web.read_text()
    assert 'install -m 0644 "$SRC/systemd/tablekeeper-web.service" "$UNIT"' in web_text
    assert "systemctl enable --now tablekeeper-web.service" in web_text


def test_the_web_unit_starts_under_the_emulator_and_shuts_out_ipc() -> None:
    """PrivateIPC=yes made the unit exit with 226/NAMESPACE in the emulated ARM boxes (systemd 252:
    "Failed to set up IPC namespacing: Input/output error"); the box test runs the page there now.
    What it kept out is refused by seccomp instead, after the allow list (the first
    SystemCallFilter= line decides whether the filter allows or denies)."""
    assert "PrivateIPC" not in SERVICE and "PrivateNetwork" not in SERVICE
    filters = SERVICE["SystemCallFilter"]
    assert filters[0] == "@system-service"
    denied = {call for line in filters if line.startswith("~") for call in line[1:].split()}
    assert {"msgget", "semget", "shmget", "shmat", "mq_open", "mq_timedsend"} <= denied
