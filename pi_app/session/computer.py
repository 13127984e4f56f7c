"""Computer players at the table: which seats they take, what the table
says for them, and what their own screen may show.

A computer seat has no person behind it, so its screen faces the whole
table: it shows only what everyone may know. Its move is said on the shared
screen as instructions in the players' words; a person carries it out and
the table confirms it as it confirms a person's move (the tap on the right
pad or zone, or ● on the computer's seat). How each game keeps its cards
away from every person is in the README, "Computer players".
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pi_app import names as naming
from pi_app.errors import UsageError
from pi_app.i18n import pick
from pi_app.ui.screens import Layout
from players import DEFAULT_BUDGET, DEFAULT_LEVEL, LEVELS, Budget, Ismcts, level_budget, style
from rules.core import IllegalMove, Move, State

WORDS = {
    "computer": ("computer", "computer"),
    "thinking": ("Thinks from what its seat sees", "Sceglie con ciò che vede dal suo posto"),
    "its-turn": ("Its move: see the shared screen", "La sua mossa: schermo comune"),
    "confirm": ("Done? Tap it here or press ●", "Fatto? Tocca qui o premi ●"),
    "waiting": ("Waiting for the others", "Attende gli altri"),
    "secret": ("has chosen in secret: press ● on its seat", "ha scelto in segreto: premi ● al suo posto"),
    "level": ("Level: {level}", "Livello: {level}"),
}


def level_words(level: str, lang: str) -> str:
    """A level's name on the screens: "Easy", "Facile"."""
    return pick(LEVELS[level].words, lang)


class Computer(Ismcts):
    """A computer seat's player at its level (players.levels): the level's
    share of the table's think time and its style; ``level`` for the screens."""

    def __init__(self, level: str, think: Budget, seed: int) -> None:
        chosen = LEVELS[level]
        super().__init__(level_budget(chosen, think), seed=seed, **style(chosen))
        self.level = level

# A tap on a computer's pad that is not its move: said without naming the
# card, which may be one of its face-down cards (pi_app.i18n words it).
NOT_THIS = IllegalMove("table.computer-not-this", "")


def parse_seats(specs: Sequence[str], game: str, players: int, names: Sequence[str] = ()) -> set[int]:
    """``--computer`` values to seat indexes (see parse_computers)."""
    return set(parse_computers(specs, game, players, names))


def parse_computers(specs: Sequence[str], game: str, players: int, names: Sequence[str] = (),
                    default: str = DEFAULT_LEVEL) -> dict[int, str]:
    """``--computer`` values to seat index -> level: ``SEAT[:LEVEL]``, the
    seat a seat number (1..players), ``seatN``, a role's name (rules
    ``Game.roles``: ``king``, ``assassins``, ``attacker``, ``defender``) or a
    name given with ``--name`` (``names``, by seat); the level easy, normal
    or hard (``default`` when left out)."""
    seats: dict[int, str] = {}
    roles = naming.roles(game)
    for spec in specs:
        word, sep, level = spec.strip().lower().rpartition(":")
        level = level.strip()
        if not sep:
            word, level = level, default
        elif level not in LEVELS:
            raise UsageError(f"--computer {spec!r}: no level {level!r}; write SEAT:LEVEL with a level of "
                             f"{', '.join(LEVELS)}, e.g. --computer 2:easy")
        word = word.strip()
        number = word.removeprefix("seat")
        if number.isdigit() and 1 <= int(number) <= players:
            seats[int(number) - 1] = level
            continue
        named = [i for i, role in enumerate(roles) if word in role.names and i < players] \
            or [i for i in range(players) if word in naming.aliases(game, i, names)]  # as the screens say
        if named:
            seats[named[0]] = level
            continue
        known = [f"1..{players}"] + [role.names[0] for role in roles] + [n for n in names if n]
        raise UsageError(f"--computer {spec!r}: no such seat in {game} for {players}; "
                         f"give a seat number or role{' or name' if any(names) else ''}: {', '.join(known)}")
    if len(seats) == players:
        raise UsageError("--computer: every seat would be a computer; leave at least one for a person")
    return seats


def budget(spec: Mapping[str, Any]) -> Budget:
    """The budget a table profile's ``[computer]`` table sets (``Profile.computer``,
    checked against drivers.parts.SETTINGS); a key left out keeps the default's."""
    iterations, seconds = spec.get("iterations"), spec.get("seconds")
    return Budget(iterations=DEFAULT_BUDGET.iterations if iterations is None else iterations,
                  seconds=DEFAULT_BUDGET.seconds if seconds is None else seconds)


