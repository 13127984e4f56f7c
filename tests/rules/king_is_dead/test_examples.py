"""Every example in the rulebook, one named test each."""

from __future__ import annotations

from rules.king_is_dead.data import DATA
from rules.king_is_dead.moves import Into, Pass, Place, Play, Summon, Take
from rules.king_is_dead.state import KingIsDeadState
from tests.rules.king_is_dead.helpers import apply_all, followers, position, refused, set_up

PHIL, JO, LAURA = 0, 1, 2


def _play_any(state: KingIsDeadState, card: str) -> None:
    """Play ``card`` and complete it with the first listed pick each step."""
    seat = state.to_move()
    state.apply(Play(card))
    while state.step in ("action", "summon"):
        state.apply(state.legal_moves()[0])
    assert state.to_move() != seat


def test_example_power_struggle() -> None:
    # Phil, Jo and Laura: Phil passes, then Jo passes.
    state = set_up(3)
    first = state.current_region()
    apply_all(state, Pass(), Pass())
    # Had Laura passed, the struggle would have ended at once, no card played.
    if_laura_passed = state.copy()
    events = if_laura_passed.apply(Pass())
    assert [e.params["region"] for e in events if e.type == "struggle_resolved"] == [first]
    # Laura plays instead: the struggle goes on.
    _play_any(state, "settlement")
    assert state.current_region() == first and state.to_move() == PHIL
    state.apply(Pass())  # Phil passes again
    _play_any(state, "settlement")  # Jo plays
    assert state.current_region() == first
    apply_all(state, Pass(), Pass())  # Laura passes, Phil passes a third time
    assert state.current_region() == first
    events = state.apply(Pass())  # Jo passes: the struggle ends at once
    assert any(e.type == "struggle_resolved" and e.params["region"] == first for e in events)
    # The next struggle starts with Laura.
    assert state.current_region() == state.cards[1]
    assert state.to_move() == LAURA


def test_example_partial_settlement_without_blue() -> None:
    # Jo plays a Settlement with no blue follower left in the reserve: she
    # still places a red and a yellow one, then summons.
    state = position(3, reserve={"red": 3, "yellow": 2}, seat=JO)
    state.apply(Play("settlement"))
    assert {m.colour for m in state.legal_moves()} == {"red"}
    refused(state, Place("Deva", "blue"), "king-is-dead.place.colour")
    before = {r: dict(state.regions[r]) for r in ("Deva", "Ratae")}
    apply_all(state, Place("Deva", "red"), Place("Ratae", "yellow"))
    assert state.regions["Deva"]["red"] == before["Deva"]["red"] + 1
    assert state.regions["Ratae"]["yellow"] == before["Ratae"]["yellow"] + 1
    assert state.reserve == {"blue": 0, "red": 2, "yellow": 1}
    assert state.step == "summon" and state.to_move() == JO


def test_example_partial_welsh_with_nothing_to_do() -> None:
    # Laura plays the Welsh card, but no region is Welsh and the Scots took
    # Caerleon: the card is played to no effect and she summons a follower.
    state = position(3, control={"Caerleon": "scots"}, reserve={"red": 5}, seat=LAURA)
    events = state.apply(Play("welsh"))
    assert [e.type for e in events] == ["card_played", "no_action"]
    assert state.step == "summon" and state.to_move() == LAURA
    assert state.reserve["red"] == 5
    assert state.piles[LAURA] == ["welsh"]


def _three_struggles_left(third: dict[str, int]) -> KingIsDeadState:
    """Only Deva, Ratae and Londinium unresolved; Deva is empty."""
    resolved = [r for r in DATA.regions if r not in ("Deva", "Ratae", "Londinium")]
    return position(
        3,
        regions={"Ratae": {"blue": 2, "red": 1}, "Londinium": third},
        order=[*resolved, "Deva", "Ratae", "Londinium"],
        control=dict.fromkeys(resolved, "welsh"),
        seat=PHIL,
    )


