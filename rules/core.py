"""The shared vocabulary of every game: states, moves, events, errors, outcomes.

After python-chess (parse, check and apply are separate; typed errors) and
OpenSpiel (one state interface; chance is a move like any other).

An engine subclasses :class:`State` and implements the underscored hooks:

* ``_to_move()``        the seat to act, ``CHANCE`` or ``None``;
* ``_legal_moves()``    every legal move now (at ``CHANCE``: the outcomes);
* ``_check(move)``      raise :class:`IllegalMove` with the rule it breaks;
* ``_apply(move)``      change ``self`` (already a private copy) and return events;
* ``_view(seat)``       what ``seat`` (or the public, ``None``) may know;
* ``_outcome()``        ``None`` while playing, else an :class:`Outcome`;
* ``_to_json()``        the engine's own fields, JSON-ready;
* ``_secret_seat()``    the seat whose move (or draw) due now the others may
  not know, or ``None`` (the default);
* ``_undoable(move)``   False for a public move undo may still not cross.

What is secret is said here, once, for every reader: :meth:`State.secrecy`
(after boardgame.io's ``redact`` and ``undoable`` on a move) is what the
journal's undo barrier, the exports, the spectator page, the computer seat
and the table's screens all ask.

The base class makes ``apply`` atomic: the move is checked, then applied to a
copy which replaces this state only when everything succeeded, so an illegal
or failing move leaves the state exactly as it was.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import accumulate, product
from typing import Any, ClassVar

from rules import catalogue
from rules.notation import JSON, Move

__all__ = ["CHANCE", "JSON", "Event", "Game", "IllegalMove", "Move", "Option", "Outcome", "Role", "Score",
           "Secrecy", "State"]

#: ``to_move()`` returns this when dice, a draw or a reveal comes next.
CHANCE = -1


class IllegalMove(Exception):
    """A move the rules forbid now.

    ``code`` is stable and dotted (``king-is-dead.garrison.not-adjacent``),
    ``rule`` names the rulebook section it enforces ("Guarnigione") and
    ``params`` fill the catalogue's sentence.
    """

    def __init__(self, code: str, rule: str, **params: Any) -> None:
        self.code = code
        self.rule = rule
        self.params = params
        super().__init__(self.message())

    def message(self, lang: str = "en", name_player: Callable[[int], str] | None = None) -> str:
        """The sentence in ``lang``; ``name_player`` names a seat held in a
        player param (rules.catalogue.PLAYER_PARAMS) as the table does."""
        return catalogue.text(self.code, self.params, lang, name_player)

    def to_json(self) -> JSON:
        return {
            "code": self.code,
            "rule": self.rule,
            "params": _jsonable(self.params),
            "message": self.message(),
        }


@dataclass(frozen=True, init=False)
class Event:
    """Something that happened when a move applied.

    ``audience`` is ``None`` for a public event, or the seats allowed to see
    it: an event that would betray a secret must name its audience.
    """

    type: str
    params: Mapping[str, Any]
    audience: tuple[int, ...] | None

    def __init__(self, type: str, params: Mapping[str, Any] | None = None,
                 audience: tuple[int, ...] | None = None) -> None:
        # A move makes several events: written straight into __dict__, a
        # third of what a frozen dataclass's own __init__ costs (one
        # object.__setattr__ a field).
        d = self.__dict__
        d["type"], d["params"], d["audience"] = type, {} if params is None else params, audience

    def visible_to(self, seat: int | None) -> bool:
        return self.audience is None or (seat is not None and seat in self.audience)

    def to_json(self) -> JSON:
        out: JSON = {"type": self.type, **_jsonable(dict(self.params))}
        if self.audience is not None:
            out["audience"] = list(self.audience)
        return out


@dataclass(frozen=True)
class Outcome:
    """How a game ended: winners (seats), scores per seat, and why."""

    winners: list[int]
    scores: dict[int, Any]
    reason: str
    detail: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> JSON:
        return {
            "winners": list(self.winners),
            "scores": {str(k): v for k, v in self.scores.items()},
            "reason": self.reason,
            **({"detail": _jsonable(dict(self.detail))} if self.detail else {}),
        }


@dataclass(frozen=True)
class Secrecy:
    """What a move played tells the other seats.

    ``holder``: the seat that makes or receives the move in secret (a card
    drawn into its hand, the assassins it picks), whose words no one else may
    read while the game runs; ``None`` for a move made in front of the table.
    ``undoable``: whether undo may take the move back (never across chance, a
    revealed secret, or a move whose undoing would tell one)."""

    holder: int | None = None
    undoable: bool = True

    @property
    def secret(self) -> bool:
        return self.holder is not None


class State:
    """One game in progress. See the module docstring for the hooks."""

    game_id: ClassVar[str] = ""

    def __init__(self, players: int, seed: int, options: Mapping[str, Any]) -> None:
        self.players = players
        self.seed = seed
        self.options = dict(options)
        self.history: list[Move] = []

    # -- the public interface -------------------------------------------
    def to_move(self) -> int | None:
        return self._to_move()

    def is_chance(self) -> bool:
        return self._to_move() == CHANCE

    def legal_moves(self) -> list[Move]:
        if self._to_move() is None:
            return []
        return self._legal_moves()

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        """The outcomes at a chance node with their weights (uniform unless
        the engine knows better, e.g. duplicate cards in a deck)."""
        moves = self.legal_moves()
        return [(m, 1.0) for m in moves]

    def chance_totals(self) -> tuple[Sequence[Move], Sequence[float]]:
        """``chance_outcomes()`` as two sequences: the outcomes, and the
        running totals of their weights (what a weighted draw bisects). An
        engine whose search draws many chance steps may override it to skip
        the pairs, e.g. with a fixed table for a die."""
        outcomes = self.chance_outcomes()
        return [m for m, _ in outcomes], list(accumulate(w for _, w in outcomes))

    def sample_chance(self, played: int | None = None) -> Move:
        """The outcome the seed picks here. Depends only on the seed and the
        number of moves played, so a log holding the outcomes replays to an
        equal state; the state itself is not changed. ``played`` counts the
        moves in place of the history (a record in an older notation, whose
        engine made some picks without a move: see :class:`RecordReader`)."""
        if self._to_move() != CHANCE:
            raise ValueError("sample_chance() called when no chance step is due")
        outcomes = self.chance_outcomes()
        n = len(self.history) if played is None else played
        rng = random.Random(f"{self.game_id}/{self.seed}/{n}")
        moves = [m for m, _ in outcomes]
        weights = [w for _, w in outcomes]
        return rng.choices(moves, weights=weights, k=1)[0]

    def check(self, move: Move) -> None:
        if self._to_move() is None:
            raise IllegalMove("core.game-over", "Fine della partita")
        self._check(move)

    def apply(self, move: Move) -> list[Event]:
        self.check(move)
        work = self.copy()
        events = work._apply(move)
        work.history.append(move)
        self.__dict__ = work.__dict__
        return events

    def view(self, seat: int | None) -> JSON:
        if seat is not None and not 0 <= seat < self.players:
            raise ValueError(f"seat must be None or 0..{self.players - 1}, not {seat!r}")
        return self._view(seat)

    def outcome(self) -> Outcome | None:
        return self._outcome()

    def secret_seat(self) -> int | None:
        """The seat whose move (or draw) due now is secret to the others."""
        return self._secret_seat()

    def secrecy(self, move: Move, events: Sequence[Event] | None = None) -> Secrecy:
        """Whether ``move``, played now (this state is the one before it), is
        secret to the other seats and whether undo may cross it. ``events``:
        what applying it gave, if the caller has them (else tried on a copy).

        A draw whose events only some seats see is secret to them whatever
        the engine says; any event with an audience, like every chance step,
        is a barrier to undo."""
        if events is None:
            events = self.copy().apply(move)
        chance = self._to_move() == CHANCE
        private = [e.audience for e in events if e.audience]
        holder = self._secret_seat()
        if holder is None and chance and private:
            holder = private[0][0]
        return Secrecy(holder, not chance and not private and self._undoable(move))

    def copy(self) -> State:
        return copy.deepcopy(self)

    def perturb_secrets(self, seat: int, rng: random.Random) -> State | None:
        """A copy in which only what ``seat`` alone knows is dealt afresh
        (another hand from the unseen cards, other hidden identities), or
        ``None`` when ``seat`` holds no secret now.

        The conformance suite checks that every other seat's view and the
        public view are the same in that copy: the information-flow form of
        "views never hold another seat's secret". Games with hidden
        information override it; games without set
        ``Game.perfect_information = True``.
        """
        return None

    def sample_unseen(self, seat: int, rng: random.Random) -> State:
        """A full state ``seat`` cannot tell from this one, drawn uniformly
        from all such states: every secret ``seat`` does not hold (another
        seat's hand, hidden identities) dealt afresh with ``rng``.

        What a computer player searches instead of the true state. The copy
        is a function of ``seat``'s view and ``rng`` alone: its history and
        seed are cleared (the history holds other seats' draws; the seed
        decides the real draws to come) and whatever is dealt is built in a
        canonical order. Games with hidden information override it and call
        :meth:`_unseen_copy` for the cleared copy.
        """
        return self._unseen_copy()

    def _unseen_copy(self) -> State:
        other = self.copy()
        other.history = []
        other.seed = 0
        return other

    def play_listed(self, move: Move) -> None:
        """Apply a move taken from ``legal_moves()`` (or a chance outcome) in
        place, without the check and the copy that make :meth:`apply` atomic:
        for a search playing thousands of moves on states it owns. A move not
        listed may leave the state half-changed."""
        self._apply(move)
        self.history.append(move)

    def to_json(self) -> JSON:
        return {
            "game": self.game_id,
            "players": self.players,
            "seed": self.seed,
            "options": dict(self.options),
            "history": [m.to_json() for m in self.history],
            "state": self.state_json(),
        }

    def state_json(self) -> JSON:
        """``to_json()``'s "state": the engine's own fields, without the
        history (what the journal keeps after each move: the moves are its
        own rows, and listing them all again cost more the longer a game)."""
        return self._to_json()

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.to_json() == other.to_json()  # type: ignore[union-attr]

    __hash__ = None  # type: ignore[assignment]

    # -- the engine's hooks ---------------------------------------------
    def _to_move(self) -> int | None:
        raise NotImplementedError

    def _legal_moves(self) -> list[Move]:
        raise NotImplementedError

    def _check(self, move: Move) -> None:
        # Default: a move is legal exactly when it is listed. Engines override
        # to say *which* rule a refused move breaks.
        if move not in self._legal_moves():
            raise IllegalMove("core.not-legal", "", move=_jsonable(move.to_json()))

    def _apply(self, move: Move) -> list[Event]:
        raise NotImplementedError

    def _view(self, seat: int | None) -> JSON:
        raise NotImplementedError

    def _outcome(self) -> Outcome | None:
        raise NotImplementedError

    def _to_json(self) -> JSON:
        raise NotImplementedError

    def _secret_seat(self) -> int | None:
        return None

    def _undoable(self, move: Move) -> bool:
        return True


@dataclass(frozen=True)
class Option:
    """One option a game accepts: its allowed values and default."""

    name: str
    allowed: Sequence[Any]
    default: Any
    help: str = ""


@dataclass(frozen=True)
class Role:
    """The part a seat plays where the game gives one (the King, the
    Attacker): what the screens call it and the names the command line
    takes for it (``--computer king``)."""

    words: tuple[str, str]  # (english, italian)
    names: tuple[str, ...]  # lower case; the first is the one listed in help


@dataclass(frozen=True)
class Score:
    """A score kept during play: what it counts, and each seat's from the
    public view (``view(None)``)."""

    words: tuple[str, str]  # (english, italian)
    read: Callable[[JSON], list[float]]


class Game:
    """A registered game: how to start one and how to read its notation,
    and the facts the table says about it (its seats' roles, its score)."""

    id: ClassVar[str] = ""
    name: ClassVar[str] = ""
    player_counts: ClassVar[Sequence[int]] = ()
    options: ClassVar[Sequence[Option]] = ()
    #: an upper bound on the moves (chance included) of any game; the
    #: conformance suite checks random playouts end within it.
    max_moves: ClassVar[int] = 10_000
    #: True when no seat ever knows something another does not; otherwise
    #: the state implements ``perturb_secrets``.
    perfect_information: ClassVar[bool] = False
    #: seat by seat, the role each plays; empty: seats are "Player N"
    roles: ClassVar[Sequence[Role]] = ()
    #: the score kept during play; None: the game is decided at its end
    running_score: ClassVar[Score | None] = None

    def new_game(
        self, players: int, seed: int = 0, options: Mapping[str, Any] | None = None
    ) -> State:
        if players not in self.player_counts:
            allowed = ", ".join(str(n) for n in self.player_counts)
            raise ValueError(f"{self.id}: {players!r} players is not allowed; choose one of {allowed}")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError(f"{self.id}: seed must be an integer, not {seed!r}")
        return self._new_game(players, seed, self.resolve_options(options or {}))

    def resolve_options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        known = {o.name: o for o in self.options}
        if not isinstance(given, Mapping):
            raise ValueError(f"{self.id}: options must be an object, not {given!r}")
        for name, value in given.items():
            if name not in known:
                names = ", ".join(sorted(known)) or "none"
                raise ValueError(f"{self.id}: unknown option {name!r}; allowed options: {names}")
            if value not in known[name].allowed:
                vals = ", ".join(json.dumps(v) for v in known[name].allowed)  # as --option takes them
                raise ValueError(f"{self.id}: option {name}={value!r} is not allowed; choose one of {vals}")
        return {o.name: given.get(o.name, o.default) for o in self.options}

    def option_combinations(self) -> list[dict[str, Any]]:
        """Every combination of allowed option values (one ``{}`` if none)."""
        names = [o.name for o in self.options]
        values = [list(o.allowed) for o in self.options]
        return [dict(zip(names, combo, strict=True)) for combo in product(*values)] or [{}]

    def setups(self) -> list[tuple[int, dict[str, Any]]]:
        """Every distinct game that can be set up: (players, options), each
        once. A game whose option only opens a player count of its own
        overrides this, so that no game is counted twice and none is missed."""
        return [(n, opts) for opts in self.option_combinations() for n in self.player_counts]

    def state_from_json(self, data: JSON) -> State:
        """Rebuild a state by replaying its history from its seed.

        Replaying re-checks every move, so a tampered state is refused."""
        try:
            if data["game"] != self.id:
                raise ValueError(f"state is for game {data['game']!r}, not {self.id!r}")
            state = self.new_game(data["players"], data["seed"], data["options"])
            for i, mj in enumerate(data["history"]):
                try:
                    state.apply(self.move_from_json(mj))
                except IllegalMove as exc:
                    raise ValueError(f"history move {i} is illegal: {exc}") from None
        except (KeyError, TypeError) as exc:
            raise ValueError(f"malformed {self.id} state: {exc!r}") from None
        if "state" in data and state._to_json() != data["state"]:
            raise ValueError(f"{self.id} state does not match its own history")
        return state

    def move_from_json(self, data: Any) -> Move:
        raise NotImplementedError

    def record_reader(self) -> RecordReader:
        """A reader for one recorded game (a journal, a replay file): the
        game's notation as it is today unless the game still reads older
        records (see :class:`RecordReader`)."""
        return RecordReader(self)

    def _new_game(self, players: int, seed: int, options: dict[str, Any]) -> State:
        raise NotImplementedError


class RecordReader:
    """Reads the moves of one recorded game in order, each against the state
    it applies to.

    Play at the table parses with :meth:`Game.move_from_json` alone; a
    recorded game comes through here, so a game whose notation has changed
    can still replay what an older Tablekeeper recorded (a journal written
    before an upgrade, an exported or replayed log) exactly as it was played.
    Before each recorded move (``data``; ``None`` after the last), the caller
    applies every ``implied`` move: a pick an older engine made by itself
    where today's waits for a player's move. ``older`` says whether any move
    was read in an older notation. ``newer_fields``: the state's fields an
    older engine's snapshot may lack, being younger than it."""

    newer_fields: frozenset[str] = frozenset()

    def __init__(self, game: Game) -> None:
        self.game = game
        self.older = False

    def implied(self, state: State, data: Any) -> Move | None:
        return None

    def read(self, state: State, data: Any) -> Move:
        return self.game.move_from_json(data)


def _jsonable(value: Any) -> Any:
    """Tuples to lists, dataclass-like objects through their to_json."""
    if hasattr(value, "to_json"):
        return value.to_json()
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [_jsonable(v) for v in value]
        return sorted(items, key=repr) if isinstance(value, (set, frozenset)) else items
    return value


def require(cond: bool, code: str, rule: str, **params: Any) -> None:
    """Raise :class:`IllegalMove` unless ``cond``: keeps checks one line each."""
    if not cond:
        raise IllegalMove(code, rule, **params)
