"""Bad files as a user meets them: a journal, a tag registry, a table profile
and the games' data files, truncated, with bytes flipped, foreign (another
SQLite database, JSON where TOML belongs, a PNG, an empty file) or in the
wrong encoding. Each is refused through the command line with exit status 2,
no traceback, a message naming the file (and the line, where the format has
lines) and what to do, and the refused file is left byte-for-byte unchanged.

A flipped byte can be harmless (free space in a SQLite page, a comment, a
timestamp) or undetectable by design (an enrolled UID is any hex): random
flips must then be accepted or refused, never crash. Flips aimed at what the
format checks (its header, a move, a key, a bracket) must be refused."""

from __future__ import annotations

import hashlib
import io
import os
import random
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image

import rules
from pi_app.cli import main
from pi_app.session import loop as session
from pi_app.session.lobby import Lobby
from pi_app.store.journal import Journal
from pi_app.store.registry import Registry
from pi_app.table import profile
from rules import sections
from rules.datafile import DataError
from tests.reliability.test_journal_commands import play_into

ROOT = Path(__file__).resolve().parents[2]
SEEDS = range(int(os.environ.get("TABLEKEEPER_BAD_FILE_SEEDS", "4")))  # random flips per file
Corrupt = Callable[[bytes], bytes]


# -- the good files ---------------------------------------------------------------
@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """A journal (a game going on and a finished one) and a tag registry, as bytes."""
    tmp = tmp_path_factory.mktemp("good")
    journal = Journal(tmp / "journal.sqlite")
    journal.db.execute("PRAGMA synchronous=OFF")
    play_into(journal, "mordred", 3, 1)
    play_into(journal, "king-is-dead", 3, 2, upto=30)
    journal.close()  # checkpointed: the whole journal is in the one file
    registry = Registry(tmp / "tags.sqlite")
    registry.auto_enroll("king-is-dead", [(f"card-{i}", 2) for i in range(30)])
    registry.close()
    return {"journal": (tmp / "journal.sqlite").read_bytes(), "registry": (tmp / "tags.sqlite").read_bytes(),
            "profile": (profile.TABLES_DIR / "sim.toml").read_bytes()}


def png() -> bytes:
    out = io.BytesIO()
    Image.new("1", (128, 64)).save(out, "PNG")
    return out.getvalue()


def flip(data: bytes, offsets: list[int]) -> bytes:
    out = bytearray(data)
    for i in offsets:
        out[i] ^= 0x5A
    return bytes(out)


def random_flips(seed: int) -> Corrupt:
    def corrupt(data: bytes) -> bytes:
        rng = random.Random(seed)
        return flip(data, [rng.randrange(len(data)) for _ in range(rng.choice((1, 4, 32)))])
    return corrupt


def cuts(*fractions: float) -> list[Corrupt]:
    return [lambda data, f=f: data[: max(1, int(len(data) * f))] for f in fractions]


def utf16(data: bytes) -> bytes:
    return data.decode("utf-8").encode("utf-16")


def latin1_inserted(data: bytes) -> bytes:
    """A word typed in a Latin-1 editor ("Città") into the middle of the text."""
    middle = data.index(b"\n", len(data) // 2)
    return data[:middle] + b" # Citt\xe0" + data[middle:]


def sqlite_header_flipped(data: bytes) -> bytes:
    return flip(data, [0, 5])  # "SQLite format 3"


def sqlite_btree_flipped(data: bytes) -> bytes:
    page = int.from_bytes(data[16:18], "big") or 65536
    return flip(data, [page + 3, page + 5])  # page 2's cell count and content offset


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, err


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def read_or_refused(path: Path, argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """``argv`` reads the damaged file or refuses it by name (a flip may land
    where nothing is checked), and leaves it as it was either way."""
    before = digest(path)
    code, err = run_cli(argv, capsys)
    assert code in (0, 2)
    if code == 2:
        assert str(path) in err
    assert digest(path) == before


@pytest.fixture
def no_table_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """`tablekeeper run` returns as soon as its table is up: a file that
    were wrongly accepted shows as exit 0, not as a hang."""
    monkeypatch.setattr(session.Session, "run", lambda self, stop=None: None)
    monkeypatch.setattr(Lobby, "choose", lambda self, stop: None)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))


