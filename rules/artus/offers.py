"""The moves one hand card offers, as a pure function of the few facts of the
table it depends on: the player's own Knights, the Princes (seat and
colour) and the King's seat.

Those facts change far more slowly than the game goes on, so the listing of
each card is kept, keyed by only what that card reads (a Knight card: the
card and the player's Knights). Late in a game every card in the hand has
moves to list, where the placing at the start lists only the empty seats:
kept, the listing costs about as much late as early. The stores are bounded
(least recently used first out); the moves themselves are made once each.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache

from rules.artus import scoring
from rules.artus.board import PRINCES
from rules.artus.data import DATA, EFFECT_KNIGHTS, Card
from rules.artus.moves import Play
from rules.core import Move

#: (seat, colour) of every Prince, the King among them, in seat order
Royals = tuple[tuple[int, str], ...]

LIMIT = 4096  # listings kept, the least recently used dropped first (a few MB at most)
Offer = tuple[tuple[Move, ...], frozenset[Move]]


@lru_cache(maxsize=LIMIT)
def figures(seats: tuple[str | None, ...]) -> tuple[dict[str, tuple[int, ...]], Royals]:
    """The seats of each player's Knights (by figure code, ``"k0"``...) and the
    Princes, for the seats as they stand."""
    knights: dict[str, tuple[int, ...]] = {}
    for s, f in enumerate(seats):
        if f is not None and f not in PRINCES:
            knights[f] = (*knights.get(f, ()), s)
    return knights, tuple((s, f) for s, f in enumerate(seats) if f in PRINCES)


def card_offer(card: Card, mine: tuple[int, ...], royals: Royals, king: int) -> Offer:
    """Every move ``card`` offers a player whose Knights stand on ``mine``: in
    order (the listing) and as a set (to check a move against)."""
    return _kept(*_key(card, mine, royals, king))


@lru_cache(maxsize=LIMIT)
def _kept(cid: str, mine: tuple[int, ...], royals: Royals, king: int) -> Offer:
    moves = tuple(_listing(DATA.cards[cid], mine, royals, king))
    return moves, frozenset(moves)


#: one Play object per distinct move: listing builds them again and again
_play = cache(Play)


def _key(card: Card, mine: tuple[int, ...], royals: Royals,
         king: int) -> tuple[str, tuple[int, ...], Royals, int]:
    """What the card's listing reads, and nothing more (the rest left blank)."""
    if card.action == "knight":
        return card.id, mine, (), -1
    if card.action == "royal":
        return card.id, (), royals, -1
    if card.action == "ring":
        return card.id, (), royals, king
    if card.action == "choice" or card.effect in EFFECT_KNIGHTS:
        return card.id, mine, royals, king
    return card.id, (), (), -1


def _royal_seats(royals: Royals, colour: str | None) -> list[int]:
    # ruling: docs/rulings.md#artus-both-ways-king-card
    return [s for s, f in royals if colour in ("both", None, f)]


def _prince_seats(royals: Royals, colour: str | None, king: int) -> list[int]:
    return [s for s in _royal_seats(royals, colour) if s != king]


def _figure_moves(cid: str, sources: list[int] | tuple[int, ...], lo: int, hi: int, both: bool) -> list[Move]:
    steps = [*range(lo, hi + 1), *(range(-lo, -hi - 1, -1) if both else ())]
    return [_play(cid, "move", s, k) for s in sources for k in steps]


#: the figure code of each player's Knights, by player (board.knight without the call)
_KNIGHTS = tuple(f"k{p}" for p in range(max(DATA.knights) + 1))


def offered(card: Card, move: Play, seats: Sequence[str | None], king: int, player: int) -> bool | None:
    """Whether ``card`` offers ``move`` now, for the cards that move a figure
    or ring a Prince (most plays of a game): read off the seats it names, the
    same answer as ``move in card_offer(...)[1]`` without building the key of
    the listing (the whole table's figures). ``None`` where it does not say:
    the other cards, and a move whose fields are not plain ints (the listing
    decides by equality, where ``True == 1``)."""
    action = card.action
    if action not in ("knight", "royal", "ring") or type(move) is not Play or move.knights != ():
        return None
    seat, steps = move.seat, move.steps
    if type(seat) is not int or (steps is not None and type(steps) is not int):
        return None
    if move.card != card.id or not 0 <= seat < len(seats):
        return False
    figure = seats[seat]
    if action == "ring":
        return (move.do == "ring" and steps is None and seat != king and figure in PRINCES
                and card.colour in ("both", None, figure))
    if move.do != "move" or steps is None:
        return False
    if not (card.lo <= steps <= card.hi or (card.both_ways and card.lo <= -steps <= card.hi)):
        return False
    if action == "knight":
        return figure == _KNIGHTS[player]
    return figure in PRINCES and card.colour in ("both", None, figure)


def _listing(card: Card, mine: tuple[int, ...], royals: Royals, king: int) -> list[Move]:
    if card.action == "knight":
        return _figure_moves(card.id, mine, card.lo, card.hi, card.both_ways)
    if card.action == "royal":
        return _figure_moves(card.id, _royal_seats(royals, card.colour), card.lo, card.hi, card.both_ways)
    if card.action == "ring":
        return [_play(card.id, "ring", s) for s in _prince_seats(royals, card.colour, king)]
    if card.action == "choice":
        figures = sorted([*mine, *_royal_seats(royals, None)])
        return [
            *_figure_moves(card.id, figures, card.lo, card.hi, False),
            *(_play(card.id, "ring", s) for s in _prince_seats(royals, None, king)),
            _play(card.id, "score"),
        ]
    assert card.effect is not None
    if card.effect not in EFFECT_KNIGHTS:
        return [_play(card.id, "score")]
    chosen = scoring.choices(mine, king, card.effect)
    if not chosen:
        return [_play(card.id, "penalty")]
    return [_play(card.id, "score", knights=k) for k in chosen]
