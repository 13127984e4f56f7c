"""Behaviour identity: what the table says and does, recorded to compare two revisions.

``python -m tools.behaviour record OUT`` writes, under OUT:

* ``examples/<file>.replay`` — ``tablekeeper replay`` of every ``examples/*.jsonl``;
* ``demo-<lang>/<game>.transcript.txt`` and ``<game>.problems.txt`` — the demo
  night's transcripts and cut-line lists (``pi_app.simulated.demo``), in English and Italian;
* ``demo-<lang>/<game>.export.jsonl`` and ``<game>.export.replay`` — each demo
  game's journal exported (``tablekeeper journal export --format jsonl``) and
  that export replayed;
* ``demo-<lang>/<game>.frames`` — one line per frame sent to each screen: the
  SHA-256 of its pixels and the words it carried.

Everything is deterministic: the demo's computer seats think for a fixed
number of iterations here (the night's own budget also stops on the clock, so
a loaded machine would choose other moves). Timings and dates are left out.

``python -m tools.behaviour compare REV_A REV_B`` records both revisions (each
from ``git archive`` into a temporary directory, so no worktree or branch is
touched; ``WORKTREE`` stands for the files as they are now) with *this* file's
recorder, and prints ``identical`` or the first differences (exit status 1).
``compare DIR_A DIR_B`` compares two records already made.

This file imports nothing of the project at module level and only the public
API the recorded revisions share (``pi_app.simulated.demo.Night``, ``pi_app.store.export``,
``pi_app.commands.replay``), so it can record revisions older than itself.
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import io
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ITERATIONS = 40  # the computer seats' fixed budget while recording: enough to play, quick
WORKTREE = "WORKTREE"
MAX_SHOWN = 5  # differing files shown in full detail
CONTEXT = 3


def record(out: Path, *, langs: tuple[str, ...] | None = None, only: str | None = None) -> list[Path]:
    """Write the record of the code importable now under ``out`` (the demo
    in ``langs``, default every language it speaks); returns the files written."""
    from rules.catalogue import LANGS

    langs = langs or LANGS
    out.mkdir(parents=True, exist_ok=True)
    written = record_examples(out / "examples")
    for lang in langs:
        written += record_demo(out / f"demo-{lang}", lang, only)
    return written


def source_root() -> Path:
    """The tree whose code is recorded (where ``pi_app`` is imported from)."""
    import pi_app

    return Path(pi_app.__file__).resolve().parent.parent


def record_examples(out: Path) -> list[Path]:
    from pi_app.commands.replay import replay
    from pi_app.errors import UsageError

    out.mkdir(parents=True, exist_ok=True)
    written = []
    for path in sorted((source_root() / "examples").glob("*.jsonl")):
        target = out / f"{path.name}.replay"
        target.write_text(replayed(path.read_text(encoding="utf-8").splitlines(True), path.name,
                                   replay, UsageError), encoding="utf-8")
        written.append(target)
    return written


def replayed(lines: list[str], name: str, replay, usage_error: type[Exception]) -> str:
    buf = io.StringIO()
    try:
        replay(lines, buf, name)
    except usage_error as exc:  # a refused file is behaviour too
        buf.write(f"refused: {exc}\n")
    return buf.getvalue()


def record_demo(out: Path, lang: str, only: str | None) -> list[Path]:
    from pi_app.commands.replay import replay
    from pi_app.errors import UsageError
    from pi_app.simulated import demo
    from pi_app.store import export
    from pi_app.store.journal import Journal
    from players import Budget

    demo.DEMO_BUDGET = Budget(iterations=ITERATIONS, seconds=None)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="behaviour-demo-") as tmp:
        return _record_demo(demo.Night(Path(tmp), lang=lang, seed=1), Path(tmp), out, only,
                            export, Journal, replay, UsageError)


def _record_demo(night, work: Path, out: Path, only: str | None, export, journal_class, replay,
                 usage_error) -> list[Path]:
    written = []
    for game, players, options in night.games(only):
        report = night.play(game, players, options)
        name = report.name
        for suffix in (".transcript.txt", ".problems.txt"):
            target = out / f"{name}{suffix}"
            target.write_bytes((work / f"{name}{suffix}").read_bytes())
            written.append(target)
        journal = journal_class(Path(report.journal), readonly=True)
        try:
            lines = export.jsonl(export.read(journal, export.latest(journal)))
        finally:
            journal.close()
        exported = "".join(line + "\n" for line in lines)
        (out / f"{name}.export.jsonl").write_text(exported, encoding="utf-8")
        verdicts = replayed(exported.splitlines(True), f"{name}.export.jsonl", replay, usage_error)
        (out / f"{name}.export.replay").write_text(verdicts, encoding="utf-8")
        (out / f"{name}.frames").write_text(frames(report.screens, work), encoding="utf-8")
        written += [out / f"{name}{s}" for s in (".export.jsonl", ".export.replay", ".frames")]
    return written


def frames(screens: dict[str, list[tuple[str, str]]], root: Path) -> str:
    """Each screen's frames in order: the hash of the pixels (not of the PNG
    file, whose encoding is the imaging library's business) and the words."""
    from PIL import Image

    lines = []
    for screen in sorted(screens):
        for png, words in screens[screen]:
            with Image.open(root / png) as img:
                digest = hashlib.sha256(f"{img.mode} {img.size}".encode() + img.tobytes()).hexdigest()
            lines.append(f"{screen} {Path(png).name} {digest[:20]} {words!r}")
    return "".join(line + "\n" for line in lines)


