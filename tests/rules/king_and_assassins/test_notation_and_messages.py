"""NOTATION.md's examples parse, and every refusal code has its two sentences."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

import rules.king_and_assassins as pkg
from rules.king_and_assassins.messages import MESSAGES
from rules.king_and_assassins.moves import move_from_json

PKG_DIR = Path(pkg.__file__).parent


def _notation_examples() -> list[dict]:
    text = (PKG_DIR / "NOTATION.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```json\n(.*?)```", text, re.S)
    return [json.loads(line) for block in blocks for line in block.splitlines() if line.strip()]


def test_every_notation_example_parses_and_round_trips() -> None:
    examples = _notation_examples()
    assert {e["type"] for e in examples} == {
        "choose",
        "start",
        "draw",
        "move",
        "arrest",
        "eliminate",
        "attack",
        "reveal",
        "end",
    }
    for data in examples:
        assert move_from_json(data).to_json() == data


@pytest.mark.parametrize(
    "bad",
    [
        {"type": "move", "piece": "knight1"},
        {"type": "move", "piece": "knight1", "dir": "N", "extra": 1},
        {"type": "move", "piece": 3, "dir": "N"},
        {"type": "draw", "card": "7"},
        {"type": "draw", "card": True},
        {"type": "choose", "citizens": "citizen1"},
        {"type": "choose", "citizens": [1, 2, 3]},
        {"type": "fly"},
        ["move"],
    ],
)
def test_malformed_moves_raise_value_error(bad: object) -> None:
    with pytest.raises(ValueError):
        move_from_json(bad)


def _codes_in_source() -> set[str]:
    source = (PKG_DIR / "legality.py").read_text(encoding="utf-8")
    return {"king-and-assassins." + c for c in re.findall(r'"([a-z]+\.[a-z-]+)"', source)}


def test_every_code_raised_has_english_and_italian() -> None:
    used = _codes_in_source()
    assert used and used <= set(MESSAGES), sorted(used - set(MESSAGES))
    assert set(MESSAGES) <= used, sorted(set(MESSAGES) - used)


@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_both_languages_use_the_same_parameters(code: str) -> None:
    en, it = MESSAGES[code]
    fields = [{f for _, f, _, _ in string.Formatter().parse(t) if f} for t in (en, it)]
    assert fields[0] == fields[1]


def test_every_refusal_fills_its_sentences() -> None:
    """Probe many moves in random games: check() passes exactly for listed moves, and each
    refusal's params fill both templates."""
    import random

    from rules.core import IllegalMove
    from rules.king_and_assassins.moves import (
        Arrest,
        Attack,
        Choose,
        Draw,
        Eliminate,
        End,
        Reveal,
        Start,
        Step,
    )
    from rules.king_and_assassins.pieces import CITIZEN_NAMES, KING, KNIGHT_NAMES

    from .helpers import GAME

    names = [KING, *KNIGHT_NAMES, *CITIZEN_NAMES, "nobody"]
    probes = [End(), Draw(1), Draw(99), Start("B10"), Start("A1"), Choose(("citizen1", "citizen2"))]
    probes += [Step(p, d) for p in names for d in ("N", "E", "S", "W", "X")]
    probes += [Reveal(p) for p in names] + [Attack(p) for p in names]
    probes += [cls(a, b) for cls in (Arrest, Eliminate) for a in names for b in names if a != b]
    seen: set[str] = set()
    for seed in range(6):
        rng = random.Random(seed)
        s = GAME.new_game(2, seed, {"side": "AB"[seed % 2]})
        n = 0
        while s.to_move() is not None:
            if n % 9 == 0:
                listed = set(s.legal_moves())
                for probe in probes:
                    try:
                        s.check(probe)
                        assert probe in listed, probe
                    except IllegalMove as exc:
                        assert probe not in listed, probe
                        seen.add(exc.code)
                        for template in MESSAGES[exc.code]:
                            template.format(**exc.params)
            s.apply(s.sample_chance() if s.is_chance() else rng.choice(s.legal_moves()))
            n += 1
    assert len(seen) >= 30
