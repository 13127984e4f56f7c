"""The search's own measure of a position, per game, where the public score
the greedy player ranks by (players.simple.HEURISTICS) tells it too little.

A measure reads the world's engine fields (faster than its JSON view) but
only what the public sees: a world is dealt from the searching seat's view
(players.ismcts), and what it holds of the other seats' secrets is one guess
among many, which a measure must not rank moves by.

King & Assassins. The public score counts the king's steps out around the
roofs; nothing in it changes when a knight steps off his way or a citizen
blocks it, or when the king walks up beside a citizen who may be an
assassin. At a Pi 4's budget (some 15 to 24 iterations a move) the search is
little more than its root's ranking, and with every knight's step and the
turn's end ranked alike the King player ended his turns at once: a traced
game left the king on his start, boxed in by his own knights, for all
fifteen rounds. Here the king's way out costs more for each piece on it (a
knight steps aside for a knight's point, a citizen must be pushed or wait),
the king's points left in the deck are set against it (a point left
unspent is lost), and every citizen near him counts for what an assassin
there could do with the Assassin player's next points (kill or wound him),
times the chance that it is one; the King player counts a revealed one in
full, the Assassin player does not (showing one brings it no nearer and
lets a knight eliminate it). A revealed assassin beside a knight counts
as most of an assassin gone, and the second gone more than the first.

Mordred (the hard level's reading, and normal's at three and four players;
players.levels: ``Level.reads``). The
public score reads the track while Mordred's men on the map outnumber the
players' pieces and the victory points otherwise, so one piece built can
turn a seat's lead of a hundred into a loss: a seat ahead on the track
would not build at all (a traced game: 32 pounds unspent and no victory
point when the players came to hold Wales). Here each seat has a chance to
win on the track and one on the points (a softmax of each), weighed by how
likely Mordred is to hold Wales at the end (a logistic of his men less the
pieces): a continuous measure, a share of the win for a cut playout.

The King is Dead (the hard level's reading): each seat's chance to win
from the public table, a module of its own (players.kid_measure), which
also scores normal's playouts cut after ``FINE_HORIZONS`` moves and hard's
cut at a turn's start (players.playout.FINE).

Siege's measure is a module of its own (players.siege_measure), and so is
the hard level's reading of Artus (players.artus_measure). The hard
level's reading of Siege is that measure, its cut playouts scored by a
softer softmax (``SIEGE_SOFTNESS``).
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable

from players.artus_measure import artus, artus_chances
from players.base import softmax
from players.kid_measure import kid_chances, king_is_dead
from players.siege_measure import siege
from rules.core import State
from rules.king_and_assassins.data import ASSASSINS, CITIZENS, ROUND_CARDS, Board
from rules.king_and_assassins.pieces import KING

#: A measure: how good ``world`` is for ``seat`` (higher is better).
Measure = Callable[[State, int], float]
#: Chances: each seat's share of a win in ``world`` (a cut playout's score), summing to 1.
Chances = Callable[[State], list[float]]

#: King & Assassins: what a position's parts are worth to the King player.
#: Assassins arrested (shown) or eliminated: none, one, two (the third wins).
ASSASSINS_GONE = (0.0, 3.0, 7.0)
#: A revealed assassin beside a knight who can reach him: the share of an
#: assassin gone it counts for (the knight eliminates him for a point).
EXPOSED = 0.7
WOUND = 3.0
KNIGHT_LOST = 1.0
STEP = 0.5  # a step of the king's way out
#: Per king point to spare: the king's points left (this turn's and the
#: deck's) less his way out. A step spends one point and shortens the way by
#: one; a point left unspent at a turn's end is lost.
SPARE = 1.0
#: Extra cost of a cell on the king's way held by a piece (in king steps).
KNIGHT_IN_WAY = 1
CITIZEN_IN_WAY = 2
#: The king's death, in the same units (a won game is worth about this much).
KILL = 10.0
#: The Assassin player's points in a turn: 4 or 5, as likely (the round cards).
ASSASSIN_POINTS = (4, 5)


def _reach_loss(distance: int, wounds: int) -> float:
    """What an assassin ``distance`` steps from the king (rows and columns)
    costs the King player, on average over the Assassin player's points next
    turn: a step costs 1 and an attack 2, so it kills with two attacks (one
    once he is wounded) or wounds him with one, as far as its points go."""
    loss = 0.0
    for points in ASSASSIN_POINTS:
        walk = distance - 1
        if walk + (4 if wounds == 0 else 2) <= points:
            loss += KILL
        elif walk + 2 <= points:
            loss += WOUND
    return loss / len(ASSASSIN_POINTS)


#: _reach_loss by wounds (0 or 1) and distance (0 to 4).
_LOSS = tuple(tuple(_reach_loss(d, w) for d in range(5)) for w in (0, 1))
#: How much of the assassins' reach counts.
THREAT = 0.4


def _king_way(world: State, board: Board, king: int) -> int:
    """The king's cheapest way out through a gate, in steps, each cell held by
    a piece costing more (``KNIGHT_IN_WAY``, ``CITIZEN_IN_WAY``); a large
    number where no way leads out."""
    at = world.at  # type: ignore[attr-defined]
    steps, roof = board.steps, board.roof
    gates = {g.cell for g in board.gates}
    best = {king: 0}
    heap = [(0, king)]
    while heap:
        cost, here = heapq.heappop(heap)
        if here in gates:
            return cost + 1  # the step through the gate
        if cost > best[here]:
            continue
        for there in steps[here].values():
            if there < 0 or roof[there]:
                continue
            piece = at.get(there)
            extra = 0 if piece is None else KNIGHT_IN_WAY if piece.startswith("knight") else CITIZEN_IN_WAY
            new = cost + 1 + extra
            if new < best.get(there, new + 1):
                best[there] = new
                heapq.heappush(heap, (new, there))
    return len(roof) + 1


def _threat(world: State, board: Board, king: int, shown: bool) -> float:
    """The assassins' reach of the king: each citizen near him by its
    distance, times the chance it is an assassin as the public sees it;
    with ``shown``, a revealed assassin in full (as the King player counts),
    else as any other citizen (as the Assassin player counts: showing an
    assassin brings him no nearer, and lets a knight eliminate him)."""
    revealed = world.revealed  # type: ignore[attr-defined]
    pos = world.pos  # type: ignore[attr-defined]
    if shown:
        hidden = ASSASSINS - len(revealed)
        unknown = CITIZENS - len(revealed)  # arrested ones too: the public may not know who they were
    else:
        gone = sum(1 for c in world.arrested if c in revealed) + len(world.eliminated)  # type: ignore[attr-defined]
        hidden = ASSASSINS - gone
        unknown = CITIZENS - gone
    chance = hidden / unknown if unknown > 0 else 0.0
    cols = board.cols
    kr, kc = divmod(king, cols)
    wounded = min(world.wounds, 1)  # type: ignore[attr-defined]
    threat = 0.0
    for piece, cell in pos.items():
        if not piece.startswith("citizen"):
            continue
        r, c = divmod(cell, cols)
        distance = abs(r - kr) + abs(c - kc)
        if distance <= 4:
            threat += _LOSS[wounded][distance] * (1.0 if shown and piece in revealed else chance)
    return threat


def _exposed(world: State, board: Board) -> int:
    """Revealed assassins on the board beside a knight who can reach them
    (not from a street up to a roof)."""
    pos, at = world.pos, world.at  # type: ignore[attr-defined]
    steps, roof = board.steps, board.roof
    count = 0
    for piece in world.revealed:  # type: ignore[attr-defined]
        cell = pos.get(piece)
        if cell is None:
            continue
        for there in steps[cell].values():
            other = at.get(there) if there >= 0 else None
            if other is not None and other.startswith("knight") and (roof[there] or not roof[cell]):
                count += 1
                break
    return count


def king_and_assassins(world: State, seat: int) -> float:
    """How good ``world`` is for ``seat``: the King player's margin, or for
    the Assassin player its negative (with his own count of the threat)."""
    w = world
    revealed = w.revealed  # type: ignore[attr-defined]
    gone = sum(1 for c in w.arrested if c in revealed) + len(w.eliminated)  # type: ignore[attr-defined]
    wounds = w.wounds  # type: ignore[attr-defined]
    board: Board = w.board  # type: ignore[attr-defined]
    value = ASSASSINS_GONE[min(gone, ASSASSINS - 1)] - WOUND * wounds - KNIGHT_LOST * len(w.knights_lost)  # type: ignore[attr-defined]
    if gone < ASSASSINS - 1:
        exposed = _exposed(w, board)
        if exposed:
            value += EXPOSED * (ASSASSINS_GONE[gone + 1] - ASSASSINS_GONE[gone]) * min(exposed, 1)
    king = w.pos.get(KING)  # type: ignore[attr-defined]
    if king is not None:
        way = _king_way(w, board, king)
        points = sum(ROUND_CARDS[c].king for c in w.deck)  # type: ignore[attr-defined]
        if w.phase == "king":  # type: ignore[attr-defined]
            points += w.ap["king"]  # type: ignore[attr-defined]
        value += SPARE * (points - way) - STEP * way
        value -= THREAT * _threat(w, board, king, shown=seat == 0)
    return value if seat == 0 else -value


#: Per game, the search's measure; a game not named is measured by its public score.
MEASURES: dict[str, Measure] = {"king-and-assassins": king_and_assassins, "siege": siege}
#: Per game, how a playout cut short (players.ismcts.HORIZONS) is scored: each
#: seat's share of the win is exp(margin / softness), over all seats' (a
#: softmax), rather than all of it to the seats ahead.
SOFTNESS: dict[str, float] = {"king-and-assassins": 3.0, "siege": 3.0}

#: Siege: the hard level's softness of the same chances (players.levels:
#: ``Level.reads``). A cut playout of 40 moves is two turns of dice and
#: draws; scored by a softmax of 3 its margin swings the share of the win
#: more than it tells, and 1 lost most games; at 9 a playout's lead counts
#: for less and the search averages more of them (bench/README.md: the
#: ladder in Siege).
SIEGE_SOFTNESS = 9.0


def siege_chances(world: State) -> list[float]:
    """Siege: each side's share of a cut playout's win as the hard level
    scores it, by ``siege``'s margin through a softer softmax."""
    return softmax([siege(world, 0), siege(world, 1)], SIEGE_SOFTNESS)


