"""The running score of a game, read from its public view.

Only games whose rules keep a score during play have one (rules
``Game.running_score``): Artus's prestige and Mordred's victory points. The
King is Dead, King & Assassins and Siege are decided at the end (the
outcome's scores), so their plot says so instead.
"""

from __future__ import annotations

import rules
from pi_app.i18n import pick
from rules.core import JSON, Score


def _score(game: str) -> Score | None:
    known = rules.GAMES.get(game)
    return known.running_score if known is not None else None


def name(game: str, lang: str) -> str | None:
    """What the running score counts, in the table's language; None: no running score."""
    score = _score(game)
    return pick(score.words, lang) if score is not None else None


def running(game: str, view: JSON) -> list[float] | None:
    """Each seat's score now, from the public view ``view``."""
    score = _score(game)
    if score is None:
        return None
    try:
        return score.read(view)
    except (KeyError, TypeError, ValueError):
        return None  # a view without its score yet (before the setup is over)
