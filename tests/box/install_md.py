"""hardware/INSTALL.md followed as written, in the booted box: the first part
of the box test (tests/box/test_box.py) on every architecture, so that each
box is installed as a builder would install it before it plays, is killed
and resumes (one boot of each architecture for both).

Every command of its ``sh`` blocks is run in order, as the builder would type
it: as the user ``pi`` in their home folder, with sudo, as on Raspberry Pi
OS Lite. What this machine is not, and what stands in for it, each named
here and nowhere else:

- the box is a Debian Bookworm, not Raspberry Pi OS: a user ``pi`` with
  password-less sudo is made first (Raspberry Pi Imager's user), and
  ``raspi-config``, Raspberry Pi OS's own program, is a script that records
  what it was asked (there is no firmware to switch buses on);
- "on your computer" is the host: the bundle is made there from a clean clone
  of this checkout's last commit, and ``scp`` is a copy into pi's home;
- ``sudo reboot`` reboots the container;
- this machine may reach PyPI through a proxy of its own: the box's
  /etc/pip.conf names the host's CA bundle (container.host_trust), since
  sudo and runuser leave PIP_CERT behind;
- under qemu-user (arm64, armhf) sudo cannot become root (a setuid program
  keeps the caller's uid there): the commands run as root with pi's home and
  a pass-through ``sudo`` (SUDO_STAND_IN); natively as pi, with the real sudo;
- there is no Pico: the ``mpremote`` lines that talk to it are not run (the
  others of that step are, ``pip install mpremote`` included);
- there are no readers, screens or buttons: ``doctor`` must say which parts
  fail and why, as INSTALL.md's table says it does, ``tags enroll`` must
  stop with a sentence, not a traceback, and ``systemctl start tablekeeper``
  reports the failed start while the unit keeps trying (never ``failed``).
"""

from __future__ import annotations

import re
import shlex
import time
from pathlib import Path

from tests.box import container
from tests.box.conftest import ROOT
from tests.box.container import Box

INSTALL_MD = ROOT / "hardware" / "INSTALL.md"
RASPI_CONFIG = """#!/bin/sh
# Stand-in for Raspberry Pi OS's raspi-config in the box test: records what it is asked.
echo "$*" >> /var/log/raspi-config.calls
"""
# Under qemu-user a setuid program runs without its privilege (binfmt_misc's entries for ARM have
# no C flag), so sudo, run by pi, cannot become root: "sudo: effective uid is not 0". There the
# commands run as root in pi's home with HOME=/home/pi, and sudo is this pass-through.
SUDO_STAND_IN = """#!/bin/sh
# Stand-in for sudo in the emulated box test (tests/box/install_md.py): the commands run as root.
if [ "$1" = "-u" ]; then user="$2"; shift 2; exec runuser -u "$user" -- "$@"; fi
exec "$@"
"""
# Commands whose failure is the point here (no hardware), and what they must say instead.
EXPECTED_TO_FAIL = {
    " doctor ": ["FAIL reader", "seat1.pad", "/dev/spidev0.0", "enable SPI (dtparam=spi=on)",
                 "FAIL button", "BadPinFactory", "no pin library found"],
    " tags enroll ": ["seat1.pad"],
    " tags check ": ["seat1.pad"],
    # The reference table's service cannot start without its parts: it says why and keeps trying.
    " systemctl start tablekeeper ": ["Job for tablekeeper.service failed"],
    # "When it does not start": the status line names the missing part (status 3: not active).
    " systemctl status tablekeeper ": ["seat1.pad: the rc522 reader did not open", "trying again in"],
}


def commands(text: str) -> list[tuple[str, str]]:
    """(the paragraph's last words before the block, one command) for each command of each sh block."""
    found = []
    for m in re.finditer(r"([^\n]*)\n\n```sh\n(.*?)```", text, re.S):
        before, body = m.group(1), m.group(2)
        joined = re.sub(r"\\\n\s*", "", body)
        for line in joined.splitlines():
            line = re.sub(r"\s+#.*$", "", line).strip()
            if line and not line.startswith("#"):
                found.append((before, line))
    return found


def _as_pi(box: Box, command: str, cwd: str, limit: float) -> tuple[int, str]:
    script = f"cd {shlex.quote(cwd)} && {command}"
    if box.slow > 1:  # emulated: pi's sudo cannot become root (see SUDO_STAND_IN)
        as_root = f"cd {shlex.quote(cwd)} && HOME=/home/pi USER=pi LOGNAME=pi sh -c {shlex.quote(command)}"
        proc = box.sh(f"{as_root} 2>&1", limit=limit, check=False)
    else:
        proc = box.sh(f"runuser -l pi -c {shlex.quote(script)} 2>&1", limit=limit, check=False)
    return proc.returncode, proc.stdout


