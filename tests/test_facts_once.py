"""Each fact about the games and the table's languages is written in one
place: the languages in ``rules.catalogue.LANGS``, "Player N" in
``rules.catalogue.PLAYER``, a game's roles (their words and command-line
names) and its running score on its rules ``Game``. Read from the source
with ``ast``, so a second copy anywhere in the project fails here."""

from __future__ import annotations

import ast
from pathlib import Path

import rules
from rules import catalogue

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("rules", "drivers", "players", "pi_app", "tools", "tests", "bench")
PRODUCT = ("rules", "drivers", "players", "pi_app")


#: A role's words that also name a piece or a card: the same words, another fact.
ALSO_A_PIECE = {
    ("King", "Re"): ("pi_app/games/king_and_assassins/words.py",  # the King piece
                     "pi_app/games/artus/words.py"),  # Artus's King card
}


def sources() -> dict[str, ast.Module]:
    out = {}
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path == Path(__file__).resolve():
                continue
            out[str(path.relative_to(ROOT))] = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return out


def assigned(tree: ast.Module, name: str) -> bool:
    """True when ``name`` is bound by an assignment anywhere in ``tree``."""
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, ast.AnnAssign) else []
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            return True
    return False


def string_tuples(tree: ast.Module) -> list[tuple[str, ...]]:
    """Every tuple literal in ``tree`` made of strings only."""
    return [tuple(e.value for e in node.elts) for node in ast.walk(tree)
            if isinstance(node, ast.Tuple) and node.elts
            and all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts)]


def where(found: dict[str, ast.Module], test) -> list[str]:
    return [path for path, tree in found.items() if test(tree)]


def test_the_languages_are_listed_once() -> None:
    found = sources()
    assert where(found, lambda tree: assigned(tree, "LANGS")) == ["rules/catalogue.py"]
    product = {path: tree for path, tree in found.items() if path.split("/")[0] in PRODUCT}
    assert where(product, lambda tree: ("en", "it") in string_tuples(tree)) == ["rules/catalogue.py"]


def test_the_default_player_name_is_written_once() -> None:
    found = sources()
    assert where(found, lambda tree: catalogue.PLAYER in string_tuples(tree)) == ["rules/catalogue.py"]


def test_each_role_and_running_score_is_written_once_beside_its_rules() -> None:
    found = {path: tree for path, tree in sources().items() if path.split("/")[0] in PRODUCT}
    facts = {}
    for game in rules.GAMES.values():
        package = f"rules/{game.id.replace('-', '_')}/"
        for role in game.roles:
            facts[role.words] = facts[role.names] = package
        if game.running_score is not None:
            facts[game.running_score.words] = package
    assert len(facts) >= 2 * 4 + 2  # two games with two roles each, two with a running score
    for fact, package in facts.items():
        places = where(found, lambda tree, fact=fact: fact in string_tuples(tree))
        places = [p for p in places if p not in ALSO_A_PIECE.get(fact, ())]
        assert len(places) == 1 and places[0].startswith(package), (fact, places)


def test_no_module_of_the_daemon_keeps_a_table_of_roles() -> None:
    found = {path: tree for path, tree in sources().items() if path.startswith("pi_app/")}
    for name in ("ROLES", "SIDES", "NUMBERED", "_READERS"):
        assert where(found, lambda tree, name=name: assigned(tree, name)) == [], name


def test_the_daemons_errors_are_one_family_in_one_module() -> None:
    from drivers.base import HardwareError as DriverError
    from pi_app import errors

    found = {path: tree for path, tree in sources().items() if path.startswith("pi_app/")}
    classes = {path: [node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
                      and node.name.endswith(("Error", "NothingToResume"))]
               for path, tree in found.items()}
    assert {path for path, names in classes.items() if names} <= {"pi_app/errors.py",
                                                                   "pi_app/simulated/console.py"}
    # the daemon's hardware error is the drivers' too: one except takes both
    assert issubclass(errors.HardwareError, DriverError)
    assert issubclass(errors.HardwareError, errors.UsageError)


def test_a_table_refusal_reads_as_a_sentence_whichever_module_came_first() -> None:
    """``table.*`` sentences are registered with the package, not only once
    pi_app.i18n happens to be imported (a fresh interpreter: nothing else loaded)."""
    import subprocess
    import sys

    code = ("import pi_app.errors; from rules.core import IllegalMove; "
            "print(IllegalMove('table.not-your-turn', '', to_move='King', seat='Assassin').message('it'))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "Turno: King, non Assassin. Aspetta il tuo turno."
