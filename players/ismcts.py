"""Single-observer information-set Monte Carlo tree search (Cowling, Powley
and Whitehouse, 2012), with one value per seat so that three and four
players work.

Every iteration deals one world the searching seat cannot tell from the real
one (``State.sample_unseen``), walks the one tree with it, adds a node, plays
at random to the end and credits every seat its share of the win. Moves are
the tree's edges, so one edge gathers its statistics over every world where
it is legal; because a move may be legal in some worlds only, selection uses
its *availability* (how often it could have been chosen) in place of the
parent's visits. Chance steps are drawn with their weights from the search's
own generator.

At the root only, the search starts from a one-move look-ahead (``ROOT_BIAS``):
in one more world dealt from the seat's view, each move is ranked by the
public position after it. The rank orders which moves are tried first, adds
a bonus that visits outweigh, and decides between equally visited moves; the
root widens to more of its moves as its visits grow (progressive widening),
so a short search spends its iterations on the moves that look best.

In a game of ``HORIZONS`` a playout stops after a few moves (or, for a
search given ``stops``, at the first position after them where a game's
stop holds: a turn's start) and the seats ahead on the public position
share its win, where playing on at random to
the end tells the search less than the score does. A game may have the
search's own measure of a position (players.evaluation), which then ranks
the root's moves and scores cut playouts in place of the public score; a
search may be given finer ones (``measures`` and ``chances``: the hard
level's in Mordred, The King is Dead and Artus, players.levels), for a game
or for the game at one player count (``table_key``).

The budget is iterations or seconds, whichever ends first; with the same seed
and an iterations-only budget the choice is repeatable, and it depends on the
seat's view alone (the test of non-interference in tests/players).
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from players.base import chance_move, own_turn, rewards, softmax
from players.evaluation import MEASURES, SOFTNESS, Chances, Measure
from players.playout import POLICIES, Policy, Stop
from players.simple import HEURISTICS
from rules.core import CHANCE, Move, State

#: Exploration constant of UCB1 for rewards in [0, 1].
EXPLORATION = 0.7
#: The exploration constant of a search that explores a game's tree less
#: (``explorations``; players.levels: ``Level.narrows``). In The King is
#: Dead the cut playouts give each seat a share of the win by a reading of
#: the table, and the root's moves differ in it by a few hundredths: at 0.7
#: UCB's bonus outweighs that at the visits a Pi 4 affords, the visits
#: spread almost evenly, and the most visited move is little more than the
#: look-ahead's whatever the iterations (at three players four times
#: normal's iterations of normal's own search won 40% of 52 games against
#: it; at 0.25 hard won 59% of 88, and its team at four 72% of 176 where
#: 65% of 89). In Mordred and Siege it lost more (bench/README.md, the
#: ladder in The King is Dead at three players).
NARROW = 0.25

#: Weight of the root's prior (progressive bias): each of the seat's moves is
#: tried once in a world dealt from its view and ranked by the public position
#: after it (players.simple.HEURISTICS; a win first), from 1 for the best to 0;
#: that rank is added to its UCB score divided by its visits + 1, so a search
#: of a few iterations starts from the one-move look-ahead and more iterations
#: outweigh it. 0: no prior.
ROOT_BIAS = 1.0

#: Per game, the moves after which a playout stops and the seats ahead on the
#: public position (players.simple.HEURISTICS, a score the game is won by)
#: share its win; a game not named plays out to its end. In Artus random
#: playouts to the end mislead the search: with them, twice or four times the
#: iterations lost to fewer at a Pi 4's budget (hard 0 of 12 against normal
#: at three players), and cut at 8 moves the search runs some six times as
#: many iterations a second and more of them win (bench/README.md). In The
#: King is Dead the heuristic (sets and court) is not what the game is won
#: by, and cut playouts lost 22 of 24 games; hard and normal cut them
#: after all, scored by a reading of who is winning (players.kid_measure,
#: players.evaluation.FINE_HORIZONS; hard's at a turn's start,
#: players.playout.FINE). In Mordred, since the heuristic
#: reads the Mordred track while Mordred holds Wales (how nearly every game
#: under random play ends), cut playouts run eight times as many iterations
#: a second and normal at two players beat random players in 44 of 48 games
#: at a Pi 4's budget, where playing out to the end won 58% (bench/README.md).
#: In King & Assassins a playout stops after 10 moves (about one King
#: player's turn) and is scored by the search's own measure
#: (players.evaluation), each side a share of the win by how far ahead: six
#: times as many iterations a second, and turns planned by the measure where
#: random playouts to the end, nearly all lost by the king, let one lucky
#: win among 15 sway the choice (bench/README.md). In Siege a playout stops
#: after 40 moves (some two turns of a game of about 240) and is scored by
#: the search's own measure (players.siege_measure): some four times as many
#: iterations a second as playing the whole siege out (bench/README.md).
HORIZONS: dict[str, int] = {"artus": 8, "king-and-assassins": 10, "mordred": 8, "siege": 40}


@dataclass(frozen=True)
class Budget:
    """How long to think: at most ``iterations``, and at most ``seconds`` of
    wall time when set (the search then depends on the machine's speed)."""

    iterations: int = 2000
    # Under a second in all, with the last iteration and the answer's way to the screen.
    seconds: float | None = 0.9

    def __post_init__(self) -> None:
        if self.iterations < 1:
            raise ValueError(f"a budget needs at least one iteration, not {self.iterations}")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError(f"a time budget must be positive, not {self.seconds}")


#: What the table uses unless its profile says otherwise.
DEFAULT_BUDGET = Budget()


class _Node:
    __slots__ = ("avail", "children", "prior", "rank", "seat", "value", "visits")

    def __init__(self, seat: int | None, players: int, rank: float = 0.0) -> None:
        self.seat = seat  # who chose the move leading here (CHANCE for a draw)
        self.children: dict[Any, _Node] = {}
        self.prior: dict[Any, float] | None = None  # the root's, by move (ROOT_BIAS)
        self.rank = rank  # a root child's entry in its parent's prior, kept here for UCB
        self.visits = 0
        self.avail = 0
        self.value = [0.0] * players


def _key(move: Move) -> Any:
    """Moves are frozen dataclasses; a move holding a list is keyed by its JSON."""
    try:
        hash(move)
    except TypeError:
        return repr(move.to_json())
    return move


def _child(children: dict[Any, _Node], move: Move) -> tuple[Any, _Node | None]:
    """``move``'s key and its child, hashing the move once (a frozen
    dataclass hashes its fields anew on every call)."""
    try:
        return move, children.get(move)
    except TypeError:  # unhashable: no engine's moves today
        key = _key(move)
        return key, children.get(key)


@dataclass
class SearchStats:
    iterations: int = 0
    seconds: float = 0.0  # wall time
    cpu_seconds: float = 0.0  # this thread's CPU time: the figure that does not follow the machine's load


def table_key(game: str, players: int) -> str:
    """A game at one player count, as a search's settings may name it
    (``"mordred 3p"``) where they differ from the game's at other counts."""
    return f"{game} {players}p"


def game_of(named: str) -> str:
    """The game a setting's name names: ``"mordred"``, or ``"mordred 3p"``
    (``table_key``)."""
    return named.split(" ", 1)[0]


def _setting(per_game: Mapping[str, Any], table: tuple[str, str], default: Any = None) -> Any:
    """The setting for the table (its game, and the game at its player
    count): the player count's if named, else the game's, else ``default``."""
    game, at_count = table
    found = per_game.get(at_count)
    return per_game.get(game, default) if found is None else found


@dataclass(frozen=True)
class _Rule:
    """One search's settings for its table, looked up once a move."""

    horizon: int | None
    policy: Policy | None
    chances: Chances | None
    exploration: float
    stop: Stop | None


class Ismcts:
    """The computer player: ``choose(state, seat)`` searches ``budget`` and
    returns the most visited move. ``seed`` makes it repeatable; each call
    draws from its own generator seeded by ``seed`` and the state's view,
    so a replayed game gets the same moves."""

    def __init__(self, budget: Budget = DEFAULT_BUDGET, seed: int = 0, bias: float = ROOT_BIAS,
                 temperature: float = 0.0, horizons: Mapping[str, int] | None = None,
                 policies: Mapping[str, Policy] | None = None,
                 measures: Mapping[str, Measure] | None = None,
                 chances: Mapping[str, Chances] | None = None,
                 explorations: Mapping[str, float] | None = None,
                 stops: Mapping[str, Stop] | None = None) -> None:
        if temperature < 0:
            raise ValueError(f"a temperature is 0 (the best move) or more, not {temperature}")
        self.budget = budget
        self.seed = seed
        self.bias = bias
        #: 0: the most visited move; above 0, a move drawn by its visits ** (1 / temperature)
        #: (players.levels: the easy level's style)
        self.temperature = temperature
        self.horizons = HORIZONS if horizons is None else horizons
        # Each setting is per game, or per game at a player count (``table_key``), which comes first.
        #: per game, how a playout picks its moves (players.playout; a game not named: at random)
        self.policies = POLICIES if policies is None else policies
        #: per game, what ranks the root's moves (players.evaluation; a game not named: its public score)
        self.measures = MEASURES if measures is None else measures
        #: per game, each seat's share of a cut playout's win (a game not named: ``_ahead``)
        self.chances = {} if chances is None else chances
        #: per game, UCB's exploration constant (a game not named: ``EXPLORATION``)
        self.explorations = {} if explorations is None else explorations
        #: per game, where a playout past its horizon is cut (players.playout.Fine:
        #: the first position it holds of; a game not named: at once)
        self.stops = {} if stops is None else stops
        if any(c < 0 for c in self.explorations.values()):
            raise ValueError(f"an exploration constant is 0 or more, not {dict(self.explorations)}")
        wrong = {g: h for g, h in self.horizons.items() if h < 0}
        if wrong:
            raise ValueError(f"a horizon is 0 or more moves, not {wrong}")
        self.last = SearchStats()

    def choose(self, state: State, seat: int) -> Move:
        legal = own_turn(state, seat)
        if len(legal) == 1:
            self.last = SearchStats()
            return legal[0]
        rng = random.Random(f"{self.seed}/{state.game_id}/{_view_digest(state, seat)}")
        root = _Node(None, state.players)
        table = (state.game_id, table_key(state.game_id, state.players))
        if self.bias:
            ranked = _ranks(self._world(state, seat, rng), legal, seat, _setting(self.measures, table))
            root.prior = {_key(m): self.bias * r for m, r in ranked}
        rule = _Rule(_setting(self.horizons, table), _setting(self.policies, table),
                     _setting(self.chances, table), _setting(self.explorations, table, EXPLORATION),
                     _setting(self.stops, table))
        start = time.perf_counter()
        cpu_start = time.thread_time()
        deadline = None if self.budget.seconds is None else start + self.budget.seconds
        done = 0
        while done < self.budget.iterations:
            self._iterate(root, self._world(state, seat, rng), rng, rule)
            done += 1
            if deadline is not None and time.perf_counter() >= deadline:
                break
        self.last = SearchStats(done, time.perf_counter() - start, time.thread_time() - cpu_start)
        if self.temperature > 0:
            return _drawn(root, legal, self.temperature, rng)
        # Most visited; on a tie (a search too short to tell them apart: one
        # random playout says little) the better look-ahead, then the better
        # mean, then the first listed, so the choice is repeatable.
        return max(legal, key=lambda m: _standing(root, m, seat))

    def _world(self, state: State, seat: int, rng: random.Random) -> State:
        """One world ``seat`` cannot tell from ``state``: all the search sees."""
        return state.sample_unseen(seat, rng)

    def _iterate(self, root: _Node, world: State, rng: random.Random, rule: _Rule) -> None:
        players = world.players
        exploration = rule.exploration
        path = [root]
        node = root
        expanded = False
        while not expanded:
            mover = world.to_move()
            if mover is None:
                break
            if mover == CHANCE:
                move = chance_move(world, rng)
                key, child = _child(node.children, move)
                if child is None:
                    child = node.children[key] = _Node(CHANCE, players)
                    expanded = True
            else:
                move, child, expanded = _select(node, world.legal_moves(), mover, players, rng, exploration)
            world.play_listed(move)
            path.append(child)
            node = child
        values = _playout(world, rng, rule.horizon, rule.policy, rule.chances, rule.stop)
        for n in path:
            n.visits += 1
            value = n.value
            for s in range(players):
                value[s] += values[s]


def _select(node: _Node, legal: list[Move], mover: int, players: int, rng: random.Random,
            exploration: float = EXPLORATION) -> tuple[Move, _Node, bool]:
    """An untried move if any (then the node is expanded), else UCB1 over
    the children legal in this world, counted by availability, its bonus
    for the less tried weighed by ``exploration``."""
    children = node.children
    untried = []
    available = []
    for move in legal:
        key, child = _child(children, move)
        if child is None:
            untried.append((move, key))
        else:
            child.avail += 1
            available.append((move, child))
    prior = node.prior
    if untried and prior is not None and len(available) >= _widening(node.visits):
        untried = []  # progressive widening: more of the root's moves as its visits grow
    if untried:
        if prior is None:
            move, key = rng.choice(untried)
            rank = 0.0
        else:  # the best ranked first; ties at random
            ranks = [prior.get(k, 0.0) for _, k in untried]
            rank = max(ranks)
            move, key = rng.choice([mk for mk, r in zip(untried, ranks, strict=True) if r == rank])
        child = children[key] = _Node(mover, players, rank)
        child.avail = 1
        return move, child, True
    best = None
    best_score = -math.inf
    log, sqrt = math.log, math.sqrt
    for move, child in available:
        visits = child.visits
        score = child.value[mover] / visits + exploration * sqrt(log(child.avail) / visits)
        if prior is not None:
            score += child.rank / (visits + 1)
        if score > best_score:
            best, best_score = (move, child), score
    assert best is not None
    return best[0], best[1], False


def _pick(world: State, rng: random.Random, policy: Policy | None) -> Callable[[list[Move]], Move]:
    """A playout's own move for the seat to move: ``policy``'s pick, or one at random."""
    if policy is None:
        return rng.choice
    def pick(legal: list[Move]) -> Move:
        return legal[0] if len(legal) == 1 else policy(world, legal, rng)
    return pick


def _playout(world: State, rng: random.Random, horizon: int | None = None,
             policy: Policy | None = None, chances: Chances | None = None,
             stop: Stop | None = None) -> list[float]:
    """Play on, the seats' own moves by ``policy`` (else at random), to the
    end; or, with a ``horizon``, that many moves (and on to the first
    position ``stop`` holds of, if given), then each seat's share of the win
    by ``chances``, else the seats ahead on the public position share it."""
    # The world's methods looked up once: a playout is most of an iteration's steps.
    to_move, legal_moves, play = world.to_move, world.legal_moves, world.play_listed
    choice = _pick(world, rng, policy)
    limit = math.inf if horizon is None else horizon
    steps = 0
    while (mover := to_move()) is not None:
        if steps >= limit and (stop is None or stop(world)):
            return _ahead(world) if chances is None else chances(world)
        play(chance_move(world, rng) if mover == CHANCE else choice(legal_moves()))
        steps += 1
    outcome = world.outcome()
    assert outcome is not None
    return rewards(outcome, world.players)


def _ahead(world: State) -> list[float]:
    """The seats whose public position (players.evaluation.MEASURES, else
    players.simple.HEURISTICS) is best share a win."""
    measure = MEASURES.get(world.game_id)
    if measure is None:
        score = HEURISTICS[world.game_id]
        view = world.view(None)  # once for every seat
        margins = [score(view, s) for s in range(world.players)]
    else:
        margins = [measure(world, s) for s in range(world.players)]
        softness = SOFTNESS.get(world.game_id)
        if softness is not None:  # each seat's chance by how far ahead it is
            return softmax(margins, softness)
    best = max(margins)
    leaders = [s for s, m in enumerate(margins) if m == best]
    return [1.0 / len(leaders) if s in leaders else 0.0 for s in range(world.players)]


def _measure(world: State, seat: int, measure: Measure | None = None) -> float:
    """How good the public position is for ``seat``: ``measure`` if given
    (the search's own, players.evaluation), else the game's public score."""
    if measure is not None:
        return measure(world, seat)
    return HEURISTICS[world.game_id](world.view(None), seat)


def _widening(visits: int) -> int:
    """How many of the root's moves (best ranked first) its ``visits`` may try."""
    return max(2, math.ceil(2 * math.sqrt(visits + 1)))


def _ranks(world: State, legal: list[Move], seat: int,
           measure: Measure | None = None) -> list[tuple[Move, float]]:
    """Each move tried in ``world``: 1 for the best for ``seat`` down to 0 for
    the worst (equal moves share a rank), a win above any position."""
    values = []
    for move in legal:
        after = world.copy()
        after.play_listed(move)
        outcome = after.outcome()
        values.append(1e9 * (rewards(outcome, world.players)[seat] - 0.5) if outcome is not None
                      else _measure(after, seat, measure))
    distinct = sorted(set(values))
    top = max(len(distinct) - 1, 1)
    return [(m, distinct.index(v) / top) for m, v in zip(legal, values, strict=True)]


def _drawn(root: _Node, legal: list[Move], temperature: float, rng: random.Random) -> Move:
    """A move the search tried, drawn by its visits ** (1 / temperature), from
    the search's own generator (seeded by the seat's view)."""
    tried = [(m, child.visits) for m in legal if (child := root.children.get(_key(m))) is not None
             and child.visits > 0]
    weights = [visits ** (1.0 / temperature) for _, visits in tried]
    x = rng.random() * sum(weights)
    for (move, _), weight in zip(tried, weights, strict=True):
        x -= weight
        if x < 0:
            return move
    return tried[-1][0]


def _standing(root: _Node, move: Move, seat: int) -> tuple[int, float, float]:
    child = root.children.get(_key(move))
    prior = 0.0 if root.prior is None else root.prior.get(_key(move), 0.0)
    if child is None:
        return 0, prior, 0.0
    return child.visits, prior, child.value[seat] / child.visits


def _view_digest(state: State, seat: int) -> str:
    """The seat's view, as the seed's second half: a different position gets
    different random numbers, the same view the same ones."""
    text = json.dumps(state.view(seat), sort_keys=True, default=str)
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()
