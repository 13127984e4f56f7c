"""The terminal console of a simulated table: typed taps and presses in,
every screen that changed out, as text that fits an 80x24 terminal (as
pictures with ``run --pictures``). What changes while the prompt is up (the
computer's move) is printed at once above it, and the prompt and what was
typed so far are written again below, so nothing is printed over a line.

Commands::

    tap seat1 garrison        a seat's card, piece or region, by the name its
                              screen shows (any case: "Aquae Sulis", "aquae-sulis")
    tap attacker knight       a seat by its player's name too ("player1", "king")
    tap seat1 04A1B2C3D4E5F6  a raw UID (unknown tags are reported, not guessed)
    press seat1 ok            left | ok | right of a seat; "press undo"
    hold seat2 right          holds it a second (at the lobby: to give a name)
    name 2 Anna               at the lobby: seat 2's player is called Anna
                              ("name 2" gives the seat its own name back)
    show                      every screen now
    sync [WORD]               prints "= WORD" once all typed before it is done
                              (for scripts)
    help, quit
"""

from __future__ import annotations

import os
import queue
import re
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, TextIO

from pi_app import names
from pi_app.i18n import pick
from pi_app.session.loop import SHOW_ALL, STOP, Typed
from pi_app.store.registry import Registry
from pi_app.table.hardware import Table
from pi_app.ui.screens import Layout, ascii_art, render

HELP = textwrap.dedent(__doc__.split("Commands::", 1)[1]).strip("\n") if __doc__ else ""
HELP_IT = """\
tap seat1 garrison        una carta, un pezzo o una regione di un posto, col nome
                          che mostra lo schermo (maiuscole o no, in entrambe le
                          lingue: "Aquae Sulis", "guarnigione")
tap attacker knight       un posto anche col nome del giocatore ("player1", "king")
tap seat1 04A1B2C3D4E5F6  un UID (un tag sconosciuto è segnalato, non indovinato)
press seat1 ok            left | ok | right di un posto; "press undo" annulla
hold seat2 right          tiene premuto un secondo (prima della partita: per un nome)
name 2 Anna               prima della partita: il giocatore del posto 2 si chiama
                          Anna ("name 2" gli ridà il nome del posto)
show                      ristampa tutti gli schermi
sync [PAROLA]             stampa "= PAROLA" quando tutto ciò che precede è fatto
                          (per gli script)
help, quit                questo aiuto; esci"""

#: what the console says, in each language (its commands stay as typed: tap, press ...)
WORDS: dict[str, tuple[str, str]] = {
    "ready": ("{table}: type help", "{table}: scrivi help per l'aiuto"),
    "new-game": ("new game: {what}", "nuova partita: {what}"),
    "resumed": ("resumed {what} at move {n}", "ripresa {what} alla mossa {n}"),
    "game-for": ("{game} for {n}", "{game} in {n}"),
    "lobby": ("no game to resume: choose one on the shared screen (press seat1 right/ok)",
              "nessuna partita da riprendere: scegline una sullo schermo comune (press seat1 right/ok)"),
    "unknown-command": ("unknown command {cmd!r}; type help", "comando sconosciuto {cmd!r}; scrivi help"),
    "names-at-lobby": ("names are given at the lobby, before a game starts (or with run --name); "
                       "this game keeps the names it began with",
                       "i nomi si danno prima della partita (o con run --name); "
                       "questa partita tiene i nomi con cui è cominciata"),
    "name-usage": ("name SEAT NAME, e.g. name 2 Anna (name 2: the seat's own name again)",
                   "name POSTO NOME, per esempio name 2 Anna (name 2: di nuovo il nome del posto)"),
    "no-seat-number": ("no seat {seat!r}; seats 1..{n}", "nessun posto {seat!r}; posti da 1 a {n}"),
    "no-seat": ("no seat {seat!r} in this game; seats: {seats}",
                "nessun posto {seat!r} in questa partita; posti: {seats}"),
    "tap-usage": ("write: tap SEAT THING, e.g. tap seat1 garrison (or tap ZONE THING)",
                  "scrivi: tap POSTO COSA, per esempio tap seat1 guarnigione (o tap ZONA COSA)"),
    "nothing-called": ("nothing called {thing!r}", "niente si chiama {thing!r}"),
    "try-one-of": ("nothing called {thing!r}; try one of: {names} or a hex UID",
                   "niente si chiama {thing!r}; prova con: {names} o un UID esadecimale"),
    "no-tag": ("{thing} has no tag enrolled", "{thing} non ha un tag registrato"),
    "no-tag-enroll": ("{thing} has no tag enrolled; run: tablekeeper tags enroll {game}",
                      "{thing} non ha un tag registrato; esegui: tablekeeper tags enroll {game}"),
    "press-usage": ("write: press SEAT left|ok|right, or press undo",
                    "scrivi: press POSTO left|ok|right, o press undo"),
}


