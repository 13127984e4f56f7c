"""Every registered game passes the same conformance playouts.

``TABLEKEEPER_PLAYOUTS`` sets the games per option combination (default 300,
which keeps the whole suite within minutes; the session fuzzers, power cuts and
soak in tests/reliability play whole games through the table as well); the
test ids name the game, so ``pytest -k mordred`` runs one game.
"""

from __future__ import annotations

import os

import pytest

import rules
from tests.rules.conformance import play, scenarios

PLAYOUTS = int(os.environ.get("TABLEKEEPER_PLAYOUTS", "300"))
BATCH = 50


def _batches() -> list[tuple[str, int]]:
    out = []
    for game_id, game in rules.GAMES.items():
        total = PLAYOUTS * len(game.option_combinations())
        out.extend((game_id, start) for start in range(0, total, BATCH))
    return out


@pytest.mark.parametrize(("game_id", "start"), _batches(), ids=lambda v: str(v))
def test_random_playouts(game_id: str, start: int) -> None:
    game = rules.get(game_id)
    chosen = list(scenarios(game, PLAYOUTS))[start : start + BATCH]
    for players, seed, options in chosen:
        try:
            play(game, players, seed, options)
        except AssertionError as exc:
            raise AssertionError(f"{game_id} players={players} seed={seed} options={options}: {exc}") from exc


@pytest.mark.parametrize("game_id", list(rules.GAMES))
def test_new_game_refuses_bad_arguments(game_id: str) -> None:
    game = rules.get(game_id)
    bad_count = max(game.player_counts) + 1
    with pytest.raises(ValueError, match="players"):
        game.new_game(players=bad_count, seed=1)
    with pytest.raises(ValueError, match="option"):
        game.new_game(players=game.player_counts[0], seed=1, options={"no-such-option": 1})
    for option in game.options:
        with pytest.raises(ValueError, match=option.name):
            game.new_game(players=game.player_counts[0], seed=1, options={option.name: object()})


@pytest.mark.parametrize("game_id", list(rules.GAMES))
@pytest.mark.parametrize("garbage", [None, 3, "pass", [], {}, {"type": "no-such-move"}, {"type": 5}])
def test_move_from_json_refuses_garbage(game_id: str, garbage: object) -> None:
    with pytest.raises(ValueError):
        rules.get(game_id).move_from_json(garbage)


@pytest.mark.parametrize("game_id", list(rules.GAMES))
def test_state_from_json_refuses_tampering(game_id: str) -> None:
    game = rules.get(game_id)
    state = game.new_game(players=game.player_counts[0], seed=7)
    for _ in range(5):
        if state.to_move() is None:
            break
        state.apply(state.sample_chance() if state.is_chance() else state.legal_moves()[0])
    data = state.to_json()
    with pytest.raises(ValueError):
        game.state_from_json({**data, "game": "no-such-game"})
    with pytest.raises(ValueError):
        game.state_from_json({k: v for k, v in data.items() if k != "history"})
    with pytest.raises(ValueError):
        game.state_from_json({**data, "state": {"tampered": True}})


@pytest.mark.parametrize("game_id", list(rules.GAMES))
def test_every_setup_starts_and_none_repeats_another(game_id: str) -> None:
    game = rules.get(game_id)
    setups = game.setups()
    assert len({(n, tuple(sorted(o.items()))) for n, o in setups}) == len(setups)
    for players, options in setups:
        assert game.new_game(players, seed=1, options=options).players == players


def test_mordreds_unofficial_option_is_its_own_two_player_setup() -> None:
    setups = rules.get("mordred").setups()
    assert (2, {"unofficial_two_players": True}) in setups
    assert (3, {"unofficial_two_players": True}) not in setups
    assert sorted(n for n, _ in setups) == [2, 3, 4]