def level_of(spec: Mapping[str, Any]) -> str:
    """The level a table profile's ``[computer]`` table sets for every computer seat (checked
    against drivers.parts.SETTINGS), else players.DEFAULT_LEVEL."""
    level = spec.get("level")
    return DEFAULT_LEVEL if level is None else str(level)


def players_for(seats: set[int], seed: int, budget: Budget = DEFAULT_BUDGET,
                levels: Mapping[int, str] | None = None) -> dict[int, Ismcts]:
    """A player per seat: with ``levels`` (seat -> level) each at its level
    within ``budget``, the table's think time; without, each thinks for all
    of ``budget`` (the demo and the soak, which set their own)."""
    if levels is None:
        return {seat: Ismcts(budget, seed=seed * 31 + seat) for seat in sorted(seats)}
    return {seat: Computer(levels.get(seat, DEFAULT_LEVEL), budget, seed * 31 + seat)
            for seat in sorted(seats)}


def is_secret(state: State, move: Move) -> bool:
    """A move the table may not be told (the assassins chosen): the rules'
    answer, ``State.secrecy``."""
    return state.secrecy(move).secret


def seat_layout(seat: int, name: str, to_move: int | None, lang: str, level: str | None = None) -> Layout:
    """The computer's own screen: its name, its level and what it waits
    for, nothing of its hand."""
    if to_move == seat:
        lines = (pick(WORDS["its-turn"], lang), pick(WORDS["confirm"], lang))
    else:
        lines = (pick(WORDS["waiting"], lang), pick(WORDS["thinking"], lang))
    if level is not None:
        lines = (*lines, pick(WORDS["level"], lang).format(level=level_words(level, lang)))
    return Layout(title=name, big=pick(WORDS["computer"], lang), lines=lines)


def said(name: str, move_text: str | None, lang: str) -> str:
    """The shared screen's instruction for a computer's move, said by the
    computer's ``name`` (``move_text`` None: a secret one, which the table is
    not told)."""
    if move_text is None:
        return f"{name} {pick(WORDS['secret'], lang)}"
    return f"{name}: {move_text}"


# -- which seats are computers, kept beside the journal for a resumed game --------
def save(path: Path, record_id: int, seats: set[int], levels: Mapping[int, str] | None = None) -> None:
    """Written before the game's first move is shown: a restart after a power
    cut resumes the game with the same computer seats, so a computer's hand
    never appears on a seat screen as if a person sat there; at the same levels."""
    data: dict[str, Any] = {"game": record_id, "seats": sorted(seats)}
    if levels:
        data["levels"] = {str(seat): level for seat, level in sorted(levels.items()) if seat in seats}
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data) + "\n", encoding="utf-8")
    tmp.replace(path)


def load_levels(path: Path, record_id: int, default: str = DEFAULT_LEVEL) -> dict[int, str]:
    """The computer seats of game ``record_id`` with their levels (``default``
    for a seat saved without one, as before levels were kept)."""
    data = _saved(path, record_id)
    if not data or not data["seats"]:
        return {}
    saved = data.get("levels", {})
    if not isinstance(saved, dict) or not all(v in LEVELS for v in saved.values()):
        raise UsageError(f"{path}: 'levels' must map seats to {', '.join(LEVELS)}; delete the file to "
                         "resume with people in every seat")
    return {seat: saved.get(str(seat), default) for seat in sorted(set(data["seats"]))}


def load(path: Path, record_id: int) -> set[int]:
    data = _saved(path, record_id)
    return set(data["seats"]) if data else set()


def _saved(path: Path, record_id: int) -> dict[str, Any] | None:
    """The file's contents when they are game ``record_id``'s, its seats checked; else None."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise UsageError(f"{path}: cannot read the computer seats ({exc}); delete the file to "
                         "resume with people in every seat") from None
    if not isinstance(data, dict) or data.get("game") != record_id:
        return None
    seats = data.get("seats")
    if not isinstance(seats, list) or not all(isinstance(s, int) and s >= 0 for s in seats):
        raise UsageError(f"{path}: 'seats' must be a list of seat indexes; delete the file to "
                         "resume with people in every seat")
    return data
