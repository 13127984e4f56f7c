"""Le Carte Azione: each card, its partial actions, the undo rule, the summon."""

from __future__ import annotations

from rules.king_is_dead.data import DATA
from rules.king_is_dead.moves import Crown, Into, Pass, Place, Play, Summon, Swap, Take
from tests.rules.king_is_dead.helpers import apply_all, followers, position, refused

# -- La Corona -----------------------------------------------------------------


def test_crown_swaps_two_face_up_cards_current_included_and_crowns_one() -> None:
    state = position(3, order=DATA.regions, seat=1)
    state.apply(Play("crown"))
    assert set(state.legal_moves()) == {Swap(r) for r in DATA.regions}
    apply_all(state, Swap("Caledonia"), Swap("Londinium"))
    assert set(state.legal_moves()) == {Crown("Caledonia"), Crown("Londinium")}
    refused(state, Crown("Deva"), "king-is-dead.crown.not-swapped")
    events = state.apply(Crown("Londinium"))
    assert [e.type for e in events] == ["cards_swapped", "crown_placed"]
    assert state.cards[0] == "Londinium" and state.cards[-1] == "Caledonia"
    assert state.current_region() == "Londinium"  # the struggle now is for Londinium
    assert state.crowns == {"Londinium": 1}
    assert state.view(None)["seats"][1]["crown_token"] is False
    assert state.step == "summon"


def test_a_crowned_card_cannot_be_swapped() -> None:
    state = position(3)
    state.crowns = {"Deva": 2}
    state.apply(Play("crown"))
    refused(state, Swap("Deva"), "king-is-dead.crown.card-crowned")
    state.apply(Swap("Ratae"))
    refused(state, Swap("Ratae"), "king-is-dead.crown.same-card")


def test_a_resolved_card_cannot_be_swapped() -> None:
    state = position(3, control={"Caledonia": "scots"})
    state.apply(Play("crown"))
    refused(state, Swap("Caledonia"), "king-is-dead.region.resolved")


# -- Guarnigione ---------------------------------------------------------------


def test_garrison_exchanges_two_followers_for_one_across_a_border() -> None:
    state = position(3, regions={"Deva": {"blue": 2, "red": 1}, "Ratae": {"yellow": 1}})
    state.apply(Play("garrison"))
    apply_all(state, Take("Deva", "blue"), Take("Deva", "red"))
    events = state.apply(Take("Ratae", "yellow"))
    assert [(e.params["from"], e.params["to"], e.params["colours"]) for e in events] == [
        ("Deva", "Ratae", ["blue", "red"]),
        ("Ratae", "Deva", ["yellow"]),
    ]
    assert followers(state, "Deva") == {"blue": 1, "yellow": 1}
    assert followers(state, "Ratae") == {"blue": 1, "red": 1}


def test_garrison_may_exchange_followers_of_one_faction() -> None:
    state = position(3, regions={"Deva": {"blue": 2}, "Ratae": {"blue": 1}})
    state.apply(Play("garrison"))
    apply_all(state, Take("Deva", "blue"), Take("Deva", "blue"), Take("Ratae", "blue"))
    assert followers(state, "Deva") == {"blue": 1} and followers(state, "Ratae") == {"blue": 2}


def test_garrison_takes_both_from_one_region_and_one_from_a_bordering_one() -> None:
    state = position(
        3, regions={"Deva": {"blue": 2, "red": 1}, "Ratae": {"yellow": 1}, "Londinium": {"red": 1}}
    )
    state.apply(Play("garrison"))
    state.apply(Take("Deva", "blue"))
    refused(state, Take("Ratae", "yellow"), "king-is-dead.garrison.same-region")
    state.apply(Take("Deva", "red"))
    refused(state, Take("Londinium", "red"), "king-is-dead.garrison.not-adjacent")
    refused(state, Take("Ratae", "red"), "king-is-dead.region.no-follower")


def test_partial_garrison_into_an_empty_bordering_region() -> None:
    # Only Caledonia has followers and its one neighbour is empty: the most
    # the card can do is move two of them there for nobody.
    state = position(3, regions={"Caledonia": {"blue": 3}})
    state.apply(Play("garrison"))
    apply_all(state, Take("Caledonia", "blue"), Take("Caledonia", "blue"))
    assert state.legal_moves() == [Into("Din Eidyn")]
    state.apply(Into("Din Eidyn"))
    assert followers(state, "Din Eidyn") == {"blue": 2}


def test_partial_garrison_one_for_one() -> None:
    # Two lone followers in bordering regions: one for one is the most.
    state = position(3, regions={"Deva": {"blue": 1}, "Ratae": {"red": 1}})
    state.apply(Play("garrison"))
    state.apply(Take("Deva", "blue"))
    refused(state, Into("Eboracum"), "king-is-dead.exchange.full-possible")
    state.apply(Take("Ratae", "red"))
    assert followers(state, "Deva") == {"red": 1} and followers(state, "Ratae") == {"blue": 1}


