"""Siege: the search's own measure of the public position
(players.siege_measure), read by the search through players.evaluation."""

from __future__ import annotations

import random

import rules
from players import Budget, Ismcts, RandomPlayer, ismcts
from players.evaluation import MEASURES
from players.siege_measure import siege
from rules.siege.constants import ATTACKER, DEFENDER
from rules.siege.table import card_of

GAME = "siege"


def _midgame(seed: int, moves: int = 60) -> rules.State:
    """A game played at random for ``moves`` moves (or to a position both hands hold cards)."""
    state = rules.get(GAME).new_game(2, seed=seed)
    rng = random.Random(seed)
    played = 0
    while played < moves or not (state.hand_size(ATTACKER) and state.hand_size(DEFENDER)):  # type: ignore[attr-defined]
        seat = state.to_move()
        assert seat is not None, "the game ended before the position wanted"
        state.apply(state.sample_chance() if seat == rules.CHANCE else rng.choice(state.legal_moves()))
        played += 1
    return state


def test_the_search_measures_siege_by_its_own_measure_and_cuts_its_playouts() -> None:
    assert MEASURES[GAME] is siege
    assert ismcts.HORIZONS[GAME] > 0


def test_the_measure_reads_only_what_the_public_sees() -> None:
    """Worlds that differ only in the other side's hand (and so in what is
    left in its deck) measure alike for both seats: a world the search deals
    guesses that hand."""
    state = _midgame(seed=4)
    for seat in (ATTACKER, DEFENDER):
        rng = random.Random(seat)
        worlds = [state.sample_unseen(seat, rng) for _ in range(8)]
        assert len({tuple(sorted(w.hands[1 - seat].items())) for w in worlds}) > 1  # type: ignore[attr-defined]
        for looker in (ATTACKER, DEFENDER):
            assert len({siege(w, looker) for w in worlds}) == 1


def test_the_sides_measure_the_same_margin() -> None:
    state = _midgame(seed=2)
    assert siege(state, ATTACKER) == -siege(state, DEFENDER)


def test_a_wall_down_is_the_attackers_gain() -> None:
    state = rules.get(GAME).new_game(2, seed=1)
    before = siege(state, ATTACKER)
    razed = state.copy()
    wall = next(u for u in razed.rows[DEFENDER]["r1"] if card_of(u) == "castle_walls")  # type: ignore[attr-defined]
    razed.rows[DEFENDER]["r1"].remove(wall)  # type: ignore[attr-defined]
    assert siege(razed, ATTACKER) > before


def test_the_commander_with_nobody_before_him_is_the_attackers_loss() -> None:
    """The Defender's Archer in row 2 can sally once the Attacker's rows 0
    to 2 are empty: the Commander is then as good as dead."""
    state = rules.get(GAME).new_game(2, seed=1)
    thin, bare = state.copy(), state.copy()
    thin.rows[ATTACKER]["r1"] = thin.rows[ATTACKER]["r1"][:1]  # type: ignore[attr-defined]
    bare.rows[ATTACKER]["r1"] = []  # type: ignore[attr-defined]
    # Each unit gone costs its worth; the screen's last one costs more.
    lost_worth = siege(thin, ATTACKER) - siege(bare, ATTACKER)
    assert lost_worth > 2.0 * (siege(state, ATTACKER) - siege(thin, ATTACKER)) / 3


def test_a_breach_held_by_a_troop_is_the_attackers_gain() -> None:
    """No wall and no Moat left: the same troops count for more in row 1,
    where they can take the Keep, than back in row 2."""
    state = rules.get(GAME).new_game(2, seed=1)
    breached = state.copy()
    breached.rows[DEFENDER]["r1"] = []  # type: ignore[attr-defined]
    assert siege(breached, ATTACKER) > siege(state, ATTACKER)
    rows = breached.rows[ATTACKER]  # type: ignore[attr-defined]
    assert any(card_of(u) == "knight" for u in rows["r1"])
    back = breached.copy()
    back.rows[ATTACKER]["r2"] = rows["r2"] + rows["r1"]  # type: ignore[attr-defined]
    back.rows[ATTACKER]["r1"] = []  # type: ignore[attr-defined]
    assert siege(breached, ATTACKER) > siege(back, ATTACKER)


