"""How hard the computer plays: easy, normal and hard.

A level is a share of the table's think time (its ``Budget``: the profile's
``[computer]`` iterations and seconds, all a move may take on that board)
and a style. Hard thinks for all of it; normal for a quarter; easy for a
sixteenth and then, rather than the most visited move, picks among the
moves its search tried, each as likely as its visits (a temperature of 1):
it plays a good move mostly and a worse one now and then, as a casual
player does. The shares are four times apart because twice the iterations
did not make a level stronger at a Pi 4's budget (bench/README.md, the
board strength run): each level answers four times faster than the one
above it, which a player sees too. Hard also reads Mordred finer
(``Level.reads``, players.evaluation.FINE): each seat's chance to win on the
track and on the points, weighed by how likely Mordred is to hold Wales,
where the others rank moves and score cut playouts by the public score's
0-or-1 lead, in which every playout said the same and four times the
iterations bought nothing (bench/README.md, the ladder: hard's own reading).
In The King is Dead hard reads each seat's chance to win from the table
(players.kid_measure: the regions each faction is likely to take, the
followers at court and the cards still held), where random playouts to the
end spent every card in the first struggle or two and four times the
iterations won less than half the games; and it scores its playouts by it
at the first turn's start they reach (``Level.plays``, players.playout.FINE),
where the tree's moves end: a playout cut after a fixed count of moves
played a few more at random first, and cut mid-turn it read a card played
as a card lost. Its search runs twice as many iterations a second so, and
they won more (bench/README.md, the ladder in The King is Dead at two
players: hard's playouts cut at a turn's start). Normal scores its cut
playouts by the same chances (``Level.scores``) but ranks its first moves by
the public score: at a few iterations a move the ranking is most of the
search, and the chances' one-move look-ahead, which counts every card
played as a card lost, won 7 of 24 four-player games against random players
at a Zero 2 W's 8 iterations where the public score's won 23 (bench/README.md,
the ladder: hard's reading of The King is Dead). Hard there also explores
its tree less (``Level.narrows``, players.ismcts.NARROW): at three players
the chances' differences between moves are small beside UCB's bonus, and
its four times the iterations went to every move alike. Easy plays as a
casual player does, by random playouts to the end.
Normal reads Mordred as hard does at three and four players (a game at one
player count is named as players.ismcts.table_key names it): there it beat
easy in 72% of 88 games where the public score's look-ahead beat it in 56%
at three players, and in 51% against 44% at four, while hard with its four
times the iterations did no better against it either way; at two players
the reading is what makes hard the harder level (78% of 88 games against
a normal without it, 59% of 88 against one with it), so there normal reads
the public score (bench/README.md, normal's reading of Mordred).
Hard reads Artus finer too (players.artus_measure): each seat's chance by
its prestige plus what the cards it has still to play promise on the table
as it stands (the scoring cards and their penalties above all), where the
others give a cut playout's whole win to the seat ahead on prestige
(bench/README.md, the ladder: hard's reading of Artus).
And hard plays King & Assassins' playouts finer (``Level.plays``,
players.playout.FINE): both sides attack, show and eliminate as a player
would, where random assassins all but never attacked in a playout
(bench/README.md, the ladder: hard's playouts in King & Assassins).
In Siege hard scores its cut playouts by a softer share of the same measure
(players.evaluation.SIEGE_SOFTNESS): a playout of two turns' dice and draws
tells less than a softmax of 3 made of it (bench/README.md, the ladder in
Siege).

Every level decides from its seat's view alone: the pick draws from the
search's own generator, seeded by that view (tests/players/test_non_interference.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from players.evaluation import FINE, FINE_HORIZONS, MEASURES
from players.ismcts import DEFAULT_BUDGET, HORIZONS, NARROW, Budget, Ismcts, game_of
from players.playout import FINE as FINE_PLAYOUTS
from players.playout import POLICIES


@dataclass(frozen=True)
class Level:
    name: str  # the id: in profiles, ``--computer SEAT:LEVEL`` and the computer seats' file
    share: float  # of the think time and of the iterations
    temperature: float  # 0: the most visited move; above: moves drawn by visits ** (1 / temperature)
    words: tuple[str, str]  # English, Italian: what the screens say
    #: games whose positions it reads by players.evaluation.FINE (its moves ranked
    #: and cut playouts scored), where the search's default reading tells too little;
    #: a game at one player count is named as players.ismcts.table_key names it
    reads: tuple[str, ...] = ()
    #: games whose playouts it cuts and scores by players.evaluation.FINE's
    #: chances alone, its first moves still ranked by the public score
    scores: tuple[str, ...] = ()
    #: games whose playouts it plays by players.playout.FINE (a policy for
    #: both sides, a horizon and where it stops), where the default playout tells too little
    plays: tuple[str, ...] = ()
    #: games whose tree it explores less (players.ismcts.NARROW), spending
    #: its iterations on the moves its reading ranks best
    narrows: tuple[str, ...] = ()


LEVELS: dict[str, Level] = {
    "easy": Level("easy", 1 / 16, 1.0, ("Easy", "Facile")),
    "normal": Level("normal", 1 / 4, 0.0, ("Normal", "Normale"), reads=("mordred 3p", "mordred 4p"),
                    scores=("king-is-dead",)),
    "hard": Level("hard", 1.0, 0.0, ("Hard", "Difficile"),
                  reads=("mordred", "king-is-dead", "artus", "siege"),
                  plays=("king-and-assassins", "king-is-dead"),
                  narrows=("king-is-dead",)),
}
#: What a computer seat plays at unless the lobby, the command or the profile says otherwise.
DEFAULT_LEVEL = "normal"


def level(name: str) -> Level:
    """The level called ``name`` (any case); ValueError naming the levels there are."""
    found = LEVELS.get(name.strip().lower())
    if found is None:
        raise ValueError(f"no computer level {name!r}; the levels are {', '.join(LEVELS)}")
    return found


def level_budget(chosen: Level, think: Budget = DEFAULT_BUDGET) -> Budget:
    """The level's share of ``think``, the table's whole think time a move."""
    return Budget(iterations=max(1, round(think.iterations * chosen.share)),
                  seconds=None if think.seconds is None else think.seconds * chosen.share)


def style(chosen: Level) -> dict[str, Any]:
    """The search's settings at ``chosen`` besides its budget (``Ismcts``'s keywords)."""
    unknown = [g for g in (*chosen.reads, *chosen.scores) if game_of(g) not in FINE]
    if unknown:
        raise ValueError(f"level {chosen.name}: no finer reading of {', '.join(unknown)}; "
                         f"there is one of {', '.join(FINE)}")
    unplayed = [g for g in chosen.plays if g not in FINE_PLAYOUTS]
    if unplayed:
        raise ValueError(f"level {chosen.name}: no finer playout of {', '.join(unplayed)}; "
                         f"there is one of {', '.join(FINE_PLAYOUTS)}")
    scored = (*chosen.reads, *chosen.scores)
    plays = {g: FINE_PLAYOUTS[g] for g in chosen.plays}
    cut = {g: FINE_HORIZONS[game_of(g)] for g in scored if game_of(g) in FINE_HORIZONS}
    return {"temperature": chosen.temperature,
            "horizons": {**HORIZONS, **cut, **{g: f.horizon for g, f in plays.items()}},
            "policies": {**POLICIES, **{g: f.policy for g, f in plays.items() if f.policy is not None}},
            "stops": {g: f.stop for g, f in plays.items() if f.stop is not None},
            "measures": {**MEASURES, **{g: FINE[game_of(g)][0] for g in chosen.reads}},
            "chances": {g: FINE[game_of(g)][1] for g in scored},
            "explorations": {g: NARROW for g in chosen.narrows}}


def player(chosen: Level, think: Budget = DEFAULT_BUDGET, seed: int = 0) -> Ismcts:
    """A computer player at ``chosen``, within ``think``."""
    return Ismcts(level_budget(chosen, think), seed=seed, **style(chosen))
