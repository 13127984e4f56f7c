"""Preparazione: removals, home followers, courts with the redraw, filling
the regions, the region-card order, all as chance moves."""

from __future__ import annotations

import pytest

from rules import CHANCE
from rules.king_is_dead import GAME
from rules.king_is_dead.data import DATA
from rules.king_is_dead.moves import Draw, Pass, RegionCard
from tests.rules.king_is_dead.helpers import refused, set_up


@pytest.mark.parametrize(("players", "per_colour"), [(2, 14), (3, 16), (4, 16)])
def test_two_players_remove_two_followers_per_faction(players: int, per_colour: int) -> None:
    state = GAME.new_game(players, seed=0)
    # 18 per faction (16 with 2 players), 2 of each on its home region.
    assert state.bag == dict.fromkeys(DATA.colours, per_colour)


def test_home_regions_start_with_two_of_their_colour() -> None:
    state = GAME.new_game(3, seed=0)
    for f in DATA.factions:
        assert state.regions[f.home][f.colour] == 2
    assert sum(sum(c.values()) for c in state.regions.values()) == 6


def test_draws_are_chance_moves_weighted_by_the_bag() -> None:
    state = GAME.new_game(2, seed=0)
    assert state.to_move() == CHANCE and state.step == "court"
    state.bag = {"blue": 5, "red": 1, "yellow": 0}
    assert state.chance_outcomes() == [(Draw("blue"), 5.0), (Draw("red"), 1.0)]
    refused(state, Draw("yellow"), "king-is-dead.setup.not-in-bag")
    refused(state, Pass(), "king-is-dead.step.wrong-move")


def test_each_seat_draws_two_for_its_court_in_seat_order() -> None:
    state = GAME.new_game(3, seed=0)
    for seat, colour in [(0, "blue"), (0, "red"), (1, "red"), (1, "yellow"), (2, "blue")]:
        assert state.view(None)["draw"] == {"seat": seat}
        events = state.apply(Draw(colour))
        assert events[0].params == {"seat": seat, "colour": colour}
    assert state.courts[0] == {"blue": 1, "red": 1, "yellow": 0}


def _courts(state, *pairs: tuple[str, str]) -> list:  # type: ignore[no-untyped-def]
    events = []
    for pair in pairs:
        for colour in pair:
            events += state.apply(Draw(colour))
    return events


def test_two_courts_of_one_and_the_same_colour_redraw() -> None:
    state = GAME.new_game(3, seed=0)
    bag = dict(state.bag)
    events = _courts(state, ("red", "red"), ("blue", "yellow"), ("red", "red"))
    assert events[-1].type == "court_redraw" and events[-1].params == {"seats": [0, 2]}
    assert state.courts[0] == state.courts[2] == {"blue": 0, "red": 0, "yellow": 0}
    assert state.bag["red"] == bag["red"]  # the four reds went back in the bag
    assert state.step == "court" and state.view(None)["draw"] == {"seat": 0}
    _courts(state, ("blue", "red"), ("yellow", "yellow"))
    assert state.step == "fill"


def test_a_pair_of_one_colour_alone_is_kept() -> None:
    state = GAME.new_game(3, seed=0)
    events = _courts(state, ("red", "red"), ("blue", "blue"), ("red", "yellow"))
    assert "court_redraw" not in [e.type for e in events]
    assert state.step == "fill"


def test_regions_are_filled_to_four_in_map_order_then_the_reserve_is_what_is_left() -> None:
    state = GAME.new_game(2, seed=0)
    _courts(state, ("red", "blue"), ("yellow", "blue"))
    filled = []
    while state.step == "fill":
        filled.append(state.fill_region())
        state.apply(state.sample_chance())
    homes = {f.home for f in DATA.factions}
    expected = [r for r in DATA.regions for _ in range(2 if r in homes else 4)]
    assert filled == expected
    assert all(sum(c.values()) == 4 for c in state.regions.values())
    # 2 players: 42 in the bag, 4 to the courts, 26 to the board.
    assert sum(state.reserve.values()) == 42 - 4 - 26
    assert state.bag == dict.fromkeys(DATA.colours, 0)
    assert state.step == "order"


def test_region_cards_are_laid_one_position_at_a_time() -> None:
    state = GAME.new_game(2, seed=3)
    while state.step != "order":
        state.apply(state.sample_chance())
    laid = []
    while state.step == "order":
        options = state.legal_moves()
        assert len(options) == 8 - len(laid)
        laid.append(options[-1].region)
        events = state.apply(options[-1])
    assert state.cards == laid
    refused_state = state  # the game started: no more region cards
    assert events[-1].type == "setup_complete" and events[-1].params["first"] == 0
    assert refused_state.to_move() == 0 and refused_state.current_region() == laid[0]


def test_a_region_card_cannot_be_laid_twice() -> None:
    state = GAME.new_game(2, seed=3)
    while state.step != "order":
        state.apply(state.sample_chance())
    state.apply(RegionCard("Deva"))
    refused(state, RegionCard("Deva"), "king-is-dead.setup.card-laid")


def test_the_seed_decides_the_whole_setup_reproducibly() -> None:
    a, b = set_up(4, seed=11), set_up(4, seed=11)
    assert a == b
    assert a.to_json() != set_up(4, seed=12).to_json()


def test_mordred_setup_puts_a_loyalist_in_aquae_sulis_and_din_eidyn() -> None:
    state = GAME.new_game(3, seed=0, options={"mordred": True})
    assert state.regions["Aquae Sulis"]["black"] == 1
    assert state.regions["Din Eidyn"]["black"] == 1
    state = set_up(3, mordred=True)
    for region in ("Aquae Sulis", "Din Eidyn"):
        assert state.regions[region]["black"] == 1
        assert sum(state.regions[region].values()) == 4  # only 3 drawn there
    assert state.loyalist_supply == 7
