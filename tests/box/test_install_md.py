"""The reading of hardware/INSTALL.md's commands that the box test follows
(tests/box/install_md.py, run by tests/box/test_box.py on every architecture)."""

from __future__ import annotations

from tests.box.install_md import INSTALL_MD, commands


def test_the_steps_are_read_whole() -> None:
    """The parser: continuation lines joined, comments dropped, the host's block told apart."""
    steps = commands(INSTALL_MD.read_text())
    lines = [c for _, c in steps]
    assert "git bundle create tablekeeper.bundle HEAD" in lines
    enroll = ("sudo -u tablekeeper /opt/tablekeeper/venv/bin/tablekeeper tags enroll king-is-dead "
              "--table /etc/tablekeeper/table.toml --state-dir /var/lib/tablekeeper")
    assert enroll in lines
    assert not any("#" in c for c in lines)
    assert [c for b, c in steps if "send it to the Pi" in b] == [
        "git bundle create tablekeeper.bundle HEAD", "scp tablekeeper.bundle USER@raspberrypi.local:"]
