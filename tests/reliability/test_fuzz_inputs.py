"""What the daemon reads from files and the hub, fuzzed: replay logs, table
profiles and hub protocol lines, random and mutated from good ones. Never a
crash: a log is replayed (exit 0) or refused naming its line (exit 2); a
profile loads or is refused naming its file and line; a hub line parses or is
counted as bad, and a good line after any garbage is still read.

Bounded by TABLEKEEPER_FUZZ_EXAMPLES (examples per test; the default keeps the
file at about 40 s); derandomized, so CI runs the same examples every time."""

from __future__ import annotations

import contextlib
import io
import json
import os
import queue
import random
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from drivers.hub import protocol
from pi_app import cli
from pi_app.commands.replay import replay
from pi_app.errors import UsageError
from pi_app.table import hardware, profile
from tests.drivers.test_hub_connection import synced_rig

EXAMPLES = int(os.environ.get("TABLEKEEPER_FUZZ_EXAMPLES", "300"))
ROOT = Path(__file__).resolve().parents[2]


def fuzz(share: float = 1.0) -> Any:
    """Hypothesis settings for one test: ``share`` of TABLEKEEPER_FUZZ_EXAMPLES."""
    return settings(max_examples=max(10, int(EXAMPLES * share)), derandomize=True, deadline=None,
                    database=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# -- mutations of lines --------------------------------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20)
    | st.sampled_from([10**400, -(10**30), 2**63, 1e308, "\u0000", "\ud800", "é€😀", "", " "]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=8,
)
GARBAGE = st.sampled_from([
    "{", "}", "[", "null", "[]", "{}", '"text"', "1" * 5000, "[" * 5000, '{"type":', "\x00\x01\x02",
    "\ufeff{}", "NaN", "Infinity", "-", "\\", '{"a": 1} {"b": 2}', "\x1b[2J",
]) | st.text(max_size=40)


@st.composite
def mutated(draw: st.DrawFn, lines: list[str], *, json_lines: bool) -> list[str]:
    """``lines`` with one to four changes: lines dropped, doubled, swapped, cut
    short, replaced by garbage; with ``json_lines`` also a field of a JSON
    line dropped or given another value (any JSON, huge numbers, unicode)."""
    lines = list(lines)
    for _ in range(draw(st.integers(1, 4))):
        if not lines:
            lines.append(draw(GARBAGE))
            continue
        i = draw(st.integers(0, len(lines) - 1))
        kinds = ["drop", "double", "swap", "cut", "garbage", "insert"]
        kinds += ["field", "key"] if json_lines else []
        kind = draw(st.sampled_from(kinds))
        if kind == "drop":
            del lines[i]
        elif kind == "double":
            lines.insert(i, lines[i])
        elif kind == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == "cut":
            lines[i] = lines[i][: draw(st.integers(0, max(0, len(lines[i]) - 1)))]
        elif kind == "garbage":
            lines[i] = draw(GARBAGE)
        elif kind == "insert":
            lines.insert(i, draw(GARBAGE))
        else:
            try:
                data = json.loads(lines[i])
            except (ValueError, RecursionError):  # garbage put there by an earlier change
                continue
            if not isinstance(data, dict) or not data:
                continue
            key = draw(st.sampled_from(sorted(data)))
            if kind == "key":
                del data[key]
            else:
                data[key] = draw(JSON)
            lines[i] = json.dumps(data, ensure_ascii=False)
    return lines


# -- replay files --------------------------------------------------------------------------------


@lru_cache
def logs() -> dict[str, list[str]]:
    """A good log per game (seeded random legal moves, chance from the seed),
    and the example logs shipped in examples/."""
    out: dict[str, list[str]] = {}
    for game_id, game in rules.GAMES.items():
        players = min(game.player_counts)
        state = game.new_game(players, 3, {})
        header = {"game": game_id, "players": players, "seed": 3, "options": {}, "chance": "seed"}
        lines = [json.dumps(header)]
        rng = random.Random(game_id)
        for _ in range(30):
            while state.is_chance() and state.outcome() is None:
                state.apply(state.sample_chance())
            if state.outcome() is not None:
                break
            move = rng.choice(state.legal_moves())
            state.apply(move)
            lines.append(json.dumps(move.to_json()))
        out[game_id] = lines
    for path in sorted((ROOT / "examples").glob("*.jsonl")):
        out[path.name] = path.read_text(encoding="utf-8").splitlines()
    return out


NAMED_LINE = re.compile(r"^game\.jsonl(:\d+: |: empty file)")


def replay_verdict(lines: list[str]) -> str:
    """Replay in-process; "ok" or the refusal, which must name its line."""
    out = io.StringIO()
    try:
        replay(io.StringIO("\n".join(lines) + "\n"), out, "game.jsonl")
    except UsageError as exc:
        assert NAMED_LINE.match(str(exc)), f"the refusal does not name the line: {exc}"
        return str(exc)
    # Every line it writes is JSON a UTF-8 terminal can take.
    for line in out.getvalue().splitlines():
        json.loads(line)
        line.encode("utf-8")
    return "ok"


@fuzz()
@given(st.data())
def test_mutated_replay_logs(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(sorted(logs())))
    replay_verdict(data.draw(mutated(logs()[name], json_lines=True)))


@fuzz(0.3)
@given(st.lists(GARBAGE | JSON.map(lambda v: json.dumps(v, ensure_ascii=False)), max_size=6))
def test_random_replay_logs(lines: list[str]) -> None:
    replay_verdict(lines)


@contextlib.contextmanager
def folder() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="tk-fuzz-") as tmp:
        yield Path(tmp)


