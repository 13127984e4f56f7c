"""A journal read for people: every game checked, and one game's move list.

These are maintainer tools (``tablekeeper journal check | export``): they
speak English whatever the table's language, and they only ever read the
journal (:class:`~pi_app.store.journal.Journal` with ``readonly=True``).

Secrets. While a game is not over, its export must not tell what a seat made
or received in secret. Which moves those are is the rules' answer,
``State.secrecy`` (each engine's ``_secret_seat``), the same one the journal's
undo barrier, the page, the computer seat and the table's words read:

* a chance step drawn *into one seat's hand* is secret to that seat: Artus's
  every ``card`` (opening hands and refills); Siege's Attacker's setup
  ``draw``s and every ``draw`` from a normal deck (an event card drawn is
  played face up at once, so public);
* a seat's own move is secret while the rules say its choice is: King &
  Assassins' ``choose`` (the three assassins);
* any game: a chance step whose events have an ``audience`` (a card only its
  drawer sees) is secret to that audience.

Everything else is public: it happened in front of the whole table (dice, a
round card turned over, a card played face up, King & Assassins' arrest,
whose *consequence* may be secret but whose move is not). The journal's
``barrier`` column is not used: it marks what undo may not cross, and every
public die is a barrier too. ``State.view(seat)`` agrees with this reading:
Mordred has perfect information; in The King is Dead a seat's cards still
held follow from the cards it played face up (the rules only ask players to
remember them), so its export, like ``tablekeeper replay`` and the table's
transcript, lists every card played.

The seed decides every draw Tablekeeper makes (``sample_chance``), so an
unfinished game's export leaves it out too. Once the game is over (the rules
give an outcome), everything is shown. An abandoned game (a new one was
started over it) never ends by its rules: its secrets stay hidden.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import rules
from pi_app import games
from pi_app.games.base import TableAdapter, seat_name
from pi_app.store.journal import Entry, GameRecord, Journal, JournalError
from rules.core import CHANCE, JSON, Event, Move, State

LANG = "en"  # maintainer tools: English (the table's own words are for the table)
HIDDEN = "(hidden until the game is over)"


# -- check ----------------------------------------------------------------------
@dataclass(frozen=True)
class GameCheck:
    """One game of a journal, replayed: ``fault`` is None when it is sound."""

    id: int
    game: str
    players: int | None
    moves: int
    status: str  # finished, unfinished, abandoned; ended (finished or abandoned: it did not replay); unknown
    fault: str | None

    def line(self) -> str:
        players = f"{self.players} players" if self.players is not None else "? players"
        verdict = "OK" if self.fault is None else f"FAULT: {self.fault}"
        return f"game {self.id}  {self.game}  {players}  {self.moves} moves  {self.status}  {verdict}"


def check(journal: Journal) -> list[GameCheck]:
    """Every game of ``journal`` replayed as the daemon would resume it
    (moves apply, the snapshot after the last move agrees)."""
    out = []
    for game_id in journal.game_ids():
        moves, game, players, status = journal.move_count(game_id), "?", None, "unknown"
        try:
            record = journal.game(game_id)
            game, players, status = record.game, record.players, _ended(record, None)
            status = _ended(record, journal.replay(record))
        except JournalError as exc:
            out.append(GameCheck(game_id, game, players, moves, status, exc.fault))
            continue
        out.append(GameCheck(game_id, game, players, moves, status, None))
    return out


def _ended(record: GameRecord, state: State | None) -> str:
    if not record.ended:
        return "unfinished"
    if state is None:
        return "ended"
    return "finished" if state.outcome() is not None else "abandoned"


# -- export ---------------------------------------------------------------------
@dataclass(frozen=True)
class MoveLine:
    """One journalled move as the export tells it."""

    n: int  # from 1, as people count
    seat: int | None  # who moved; for a secret draw, who received it; None: the table (chance)
    chance: bool
    move: JSON
    secret: bool
    words: str  # the move in the table's words (the adapter's), secret or not
    game: str = ""  # whose players are named (pi_app.names)
    names: tuple[str, ...] = ()  # the names given at the lobby

    def text(self, over: bool) -> str:
        who = seat_name(self.seat, LANG, self.game, self.names) if self.seat is not None else "chance"
        if self.secret and not over:
            what = "drew a card" if self.chance else "made a secret choice"
            return f"{self.n:4}  {who}  {what} {HIDDEN}"
        return f"{self.n:4}  {who}  {self.words}  {json.dumps(self.move, ensure_ascii=False)}"

    def json_line(self, over: bool) -> JSON:
        if self.secret and not over:
            who = seat_name(self.seat, LANG, self.game, self.names)
            return {"hidden": f"move {self.n}: {who} {'drew a card' if self.chance else 'chose'} {HIDDEN}"}
        return self.move


@dataclass(frozen=True)
class GameLog:
    record: GameRecord
    state: State  # after the last move
    moves: list[MoveLine]

    @property
    def over(self) -> bool:
        return self.state.outcome() is not None


def latest(journal: Journal) -> GameRecord:
    ids = journal.game_ids()
    if not ids:
        raise JournalError(f"journal {journal.path} holds no game yet")
    return journal.game(ids[-1])


def read(journal: Journal, record: GameRecord) -> GameLog:
    """The game replayed move by move, each move judged public or secret."""
    adapter = games.for_game(record.game, record.players, LANG, record.names)
    lines = []

    def step(entry: Entry, before: State, move: Move, events: list[Event]) -> None:
        chance = before.to_move() == CHANCE
        seat = entry.seat if not chance else None
        adapter.looking_at(before)
        drawer = secret_seat(before, move, events)
        secret = drawer is not None
        words = (_secret_words(adapter, entry.move, chance) if secret
                 else adapter.record_text(entry.move, LANG))
        lines.append(MoveLine(entry.n + 1, drawer if secret else seat, chance, entry.move, secret, words,
                              names=record.names))

    # the daemon's own replay and checks: a faulty game is refused as it would be
    state = journal.replay(record, each=step)
    return GameLog(record, state, lines)


def secret_seat(before: State, move: Move, events: Sequence[Event]) -> int | None:
    """The seat that made or received this move in secret, or None for a
    public move: the rules' answer (``State.secrecy``)."""
    return before.secrecy(move, events).holder


