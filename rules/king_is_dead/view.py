"""What a seat, or the public, may know (see "The view" in NOTATION.md).

Everything on the table is public: the board, the reserve, the region cards,
the courts (summoned in front of each player from the open board). The one
thing the rulebook hides is the pile of played action cards under its top
card, so the cards a player still holds are in that player's view only.
"""

from __future__ import annotations

from rules.core import CHANCE, JSON
from rules.king_is_dead.actions import COLOURS
from rules.king_is_dead.data import DATA
from rules.king_is_dead.position import Position
from rules.king_is_dead.scoring import sets, team_of

_HOMES = {f.home: f.id for f in DATA.factions}


def _to_move(state: Position) -> int | str | None:
    seat = state.to_move()
    return "chance" if seat == CHANCE else seat


def _draw(state: Position) -> JSON | None:
    """Where the next chance move goes, during setup."""
    if state.step == "court":
        return {"seat": state.court_seat()}
    if state.step == "fill":
        return {"region": state.fill_region()}
    if state.step == "order":
        return {"position": len(state.cards) + 1}
    return None


def view(state: Position, seat: int | None) -> JSON:
    colours = COLOURS if state.mordred else DATA.colours
    out = state.outcome()
    current = state.current_region()
    result: JSON = {
        "game": state.game_id,
        "players": state.players,
        "mordred": state.mordred,
        "step": state.step,
        "to_move": _to_move(state),
        "draw": _draw(state),
        "struggle": len(state.resolved) + 1 if current else None,
        "current_region": current,
        "passes": state.passes,
        "regions": [
            {
                "name": r,
                "followers": {c: state.regions[r][c] for c in colours},
                "home": _HOMES.get(r),
                "resolved": state.control[r] is not None,
                "control": state.control[r],
            }
            for r in DATA.regions
        ],
        "region_cards": [
            {
                "position": i + 1,
                "region": r,
                "face_up": state.control[r] is None,
                "crown": state.crowns.get(r),
            }
            for i, r in enumerate(state.cards)
        ],
        "saxons": state.saxons(),
        "bag": dict(state.bag),
        "reserve": dict(state.reserve),
        "seats": [
            {
                "seat": s,
                "team": team_of(s, state.players),
                "court": dict(state.courts[s]),
                "sets": sets(state.courts[s]),
                "top_card": state.piles[s][-1] if state.piles[s] else None,
                "cards_played": len(state.piles[s]),
                "crown_token": s not in state.crowns.values(),
            }
            for s in range(state.players)
        ],
        "pending": (
            {
                "seat": state.seat,
                "card": state.pending["card"],
                "picks": [p.to_json() for p in state.pending["picks"]],
            }
            if state.pending
            else None
        ),
        # The exchange the next Garrison or Ambassador may not undo at once.
        "last_exchange": (
            [{"region": r, "colour": c, "change": n} for r, c, n in state.last_exchange]
            if state.last_exchange
            else None
        ),
        "outcome": out.to_json() if out else None,
    }
    if state.mordred:
        result["loyalist_supply"] = state.loyalist_supply
        result["banners"] = dict(DATA.banners)
    if seat is not None:
        result["seat"] = seat
        result["hand"] = state.hand(seat)
    return result
