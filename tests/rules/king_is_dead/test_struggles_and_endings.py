"""Lotte per il Potere and Vincere la Partita: resolving a region, the turn
order, the end by control, by invasion, teams and the 3-player last card."""

from __future__ import annotations

import pytest

from rules.king_is_dead import scoring
from rules.king_is_dead.data import DATA
from rules.king_is_dead.moves import Pass, Place, Play, Summon
from rules.king_is_dead.state import KingIsDeadState
from tests.rules.king_is_dead.helpers import apply_all, position, refused

ORDER = list(DATA.regions)


def _all_pass(state: KingIsDeadState) -> list:  # type: ignore[type-arg]
    events = []
    for _ in range(state.players):
        events += state.apply(Pass())
    return events


def test_the_faction_with_most_followers_takes_control_and_they_go_to_the_reserve() -> None:
    state = position(3, regions={"Caledonia": {"blue": 2, "red": 1}}, order=ORDER, reserve={})
    events = _all_pass(state)
    resolved = next(e for e in events if e.type == "struggle_resolved")
    assert resolved.params == {"region": "Caledonia", "winner": "scots", "returned": {"blue": 2, "red": 1}}
    assert state.control["Caledonia"] == "scots"
    assert state.reserve == {"blue": 2, "red": 1, "yellow": 0}
    assert sum(state.regions["Caledonia"].values()) == 0
    assert state.current_region() == "Din Eidyn"
    view = state.view(None)
    assert view["region_cards"][0] == {"position": 1, "region": "Caledonia", "face_up": False, "crown": None}


@pytest.mark.parametrize("here", [{"blue": 2, "red": 2, "yellow": 1}, {}])
def test_a_tie_or_an_empty_region_falls_to_the_saxons(here: dict[str, int]) -> None:
    state = position(3, regions={"Caledonia": here}, order=ORDER)
    _all_pass(state)
    assert state.control["Caledonia"] == "saxons" and state.saxons() == 1


def test_a_pass_holds_for_that_turn_only() -> None:
    state = position(3, regions={"Caledonia": {"blue": 1}, "Deva": {"red": 2}}, order=ORDER)
    apply_all(state, Pass(), Pass())
    state.apply(Play("ambassador"))  # seat 2 acts: the passes no longer count
    while state.step != "turn":
        state.apply(state.legal_moves()[0])
    assert state.passes == 0 and state.to_move() == 0
    assert Play("crown") in state.legal_moves()  # seat 0 may play after passing
    apply_all(state, Pass(), Pass())
    assert state.current_region() == "Caledonia"
    state.apply(Pass())
    assert state.current_region() == "Din Eidyn"
    assert state.to_move() == 0  # seat 2 passed last: seat 0 starts the next one


def test_a_player_without_cards_can_only_pass() -> None:
    state = position(2, played=[list(DATA.deck), []])
    assert state.legal_moves() == [Pass()]
    refused(state, Play("crown"), "king-is-dead.turn.card-used")


def test_the_game_ends_after_the_last_struggle() -> None:
    resolved = ORDER[:-1]
    state = position(
        2, order=ORDER, control=dict.fromkeys(resolved, "welsh"), regions={ORDER[-1]: {"red": 1}}
    )
    events = _all_pass(state)
    assert events[-1].type == "game_over" and events[-1].params["reason"] == "control"
    assert state.to_move() is None and state.legal_moves() == []
    refused(state, Pass(), "core.game-over")


# -- the end by control: the ruling faction and the tie-breaks --------------------


def test_tied_factions_rank_by_the_most_recent_struggle_won() -> None:
    control = {
        "Caledonia": "scots",
        "Deva": "welsh",
        "Ratae": "scots",
        "Londinium": "welsh",
        "Eboracum": "saxons",
    }
    resolved = list(control)
    assert scoring.faction_ranking(control, resolved) == ["welsh", "scots"]
    assert scoring.faction_ranking(control, list(reversed(resolved))) == ["scots", "welsh"]


def _winners(courts: list[dict[str, int]], last_play: list[int], control: dict[str, str]) -> list[int]:
    won, _ = scoring.by_control(control, list(control), courts, last_play)
    return won


CONTROL = {"Caledonia": "welsh", "Deva": "scots", "Ratae": "welsh", "Londinium": "scots", "Eboracum": "welsh"}


def test_the_player_with_most_followers_of_the_ruling_faction_wins() -> None:
    assert _winners([{"red": 2}, {"red": 3}, {"blue": 9}], [1, 2, 3], CONTROL) == [1]


def test_a_tie_in_followers_goes_to_the_second_faction() -> None:
    assert _winners([{"red": 2, "blue": 1}, {"red": 2, "blue": 2}, {}], [1, 2, 3], CONTROL) == [1]


def test_a_tie_in_both_factions_is_lost_by_the_last_to_play_a_card() -> None:
    courts = [{"red": 2, "blue": 1}, {"red": 2, "blue": 1}, {"red": 2, "blue": 1}]
    assert _winners(courts, [5, 9, 7], CONTROL) == [0]
    # Only the second faction counts: the third does not break the tie.
    courts = [{"red": 2, "blue": 1, "yellow": 5}, {"red": 2, "blue": 1}]
    assert _winners(courts, [9, 5], CONTROL) == [1]


def test_four_players_the_ruler_shares_the_win_with_the_partner() -> None:
    state = position(
        4,
        order=ORDER,
        control=dict.fromkeys(ORDER[:-1], "romano-british"),
        regions={ORDER[-1]: {"yellow": 1}},
        courts=[{"yellow": 1}, {"yellow": 3}, {"yellow": 2}, {}],
    )
    _all_pass(state)
    out = state.outcome()
    assert out is not None and out.winners == [1, 3] and out.detail["ruler"] == [1]