def said(key: str, lang: str, **params: Any) -> str:
    """One of the console's sentences in ``lang``."""
    return pick(WORDS[key], lang).format(**params)
PROMPT = "> "
COLUMNS = 80


def width(interactive: bool) -> int | None:
    """How wide the console writes: at a terminal COLUMNS (80) or less when
    $COLUMNS says so; elsewhere $COLUMNS if set, else no wrapping at all."""
    given = os.environ.get("COLUMNS", "")
    columns = int(given) if given.isdigit() and int(given) >= 20 else None
    if interactive:
        return min(COLUMNS, columns or COLUMNS)
    return columns


def norm(text: str) -> str:
    """One spelling for every tag name: case, spaces, - and _ ignored."""
    return re.sub(r"[\s_\-]+", "", text.lower())


class ConsoleError(ValueError):
    pass


class Console:
    def __init__(self, table: Table, registry: Registry, game: str, components: list,
                 out: TextIO | None = None, pictures: bool = True, interactive: bool = False) -> None:
        self.table = table
        self.registry = registry
        self.game = game
        self.components = components
        self.out = out or sys.stdout
        self.pictures = pictures
        #: seats in the game now (the first ones of the profile); None: all
        self.players: int | None = None
        self.lang = "en"
        self._printed: dict[str, str] = {}  # per screen, the words last printed
        self._lock = threading.Lock()
        #: what has been typed after the prompt so far (readline's buffer at a terminal)
        self.typed_so_far: Callable[[], str] = lambda: ""
        #: a person at a terminal: a prompt, and lines wrapped to COLUMNS
        #: (a script or a pipe gets neither, one screen line per line, unless
        #: $COLUMNS says how wide to wrap)
        self.interactive = interactive
        self.width = width(interactive)
        #: set once a prompt is up: output is then printed above it
        self.prompting = False
        self.ready = threading.Event()  # the first screens are out
        #: the players' names given at the lobby, by seat, in the game now
        self.names: tuple[str, ...] = ()
        #: at the lobby: gives seat N (0-based) a name, returns what to say;
        #: None during a game, which keeps the names it started with
        self.on_name: Callable[[int, str], str] | None = None

    # -- commands -> hardware ------------------------------------------------
    def execute(self, line: str) -> bool:
        """Run one typed command; False on quit. Errors are printed."""
        words = line.split()
        if not words:
            return True
        cmd, args = words[0].lower(), words[1:]
        try:
            if cmd in ("quit", "exit", "q"):
                return False
            if cmd == "help":
                print(HELP_IT if self.lang == "it" else HELP, file=self.out)
            elif cmd == "tap":
                reader, uid = self.tap_target(args)
                self.table.tap(reader, uid)
            elif cmd == "press":
                self.table.press(self.button(args))
            elif cmd == "hold":
                self.table.hold(self.button(args))
            elif cmd == "name":
                self.name(args)
            elif cmd == "show":
                with self._lock:
                    self._printed.clear()  # every screen, not only the ones that changed
                self.table.queue.put(SHOW_ALL)
            elif cmd == "sync":
                # Typed lines run in order with the events they cause, so this
                # line runs after everything typed before it has been handled.
                print("= " + " ".join(args), file=self.out, flush=True)
            else:
                raise ConsoleError(said("unknown-command", self.lang, cmd=cmd))
        except ConsoleError as exc:
            print(self.fit(f"! {exc}", "  "), file=self.out)
        return True

    def fit(self, text: str, indent: str = "") -> str:
        """``text`` wrapped to the console's width (as it is, with none)."""
        if not self.width:
            return text
        return "\n".join(textwrap.fill(line, self.width - 1, subsequent_indent=indent)
                         for line in text.splitlines())

    def name(self, args: list[str]) -> None:
        if self.on_name is None:
            raise ConsoleError(said("names-at-lobby", self.lang))
        if not args:
            raise ConsoleError(said("name-usage", self.lang))
        number = args[0].lower().removeprefix("seat")
        seats = len(self.table.profile.seats)
        if not number.isdigit() or not 1 <= int(number) <= seats:
            raise ConsoleError(said("no-seat-number", self.lang, seat=args[0], n=seats))
        try:
            print(self.fit(self.on_name(int(number) - 1, " ".join(args[1:]))), file=self.out, flush=True)
        except ValueError as exc:
            raise ConsoleError(str(exc)) from None

    def seat(self, word: str) -> str:
        # A seat beyond the game's players has its parts on the table, but
        # the game ignores them: say so rather than drop the input silently.
        seats = [s.name for s in self.table.profile.seats][: self.players]
        for i, name in enumerate(seats):
            known = {norm(name)} | ({norm(a) for a in names.aliases(self.game, i, self.names)} if self.game
                                    else set())
            if norm(word) in known and f"{name}.pad" in self.table.readers:
                return name
        raise ConsoleError(said("no-seat", self.lang, seat=word,
                                seats=", ".join(n for n in seats if f"{n}.pad" in self.table.readers)))

    def zone(self, words: list[str]) -> tuple[str, int] | None:
        """A board zone named by the first word(s): (its reader, words used)."""
        for zone in self.table.profile.zones:
            n = len(zone.name.split())
            named = [w.lower() for w in words[:n]] == zone.name.lower().split()
            if named and zone.reader.name in self.table.readers:
                return zone.reader.name, n
        return None

    def tap_target(self, args: list[str]) -> tuple[str, str]:
        if len(args) < 2:
            raise ConsoleError(said("tap-usage", self.lang))
        zone = self.zone(args)
        if zone is not None:
            reader, used = zone
            comp = self.resolve(" ".join(args[used:]), -1)
            if comp is None:
                raise ConsoleError(said("nothing-called", self.lang, thing=" ".join(args[used:])))
            uids = self.registry.uids_of(self.game, comp.id)
            if not uids:
                raise ConsoleError(said("no-tag", self.lang, thing=comp.name(self.lang)))
            return reader, uids[0]
        seat_name = self.seat(args[0])
        seat = [s.name for s in self.table.profile.seats].index(seat_name)
        thing = " ".join(args[1:])
        comp = self.resolve(thing, seat)
        if comp is None:
            clean = thing.replace(":", "").upper()
            if len(clean) >= 8 and all(c in "0123456789ABCDEF" for c in clean):
                return f"{seat_name}.pad", clean
            shown = sorted({c.name(self.lang) for c in self.components})
            raise ConsoleError(said("try-one-of", self.lang, thing=thing, names=", ".join(shown)))
        uids = self.registry.uids_of(self.game, comp.id)
        if not uids:
            raise ConsoleError(said("no-tag-enroll", self.lang, thing=comp.name(self.lang), game=self.game))
        return f"{seat_name}.pad", uids[0]

    def resolve(self, thing: str, seat: int) -> object | None:
        """A typed name to a component: the seat's own card first, then any
        component by id, value or the name a screen shows, in either
        language (case, spaces, - and _ ignored)."""
        key = norm(thing)

        def called(comp: Any) -> set[str]:
            return {norm(comp.value), norm(comp.name("en")), norm(comp.name("it"))}

        for comp in self.components:
            if comp.seat == seat and key in called(comp):
                return comp
        for comp in self.components:
            if norm(comp.id) == key or (comp.seat is None and key in called(comp)):
                return comp
        for comp in self.components:  # another seat's card, by id ("garrison@2")
            if key in called(comp):
                return comp
        return None

    def button(self, args: list[str]) -> str:
        if args == ["undo"]:
            return self.table.profile.undo.name
        if len(args) != 2 or args[1] not in ("left", "ok", "right"):
            raise ConsoleError(said("press-usage", self.lang))
        return f"{self.seat(args[0])}.{args[1]}"

    # -- screens -> terminal -------------------------------------------------
    def show(self, layouts: dict[str, Layout], lights: dict[str, str]) -> None:
        """Print the screens that say something new (a screen redrawn with
        the same words is not printed again), and the game's seats' lights;
        while a prompt is up, above it, the prompt written again below."""
        out: list[str] = []
        seats = [s.name for s in self.table.profile.seats][: self.players]
        for name, layout in layouts.items():
            words = ascii_art(render(layout)) if self.pictures else layout.text()
            if self._printed.get(name) == words:
                continue
            self._printed[name] = words
            who = ""
            seat = name.split(".")[0]
            if self.game and seat in seats:
                who = f" ({names.display_name(self.game, seats.index(seat), self.lang, self.names)})"
            out.append(f"┌─ {name}{who} " + "─" * max(0, 40 - len(name) - len(who)))
            if self.pictures:
                out.append(words)
            elif self.width:
                for line in words.splitlines():
                    out += textwrap.wrap(line, self.width - 1, initial_indent="│ ",
                                         subsequent_indent="│   ") or ["│"]
            else:
                out += [f"│ {line}" for line in words.splitlines()]
        if not out:
            return
        own = {n: s for n, s in lights.items() if self.players is None or n.split(".")[0] in seats}
        out.append("└─ lights " + " ".join(f"{n.split('.')[0]}:{s}" for n, s in own.items()))
        self.say("\n".join(out))
        self.ready.set()

    def say(self, text: str) -> None:
        """Print ``text`` now; with a prompt up, on the prompt's line (cleared
        first), then the prompt and what was typed so far again below it."""
        with self._lock:
            if self.prompting and self.interactive:
                self.out.write("\r\x1b[K" + text + "\n" + PROMPT + self.typed_so_far())
                self.out.flush()
            else:
                print(text, file=self.out, flush=True)

    def flush(self, prompt: bool = True) -> None:
        """Put the prompt up (``prompt``), or take it down while a line's
        command runs."""
        with self._lock:
            self.prompting = prompt
        if prompt and self.interactive:
            print(PROMPT, end="", file=self.out, flush=True)