def test_garrison_with_nothing_to_exchange_is_played_for_the_summon() -> None:
    state = position(3, regions={})
    events = state.apply(Play("garrison"))
    assert [e.type for e in events] == ["card_played", "no_action"]
    assert state.step == "turn" and state.to_move() == 1  # nobody to summon either


# -- Ambasciatore --------------------------------------------------------------


def test_ambassador_exchanges_between_any_two_regions() -> None:
    state = position(3, regions={"Caledonia": {"blue": 1}, "Londinium": {"yellow": 1}})
    state.apply(Play("ambassador"))
    state.apply(Take("Caledonia", "blue"))
    refused(state, Take("Caledonia", "blue"), "king-is-dead.ambassador.same-region")
    state.apply(Take("Londinium", "yellow"))
    assert followers(state, "Caledonia") == {"yellow": 1}
    assert followers(state, "Londinium") == {"blue": 1}


def test_ambassador_needs_two_different_regions() -> None:
    state = position(3, regions={"Deva": {"blue": 2}, "Ratae": {"red": 1}})
    state.apply(Play("ambassador"))
    state.apply(Take("Deva", "blue"))
    refused(state, Take("Deva", "blue"), "king-is-dead.ambassador.same-region")


def test_exchanges_never_touch_resolved_regions() -> None:
    state = position(3, regions={"Deva": {"blue": 2}, "Ratae": {"red": 1}}, control={"Caledonia": "scots"})
    state.apply(Play("ambassador"))
    refused(state, Take("Caledonia", "blue"), "king-is-dead.region.resolved")
    state.apply(Take("Deva", "blue"))
    refused(state, Into("Caledonia"), "king-is-dead.region.resolved")


# -- the no-immediate-undo rule ------------------------------------------------

BOARD = {"Deva": {"blue": 2, "red": 1}, "Ratae": {"yellow": 2}, "Caledonia": {"blue": 3}}


def _garrison_then_summon(state) -> None:  # type: ignore[no-untyped-def]
    state.apply(Play("garrison"))
    apply_all(state, Take("Deva", "blue"), Take("Deva", "red"), Take("Ratae", "yellow"))
    state.apply(Summon("Caledonia", "blue"))


def test_garrison_cannot_undo_the_exchange_just_made() -> None:
    state = position(3, regions=BOARD)
    _garrison_then_summon(state)
    state.apply(Play("garrison"))
    apply_all(state, Take("Ratae", "blue"), Take("Ratae", "red"))
    refused(state, Take("Deva", "yellow"), "king-is-dead.exchange.undo")
    assert state.legal_moves() == [Take("Deva", "blue")]


def test_the_undo_rule_holds_across_cards() -> None:
    # An Ambassador exchange may not be undone at once by a one-for-one
    # Garrison either: the rule looks at what the exchange did.
    state = position(3, regions={"Deva": {"blue": 1}, "Ratae": {"red": 1}, "Caledonia": {"blue": 3}})
    state.apply(Play("ambassador"))
    apply_all(state, Take("Deva", "blue"), Take("Ratae", "red"), Summon("Caledonia", "blue"))
    state.apply(Play("garrison"))
    refused(state, Take("Deva", "red"), "king-is-dead.exchange.undo")
    # What is left is the partial garrison out of Caledonia.
    assert state.legal_moves() == [Take("Caledonia", "blue")]


def test_a_pass_in_between_does_not_lift_the_undo_rule() -> None:
    state = position(3, regions=BOARD)
    _garrison_then_summon(state)
    state.apply(Pass())
    state.apply(Play("garrison"))
    apply_all(state, Take("Ratae", "blue"), Take("Ratae", "red"))
    refused(state, Take("Deva", "yellow"), "king-is-dead.exchange.undo")


def test_another_card_in_between_lifts_the_undo_rule() -> None:
    state = position(3, regions=BOARD, reserve={"blue": 1, "red": 1, "yellow": 1})
    _garrison_then_summon(state)
    state.apply(Play("settlement"))
    apply_all(state, Place("Londinium", "blue"), Place("Londinium", "red"), Place("Londinium", "yellow"))
    state.apply(Summon("Londinium", "red"))
    state.apply(Play("garrison"))
    apply_all(state, Take("Ratae", "blue"), Take("Ratae", "red"), Take("Deva", "yellow"))
    assert followers(state, "Deva") == {"blue": 2, "red": 1}


def test_a_resolved_struggle_lifts_the_undo_rule() -> None:
    state = position(3, regions=BOARD, order=["Londinium", *[r for r in DATA.regions if r != "Londinium"]])
    _garrison_then_summon(state)
    assert state.view(None)["last_exchange"]
    apply_all(state, Pass(), Pass(), Pass())  # Londinium resolved
    assert state.view(None)["last_exchange"] is None
    state.apply(Play("garrison"))
    apply_all(state, Take("Ratae", "blue"), Take("Ratae", "red"), Take("Deva", "yellow"))


# -- Insediamenti --------------------------------------------------------------