# -- the journal ---------------------------------------------------------------------
JOURNAL_REFUSED: dict[str, Corrupt] = {
    **{f"cut at {f:.0%}": c for f, c in zip((0.001, 0.02, 0.3, 0.7, 0.99),
                                            cuts(0.001, 0.02, 0.3, 0.7, 0.99), strict=True)},
    "header flipped": sqlite_header_flipped,
    "b-tree page flipped": sqlite_btree_flipped,
    "a PNG": lambda data: png(),
    "the SQL as UTF-16 text": lambda data: "\n".join(sqlite3.connect(":memory:").iterdump()).encode("utf-16"),
}


@pytest.mark.parametrize("case", sorted(JOURNAL_REFUSED))
def test_a_bad_journal_is_refused_by_check_and_run(case, good, tmp_path, capsys, no_table_loop):
    path = tmp_path / "journal.sqlite"
    path.write_bytes(JOURNAL_REFUSED[case](good["journal"]))
    before = digest(path)
    code, err = run_cli(["journal", "check", str(path)], capsys)
    assert code == 2 and str(path) in err and "move the file aside" in err
    code, err = run_cli(["run", "--state-dir", str(tmp_path), "--no-console"], capsys)
    assert code == 2 and str(path) in err and "move the file aside" in err
    assert digest(path) == before


def test_a_foreign_sqlite_database_as_the_journal(good, tmp_path, capsys, no_table_loop):
    path = tmp_path / "journal.sqlite"
    path.write_bytes(good["registry"])
    before = digest(path)
    for argv in (["journal", "check", str(path)], ["run", "--state-dir", str(tmp_path), "--no-console"]):
        code, err = run_cli(argv, capsys)
        assert code == 2 and str(path) in err and "another SQLite database (tables: tags)" in err
    assert digest(path) == before


def test_an_empty_journal(tmp_path, capsys):
    """Nothing to check in it (check refuses it); the daemon takes it as a
    new journal, as SQLite made it on first open (a power cut right after
    creating a journal leaves one)."""
    path = tmp_path / "journal.sqlite"
    path.write_bytes(b"")
    code, err = run_cli(["journal", "check", str(path)], capsys)
    assert code == 2 and str(path) in err and "the file is empty" in err
    assert path.read_bytes() == b""
    Journal(path).close()


def move_flipped(data: bytes) -> bytes:
    """A character of a journalled move's JSON flipped: `"type"` -> `"t#pe"`."""
    at = data.index(b'"type": "place"')
    return flip(data, [at + 2])


def test_a_flipped_move_is_named_with_its_game_and_number(good, tmp_path, capsys):
    path = tmp_path / "journal.sqlite"
    path.write_bytes(move_flipped(good["journal"]))
    before = digest(path)
    code, err = run_cli(["journal", "check", str(path)], capsys)
    assert code == 2 and str(path) in err
    assert "game 2 move" in err or "game 1 move" in err
    assert digest(path) == before


@pytest.mark.parametrize("seed", SEEDS)
def test_random_flips_in_a_journal_never_crash(seed, good, tmp_path, capsys):
    path = tmp_path / "journal.sqlite"
    path.write_bytes(random_flips(seed)(good["journal"]))
    read_or_refused(path, ["journal", "check", str(path)], capsys)


# -- the tag registry ---------------------------------------------------------------
REGISTRY_REFUSED: dict[str, Corrupt] = {
    **{f"cut at {f:.0%}": c for f, c in zip((0.001, 0.02, 0.5), cuts(0.001, 0.02, 0.5), strict=True)},
    "header flipped": sqlite_header_flipped,
    "b-tree page flipped": sqlite_btree_flipped,
    "a PNG": lambda data: png(),
    "UTF-16 text": lambda data: "uid,game,component\n04A1,king-is-dead,card-1\n".encode("utf-16"),
}


