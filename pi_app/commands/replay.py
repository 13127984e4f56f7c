"""`tablekeeper replay FILE`: play a JSON Lines game log and report each move.

Input: a header line
``{"game": ID, "players": N, "seed": S, "options": {...}, "chance": "seed" | "file"}``
then one move per line in the game's notation (blank lines are skipped).
With ``"chance": "seed"`` (the default) every chance step the game reaches is
resolved by ``sample_chance()`` and reported as ``{"chance": MOVE, "events":
[...]}``; with ``"file"`` the file itself holds each outcome as a move line.

Output: per move line ``{"n": i, "ok": true, "events": [...]}`` or
``{"n": i, "ok": false, "code": ..., "rule": ..., "rule_it": ..., "message": ...}``
(``rule`` the rulebook section in English, ``rule_it`` its Italian heading; an
illegal move changes nothing and replay goes on; ``n`` counts move lines from
1), then ``{"outcome": ... | null, "view": <public view>}``. A log an older
Tablekeeper recorded replays as it was played: where it leaves out a choice
today's notation asks for, the older engine's own pick is reported as
``{"implied": MOVE, "events": [...]}`` (rules.core.RecordReader). Malformed input
exits with status 2 naming the line.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator
from typing import Any, TextIO

import rules
from pi_app.errors import UsageError
from rules import sections
from rules.core import Event, IllegalMove, State

NAME = "replay"
HELP = "replay a JSON Lines game log and report each move's verdict"

HEADER_KEYS = {"game", "players", "seed", "options", "chance"}
CHANCE_MODES = ("seed", "file")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="the log (JSON Lines); '-' reads standard input")


def run(args: argparse.Namespace) -> int:
    try:
        if args.file == "-":
            replay(sys.stdin, sys.stdout, "<stdin>")
            return 0
        with open(args.file, encoding="utf-8") as f:
            replay(f, sys.stdout, args.file)
    except OSError as exc:
        raise UsageError(f"cannot read {args.file}: {exc.strerror}") from None
    except UnicodeDecodeError:
        where = "<stdin>" if args.file == "-" else f"{args.file}:{_undecodable_line(args.file)}"
        raise UsageError(f"{where}: not a text file (not UTF-8); replay reads JSON Lines "
                         "(a header line, then one move per line)") from None
    return 0


def _undecodable_line(path: str) -> int:
    """The line of the first byte that is not UTF-8."""
    with open(path, "rb") as f:
        data = f.read()
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return data.count(b"\n", 0, exc.start) + 1
    return 1


def replay(lines: Iterable[str], out: TextIO, name: str) -> None:
    """Replay ``lines`` writing verdicts to ``out``; UsageError on bad input."""
    numbered = _json_lines(lines, name)
    try:
        lineno, header = next(numbered)
    except StopIteration:
        raise UsageError(f"{name}: empty file; the first line must be a header like "
                         '{"game": "king-is-dead", "players": 3, "seed": 1}') from None
    game, state, chance = _start(header, f"{name}:{lineno}")

    def emit(record: dict[str, Any]) -> None:
        out.write(json.dumps(record, ensure_ascii=False) + "\n")

    implied = 0  # moves of the record's older engine, which drew no lot

    def resolve_chance() -> None:
        while chance == "seed" and state.is_chance():
            move = state.sample_chance(len(state.history) - implied)
            emit({"chance": move.to_json(), "events": _public(state.apply(move))})

    # A recorded game may be in an older notation (rules.core.RecordReader):
    # before a line, the picks an older engine made by itself.
    reader = game.record_reader()
    resolve_chance()
    for n, (lineno, data) in enumerate(numbered, start=1):
        try:
            while (pick := reader.implied(state, data)) is not None:
                emit({"implied": pick.to_json(), "events": _public(state.apply(pick))})
                implied += 1
                resolve_chance()
            move = reader.read(state, data)
            events = state.apply(move)
        except ValueError as exc:
            raise UsageError(f"{name}:{lineno}: not a {game.id} move: {exc}") from None
        except IllegalMove as exc:
            emit({"n": n, "ok": False, "code": exc.code, "rule": sections.name(game.id, exc.rule, "en"),
                  "rule_it": exc.rule, "message": exc.message()})
            continue
        emit({"n": n, "ok": True, "events": _public(events)})
        resolve_chance()
    while (pick := reader.implied(state, None)) is not None:
        emit({"implied": pick.to_json(), "events": _public(state.apply(pick))})
    outcome = state.outcome()
    emit({"outcome": outcome.to_json() if outcome else None, "view": state.view(None)})


def _json_lines(lines: Iterable[str], name: str) -> Iterator[tuple[int, Any]]:
    for lineno, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise UsageError(f"{name}:{lineno}: not JSON ({exc.msg} at column {exc.colno})") from None
        except (ValueError, RecursionError) as exc:  # a number of thousands of digits, nesting past the stack
            raise UsageError(f"{name}:{lineno}: not a line replay can read ({exc})") from None
        yield lineno, data


def _start(header: Any, where: str) -> tuple[rules.Game, State, str]:
    if not isinstance(header, dict):
        raise UsageError(f"{where}: the first line must be a header object, not {header!r}")
    unknown = set(header) - HEADER_KEYS
    if unknown:
        raise UsageError(f"{where}: unknown header field(s) {', '.join(sorted(unknown))}; "
                         f"allowed: {', '.join(sorted(HEADER_KEYS))}")
    if "game" not in header or "players" not in header:
        raise UsageError(f'{where}: the header needs "game" and "players"')
    chance = header.get("chance", "seed")
    if chance not in CHANCE_MODES:
        raise UsageError(f'{where}: "chance" must be "seed" or "file", not {chance!r}')
    if not isinstance(header["game"], str):
        raise UsageError(f'{where}: "game" must be one of {", ".join(rules.GAMES)}, not {header["game"]!r}')
    options = header.get("options", {})
    if not isinstance(options, dict):
        raise UsageError(f'{where}: "options" must be an object like {{"mordred": true}}, not {options!r}')
    try:
        game = rules.get(header["game"])
        state = game.new_game(players=header["players"], seed=header.get("seed", 0), options=options)
    except (ValueError, TypeError) as exc:
        raise UsageError(f"{where}: {exc}") from None
    return game, state, chance


def _public(events: list[Event]) -> list[dict[str, Any]]:
    # The replay is one shared transcript: secret events stay out of it.
    return [e.to_json() for e in events if e.audience is None]
