"""Choosing the next game at the table: when the daemon has no game to
resume, the shared screen offers every registered game and player count
that fits the table; any seat steps through them with ◀ ▶ and picks one
with ●, then says how many of its seats are computer players (the last
seats; none by default) and starts it with ●. Meanwhile ● on a computer
seat steps its level (easy, normal, hard; the profile's ``[computer]
level`` to begin with), which that seat's screen shows.

Players may give their names meanwhile, typed at the console (``name 2
Anna``), or at a table without one with their own seat's buttons: holding
◀ or ▶ turns that seat's buttons to its name (the step its press made on
the shared screen is taken back), ◀ ▶ then step through the names the
table knows (the profile's ``[players] names`` and those of its recent
games, then the seat's own default) and ● goes back to the games. One
hold, then plain presses: quicker than a hold per name, and the presses of
a seat that never holds do what they always did. Each seat's screen shows
the name it was given; the game's screens then use it (pi_app.names)."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Sequence

import rules
from drivers.events import ButtonHeld, ButtonPressed
from pi_app import games as table_games
from pi_app.i18n import pick
from pi_app.names import MAX_NAME, given_names, seat_named
from pi_app.session import computer
from pi_app.session.loop import ARROWS, SHOW_ALL, STOP, Typed
from pi_app.table.hardware import Table
from pi_app.ui.screens import Layout, render
from pi_app.web import address

WORDS = {
    "title": ("New game", "Nuova partita"),
    "players": ("{n} players", "{n} giocatori"),
    "choose": ("Choose on the shared screen", "Scegli sullo schermo comune"),
    "page": ("Follow the game", "Segui la partita"),
    "computers": ("Computer players", "Giocatori computer"),
    "no-computer": ("None", "Nessuno"),
    "computer-seats": ("{n}, in the last seats", "{n}, negli ultimi posti"),
    "level-hint": ("● on its seat: level", "● al suo posto: livello"),
    "computer-seat": ("Computer player", "Giocatore computer"),
    "level-step": ("● here: another level", "● qui: altro livello"),
    "named": ("Your name: {name}", "Il tuo nome: {name}"),
    "hold-to-name": ("Hold ◀ or ▶ to give your name", "Tieni premuto ◀ o ▶ per il tuo nome"),
    "your-name": ("Your name", "Il tuo nome"),
    "no-name": ("No name", "Nessun nome"),
    "step-names": ("◀ ▶ another name, ● done", "◀ ▶ altro nome, ● fatto"),
    # ● refused: a name the chosen game gives another seat. Three short lines
    # with the title: the lobby turns no pages, so it must fit one screen.
    "name-taken": ("Name taken", "Nome già usato"),
    "name-clash": ("{name} is another player's name", "{name} è il nome di un altro giocatore"),
    "rename-console": ("Rename at the console", "Cambialo alla console"),
    # where the table knows names to step through, the seat mends it with its own buttons
    "rename-hold": ("Hold ◀ or ▶ on that seat", "Tieni ◀ o ▶ a quel posto"),
}


def choices(table: Table) -> list[tuple[str, int]]:
    """Games with their own adapter first, then the rest; each player count
    the table has seats for."""
    seats = len(table.profile.seats)
    ids = sorted(rules.GAMES, key=lambda g: (not table_games.has_own_adapter(g), list(rules.GAMES).index(g)))
    return [(g, n) for g in ids for n in rules.get(g).player_counts if n <= seats]


class Lobby:
    def __init__(self, table: Table, lang: str, page: str | None = None, known: Sequence[str] = (),
                 level: str = computer.DEFAULT_LEVEL) -> None:
        self.table = table
        self.lang = lang
        self.options = choices(table)
        self.index = 0
        #: the spectator page's address (pi_app.web.address), a last choice showing it and its QR code
        self.page = page
        #: after a game is picked: how many of its seats the computer takes (None: still picking)
        self.computers: int | None = None
        #: called with every layout drawn (the console)
        self.observer: Callable[[dict[str, Layout]], None] | None = None
        self.on_typed: Callable[[str], bool] | None = None
        self.heartbeat = time.monotonic()
        #: seat -> the name given at the console or with the seat's buttons, for the game chosen
        self.names: dict[int, str] = {}
        #: why ● did not start the game (a name the game gives another seat), and the fix
        self.problem: tuple[str, str] | None = None
        #: the names a seat steps through: the profile's, then ``known`` (the journal's recent ones)
        self.known = known_names([*table.profile.names, *known], len(table.profile.seats))
        #: seats whose buttons step their name (a hold of ◀ or ▶ began it; ● ends it)
        self.naming: set[int] = set()
        #: ◀ or ▶ -> the stage its last press stepped (a hold takes that step back)
        self._stepped: dict[str, tuple[int | None, int]] = {}
        #: a computer seat's level: ``level`` (the profile's) until ● on that seat steps it
        self.level = level
        self.levels: dict[int, str] = {}

    def alive(self) -> bool:
        """For the watchdog, as Session.alive: the loop turns, the threads run."""
        return time.monotonic() - self.heartbeat < 5.0 and self.table.alive()

    def layouts(self) -> dict[str, Layout]:
        if self.page is not None and self.index == len(self.options):
            shared = Layout(title=pick(WORDS["page"], self.lang), image=address.qr_image(self.page),
                            lines=address.short_lines(self.page), footer=ARROWS)
            return self._with_seats(shared)
        game, n = self.options[self.index]
        if self.computers is not None and self.problem is not None:
            shared = Layout(title=pick(WORDS["name-taken"], self.lang), lines=self.problem, footer=ARROWS,
                            alert=True)
        elif self.computers is not None:
            count = self.computers
            big = (pick(WORDS["no-computer"], self.lang) if count == 0
                   else pick(WORDS["computer-seats"], self.lang).format(n=count))
            hint = (pick(WORDS["level-hint"], self.lang),) if count else ()
            shared = Layout(title=pick(WORDS["computers"], self.lang), big=big,
                            lines=(f"{rules.get(game).name or game}, "
                                   f"{pick(WORDS['players'], self.lang).format(n=n)}", *hint),
                            footer=ARROWS)
        else:
            shared = Layout(title=pick(WORDS["title"], self.lang), big=rules.get(game).name or game,
                            lines=(f"{pick(WORDS['players'], self.lang).format(n=n)}  "
                                   f"{self.index + 1}/{len(self.options)}",), footer=ARROWS)
        return self._with_seats(shared)

    def _with_seats(self, shared: Layout) -> dict[str, Layout]:
        out = {self.table.profile.shared_screen.name: shared}
        levels = self.computer_levels() if self.computers else {}
        for i, seat in enumerate(self.table.profile.seats):
            if i in levels and i not in self.naming:
                out[seat.screen.name] = Layout(title=pick(WORDS["computer-seat"], self.lang),
                                               big=computer.level_words(levels[i], self.lang),
                                               lines=(pick(WORDS["level-step"], self.lang),))
                continue
            if i in self.naming:
                out[seat.screen.name] = Layout(title=pick(WORDS["your-name"], self.lang),
                                               big=self.names.get(i) or pick(WORDS["no-name"], self.lang),
                                               lines=(pick(WORDS["step-names"], self.lang),), footer=ARROWS)
                continue
            named = ((pick(WORDS["named"], self.lang).format(name=self.names[i]),) if self.names.get(i)
                     else ())
            # how to give a name, until one is given (four lines is all a screen has)
            hint = (pick(WORDS["hold-to-name"], self.lang),) if self.known and not named else ()
            out[seat.screen.name] = Layout(title=pick(WORDS["title"], self.lang),
                                           lines=(pick(WORDS["choose"], self.lang), *named, *hint))
        return out

    def name_choices(self, seat: int) -> list[str]:
        """What ``seat`` (0-based) may step to now: the known names no other
        seat has taken and none the game on the shared screen gives another
        seat ("King"), then "" (its default name)."""
        seats = len(self.table.profile.seats)
        game, n = self.options[min(self.index, len(self.options) - 1)] if self.options else ("", seats)
        out = []
        for name in self.known:
            try:
                given_names({**self.names, seat: name}, "", seats)
            except ValueError:
                continue
            if seat_named(name, game, n) in (None, seat):
                out.append(name)
        return [*out, ""]

    def step_name(self, seat: int, step: int) -> None:
        """Seat ``seat``'s name, one further along its choices (``step`` ±1)."""
        choices = self.name_choices(seat)
        current = self.names.get(seat, "")
        at = next((i for i, n in enumerate(choices) if n.lower() == current.lower()), None)
        if at is None:  # a typed name, or one taken since: ▶ goes to the first, ◀ to the default
            at = -1 if step > 0 else 0
        nxt = choices[(at + step) % len(choices)]
        self.names = {s: n for s, n in {**self.names, seat: nxt}.items() if n}
        self.problem = None

    def give_name(self, seat: int, name: str) -> str:
        """Seat ``seat`` (0-based) is to be called ``name`` ("" for its
        default name again); what the console answers. ValueError for a name
        the table cannot use (players.given_names)."""
        names = {**self.names, seat: name}
        given_names(names, "", len(self.table.profile.seats))  # checked before it is kept
        self.names = {s: n for s, n in names.items() if n.strip()}
        self.problem = None
        self.redraw()
        return f"seat {seat + 1}: {' '.join(name.split()) or 'default name'}"

    def player_names(self, game: str, count: int) -> tuple[str, ...]:
        """The names given for a game of ``game`` for ``count`` (the journal's
        form); ValueError when one of them is what the game calls another
        seat ("King" given to seat 2)."""
        return given_names({s: n for s, n in self.names.items() if s < count}, game, count)

    def redraw(self) -> None:
        layouts = self.layouts()
        for name, layout in layouts.items():
            screen = self.table.screens.get(name)
            if screen is not None:
                screen.show(render(layout), text=layout.text())
        if self.observer is not None:
            shared = self.table.profile.shared_screen.name
            # and the computer seats' screens, which say their levels (the console shows what it is given)
            seats = self.table.profile.seats
            levels = {seats[i].screen.name: layouts[seats[i].screen.name]
                      for i in (self.computer_levels() if self.computers else {}) if i < len(seats)}
            self.observer({shared: layouts[shared], **levels})

    def press(self, button: str) -> tuple[str, int] | None:
        role = button.rsplit(".", 1)[-1]
        seat = self.table.profile.seat_of_part(button)
        if seat in self.naming:  # this seat's buttons give its name until ●
            if role == "ok":
                self.naming.discard(seat)
            elif role in ("left", "right"):
                self.step_name(seat, 1 if role == "right" else -1)
            return None
        if role in ("left", "right"):
            self._stepped[button] = (self.computers, self.index)
        if self.computers is not None:
            players = self.options[self.index][1]
            if role in ("left", "right"):  # at least one seat stays a person's
                self.computers = (self.computers + (1 if role == "right" else -1)) % players
            elif role == "ok" and seat in self.computer_seats():  # a computer's ●: its next level
                names = list(computer.LEVELS)
                self.levels[seat] = names[(names.index(self.computer_levels()[seat]) + 1) % len(names)]
            elif role == "ok":
                game, n = self.options[self.index]
                try:
                    self.player_names(game, n)
                except ValueError:  # said on the shared screen with the fix: the console or a hold
                    clash = next((name for seat, name in self.names.items()
                                  if seat_named(name, game, n) not in (None, seat)), "?")
                    fix = WORDS["rename-hold" if self.known else "rename-console"]
                    said = pick(WORDS["name-clash"], self.lang).format(name=clash)
                    self.problem = (said, pick(fix, self.lang))
                    return None
                return self.options[self.index]
            return None
        count = len(self.options) + (self.page is not None)
        if role == "left":
            self.index = (self.index - 1) % count
        elif role == "right":
            self.index = (self.index + 1) % count
        elif role == "ok" and self.index < len(self.options):
            self.computers = 0
        return None

    def hold(self, button: str) -> None:
        """◀ or ▶ held on a seat: its press's step on the shared screen is
        taken back (if nothing moved on since) and the seat's buttons give
        its name. A table that knows no names has nothing to step: the hold
        does nothing, as ever."""
        role = button.rsplit(".", 1)[-1]
        seat = self.table.profile.seat_of_part(button)
        if seat is None or role not in ("left", "right") or seat in self.naming or not self.known:
            return
        stepped = self._stepped.pop(button, None)
        if stepped is not None and stepped[0] is None and self.computers is None:
            count = len(self.options) + (self.page is not None)
            self.index = (self.index + (1 if role == "left" else -1)) % count
        elif stepped is not None and stepped[0] is not None and self.computers is not None \
                and stepped[1] == self.index:
            players = self.options[self.index][1]
            self.computers = (self.computers + (1 if role == "left" else -1)) % players
        self.naming.add(seat)

    def computer_seats(self) -> set[int]:
        """The seats chosen for computer players: the last ones."""
        players = self.options[self.index][1]
        return set(range(players - (self.computers or 0), players))

    def computer_levels(self) -> dict[int, str]:
        """The computer seats with their levels."""
        return {seat: self.levels.get(seat, self.level) for seat in sorted(self.computer_seats())}

    def choose(self, stop: threading.Event) -> tuple[str, int] | None:
        """Wait for a choice; None when stopped first."""
        if not self.options:
            return None
        self.redraw()
        while not stop.is_set():
            self.heartbeat = time.monotonic()
            try:
                event = self.table.queue.get(timeout=0.1)
            except queue.Empty:
                continue
            if event == STOP:
                stop.set()
                return None
            if isinstance(event, Typed):
                event.run(self.on_typed, self.table.queue)
                continue
            if event == SHOW_ALL:  # the console's show
                self.redraw()
                continue
            if isinstance(event, ButtonPressed) and event.button != self.table.profile.undo.name:
                chosen = self.press(event.button)
                if chosen is not None:
                    return chosen
                self.redraw()
            elif isinstance(event, ButtonHeld):
                self.hold(event.button)
                self.redraw()
        return None


def known_names(names: Sequence[str], seats: int) -> tuple[str, ...]:
    """The names a lobby offers, in order, each once: none too long for a
    screen nor one the table calls a seat by ("Player 2")."""
    kept: dict[str, str] = {}
    for text in names:
        name = " ".join(text.split())
        if name and len(name) <= MAX_NAME and seat_named(name, "", seats) is None:
            kept.setdefault(name.lower(), name)
    return tuple(kept.values())
