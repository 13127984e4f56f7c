"""The levels: each a share of the table's think time, easy with its own
style (a move drawn by its visits), and names in both languages."""

from __future__ import annotations

import pytest

import rules
from players import DEFAULT_LEVEL, LEVELS, Budget, Ismcts, level, level_budget
from players.levels import player

THINK = Budget(iterations=2000, seconds=0.9)


def test_harder_levels_think_longer_within_the_think_time() -> None:
    budgets = [level_budget(LEVELS[name], THINK) for name in ("easy", "normal", "hard")]
    assert [b.iterations for b in budgets] == sorted(b.iterations for b in budgets)
    assert len({b.iterations for b in budgets}) == 3
    assert all(b.seconds is not None and b.seconds <= THINK.seconds for b in budgets)
    assert budgets[-1] == THINK
    assert level_budget(LEVELS["easy"], Budget(iterations=2, seconds=None)).iterations == 1
    assert DEFAULT_LEVEL in LEVELS


def test_every_level_has_whole_words_in_english_and_italian() -> None:
    for chosen in LEVELS.values():
        english, italian = chosen.words
        assert english and italian and english != chosen.name and " " not in english
    assert len({lv.words[1] for lv in LEVELS.values()}) == len(LEVELS)


@pytest.mark.parametrize("name", ["Hard", " easy ", "NORMAL"])
def test_a_level_is_named_in_any_case(name: str) -> None:
    assert level(name).name == name.strip().lower()


def test_an_unknown_level_names_the_levels() -> None:
    with pytest.raises(ValueError, match="no computer level 'expert'; the levels are easy, normal, hard"):
        level("expert")


def _position(game: str = "siege", players: int = 2, seed: int = 3,
              options: dict | None = None) -> tuple[rules.State, int]:
    """A position with a seat to move and a choice of moves (chance played)."""
    state = rules.get(game).new_game(players, seed=seed, options=options)
    while state.is_chance():
        state.apply(state.sample_chance())
    seat = state.to_move()
    assert seat is not None and len(state.legal_moves()) > 1
    return state, seat


def test_easy_often_plays_the_searchs_best_move_and_sometimes_another() -> None:
    """With the same seed easy searches exactly as the others do, then draws
    by visits: in thirty searches it plays the most visited move in many,
    but not in all."""
    state, seat = _position()
    budget = Budget(iterations=60, seconds=None)
    agree = sum(Ismcts(budget, seed=s).choose(state, seat) == Ismcts(budget, seed=s, temperature=1.0)
                .choose(state, seat) for s in range(30))
    assert 3 <= agree < 30


def test_a_level_plays_the_same_move_again_with_the_same_seed() -> None:
    state, seat = _position()
    small = Budget(iterations=30, seconds=None)
    for chosen in LEVELS.values():
        first = player(chosen, small, seed=4).choose(state, seat)
        assert player(chosen, small, seed=4).choose(state, seat) == first


def test_a_negative_temperature_is_refused() -> None:
    with pytest.raises(ValueError, match="temperature"):
        Ismcts(temperature=-1.0)


def test_a_level_reads_finer_only_the_games_it_names() -> None:
    from players import ismcts
    from players.evaluation import FINE, FINE_HORIZONS, MEASURES
    from players.levels import Level

    hard = player(LEVELS["hard"])
    read = ("mordred", "king-is-dead", "artus", "siege")
    assert hard.measures == {**MEASURES, **{g: FINE[g][0] for g in read}}
    assert hard.chances == {g: FINE[g][1] for g in read}
    assert hard.horizons == {**ismcts.HORIZONS, **FINE_HORIZONS, "king-is-dead": 0}
    normal = player(LEVELS["normal"])
    more = ("mordred 3p", "mordred 4p")
    assert normal.measures == {**MEASURES, **{g: FINE["mordred"][0] for g in more}}
    assert normal.chances == {"king-is-dead": FINE["king-is-dead"][1],
                              **{g: FINE["mordred"][1] for g in more}}
    assert normal.horizons == {**ismcts.HORIZONS, **FINE_HORIZONS}
    easy = player(LEVELS["easy"])
    assert easy.measures == MEASURES and easy.chances == {} and easy.horizons == ismcts.HORIZONS
    with pytest.raises(ValueError, match="no finer reading of king-and-assassins"):
        player(Level("odd", 1.0, 0.0, ("Odd", "Strano"), reads=("king-and-assassins",)))
    with pytest.raises(ValueError, match="no finer reading of king-and-assassins"):
        player(Level("odd", 1.0, 0.0, ("Odd", "Strano"), scores=("king-and-assassins",)))
    with pytest.raises(ValueError, match="no finer reading of king-and-assassins 2p"):
        player(Level("odd", 1.0, 0.0, ("Odd", "Strano"), reads=("king-and-assassins 2p",)))


