"""How the table names a player, the same way in every game and on every
screen: by the role the game gives the seat where it has one (the King and
the Assassin, the Attacker and the Defender), else "Player N"; never
"seat", which Artus keeps for the places at its round table.

``display_name`` is the one place a seat becomes words: a player the table
plays itself is "Attacker (computer)", a name chosen at the lobby replaces
the default (cut to ``MAX_NAME`` letters so that "Waiting: NAME" fits a title).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import rules
from pi_app.i18n import pick
from rules.catalogue import LANGS
from rules.catalogue import PLAYER as NUMBERED
from rules.core import Role

COMPUTER = ("{name} (computer)", "{name} (computer)")
MAX_NAME = 10


def roles(game: str) -> Sequence[Role]:
    """The roles ``game`` gives its seats (its rules ``Game.roles``); none
    for a game this box does not know."""
    known = rules.GAMES.get(game)
    return known.roles if known is not None else ()


def display_name(game: str, seat: int | None, lang: str, names: Sequence[str] = (),
                 computer: bool = False) -> str:
    """The name the screens give ``seat`` (0-based) of ``game``; "-" for none."""
    if seat is None or seat < 0:
        return "-"
    given = names[seat].strip()[:MAX_NAME] if seat < len(names) and names[seat] else ""
    seat_roles = roles(game)
    if given:
        name = given
    elif seat < len(seat_roles):
        name = pick(seat_roles[seat].words, lang)
    else:
        name = pick(NUMBERED, lang).format(n=seat + 1)
    return pick(COMPUTER, lang).format(name=name) if computer else name


def owner(game: str, seat: int, lang: str, names: Sequence[str] = ()) -> str:
    """Whose, as a sentence says it: "Player 1's", "the Attacker's",
    "Anna's"; "del Giocatore 1", "dell'Attaccante", "di Anna" (a name given
    at the lobby takes no article, a role or "Giocatore N" does)."""
    name = display_name(game, seat, lang, names)
    given = name != display_name(game, seat, lang)
    if lang == "en":
        return f"{name}'s" if given or not roles(game)[seat:seat + 1] else f"the {name}'s"
    if given:
        return f"di {name}"
    low = name.lower()
    if low[:1] in "aeiou":
        return f"dell'{name}"
    if low[:1] == "z" or low[:2] in ("gn", "ps") or (low[:1] == "s" and low[1:2] not in "aeiou"):
        return f"dello {name}"
    return f"del {name}"


def short_name(game: str, seat: int, lang: str) -> str:
    """The short form, only where a row of every player's score must fit
    one line: "P1" for "Player 1" ("G1", Giocatore), a role's first letters."""
    seat_roles = roles(game)
    if seat < len(seat_roles):
        return pick(seat_roles[seat].words, lang)[:3]
    return f"{pick(NUMBERED, lang)[0]}{seat + 1}"


def aliases(game: str, seat: int, names: Sequence[str] = ()) -> set[str]:
    """Every word the console accepts for ``seat``, lower case: its names
    in both languages (the one given at the lobby too) and the table's own
    ``seatN``."""
    words = {f"seat{seat + 1}", f"{seat + 1}"}
    for lang in LANGS:
        for name in {display_name(game, seat, lang).lower(), display_name(game, seat, lang, names).lower()}:
            words |= {name, name.replace(" ", "")}
    return words


def seat_named(word: str, game: str, players: int) -> int | None:
    """The seat (0-based) ``word`` names: a number from 1, ``seatN`` or the
    name the screens give it by default, in either language; None if none."""
    wanted = word.strip().lower()
    for seat in range(players):
        if wanted in aliases(game, seat):
            return seat
    return None


def given_names(given: Mapping[int, str], game: str, players: int) -> tuple[str, ...]:
    """The names given at the lobby (seat -> name) as the journal keeps
    them, by seat ("" for a seat keeping its default name). ValueError, in
    words the table can act on, for a name too long to show, one given
    twice, or one another seat already answers to ("Player 2" for seat 1)."""
    names = [""] * players
    for seat, text in given.items():
        if not 0 <= seat < players:
            raise ValueError(f"no seat {seat + 1} in a game of {players}")
        names[seat] = " ".join(text.split())
    seen: dict[str, int] = {}
    for seat, name in enumerate(names):
        if not name:
            continue
        if len(name) > MAX_NAME:
            raise ValueError(f"the name {name!r} is longer than the {MAX_NAME} letters a screen shows")
        key = name.lower()
        if key in seen:
            raise ValueError(f"the name {name!r} is given to seats {seen[key] + 1} and {seat + 1}")
        seen[key] = seat
        other = next((o for o in range(players) if o != seat and key in aliases(game, o)), None)
        if other is not None:
            raise ValueError(f"the name {name!r} is what the table calls seat {other + 1}")
    return tuple(names) if any(names) else ()
