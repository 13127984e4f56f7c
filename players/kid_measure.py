"""The King is Dead: each seat's chance to win, read from the public table
(the hard level's reading, players.evaluation.FINE; normal scores its cut
playouts by the chances alone, players.levels: ``Level.scores``).

The public score (players.simple: complete sets, then followers at court)
is how an invasion is won, not how most games end: at the last struggle the
faction holding most regions rules, and the seat with most of its followers
wins (the second faction breaks a tie). Here each open region goes to each
faction by its followers there, the nearer its struggle the surer (a tie
falls to the Saxons); the expected regions of each faction make its chance
to rule, and the expected Saxon tokens the chance of an invasion. A seat's
chance is then, per faction, the chance it rules times the seat's lead in
its followers at court, plus the invasion's chance times its lead in sets;
each card a seat still holds counts as part of a follower of every faction
(a summon to come, where the seat needs it). At four players partners share
a win.

Why it helps (bench/README.md, the ladder: hard's reading of The King is
Dead): with random playouts to the end the search spent its cards as a
random player does, all of them in the first struggle or two (a traced
game: seven of eight in the first), and lost the rest of the game to the
seat that still held some. Counting the cards held, and cutting playouts
after a few moves scored by these chances, hard keeps its cards for the
struggles that decide the game.

Only the board, the region cards, the courts and the number of cards each
seat has played are read: all public (the cards still held are not).
"""

from __future__ import annotations

import math

from players.base import softmax
from rules.core import State
from rules.king_is_dead.data import DATA, LOYALIST
from rules.king_is_dead.scoring import SAXONS

#: Followers of a faction in an open region, over the next, that make its
#: hold e times likelier: the struggle now (NOW), each struggle further
#: away that much looser (LATER), as summons and cards will change it.
NOW = 0.6
LATER = 0.5
#: A tie's chance to stay a tie (then the Saxons take the region), the
#: struggle now; further ones less (they may be broken first).
TIE = 0.8
#: Regions expected over another faction's that make it e times likelier to rule.
RULE_SOFTNESS = 0.7
#: Expected Saxon tokens at which an invasion is as likely as not, and the spread.
INVASION_AT = 3.5
INVASION_SOFTNESS = 0.5
#: Followers at court (of the ruling faction) over another seat's that make
#: its lead e times likelier; each card a seat still holds loosens it.
COURT_SOFTNESS = 0.6
PER_CARD = 0.12
#: Complete sets over another's, for an invasion.
SETS_SOFTNESS = 0.6
#: A card still held, counted as this many followers of every faction at
#: court (of sets, for an invasion): it will summon one where its seat
#: needs it, and move the board too. Without it a card spent cost nothing,
#: and the search spent all of them in the first struggle or two, leaving
#: the rest of the game to whoever still held some.
HOLD = 0.8
HOLD_SETS = 0.4

_COLOURS = DATA.colours
_FACTION = {f.colour: f.id for f in DATA.factions}
_COLOUR = {f.id: f.colour for f in DATA.factions}
_CARDS = len(DATA.deck)


def _region(counts: dict[str, int], distance: int, mordred: bool) -> tuple[dict[str, float], float]:
    """Each faction's chance to take a region ``distance`` struggles away
    (0: the one fought now), and the Saxons'."""
    colours = (*_COLOURS, LOYALIST) if mordred else _COLOURS
    ns = [counts[c] for c in colours]
    ranked = sorted(ns, reverse=True)
    softness = NOW + LATER * distance
    if ranked[0] == 0:  # nobody there yet: a later struggle may get some
        saxon = 1.0 if distance == 0 else TIE
    else:
        saxon = TIE / (1 + distance) * math.exp(-(ranked[0] - ranked[1]) / softness)
    shares = softmax([float(n) for n in ns], softness)
    return {c: (1.0 - saxon) * p for c, p in zip(colours, shares, strict=True) if c in _FACTION}, saxon


def kid_chances(world: State) -> list[float]:
    """Each seat's chance to win from ``world``, from its public fields."""
    w = world
    players = w.players
    control, regions, courts = w.control, w.regions, w.courts  # type: ignore[attr-defined]
    mordred = bool(w.options.get("mordred"))
    expected = {c: 0.0 for c in _COLOURS}
    saxons = 0.0
    for owner in control.values():
        if owner == SAXONS:
            saxons += 1.0
        elif owner in _COLOUR:
            expected[_COLOUR[owner]] += 1.0
    distance = 0
    for region in w.cards:  # type: ignore[attr-defined]
        if control[region] is not None:
            continue
        shares, saxon = _region(regions[region], distance, mordred)
        for c, p in shares.items():
            expected[c] += p
        saxons += saxon
        distance += 1
    invasion = 1.0 / (1.0 + math.exp(-(saxons - INVASION_AT) / INVASION_SOFTNESS))
    rule = softmax([expected[c] for c in _COLOURS], RULE_SOFTNESS)
    # Cards still held loosen every lead at court: each is a summon to come.
    hands = [_CARDS - len(p) for p in w.piles]  # type: ignore[attr-defined]
    held = sum(hands) / players
    softness = COURT_SOFTNESS + PER_CARD * held
    ruler = [0.0] * players
    for c, p in zip(_COLOURS, rule, strict=True):
        lead = softmax([court[c] + HOLD * h for court, h in zip(courts, hands, strict=True)], softness)
        for s in range(players):
            ruler[s] += p * lead[s]
    if players == 4:  # partners (seats opposite) share the win: half each
        pooled = [{c: courts[t][c] + courts[t + 2][c] for c in _COLOURS} for t in (0, 1)]
        team_hands = [hands[t] + hands[t + 2] for t in (0, 1)]
        team = softmax([min(p.values()) + HOLD_SETS * h for p, h in zip(pooled, team_hands, strict=True)],
                        SETS_SOFTNESS + PER_CARD * held)
        return [0.5 * ((1 - invasion) * (ruler[s] + ruler[(s + 2) % 4]) + invasion * team[s % 2])
                for s in range(players)]
    sets = softmax([min(court.values()) + HOLD_SETS * h for court, h in zip(courts, hands, strict=True)],
                    SETS_SOFTNESS + PER_CARD * held)
    return [(1 - invasion) * r + invasion * k for r, k in zip(ruler, sets, strict=True)]


def king_is_dead(world: State, seat: int) -> float:
    """``seat``'s chance to win from ``world`` (``kid_chances``)."""
    return kid_chances(world)[seat]
