"""Security: the daemon opens no network socket and starts no program, the
systemd unit runs it unprivileged behind the hardening, and a secret never
reaches the daemon's log.

The facts the table itself needs from the unit (notify, watchdog, restart,
device groups, state directory) are in tests/pi_app/table/test_systemd.py; the
hardening is here, one place for each.
"""

from __future__ import annotations

import json
import os
import random
import re
import socket
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from pi_app.games.king_and_assassins.words import piece_name
from pi_app.games.siege.words import card_name, hand_text
from rules.core import JSON
from tests.reliability.daemon import ROOT, Daemon
from tests.reliability.mirror import Mirror, Players, copy_journal, mirror_table

UNIT = ROOT / "systemd" / "tablekeeper.service"
INSTALL = ROOT / "systemd" / "install.sh"
NETWORK_TABLES = ("tcp", "tcp6", "udp", "udp6", "udplite", "udplite6", "raw", "raw6")


# -- a whole game, played in this process first --------------------------------------


class Played:
    """A game played by the simulated players in a mirror: the console
    lines that replay it, its moves, and what each seat's screen said."""

    def __init__(self, tmp: Path, game: str, players: int, seed: int) -> None:
        table = mirror_table(players)
        mirror = Mirror(table, players, tmp / "mirror", game, seed)
        crowd = Players(random.Random(f"{game}/{seed}"))
        self.lines: list[str] = []
        self.screens: list[dict[str, list[str]]] = []
        self.states: list[object] = []
        try:
            while not mirror.over():
                inp = crowd.next(mirror)
                self.lines.append(mirror.line(inp))
                mirror.apply(inp)
                self.screens.append(mirror.seat_screens())
                self.states.append(mirror.session.scene.state.copy())  # type: ignore[union-attr]
            self.moves: list[JSON] = mirror.history()
        finally:
            mirror.close()
            table.close()


def daemon_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID")}
    return {**env, **extra}


def journal_moves(state_dir: Path, tmp: Path, players: int) -> tuple[list[JSON], bool]:
    table = mirror_table(players)
    final = Mirror(table, players, copy_journal(state_dir, tmp / "final").parent)
    try:
        assert final.record is not None
        return final.found, final.record.ended
    finally:
        final.close()
        table.close()


# -- no network ---------------------------------------------------------------------


def socket_inodes(pid: int) -> set[int]:
    inodes = set()
    fd_dir = Path(f"/proc/{pid}/fd")
    for fd in fd_dir.iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue  # closed meanwhile
        match = re.fullmatch(r"socket:\[(\d+)\]", target)
        if match:
            inodes.add(int(match.group(1)))
    return inodes


def network_inodes() -> dict[int, str]:
    """Every inode of an internet or raw socket of this network namespace."""
    out = {}
    for name in NETWORK_TABLES:
        path = Path("/proc/net") / name
        if not path.exists():
            continue
        for line in path.read_text().splitlines()[1:]:
            # sl local rem st tx:rx tr:when retrnsmt uid timeout inode (the
            # header splits some of these in two, so it is not counted)
            out[int(line.split()[9])] = name
    return out


def test_network_inodes_are_read_from_proc():
    # The check below can only fail if it can see a socket: an internet
    # socket of this process must show up in /proc/net.
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.bind(("127.0.0.1", 0))
        mine = socket_inodes(os.getpid())
        assert mine & set(network_inodes()), (mine, network_inodes())


def test_the_daemon_opens_no_network_socket_and_starts_no_program(tmp_path: Path) -> None:
    played = Played(tmp_path, "king-is-dead", 2, 5)
    notify_path = tmp_path / "notify"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(str(notify_path))
    said: list[bytes] = []

    def listen() -> None:  # as systemd does: at once (a full queue would block the sender)
        while b"STOPPING=1" not in said:
            said.append(listener.recv(100))

    hearing = threading.Thread(target=listen, daemon=True)
    hearing.start()
    audit = tmp_path / "audit.jsonl"
    state = tmp_path / "state"
    env = daemon_env(NOTIFY_SOCKET=str(notify_path), WATCHDOG_USEC="100000")
    d = Daemon([str(audit), "run", "--table", "sim", "--game", "king-is-dead", "--players", "2",
                "--seed", "5", "--state-dir", str(state), "--text"], module="tests.reliability.audit_sockets",
               env=env)
    seen: dict[int, str] = {}
    try:
        for i, line in enumerate(played.lines):
            d.send(line)
            if i % 25 == 0:
                d.sync()  # mid-game: which sockets does the daemon hold now?
                network = network_inodes()
                for inode in socket_inodes(d.pid):
                    seen[inode] = network.get(inode, "unix")
        d.sync()
        assert d.send("quit")
        assert d.finish() == 0, d.stderr()
    finally:
        d.close()
    hearing.join(timeout=10)
    listener.close()
    assert said[0] == b"READY=1" and b"WATCHDOG=1" in said, said
    assert journal_moves(state, tmp_path, 2) == (played.moves, True)  # the whole game was played
    assert set(seen.values()) <= {"unix"}, seen
    events = [json.loads(line) for line in audit.read_text().splitlines()]
    families = {e["family"] for e in events if "family" in e}
    assert families == {socket.AF_UNIX}, events  # the notify socket, and nothing else
    assert any(e["event"] == "socket.connect" and str(notify_path) in e["address"] for e in events), events
    assert not [e for e in events if not e["event"].startswith("socket.")], events  # no program started
    assert not [e for e in events if e["event"] in ("socket.getaddrinfo", "socket.gethostbyname")], events


# -- the unit ------------------------------------------------------------------------


