"""The rules core itself, on a toy game: atomic apply, chance, options, errors."""

from __future__ import annotations

import pytest

import rules
from rules import CHANCE, IllegalMove
from tests.rules.conformance import play
from tests.rules.toy_game import GAME, Deal, Take


def dealt(players: int = 2, seed: int = 1):
    state = GAME.new_game(players=players, seed=seed)
    while state.to_move() == CHANCE:
        state.apply(state.sample_chance())
    return state


def test_unknown_game_names_the_registered_ones() -> None:
    with pytest.raises(ValueError, match="registered games"):
        rules.get("chess")
    with pytest.raises(ValueError, match="registered games"):
        rules.get(["king-is-dead"])  # type: ignore[arg-type]


def test_options_are_validated_and_defaulted() -> None:
    assert GAME.new_game(players=2).options == {"stones": 7}
    with pytest.raises(ValueError, match="choose one of 5, 7"):
        GAME.new_game(players=2, options={"stones": 6})
    with pytest.raises(ValueError, match="allowed options: stones"):
        GAME.new_game(players=2, options={"pebbles": 5})
    with pytest.raises(ValueError, match="choose one of 2, 3"):
        GAME.new_game(players=4)


def test_illegal_move_changes_nothing_and_reads_as_a_sentence() -> None:
    state = dealt()
    before = state.copy()
    with pytest.raises(IllegalMove) as info:
        state.apply(Take(1, 1))
    assert state == before
    assert info.value.code == "toy.turn.not-yours"
    assert info.value.rule == "Turno"
    assert str(info.value) == "It is seat 0's turn."
    assert info.value.message("it") == "Tocca al posto 0."


def test_a_failing_apply_leaves_the_state_untouched(monkeypatch: pytest.MonkeyPatch) -> None:
    state = dealt()
    before = state.copy()

    def explode(self, move):
        self.pile = -99
        raise RuntimeError("boom")

    monkeypatch.setattr(type(state), "_apply", explode)
    with pytest.raises(RuntimeError):
        state.apply(Take(0, 1))
    assert state.pile == before.pile and state.history == before.history


def test_sample_chance_depends_only_on_seed_and_position() -> None:
    a, b = GAME.new_game(players=2, seed=5), GAME.new_game(players=2, seed=5)
    assert a.sample_chance() == b.sample_chance()
    before = a.to_json()
    a.sample_chance()
    assert a.to_json() == before
    with pytest.raises(ValueError):
        dealt().sample_chance()


def test_game_over_refuses_everything() -> None:
    state = dealt()
    while state.to_move() is not None:
        state.apply(state.legal_moves()[-1])
    assert state.legal_moves() == []
    with pytest.raises(IllegalMove) as info:
        state.check(Take(0, 1))
    assert info.value.code == "core.game-over"
    assert state.outcome() is not None


def test_state_json_replays_and_refuses_tampering() -> None:
    state = dealt()
    state.apply(Take(0, 2))
    data = state.to_json()
    assert GAME.state_from_json(data) == state
    with pytest.raises(ValueError, match="does not match"):
        GAME.state_from_json({**data, "state": {**data["state"], "pile": 1}})
    with pytest.raises(ValueError, match="illegal"):
        GAME.state_from_json({**data, "history": [*data["history"], {"type": "take", "seat": 0, "n": 1}]})


def test_views_are_per_seat() -> None:
    state = dealt()
    assert "token" in state.view(0) and "token" not in state.view(None)
    with pytest.raises(ValueError):
        state.view(5)


@pytest.mark.parametrize("seed", range(30))
def test_conformance_suite_passes_the_toy(seed: int) -> None:
    play(GAME, 2 + seed % 2, seed, {"stones": (5, 7)[seed % 2]})


def test_conformance_suite_catches_a_leaking_view(monkeypatch: pytest.MonkeyPatch) -> None:
    state_type = type(GAME.new_game(players=2))
    original = state_type._view

    def leaky(self, seat):
        return {**original(self, seat), "all": list(self.tokens)}

    monkeypatch.setattr(state_type, "_view", leaky)
    with pytest.raises(AssertionError, match="changes with"):
        for seed in range(10):
            play(GAME, 2, seed, {"stones": 7})


def test_conformance_suite_catches_a_sample_keeping_true_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    state_type = type(GAME.new_game(players=2))
    monkeypatch.setattr(state_type, "sample_unseen", lambda self, seat, rng: self._unseen_copy())
    with pytest.raises(AssertionError, match="depends on seat"):
        for seed in range(10):
            play(GAME, 2, seed, {"stones": 7})


def test_conformance_suite_catches_a_check_that_disagrees(monkeypatch: pytest.MonkeyPatch) -> None:
    state_type = type(GAME.new_game(players=2))
    monkeypatch.setattr(state_type, "_check", lambda self, move: None)
    with pytest.raises(AssertionError, match="accepted a move"):
        for seed in range(10):
            play(GAME, 2, seed, {"stones": 7})


def test_deal_outcome_json_roundtrip() -> None:
    assert GAME.move_from_json(Deal(2).to_json()) == Deal(2)


def test_data_errors_name_the_file_the_entry_and_the_line(tmp_path) -> None:
    from rules.datafile import DataError, read_json

    path = tmp_path / "map.json"
    path.write_text('{\n  "regions": {\n    "Deva": {"borders": ["Nowhere"]}\n  }\n}\n')
    err = DataError(path, "regions.Deva", "borders Nowhere, which is not a region")
    assert str(err) == "map.json: regions.Deva: borders Nowhere, which is not a region (line 3)"
    path.write_text('{\n  "regions": [,]\n}\n')
    with pytest.raises(DataError, match=r"map.json: line 2: not valid JSON"):
        read_json(path)
    with pytest.raises(DataError, match=r"nope.json: file: cannot be read"):
        read_json(tmp_path / "nope.json")
    path.write_text('{\n  "regions": {\n    "Deva": {}\n  }\n}\n')
    named_only = DataError("map.json", "regions.Deva", "bad")
    assert named_only.line is None
    assert named_only.located(tmp_path).line == 3


def test_an_event_is_a_frozen_value_with_its_own_params() -> None:
    # Event writes its fields itself (cheaper than the dataclass's __init__):
    # it must stay what the dataclass made it, equal by value and frozen.
    import dataclasses

    from rules.core import Event

    a, b = Event("moved"), Event("moved")
    assert a == b and a.params == {} and a.audience is None
    assert a.params is not b.params  # no shared default to leak between events
    assert Event("drew", {"card": 3}, audience=(1,)) == Event("drew", {"card": 3}, (1,))
    assert Event("drew", {"card": 3}) != Event("drew", {"card": 4})
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.type = "other"  # type: ignore[misc]
    assert dataclasses.replace(a, audience=(0,)).visible_to(0)
    assert repr(a) == "Event(type='moved', params={}, audience=None)"


def test_state_json_is_to_json_state() -> None:
    state = GAME.new_game(2, 1, {})
    assert state.state_json() == state.to_json()["state"]