def test_settlement_places_one_follower_of_each_faction_anywhere_unresolved() -> None:
    state = position(3, regions={}, reserve={"blue": 4, "red": 4, "yellow": 4}, control={"Deva": "welsh"})
    state.apply(Play("settlement"))
    assert {m.region for m in state.legal_moves()} == set(DATA.regions) - {"Deva"}
    refused(state, Place("Deva", "blue"), "king-is-dead.region.resolved")
    apply_all(state, Place("Ratae", "blue"), Place("Ratae", "red"), Place("Londinium", "yellow"))
    assert followers(state, "Ratae") == {"blue": 1, "red": 1}
    assert state.reserve == {"blue": 3, "red": 3, "yellow": 3}
    # The summon may take a follower just placed.
    assert set(state.legal_moves()) == {
        Summon("Ratae", "blue"),
        Summon("Ratae", "red"),
        Summon("Londinium", "yellow"),
    }


def test_each_player_has_two_settlements_and_one_of_every_other_card() -> None:
    state = position(2, regions={}, reserve={})
    for card in ("settlement", "settlement"):
        state.seat = 0
        state.apply(Play(card))
    state.seat = 0
    exc = refused(state, Play("settlement"), "king-is-dead.turn.card-used")
    assert exc.rule == "Eseguire le Azioni"  # "non può più essere utilizzata"
    state.piles[0].append("crown")
    state._memo = {}
    refused(state, Play("crown"), "king-is-dead.turn.card-used")
    assert state.view(0)["hand"] == ["garrison", "ambassador", "scots", "welsh", "romano-british"]


# -- Scozzesi, Gallesi, Romano-Britannici ----------------------------------------


def test_faction_card_places_two_next_to_an_unresolved_home() -> None:
    # Caledonia, unresolved, counts as Scots: its neighbour Din Eidyn
    # qualifies, Caledonia itself does not (it borders no other Scots region).
    state = position(3, regions={}, reserve={"blue": 5})
    state.apply(Play("scots"))
    assert state.legal_moves() == [Place("Din Eidyn", "blue")]
    refused(state, Place("Caledonia", "blue"), "king-is-dead.place.not-bordering")
    refused(state, Place("Din Eidyn", "red"), "king-is-dead.place.colour")
    apply_all(state, Place("Din Eidyn", "blue"), Place("Din Eidyn", "blue"))
    assert followers(state, "Din Eidyn") == {"blue": 2} and state.reserve["blue"] == 3


def test_faction_card_reaches_the_home_through_another_controlled_region() -> None:
    state = position(3, regions={}, reserve={"blue": 5}, control={"Din Eidyn": "scots"})
    state.apply(Play("scots"))
    # Din Eidyn is Scots: its unresolved neighbours qualify, Caledonia too.
    assert {m.region for m in state.legal_moves()} == {"Caledonia", "Deva", "Eboracum"}


def test_a_home_resolved_for_another_faction_no_longer_counts() -> None:
    state = position(3, regions={}, reserve={"red": 5}, control={"Caerleon": "scots", "Londinium": "welsh"})
    state.apply(Play("welsh"))
    assert {m.region for m in state.legal_moves()} == {"Eboracum", "Ratae", "Aquae Sulis"}


def test_faction_card_places_the_last_follower_of_its_colour() -> None:
    state = position(3, regions={}, reserve={"yellow": 1})
    state.apply(Play("romano-british"))
    assert {m.region for m in state.legal_moves()} == {"Eboracum", "Ratae", "Aquae Sulis"}
    state.apply(Place("Ratae", "yellow"))
    assert state.step == "summon"


def test_faction_card_with_an_empty_reserve_does_nothing() -> None:
    state = position(3, reserve={"blue": 0, "red": 3})
    events = state.apply(Play("scots"))
    assert [e.type for e in events] == ["card_played", "no_action"]


# -- the summon ------------------------------------------------------------------


def test_summon_takes_any_follower_from_an_unresolved_region_into_the_court() -> None:
    state = position(3, regions={"Deva": {"red": 1}, "Londinium": {"yellow": 2}}, reserve={"blue": 9})
    state.apply(Play("ambassador"))
    apply_all(state, Take("Deva", "red"), Take("Londinium", "yellow"))
    # Never from the reserve (blue is only there) or a court.
    assert set(state.legal_moves()) == {
        Summon("Deva", "yellow"),
        Summon("Londinium", "yellow"),
        Summon("Londinium", "red"),
    }
    refused(state, Summon("Ratae", "blue"), "king-is-dead.region.no-follower")
    court = dict(state.courts[0])
    events = state.apply(Summon("Deva", "yellow"))
    assert events[0].params == {"seat": 0, "region": "Deva", "colour": "yellow"}
    assert state.courts[0]["yellow"] == court["yellow"] + 1
    assert state.to_move() == 1 and state.step == "turn"


def test_a_card_is_played_at_once_even_when_the_struggle_was_about_to_end() -> None:
    # Playing a card (even one that does nothing) keeps the struggle going.
    state = position(2, regions={"Caledonia": {"blue": 1}}, reserve={})
    state.apply(Pass())
    state.apply(Play("settlement"))
    assert state.passes == 0 and state.step == "summon"