@pytest.mark.parametrize("case", sorted(REGISTRY_REFUSED))
def test_a_bad_tag_registry_is_refused(case, good, tmp_path, capsys):
    path = tmp_path / "tags.sqlite"
    path.write_bytes(REGISTRY_REFUSED[case](good["registry"]))
    before = digest(path)
    code, err = run_cli(["tags", "--state-dir", str(tmp_path), "list"], capsys)
    assert code == 2 and str(path) in err and "move the file aside and enroll the tags again" in err
    assert digest(path) == before


def test_a_journal_where_the_tag_registry_belongs(good, tmp_path, capsys, no_table_loop):
    """Used to get a tags table added to it and be taken as a registry."""
    (tmp_path / "journal.sqlite").write_bytes(good["journal"])
    path = tmp_path / "tags.sqlite"
    path.write_bytes(good["journal"])
    before = digest(path)
    for argv in (["tags", "--state-dir", str(tmp_path), "list"],
                 ["run", "--state-dir", str(tmp_path), "--no-console"]):
        code, err = run_cli(argv, capsys)
        assert code == 2 and str(path) in err
        assert "another SQLite database (tables: games, moves, refusals)" in err
    assert digest(path) == before


@pytest.mark.parametrize("seed", SEEDS)
def test_random_flips_in_a_tag_registry_never_crash(seed, good, tmp_path, capsys):
    path = tmp_path / "tags.sqlite"
    path.write_bytes(random_flips(seed)(good["registry"]))
    read_or_refused(path, ["tags", "--state-dir", str(tmp_path), "list"], capsys)


# -- the table profile ---------------------------------------------------------------
def cut_after_equals(which: int) -> Corrupt:
    """Cut right after a `key =`: the line has no value, on any line."""
    def corrupt(data: bytes) -> bytes:
        spots = [i for i in range(len(data)) if data[i:i + 2] == b" ="]
        return data[: spots[which] + 2]
    return corrupt


def key_flipped(data: bytes) -> bytes:
    at = data.index(b"\nbuttons")
    return flip(data, [at + 2])  # "buttons" -> an unknown key


def bracket_flipped(data: bytes) -> bytes:
    at = data.index(b"[[seats]]")
    return data[:at] + b"{" + data[at + 1:]


PROFILE_REFUSED: dict[str, Corrupt] = {
    "cut after the first =": cut_after_equals(0),
    "cut after a middle =": cut_after_equals(12),
    "cut after the last =": cut_after_equals(-1),
    "cut at 1 byte": cuts(0.0)[0],
    "a key flipped": key_flipped,
    "a bracket flipped": bracket_flipped,
    "JSON where TOML belongs": lambda data: (ROOT / "rules/king_is_dead/data/map.json").read_bytes(),
    "a PNG": lambda data: png(),
    "empty": lambda data: b"",
    "UTF-16": utf16,
    "a Latin-1 word": latin1_inserted,
}


@pytest.mark.parametrize("case", sorted(PROFILE_REFUSED))
def test_a_bad_table_profile_is_refused(case, good, tmp_path, capsys, no_table_loop):
    path = tmp_path / "table.toml"
    path.write_bytes(PROFILE_REFUSED[case](good["profile"]))
    before = digest(path)
    for argv in (["run", "--table", str(path), "--state-dir", str(tmp_path), "--no-console"],
                 ["doctor", "--table", str(path)]):
        code, err = run_cli(argv, capsys)
        assert code == 2 and str(path) in err, err
        if case not in ("empty",):  # an empty profile lacks whole tables: no line to name
            assert f"{path}:" in err or "line" in err, err
    assert digest(path) == before


@pytest.mark.parametrize("seed", SEEDS)
def test_random_flips_in_a_table_profile_never_crash(seed, good, tmp_path, capsys, no_table_loop):
    path = tmp_path / "table.toml"
    path.write_bytes(random_flips(seed)(good["profile"]))
    read_or_refused(path, ["run", "--table", str(path), "--state-dir", str(tmp_path), "--no-console"], capsys)


