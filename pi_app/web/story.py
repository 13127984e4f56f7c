"""One game as the public may know it, read from the journal move by move.

Everything kept here comes from the public view ``State.view(None)``, the
public events and the moves as :mod:`pi_app.store.export` judges them: a move made
or received in secret is kept only as "who, when, that it was secret" while
the game is not over (its words are kept aside, told once the rules end the
game). The state itself never leaves this module: the pages get
:class:`Story`'s fields only.

A story is brought up to date incrementally: the moves the journal added
since the last read are replayed on top; anything else (an undo, a journal
replaced) replays the game from its seed.
"""

from __future__ import annotations

import copy
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import rules
from pi_app import games
from pi_app.games.base import TableAdapter, seat_name
from pi_app.store import export
from pi_app.store.journal import Entry, GameRecord, Journal, JournalError
from pi_app.web import scores
from pi_app.web.words import w
from rules import sections
from rules.core import CHANCE, JSON, Event, Move, State


@dataclass(frozen=True)
class Step:
    """One journalled move as the public page tells it."""

    n: int  # from 1, as people count
    seat: int | None  # who moved, or who drew in secret; None: the table (chance)
    chance: bool
    secret: bool
    words: str  # for a secret move: told only once the game is over
    at: float  # when it was written (seconds since the epoch)


@dataclass
class Story:
    record: GameRecord
    lang: str
    name: str = ""
    steps: list[Step] = field(default_factory=list)
    view: JSON = field(default_factory=dict)  # the public view after the last move
    to_move: int | None = None  # a seat, CHANCE or None
    said: list[str] = field(default_factory=list)  # what the table was last told to do
    outcome: tuple[str, list[str]] | None = None  # the table's words for the end
    running: list[tuple[int, list[float]]] = field(default_factory=list)  # (move, scores) when they change
    score_name: str | None = None
    labels: TableAdapter | None = None  # the game's words for the view's keys and values (no state in them)
    refusals: Counter[str] | None = None  # refused moves by rule; None: the journal keeps none

    @property
    def over(self) -> bool:
        return self.outcome is not None

    @property
    def finished(self) -> bool:
        """Ended by its rules, or abandoned (another game was started over it)."""
        return self.over or self.record.ended

    def player(self, seat: int | None, lang: str) -> str:
        """The player at ``seat`` as the table's screens name them."""
        return seat_name(seat, lang, self.record.game, self.record.names)