def follow(box: Box, tmp_path: Path) -> dict[str, object]:
    """Every command of INSTALL.md in the booted ``box``, in order; what ran, in how long."""
    begun = time.monotonic()
    # Raspberry Pi OS Lite's user, its sudo, its raspi-config and boot partition.
    box.sh("apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "
           "--no-install-recommends sudo >/dev/null", limit=600)
    box.sh("useradd -m -s /bin/bash -G sudo,dialout pi && "
           "echo 'pi ALL=(ALL) NOPASSWD: ALL' > /etc/sudoers.d/pi && "
           "mkdir -p /boot/firmware && touch /boot/firmware/config.txt")
    if "PIP_CERT" in box.env:
        (box.root / "etc" / "pip.conf").write_text(f"[global]\ncert = {box.env['PIP_CERT']}\n")
    if box.slow > 1:
        (box.root / "usr" / "local" / "bin" / "sudo").write_text(SUDO_STAND_IN)
        (box.root / "usr" / "local" / "bin" / "sudo").chmod(0o755)
    (box.root / "usr" / "bin" / "raspi-config").write_text(RASPI_CONFIG)
    (box.root / "usr" / "bin" / "raspi-config").chmod(0o755)
    home = "/home/pi"
    cwd = home
    ran: list[str] = []
    skipped: list[str] = []
    for _, command in commands(INSTALL_MD.read_text()):
        started = time.monotonic()
        if command.startswith("git bundle create"):  # on the builder's computer: here, the host
            clone = tmp_path / "clone"
            container.run(["git", "clone", "-q", str(ROOT), str(clone)], 120, "git clone")
            head = container.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], 30, "git").stdout.strip()
            container.run(["git", "-C", str(clone), "checkout", "-q", head], 60, "git checkout")
            container.run(["sh", "-c", command], 120, command, cwd=clone)
        elif command.startswith("scp "):
            bundle = tmp_path / "clone" / "tablekeeper.bundle"
            (box.root / "home" / "pi" / bundle.name).write_bytes(bundle.read_bytes())
            box.sh(f"chown pi:pi {home}/{bundle.name}")
        elif command == "sudo reboot":
            box.reboot()
        elif "mpremote connect" in command:  # no Pico here
            skipped.append(command)
            continue
        elif command.startswith("cd "):
            cwd = f"{home}/{command[3:].strip()}"
        else:
            status, said = _as_pi(box, command, cwd, limit=900)
            wanted = next((w for key, w in EXPECTED_TO_FAIL.items() if key in f" {command} "), None)
            if wanted is None:
                assert status == 0, f"INSTALL.md's `{command}` failed ({status}):\n{said[-3000:]}"
            else:
                assert "Traceback" not in said, f"`{command}`:\n{said[-3000:]}"
                for words in wanted:
                    assert words in said, f"`{command}` did not say {words!r}:\n{said[-3000:]}"
        ran.append(f"{command} ({time.monotonic() - started:.0f} s)")
        print(f"[{box.arch} {time.monotonic() - begun:.0f} s] INSTALL.md: {ran[-1]}", flush=True)  # with -s
    calls = (box.root / "var" / "log" / "raspi-config.calls").read_text().splitlines()
    assert calls == ["nonint do_spi 0", "nonint do_serial_cons 1", "nonint do_serial_hw 1"]  # I2C stays off
    config = (box.root / "boot" / "firmware" / "config.txt").read_text()
    assert "dtoverlay=spi1-1cs" in config and "i2c_arm" not in config  # the screens on SPI1
    assert "[pi02]\ncore_freq=400\ncore_freq_min=400\n" in config  # the screens' SPI clock held on a Zero
    main_py = (box.root / "home" / "pi" / "tablekeeper" / "firmware" / "main.py").read_text()
    assert re.search(r"^READERS = 2\b", main_py, re.M), "the hub's reader count was not set"
    assert (box.root / "opt/tablekeeper/venv/bin/mpremote").is_file(), "mpremote was not installed"
    sheets = sorted(p.name for p in (box.root / "home" / "pi" / "sheets").glob("*.svg"))
    assert sheets == ["king-is-dead-it-1.svg", "king-is-dead-it-2.svg"], sheets
    props = box.unit("tablekeeper.service", "UnitFileState", "ActiveState", "StatusText")
    assert props["UnitFileState"] == "enabled" and props["ActiveState"] != "failed", props
    return {"steps": ran, "not run (no Pico)": skipped, "whole (s)": round(time.monotonic() - begun, 1)}
