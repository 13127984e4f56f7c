"""No import circles: every module of the project uses only modules below it.

The graph is read from the source with ``ast``: every ``import`` and
``from ... import`` statement, those inside functions and under
``TYPE_CHECKING`` included (a circle hidden there is still a circle in the
design, only one Python forgives). ``from package import name`` is an edge to
the submodule ``package.name`` where there is one, else to the package.
Importing a submodule also runs its packages' ``__init__``; those implicit
edges are left out, since every package imports its own modules.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import rules

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("rules", "drivers", "players", "pi_app")

#: Circles known today, each as the sorted modules it joins: the test fails
#: on any other and on one of these that is gone (then strike it here).
KNOWN: set[tuple[str, ...]] = set()


def modules() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The project modules ``name`` (at ``path``) imports anywhere in it."""
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                here = name.split(".") if is_package else name.split(".")[:-1]
                here = here[: len(here) - (node.level - 1)]
                base = ".".join([*here, base] if base else here)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in known else base)
    return {m for m in found if m in known and m != name}


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Each strongly connected group of two or more modules (Tarjan), as one
    circle through it: a → b → … → a."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(group)

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return [_circle(edges, group) for group in groups]


def _circle(edges: dict[str, set[str]], group: set[str]) -> list[str]:
    """A shortest way from the group's first module back to itself."""
    start = min(group)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(edges[v] & group):
                if w == start:
                    return [*paths[v], start]
                if w not in paths:
                    paths[w] = [*paths[v], w]
                    nxt.append(w)
        frontier = nxt
    raise AssertionError(f"no circle in {group}")  # pragma: no cover - Tarjan's groups are circles


def test_the_graph_sees_imports_inside_functions_and_type_checking() -> None:
    edges = graph()
    assert "rules.core" in edges["rules.king_is_dead.state"]
    assert edges["rules.core"] >= {"rules.catalogue", "rules.notation"}


def test_a_circle_is_found_and_named() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set()}
    assert circles(edges) == [["a", "b", "c", "a"]]


def test_no_module_imports_one_that_imports_it_back() -> None:
    found = {tuple(sorted(set(c))): c for c in circles(graph())}
    new = [" → ".join(c) for key, c in found.items() if key not in KNOWN]
    gone = [key for key in KNOWN if key not in found]
    assert not new, "import circles:\n" + "\n".join(new)
    assert not gone, f"circles no longer there, strike them from KNOWN: {gone}"


#: (module, its narrow interface, the game whose state must have it all):
#: where a module below a state reads the state through a Protocol.
INTERFACES = [
    ("rules.king_is_dead.refusals", "rules.king_is_dead.position.Position", "king-is-dead"),
    ("rules.king_is_dead.view", "rules.king_is_dead.position.Position", "king-is-dead"),
    ("rules.siege.checks", "rules.siege.checks.Position", "siege"),
]


@pytest.mark.parametrize(("module", "interface", "game_id"), INTERFACES)
def test_a_narrow_interface_names_what_its_module_reads_and_the_state_has_it(
    module: str, interface: str, game_id: str
) -> None:
    where, name = interface.rsplit(".", 1)
    protocol = getattr(importlib.import_module(where), name)
    members = {m for klass in protocol.__mro__ if klass is not object for m in vars(klass)}
    members |= {m for klass in protocol.__mro__ for m in getattr(klass, "__annotations__", {})}
    tree = ast.parse(modules()[module].read_text(encoding="utf-8"))
    read = {
        node.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "state"
    }
    assert read <= members, f"{module} reads {sorted(read - members)} that {interface} does not name"
    game = rules.get(game_id)
    state = game.new_game(game.player_counts[0], 1)
    assert all(hasattr(state, m) for m in read), sorted(m for m in read if not hasattr(state, m))


#: the games' own packages: rules/<game>/ and pi_app/games/<game>/
GAME_PACKAGES = {game_id.replace("-", "_"): game_id for game_id in rules.GAMES}


def _game_of(module: str) -> str | None:
    """The game whose own package ``module`` is in (rules/<game>/ or pi_app/games/<game>/)."""
    parts = module.split(".")
    if parts[0] == "rules" and len(parts) > 1 and parts[1] in GAME_PACKAGES:
        return parts[1]
    if parts[:2] == ["pi_app", "games"] and len(parts) > 2 and parts[2] in GAME_PACKAGES:
        return parts[2]
    return None


def test_each_games_table_code_is_in_its_own_folder_and_nothing_else_names_a_game() -> None:
    """A game meets the table in pi_app/games/<game>/ alone: no other module
    of the daemon imports a game's package (its rules or its table code) or
    spells a game's id; it reaches a game through rules.GAMES and
    pi_app.games.for_game. Another game's package is no exception."""
    known = modules()
    wrong = []
    for name, path in known.items():
        if not name.startswith("pi_app."):
            continue
        own = _game_of(name)
        wrong += [f"{name} imports {target}" for target in sorted(imports(name, path, known))
                  if _game_of(target) not in (None, own)]
        if own is None:
            tree = ast.parse(path.read_text(encoding="utf-8"))
            wrong += [f"{name} names {node.value!r} (line {node.lineno})" for node in ast.walk(tree)
                      if isinstance(node, ast.Constant) and node.value in rules.GAMES]
    assert not wrong, "\n".join(wrong)


def test_every_table_folder_is_a_registered_games_and_holds_its_adapter() -> None:
    from pi_app import games

    folders = {p.name for p in (ROOT / "pi_app" / "games").iterdir()
               if p.is_dir() and (p / "__init__.py").exists()}
    assert folders <= set(GAME_PACKAGES), f"no registered game for {sorted(folders - set(GAME_PACKAGES))}"
    for folder in folders:
        assert games.ADAPTERS[GAME_PACKAGES[folder]].__module__ == f"pi_app.games.{folder}.adapter"


def test_the_folder_rule_finds_a_game_named_outside_its_folder() -> None:
    assert _game_of("pi_app.games.siege.words") == "siege"
    assert _game_of("rules.king_and_assassins.state") == "king_and_assassins"
    assert _game_of("pi_app.games.base") is None and _game_of("rules.core") is None


def test_commit_and_input_do_not_import_presentation() -> None:
    """What happened goes one way: input and commit record it (a Notice) and
    presentation alone words it; neither reaches back for its words."""
    edges = graph()
    for part in ("pi_app.session.commit", "pi_app.session.input_map"):
        assert "pi_app.session.presentation" not in edges[part], part
        assert "pi_app.i18n" not in edges[part], f"{part} words something itself"