def unit_settings(text: str) -> dict[str, dict[str, list[str]]]:
    """section -> key -> every value assigned, in order (an empty one resets)."""
    out: dict[str, dict[str, list[str]]] = {}
    section = ""
    for raw in text.replace("\\\n", " ").splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            section = line.strip("[]")
            out.setdefault(section, {})
            continue
        key, _, value = line.partition("=")
        out.setdefault(section, {}).setdefault(key.strip(), []).append(value.strip())
    return out


SERVICE = unit_settings(UNIT.read_text())["Service"]


def setting(key: str) -> str | None:
    values = SERVICE.get(key)
    return values[-1] if values else None


def test_the_unit_runs_as_a_dedicated_unprivileged_user():
    assert setting("User") == "tablekeeper" and setting("Group") == "tablekeeper"
    assert setting("DynamicUser") in (None, "no")
    script = INSTALL.read_text()
    # a system account that cannot log in, whose home is the state directory
    assert re.search(r"useradd --system .*--shell /usr/sbin/nologin", script.replace("\\\n", " ")), script
    assert setting("NoNewPrivileges") == "yes"
    assert SERVICE.get("CapabilityBoundingSet") == [""]  # empty: no capability at all
    assert SERVICE.get("AmbientCapabilities") in (None, [""])
    assert setting("RestrictSUIDSGID") == "yes"


def test_the_unit_writes_only_its_state_directory():
    assert setting("ProtectSystem") == "strict"  # all read-only but /dev, /proc, /sys ...
    assert setting("StateDirectory") == "tablekeeper"  # ... and this one
    for key in ("ReadWritePaths", "ReadWriteDirectories", "BindPaths"):
        assert key not in SERVICE, f"{key} makes more than the state directory writable"
    assert setting("ProtectHome") == "yes" and setting("PrivateTmp") == "yes"
    assert setting("ProtectKernelTunables") == "yes" and setting("ProtectControlGroups") == "yes"
    assert "--state-dir" not in (setting("ExecStart") or "")


def test_the_unit_has_no_network():
    assert SERVICE.get("RestrictAddressFamilies") == ["AF_UNIX"]  # the notify socket only
    assert setting("PrivateNetwork") == "yes"
    assert setting("IPAddressDeny") == "any"


def test_the_unit_filters_system_calls_and_hides_other_processes():
    assert setting("SystemCallFilter") == "@system-service"
    assert setting("SystemCallErrorNumber") == "EPERM"
    assert setting("SystemCallArchitectures") == "native"
    assert setting("MemoryDenyWriteExecute") == "yes"
    assert setting("ProtectProc") == "invisible"


def test_the_hardening_leaves_the_table_its_devices():
    # GPIO (/dev/gpiochip*, /dev/gpiomem), SPI (/dev/spidev*), I2C (/dev/i2c-*)
    # and the hub's USB serial port are device files, reached through groups.
    assert setting("PrivateDevices") in (None, "no")
    assert setting("DevicePolicy") in (None, "auto") and "DeviceAllow" not in SERVICE
    for key in ("InaccessiblePaths", "TemporaryFileSystem"):
        assert not any("/dev" in v or "/sys" in v for v in SERVICE.get(key, [])), key
    # gpiozero reads /proc/cpuinfo and /proc/device-tree to know the board
    assert setting("ProcSubset") in (None, "all")
    assert setting("PrivateUsers") in (None, "no")  # the device groups stay the host's


# -- secrets ----------------------------------------------------------------------------


def words_found(text: str, words: set[str]) -> set[str]:
    return {w for w in words if re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text, re.IGNORECASE)}


def assassins_secrets(played: Played) -> set[str]:
    last = played.states[-1]
    words = set()
    for c in last.assassins:  # type: ignore[attr-defined]
        words |= {c, piece_name(c, "en"), piece_name(c, "it")}
    # the assassins' own screen: "A: C3 C7 C9"
    seen = {line for screens in played.screens for line in screens["seat2.screen"]}
    return words | {line for line in seen if line.startswith("A: ")}


def hands_secrets(played: Played) -> set[str]:
    words = set()
    for state in played.states:
        for seat in (0, 1):
            hand = state.view(seat)["hand"]  # type: ignore[attr-defined]
            for card in hand:
                words |= {card, card_name(card, "en"), card_name(card, "it")}
            if hand:
                words.add(hand_text(hand, "en"))
    return words


@pytest.mark.parametrize(("game", "seed", "secrets"), [
    ("king-and-assassins", 3, assassins_secrets),
    ("siege", 4, hands_secrets),
])
def test_secrets_never_reach_the_daemons_log(tmp_path: Path, game: str, seed: int,
                                             secrets: Callable[[Played], set[str]]) -> None:
    played = Played(tmp_path, game, 2, seed)
    words = secrets(played)
    # The search finds them where they belong: on their owners' screens.
    private = "\n".join(line for screens in played.screens for lines in screens.values() for line in lines)
    assert words_found(private, words), f"{game}: no secret on any seat's screen: {sorted(words)}"
    state = tmp_path / "state"
    proc = subprocess.run(
        [sys.executable, "-m", "tests.reliability.headless", "run", "--table", "sim", "--game", game,
         "--players", "2", "--seed", str(seed), "--state-dir", str(state), "--no-console"],
        input="\n".join([*played.lines, "quit"]) + "\n", capture_output=True, text=True, cwd=ROOT,
        env=daemon_env(), timeout=300)
    log = proc.stdout + proc.stderr
    assert proc.returncode == 0, log
    assert journal_moves(state, tmp_path, 2) == (played.moves, True)  # the whole game, through the daemon
    assert not words_found(log, words), f"{game}: the daemon's log holds {sorted(words_found(log, words))}"
