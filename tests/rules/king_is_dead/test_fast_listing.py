"""The short ways the engine lists moves (the computer's search lists them
very often), held to the plain definitions they replace, in every position
of seeded random games at 2, 3 and 4 players, with and without the Mordred
variant: Garrison's and Ambassador's exchanges (each region's takes worked
out once, prebuilt moves), the hand (counted without ``Counter``), the
board (controlled regions remembered by owners, counts read in one call),
and the prebuilt moves themselves."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from rules.king_is_dead import actions, moves
from rules.king_is_dead.actions import COLOURS, Board, Picks
from rules.king_is_dead.data import DATA
from rules.king_is_dead.moves import Into, Take
from rules.king_is_dead.state import KingIsDeadState

from .helpers import random_game


def _draws(counts: dict[str, int], k: int) -> list[tuple[str, ...]]:
    present = [c for c in COLOURS if counts[c]]
    if k == 1:
        return [(c,) for c in present]
    return [(a, b) for a in present for b in present if a != b or counts[a] >= 2]


def _counts(board: Board) -> dict[str, dict[str, int]]:
    return {r: dict(zip(COLOURS, c, strict=True)) for r, c in board.followers}


def _plain_garrison(board: Board) -> tuple[Picks, ...]:
    counts = _counts(board)
    options: list[tuple[Picks, int]] = []
    for a, here in counts.items():
        for b in sorted(DATA.borders[a]):
            if b not in counts:
                continue
            there = counts[b]
            b_empty = not any(there.values())
            for k in (2, 1):
                for out in _draws(here, k):
                    takes: Picks = tuple(Take(a, c) for c in out)
                    for back in _draws(there, 1):
                        options.append(((*takes, Take(b, back[0])), k + 1))
                    if b_empty:
                        options.append(((*takes, Into(b)), k))
    return actions._best(options, board.last_exchange)


def _plain_ambassador(board: Board) -> tuple[Picks, ...]:
    counts = _counts(board)
    options: list[tuple[Picks, int]] = []
    for r1, here in counts.items():
        for (c1,) in _draws(here, 1):
            for r2, there in counts.items():
                if r2 == r1:
                    continue
                if any(there.values()):
                    options.extend(((Take(r1, c1), Take(r2, c2)), 2) for (c2,) in _draws(there, 1))
                else:
                    options.append(((Take(r1, c1), Into(r2)), 1))
    return actions._best(options, board.last_exchange)


def _plain_hand(state: KingIsDeadState, seat: int) -> list[str]:
    held = Counter(DATA.deck) - Counter(state.piles[seat])
    return [c for c in DATA.cards for _ in range(held[c])]


def _plain_controlled(state: KingIsDeadState) -> tuple[tuple[str, str], ...]:
    return tuple((f, r) for f in DATA.faction_ids for r in DATA.regions if state.controlled(f, r))


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("mordred", [False, True])
def test_the_short_listings_are_the_plain_definitions(players: int, mordred: bool) -> None:
    checked = exchanges = 0
    for seed in range(3):
        for state, rng in random_game(players, seed, mordred):
            board = state.board()
            assert board.controlled == _plain_controlled(state)
            assert board.followers == tuple((r, tuple(state.regions[r][c] for c in COLOURS))
                                            for r in state.open_regions())
            assert board.reserve == tuple(state.reserve[c] for c in DATA.colours)
            for s in range(players):
                assert state.hand(s) == _plain_hand(state, s)
            last = [board.last_exchange]
            picks = _plain_garrison(replace(board, last_exchange=None))
            if picks:  # also with an exchange to undo, as the search meets it
                last.append(actions.net_effect(actions.transfers(rng.choice(picks))) or None)
            for undo in last:
                other = replace(board, last_exchange=undo)
                assert actions._garrison(other) == _plain_garrison(other)
                assert actions._ambassador(other) == _plain_ambassador(other)
                exchanges += bool(_plain_garrison(other))
            checked += 1
    assert checked > 100 and exchanges > 50


def test_the_prebuilt_moves_are_the_moves_they_stand_for() -> None:
    pairs = ((moves.TAKES, moves.Take), (moves.PLACES, moves.Place), (moves.SUMMONS, moves.Summon))
    for table, kind in pairs:
        for (region, colour), move in table.items():
            assert move == kind(region, colour) and type(move) is kind
    for table1, kind1 in ((moves.SWAPS, moves.Swap), (moves.CROWNS, moves.Crown), (moves.INTOS, moves.Into)):
        for region, move1 in table1.items():
            assert move1 == kind1(region) and type(move1) is kind1
    assert all(m == moves.Play(c) for c, m in moves.PLAYS.items()) and moves.Pass() == moves.PASS
    assert set(moves.PLAYS) == set(DATA.cards)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_menu_worked_out_step_by_step_is_the_whole_menu(players: int) -> None:
    """``actions.Steps`` (Garrison's and Ambassador's menus, each step when
    first asked) against ``actions.menu`` (the whole tree): every key, in
    order, with its picks; complete and impossible pick lists are not keys;
    a random walk asked in a fresh menu, as a player or the search asks."""
    checked = 0
    for seed in range(3):
        for state, rng in random_game(players, seed):
            board = state.board()
            for card in ("garrison", "ambassador"):
                choices = actions.options(card, board)
                whole = actions.menu(choices)
                walked = actions.Steps(choices)
                made: Picks = ()
                while made in whole:  # one path first, on a fresh menu
                    assert made in walked and walked.get(made) == whole[made] == walked[made]
                    made = (*made, rng.choice(whole[made]))
                assert made not in walked and walked.get(made) is None and walked.get(made, ()) == ()
                steps = actions.Steps(choices)
                assert bool(steps) == bool(whole) and len(steps) == len(whole)
                assert list(steps.items()) == list(whole.items())
                for c in choices:
                    assert c not in steps and c[:-1] in steps
                assert (*choices[0][:-1], moves.PASS) not in steps if choices else () not in steps
                checked += 1
    assert checked > 100


def test_a_menu_that_keeps_some_ways_is_the_menu_of_those_ways() -> None:
    """``Steps(choices, keep)`` (the 3-player last card's menu: the ways
    that win) against ``menu`` of the kept choices, a random path first on a
    fresh menu, then every key; ``keep`` is asked at most once a choice."""
    checked = 0
    for seed in range(3):
        for state, rng in random_game(3, seed):
            board = state.board()
            for card in ("garrison", "ambassador", "crown", "settlement"):
                choices = actions.options(card, board)
                kept = {c for c in choices if rng.random() < 0.3}
                asked: list[Picks] = []

                def keep(c: Picks, kept: set = kept, asked: list = asked) -> bool:
                    asked.append(c)
                    return c in kept

                whole = actions.menu(c for c in choices if c in kept)
                steps = actions.Steps(choices, keep)
                made: Picks = ()
                while made in whole:
                    assert steps.get(made) == whole[made]
                    made = (*made, rng.choice(whole[made]))
                assert made not in steps and bool(steps) == bool(whole)
                assert list(steps.items()) == list(whole.items()) and len(steps) == len(whole)
                assert len(asked) == len(set(asked))
                checked += 1
    assert checked > 100


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("mordred", [False, True])
def test_exchanges_worked_out_from_the_board_are_the_menu_of_every_way(players: int, mordred: bool) -> None:
    """``options_menu`` of Garrison and Ambassador (``actions.Exchanges``,
    which does not list the ways) against ``menu`` of every way
    (``options``), with the board's exchange to undo, none, and one of the
    card's own: every key's picks, every first pick asked (a take that
    begins no way is not a key), complete ways not keys, and a random walk
    on a fresh menu, as a player or the search asks."""
    checked = undone = 0
    for seed in range(3):
        for state, rng in random_game(players, seed, mordred):
            board = state.board()
            lasts = [board.last_exchange, None]
            for card in ("garrison", "ambassador"):
                ways = actions.options(card, replace(board, last_exchange=None))
                if ways:
                    lasts.append(actions.net_effect(actions.transfers(rng.choice(ways))) or None)
            for last in lasts:
                other = replace(board, last_exchange=last)
                for card, make in (("garrison", actions._garrison_steps),
                                   ("ambassador", actions._ambassador_steps)):
                    choices = actions.options(card, other)
                    whole = actions.menu(choices)
                    walked = make(other)
                    made: Picks = ()
                    while made in whole:
                        assert made in walked and walked[made] == whole[made]
                        made = (*made, rng.choice(whole[made]))
                    assert made not in walked and bool(walked) == bool(whole)
                    steps = make(other)
                    for take in moves.TAKES.values():
                        assert steps.get((take,)) == whole.get((take,))
                    for key, picks in whole.items():
                        assert steps.get(key) == picks
                    for c in choices:
                        assert c not in steps and c[:-1] in steps
                    assert actions.leaves(make(other)) == actions.leaves(whole)
                    checked += 1
                    plain = actions.options(card, replace(other, last_exchange=None))
                    undone += bool(last) and choices != plain
    assert checked > 200 and undone > 5
