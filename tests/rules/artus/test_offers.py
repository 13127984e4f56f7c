"""The kept listings of what each card offers: the same moves, in the same
order, as listing them afresh, and a store that stays bounded."""

from __future__ import annotations

import random

import rules
from rules.artus import offers
from rules.artus.data import DATA, Card
from rules.artus.moves import Play
from rules.core import Move

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



#: plays whose fields are of kinds no listed move has (True == 1 and 2.0 == 2 all the same)
ODD = (("move", True, 2, ()), ("move", 3, 2.0, ()), ("move", "3", 2, ()), ("move", 3, True, ()),
       ("ring", 3, None, (1,)), ("score", None, None, ()))


def candidates(card: Card, listed: frozenset[Move], other: Card) -> list[Play]:
    """Every figure move and ring ``card`` could be asked for, on and off the
    table, in range and out, with odd fields, and the listed ones under another card's name."""
    seats = range(-1, DATA.seats + 1)
    moves = [Play(card.id, "move", s, k) for s in seats for k in range(-9, 10)]
    unlisted = (("ring", None), ("ring", 1), ("move", None))
    moves += [Play(card.id, do, s, k) for s in seats for do, k in unlisted]
    moves += [Play(card.id, do, s, k, knights) for do, s, k, knights in ODD]  # type: ignore[arg-type]
    return moves + [Play(other.id, m.do, m.seat, m.steps) for m in listed if isinstance(m, Play)]


def test_a_play_read_off_the_seats_is_offered_exactly_when_listed() -> None:
    """``offered`` (the seats the move names, read directly) says what
    membership in the kept listing says, for every figure move and ring of
    the cards it answers for, over seeded games; it leaves a field of another
    kind, and the other cards, to the listing."""
    answering = [c for c in DATA.cards.values() if c.action in ("knight", "royal", "ring")]
    others = [c for c in DATA.cards.values() if c.action not in ("knight", "royal", "ring")]
    checked = 0
    for seed, players, mode in ((0, 4, "beginner"), (1, 3, "advanced"), (2, 2, "beginner")):
        rng = random.Random(seed)
        state = GAME.new_game(players, seed, {"mode": mode})
        while state.to_move() is not None:
            if state.is_chance():
                state.apply(state.sample_chance())
                continue
            if state.phase == "play" and rng.random() < 0.3:
                knights, royals = offers.figures(tuple(state.seats))
                mine = knights.get(f"k{state.current}", ())
                table = (state.seats, state.king, state.current)
                for card in answering:
                    listed = offers.card_offer(card, mine, royals, state.king)[1]
                    for move in candidates(card, listed, others[0]):
                        fast = offers.offered(card, move, *table)
                        plain = type(move.seat) is int and (move.steps is None or type(move.steps) is int)
                        assert (fast is None) == (not plain or move.knights != ()), move
                        if fast is not None:
                            assert fast == (move in listed), (move, table)
                            checked += 1
                for card in others:
                    assert offers.offered(card, Play(card.id, "score"), *table) is None
            state.apply(rng.choice(state.legal_moves()))
    assert checked > 100_000