@fuzz(0.2)
@given(st.binary(max_size=200), st.data())
def test_replay_files_with_bytes_in_them(noise: bytes, data: st.DataObject) -> None:
    """Through the command (in-process): exit 0 or 2, a message naming the file, no traceback."""
    lines = logs()["king-is-dead-refusals.jsonl"]
    at = data.draw(st.integers(0, len(lines)))
    body = ("\n".join(lines[:at]) + "\n").encode() + noise + ("\n".join(lines[at:]) + "\n").encode()
    with folder() as tmp:
        path = tmp / "game.jsonl"
        path.write_bytes(body)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli.main(["replay", str(path)])
    assert code in (0, 2), (code, err.getvalue())
    if code == 2:
        assert err.getvalue().startswith(f"tablekeeper replay: {path}"), err.getvalue()


def test_replay_command_refuses_bad_files_without_a_traceback(tmp_path: Path) -> None:
    """A few runs of the real command in its own process."""
    good = logs()["king-is-dead-refusals.jsonl"]
    cases = {
        "binary.jsonl": bytes(range(256)) * 4,
        "cut.jsonl": "\n".join(good).encode()[:-7],
        "huge.jsonl": (good[0] + "\n" + '{"type": "play", "card": ' + "9" * 5000 + "}\n").encode(),
        "deep.jsonl": (good[0] + "\n" + "[" * 100_000 + "\n").encode(),
        "surrogate.jsonl": (good[0] + "\n" + '{"type": "play", "card": "\\ud800"}\n').encode(),
    }
    for name, body in cases.items():
        path = tmp_path / name
        path.write_bytes(body)
        proc = subprocess.run([sys.executable, "-m", "pi_app", "replay", str(path)],
                              capture_output=True, text=True, cwd=ROOT, timeout=60)
        assert "Traceback" not in proc.stderr, (name, proc.stderr)
        assert proc.returncode in (0, 2), (name, proc.returncode, proc.stderr)
        if proc.returncode == 2:
            assert re.match(rf"tablekeeper replay: {re.escape(str(path))}(:\d+)?: ", proc.stderr), proc.stderr


# -- table profiles ------------------------------------------------------------------------------

