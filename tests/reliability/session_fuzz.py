"""The session under random input: a simulated table with every seat's parts
for any game, the inputs a table can receive, and the checks made after each.

A *twin* is a copy of a session that shares nothing it could change: its own
state (possibly with one seat's secrets dealt afresh), menus, notices,
adapter memory and transcript, a journal that only reads, and a table with no
parts. Asking a twin for its layouts, or giving it an input, leaves the real
session, its journal and its screens exactly as they were.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import queue
import random
import threading
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import rules
from drivers.events import ButtonPressed, TagArrived
from pi_app import games
from pi_app.games.base import TableAdapter
from pi_app.i18n import t
from pi_app.session import computer
from pi_app.session.loop import SHOW_ALL, Session
from pi_app.simulated.autoplay import button_toward, next_input
from pi_app.store.journal import Journal
from pi_app.store.registry import Registry
from pi_app.table import hardware, profile
from pi_app.ui.menu import Cursor
from players import Budget
from rules.core import CHANCE, Event, IllegalMove, Move, State

#: the table variants: shipped profiles, and sim with chance entered at the table
TABLES = ("sim", "sim-regions", "sim-chance-at-table")
#: a computer seat thinks briefly: hundreds of inputs per example
COMPUTER_BUDGET = Budget(iterations=6, seconds=None)


@dataclass(frozen=True)
class Setup:
    game: str
    players: int
    options: dict[str, Any]
    table: str
    seed: int
    lang: str = "en"
    computer: int | None = None  # a seat played by a computer player


@dataclass(frozen=True)
class Input:
    kind: str  # "tap", "press" or "show-all"
    part: str = ""  # the reader or button
    uid: str = ""

    def event(self) -> object:
        if self.kind == "tap":
            return TagArrived(self.part, self.uid, 0.0)
        if self.kind == "press":
            return ButtonPressed(self.part, 0.0)
        return SHOW_ALL

    def __str__(self) -> str:
        return f"{self.kind} {self.part} {self.uid}".strip()


def load_profile(name: str) -> profile.Profile:
    if name == "sim-chance-at-table":
        return dataclasses.replace(profile.load(profile.find("sim")), chance="table")
    return profile.load(profile.find(name))


class Harness:
    """One game on a simulated table built with ALL the profile's seats, so
    pads and buttons of seats beyond the player count exist and can be used."""

    def __init__(self, folder: Path, setup: Setup) -> None:
        self.setup = setup
        self.profile = load_profile(setup.table)
        self.registry = Registry(folder / "tags.sqlite")
        self.journal = Journal(folder / "journal.sqlite")
        self.table = hardware.build(self.profile, queue.Queue(), poll=False)
        fresh = games.for_game(setup.game, setup.players, setup.lang)
        self.session = Session.open(self.table, self.journal, self.registry, game=setup.game,
                                    players=setup.players, seed=setup.seed, options=setup.options,
                                    lang=setup.lang, new=True)
        if setup.computer is not None:
            self.session.seat_computers(computer.players_for({setup.computer}, setup.seed, COMPUTER_BUDGET))
        comps = [(c.id, c.count) for c in self.session.scene.adapter.components()]
        enrolled = self.registry.auto_enroll(setup.game, comps)
        self.uids = {comp: uids[0] for comp, uids in enrolled.items()}
        self.foreign = self._enroll_other_games()
        self.pads = [seat.pad.name for seat in self.profile.seats]
        self.zones = [zone.reader.name for zone in self.profile.zones]
        self.buttons = sorted(self.table.buttons)  # every seat's, and the undo button
        self.session.redraw()
        self.checked_json = ""
        self.checked_entries = -1
        self.open_check = (self.session.scene.game.new_game(setup.players, setup.seed, setup.options), fresh)

    def _enroll_other_games(self) -> list[str]:
        """A few tags enrolled for each other game: known, but not here."""
        uids = []
        for game in rules.GAMES:
            if game == self.setup.game or game not in games.ADAPTERS:
                continue
            comps = games.for_game(game, max(rules.GAMES[game].player_counts), "en").components()[:3]
            enrolled = self.registry.auto_enroll(game, [(c.id, 1) for c in comps])
            uids.extend(u for found in enrolled.values() for u in found)
        return uids

    def send(self, inp: Input) -> None:
        """Through the simulated parts and the queue, handled as the loop
        would, except that an exception is raised here, not shown."""
        if inp.kind == "tap":
            self.table.tap(inp.part, inp.uid)
        elif inp.kind == "press":
            self.table.press(inp.part)
        else:
            self.table.queue.put(SHOW_ALL)
        self.session.pump()

    def close(self) -> None:
        self.table.close()
        self.journal.close()
        self.registry.close()


# -- progress: an input toward a legal move ------------------------------------


def progress(h: Harness, target: Move) -> Input | None:
    """The input that brings the game closer to ``target`` (a legal move now),
    the way a player or the table would give it."""
    s = h.session
    state = s.scene.state
    to_move = state.to_move()
    if to_move is None:
        return None
    if to_move in s.scene.computers:  # a person carries out the computer's move and presses ● for it
        return Input("press", f"{s.scene.seats[to_move].name}.ok")
    if to_move != CHANCE:
        inp = next_input(s, to_move, target)
        if inp.kind == "tap":
            return Input("tap", inp.part, h.uids[inp.what])
        return Input("press", inp.part)
    drawer = s.scene.adapter.chance_seat(state)
    if drawer is not None:  # a secret draw: the drawn card on the drawer's pad
        moves = state.legal_moves()
        for comp in s.scene.adapter.components():
            if target in s.scene.adapter.chance_tap(state, comp, moves):
                return Input("tap", h.pads[drawer], h.uids[comp.id])
        return None
    cursor = s.scene.chance_cursor or Cursor.over(state.legal_moves())
    return Input("press", f"{s.scene.seats[0].name}.{button_toward(cursor, target)}")


# -- twins ---------------------------------------------------------------------


class ReadOnlyJournal:
    """A twin's journal: reads from the real one, writes go nowhere."""

    READS = frozenset({"entries", "snapshot", "current", "path"})

    def __init__(self, real: Any) -> None:
        self._real = real

    def __getattr__(self, name: str) -> Any:
        if name in self.READS:
            return getattr(self._real, name)
        return lambda *args, **kwargs: None


