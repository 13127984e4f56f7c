"""The terminal console of a simulated table: typed taps and presses in,
every screen that changed out (as text pictures).

Commands::

    tap seat1 garrison        a seat's own card, a follower colour, a region
    tap seat1 04A1B2C3D4E5F6  a raw UID (unknown tags are reported, not guessed)
    press seat1 ok            left | ok | right of a seat; "press undo"
    show                      every screen now
    sync [WORD]               prints "= WORD" once all typed before it is done (for scripts)
    help, quit
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

from pi_app.hardware import Table
from pi_app.registry import Registry
from pi_app.screens import Layout, ascii_art, render
from pi_app.session import SHOW_ALL, STOP, Typed

HELP = __doc__.split("Commands::", 1)[1].rstrip() if __doc__ else ""


class ConsoleError(ValueError):
    pass


class Console:
    def __init__(self, table: Table, registry: Registry, game: str, components: list,
                 out: TextIO | None = None, pictures: bool = True) -> None:
        self.table = table
        self.registry = registry
        self.game = game
        self.components = components
        self.out = out or sys.stdout
        self.pictures = pictures
        #: seats in the game now (the first ones of the profile); None: all
        self.players: int | None = None

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
                print(HELP, file=self.out)
            elif cmd == "tap":
                reader, uid = self.tap_target(args)
                self.table.tap(reader, uid)
            elif cmd == "press":
                self.table.press(self.button(args))
            elif cmd == "show":
                self.table.queue.put(SHOW_ALL)
            elif cmd == "sync":
                # Typed lines run in order with the events they cause, so this
                # line runs after everything typed before it has been handled.
                print("= " + " ".join(args), file=self.out, flush=True)
            else:
                raise ConsoleError(f"unknown command {cmd!r}; type help")
        except ConsoleError as exc:
            print(f"! {exc}", file=self.out)
        return True

    def seat(self, word: str) -> str:
        # A seat beyond the game's players has its parts on the table, but
        # the game ignores them: say so rather than drop the input silently.
        names = [s.name for s in self.table.profile.seats][: self.players]
        if word in names and f"{word}.pad" in self.table.readers:
            return word
        raise ConsoleError(f"no seat {word!r} in this game; seats: "
                           + ", ".join(n for n in names if f"{n}.pad" in self.table.readers))

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
            raise ConsoleError("write: tap SEAT THING, e.g. tap seat1 garrison (or tap ZONE THING)")
        zone = self.zone(args)
        if zone is not None:
            reader, used = zone
            comp = self.resolve(" ".join(args[used:]), -1)
            if comp is None:
                raise ConsoleError(f"nothing called {' '.join(args[used:])!r}")
            uids = self.registry.uids_of(self.game, comp.id)
            if not uids:
                raise ConsoleError(f"{comp.id} has no tag enrolled")
            return reader, uids[0]
        seat_name = self.seat(args[0])
        seat = [s.name for s in self.table.profile.seats].index(seat_name)
        thing = " ".join(args[1:])
        comp = self.resolve(thing, seat)
        if comp is None:
            clean = thing.replace(":", "").upper()
            if len(clean) >= 8 and all(c in "0123456789ABCDEF" for c in clean):
                return f"{seat_name}.pad", clean
            names = sorted({c.value for c in self.components})
            raise ConsoleError(f"nothing called {thing!r}; try one of: {', '.join(names)} or a hex UID")
        uids = self.registry.uids_of(self.game, comp.id)
        if not uids:
            raise ConsoleError(f"{comp.id} has no tag enrolled; run: tablekeeper tags enroll {self.game}")
        return f"{seat_name}.pad", uids[0]

    def resolve(self, thing: str, seat: int) -> object | None:
        """A typed name to a component: the seat's own card first, then any
        component by id or value (case and spaces ignored)."""
        key = thing.lower().replace(" ", "").replace("_", "-")

        def norm(text: str) -> str:
            return text.lower().replace(" ", "")

        for comp in self.components:
            if comp.seat == seat and norm(comp.value) == key:
                return comp
        for comp in self.components:
            if norm(comp.id) == key or (comp.seat is None and norm(comp.value) == key):
                return comp
        for comp in self.components:  # another seat's card, by id ("garrison@2")
            if norm(comp.value) == key:
                return comp
        return None

    def button(self, args: list[str]) -> str:
        if args == ["undo"]:
            return self.table.profile.undo.name
        if len(args) != 2 or args[1] not in ("left", "ok", "right"):
            raise ConsoleError("write: press SEAT left|ok|right, or press undo")
        return f"{self.seat(args[0])}.{args[1]}"

    # -- screens -> terminal -------------------------------------------------
    def show(self, layouts: dict[str, Layout], lights: dict[str, str]) -> None:
        for name, layout in layouts.items():
            print(f"┌─ {name} " + "─" * max(0, 40 - len(name)), file=self.out)
            if self.pictures:
                print(ascii_art(render(layout)), file=self.out)
            else:
                for line in layout.text().splitlines():
                    print(f"│ {line}", file=self.out)
        lit = " ".join(f"{n.split('.')[0]}:{s}" for n, s in lights.items())
        print(f"└─ lights {lit}", file=self.out)
        self.out.flush()


def read_commands(stream: TextIO, events: Any) -> None:
    """The console thread: only queues what is typed (the loop runs it, in
    order with the hardware's events) and STOP at the end of the input."""
    for line in stream:
        typed = Typed(line)
        events.put(typed)
        typed.done.wait(timeout=30)
    events.put(STOP)