# -- compare -----------------------------------------------------------------
def differences(a: Path, b: Path, *, limit: int = MAX_SHOWN) -> list[str]:
    """The first differences between two records, as lines to print; [] when identical."""
    names_a = {p.relative_to(a).as_posix() for p in a.rglob("*") if p.is_file()}
    names_b = {p.relative_to(b).as_posix() for p in b.rglob("*") if p.is_file()}
    out = [f"only in {a}: {n}" for n in sorted(names_a - names_b)]
    out += [f"only in {b}: {n}" for n in sorted(names_b - names_a)]
    shown = 0
    for name in sorted(names_a & names_b):
        left, right = (a / name).read_bytes(), (b / name).read_bytes()
        if left == right:
            continue
        shown += 1
        if shown > limit:
            out.append(f"differs: {name}")
            continue
        diff = list(difflib.unified_diff(left.decode("utf-8", "replace").splitlines(),
                                         right.decode("utf-8", "replace").splitlines(),
                                         f"a/{name}", f"b/{name}", n=CONTEXT, lineterm=""))
        out += diff[:40] + ([f"... ({len(diff) - 40} more diff lines)"] if len(diff) > 40 else [])
    return out


def checkout(rev: str, into: Path) -> Path:
    """The files of ``rev`` (or the worktree as it is) under ``into``, with no
    change to the repository: no worktree is added, nothing is checked out."""
    repo = Path(__file__).resolve().parent.parent
    if rev == WORKTREE:
        return repo
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(repo), "archive", "--format=tar", rev],
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def record_rev(rev: str, out: Path, tmp: Path, args: list[str]) -> None:
    """Record ``rev`` in a fresh interpreter whose imports come from its files."""
    tree = checkout(rev, tmp / "tree")
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
    cmd = [sys.executable, str(Path(__file__).resolve()), "record", str(out),
           "--expect-root", str(tree), *args]
    subprocess.run(cmd, check=True, cwd=tree, env=env)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.behaviour", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="action", required=True)
    rec = sub.add_parser("record", help="record the code importable now into OUT")
    rec.add_argument("out", type=Path)
    rec.add_argument("--expect-root", type=Path, help=argparse.SUPPRESS)
    cmp_ = sub.add_parser("compare", help="record two revisions (or take two records) and compare them")
    cmp_.add_argument("a")
    cmp_.add_argument("b")
    cmp_.add_argument("--keep", type=Path, help="keep both records under this directory")
    from rules.catalogue import LANGS  # what this tree speaks; a recorded revision speaks as many

    for p in (rec, cmp_):
        p.add_argument("--lang", action="append", choices=LANGS, help="demo language (default: both)")
        p.add_argument("--game", help="only this game in the demo (default: the whole night)")
    args = parser.parse_args(argv)
    langs = tuple(args.lang or LANGS)
    if args.action == "record":
        root = source_root()
        if args.expect_root is not None and root != args.expect_root.resolve():
            print(f"behaviour: imported the project from {root}, not {args.expect_root}", file=sys.stderr)
            return 2
        files = record(args.out, langs=langs, only=args.game)
        print(f"recorded {root}: {len(files)} files in {args.out}")
        return 0
    extra = [x for lang in langs for x in ("--lang", lang)] + (["--game", args.game] if args.game else [])
    with tempfile.TemporaryDirectory(prefix="behaviour-") as tmp:
        keep = args.keep or Path(tmp)
        sides = []
        for label, rev in (("a", args.a), ("b", args.b)):
            if Path(rev).is_dir() and rev != WORKTREE:
                sides.append(Path(rev))
                continue
            out = keep / label
            record_rev(rev, out, Path(tmp) / f"src-{label}", extra)
            sides.append(out)
        found = differences(*sides)
    if not found:
        print(f"identical: {args.a} and {args.b}")
        return 0
    print("\n".join(found))
    return 1


if __name__ == "__main__":
    sys.path[:0] = [] if os.environ.get("PYTHONPATH") else [str(Path(__file__).resolve().parent.parent)]
    sys.exit(main())
