"""La Variante Mordred: loyalists, banners and the loyalist ending."""

from __future__ import annotations

import pytest

from rules.king_is_dead import scoring
from rules.king_is_dead.data import DATA
from rules.king_is_dead.moves import Pass, Place, Play, Summon, Take
from rules.king_is_dead.state import KingIsDeadState
from tests.rules.king_is_dead.helpers import apply_all, followers, position, refused

ORDER = list(DATA.regions)


def _all_pass(state: KingIsDeadState) -> list:  # type: ignore[type-arg]
    events = []
    for _ in range(state.players):
        events += state.apply(Pass())
    return events


@pytest.mark.parametrize(
    ("resolved", "banner"),
    [
        ("Caledonia", "Aquae Sulis"),
        ("Din Eidyn", "Aquae Sulis"),
        ("Ratae", "Aquae Sulis"),
        ("Deva", "Aquae Sulis"),
        ("Caerleon", "Din Eidyn"),
        ("Eboracum", "Din Eidyn"),
        ("Londinium", "Din Eidyn"),
        ("Aquae Sulis", "Din Eidyn"),
    ],
)
def test_each_resolution_adds_a_loyalist_under_its_banner(resolved: str, banner: str) -> None:
    order = [resolved, *[r for r in ORDER if r != resolved]]
    state = position(3, mordred=True, regions={resolved: {"blue": 1}}, order=order)
    supply = state.loyalist_supply
    events = _all_pass(state)
    assert events[-1].type == "loyalist_added" and events[-1].params == {"region": banner}
    assert state.regions[banner]["black"] == 1
    assert state.loyalist_supply == supply - 1


def test_no_loyalist_goes_to_a_resolved_banner_region() -> None:
    state = position(3, mordred=True, regions={"Deva": {"blue": 1}}, order=["Deva", *ORDER])
    state.control["Aquae Sulis"] = "welsh"
    state.resolved.append("Aquae Sulis")
    events = _all_pass(state)
    assert "loyalist_added" not in [e.type for e in events]


def test_loyalists_count_for_control_and_a_tie_with_them_is_saxon() -> None:
    state = position(3, mordred=True, regions={"Caledonia": {"black": 2, "blue": 2}}, order=ORDER)
    _all_pass(state)
    assert state.control["Caledonia"] == "saxons"
    # Back to the box, never to the reserve; then one goes under the banner.
    assert state.loyalist_supply == 9 - 2 + 2 - 1
    assert state.reserve["blue"] >= 2


def test_the_loyalists_winning_a_struggle_end_the_game_at_once() -> None:
    state = position(
        3,
        mordred=True,
        regions={"Din Eidyn": {"black": 2, "red": 1}},
        order=["Caledonia", "Din Eidyn", *ORDER[2:]],
        control={"Caledonia": "scots"},
        courts=[{"blue": 2}, {"blue": 1}, {"red": 5}],
    )
    events = _all_pass(state)
    assert events[-1].type == "game_over"
    out = state.outcome()
    assert out is not None and out.reason == "loyalists" and out.winners == [0]


def test_no_loyalist_is_added_when_none_is_left_in_the_box() -> None:
    state = position(3, mordred=True, regions={"Caledonia": {"blue": 1}}, order=ORDER)
    state.loyalist_supply = 0
    events = _all_pass(state)
    assert "loyalist_added" not in [e.type for e in events]
    assert state.regions["Aquae Sulis"]["black"] == 0


def test_in_the_loyalist_ending_an_unresolved_home_is_no_factions() -> None:
    # The loyalists take Din Eidyn, the second struggle. Only the Scots hold
    # a region (a control token); Londinium, the Romano-British home, is
    # still unresolved and does not count, so no second faction breaks the
    # Scots tie: the most followers at court wins (seat 0, 6 to 5).
    state = position(
        3,
        mordred=True,
        regions={"Din Eidyn": {"black": 1}, "Londinium": {"yellow": 2}},
        order=["Caledonia", "Din Eidyn", *ORDER[2:]],
        control={"Caledonia": "scots"},
        courts=[{"blue": 2, "red": 4}, {"blue": 2, "yellow": 3}, {"yellow": 4}],
    )
    _all_pass(state)
    out = state.outcome()
    assert out is not None and out.reason == "loyalists" and out.winners == [0]
    assert out.detail["ranking"] == ["scots"]
    assert out.detail["decided_by"] == ["scots", "total followers"]


def test_loyalists_can_be_exchanged_but_never_summoned_or_placed() -> None:
    state = position(
        3, mordred=True, regions={"Deva": {"black": 1}, "Ratae": {"red": 1}}, reserve={"blue": 1}
    )
    state.apply(Play("ambassador"))
    apply_all(state, Take("Deva", "black"), Take("Ratae", "red"))
    assert followers(state, "Ratae") == {"black": 1}
    refused(state, Summon("Ratae", "black"), "king-is-dead.summon.loyalist")
    state.apply(Summon("Deva", "red"))
    state.apply(Play("settlement"))
    refused(state, Place("Deva", "black"), "king-is-dead.place.colour")


def test_the_loyalist_ending_without_a_faction_goes_to_the_most_followers() -> None:
    # The loyalists take the very first region: no faction holds any, so the
    # factions unite and the biggest court wins.
    won, detail = scoring.by_control(
        {"Din Eidyn": "loyalists"},
        ["Din Eidyn"],
        [{"blue": 3}, {"red": 2, "yellow": 2}],
        [1, 2],
        loyalists=True,
    )
    assert won == [1] and "total followers" in detail["decided_by"]


def test_the_loyalist_ending_tie_goes_to_the_last_to_play() -> None:
    won, _ = scoring.by_control(
        {"Din Eidyn": "loyalists"}, ["Din Eidyn"], [{"blue": 2}, {"red": 2}], [7, 4], loyalists=True
    )
    assert won == [0]


def test_the_loyalist_ending_with_one_faction_and_a_tie_uses_all_followers() -> None:
    control = {"Caledonia": "scots", "Din Eidyn": "loyalists"}
    won, _ = scoring.by_control(control, list(control), [{"blue": 2}, {"blue": 2, "red": 1}], [1, 2], True)
    assert won == [1]


def test_the_loyalist_ending_with_two_factions_is_decided_as_by_control() -> None:
    control = {"Caledonia": "scots", "Deva": "welsh", "Din Eidyn": "loyalists"}
    courts = [{"blue": 3, "red": 1}, {"blue": 1, "red": 1}]
    won, detail = scoring.by_control(control, list(control), courts, [3, 4], True)
    assert won == [0] and detail["decided_by"] == ["welsh", "scots"]


def test_the_loyalist_ending_last_tie_goes_to_the_last_to_play_even_with_two_factions() -> None:
    # "Se c'è ancora parità, il giocatore che ha giocato per ultimo una
    # Carta Azione vince": the variant's exception replaces the control
    # ending's "per ultimo perde", also when both factions were counted.
    control = {"Caledonia": "scots", "Deva": "welsh", "Din Eidyn": "loyalists"}
    courts = [{"blue": 2, "red": 1}, {"blue": 2, "red": 1}]
    won, detail = scoring.by_control(control, list(control), courts, [3, 4], True)
    assert won == [1] and detail["decided_by"] == ["welsh", "scots", "last card played wins"]
    # The same courts at the end by control: the last to play loses.
    won, _ = scoring.by_control(control, list(control), courts, [3, 4])
    assert won == [0]