# -- Mordred --------------------------------------------------------------------------------------
#: Mordred: how the chances follow the position. A pawn step on the track
#: and this many victory points are each worth e (a softmax's temperature).
TRACK_SOFTNESS = 1.0
POINTS_SOFTNESS = 4.0
#: Men on the map over the players' pieces that make Mordred's hold on Wales
#: at the end e times likelier than not.
HOLD_SOFTNESS = 2.0
#: Men over the pieces at which Mordred's hold is even. The players build on
#: to the end, so a tie now is more often theirs than his: read even, the
#: track counted for half of a seat's chance while the men and pieces were
#: level, and hard kept its pawn ahead where normal built and won on points
#: (bench/README.md, the ladder in Mordred: 75% of 88 against 68%).
HOLD_MARGIN = 2.0


def mordred_chances(world: State) -> list[float]:
    """Each seat's chance to win from ``world`` (perfect information: all of
    it public): on the track (victory points break ties) if Mordred holds
    Wales at the end, on the points (money breaks ties) if the players do."""
    w = world
    vp = w.vp()  # type: ignore[attr-defined]
    track = softmax([p + v / 100.0 for p, v in zip(w.pawns, vp, strict=True)], TRACK_SOFTNESS)  # type: ignore[attr-defined]
    points = softmax([v + m / 100.0 for v, m in zip(vp, w.money, strict=True)], POINTS_SOFTNESS)  # type: ignore[attr-defined]
    ahead = len(w.men) - len(w.pieces)  # type: ignore[attr-defined]
    hold = 1.0 / (1.0 + math.exp(-(ahead - HOLD_MARGIN) / HOLD_SOFTNESS))
    return [hold * t + (1.0 - hold) * p for t, p in zip(track, points, strict=True)]


def mordred(world: State, seat: int) -> float:
    """``seat``'s chance to win from ``world`` (``mordred_chances``)."""
    return mordred_chances(world)[seat]


#: Per game, a finer reading of the position than the search's default, for
#: the levels that ask for it (players.levels: ``Level.reads``): its measure,
#: which ranks the root's moves, and its chances, which score cut playouts.
FINE: dict[str, tuple[Measure, Chances]] = {"mordred": (mordred, mordred_chances),
                                            "king-is-dead": (king_is_dead, kid_chances),
                                             "artus": (artus, artus_chances),
                                             "siege": (siege, siege_chances)}
#: Per game, where the finer reading also cuts the playouts (after this many
#: moves, scored by its chances) that the search's default plays to the end;
#: a level's finer playout (players.playout.FINE) cuts its own.
FINE_HORIZONS: dict[str, int] = {"king-is-dead": 12}
