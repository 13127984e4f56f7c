"""The kept listings of what each card offers: the same moves, in the same
order, as listing them afresh, and a store that stays bounded."""

from __future__ import annotations

import random

import rules
from rules.artus import offers
from rules.artus.data import DATA

GAME = rules.get("artus")


def test_kept_listings_are_the_fresh_ones_in_order() -> None:
    for seed in range(3):
        rng = random.Random(seed)
        state = GAME.new_game(4, seed, {"mode": "advanced"})
        while state.to_move() is not None:
            if state.is_chance():
                state.apply(state.sample_chance())
                continue
            if state.phase == "play":
                knights, royals = offers.figures(tuple(state.seats))
                mine = knights.get(f"k{state.current}", ())
                for cid in set(state.hands[state.current]):
                    card = DATA.cards[cid]
                    kept, as_set = offers.card_offer(card, mine, royals, state.king)
                    fresh = offers._listing(card, mine, royals, state.king)
                    assert list(kept) == fresh and as_set == set(fresh)
            state.apply(rng.choice(state.legal_moves()))


def test_an_illegal_play_is_still_refused_with_its_reason() -> None:
    state = GAME.new_game(3, 1, {"mode": "advanced"})
    while state.phase != "play":
        state.apply(state.sample_chance() if state.is_chance() else state.legal_moves()[0])
    move = next(m for m in state.legal_moves() if getattr(m, "do", "") == "move")
    wrong = type(move)(move.card, "move", move.seat, 40)
    try:
        state.check(wrong)
    except rules.core.IllegalMove as exc:
        assert exc.code == "artus.move.out-of-range"
    else:
        raise AssertionError("a move 40 seats far was accepted")


def test_the_stores_stay_bounded() -> None:
    card = next(c for c in DATA.cards.values() if c.action == "knight")
    for n in range(offers.LIMIT + 10):
        mine = tuple(s for s in range(12) if n >> s & 1)
        offers.card_offer(card, mine, (), 0)
        offers.figures(tuple("k0" if n >> s & 1 else None for s in range(12)))
    assert offers._kept.cache_info().currsize <= offers.LIMIT
    assert offers.figures.cache_info().currsize <= offers.LIMIT
