"""The running score of a game, read from its public view.

Only games whose rules keep a score during play have one: Artus's prestige
and Mordred's victory points. The King is Dead, King & Assassins and Siege are
decided at the end (the outcome's scores), so their plot says so instead.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.core import JSON

_READERS: dict[str, tuple[tuple[str, str], Callable[[JSON], list[float]]]] = {
    "artus": (("prestige", "prestigio"), lambda view: [float(x) for x in view["scores"]]),
    "mordred": (("victory points", "punti vittoria"),
                lambda view: [float(p["vp"]) for p in view["players"]]),
}


def name(game: str, lang: str) -> str | None:
    """What the running score counts, in the table's language; None: no running score."""
    entry = _READERS.get(game)
    if entry is None:
        return None
    return entry[0][0] if lang == "en" else entry[0][1]


def running(game: str, view: JSON) -> list[float] | None:
    """Each seat's score now, from the public view ``view``."""
    entry = _READERS.get(game)
    if entry is None:
        return None
    try:
        return entry[1](view)
    except (KeyError, TypeError, ValueError):
        return None  # a view without its score yet (before the setup is over)