def test_example_partial_ambassador_with_an_empty_region() -> None:
    # Three struggles left, Deva empty: Phil would like to move a follower
    # there for nobody. Londinium has a follower, so he must exchange
    # between Ratae and Londinium instead.
    state = _three_struggles_left({"yellow": 1})
    state.apply(Play("ambassador"))
    state.apply(Take("Ratae", "blue"))
    refused(state, Into("Deva"), "king-is-dead.exchange.full-possible")
    assert state.legal_moves() == [Take("Londinium", "yellow")]
    state.apply(Take("Londinium", "yellow"))
    assert followers(state, "Ratae") == {"blue": 1, "red": 1, "yellow": 1}
    assert followers(state, "Londinium") == {"blue": 1}
    # He then summons, and may take one of the followers just exchanged.
    assert Summon("Londinium", "blue") in state.legal_moves()
    state.apply(Summon("Londinium", "blue"))
    assert state.courts[PHIL]["blue"] >= 1


def test_example_partial_ambassador_allowed_when_the_third_region_is_empty() -> None:
    # The same, but Londinium empty too: the exchange with nobody is allowed.
    state = _three_struggles_left({})
    state.apply(Play("ambassador"))
    assert set(state.legal_moves()) == {Take("Ratae", "blue"), Take("Ratae", "red")}
    state.apply(Take("Ratae", "blue"))
    assert set(state.legal_moves()) == {Into("Deva"), Into("Londinium")}
    state.apply(Into("Deva"))
    assert followers(state, "Deva") == {"blue": 1}
    assert followers(state, "Ratae") == {"blue": 1, "red": 1}


def test_example_partial_crown_in_the_last_struggle() -> None:
    # The last struggle: Alysa plays the Crown. No other region card is left
    # to swap with the current one, so she does nothing and summons.
    resolved = [r for r in DATA.regions if r != "Ratae"]
    alysa = 3
    state = position(
        4,
        regions={"Ratae": {"red": 2}},
        order=[*resolved, "Ratae"],
        control=dict.fromkeys(resolved, "scots"),
        seat=alysa,
    )
    events = state.apply(Play("crown"))
    assert [e.type for e in events] == ["card_played", "no_action"]
    assert state.crowns == {}
    assert state.legal_moves() == [Summon("Ratae", "red")]


# The end-game example shows two courts in a picture the text lacks; these
# courts fit every sentence of it: Phil has more blue, Laura more yellow,
# red is even, and Laura has three sets to Phil's two.
LAURA_COURT = {"blue": 3, "red": 3, "yellow": 4}
PHIL_COURT = {"blue": 4, "red": 3, "yellow": 2}
LAURA_2P, PHIL_2P = 0, 1


def _last_struggle(control: dict[str, str], last: dict[str, int]) -> KingIsDeadState:
    """Two players, every region resolved but the last, which ``last`` fills."""
    final = next(r for r in DATA.regions if r not in control)
    return position(
        2,
        regions={final: last},
        order=[*control, final],
        control=control,
        courts=[LAURA_COURT, PHIL_COURT],
        played=[["crown"], ["garrison"]],
    )


def _end(state: KingIsDeadState) -> tuple[list[int], str]:
    apply_all(state, Pass(), Pass())
    out = state.outcome()
    assert out is not None
    return out.winners, out.reason


def _control(scots: int, welsh: int, rb: int, saxons: int = 0) -> dict[str, str]:
    owners = ["scots"] * scots + ["welsh"] * welsh + ["romano-british"] * rb + ["saxons"] * saxons
    return dict(zip(DATA.regions, owners, strict=False))


def test_example_end_game_scots_in_power() -> None:
    # The Scots control the board: Phil wins, having more blue followers.
    state = _last_struggle(_control(4, 2, 1), {"blue": 1})
    assert _end(state) == ([PHIL_2P], "control")


def test_example_end_game_welsh_in_power_scots_second() -> None:
    # The Welsh are in power, red is even: the Scots rank second, so Phil.
    state = _last_struggle(_control(2, 4, 1), {"red": 1})
    assert _end(state) == ([PHIL_2P], "control")


def test_example_end_game_welsh_in_power_romano_british_second() -> None:
    # The Welsh are in power, red is even: the Romano-British rank second,
    # so Laura, who has more yellow followers.
    state = _last_struggle(_control(1, 4, 2), {"red": 1})
    assert _end(state) == ([LAURA_2P], "control")


def test_example_end_game_invasion() -> None:
    # The Saxons invade: Laura wins with three complete sets to Phil's two.
    state = _last_struggle(_control(2, 2, 0, saxons=3), {"blue": 1, "red": 1})
    assert _end(state) == ([LAURA_2P], "invasion")