def test_normal_reads_mordred_at_three_and_four_players_only() -> None:
    """A setting named for a game at one player count (players.ismcts.table_key)
    is the search's there alone: normal's reading of Mordred ranks its moves
    and scores its playouts at three and four players, and at two it reads the
    public score as before (bench/README.md: normal's reading of Mordred)."""
    from players import evaluation

    read: list[int] = []

    def measure(world: rules.State, seat: int) -> float:
        read.append(world.players)
        return evaluation.mordred(world, seat)

    def chances(world: rules.State) -> list[float]:
        read.append(world.players)
        return evaluation.mordred_chances(world)

    small = Budget(iterations=20, seconds=None)
    for players in (2, 3, 4):
        state, seat = _position("mordred", players, 5, {"unofficial_two_players": players == 2})
        bot = player(LEVELS["normal"], small)
        bot.measures = {**bot.measures, **{g: measure for g in bot.measures if g.startswith("mordred")}}
        bot.chances = {**bot.chances, **{g: chances for g in bot.chances if g.startswith("mordred")}}
        bot.choose(state, seat)
    assert set(read) == {3, 4}


def test_only_hard_plays_king_and_assassins_and_the_king_is_dead_finer() -> None:
    """Hard's playouts (players.playout.FINE): in King & Assassins a policy
    for both sides, at its own horizon; in The King is Dead cut at a turn's
    start. Easy and normal play their playouts as before."""
    from players.evaluation import FINE_HORIZONS
    from players.ismcts import HORIZONS
    from players.levels import Level
    from players.playout import FINE, POLICIES

    ka, kid = FINE["king-and-assassins"], FINE["king-is-dead"]
    hard = player(LEVELS["hard"])
    assert hard.policies == {**POLICIES, "king-and-assassins": ka.policy}
    assert hard.horizons["king-and-assassins"] == ka.horizon
    assert hard.horizons["king-is-dead"] == kid.horizon
    assert hard.stops == {"king-is-dead": kid.stop}
    for name in ("easy", "normal"):
        bot = player(LEVELS[name])
        assert bot.policies == POLICIES and bot.stops == {}
        assert bot.horizons["king-and-assassins"] == HORIZONS["king-and-assassins"]
    assert player(LEVELS["normal"]).horizons["king-is-dead"] == FINE_HORIZONS["king-is-dead"]
    assert "king-is-dead" not in player(LEVELS["easy"]).horizons
    with pytest.raises(ValueError, match="no finer playout of siege"):
        player(Level("odd", 1.0, 0.0, ("Odd", "Strano"), plays=("siege",)))


def test_only_hard_explores_the_king_is_deads_tree_less() -> None:
    """Hard spends The King is Dead's iterations on the moves its reading
    ranks best (players.ismcts.NARROW); every other search, and hard in the
    other games, explores as before."""
    from players.ismcts import NARROW

    assert player(LEVELS["hard"]).explorations == {"king-is-dead": NARROW}
    assert player(LEVELS["normal"]).explorations == player(LEVELS["easy"]).explorations == {}
    assert Ismcts().explorations == {}
    with pytest.raises(ValueError, match="exploration constant is 0 or more"):
        Ismcts(explorations={"king-is-dead": -0.1})


def test_a_narrower_search_tries_the_better_move_where_a_wider_one_tries_the_less_tried() -> None:
    """UCB's choice between a move that did better in 10 visits and one that
    did worse in 2: at the usual constant the bonus for the less tried wins,
    at NARROW the better mean does."""
    import random

    from players.ismcts import EXPLORATION, NARROW, _Node, _select

    def node() -> _Node:
        root = _Node(None, 2)
        for move, visits, wins in (("better", 10, 6.0), ("less tried", 2, 0.8)):
            child = root.children[move] = _Node(0, 2)
            child.visits, child.avail, child.value = visits, 12, [wins, visits - wins]
        root.visits = 12
        return root

    legal = ["better", "less tried"]
    assert _select(node(), legal, 0, 2, random.Random(1), EXPLORATION)[0] == "less tried"
    assert _select(node(), legal, 0, 2, random.Random(1), NARROW)[0] == "better"
