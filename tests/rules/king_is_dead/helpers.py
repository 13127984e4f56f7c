"""Positions for the tests: a game set up by the seed, then arranged by hand."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence

import pytest

from rules.core import CHANCE, IllegalMove
from rules.king_is_dead import GAME
from rules.king_is_dead.actions import COLOURS
from rules.king_is_dead.data import DATA
from rules.king_is_dead.moves import KidMove
from rules.king_is_dead.state import KingIsDeadState

Followers = Mapping[str, Mapping[str, int]]


def set_up(players: int = 3, seed: int = 1, mordred: bool = False) -> KingIsDeadState:
    """A game whose setup the seed has drawn, at the first turn."""
    state = GAME.new_game(players, seed, {"mordred": mordred})
    while state.is_chance():
        state.apply(state.sample_chance())
    assert isinstance(state, KingIsDeadState) and state.step == "turn"
    return state


def position(
    players: int = 3,
    *,
    regions: Followers | None = None,
    order: Sequence[str] | None = None,
    control: Mapping[str, str] | None = None,
    reserve: Mapping[str, int] | None = None,
    courts: Sequence[Mapping[str, int]] | None = None,
    played: Sequence[Sequence[str]] | None = None,
    seat: int = 0,
    mordred: bool = False,
) -> KingIsDeadState:
    """A position in play. ``regions`` gives every follower on the board
    (regions not named are empty); ``control`` lists resolved regions in the
    order their struggles ended; ``played`` the cards each seat has played."""
    state = set_up(players, mordred=mordred)
    if regions is not None:
        for r in DATA.regions:
            state.regions[r] = {c: dict(regions.get(r, {})).get(c, 0) for c in COLOURS}
    if order is not None:
        state.cards = list(order)
    if control is not None:
        for r, owner in control.items():
            state.control[r] = owner
            state.resolved.append(r)
            state.regions[r] = dict.fromkeys(COLOURS, 0)
    if reserve is not None:
        state.reserve = {c: reserve.get(c, 0) for c in DATA.colours}
    if courts is not None:
        state.courts = [{c: court.get(c, 0) for c in DATA.colours} for court in courts]
    if played is not None:
        for s, cards in enumerate(played):
            for card in cards:
                state.piles[s].append(card)
                state.last_play[s] = sum(len(p) for p in state.piles)
    state.seat = seat
    state._memo = {}
    return state


def apply_all(state: KingIsDeadState, *moves: KidMove) -> None:
    for move in moves:
        state.apply(move)


def refused(state: KingIsDeadState, move: KidMove, code: str) -> IllegalMove:
    """Assert ``move`` is refused with ``code`` and changes nothing."""
    before = state.to_json()
    with pytest.raises(IllegalMove) as info:
        state.apply(move)
    assert info.value.code == code, info.value.message()
    assert state.to_json() == before
    assert move not in state.legal_moves()
    return info.value


def followers(state: KingIsDeadState, region: str) -> dict[str, int]:
    return {c: n for c, n in state.regions[region].items() if n}


def random_game(
    players: int, seed: int, mordred: bool = False
) -> Iterator[tuple[KingIsDeadState, random.Random]]:
    """Each position where a player moves, in a game the seed sets up and
    plays at random: the state, and the generator that picks each move after
    the caller is done with the position (the caller may draw from it too)."""
    rng = random.Random(seed)
    state = set_up(players, seed, mordred=mordred)
    while (seat := state.to_move()) is not None:
        if seat == CHANCE:
            state.apply(state.sample_chance())
            continue
        yield state, rng
        state.apply(rng.choice(state.legal_moves()))
