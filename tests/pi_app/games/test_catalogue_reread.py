"""Every word pair the table and the engines say, re-read in each language
(issue 33): no internal id, no word of the other language, none of the
faults a native Italian review found (tests/words.py). Screens and
transcripts are re-read by tests/pi_app/ui/test_screen_language.py, the
engines' refusals with their params below."""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
import random
import re
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

import pytest

import pi_app.i18n
import pi_app.names
import pi_app.web.words
import rules
from rules import catalogue
from rules.core import IllegalMove
from tests.rules.conformance import _mutations
from tests.words import faults

ID = re.compile(r"[a-z0-9_\-]*")


def _modules() -> Iterator[Any]:
    yield from (pi_app.i18n, pi_app.names, pi_app.web.words)
    for package in ("pi_app.games", "pi_app.session"):
        root = importlib.import_module(package)
        for info in pkgutil.walk_packages(root.__path__, package + "."):
            yield importlib.import_module(info.name)
    for info in pkgutil.iter_modules(rules.__path__):
        if info.ispkg and importlib.util.find_spec(f"rules.{info.name}.messages") is not None:
            yield importlib.import_module(f"rules.{info.name}.messages")


def _pairs(value: Any, where: str, depth: int = 0) -> Iterator[tuple[str, str, str]]:
    if depth > 3:
        return
    if isinstance(value, tuple) and len(value) == 2 and all(isinstance(x, str) for x in value):
        yield where, value[0], value[1]
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _pairs(item, f"{where}[{key!r}]", depth + 1)
    elif isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            yield from _pairs(item, f"{where}[{i}]", depth + 1)


def every_pair() -> dict[tuple[str, str], str]:
    found: dict[tuple[str, str], str] = {}
    for module in _modules():
        for name, value in vars(module).items():
            if not name.startswith("__") and isinstance(value, (dict, list, tuple)):
                for where, en, it in _pairs(value, f"{module.__name__}.{name}"):
                    found.setdefault((en, it), where)
    for code, (en, it) in catalogue._MESSAGES.items():
        found.setdefault((en, it), f"catalogue {code}")
    for words in catalogue._WORDS.values():
        for key, (en, it) in words.items():
            found.setdefault((en, it), f"catalogue word {key}")
    # a pair of ids (an effect's code and its rule's) is data, not words
    return {pair: where for pair, where in found.items() if not all(ID.fullmatch(x) for x in pair)}


def test_every_word_pair_reads_well_in_both_languages() -> None:
    pairs = every_pair()
    assert len(pairs) > 400, "the re-read found too few words to be reading the catalogue"
    bad = [(where, lang, text, found) for (en, it), where in pairs.items()
           for lang, text in (("en", en), ("it", it)) if (found := faults(text, lang, template=True))]
    assert not bad, "\n".join(f"{w} [{lang}] {text!r}: {f}" for w, lang, text, f in bad)


def _refusals(game_id: str) -> Iterator[IllegalMove]:
    """The game's refusals of moves a player could make: each legal move of
    a seeded playout, mutated to values seen in the game (no made-up ids)."""
    game = rules.get(game_id)
    for players, options in game.setups()[:2]:
        state = game.new_game(players, 1, options)
        rng = random.Random(1)
        pool: dict[str, list[Any]] = defaultdict(list)
        stale: list[Any] = []
        while state.to_move() is not None:
            legal = state.legal_moves()
            move = state.sample_chance() if state.to_move() == rules.CHANCE else rng.choice(legal)
            for key, value in move.to_json().items():
                if isinstance(value, (str, int, bool)) and value not in pool[key]:
                    pool[key].append(value)
            for data in _mutations(move, pool, stale, rng):
                if any(isinstance(v, str) and v.endswith("?") for v in data.values()):
                    continue  # a made-up id no tag can carry
                try:
                    state.check(game.move_from_json(data))
                except ValueError:
                    continue
                except IllegalMove as exc:
                    yield exc
            state.apply(move)
            stale.append(move)


@pytest.mark.parametrize("game", sorted(rules.GAMES))
def test_every_refusal_names_things_in_words(game: str) -> None:
    bad: dict[tuple[str, str], str] = {}
    for exc in _refusals(game):
        for lang in ("en", "it"):
            text = exc.message(lang)
            found = faults(text, lang)
            if found:
                bad.setdefault((exc.code, lang), f"{text!r}: {found}")
    assert not bad, "\n".join(f"{code} [{lang}] {said}" for (code, lang), said in sorted(bad.items()))
