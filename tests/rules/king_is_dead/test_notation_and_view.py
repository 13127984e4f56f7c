"""The notation (NOTATION.md) and what each view shows."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from rules.king_is_dead import GAME
from rules.king_is_dead.moves import MOVE_TYPES, Pass, Play, Summon, Take
from tests.rules.king_is_dead.helpers import apply_all, position, set_up

NOTATION = Path(__file__).parents[3] / "rules" / "king_is_dead" / "NOTATION.md"


def _documented_moves() -> list[dict]:  # type: ignore[type-arg]
    blocks = re.findall(r"```json\n(.*?)```", NOTATION.read_text(), re.S)
    return [json.loads(line) for block in blocks for line in block.splitlines() if line.strip()]


def test_every_documented_move_parses_and_round_trips() -> None:
    documented = _documented_moves()
    assert {d["type"] for d in documented} == set(MOVE_TYPES)
    for data in documented:
        assert GAME.move_from_json(data).to_json() == data


def test_the_events_table_lists_exactly_the_events_games_give() -> None:
    table = NOTATION.read_text().split("## Events", 1)[1].split("##", 1)[0]
    documented = set(re.findall(r"^\| `([a-z_]+)` \|", table, re.M))
    seen: set[str] = set()
    for seed in range(40):
        rng = random.Random(seed)
        state = GAME.new_game(2 + seed % 3, seed, {"mordred": seed % 2 == 1})
        while state.to_move() is not None:
            move = state.sample_chance() if state.is_chance() else rng.choice(state.legal_moves())
            seen.update(e.type for e in state.apply(move))
    assert seen == documented


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"type": "summon", "region": "Deva"}, "move 'summon' is missing colour"),
        ({"type": "pass", "seat": 1}, "unknown field"),
        ({"type": "take", "region": "Avalon", "colour": "red"}, "region 'Avalon' is not one of"),
        ({"type": "place", "region": "Deva", "colour": "green"}, "colour 'green'"),
        ({"type": "play", "card": "king"}, "card 'king'"),
        ({"type": "play", "card": ["crown"]}, "card ['crown']"),
        ({"type": "resign"}, "unknown king-is-dead move type 'resign'"),
        ("pass", "must be a JSON object"),
    ],
)
def test_malformed_moves_are_refused_saying_what_is_wrong(data: object, message: str) -> None:
    with pytest.raises(ValueError) as info:
        GAME.move_from_json(data)
    assert message in str(info.value)


def test_courts_and_the_board_are_public_the_hand_is_its_owners() -> None:
    state = position(3, regions={"Deva": {"red": 2}})
    apply_all(state, Play("garrison"))
    public = state.view(None)
    assert public["seats"][0]["top_card"] == "garrison" and public["seats"][0]["cards_played"] == 1
    assert public["seats"][1]["court"] == state.courts[1]
    assert "hand" not in public
    mine, theirs = state.view(0), state.view(1)
    assert "garrison" not in mine["hand"] and len(mine["hand"]) == 7
    assert len(theirs["hand"]) == 8
    assert {k: v for k, v in mine.items() if k not in ("seat", "hand")} == public


def test_the_view_says_what_is_being_asked() -> None:
    state = position(3, regions={"Deva": {"red": 2, "blue": 1}, "Ratae": {"yellow": 1}})
    state.apply(Play("garrison"))
    state.apply(Take("Deva", "red"))
    view = state.view(None)
    assert view["step"] == "action" and view["to_move"] == 0
    assert view["pending"] == {
        "seat": 0,
        "card": "garrison",
        "picks": [{"type": "take", "region": "Deva", "colour": "red"}],
    }
    fresh = GAME.new_game(2, seed=1).view(None)
    assert fresh["to_move"] == "chance" and fresh["draw"] == {"seat": 0}


def test_only_the_cards_under_the_top_one_are_secret() -> None:
    state = position(3, regions={"Deva": {"red": 3}})
    for card in ("settlement", "garrison", "ambassador"):
        state.seat = 0
        state._memo = {}
        state.apply(Play(card))
        while state.step != "turn":
            state.apply(state.legal_moves()[0])
    other = state.perturb_secrets(0, random.Random(1))
    assert other is not None and other.piles[0][-1] == "ambassador" and len(other.piles[0]) == 3
    for seat in (None, 1, 2):
        assert other.view(seat) == state.view(seat)
    assert state.perturb_secrets(1, random.Random(1)) is None  # nothing played, nothing hidden


def test_a_copy_is_independent_of_its_original() -> None:
    state = set_up(4, seed=5)
    before = state.to_json()
    other = state.copy()
    rng = random.Random(5)
    while other.to_move() is not None:
        other.apply(other.sample_chance() if other.is_chance() else rng.choice(other.legal_moves()))
    assert state.to_json() == before


def test_a_game_replays_from_its_json() -> None:
    state = set_up(3, seed=8)
    rng = random.Random(8)
    for _ in range(60):
        state.apply(rng.choice(state.legal_moves()))
    rebuilt = GAME.state_from_json(json.loads(json.dumps(state.to_json())))
    assert rebuilt == state and rebuilt.view(None) == state.view(None)


def test_pass_and_summon_read_well_in_a_journal() -> None:
    assert Pass().to_json() == {"type": "pass"}
    assert Summon("Aquae Sulis", "yellow").to_json() == {
        "type": "summon",
        "region": "Aquae Sulis",
        "colour": "yellow",
    }