def twin(s: Session, state: State | None = None) -> Session:
    other = copy.copy(s)
    # the session's parts too, each over the twin's own scene: no part, list,
    # dict or set shared with the session
    for name in ("scene", "presentation", "commit", "input"):
        setattr(other, name, copy.copy(getattr(s, name)))
    for holder in (other, other.scene, other.presentation, other.commit):
        for name, value in vars(holder).items():
            if isinstance(value, (list, dict, set)):
                setattr(holder, name, copy.copy(value))
    other.presentation.scene = other.commit.scene = other.input.scene = other.scene
    other.commit.flash, other.input.commit = other.presentation.flash, other.commit
    other.commit.tell = other.presentation.tell
    other.scene.state = (state or s.scene.state).copy()
    other.table = dataclasses.replace(s.table, queue=queue.Queue(), readers={}, screens={}, buttons={},
                                      lights={}, watcher=None, pin_factory=None, i2c=None)
    other.journal = ReadOnlyJournal(s.journal if not isinstance(s.journal, ReadOnlyJournal)
                                    else s.journal._real)
    other.commit.journal = other.journal
    other.presentation.screens, other.presentation.lights = other.table.screens, other.table.lights
    other.scene.adapter = copy.deepcopy(s.scene.adapter)
    other.scene.seats = copy.deepcopy(s.scene.seats)
    other.scene.chance_cursor = copy.deepcopy(s.scene.chance_cursor)
    other.scene.flash_until = {}
    other.presentation.layouts_sent = {}
    other.presentation.observer = None
    other.on_typed = None
    other._stop = threading.Event()
    return other


def screen_texts(s: Session) -> dict[str, str]:
    return {name: layout.text() for name, layout in s.layouts().items()}


def seat_screen(s: Session, seat: int) -> str:
    return s.scene.profile.seats[seat].screen.name


def _moves_json(moves: Any) -> list[Any]:
    return [m.to_json() for m in moves]


# -- the checks ------------------------------------------------------------------


class Leak(AssertionError):
    """A screen says something that depends on another seat's secret."""


def check_no_fault(h: Harness) -> None:
    s = h.session
    error = t("internal-error", s.scene.lang)
    notice = s.scene.shared_notice
    assert notice is None or notice.title != error, "the table shows an internal error"


