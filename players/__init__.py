"""Computer players: any seat of any game, deciding from what that seat may know.

They use the rules core's interface only (``legal_moves``, ``apply``,
``outcome``, chance as moves, and ``State.sample_unseen`` for the worlds a
seat cannot tell apart): no I/O, nothing from ``pi_app`` or ``drivers``.

* :mod:`players.ismcts`: information-set Monte Carlo tree search, the
  computer player of the table;
* :mod:`players.evaluation`: the search's own measure of a position, for
  the games where the public score tells it too little (King & Assassins),
  and the hard level's finer one of Mordred;
* :mod:`players.levels`: easy, normal and hard, each a share of the
  table's think time and a style;
* :mod:`players.simple`: a random player and a one-move-ahead greedy player,
  its sparring partners in the strength benchmark.
"""

from __future__ import annotations

from players.base import Player
from players.ismcts import DEFAULT_BUDGET, Budget, Ismcts
from players.levels import DEFAULT_LEVEL, LEVELS, Level, level, level_budget, style
from players.simple import Greedy, RandomPlayer

__all__ = ["DEFAULT_BUDGET", "DEFAULT_LEVEL", "LEVELS", "Budget", "Greedy", "Ismcts", "Level", "Player",
           "RandomPlayer", "level", "level_budget", "style"]
