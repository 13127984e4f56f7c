"""Settings and input a table cannot work with are refused in words.

Every time and count of the profile's [watcher] has a range a real table
could use (``arrive_hold = 1e308`` passed and no tag ever arrived); a UTF-8
BOM is read; a line of console or FIFO input longer than a command is
refused without being held whole in memory (a 100 MB line took the daemon to
654 MB and echoed 200 MB to the log)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from drivers.watcher import LIMITS, WatcherSettings
from pi_app.simulated.console import MAX_LINE, bounded_lines
from pi_app.table import profile
from pi_app.table.profile import ProfileError
from tests.reliability.daemon import Daemon


@pytest.mark.parametrize(("key", "value", "words"), [
    ("arrive_hold", "1e308", "arrive_hold = 1e+308 is outside 0 to 2 seconds"),
    ("leave_hold", "3600", "leave_hold = 3600 is outside 0 to 10 seconds"),
    ("interval", "0.0", "interval = 0.0 is outside 0.005 to 1 seconds"),
    ("confirm_polls", "1000000", "confirm_polls = 1000000 is outside 1 to 20 polls"),
    ("max_retry_interval", "1e9", "max_retry_interval = 1000000000.0 is outside 0.05 to 600 seconds"),
])
def test_a_watcher_time_no_table_could_use_is_refused_with_file_line_and_range(tmp_path, key, value, words):
    sim = (profile.TABLES_DIR / "sim.toml").read_text(encoding="utf-8")
    path = tmp_path / "table.toml"
    path.write_text(f"{sim}\n[watcher]\n{key} = {value}\n", encoding="utf-8")
    with pytest.raises(ProfileError) as refused:
        profile.load(path)
    line = len(sim.splitlines()) + 3
    assert f"{path}:{line}: [watcher]: watcher {words}, the range a table can use" in str(refused.value)


def test_every_default_is_within_its_range():
    defaults = WatcherSettings()
    for key, (low, high) in LIMITS.items():
        assert low <= getattr(defaults, key) <= high, key


def test_a_profile_saved_with_a_bom_is_read(tmp_path):
    path = tmp_path / "table.toml"
    path.write_bytes(b"\xef\xbb\xbf" + (profile.TABLES_DIR / "sim.toml").read_bytes())
    assert profile.load(path).name == "simulated table"


class Recorded(io.StringIO):
    """A stream that remembers the largest piece asked of it."""

    largest = 0

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        assert size is not None and size > 0, "a whole line read at once"
        self.largest = max(self.largest, size)
        return super().readline(size)


def test_a_line_longer_than_a_command_is_refused_a_piece_at_a_time():
    stream = Recorded("tap seat1 garrison\n" + "x" * (5 * 1024 * 1024) + "\npress seat1 ok\n" + "y" * 10)
    assert list(bounded_lines(stream)) == ["tap seat1 garrison\n", None, "press seat1 ok\n", "y" * 10]
    assert stream.largest <= 64 * 1024


def test_a_line_of_exactly_the_limit_is_taken():
    line = "z" * MAX_LINE + "\n"
    assert list(bounded_lines(io.StringIO(line + line[:-1]))) == [line, line[:-1]]


def test_the_daemon_refuses_an_oversized_console_line_and_goes_on(tmp_path: Path) -> None:
    daemon = Daemon(["run", "--table", "sim", "--state-dir", str(tmp_path), "--text",
                     "--game", "mordred", "--players", "3", "--seed", "2"])
    try:
        daemon.sync()
        daemon.send("tap seat1 " + "a" * (4 * 1024 * 1024))  # no command is that long
        daemon.sync()
        refused = [line for line in daemon.said if "line refused" in line]
        assert refused and f"longer than {MAX_LINE} characters" in refused[0]
        assert all(len(line) < 2 * MAX_LINE for line in daemon.said)  # nothing echoed whole
        daemon.send("quit")
        assert daemon.finish() == 0, daemon.stderr()
    finally:
        daemon.close()