def check_screens_record(h: Harness) -> None:
    """What each screen last drew is what the session means it to say."""
    for name, text in screen_texts(h.session).items():
        shown = h.table.screens[name].text
        assert shown == text, f"{name} shows {shown!r}, not {text!r}"


def check_replay(h: Harness) -> None:
    """The state is the journal's replay (replayed again whenever either changed)."""
    s = h.session
    entries = len(s.journal.entries(s.scene.record))
    now = json.dumps(s.scene.state.to_json(), sort_keys=True)
    if now == h.checked_json and entries == h.checked_entries:
        return
    replayed = json.dumps(s.journal.replay(s.scene.record).to_json(), sort_keys=True)
    assert replayed == now, "the session's state is not the replay of its journal"
    assert entries == len(s.scene.state.history), "the journal holds other moves than the state"
    h.checked_json, h.checked_entries = now, entries


def secret_holders(state: State, rng: random.Random) -> Iterator[tuple[int, State]]:
    """Each seat holding a secret now, with a copy of the state in which only
    that seat's secrets are dealt afresh (consistent with everything public:
    the engines' conformance suite checks every view is unchanged)."""
    for seat in range(state.players):
        other = state.perturb_secrets(seat, rng)
        if other is not None:
            yield seat, other


def check_menus_follow(s: Session, other: Session, owner: int) -> None:
    """A menu on show (a seat's, or the chance menu on the shared screen) is
    offered over the same moves when ``owner``'s secrets are dealt afresh:
    else the menu itself would tell the seat about them. ``owner``'s own menu
    is its own business."""
    for ui in s.scene.seats:
        # a computer's "menu" is the one move it chose from its own view
        if ui.cursor is not None and ui.index != owner and ui.index not in s.scene.computers:
            offered = _moves_json(other.scene.adapter.menu(other.scene.state, ui.index).stack[0][0])
            if offered != _moves_json(ui.cursor.stack[0][0]):
                raise Leak(f"seat {ui.index + 1}'s menu offers other moves when seat {owner + 1}'s "
                           "secrets are dealt afresh")
    public_chance = (s.scene.profile.chance == "table"
                     and other.scene.adapter.chance_seat(other.scene.state) is None)
    if (s.scene.state.is_chance() and public_chance
            and _moves_json(other.scene.state.legal_moves()) != _moves_json(s.scene.state.legal_moves())):
        raise Leak(f"the chance menu on the shared screen changes with seat {owner + 1}'s secrets")


def check_secrets(h: Harness, rng: random.Random) -> int:
    """No screen says another seat's secret: each seat's screen says the same
    when any other seat's secrets are dealt afresh, the shared screen the
    same when any seat's are, and a computer's screen (which faces the whole
    table) the same when its own are. Returns the comparisons made."""
    s = h.session
    shown = {name: h.table.screens[name].text for name in screen_texts(s)}
    shared = s.scene.profile.shared_screen.name
    compared = 0
    for owner, state in secret_holders(s.scene.state, rng):
        other = twin(s, state)
        check_menus_follow(s, other, owner)
        texts = screen_texts(other)
        for seat in range(len(s.scene.seats)):
            name = seat_screen(s, seat)
            if (seat != owner or seat in s.scene.computers) and texts[name] != shown[name]:
                raise Leak(f"{name} says {shown[name]!r}, but {texts[name]!r} when seat {owner + 1}'s "
                           "secrets are dealt afresh")
        if texts[shared] != shown[shared]:
            raise Leak(f"the shared screen says {shown[shared]!r}, but {texts[shared]!r} when seat "
                       f"{owner + 1}'s secrets are dealt afresh")
        compared += len(s.scene.seats)
    return compared


def check_refusals(h: Harness, before: Session, inp: Input, rng: random.Random) -> int:
    """A refusal (or unknown tag) this input put on a seat's screen says the
    same when the input is given to a twin of the session before it, with any
    other seat's secrets dealt afresh: the reason for a refusal must not tell
    about another seat's hand. Returns the refusals checked."""
    s = h.session
    noticed = [ui.index for ui, was in zip(s.scene.seats, before.scene.seats, strict=True)
               if ui.notice is not None and ui.notice != was.notice]
    if not noticed or inp.kind == "show-all" or inp.part == s.scene.profile.undo.name:
        return 0
    for owner, state in secret_holders(before.scene.state, rng):
        for seat in noticed:
            if seat == owner:
                continue
            other = twin(before, state)
            other.handle(inp.event())
            said, would = s.presentation.seat_layout(seat).text(), other.presentation.seat_layout(seat).text()
            if said != would:
                raise Leak(f"after {inp}, {seat_screen(s, seat)} says {said!r}, but {would!r} when seat "
                           f"{owner + 1}'s secrets are dealt afresh")
    return len(noticed)


