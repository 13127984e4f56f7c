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

With ``--lang en`` or ``--lang it`` the same replay is told in words, one line
per record: each move as the table's transcript says it, with who made it, a
refused move with the rule's sentence and section, then how the game ended.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterable, Iterator
from typing import Any, TextIO

import rules
from pi_app.errors import UsageError
from pi_app.i18n import t
from rules import sections
from rules.catalogue import LANGS
from rules.core import CHANCE, Event, IllegalMove, Outcome, State

NAME = "replay"
HELP = "replay a JSON Lines game log and report each move's verdict"

HEADER_KEYS = {"game", "players", "seed", "options", "chance"}
CHANCE_MODES = ("seed", "file")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="the log (JSON Lines); '-' reads standard input")
    parser.add_argument("--lang", choices=LANGS,
                        help="tell the game in words in this language (default: JSON Lines)")


def run(args: argparse.Namespace) -> int:
    lang = getattr(args, "lang", None)
    try:
        if args.file == "-":
            replay(sys.stdin, sys.stdout, "<stdin>", lang)
            return 0
        with open(args.file, encoding="utf-8") as f:
            replay(f, sys.stdout, args.file, lang)
    except BrokenPipeError:  # `replay ... | head`: the reader has what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
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


def replay(lines: Iterable[str], out: TextIO, name: str, lang: str | None = None) -> None:
    """Replay ``lines`` writing verdicts to ``out`` (as JSON Lines, or with
    ``lang`` in that language's words); UsageError on bad input."""
    numbered = _json_lines(lines, name)
    try:
        lineno, header = next(numbered)
    except StopIteration:
        raise UsageError(f"{name}: empty file; the first line must be a header like "
                         '{"game": "king-is-dead", "players": 3, "seed": 1}') from None
    game, state, chance = _start(header, f"{name}:{lineno}")
    words = None if lang is None else Words(game.id, state.players, lang)

    def emit(record: dict[str, Any], seat: int | None = None, move: Any = None,
             error: IllegalMove | None = None) -> None:
        if words is None:
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
        else:
            out.write(words.say(record, seat, move, error) + "\n")

    implied = 0  # moves of the record's older engine, which drew no lot

    def resolve_chance() -> None:
        while chance == "seed" and state.is_chance():
            move = state.sample_chance(len(state.history) - implied)
            emit({"chance": move.to_json(), "events": _public(state.apply(move))}, CHANCE, move.to_json())

    # A recorded game may be in an older notation (rules.core.RecordReader):
    # before a line, the picks an older engine made by itself.
    reader = game.record_reader()
    resolve_chance()
    for n, (lineno, data) in enumerate(numbered, start=1):
        try:
            while (pick := reader.implied(state, data)) is not None:
                seat = state.to_move()
                emit({"implied": pick.to_json(), "events": _public(state.apply(pick))}, seat, pick.to_json())
                implied += 1
                resolve_chance()
            move = reader.read(state, data)
            seat = state.to_move()
            events = state.apply(move)
        except ValueError as exc:
            raise UsageError(f"{name}:{lineno}: not a {game.id} move: {exc}") from None
        except IllegalMove as exc:
            emit({"n": n, "ok": False, "code": exc.code, "rule": sections.name(game.id, exc.rule, "en"),
                  "rule_it": exc.rule, "message": exc.message()}, seat, data, exc)
            continue
        emit({"n": n, "ok": True, "events": _public(events)}, seat, data)
        resolve_chance()
    while (pick := reader.implied(state, None)) is not None:
        seat = state.to_move()
        emit({"implied": pick.to_json(), "events": _public(state.apply(pick))}, seat, pick.to_json())
    outcome = state.outcome()
    emit({"outcome": outcome.to_json() if outcome else None, "view": state.view(None)},
         state.to_move(), outcome)


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


class Words:
    """A replay's records told as the table tells a game: its adapter's words
    for moves and endings, the catalogue's for refusals."""

    def __init__(self, game_id: str, players: int, lang: str) -> None:
        from pi_app import games  # only for words: replay's JSON needs no table code

        self.game_id = game_id
        self.lang = lang
        self.adapter = games.for_game(game_id, players, lang)

    def who(self, seat: int | None) -> str:
        if seat is None or seat == CHANCE:
            return t("replay-table", self.lang)
        return self.adapter.player_name(seat, self.lang)

    def say(self, record: dict[str, Any], seat: int | None, move: Any, error: IllegalMove | None) -> str:
        lang = self.lang
        if "view" in record:
            if not isinstance(move, Outcome):
                return t("replay-not-over", lang, seat=self.who(seat))
            big, detail = self.adapter.outcome_lines(move, lang)
            return "; ".join([big, *detail])
        what = self.adapter.record_text(move, lang) if isinstance(move, dict) else str(move)
        head = f"{record['n']}. " if "n" in record else ""
        said = f"{head}{self.who(seat)}: {what}"
        if error is None:
            return said
        rule = sections.name(self.game_id, error.rule, lang)
        why = error.message(lang, lambda s: self.who(s))
        cited = f" ({t('rule', lang, rule=rule)})" if rule else ""
        return t("replay-refused", lang, move=said, why=why) + cited
