"""Setup: princes, rings, the opening hands, placing Knights in reverse order."""

from __future__ import annotations

import pytest

from rules import CHANCE
from rules.artus import GAME, board
from rules.artus.data import DATA
from rules.artus.moves import Place, Play, Reveal
from tests.rules.artus.helpers import refused


def _dealt(players: int, mode: str):
    state = GAME.new_game(players, 3, {"mode": mode})
    while state.is_chance():
        state.apply(state.sample_chance())
    return state


def test_princes_rings_and_table() -> None:
    state = GAME.new_game(3, 1)
    king = DATA.large_crown
    assert state.king == king and state.rings[king] == 3
    princes = {s: state.seats[s] for s in DATA.crowns}
    assert set(princes.values()) == {"silver", "bronze"}
    for s, colour in princes.items():
        assert princes[(s + DATA.seats // 2) % DATA.seats] == colour  # identical colours opposite
        if s != king:
            assert state.rings[s] == 1
    # The crown plate faces the King; the seat behind him is the 10.
    assert board.value(king, king) == 0 and board.value(king, (king - 1) % DATA.seats) == 10
    assert sum(f is not None for f in state.seats) == 4


@pytest.mark.parametrize(
    ("mode", "hand", "piles"),
    [
        ("beginner", {"knight": 2, "king": 2}, {"knight": 6, "king": 6}),
        ("advanced", {"knight": 3, "king": 3}, {"knight": 5, "king": 5, "scoring": 6}),
    ],
)
def test_opening_hands(mode: str, hand: dict[str, int], piles: dict[str, int]) -> None:
    state = GAME.new_game(2, 5, {"mode": mode})
    assert state.to_move() == CHANCE
    events = state.apply(state.sample_chance())
    public = [e for e in events if e.audience is None]
    private = [e for e in events if e.audience is not None]
    assert [e.type for e in public] == ["card_drawn"] and "card" not in public[0].params
    assert private[0].audience == (0,) and private[0].params["card"] in state.hands[0]
    state = _dealt(2, mode)
    for p in range(2):
        assert state.view(p)["hand_backs"][p] == hand
        assert state.view(None)["piles"][p] == piles


def test_chance_weights_duplicate_cards() -> None:
    state = GAME.new_game(2, 0)
    while state.deal_queue[0][1] != "king":
        state.apply(state.sample_chance())
    weights = {m.card: w for m, w in state.chance_outcomes()}
    assert weights["ring-both"] == 2.0 and weights["king-4-8"] == 1.0
    assert state.legal_moves() == [Reveal(c) for c in sorted(weights)]


@pytest.mark.parametrize(("players", "rounds"), [(2, 5), (3, 5), (4, 4)])
def test_placement_rounds_in_reverse_order(players: int, rounds: int) -> None:
    state = _dealt(players, "beginner")
    order = []
    while state.phase == "place":
        player = state.to_move()
        order.append(player)
        state.apply(state.legal_moves()[0])
    assert order == list(reversed(range(players))) * rounds
    for p in range(players):
        assert state.seats.count(board.knight(p)) == rounds  # one more Knight sits on the score track
    assert state.phase == "play" and state.to_move() == 0 and state.round == 1


def test_placement_refusals() -> None:
    state = _dealt(2, "beginner")
    refused(state, Place(DATA.large_crown), "artus.place.occupied")
    refused(state, Place(DATA.seats), "artus.seat.no-seat")
    refused(state, Play(state.hands[1][0], "score"), "artus.phase.placing")
    refused(state, Reveal("knight-3-6"), "artus.phase.no-draw-due")
    fresh = GAME.new_game(2, 5)
    refused(fresh, Place(3), "artus.phase.draw-due")
    refused(fresh, Reveal("score-all"), "artus.draw.not-in-pile")
