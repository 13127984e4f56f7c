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
from players import DEFAULT_BUDGET, Budget, Ismcts
from rules.core import IllegalMove, Move, State

WORDS = {
    "computer": ("computer", "computer"),
    "thinking": ("Thinks from what its seat sees", "Sceglie con ciò che vede dal suo posto"),
    "its-turn": ("Its move: see the shared screen", "La sua mossa: schermo comune"),
    "confirm": ("Done? Tap it here or press ●", "Fatto? Tocca qui o premi ●"),
    "waiting": ("Waiting for the others", "Attende gli altri"),
    "secret": ("has chosen in secret: press ● on its seat", "ha scelto in segreto: premi ● al suo posto"),
}

# A tap on a computer's pad that is not its move: said without naming the
# card, which may be one of its face-down cards (pi_app.i18n words it).
NOT_THIS = IllegalMove("table.computer-not-this", "")


def parse_seats(specs: Sequence[str], game: str, players: int, names: Sequence[str] = ()) -> set[int]:
    """``--computer`` values to seat indexes: a seat number (1..players),
    ``seatN``, a role's name (rules ``Game.roles``: ``king``, ``assassins``,
    ``attacker``, ``defender``) or a name given with ``--name`` (``names``, by seat)."""
    seats: set[int] = set()
    roles = naming.roles(game)
    for spec in specs:
        word = spec.strip().lower()
        number = word.removeprefix("seat")
        if number.isdigit() and 1 <= int(number) <= players:
            seats.add(int(number) - 1)
            continue
        named = [i for i, role in enumerate(roles) if word in role.names and i < players] \
            or [i for i in range(players) if word in naming.aliases(game, i, names)]  # as the screens say
        if named:
            seats.add(named[0])
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


def players_for(seats: set[int], seed: int, budget: Budget = DEFAULT_BUDGET) -> dict[int, Ismcts]:
    return {seat: Ismcts(budget, seed=seed * 31 + seat) for seat in sorted(seats)}


def is_secret(state: State, move: Move) -> bool:
    """A move the table may not be told: one whose effects only some seats
    see (the assassins chosen). Tried on a copy."""
    events = state.copy().apply(move)
    return any(e.audience is not None for e in events)


def seat_layout(seat: int, name: str, to_move: int | None, lang: str) -> Layout:
    """The computer's own screen: its name and what it waits for, nothing of its hand."""
    if to_move == seat:
        lines = (pick(WORDS["its-turn"], lang), pick(WORDS["confirm"], lang))
    else:
        lines = (pick(WORDS["waiting"], lang), pick(WORDS["thinking"], lang))
    return Layout(title=name, big=pick(WORDS["computer"], lang), lines=lines)


def said(name: str, move_text: str | None, lang: str) -> str:
    """The shared screen's instruction for a computer's move, said by the
    computer's ``name`` (``move_text`` None: a secret one, which the table is
    not told)."""
    if move_text is None:
        return f"{name} {pick(WORDS['secret'], lang)}"
    return f"{name}: {move_text}"


# -- which seats are computers, kept beside the journal for a resumed game --------
def save(path: Path, record_id: int, seats: set[int]) -> None:
    """Written before the game's first move is shown: a restart after a power
    cut resumes the game with the same computer seats, so a computer's hand
    never appears on a seat screen as if a person sat there."""
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"game": record_id, "seats": sorted(seats)}) + "\n", encoding="utf-8")
    tmp.replace(path)


def load(path: Path, record_id: int) -> set[int]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return set()
    except (OSError, ValueError) as exc:
        raise UsageError(f"{path}: cannot read the computer seats ({exc}); delete the file to "
                         "resume with people in every seat") from None
    if not isinstance(data, dict) or data.get("game") != record_id:
        return set()
    seats = data.get("seats")
    if not isinstance(seats, list) or not all(isinstance(s, int) and s >= 0 for s in seats):
        raise UsageError(f"{path}: 'seats' must be a list of seat indexes; delete the file to "
                         "resume with people in every seat")
    return set(seats)