def _applied(state: State, moves: list[Move]) -> tuple[State, list[Event]] | None:
    work = state.copy()
    events: list[Event] = []
    for move in moves:
        try:
            events.extend(work.apply(move))
        except IllegalMove:
            return None
    return work, events


def _public(events: list[Event]) -> list[Any]:
    return [e.to_json() for e in events if e.audience is None]


def check_said(h: Harness, before: State, adapter: TableAdapter, movers: set[int],
               rng: random.Random) -> tuple[int, int]:
    """The instructions of the moves just played (on the shared screen) are
    the same when a seat's secrets were dealt afresh before them, for every
    seat that did not act in them (a seat's own move or draw shows what it
    played). When the moves' public events, or the public view after them,
    differ, the rules themselves revealed part of that secret on the table
    (an arrest finding an assassin; Siege's feeding step, which only a seat
    holding food is asked for: one without is seen not to feed): that seat
    is left out. Returns (seats compared, seats left out for a reveal)."""
    s = h.session
    moves = s.scene.state.history[len(before.history):]
    real = _applied(before, moves)
    assert real is not None, "the moves played do not apply again to the state before them"
    compared = revealed = 0
    for owner, state in secret_holders(before, rng):
        if owner in movers:
            continue
        again = _applied(state, moves)
        if again is None:
            raise Leak(f"moves {_moves_json(moves)} by seats {sorted(movers)} depend on seat "
                       f"{owner + 1}'s secrets")
        if _public(again[1]) != _public(real[1]) or again[0].view(None) != real[0].view(None):
            revealed += 1
            continue
        said = copy.deepcopy(adapter).instructions(state, moves, again[1], again[0], s.scene.lang)
        told = s.scene.log
        if s.scene.computer_line is not None and told and told[-1] == s.scene.computer_line:
            told = told[:-1]  # the computer's next move, chosen from its own view, follows
        if said != told:
            raise Leak(f"the table is told {s.scene.log!r}, but {said!r} when seat {owner + 1}'s secrets are "
                       "dealt afresh")
        compared += 1
    return compared, revealed


def actors(s: Session, before: State) -> set[int]:
    """The seats that acted in the moves since ``before``: the seat that
    moved and the seat each chance step was secret to."""
    out: set[int] = set()
    state = before.copy()
    adapter = copy.deepcopy(s.scene.adapter)  # an adapter remembers what it was last asked about
    for move in s.scene.state.history[len(before.history):]:
        to_move = state.to_move()
        if to_move == CHANCE:
            drawer = adapter.chance_seat(state)
            if drawer is not None:
                out.add(drawer)
        elif to_move is not None:
            out.add(to_move)
        state.apply(move)
    return out


# -- all of them ---------------------------------------------------------------


def check_now(h: Harness, rng: random.Random) -> int:
    """The checks of the session as it stands; returns the screens compared."""
    check_no_fault(h)
    check_replay(h)
    check_screens_record(h)
    return check_secrets(h, rng)


def check_opening(h: Harness, rng: random.Random) -> Counter[str]:
    """After the session opened: its setup draws said nothing secret."""
    start, fresh = h.open_check
    said, revealed = check_said(h, start, fresh, actors(h.session, start), rng)
    return Counter(screens=check_now(h, rng), said=said, revealed=revealed)


def give(h: Harness, inp: Input, rng: random.Random) -> Counter[str]:
    """Give the table one input and check everything; returns what was compared."""
    s = h.session
    before = twin(s)
    h.send(inp)
    tally = Counter(inputs=1, screens=check_now(h, rng), refusals=check_refusals(h, before, inp, rng))
    n = len(before.scene.state.history)
    if len(s.scene.state.history) > n and s.scene.state.history[:n] == before.scene.state.history:
        tally["said"], tally["revealed"] = check_said(h, before.scene.state, before.scene.adapter,
                                                      actors(s, before.scene.state), rng)
    return tally
