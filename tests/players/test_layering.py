"""The computer players sit beside the rules: they import the rules core and
the standard library, never the table (``pi_app``) or the hardware (``drivers``)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import players

ROOT = Path(players.__file__).parent


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return names


def test_players_import_only_rules_and_the_standard_library() -> None:
    allowed = {"players", "rules", "__future__", *sys.stdlib_module_names}
    for path in sorted(ROOT.rglob("*.py")):
        extra = _imports(path) - allowed
        assert not extra, f"{path.relative_to(ROOT.parent)} imports {sorted(extra)}"


def test_the_check_sees_a_forbidden_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from pi_app import session\nimport drivers.sim\n")
    assert _imports(bad) == {"pi_app", "drivers"}