# -- the games' data files ---------------------------------------------------------
def _ka_load(directory: Path) -> None:
    from rules.king_and_assassins import data

    data.load_boards(directory / "boards.json")
    data.load_cards(directory / "round_cards.json")


def _loader(package: str, name: str) -> Callable[[Path], object]:
    if name == "sections.json":  # the rulebook's section names: read by rules.sections for every game
        return lambda directory: sections.load(directory / name)
    if package == "king_and_assassins":
        return _ka_load
    module = "tables" if package == "mordred" else "data"
    return __import__(f"rules.{package}.{module}", fromlist=["load"]).load


DATA_FILES = sorted((p.parent.parent.name, p.name) for p in (ROOT / "rules").glob("*/data/*.json"))
DATA_REFUSED: dict[str, Corrupt] = {
    "cut at 1 byte": cuts(0.0)[0],
    "cut at 50%": cuts(0.5)[0],
    "cut before its last bracket": lambda data: data[: data.rstrip().rindex(data.rstrip()[-1:])],
    "a bracket flipped": lambda data: flip(data, [data.index(b"{")]),
    "TOML where JSON belongs": lambda data: (profile.TABLES_DIR / "sim.toml").read_bytes(),
    "a PNG": lambda data: png(),
    "empty": lambda data: b"",
    "UTF-16": utf16,
    "a Latin-1 word": latin1_inserted,
}


def broken_copy(tmp_path: Path, package: str, name: str, corrupt: Corrupt) -> Path:
    directory = tmp_path / package
    shutil.copytree(ROOT / "rules" / package / "data", directory)
    target = directory / name
    target.write_bytes(corrupt(target.read_bytes()))
    return target


@pytest.mark.parametrize(("package", "name"), DATA_FILES)
def test_a_bad_data_file_is_refused_by_its_game(package, name, tmp_path):
    """Each game's loader takes the directory to read: pointed at a copy
    with one file broken, it names the file and the line."""
    load = _loader(package, name)
    for case, corrupt in DATA_REFUSED.items():
        target = broken_copy(tmp_path / case.replace(" ", "-"), package, name, corrupt)
        before = digest(target)
        with pytest.raises(DataError) as refused:
            load(target.parent)
        assert refused.value.file.name == name and str(refused.value).startswith(f"{name}: "), case
        assert refused.value.line is not None and refused.value.line >= 0, (case, str(refused.value))
        assert digest(target) == before


@pytest.mark.parametrize(("package", "name"), DATA_FILES)
def test_random_flips_in_a_data_file_are_refused_or_harmless(package, name, tmp_path):
    load = _loader(package, name)
    for seed in SEEDS:
        target = broken_copy(tmp_path / str(seed), package, name, random_flips(seed))
        try:
            load(target.parent)
        except DataError as exc:
            assert exc.file.name == name
        # anything else raised fails the test: a crash instead of a refusal


@pytest.mark.parametrize("name", ["cards.json", "sections.json"])
@pytest.mark.parametrize("case", ["cut at 50%", "a PNG", "UTF-16"])
def test_a_bad_data_file_through_the_command_line(case, name, tmp_path):
    """The games read their data when `tablekeeper` starts: a copy of the
    rules package with one file broken, first on the path, is what a user
    who edited that file meets. The rulebook's section names too: a broken
    sections.json is no reason to cite the Italian heading on English screens."""
    shutil.copytree(ROOT / "rules", tmp_path / "rules", ignore=shutil.ignore_patterns("__pycache__"))
    target = tmp_path / "rules" / "siege" / "data" / name
    target.write_bytes(DATA_REFUSED[case](target.read_bytes()))
    before = digest(target)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    done = subprocess.run([sys.executable, "-m", "pi_app", "journal", "check", str(tmp_path / "none")],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"game data file {target} is refused: {name}: " in done.stderr
    assert "correct it, or restore the file" in done.stderr
    assert digest(target) == before
    assert rules.GAMES  # this process's own games were never touched