PROFILES = sorted(profile.TABLES_DIR.glob("*.toml"))
TOML_VALUES = st.sampled_from([
    "1", "-1", "0", "99999", "4", "5", "15", "22", "1.5", "nan", "inf", "true", '"sim"', '"rc522"', '"hub"',
    '"luma"', '"dummy"', '""', '"é€😀"', "[]", "[1, 2]", "{}", '{ backend = "sim" }', "0x3C", "0x70",
    "1979-05-27", '"\\u0000"', "[[1]]", '{ pin = 4 }',
])
GARBAGE_LINES = [
    "[", "]]", "[[seats]]", "[shared]", "[table]", "[watcher]", "[[hubs]]", "[[zones]]", "= 1", "a =",
    "a = 1\na = 2", '"', "'''", "\x00", "\ufeff", "key = { a = 1", "seats = 3", "[seats.x]",
    "a = " + "[" * 3000, "a = " + "{ b = " * 2000,
]
TOML_GARBAGE = st.sampled_from(GARBAGE_LINES) | st.text(max_size=30)


@st.composite
def mutated_profile(draw: st.DrawFn) -> str:
    """A shipped profile with one to four changes: keys dropped or doubled,
    values of another type or a pin some other part uses, garbage lines."""
    lines = draw(st.sampled_from(PROFILES)).read_text(encoding="utf-8").splitlines()
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(lines) - 1))
        kind = draw(st.sampled_from(["drop", "double", "value", "inline", "garbage", "cut", "swap"]))
        line = lines[i]
        if kind == "drop":
            del lines[i]
        elif kind == "double":
            lines.insert(i, line)
        elif kind == "value" and "=" in line:
            key, _, _ = line.partition("=")
            lines[i] = f"{key}= {draw(TOML_VALUES)}"
        elif kind == "inline" and "{" in line:
            # Inside an inline table: one value (a pin, an index, a name) changed or a key dropped.
            numbers = list(re.finditer(r"\b\d+\b|\"[^\"]*\"", line))
            if numbers:
                m = draw(st.sampled_from(numbers))
                lines[i] = line[: m.start()] + draw(TOML_VALUES) + line[m.end():]
            else:
                lines[i] = re.sub(r"\w+ = [^,}]+,? ?", "", line, count=1)
        elif kind == "garbage":
            lines.insert(i, draw(TOML_GARBAGE))
        elif kind == "cut":
            lines[i] = line[: draw(st.integers(0, len(line)))]
        elif kind == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines) + "\n"


def load_verdict(path: Path) -> str:
    """Load a profile; "ok", or the refusal, which must name the file and a line.
    A simulated profile that loads is also built: its parts open or are refused
    by name (a HardwareError), nothing else."""
    try:
        table = profile.load(path)
    except profile.ProfileError as exc:
        text = str(exc)
        named = re.search(rf"{re.escape(str(path))}:\d+: ", text) or (  # tomllib's own place
            "not valid TOML" in text and re.search(r"line \d+|end of document", text))
        assert named, f"the refusal names no line: {text}"
        return text
    if table.simulated and all(s.backend == "dummy" for s in table.screens()):
        with contextlib.suppress(hardware.HardwareError):
            hardware.build(table, queue.Queue(), poll=False).close()
    return "ok"


@fuzz()
@given(mutated_profile())
def test_mutated_profiles(text: str) -> None:
    with folder() as tmp:
        path = tmp / "table.toml"
        path.write_text(text, encoding="utf-8")
        load_verdict(path)


@pytest.mark.parametrize("garbage", GARBAGE_LINES)
def test_profile_with_a_garbage_line(garbage: str, tmp_path: Path) -> None:
    sim = (profile.TABLES_DIR / "sim.toml").read_text(encoding="utf-8")
    for at, text in (("start", garbage + "\n" + sim), ("end", sim + garbage + "\n")):
        path = tmp_path / f"{at}.toml"
        path.write_text(text, encoding="utf-8")
        load_verdict(path)


@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
def test_profile_watcher_times_that_never_compare(value: str, tmp_path: Path) -> None:
    """Found by the fuzzer's values: nan was taken, and a table with arrive_hold = nan
    never read a tag. Every time is refused on its line."""
    sim = (profile.TABLES_DIR / "sim.toml").read_text(encoding="utf-8")
    keys = ["interval", "arrive_hold", "leave_hold", "retry_interval", "max_retry_interval"]
    path = tmp_path / "table.toml"
    path.write_text(sim + "\n[watcher]\n" + "".join(f"{k} = {value}\n" for k in keys), encoding="utf-8")
    text = load_verdict(path)
    first = len(sim.splitlines()) + 3
    for n, key in enumerate(keys):
        assert f"{path}:{first + n}: [watcher]: watcher {key} must " in text, text


