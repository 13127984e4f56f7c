"""The King is Dead at 3 players: the moves listed in seeded random games and
the moves a fixed-seed search chooses stay exactly as recorded, so that work
on the engine's speed (the search lists and plays these moves by the hundred
thousand, the 3-player last card's check among them) changes no choice.

The figures were recorded from the engine before that work; a change of any
legal move list, of its order, or of a search's choice fails here."""

from __future__ import annotations

import hashlib
import json
import random

import rules
from players import Budget, Ismcts

#: The legal moves at every seat's turn of seeded games 1 to 3, in order.
LISTED = "4415c2255ef77071"
#: What the search at 50 iterations and seed ``i`` chooses in position ``i``.
CHOSEN = [
    "summon Aquae Sulis blue", "play ambassador", "place Ratae yellow", "place Din Eidyn blue",
    "place Ratae red", "summon Aquae Sulis blue", "take Deva blue", "pass", "summon Eboracum yellow",
    "crown Deva", "pass", "crown Caledonia", "place Ratae red", "play crown", "swap Caerleon", "pass",
    "summon Deva yellow", "play garrison", "summon Eboracum yellow", "summon Ratae yellow", "pass",
    "play settlement", "play scots", "play crown", "summon Aquae Sulis blue", "take Din Eidyn blue",
    "play welsh", "summon Caledonia blue", "pass", "swap Ratae", "pass", "place Caerleon yellow",
    "place Londinium red",
]


def _walk(seed: int) -> tuple[list[rules.State], list[list[object]]]:
    """A 3-player game played at random from ``seed``: every ninth turn with
    a choice (the positions searched), and the legal moves at each turn."""
    state = rules.get("king-is-dead").new_game(3, seed, {"mordred": False})
    rng = random.Random(seed)
    found: list[rules.State] = []
    listed: list[list[object]] = []
    turns = 0
    while (seat := state.to_move()) is not None:
        if seat == rules.CHANCE:
            state.apply(state.sample_chance())
            continue
        moves = state.legal_moves()
        listed.append([m.to_json() for m in moves])
        if len(moves) > 1 and turns % 9 == 4:
            found.append(state.copy())
        turns += 1
        state.apply(rng.choice(moves))
    return found, listed


def _words(move: rules.Move) -> str:
    data = move.to_json()
    return " ".join(str(data[k]) for k in ("type", "card", "region", "colour") if k in data)


def test_the_king_is_dead_at_three_players_lists_and_chooses_the_recorded_moves() -> None:
    walks = [_walk(seed) for seed in (1, 2, 3)]
    listed = json.dumps([w[1] for w in walks], sort_keys=True).encode()
    assert hashlib.blake2b(listed, digest_size=8).hexdigest() == LISTED
    positions = [p for w in walks for p in w[0]]
    chosen = []
    for i, state in enumerate(positions):
        seat = state.to_move()
        assert seat is not None
        chosen.append(_words(Ismcts(Budget(iterations=50, seconds=None), seed=i).choose(state, seat)))
    assert chosen == CHOSEN
