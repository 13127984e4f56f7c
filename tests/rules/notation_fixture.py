"""Every move met in a few seeded playouts of every game, with its notation.

``python -m tests.rules.notation_fixture`` writes ``data/move_notation.jsonl``:
one line a distinct move, naming its game, its class, its fields and the JSON
text its ``to_json()`` gave. The file was written once, from the games as they
were when each still wrote its notation by hand (commit a663937), so that
``test_notation.py`` can hold the shared codec to exactly those bytes.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any

import rules
from rules.core import Move

FIXTURE = Path(__file__).parent / "data" / "move_notation.jsonl"
#: playouts a game, a player count and an option combination
PLAYOUTS = 2
#: lines kept for each shape of move (class, keys written, fields left None)
PER_SHAPE = 25


def extra_moves() -> dict[str, list[Move]]:
    """Moves of a shape the playouts may not meet: notation an older record or
    a hand-made journal line holds."""
    from rules.king_and_assassins import moves as ka
    from rules.mordred import moves as mo
    from rules.siege import moves as si

    return {
        "king-and-assassins": [ka.Choose(("citizen10", "citizen2", "citizen7"))],
        "mordred": [mo.Declare(None), mo.Roll((6, 1))],
        "siege": [
            si.Lose(card="grain-2"),
            si.Shift("battering_ram-31", "r0"),
            si.Shift("knight-30", "siege_tower-12"),
            si.Play("assassin", "knight-3", 2),
            si.Play("traitor", "grain"),
            si.Spear("archer"),
            si.Spear("swordsman", "peasant-4"),
            si.Attack("archer-2", melee=True),
            si.Support(None),
        ],
    }


def move_fields(move: Move) -> dict[str, Any]:
    assert is_dataclass(move)
    return {f.name: getattr(move, f.name) for f in fields(move)}


def moves_met(game_id: str, playouts: int = PLAYOUTS) -> Iterator[Move]:
    """Every listed move (chance outcomes included) at every step of seeded
    random playouts."""
    game = rules.get(game_id)
    for players in game.player_counts:
        for n, options in enumerate(game.option_combinations()):
            for seed in range(playouts):
                try:
                    state = game.new_game(players, seed, options)
                except ValueError:
                    continue  # a player count this option combination does not allow
                rng = random.Random(f"{game_id}/{players}/{n}/{seed}")
                steps = 0
                while state.to_move() is not None and steps < game.max_moves:
                    listed = state.legal_moves()
                    yield from listed
                    move = state.sample_chance() if state.is_chance() else rng.choice(listed)
                    state.play_listed(move)
                    steps += 1


def lines() -> list[str]:
    out: dict[str, None] = {}
    shapes: dict[tuple[Any, ...], int] = {}
    extra = extra_moves()
    for game_id in rules.GAMES:
        for move in [*extra.get(game_id, []), *moves_met(game_id)]:
            data = move.to_json()
            values = move_fields(move)
            nones = tuple(k for k, v in values.items() if v is None)
            shape = (game_id, type(move).__name__, tuple(data), nones)
            row = {
                "game": game_id,
                "class": type(move).__name__,
                "fields": values,
                "json": json.dumps(data),
            }
            line = json.dumps(row)
            if line not in out and shapes.get(shape, 0) < PER_SHAPE:
                shapes[shape] = shapes.get(shape, 0) + 1
                out[line] = None
    return list(out)


def main() -> None:
    FIXTURE.parent.mkdir(exist_ok=True)
    FIXTURE.write_text("".join(line + "\n" for line in lines()), encoding="utf-8")
    print(f"wrote {FIXTURE}")


if __name__ == "__main__":
    main()