@fuzz(0.2)
@given(st.binary(max_size=300))
def test_profiles_of_random_bytes(body: bytes) -> None:
    with folder() as tmp:
        path = tmp / "table.toml"
        path.write_bytes(body)
        try:
            load_verdict(path)
        except profile.ProfileError as exc:  # not text at all: named, no line to give
            assert str(exc).startswith(f"{path}: "), exc


# -- hub protocol lines --------------------------------------------------------------------------

GOOD_LINES = [
    "$0,HELLO,1,0.1.0,2,B0A4D*{}", "$1,STATE,0*{}", "$2,STATE,1,04A1B2C3D4E5F6,DEADBEEF*{}",
    "$3,SYNC,2*{}", "$4,HB,1000,12,80*{}", "$5,FAULT,1,no answer*{}", "$6,OK,HOLD,ALL,0*{}",
    "$7,ERR,bad command*{}", "$8,HELLO,2,0.2.0,2,B0A4D,6*{}", "$9,KEY,1,DOWN,3*{}", "$10,KEY,5,UP,65535*{}",
]


def framed(template: str) -> bytes:
    body = template[1: template.index("*")]
    return template.format(f"{protocol.crc8(body):02X}").encode()


@st.composite
def hub_noise(draw: st.DrawFn) -> bytes:
    """A good hub line changed (bytes flipped, cut, spliced, doubled '$'), or random bytes."""
    if draw(st.booleans()):
        return draw(st.binary(max_size=120))
    line = bytearray(framed(draw(st.sampled_from(GOOD_LINES))))
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(line) - 1))
        kind = draw(st.sampled_from(["flip", "cut", "insert", "dollar"]))
        if kind == "flip":
            line[i] = draw(st.integers(0, 255))
        elif kind == "cut":
            del line[i:]
            if not line:
                break
        elif kind == "insert":
            line[i:i] = draw(st.binary(min_size=1, max_size=8))
        else:
            line[i:i] = b"$"
    return bytes(line)


@fuzz(2.0)
@given(hub_noise())
def test_hub_line_parser(raw: bytes) -> None:
    try:
        line = protocol.parse_hub_line(raw)
    except protocol.LineError as exc:
        assert exc.reason
    else:
        assert 0 <= line.seq < protocol.SEQ_MOD and line.kind


def bad_lines(data: bytes) -> int:
    """Lines the host must count as bad: framed ('$') but not a valid frame."""
    n = 0
    for raw in data.split(b"\n"):
        text = raw.decode("ascii", "replace").strip()
        if "$" not in text:
            continue
        try:
            protocol.parse_hub_line(text)
        except protocol.LineError:
            n += 1
    return n


@fuzz(0.5)
@given(st.lists(hub_noise(), min_size=1, max_size=6), st.sampled_from(["", "\n", "\r\n"]))
def test_hub_connection_after_garbage(noise: list[bytes], joint: str) -> None:
    """Noise into a synced connection: nothing raised, the bad lines counted, the
    connection still up, and a good line after it read."""
    rig = synced_rig()
    conn = rig.conn
    data = joint.encode().join(noise) + b"\n"
    if any(_parses(raw) for raw in data.split(b"\n")):
        return  # a frame that survived its mutation intact is a good line, not noise
    bad = conn.stats.bad_checksums + conn.stats.malformed
    conn._feed(data)
    assert conn.stats.bad_checksums + conn.stats.malformed == bad + bad_lines(data)
    assert conn.connected
    rig.steps(20)  # the snapshot the noise asked for comes, and a tag arrives
    rig.hub.state(1, "04A1B2C3D4E5F6")
    rig.steps(5)
    assert conn.reader(1).poll() == {"04A1B2C3D4E5F6"}


def _parses(raw: bytes) -> bool:
    try:
        protocol.parse_hub_line(raw)
    except protocol.LineError:
        return False
    return True
