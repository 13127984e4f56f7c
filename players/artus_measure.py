"""Artus: the hard level's reading of a position (players.levels:
``Level.reads``), each seat's chance to win from its prestige and what the
cards it has still to play promise on the table as it stands.

Every card of a seat's deck is played by the end (its hand and its piles
together: which of them are in the hand is the seat's secret, but the
cards not yet played are public, the deck less the cards on the table).
The scoring cards swing most and the public score sees none of them until
they are played: "all" counts every Knight of the seat where it sits, "all
opposite" the same negated, and the three penalised cards cost 15, 25 or
50 points to a seat whose Knights cannot meet them (a traced game at three
players: hard led by 30 points at round 5 and finished last, holding the
carpet card and the three-red card to the end, 45 points lost in the last
round). A cut playout (players.ismcts.HORIZONS: 8 moves, about a turn and
a half) sees none of this, and with its whole win to the seat ahead on
prestige each playout said 0 or 1 at three and four players.

Here a seat's worth is its prestige plus each card it has still to play,
valued on the table as it stands: a scoring card by what it would score
now (a penalised one by its penalty when the seat's Knights cannot meet
it), a Knight, royal or ring card by what such a card scored on average in
games between greedy players. Each seat's chance is a softmax of the
worths: a share of the win for a cut playout, continuous where the lead
alone said 0 or 1. Hard against normal at a Pi 4's budget went from 43%
to 71% of 48 games at three players, from 35% to 58% at four and from 72%
to 96% at two (bench/README.md, the ladder: hard's reading of Artus).
"""

from __future__ import annotations

from players.base import softmax
from rules.artus import board
from rules.artus.data import DATA
from rules.core import State

#: Prestige a card of each kind scored on average when played (greedy players
#: at two to four players, both modes): a Knight card leaves a seat of some 6
#: points, a royal card some 3.5, a ring some 4.
KNIGHT_CARD = 6.0
ROYAL_CARD = 3.5
RING_CARD = 4.0
#: The choice card's least worth: moved as a Knight card, if no Knight scores more.
CHOICE_CARD = 6.0
#: Points of worth that make a seat e times likelier to win (the softmax's temperature).
SOFTNESS = 10.0

#: Each card's kind: how its worth is read.
_KIND: dict[str, str] = {
    c.id: c.effect if c.action == "score" else c.action for c in DATA.cards.values()
}
_FLAT = {"knight": KNIGHT_CARD, "royal": ROYAL_CARD, "ring": RING_CARD}
_CARPET = DATA.carpet


def _cards_worth(kinds: list[str], mine: list[int], values: tuple[int, ...]) -> float:
    """What cards of ``kinds`` promise a seat whose Knights sit on ``mine``."""
    worth = 0.0
    knights = [values[s] for s in mine]
    for kind in kinds:
        flat = _FLAT.get(kind)
        if flat is not None:
            worth += flat
        elif kind == "all":
            worth += sum(knights)
        elif kind == "all-opposite":
            worth -= sum(knights)
        elif kind == "choice":
            worth += max(CHOICE_CARD, max(knights, default=0))
        elif kind == "green-yellow-red":
            greens = [v for v in knights if v > 0]
            reds = [v for v in knights if v < 0]
            ok = greens and reds and 0 in knights
            worth += max(greens) + max(reds) if ok else -15.0
        elif kind == "carpet":
            on = sorted((values[s] for s in mine if s in _CARPET), reverse=True)
            worth += on[0] + on[1] if len(on) >= 2 else -25.0
        else:  # three-red
            reds = sorted((v for v in knights if v < 0), reverse=True)
            worth += sum(reds[:3]) if len(reds) >= 3 else -50.0
    return worth


def worths(world: State) -> list[float]:
    """Each seat's prestige plus what its cards still to play promise."""
    w = world
    values = board.values(w.king)  # type: ignore[attr-defined]
    seats = w.seats  # type: ignore[attr-defined]
    out = []
    for p in range(w.players):
        code = board.knight(p)
        mine = [s for s, f in enumerate(seats) if f == code]
        # hand and piles together: the same in every world dealt from any seat's view
        kinds = [_KIND[c] for c in w.hands[p]]  # type: ignore[attr-defined]
        for cards in w.piles[p].values():  # type: ignore[attr-defined]
            kinds.extend(_KIND[c] for c in cards)
        out.append(w.scores[p] + _cards_worth(kinds, mine, values))  # type: ignore[attr-defined]
    return out


def artus_chances(world: State) -> list[float]:
    """Each seat's chance to win from ``world``: a softmax of ``worths``."""
    return softmax(worths(world), SOFTNESS)


def artus(world: State, seat: int) -> float:
    """``seat``'s chance to win from ``world`` (``artus_chances``)."""
    return artus_chances(world)[seat]