class Reader:
    """Keeps one game's story up to date with its journal."""

    def __init__(self, record: GameRecord, lang: str) -> None:
        self.record = record
        self.lang = lang
        self._entries: list[Entry] = []
        self._state: State | None = None
        self._adapter: TableAdapter | None = None
        self._batch: list[tuple[State, Move, list[Event]]] = []
        self.story = Story(record, lang)

    def refresh(self, journal: Journal) -> Story:
        """The story with every move the journal holds now (JournalError when
        the journal cannot be read or replayed: the caller keeps the last story)."""
        record = journal.game(self.record.id)
        entries = journal.entries(record)
        times = journal.times(record)
        known = len(self._entries)
        if self._state is None or entries[:known] != self._entries or record.game != self.record.game:
            self._restart(record)
            known = 0
        self.record = record
        self.story.record = record
        kept = journal.refusals(record)
        self.story.refusals = None if kept is None else Counter(
            rule_words(record.game, rule, self.lang) for rule, _ in kept)
        if len(entries) == known and self._state is not None:
            return self.story
        assert self._state is not None and self._adapter is not None
        game = rules.get(record.game)
        for entry in entries[known:]:
            before = self._state.copy()
            try:
                move = game.move_from_json(entry.move)
                events = self._state.apply(move)
            except (ValueError, TypeError, KeyError, AttributeError, rules.IllegalMove) as exc:
                self._state = None  # replay from the seed next time
                raise JournalError(f"game {record.id} move {entry.n} does not apply: {exc}") from None
            self._step(entry, before, move, events, times[entry.n] if entry.n < len(times) else 0.0)
            self._entries.append(entry)
        self._tell(self._state, copy.deepcopy(self._adapter))
        self._finish()
        return self.story

    def _restart(self, record: GameRecord) -> None:
        game = rules.get(record.game)
        try:
            self._state = game.new_game(record.players, record.seed, record.options)
        except (TypeError, ValueError) as exc:
            raise JournalError(f"game {record.id}: {exc}") from None
        self._adapter = games.for_game(record.game, record.players, self.lang, record.names)
        self._entries = []
        self._batch = []
        self.story = Story(record, self.lang, name=game.name or record.game,
                           score_name=scores.name(record.game, self.lang),
                           labels=games.for_game(record.game, record.players, self.lang, record.names))
        self._score(0)

    def _step(self, entry: Entry, before: State, move: Move, events: list[Event], at: float) -> None:
        assert self._adapter is not None and self._state is not None
        adapter = self._adapter
        chance = before.to_move() == CHANCE
        seat = entry.seat if not chance else None
        adapter.looking_at(before)
        drawer = export.secret_seat(before, move, events)
        secret = drawer is not None
        # a secret move's values, kept for the page once the game is over
        words = (export.secret_values(adapter, entry.move, self.lang) if secret
                 else adapter.record_text(entry.move, self.lang))
        self.story.steps.append(Step(entry.n + 1, drawer if secret else seat, chance, secret, words, at))
        # the table's instructions come in batches: a move and the draws Tablekeeper made after it
        if self._batch and not before.is_chance():
            self._tell(before, self._adapter)  # a batch closes: told once, as the table told it
            self._batch = []
        self._batch.append((before, move, events))
        self._score(entry.n + 1)

    def _tell(self, after: State, adapter: TableAdapter) -> None:
        """The instructions for the batch: a move and the draws Tablekeeper
        made after it. Adapters remember what they told (a figure's name), so
        each batch is told to the story's adapter once, when it closes; the
        open one is told to a copy, whatever the moves each read brought."""
        if not self._batch:
            return
        batch = self._batch
        said = adapter.instructions(
            batch[0][0], [m for _, m, _ in batch], [e for *_, evs in batch for e in evs], after, self.lang)
        self.story.said = [spelled_out(line, adapter.legend(after, self.lang)) for line in said]

    def _score(self, n: int) -> None:
        assert self._state is not None
        now = scores.running(self.record.game, self._state.view(None))
        if now is not None and (not self.story.running or self.story.running[-1][1] != now):
            self.story.running.append((n, now))

    def _finish(self) -> None:
        assert self._state is not None and self._adapter is not None
        state = self._state
        self.story.view = state.view(None)
        self.story.to_move = state.to_move()
        outcome = state.outcome()
        self.story.outcome = self._adapter.outcome_lines(outcome, self.lang) if outcome is not None else None


def rule_words(game: str, rule: str, lang: str) -> str:
    """A refusal's rule as the page's language names its rulebook section;
    the table's own refusals (a tap on another seat's pad, the computer's
    move) name no section."""
    return sections.name(game, rule, lang) if rule else w("table-rule", lang)


def public_refusals(story: Story) -> Counter[str] | None:
    """The refusals by rule once the game is over (a refusal can tell what a
    seat does not hold: "not in your hand"), an empty count before."""
    if story.refusals is None:
        return None
    return story.refusals if story.over else Counter()


def public_steps(story: Story) -> list[dict[str, Any]]:
    """The moves as the page lists them: a secret move's words only once over."""
    return [{"n": s.n, "seat": s.seat, "chance": s.chance, "secret": s.secret and not story.over,
             "words": s.words if story.over or not s.secret else "", "at": s.at} for s in story.steps]


def spelled_out(line: str, legend: list[str]) -> str:
    """A screen's line with the short forms its legend spells out ("P3 = Player 3")
    in full: the page has room for whole names, and no legend to hold ● for."""
    for entry in legend:
        short, sep, full = entry.partition(" = ")
        if sep and short:
            line = re.sub(rf"(?<![\w-]){re.escape(short)}(?![\w-])", full, line)
    return line
