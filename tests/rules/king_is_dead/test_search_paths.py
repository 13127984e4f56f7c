"""The paths the computer's search takes through the engine, held to the
plain ones: ``play_listed`` (no events made) changes a position exactly as
``apply`` does, the moves' kept hashes are a frozen dataclass's own, and an
exchange's net effect looked up by its picks is the one worked out."""

from __future__ import annotations

import random
from dataclasses import astuple

import pytest

from rules.core import CHANCE
from rules.king_is_dead import GAME, actions, moves
from rules.king_is_dead.state import KingIsDeadState


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("mordred", [False, True])
def test_play_listed_changes_a_position_as_apply_does(players: int, mordred: bool) -> None:
    played = 0
    for seed in range(3):
        rng = random.Random(seed)
        applied = GAME.new_game(players, seed, {"mordred": mordred})
        listed = applied.copy()
        while (seat := applied.to_move()) is not None:
            legal = applied.legal_moves()
            assert listed.legal_moves() == legal
            move = applied.sample_chance() if seat == CHANCE else rng.choice(legal)
            events = applied.apply(move)
            if move == moves.PASS:  # apply still tells what happened
                assert events[0].type == "passed"
            listed.play_listed(move)
            assert listed.to_json() == applied.to_json(), (seed, played, move)
            played += 1
        assert listed.outcome() == applied.outcome()
    assert played > 300


def test_the_moves_keep_a_frozen_dataclasss_hash() -> None:
    tables = (moves.PLAYS, moves.SWAPS, moves.CROWNS, moves.INTOS, moves.TAKES, moves.PLACES, moves.SUMMONS)
    prebuilt = [moves.PASS, *(m for table in tables for m in table.values())]
    for move in prebuilt:
        assert hash(move) == hash(astuple(move)), move
        again = moves.move_from_json(move.to_json())  # made afresh, as read from a player
        assert again == move and hash(again) == hash(move)
    assert hash(moves.Draw("blue")) == hash(("blue",))


def test_an_exchanges_net_effect_looked_up_is_the_one_worked_out() -> None:
    checked = 0
    for seed in range(2):
        state = GAME.new_game(3, seed, {})
        rng = random.Random(seed)
        while (seat := state.to_move()) is not None:
            if seat != CHANCE:
                assert isinstance(state, KingIsDeadState)
                for card in ("garrison", "ambassador"):
                    for picks in actions.options(card, state.board()):
                        assert actions.exchange_effect(picks) == actions.net_effect(actions.transfers(picks))
                        checked += 1
            state.apply(state.sample_chance() if seat == CHANCE else rng.choice(state.legal_moves()))
    assert checked > 1000
