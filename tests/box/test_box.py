"""The box test: from a fresh Debian Bookworm (Raspberry Pi OS's base) with
systemd as PID 1 to a table that referees a whole game through its faults.

In a booted container, from a clean clone of this branch's last commit:
hardware/INSTALL.md followed as written (tests/box/install_md.py: the
reference table, whose parts are not here), then ``systemd/install.sh`` again
with the simulated table's profile; the service reaches READY=1 under the
unit as it ships (natively no drop-in, no hardening taken away; under the
emulator one line, see EMULATED_DROPINS), the spectator page answers under
its unit as it ships; a
whole game of The King is Dead for two is played through the service's input
FIFO (pi_app/simulated/hands.py), every input and answer in the system log; on the way
the daemon is killed with SIGKILL (systemd restarts it), stopped with SIGSTOP
(the watchdog restarts it) and the container is rebooted, and each time the
game goes on from exactly the moves it had acknowledged; lgpio imports under
the unit. Natively it also checks what is alike on every architecture
(NATIVE_ONLY): a profile the loader refuses, a second daemon, a refused
journal and a reader missing at boot. The figures go to stdout and, with
TABLEKEEPER_BOX_REPORT=FILE, to that file (docs/reliability.md quotes them).

It runs once for each architecture of a real table's system: the host's own
(amd64 on CI), and ``arm64`` and ``armhf`` (64- and 32-bit Raspberry Pi OS)
through qemu-user-static, every program of the container emulated, systemd
included; the time limits are longer there (container.EMULATED_SLOWER).

Where nspawn cannot run (not root, no systemd-nspawn, no emulator registered
for ARM) the test skips and says why; with TABLEKEEPER_BOX=require (CI,
.ci/run) that is a failure instead.

Stand-ins, since this is not a Pi: Debian has no python3-lgpio (Raspberry Pi
OS's own build), so install.sh puts lgpio's wheel from PyPI in the venv; the
table's parts are the simulated ones (pins = "mock"), which is what the
profile says, not a change to the unit.
"""

from __future__ import annotations

import errno
import json
import os
import random
import socket
import sqlite3
import subprocess
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from pi_app.session.lobby import choices
from rules.core import JSON
from tests.box import container, install_md
from tests.box.conftest import ROOT
from tests.box.container import Box, BoxError
from tests.reliability.mirror import Mirror, Players, copy_journal, mirror_table

UNIT = "tablekeeper.service"
GAME, PLAYERS = "king-is-dead", 2
ANSWER_LIMIT = 30.0  # seconds for the daemon to answer one input
REREAD_AFTER = 5.0  # seconds without the followed answer before the whole log is read for it
INSTALL_LIMIT = 600.0
FAULTS_AT = {30: "kill", 70: "stop", 110: "reboot"}  # after this many inputs (of about 200)
WEB_UNIT = "tablekeeper-web.service"
# The box test under qemu-user only: the daemon's unit exits with 225/NETWORK there, systemd's
# "Failed to set up network namespacing: Input/output error", while unshare --net works in the same
# container (docs/reliability.md). The page's unit runs as it ships. No MemoryMax= is changed:
# nspawn mounts the memory controller read-only in the container, so no unit's cap is enforced in
# any box (the report says so); bench_arm.py holds the processes' own memory against the caps.
EMULATED_DROPINS = {
    UNIT: """# The box test under qemu-user only (tests/box/test_box.py). A Pi runs the unit as it ships.
[Service]
PrivateNetwork=no
""",
}
SYNC_EVERY = 20  # inputs typed between two waits for the daemon's answer
# What the native box checks and the emulated ones leave to it: the profile loader, the journal's
# lock and schema, and the start-up path of a missing part are Python and systemd logic that runs
# alike on every architecture, and they took some two minutes of each emulated box.
NATIVE_ONLY = ("a wrong profile", "a second daemon", "a refused journal", "a reader missing")
SIM_PROFILE = ROOT / "hardware" / "tables" / "sim.toml"