# -- the end by invasion ------------------------------------------------------------


def _invasion(players: int, courts: list[dict[str, int]], played: list[list[str]]) -> KingIsDeadState:
    """Three Saxon tokens down and a tie in the current region."""
    return position(
        players,
        order=ORDER,
        control=dict.fromkeys(ORDER[:3], "saxons"),
        regions={ORDER[3]: {"blue": 1, "red": 1}, ORDER[4]: {"blue": 3}},
        courts=courts,
        played=played,
    )


def test_the_fourth_saxon_token_ends_the_game_at_once() -> None:
    state = _invasion(3, [{"blue": 1, "red": 1, "yellow": 1}, {}, {}], [[], [], []])
    events = _all_pass(state)
    assert [e.type for e in events][-2:] == ["struggle_resolved", "game_over"]
    out = state.outcome()
    assert out is not None and out.reason == "invasion" and out.winners == [0]
    assert state.control[ORDER[4]] is None  # the rest is never fought


def test_an_invasion_tie_goes_to_the_last_to_play_a_card() -> None:
    courts = [
        {"blue": 1, "red": 1, "yellow": 1},
        {"blue": 2, "red": 1, "yellow": 1},
        {"blue": 1, "red": 1, "yellow": 3},
    ]
    state = _invasion(3, courts, [["crown"], ["garrison"], []])
    _all_pass(state)
    out = state.outcome()
    assert out is not None and out.winners == [1]


def test_four_players_pool_their_followers_on_invasion() -> None:
    # Team 0+2 has two sets only together; team 1+3 has one in seat 1.
    courts = [{"blue": 2}, {"blue": 1, "red": 1, "yellow": 1}, {"red": 2, "yellow": 2}, {}]
    state = _invasion(4, courts, [[], [], [], []])
    _all_pass(state)
    out = state.outcome()
    assert out is not None and out.reason == "invasion" and out.winners == [0, 2]
    assert out.detail["team_sets"] == {"0": 2, "1": 1} and out.detail["decided_by"] == ["sets"]


def test_four_players_an_invasion_tie_goes_to_the_team_that_played_a_card_last() -> None:
    # One set each team; seat 3 played last, so seats 1 and 3 win together.
    set_ = {"blue": 1, "red": 1, "yellow": 1}
    state = _invasion(4, [set_, {}, {}, set_], [["crown"], [], [], ["garrison"]])
    _all_pass(state)
    out = state.outcome()
    assert out is not None and out.reason == "invasion" and out.winners == [1, 3]
    assert out.detail["team_sets"] == {"0": 1, "1": 1}
    assert out.detail["decided_by"] == ["sets", "last card played wins"]


def test_a_fourth_saxon_token_in_the_last_struggle_is_an_invasion() -> None:
    # The 8th struggle gives the 4th Saxon token: the invasion ending, with
    # its own winner (sets), not the end by control.
    state = position(
        3,
        order=ORDER,
        control={**dict.fromkeys(ORDER[:3], "saxons"), **dict.fromkeys(ORDER[3:7], "scots")},
        regions={ORDER[7]: {"blue": 1, "red": 1}},
        courts=[{"blue": 5}, {"blue": 1, "red": 1, "yellow": 1}, {}],
    )
    _all_pass(state)
    out = state.outcome()
    assert out is not None and out.reason == "invasion" and out.winners == [1]


# -- three players: the last card of the game ---------------------------------------

LAST_ORDER = [r for r in ORDER if r != "Londinium"] + ["Londinium"]
LAST_CONTROL = {
    "Caledonia": "scots",
    "Din Eidyn": "scots",
    "Eboracum": "scots",
    "Deva": "welsh",
    "Caerleon": "welsh",
    "Aquae Sulis": "welsh",
    "Ratae": "romano-british",
}


def _last_card(seat0_red: int) -> KingIsDeadState:
    """Seat 2 holds the only card left, the Welsh. Londinium, the last
    struggle, is a tie (a Saxon region) unless someone changes it."""
    rest = [c for c in DATA.deck if c != "welsh"]
    return position(
        3,
        order=LAST_ORDER,
        control=LAST_CONTROL,
        regions={"Londinium": {"yellow": 1, "red": 1}},
        reserve={"red": 5},
        courts=[{"red": seat0_red}, {"blue": 6}, {"red": 3, "blue": 1}],
        played=[list(DATA.deck), list(DATA.deck), rest],
        seat=2,
    )


def test_three_players_the_last_card_may_be_played_to_win() -> None:
    state = _last_card(seat0_red=4)
    assert Play("welsh") in state.legal_moves()
    state.apply(Play("welsh"))
    apply_all(state, Place("Londinium", "red"), Place("Londinium", "red"))
    # Summoning yellow leaves seat 2 behind seat 0 in red: not a winning way.
    assert state.legal_moves() == [Summon("Londinium", "red")]
    refused(state, Summon("Londinium", "yellow"), "king-is-dead.action.not-winning")
    state.apply(Summon("Londinium", "red"))
    while state.to_move() is not None:
        state.apply(Pass())
    out = state.outcome()
    assert out is not None and out.winners == [2]


def test_three_players_the_last_card_cannot_be_played_if_it_cannot_win() -> None:
    state = _last_card(seat0_red=6)
    assert state.legal_moves() == [Pass()]
    refused(state, Play("welsh"), "king-is-dead.turn.last-card")


def test_the_last_card_rule_is_for_three_players_only() -> None:
    four = position(
        4,
        order=LAST_ORDER,
        control=LAST_CONTROL,
        played=[list(DATA.deck)] * 3 + [[c for c in DATA.deck if c != "welsh"]],
        seat=3,
    )
    assert Play("welsh") in four.legal_moves()