#: the longest line a console or the FIFO takes: a command is a few words; a
#: longer line is refused in words and never held whole in memory
MAX_LINE = 1000


def bounded_lines(stream: TextIO, limit: int = MAX_LINE) -> Iterator[str | None]:
    """The lines of ``stream``; None in place of a line longer than
    ``limit`` characters, whose rest is read and dropped a piece at a time."""
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        if line.endswith("\n") or len(line) <= limit:  # whole: at most the limit and its newline
            yield line
            continue
        while line and not line.endswith("\n"):
            line = stream.readline(64 * 1024)
        yield None


def too_long(limit: int = MAX_LINE) -> str:
    return (f"line refused: longer than {limit} characters; a command is a few words, "
            "e.g. tap seat1 garrison (type help for the list)")


def read_commands(stream: TextIO, events: Any, console: Console | None = None) -> None:
    """The console thread: only queues what is typed (the loop runs it, in
    order with the hardware's events) and STOP at the end of the input.
    With a ``console``, a prompt; what the line caused is printed once the
    table has handled it, then the prompt again."""
    if console is not None:
        console.ready.wait(timeout=5)
        console.flush()
    for line in _lines(stream, console):
        if line is None:
            print(too_long(), flush=True)
            continue
        if console is not None:
            console.flush(prompt=False)  # what came while it was typed, before what it causes
        typed = Typed(line)
        events.put(typed)
        typed.done.wait(timeout=30)
        if console is not None:
            _settle(events)
            console.flush()
    events.put(STOP)


def _lines(stream: TextIO, console: Console | None) -> Iterator[str | None]:
    """The typed lines (None for one over MAX_LINE, see bounded_lines); at a
    terminal through readline, whose buffer tells the console what is being
    typed when it writes the prompt again."""
    if console is None or not console.interactive or stream is not sys.stdin:
        yield from bounded_lines(stream)
        return
    try:
        import readline  # a terminal only; absent on some systems
    except ImportError:
        yield from bounded_lines(stream)
        return
    console.typed_so_far = readline.get_line_buffer
    while True:
        try:
            typed = input()  # the prompt is the console's own, written by it
        except EOFError:
            return
        yield None if len(typed) > MAX_LINE else typed + "\n"


def _settle(events: queue.Queue, limit: float = 2.0) -> None:
    """Wait (a little) until the loop has taken every event queued so far."""
    end = time.monotonic() + limit
    while not events.empty() and time.monotonic() < end:
        time.sleep(0.01)
    time.sleep(0.05)  # the last one taken is being handled
