"""``actions.menu`` builds a card's menu as a tree of picks (the computer's
search asks for menus very often); here it is held to the plain definition,
every proper prefix of every choice a key, keys and picks in order of first
appearance, on every card's options in positions of seeded random games."""

from __future__ import annotations

import pytest

from rules.king_is_dead import actions

from .helpers import random_game


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
        for state, rng in random_game(players, seed):
            board = state.board()
            for card in ("garrison", "ambassador", "crown", "settlement"):
                choices = actions.options(card, board)
                made = actions.menu(choices)
                assert made == _plain_menu(choices) and list(made) == list(_plain_menu(choices))
                # A subset, as the 3-player last card filters the choices.
                some = [c for c in choices if rng.random() < 0.5]
                assert list(actions.menu(some).items()) == list(_plain_menu(some).items())
                checked += 1
    assert checked > 100


def test_the_undo_rule_skips_only_exchanges_that_cannot_undo() -> None:
    """``_best`` works out net effects only for exchanges between the last
    exchange's two regions; it must keep what the plain filter keeps."""
    from dataclasses import replace

    checked = 0
    for seed in range(4):
        for state, rng in random_game(3, seed):
            board = replace(state.board(), last_exchange=None)
            for card in ("garrison", "ambassador"):
                picks = actions.options(card, board)
                if not picks:
                    continue
                opts = [(p, len(p)) for p in picks]
                for last_picks in rng.sample(picks, min(3, len(picks))):
                    last = actions.net_effect(actions.transfers(last_picks))
                    if not last:
                        continue
                    plain = [(p, n) for p, n in opts
                             if not actions.undoes(actions.net_effect(actions.transfers(p)), last)]
                    most = max(n for _, n in plain) if plain else 0
                    assert actions._best(opts, last) == tuple(p for p, n in plain if n == most)
                    checked += 1
    assert checked > 100
