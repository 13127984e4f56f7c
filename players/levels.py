"""How hard the computer plays: easy, normal and hard.

A level is a share of the table's think time (its ``Budget``: the profile's
``[computer]`` iterations and seconds, all a move may take on that board)
and a style. Hard thinks for all of it; normal for a quarter; easy for a
sixteenth and then, rather than the most visited move, picks among the
moves its search tried, each as likely as its visits (a temperature of 1):
it plays a good move mostly and a worse one now and then, as a casual
player does. The shares are four times apart because twice the iterations
did not make a level stronger at a Pi 4's budget (bench/README.md, the
board strength run): each level answers four times faster than the one
above it, which a player sees too. A level may cut a game's playouts at
its own horizon (``Level.horizons``); none does today: hard at 16 moves in
Mordred was no stronger against normal over the board run's games
(bench/README.md, the ladder at a Pi 4's budget).

Every level decides from its seat's view alone: the pick draws from the
search's own generator, seeded by that view (tests/players/test_non_interference.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from players.ismcts import DEFAULT_BUDGET, HORIZONS, Budget, Ismcts


@dataclass(frozen=True)
class Level:
    name: str  # the id: in profiles, ``--computer SEAT:LEVEL`` and the computer seats' file
    share: float  # of the think time and of the iterations
    temperature: float  # 0: the most visited move; above: moves drawn by visits ** (1 / temperature)
    words: tuple[str, str]  # English, Italian: what the screens say
    #: per game, playouts cut at other horizons than players.ismcts.HORIZONS
    horizons: tuple[tuple[str, int], ...] = ()


LEVELS: dict[str, Level] = {
    "easy": Level("easy", 1 / 16, 1.0, ("Easy", "Facile")),
    "normal": Level("normal", 1 / 4, 0.0, ("Normal", "Normale")),
    "hard": Level("hard", 1.0, 0.0, ("Hard", "Difficile")),
}
#: What a computer seat plays at unless the lobby, the command or the profile says otherwise.
DEFAULT_LEVEL = "normal"


def level(name: str) -> Level:
    """The level called ``name`` (any case); ValueError naming the levels there are."""
    found = LEVELS.get(name.strip().lower())
    if found is None:
        raise ValueError(f"no computer level {name!r}; the levels are {', '.join(LEVELS)}")
    return found


def level_budget(chosen: Level, think: Budget = DEFAULT_BUDGET) -> Budget:
    """The level's share of ``think``, the table's whole think time a move."""
    return Budget(iterations=max(1, round(think.iterations * chosen.share)),
                  seconds=None if think.seconds is None else think.seconds * chosen.share)


def style(chosen: Level) -> dict[str, Any]:
    """The search's settings at ``chosen`` besides its budget (``Ismcts``'s keywords)."""
    return {"temperature": chosen.temperature, "horizons": {**HORIZONS, **dict(chosen.horizons)}}


def player(chosen: Level, think: Budget = DEFAULT_BUDGET, seed: int = 0) -> Ismcts:
    """A computer player at ``chosen``, within ``think``."""
    return Ismcts(level_budget(chosen, think), seed=seed, **style(chosen))
