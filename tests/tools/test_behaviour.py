"""The behaviour-identity recorder (tools/behaviour.py) must see a change:
a record that always compared equal would prove nothing."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tools import behaviour


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("record") / "a"
    behaviour.record(out, langs=("en",), only="siege")
    return out


def test_a_record_holds_every_part(recorded: Path) -> None:
    examples = sorted(p.name for p in (recorded / "examples").iterdir())
    assert examples == sorted(f"{p.name}.replay" for p in Path("examples").glob("*.jsonl"))
    demo = sorted(p.name for p in (recorded / "demo-en").iterdir())
    assert demo == [f"siege-2p{s}" for s in
                    (".export.jsonl", ".export.replay", ".frames", ".problems.txt", ".transcript.txt")]
    replay = (recorded / "demo-en" / "siege-2p.export.replay").read_text(encoding="utf-8")
    assert '"outcome"' in replay.splitlines()[-1]  # the exported game replays to its end
    assert "refused" not in replay.splitlines()[-1]


def test_recording_again_is_identical(recorded: Path, tmp_path: Path) -> None:
    behaviour.record(tmp_path / "b", langs=("en",), only="siege")
    assert behaviour.differences(recorded, tmp_path / "b") == []


def test_one_changed_byte_is_found(recorded: Path, tmp_path: Path) -> None:
    copy = tmp_path / "b"
    shutil.copytree(recorded, copy)
    transcript = copy / "demo-en" / "siege-2p.transcript.txt"
    data = bytearray(transcript.read_bytes())
    data[len(data) // 2] ^= 1
    transcript.write_bytes(bytes(data))
    found = behaviour.differences(recorded, copy)
    assert found and found[0] == "--- a/demo-en/siege-2p.transcript.txt"
    assert main_says(recorded, copy) == 1


def test_a_missing_file_is_found(recorded: Path, tmp_path: Path) -> None:
    copy = tmp_path / "b"
    shutil.copytree(recorded, copy)
    (copy / "demo-en" / "siege-2p.frames").unlink()
    assert behaviour.differences(recorded, copy) == [f"only in {recorded}: demo-en/siege-2p.frames"]


def test_a_changed_behaviour_is_found(recorded: Path, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Not a doctored file: the code behaves otherwise (a refusal names its
    rule by its section id) and the record shows it, in the examples' replay.
    (The demo's Siege refusals are the table's own, which cite no section.)"""
    from rules import sections

    monkeypatch.setattr(sections, "name", lambda game, rule, lang: f"§ {rule}")
    behaviour.record(tmp_path / "b", langs=("en",), only="siege")
    changed = [line for line in behaviour.differences(recorded, tmp_path / "b", limit=99)
               if line.startswith("--- ")]
    assert "--- a/examples/king-is-dead-refusals.jsonl.replay" in changed


def test_a_revision_is_taken_from_git_without_a_worktree(tmp_path: Path) -> None:
    tree = behaviour.checkout("HEAD", tmp_path / "tree")
    assert (tree / "pi_app" / "session" / "loop.py").is_file()
    here = Path(behaviour.__file__).parent.parent
    assert behaviour.checkout(behaviour.WORKTREE, tmp_path / "unused") == here


def main_says(a: Path, b: Path) -> int:
    return behaviour.main(["compare", str(a), str(b)])
