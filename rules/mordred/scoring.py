"""Who wins a finished game of Mordred ("Fine della Partita"). Pure functions."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rules.core import Outcome

ENDINGS = {
    "all_men_placed": "all of Mordred's men are on the map",
    "pieces_exhausted": "a player began a turn with every piece of one kind on the map",
    "track_end": "a pawn could not move the full distance on the Mordred track",
    "mordred_slain": "Mordred was defeated in his castle on Anglesey",
    # Not a rulebook ending: the bound that guarantees every game ends (NOTATION.md).
    "round_limit": "the round limit was reached",
}


def decide(
    ending: str,
    slayer: int | None,
    men_on_map: int,
    pieces_on_map: int,
    pawns: Sequence[int],
    vp: Sequence[int],
    money: Sequence[int],
) -> Outcome:
    seats = list(range(len(vp)))
    scores = {s: vp[s] for s in seats}
    detail: dict[str, object] = {
        "ending": ending,
        "mordred_men": men_on_map,
        "player_pieces": pieces_on_map,
        "pawns": list(pawns),
        "vp": list(vp),
        "money": list(money),
    }
    if ending == "mordred_slain" and slayer is not None:
        # "vincete automaticamente la partita": the map does not matter.
        return Outcome(
            [slayer],
            scores,
            f"{ENDINGS[ending]}: seat {slayer} wins outright",
            {**detail, "decided_by": "mordred_slain", "tie_break": "none"},
        )
    mordred_won = men_on_map > pieces_on_map
    if mordred_won:
        # "più a destra" (the overview's "più in alto"): the highest track space.
        # ruling: docs/rulings.md#mordred-winner-when-mordred-wins
        keys: list[tuple[str, Callable[[int], int]]] = [
            ("track", lambda s: pawns[s]),
            ("vp", lambda s: vp[s]),
            ("money", lambda s: money[s]),
        ]
        verdict = "Mordred holds Wales; the pawn furthest right wins"
    else:
        keys = [("vp", lambda s: vp[s]), ("money", lambda s: money[s])]
        verdict = "Arthur holds Wales; most victory points wins"
    winners, used = _rank(seats, keys)
    return Outcome(
        winners,
        scores,
        f"{ENDINGS[ending]}: {verdict}",
        {**detail, "mordred_won": mordred_won, "decided_by": keys[0][0], "tie_break": used},
    )


def _rank(seats: list[int], keys: list[tuple[str, Callable[[int], int]]]) -> tuple[list[int], str]:
    """Narrow ``seats`` key by key; returns the winners and the last key that
    was needed ("none" if the first decided, "shared" if all tied)."""
    used = "none"
    for i, (name, key) in enumerate(keys):
        best = max(key(s) for s in seats)
        seats = [s for s in seats if key(s) == best]
        if i > 0:
            used = name
        if len(seats) == 1:
            return seats, used
    return seats, "shared"