def _secret_words(adapter: TableAdapter, move: JSON, chance: bool) -> str:
    # An adapter's words for a secret move keep the secret ("a card drawn"):
    # once it may be told, the values themselves are named.
    return f"{'drew' if chance else 'chose in secret'}: {secret_values(adapter, move, LANG)}"


def secret_values(adapter: TableAdapter, move: JSON, lang: str) -> str:
    """What a secret move chose or drew, in words (told once the game is over)."""
    values = ", ".join(adapter.value_label(k, v, lang) for k, v in move.items() if k != "type")
    return values or adapter.move_text(move, lang)


def text(log: GameLog, journal: Journal) -> list[str]:
    rec, over = log.record, log.over
    game = rules.get(rec.game)
    started = (datetime.fromtimestamp(rec.started, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
               if rec.started is not None else "unknown")
    out = [
        f"game {rec.id}: {game.name or rec.game} ({rec.game}), {rec.players} players",
        f"options: {json.dumps(rec.options, sort_keys=True)}",
        f"started: {started}",
        f"seed: {rec.seed}" if over else f"seed: {HIDDEN[1:-1]} (it decides the draws)",
        f"journal: {journal.path}",
        "",
    ]
    out += [line.text(over) for line in log.moves]
    out += ["", f"outcome: {_outcome(log)}"]
    return out


def _outcome(log: GameLog) -> str:
    outcome = log.state.outcome()
    if outcome is None:
        if log.record.ended:
            return "none (abandoned: another game was started)"
        to_move = log.state.to_move()
        who = "chance" if to_move == CHANCE else seat_name(to_move, LANG, log.record.game, log.record.names)
        return f"none yet ({who} to move)"
    adapter = games.for_game(log.record.game, log.record.players, LANG, log.record.names)
    big, lines = adapter.outcome_lines(outcome, LANG)
    return "; ".join([big, *lines])


def jsonl(log: GameLog) -> list[str]:
    """A log ``tablekeeper replay`` reads (``"chance": "file"``: every draw
    is a move line). An unfinished game leaves out its seed, and a secret
    move stands as a ``{"hidden": ...}`` line that replay refuses, by design."""
    rec, over = log.record, log.over
    header: dict[str, Any] = {"game": rec.game, "players": rec.players, "options": rec.options,
                              "chance": "file"}
    if over:
        header["seed"] = rec.seed
    lines = [header] + [m.json_line(over) for m in log.moves]
    return [json.dumps(line, ensure_ascii=False, sort_keys=False) for line in lines]
