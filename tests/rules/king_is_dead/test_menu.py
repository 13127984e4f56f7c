"""``actions.menu`` builds a card's menu as a tree of picks (the computer's
search asks for menus very often); here it is held to the plain definition,
every proper prefix of every choice a key, keys and picks in order of first
appearance, on every card's options in positions of seeded random games."""

from __future__ import annotations

import random

import pytest

from rules.core import CHANCE
from rules.king_is_dead import actions

from .helpers import set_up


def _plain_menu(choices) -> actions.Menu:
    out: dict = {}
    for c in choices:
        for n in range(len(c)):
            out.setdefault(c[:n], {}).setdefault(c[n])
    return {k: tuple(v) for k, v in out.items()}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_menu_is_every_prefix_of_every_choice_in_order(players):
    checked = 0
    for seed in range(4):
        rng = random.Random(seed)
        state = set_up(players, seed)
        while (seat := state.to_move()) is not None:
            if seat == CHANCE:
                state.apply(state.sample_chance())
                continue
            board = state.board()
            for card in ("garrison", "ambassador", "crown", "settlement"):
                choices = actions.options(card, board)
                made = actions.menu(choices)
                assert made == _plain_menu(choices) and list(made) == list(_plain_menu(choices))
                # A subset, as the 3-player last card filters the choices.
                some = [c for c in choices if rng.random() < 0.5]
                assert list(actions.menu(some).items()) == list(_plain_menu(some).items())
                checked += 1
            state.apply(rng.choice(state.legal_moves()))
    assert checked > 100