def test_a_search_of_siege_plays_whole_games() -> None:
    state = rules.get(GAME).new_game(2, seed=7)
    seats = [Ismcts(Budget(iterations=5, seconds=None), seed=1), RandomPlayer(seed=1)]
    while (seat := state.to_move()) is not None:
        state.apply(state.sample_chance() if seat == rules.CHANCE else seats[seat].choose(state, seat))
    assert state.outcome() is not None


def test_the_defenders_only_peasant_turned_soldier_is_his_loss() -> None:
    """Spear of Destiny may turn a Peasant on the table into a Swordsman. With
    no food left on the table the Defender must feed a whole day every turn,
    and a troop starves each turn he cannot: the measure counted the Peasant
    like a Swordsman and took the trade, and his troops starved."""
    state = rules.get(GAME).new_game(2, seed=1)
    rows = state.rows[DEFENDER]  # type: ignore[attr-defined]
    peasant = next(u for u in rows["rc"] if card_of(u) == "peasant")
    turned = state.copy()
    turned.rows[DEFENDER]["rc"].remove(peasant)  # type: ignore[attr-defined]
    turned.rows[DEFENDER]["r2"].append("swordsman-99")  # type: ignore[attr-defined]
    assert siege(turned, DEFENDER) < siege(state, DEFENDER)


def test_a_food_card_on_the_table_counts_more_than_a_soldier() -> None:
    """The Attacker's Supply Wagon on the table feeds half a day every day
    until Famine takes it: worth more than a Knight."""
    state = rules.get(GAME).new_game(2, seed=1)
    rows = state.rows[ATTACKER]  # type: ignore[attr-defined]
    wagon = next(u for u in rows["rc"] if card_of(u) == "supply_wagon")
    knight = next(u for u in rows["r1"] + rows["r2"] if card_of(u) == "knight")
    no_wagon, no_knight = state.copy(), state.copy()
    no_wagon.rows[ATTACKER]["rc"].remove(wagon)  # type: ignore[attr-defined]
    no_knight.rows[ATTACKER]["r1" if knight in rows["r1"] else "r2"].remove(knight)  # type: ignore[attr-defined]
    assert siege(no_wagon, ATTACKER) < siege(no_knight, ATTACKER)


def test_hard_scores_cut_playouts_by_a_softer_share_of_the_same_measure() -> None:
    """The hard level's Siege reading (players.evaluation.FINE): its moves
    ranked by ``siege`` as every level's, its cut playouts scored by a
    softer softmax of it (``SIEGE_SOFTNESS``); the same in worlds that differ
    only in hidden information."""
    from players.base import softmax
    from players.evaluation import FINE, SIEGE_SOFTNESS, SOFTNESS
    from players.levels import LEVELS, player

    measure, chances = FINE[GAME]
    assert measure is siege and SOFTNESS[GAME] < SIEGE_SOFTNESS
    assert player(LEVELS["hard"]).chances[GAME] is chances
    assert GAME not in player(LEVELS["normal"]).chances and GAME not in player(LEVELS["easy"]).chances
    state = _midgame(seed=4)
    share = chances(state)
    assert abs(sum(share) - 1.0) < 1e-9
    assert share == softmax([siege(state, ATTACKER), siege(state, DEFENDER)], SIEGE_SOFTNESS)
    for seat in (ATTACKER, DEFENDER):
        worlds = [state.sample_unseen(seat, random.Random(i)) for i in range(8)]
        assert len({tuple(sorted(w.hands[1 - seat].items())) for w in worlds}) > 1  # type: ignore[attr-defined]
        assert len({tuple(chances(w)) for w in worlds}) == 1