def _clone(into: Path) -> str:
    """A clean clone of this checkout's last commit (what CI has); its id."""
    head = container.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], 30, "git").stdout.strip()
    container.run(["git", "clone", "-q", "--no-checkout", str(ROOT), str(into)], 120, "git clone")
    container.run(["git", "-C", str(into), "checkout", "-q", head], 60, "git checkout")
    return head


class Hands:
    """The players' hands at the service: console lines written to its FIFO,
    answered by ``= TOKEN`` lines read from the container's system log."""

    def __init__(self, box: Box) -> None:
        self.box = box
        self.fifo = box.root / "var" / "lib" / "tablekeeper" / "console"
        self.fd: int | None = None
        self.token = 0
        self.sent: list[str] = []  # every line typed, in order
        self.answers: set[str] = set()
        self.missed: list[str] = []  # answers found only by reading the whole log
        self.follower: subprocess.Popen[str] | None = None
        self.thread: threading.Thread | None = None

    def follow(self) -> None:
        """Read the unit's log as it grows (again after each boot: a new machine id dir is not made,
        but journald starts new files)."""
        self.stop_following()
        self.follower = subprocess.Popen(
            ["journalctl", "-D", str(self.box.journal_dir()), "-u", UNIT, "-o", "cat", "-f", "-n", "all",
             "--no-pager"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
            start_new_session=True)
        proc = self.follower

        def pump() -> None:
            assert proc.stdout is not None
            for line in proc.stdout:
                if line.startswith("= "):
                    self.answers.add(line[2:].strip())

        self.thread = threading.Thread(target=pump, daemon=True)
        self.thread.start()

    def stop_following(self) -> None:
        if self.follower is not None:
            self.follower.kill()
            self.follower.wait(timeout=10)
            self.follower = None

    def connect(self, limit: float = 60.0) -> None:
        """Open the FIFO once the daemon reads it."""
        self.close()
        limit *= self.box.slow
        deadline = time.monotonic() + limit
        while True:
            try:
                self.fd = os.open(self.fifo, os.O_WRONLY | os.O_NONBLOCK)
                os.set_blocking(self.fd, True)
                return
            except OSError as exc:
                if exc.errno not in (errno.ENXIO, errno.ENOENT):
                    raise
            if time.monotonic() > deadline:
                raise BoxError(f"nobody reads {self.fifo} after {limit:.0f} s")
            time.sleep(0.05)

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def type(self, line: str) -> None:
        """Type ``line`` (the daemon reads it in turn)."""
        assert self.fd is not None
        os.write(self.fd, f"{line}\n".encode())
        self.sent.append(line)

    def sync(self) -> None:
        """Wait until the daemon has handled everything typed so far."""
        assert self.fd is not None
        self.token += 1
        token = f"box-{self.token}"
        os.write(self.fd, f"sync {token}\n".encode())
        limit = ANSWER_LIMIT * self.box.slow
        deadline = time.monotonic() + limit
        reread = time.monotonic() + REREAD_AFTER
        while token not in self.answers:
            if time.monotonic() > min(reread, deadline):
                # `journalctl -f -D` can miss lines (systemd issues #474 and #359: files it follows
                # in a directory); the whole log read once more is the truth, and following starts again.
                log = self.box.journal(UNIT)
                if f"= {token}" in log:
                    self.answers.add(token)
                    self.missed.append(token)
                    if self.follower is not None:
                        self.follow()
                    return
                if time.monotonic() > deadline:
                    raise BoxError(f"no answer to {self.sent[-1:]!r} in {limit:.0f} s: {log[-15:]}")
                reread = time.monotonic() + REREAD_AFTER
            time.sleep(0.005)

    def say(self, line: str) -> None:
        self.type(line)
        self.sync()


def _main_pid(box: Box) -> tuple[int, int]:
    props = box.unit(UNIT, "MainPID", "NRestarts")
    return int(props["MainPID"]), int(props["NRestarts"])


def _wait_active(box: Box, *, after_pid: int, limit: float) -> tuple[float, int]:
    """Until the unit runs again under a new PID; the seconds taken and its restarts."""
    limit *= box.slow
    started = time.monotonic()
    while True:
        props = box.unit(UNIT, "ActiveState", "SubState", "MainPID", "NRestarts")
        pid = int(props["MainPID"] or 0)
        if props["ActiveState"] == "active" and props["SubState"] == "running" and pid not in (0, after_pid):
            return time.monotonic() - started, int(props["NRestarts"])
        if time.monotonic() - started > limit:
            raise BoxError(f"the unit did not come back in {limit:.0f} s: {props}\n"
                           f"{box.journal(UNIT)[-20:]}")
        time.sleep(0.2)


def _journal_moves(box: Box, into: Path) -> list[JSON]:
    """The moves of the last game in the service's journal (a copy, read here)."""
    table = mirror_table(PLAYERS)
    try:
        m = Mirror(table, PLAYERS, copy_journal(box.root / "var" / "lib" / "tablekeeper", into).parent)
        try:
            return m.found
        finally:
            m.close()
    finally:
        table.close()


@pytest.mark.box
def test_fresh_bookworm_to_a_refereeing_table(box: Box, tmp_path: Path) -> None:
    report: dict[str, object] = {"architecture": box.arch, "setup": box.log}  # type: ignore[attr-defined]
    begun = time.monotonic()
    head = _clone(box.root / "root" / "tablekeeper")
    report["commit"] = head[:12]
    report["first boot (s)"] = round(box.boot(), 1)

    # -- install ------------------------------------------------------------------
    if box.slow > 1:
        for unit, text in EMULATED_DROPINS.items():
            dropin = box.root / "etc" / "systemd" / "system" / f"{unit}.d"
            dropin.mkdir(parents=True)
            (dropin / "emulated.conf").write_text(text)
            report[f"drop-in of {unit} (emulated only)"] = text.splitlines()[2:]
    # -- hardware/INSTALL.md as written: the reference table, whose parts are not here -----
    report["INSTALL.md as written"] = install_md.follow(box, tmp_path)
    # -- then the simulated table's profile, in place (install.sh's second run) -------------
    started = time.monotonic()
    out = box.sh("/root/tablekeeper/systemd/install.sh /root/tablekeeper/hardware/tables/sim.toml",
                 limit=INSTALL_LIMIT)
    report["install.sh with the simulated table (s)"] = round(time.monotonic() - started, 1)
    said = [out.stdout, out.stderr]
    assert "tablekeeper is running" in out.stdout, "\n".join(said + box.journal(UNIT)[-40:])
    # Nothing was compiled: pip was told to take wheels only, and there is no compiler to call anyway.
    compilers = box.sh("command -v cc gcc c++ g++ clang || true").stdout.split()
    assert not compilers, f"a compiler in the box: {compilers}"
    report["apt installed"] = _apt_installed(box)
    report["pip installed"] = box.sh("/opt/tablekeeper/venv/bin/pip list --local --format=freeze "
                                     "--disable-pip-version-check").stdout.split()
    unit_file = box.root / "etc" / "systemd" / "system" / UNIT
    clone = box.root / "root" / "tablekeeper"  # the commit under test, whatever the worktree holds now
    assert unit_file.read_bytes() == (clone / "systemd" / UNIT).read_bytes()  # the unit as it ships
    dropins = sorted(p.name for p in (box.root / "etc" / "systemd" / "system").glob(f"{UNIT}.d/*"))
    assert dropins == ([] if box.slow == 1 else ["emulated.conf"]), dropins  # no other drop-in
    props = box.unit(UNIT, "ActiveState", "SubState", "Type", "WatchdogUSec", "User", "ProtectSystem")
    assert props["ActiveState"] == "active" and props["SubState"] == "running", props
    assert props["Type"] == "notify" and props["User"] == "tablekeeper" and props["ProtectSystem"] == "strict"
    # Idempotent: a second run upgrades in place, keeps the journal and the profile; with --web it
    # adds the spectator page, on a port of this host's loopback that is free (the box shares its
    # network), set in the web.env the owner would edit.
    port = _free_port()
    (box.root / "etc" / "tablekeeper" / "web.env").write_text(
        f"TABLEKEEPER_WEB_HOST=127.0.0.1\nTABLEKEEPER_WEB_PORT={port}\nTABLEKEEPER_WEB_LANG=en\n")
    started = time.monotonic()
    again = box.sh("/root/tablekeeper/systemd/install.sh --web", limit=INSTALL_LIMIT, check=False)
    report["install.sh --web again (s)"] = round(time.monotonic() - started, 1)
    assert "table profile: /etc/tablekeeper/table.toml kept" in again.stdout, again.stdout
    # The page's unit as it ships, on every architecture (under the emulator it once exited with
    # 226/NAMESPACE: PrivateIPC=yes, which systemd could not set up there).
    web = box.unit(WEB_UNIT, "Result", "ExecMainStatus", "ExecMainCode", "SystemCallFilter")
    assert again.returncode == 0, (f"the page did not start: {again.stdout}{again.stderr}{web}\n"
                                   + box.sh(f"journalctl -u {WEB_UNIT} --no-pager -n 15", check=False).stdout)
    assert "spectator page installed: http://" in again.stdout, again.stdout
    assert f":{port}/" in again.stdout, again.stdout
    assert (box.root / "etc" / "systemd" / "system" / WEB_UNIT).read_bytes() == (
        box.root / "root" / "tablekeeper" / "systemd" / WEB_UNIT).read_bytes()
    assert not list((box.root / "etc" / "systemd" / "system").glob(f"{WEB_UNIT}.d/*"))  # no drop-in
    if box.slow == 1:  # seccomp is there natively (not under the emulator): no System V IPC, no mqueue
        allowed = web["SystemCallFilter"].split()
        assert "read" in allowed and not {"msgget", "semget", "shmget", "mq_open"} & set(allowed), allowed
    if box.slow == 1:  # the loader's Python, alike on every architecture (NATIVE_ONLY)
        report["a wrong profile"] = _wrong_profile_is_refused(box)
    _wait_active(box, after_pid=0, limit=60)

    # -- lgpio, imported under the unit --------------------------------------------
    log = box.journal(UNIT)
    lgpio = [line for line in log if line.startswith("GPIO library:")]
    assert lgpio and all("lgpio " in line and "cannot" not in line for line in lgpio), lgpio
    report["lgpio"] = lgpio[-1]
    pipes = box.sh("ls -a /run/tablekeeper").stdout.split()
    assert any(p.startswith(".lgd-nfy") for p in pipes), pipes

    report["from the first boot to the game (s)"] = round(time.monotonic() - begun, 1)
    # -- a whole game, with faults ---------------------------------------------------
    game_begun = time.monotonic()
    hands = Hands(box)
    hands.follow()
    hands.connect()
    index = choices(mirror_table(4)).index((GAME, PLAYERS))
    for _ in range(index):
        hands.say("press seat1 right")
    hands.say("press seat1 ok")  # the game; then how many computer players
    hands.say("press seat1 ok")  # none: the lobby starts the game
    table = mirror_table(PLAYERS)
    crowd = Players(random.Random(18))
    mirror = Mirror(table, PLAYERS, copy_journal(box.root / "var/lib/tablekeeper", tmp_path / "m0").parent)
    assert mirror.session is not None and mirror.record is not None and mirror.record.game == GAME
    faults: list[dict[str, object]] = []
    inputs = 0
    try:
        while not mirror.over():
            inp = crowd.next(mirror)
            line = mirror.line(inp)
            mirror.apply(inp)
            hands.type(line)
            inputs += 1
            fault = FAULTS_AT.get(inputs)
            if fault is None:
                if inputs % SYNC_EVERY == 0:
                    hands.sync()
                continue
            hands.sync()  # every move so far answered, so on disk
            acknowledged = mirror.history()
            pid, restarts = _main_pid(box)
            hands.close()
            t0 = time.monotonic()
            if fault == "kill":
                box.sh(f"kill -KILL {pid}")
                back, now = _wait_active(box, after_pid=pid, limit=60)
            elif fault == "stop":
                box.sh(f"kill -STOP {pid}")
                back, now = _wait_active(box, after_pid=pid, limit=90)
            else:
                hands.stop_following()
                booted = box.reboot()
                restarts = 0  # a new boot counts afresh
                ready, now = _wait_active(box, after_pid=0, limit=90)
                report["boot to READY=1 (s)"] = round(booted + ready, 1)
                back = time.monotonic() - t0
                hands.follow()
            found = _journal_moves(box, tmp_path / f"after-{fault}")
            assert found == acknowledged, f"after {fault}: the journal holds other moves than were answered"
            faults.append({"fault": fault, "after input": inputs, "moves in the journal": len(found),
                           "moves answered": len(acknowledged),
                           "back in (s)": round(back, 1), "restarts seen": now - restarts})
            mirror.close()
            mirror = Mirror(table, PLAYERS, copy_journal(box.root / "var/lib/tablekeeper",
                                                         tmp_path / f"m-{fault}").parent)
            crowd.reset()
            hands.connect()
            hands.say("show")
        hands.sync()
        final = mirror.history()
        # After the whole game: the page answers with it, and what the daemon and the page hold.
        report["page"] = _page_answers(box, port)
        report["resident after the game (MiB)"] = _resident(box)
        report["memory cgroup"] = _cgroup_memory(box)
        report["answers the log's follower missed"] = hands.missed
    finally:
        hands.close()
        hands.stop_following()
        mirror.close()
        table.close()
    assert [f["fault"] for f in faults] == ["kill", "stop", "reboot"], faults
    assert faults[0]["restarts seen"] == 1 and faults[1]["restarts seen"] == 1, faults
    log = box.journal(UNIT)
    assert any("Watchdog timeout" in line for line in log) or _watchdog_said(box), log[-20:]
    assert _journal_moves(box, tmp_path / "final") == final
    typed = [line[2:] for line in log if line.startswith("< ") and not line.startswith("< sync ")]
    assert typed == hands.sent  # every input, in order, in the system log (across the reboot too)
    report.update({"game": f"{GAME} for {PLAYERS}", "inputs": inputs, "moves": len(final), "faults": faults,
                   "inputs in the system log": len(typed), "restarts in all": sum(
                       int(f["restarts seen"]) for f in faults)})

    report["the game with its faults (s)"] = round(time.monotonic() - game_begun, 1)
    if box.slow == 1:  # the daemon's and systemd's logic, alike on every architecture (NATIVE_ONLY)
        report["a second daemon"] = _second_daemon_is_refused(box)
        report["a refused journal"] = _refused_journal_backs_off(box)
        report["a reader missing"] = _missing_reader_keeps_trying(box)
    else:
        report["checked in the native box only"] = list(NATIVE_ONLY)

    # -- uninstall ------------------------------------------------------------------
    gone = box.sh("/root/tablekeeper/systemd/install.sh --uninstall", limit=120).stdout
    assert "kept /etc/tablekeeper" in gone
    assert not (box.root / "opt" / "tablekeeper").exists() and not unit_file.exists()
    assert (box.root / "var" / "lib" / "tablekeeper" / "journal.sqlite").exists()
    report["whole, from the clone (s)"] = round(time.monotonic() - begun, 1)
    _write_report(report)


def _sim_profile_with(box: Box, name: str, old: str, new: str) -> str:
    """The simulated table's profile with its first ``old`` made ``new``,
    written as /root/``name`` in the box; its text."""
    text = SIM_PROFILE.read_text().replace(old, new, 1)
    (box.root / "root" / name).write_text(text)
    return text


def _wrong_profile_is_refused(box: Box) -> str:
    """install.sh with a profile the loader refuses: its file, line and fix
    said, and the installed profile kept."""
    bad = _sim_profile_with(box, "bad.toml", 'light = { pin = 22 }', 'light = { pin = 22, glow = 3 }')
    line = next(i for i, text in enumerate(bad.splitlines(), 1) if "glow" in text)
    refused = box.sh("/root/tablekeeper/systemd/install.sh /root/bad.toml", limit=INSTALL_LIMIT, check=False)
    assert refused.returncode != 0, refused.stdout
    assert f"/root/bad.toml:{line}: unknown key 'glow' in seat1 light; remove it or use one of:" in (
        refused.stderr), refused.stderr
    installed = (box.root / "etc" / "tablekeeper" / "table.toml").read_text()
    assert installed == SIM_PROFILE.read_text()
    return next(said for said in refused.stderr.splitlines() if "unknown key 'glow'" in said)


def _missing_reader_keeps_trying(box: Box) -> str:
    """A profile whose seat 1 pad is an RC522 that is not there: the unit
    keeps trying, waiting longer each time, and says why."""
    _sim_profile_with(box, "no-reader.toml",  # no /dev/spidev0.0 here
                      'pad = { backend = "sim" }', 'pad = { backend = "rc522", bus = 0, device = 0 }')
    started = time.monotonic()
    out = box.sh("/root/tablekeeper/systemd/install.sh /root/no-reader.toml", limit=INSTALL_LIMIT)
    assert "did not start yet; it keeps trying" in out.stdout, out.stdout
    while True:  # 5 s, then 10 s: the third start waits 20 s
        props = box.unit(UNIT, "ActiveState", "StatusText", "NRestarts")
        assert props["ActiveState"] != "failed", props
        if "failed start 3 in a row; trying again in 20 s" in props["StatusText"]:
            break
        assert time.monotonic() - started < 120 * box.slow, props
        time.sleep(0.5)
    assert props["StatusText"].startswith("seat1.pad: the rc522 reader did not open"), props
    assert int(props["NRestarts"]) == 2, props
    return str(props["StatusText"])


def _second_daemon_is_refused(box: Box) -> str:
    """`tablekeeper run` on the service's state directory while it runs: refused
    at once, naming the service's PID; the service goes on."""
    pid, _ = _main_pid(box)
    out = box.sh("/opt/tablekeeper/venv/bin/tablekeeper run --table /etc/tablekeeper/table.toml --no-console "
                 "--state-dir /var/lib/tablekeeper", limit=60, check=False)
    assert out.returncode == 2, out.stdout + out.stderr
    said = f"another Tablekeeper (PID {pid}) is already running on /var/lib/tablekeeper"
    assert said in out.stderr, out.stderr
    props = box.unit(UNIT, "ActiveState", "MainPID")
    assert props["ActiveState"] == "active" and int(props["MainPID"]) == pid, props
    return out.stderr.strip()


def _refused_journal_backs_off(box: Box) -> str:
    """A journal of a future schema under systemd: STATUS= says why, the
    starts wait 5, then 10 s (no restart every 2 s); the journal is left as it
    was, and the table runs again once it is moved back."""
    state = "/var/lib/tablekeeper"
    # The page holds the journal open too: with both stopped cleanly the journal is one
    # file (no -wal left to pair with another).
    page = box.sh("systemctl is-active tablekeeper-web.service", check=False).stdout.strip() == "active"
    box.sh(f"systemctl stop {UNIT}" + (" tablekeeper-web.service" if page else "")
           + f" && test ! -e {state}/journal.sqlite-wal && mv {state}/journal.sqlite {state}/journal.kept")
    future = box.root / "var" / "lib" / "tablekeeper" / "journal.sqlite"
    db = sqlite3.connect(future)
    db.execute("CREATE TABLE games (id INTEGER PRIMARY KEY)")
    db.execute("PRAGMA user_version=99")
    db.commit()
    db.close()
    box.sh(f"chown tablekeeper: {state}/journal.sqlite")
    written = future.read_bytes()
    started = time.monotonic()
    box.sh(f"systemctl start --no-block {UNIT}")
    while True:
        props = box.unit(UNIT, "ActiveState", "StatusText", "NRestarts")
        assert props["ActiveState"] != "failed", props
        if "failed start 2 in a row; trying again in 10 s" in props["StatusText"]:
            break
        assert time.monotonic() - started < 60 * box.slow, props
        time.sleep(0.5)
    took = time.monotonic() - started
    refused = f"journal {state}/journal.sqlite is refused: schema version 99"
    assert props["StatusText"].startswith(refused), props
    assert int(props["NRestarts"]) == 1 and took >= 5, (props, took)  # 5 s waited, not a tight loop
    assert future.read_bytes() == written  # refused, never changed
    box.sh(f"systemctl stop {UNIT} && mv {state}/journal.kept {state}/journal.sqlite "
           f"&& systemctl start {UNIT}" + (" tablekeeper-web.service" if page else ""), limit=120)
    _wait_active(box, after_pid=0, limit=60)
    return f"{props['StatusText']} (after {took:.1f} s, {props['NRestarts']} restart)"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _page_answers(box: Box, port: int) -> str:
    """The page's front and night report, fetched as a spectator would; how long they took."""
    said = []
    for path in ("/", "/night"):
        deadline = time.monotonic() + 60 * box.slow  # the unit may still be starting
        while True:
            try:
                started = time.monotonic()
                url = f"http://127.0.0.1:{port}{path}"
                with urllib.request.urlopen(url, timeout=30 * box.slow) as answer:
                    body = answer.read().decode()
                    assert answer.status == 200 and "<html" in body.lower(), (path, answer.status, body[:300])
                    said.append(f"{path} {answer.status} in {time.monotonic() - started:.2f} s")
                    break
            except (urllib.error.URLError, ConnectionError) as exc:
                if time.monotonic() > deadline:
                    raise BoxError(f"the page at {path} does not answer: {exc}; "
                                   f"{box.journal('tablekeeper-web.service')[-15:]}") from None
                time.sleep(0.5)
    return ", ".join(said)


def _resident(box: Box) -> dict[str, dict[str, float]]:
    """The daemon's and the page's resident size: the whole process, and its own part (under the
    emulator, the process also holds qemu; container.resident_kib tells them apart)."""
    sizes = {}
    units = [("daemon", UNIT), ("page", WEB_UNIT)]
    for name, unit in units:
        pid = int(box.unit(unit, "MainPID")["MainPID"])
        assert box.init_pid is not None
        total, own = container.resident_kib(container.host_pid(box.init_pid, pid), box.arch)
        sizes[name] = {"process": round(total / 1024, 1), "its own": round(own / 1024, 1)}
    return sizes


def _cgroup_memory(box: Box) -> str:
    """Whether the units' memory is accounted (and so MemoryMax= enforced) in this box."""
    current = box.unit(UNIT, "MemoryCurrent")["MemoryCurrent"]
    mount = box.sh("grep ' /sys/fs/cgroup/memory ' /proc/mounts || true").stdout.split()
    where = f"memory controller mounted {mount[3].split(',')[0]}" if mount else "no memory controller mounted"
    if current.isdigit():
        return f"accounted: the daemon's cgroup holds {int(current) / 2**20:.1f} MiB ({where})"
    return f"not accounted (MemoryCurrent={current}, {where}): MemoryMax= is not enforced in this box"


def _apt_installed(box: Box) -> list[str]:
    """The Debian packages install.sh had apt install (dependencies included), from apt's history."""
    history = (box.root / "var" / "log" / "apt" / "history.log").read_text()
    names: list[str] = []
    for line in history.splitlines():
        if line.startswith("Install: "):  # "pkg:arch (version[, automatic]), ..."
            names += [m.split(" ")[0].split(":")[0] + " " + m.split("(")[1].split(",")[0].rstrip(")")
                      for m in line[len("Install: "):].split("), ")]
    return names


def _watchdog_said(box: Box) -> bool:
    """systemd's own line about the watchdog (logged for the unit by PID 1)."""
    out = box.sh("journalctl -o cat --no-pager | grep -c 'tablekeeper.service: Watchdog timeout' || true")
    return int(out.stdout.strip() or 0) > 0


def _write_report(report: dict[str, object]) -> None:
    text = json.dumps(report, indent=1)
    print("\nbox test report:\n" + text)
    where = os.environ.get("TABLEKEEPER_BOX_REPORT")
    if where:
        Path(where).write_text(text + "\n")
