"""One conformance check every registered game passes (after OpenSpiel's).

A seeded random playout in which, step by step:

* the moves listed are legal: the chosen one and a sample of the others
  apply, and none leads to a dead end (a game not over with no move);
* chance steps are resolved by ``sample_chance()``, which picks a listed
  outcome and changes nothing;
* moves made illegal by mutating a legal move's JSON (other values seen in
  this game, stale moves from earlier turns, missing or unknown fields) are
  either refused by ``move_from_json`` with ``ValueError`` or parse and then
  obey the invariant: ``check`` passes exactly for listed moves, and a refused
  move raises ``IllegalMove`` with a catalogued code and leaves the state
  exactly as it was;
* every move's JSON round-trips;
* views are JSON-ready, and no view of one seat (or the public) changes when
  another seat's secrets are dealt afresh (``State.perturb_secrets``);
* ``State.sample_unseen(seat)`` (what a computer player searches) keeps
  ``seat``'s view and is the same whatever the other seats' secrets are;
* what the rules say is secret (``State.secrecy``) holds: a secret move's
  holder is a seat (the one to move, unless a draw); every chance step and
  every event with an audience is a barrier to undo, and a draw only some
  seats see is secret;
* the game ends within ``Game.max_moves``, with a well-formed outcome;

and at the end the state's JSON rebuilds an equal state by replaying its log.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import rules
from rules import catalogue
from rules.core import Game, IllegalMove, Move, State

#: mutation and view checks run on one step in this many (the others only
#: apply), to keep hundreds of games per engine within the time budget.
CHECK_EVERY = 7


@dataclass
class PlayoutReport:
    game: str
    players: int
    seed: int
    options: dict[str, Any]
    moves: int = 0
    mutations_refused: int = 0
    mutations_legal: int = 0
    codes: set[str] = field(default_factory=set)


def scenarios(game: Game, count: int) -> Iterator[tuple[int, int, dict[str, Any]]]:
    """``count`` (players, seed, options) per option combination, cycling
    through the player counts the game is set up with under it
    (``Game.setups``: Mordred's unofficial option opens 2 players only)."""
    setups = game.setups()
    for combo_index, options in enumerate(game.option_combinations()):
        counts = [n for n, opts in setups if opts == options]
        for i in range(count if counts else 0):
            yield counts[i % len(counts)], combo_index * 100_003 + i, options


def _json_roundtrip(value: Any) -> Any:
    return json.loads(json.dumps(value, allow_nan=False))


def _mutations(move: Move, pool: dict[str, list[Any]], stale: list[Move], rng: random.Random) -> list[Any]:
    data = move.to_json()
    out: list[Any] = []
    keys = [k for k in data if k != "type"]
    for key in keys:
        seen = [v for v in pool.get(key, []) if v != data[key]]
        if seen:
            out.append({**data, key: rng.choice(seen)})
        value = data[key]
        if isinstance(value, bool):
            out.append({**data, key: not value})
        elif isinstance(value, int):
            out.append({**data, key: value + rng.choice((-1, 1, 7))})
        elif isinstance(value, str):
            out.append({**data, key: value + "?"})
        out.append({k: v for k, v in data.items() if k != key})
    types = pool.get("type", [])
    if len(types) > 1:
        out.append({**data, "type": rng.choice([t for t in types if t != data["type"]] or types)})
    out.append({**data, "unexpected": 1})
    out.extend(m.to_json() for m in rng.sample(stale, min(3, len(stale))))
    return out


def _check_mutation(game: Game, state: State, legal: list[Move], data: Any, report: PlayoutReport) -> None:
    try:
        move = game.move_from_json(_json_roundtrip(data))
    except ValueError:
        report.mutations_refused += 1
        return
    before = state.to_json()
    if move in legal:
        state.check(move)
        report.mutations_legal += 1
        return
    try:
        state.check(move)
    except IllegalMove as exc:
        _check_error(game, exc, report)
    else:
        raise AssertionError(f"check() accepted a move legal_moves() does not list: {data}")
    try:
        state.apply(move)
    except IllegalMove:
        pass
    else:
        raise AssertionError(f"apply() accepted a move legal_moves() does not list: {data}")
    assert state.to_json() == before, f"a refused move changed the state: {data}"
    report.mutations_refused += 1


def _check_error(game: Game, exc: IllegalMove, report: PlayoutReport) -> None:
    assert exc.code.startswith((game.id + ".", "core.")), f"code {exc.code!r} is not in {game.id}'s namespace"
    assert catalogue.has(exc.code), f"code {exc.code!r} has no sentence in the catalogue"
    for lang in catalogue.LANGS:
        assert exc.message(lang).strip(), f"empty {lang} message for {exc.code}"
    assert exc.code.startswith("core.") or exc.rule, f"{exc.code} names no rulebook section"
    _json_roundtrip(exc.to_json())
    report.codes.add(exc.code)


def _check_views(game: Game, state: State, rng: random.Random) -> None:
    seats: list[int | None] = [None, *range(state.players)]
    views = {seat: _json_roundtrip(state.view(seat)) for seat in seats}
    perturbed: list[tuple[int, State]] = []
    if not game.perfect_information:
        for owner in range(state.players):
            other = state.perturb_secrets(owner, rng)
            if other is None:
                continue
            perturbed.append((owner, other))
            for seat in seats:
                if seat == owner:
                    continue
                assert _json_roundtrip(other.view(seat)) == views[seat], (
                    f"the view of {'the public' if seat is None else f'seat {seat}'} changes with "
                    f"seat {owner}'s secrets"
                )
    # What a computer player searches keeps its seat's view and depends on nothing else.
    deal = rng.randrange(1 << 30)
    for seat in range(state.players):
        sample = state.sample_unseen(seat, random.Random(deal))
        assert _json_roundtrip(sample.view(seat)) == views[seat], f"sample_unseen({seat}) changes its view"
        for owner, other in perturbed:
            if owner != seat:
                again = other.sample_unseen(seat, random.Random(deal))
                assert again.to_json() == sample.to_json(), (
                    f"sample_unseen({seat}) depends on seat {owner}'s secrets"
                )


def _check_secrecy(state: State, move: Move) -> None:
    """The rules' one answer to "is this move secret, may undo cross it"."""
    events = state.copy().apply(move)
    said = state.secrecy(move, events)
    assert said == state.secrecy(move), "secrecy() differs with and without the move's events"
    chance = state.is_chance()
    private = [e.audience for e in events if e.audience]
    if chance or private:
        assert not said.undoable, f"undo may cross {'a chance step' if chance else 'a revealed secret'}"
    if chance and private:
        assert said.secret, f"a draw only seats {private[0]} see is told to all: {move.to_json()}"
    if not said.secret:
        return
    assert said.holder in range(state.players), f"secret to {said.holder!r}, not a seat"
    assert chance or said.holder == state.to_move(), "a seat's secret move is made by another seat"
    after = state.copy()
    after.apply(move)
    assert after.view(said.holder) != after.view(None), "a secret its holder knows no more of than the public"
    # The public may learn a draw's consequences (Siege: a hand that cannot feed
    # starts a loss), so the views of other outcomes are not compared here; what
    # a view may hold is checked by perturb_secrets above.


def play(game: Game, players: int, seed: int, options: dict[str, Any]) -> tuple[State, PlayoutReport]:
    report = PlayoutReport(game.id, players, seed, options)
    rng = random.Random(seed)
    state = game.new_game(players=players, seed=seed, options=options)
    pool: dict[str, list[Any]] = defaultdict(list)
    stale: list[Move] = []
    if not game.perfect_information:
        assert type(state).perturb_secrets is not State.perturb_secrets, (
            f"{game.id}: implement State.perturb_secrets (or set Game.perfect_information = True) "
            "so the suite can check views hold no other seat's secret"
        )
    while state.to_move() is not None:
        assert report.moves < game.max_moves, f"{game.id} seed {seed}: no end after {game.max_moves} moves"
        legal = state.legal_moves()
        assert legal, f"{game.id} seed {seed}: no legal move but the game is not over"
        full_check = report.moves % CHECK_EVERY == 0
        if state.to_move() == rules.CHANCE:
            before = state.to_json() if full_check else None
            move = state.sample_chance()
            assert move in legal, f"sample_chance() gave an unlisted outcome {move.to_json()}"
            assert before is None or state.to_json() == before, "sample_chance() changed the state"
        else:
            move = rng.choice(legal)
        data = move.to_json()
        assert game.move_from_json(_json_roundtrip(data)) == move, f"move JSON does not round-trip: {data}"
        for key, value in data.items():
            if isinstance(value, (str, int, bool)) and value not in pool[key]:
                pool[key].append(value)
        if full_check:
            # Every listed move applies and leads somewhere: no dead ends.
            for other in rng.sample(legal, min(2, len(legal))):
                trial = state.copy()
                trial.apply(other)
                assert trial.to_move() is None or trial.legal_moves(), f"dead end after {other.to_json()}"
            for mutated in _mutations(move, pool, stale, rng):
                _check_mutation(game, state, legal, mutated, report)
            _check_views(game, state, rng)
            _check_secrecy(state, move)
        events = state.apply(move)
        _json_roundtrip([e.to_json() for e in events])
        stale.append(move)
        report.moves += 1
    assert state.legal_moves() == [], "a finished game still lists moves"
    outcome = state.outcome()
    assert outcome is not None, "the game is over but outcome() is None"
    assert outcome.reason, "an outcome must say why the game ended"
    assert set(outcome.winners) <= set(range(players)), f"winners {outcome.winners} are not seats"
    _json_roundtrip(outcome.to_json())
    _check_views(game, state, rng)
    rebuilt = game.state_from_json(_json_roundtrip(state.to_json()))
    assert rebuilt == state, "replaying the log does not rebuild an equal state"
    return state, report
