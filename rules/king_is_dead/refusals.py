"""Why a move is refused: the most specific rule it breaks.

Only called for a move that is not in ``legal_moves()``, so legality itself
has one source (the state and ``actions``); this module only names the rule.
"""

from __future__ import annotations

from dataclasses import replace

from rules.core import IllegalMove
from rules.king_is_dead import actions, messages
from rules.king_is_dead.data import DATA, LOYALIST
from rules.king_is_dead.moves import (
    Crown,
    Draw,
    Into,
    KidMove,
    Pass,
    Place,
    Play,
    RegionCard,
    Summon,
    Swap,
    Take,
)
from rules.king_is_dead.position import Position

P = "king-is-dead."

CARD_RULES = {
    "crown": "La Corona",
    "garrison": "Guarnigione",
    "ambassador": "Ambasciatore",
    "settlement": "Insediamenti",
    "scots": "Scozzesi",
    "welsh": "Gallesi/Romano-Britannici",
    "romano-british": "Gallesi/Romano-Britannici",
}
STEP_RULES = {
    "court": "Preparazione",
    "fill": "Preparazione",
    "order": "Preparazione",
    "turn": "Lotte per il Potere",
    "summon": "Eseguire le Azioni",
    "over": "Vincere la Partita",
}
# Refusals whose rule is stated elsewhere than under the card or step.
CODE_RULES = {
    # "non può più essere utilizzata per il resto della partita"
    P + "turn.card-used": "Eseguire le Azioni",
    P + "turn.last-card": "Eseguire le Azioni",
    P + "action.not-winning": "Eseguire le Azioni",
    P + "region.resolved": "Eseguire le Azioni",
    P + "summon.loyalist": "La Variante Mordred",
    P + "exchange.full-possible": "Azioni Parziali",
}
_STEP_MOVES: dict[str, tuple[type[KidMove], ...]] = {
    "court": (Draw,),
    "fill": (Draw,),
    "order": (RegionCard,),
    "turn": (Pass, Play),
    "summon": (Summon,),
}


def _card_moves(state: Position) -> tuple[type[KidMove], ...]:
    """The kinds of pick the card in play takes at this point."""
    assert state.pending is not None
    card = state.pending["card"]
    if card == "crown":
        return (Swap,) if len(state.pending["picks"]) < 2 else (Crown,)
    if card in ("garrison", "ambassador"):
        return (Take, Into)
    return (Place,)


def _rule(state: Position) -> str:
    if state.step == "action" and state.pending:
        return CARD_RULES[state.pending["card"]]
    return STEP_RULES[state.step]


def explain(state: Position, move: KidMove) -> IllegalMove:
    if not isinstance(move, KidMove):
        return IllegalMove("core.wrong-game", "", kind=type(move).__name__)
    rule = _rule(state)
    legal = state.legal_moves()
    expected = _STEP_MOVES.get(state.step) or _card_moves(state)
    if not isinstance(move, expected):
        names = messages.expected(cls.kind for cls in expected)
        return IllegalMove(P + "step.wrong-move", rule, expected=names)
    found = _specific(state, move, legal)
    if found is not None:
        code, params = found
        return IllegalMove(code, CODE_RULES.get(code, rule), **params)
    return IllegalMove("core.not-legal", rule, move=move.to_json())


def _specific(state: Position, move: KidMove, legal: list[KidMove]) -> tuple[str, dict] | None:
    region = getattr(move, "region", None)
    colour = getattr(move, "colour", None)
    if isinstance(move, Draw):
        return P + "setup.not-in-bag", {"colour": move.colour}
    if isinstance(move, RegionCard):
        return P + "setup.card-laid", {"region": move.region}
    if isinstance(move, Play):
        if move.card not in state.hand(state.seat):
            return P + "turn.card-used", {"card": move.card}
        return P + "turn.last-card", {"card": move.card}
    if region is not None and state.control[region] is not None:
        return P + "region.resolved", {"region": region}
    if isinstance(move, Summon):
        if move.colour == LOYALIST:
            return P + "summon.loyalist", {}
        if not state.regions[move.region][move.colour]:
            return P + "region.no-follower", {"region": region, "colour": colour}
        return P + "action.not-winning", {}
    assert state.pending is not None
    card: str = state.pending["card"]
    made: actions.Picks = state.pending["picks"]
    if isinstance(move, (Swap, Crown)):
        return _crown(state, move, made)
    if isinstance(move, Take) and not state.regions[move.region][move.colour]:
        return P + "region.no-follower", {"region": region, "colour": colour}
    if isinstance(move, (Take, Into)):
        found = _exchange(state, card, move, made, legal)
        if found:
            return found
    if isinstance(move, Place):
        wanted = sorted({m.colour for m in legal if isinstance(m, Place)})
        if move.colour not in wanted:
            return P + "place.colour", {"expected": " / ".join(wanted), "colour": move.colour}
        if card in DATA.faction_ids:
            return P + "place.not-bordering", {"region": move.region, "faction": card}
    # Legal on the board, but not a winning way to play the last card.
    if state.pending["last"] and move in actions.next_picks(state._all_choices(), made):
        return P + "action.not-winning", {}
    if isinstance(move, (Take, Into)):
        # A follower that is there, in a region that may take part, but the
        # card can be carried out more fully another way.
        return P + "exchange.full-possible", {}
    return None


def _crown(state: Position, move: Swap | Crown, made: actions.Picks) -> tuple[str, dict] | None:
    swapped = [p.region for p in made if isinstance(p, Swap)]
    if isinstance(move, Crown):
        return P + "crown.not-swapped", {"region": move.region}
    if move.region in state.crowns:
        return P + "crown.card-crowned", {"region": move.region}
    if move.region in swapped:
        return P + "crown.same-card", {}
    return None


def _exchange(
    state: Position, card: str, move: Take | Into, made: actions.Picks, legal: list[KidMove]
) -> tuple[str, dict] | None:
    first = made[0].region if made else None  # type: ignore[attr-defined]
    if isinstance(move, Into) and any(state.regions[move.region].values()):
        return P + "exchange.not-empty", {"region": move.region}
    if card == "ambassador" and first == move.region:
        return P + "ambassador.same-region", {}
    if card == "garrison" and first is not None and move.region != first:
        if all(getattr(m, "region", None) == first for m in legal):
            return P + "garrison.same-region", {"region": first}
        if move.region not in DATA.borders[first]:
            return P + "garrison.not-adjacent", {"region": move.region, "other": first}
    # Would it be legal but for the undo rule?
    board = state.board()
    if board.last_exchange:
        free = actions.options(card, replace(board, last_exchange=None))
        step = (*made, move)
        if any(
            c[: len(step)] == step
            and actions.undoes(actions.net_effect(actions.transfers(c)), board.last_exchange)
            for c in free
        ):
            return P + "exchange.undo", {}
    return None
