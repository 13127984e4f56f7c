"""`tablekeeper run`: the table daemon."""

from __future__ import annotations

import argparse
import json
import queue
import signal
import sys
import threading
from dataclasses import replace
from typing import Any

import rules
from pi_app import paths
from pi_app.errors import UsageError
from pi_app.names import given_names, seat_named
from pi_app.session import computer
from pi_app.session.lobby import Lobby
from pi_app.session.loop import SHOW_ALL, NothingToResume, Session, fresh_seed
from pi_app.simulated import hands
from pi_app.simulated.console import Console, read_commands, said
from pi_app.store import lock
from pi_app.store.journal import Journal
from pi_app.store.registry import Registry
from pi_app.table import hardware, profile, startup
from pi_app.table.sdnotify import Watchdog
from pi_app.web import address
from rules.catalogue import LANGS

NAME = "run"
HELP = "run the table: resume the journal's game or start one (simulated table off a Pi, with a console)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--table", help="table profile: a .toml path or a name in hardware/tables "
                        "(default: reference on a Pi, sim elsewhere)")
    parser.add_argument("--game", help="game id to start (default: resume the unfinished game)")
    parser.add_argument("--players", type=int, help="number of players, with --game (not needed for a game "
                        "played by one count only, e.g. king-and-assassins and siege: 2)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the game, for replays and tests "
                        "(default: 64 bits from the operating system's entropy, hidden while the game runs)")
    parser.add_argument("--lang", choices=LANGS,
                        help="language of the screens (default: the profile's)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a game option, e.g. --option mordred=true (JSON values)")
    parser.add_argument("--computer", action="append", default=[], metavar="SEAT[:LEVEL]",
                        help="with --game: a computer player takes this seat (a number from 1, a role: "
                        "king, assassins, attacker, defender, or a name given with --name), at LEVEL: easy, "
                        "normal or hard (default: the profile's [computer] level, else normal); "
                        "repeat for more")
    parser.add_argument("--name", action="append", default=[], metavar="SEAT=NAME",
                        help="with --game: the player at SEAT (a number from 1, or a role) is called NAME "
                        "on every screen, e.g. --name 2=Anna; repeat for more (at the lobby: name 2 Anna)")
    parser.add_argument("--new", action="store_true", help="abandon an unfinished game and start --game")
    parser.add_argument("--state-dir", help="where the journal and tag registry live "
                        "(default: $STATE_DIRECTORY or ~/.local/state/tablekeeper)")
    parser.add_argument("--pictures", action="store_true",
                        help="console: draw the screens as pictures (130 columns) rather than as text")
    parser.add_argument("--text", action="store_true", help=argparse.SUPPRESS)  # text is the default now
    parser.add_argument("--no-console", action="store_true", help="no console even on a simulated table")


def run(args: argparse.Namespace) -> int:
    state = paths.state_dir(args.state_dir)
    prof: profile.Profile | None = None
    held = None
    table = None
    journal = registry = None
    try:
        held = lock.hold(state)  # before anything is opened: the other daemon has the table and the journal
        prof = profile.load(profile.find(args.table))
        if args.game is None and args.players is not None:
            raise UsageError("--players goes with --game: --game ID --players N")
        if args.game is not None and args.players is None:
            args.players = only_count(args.game)
        options = parse_options(args.option)
        given: tuple[str, ...] = ()
        if args.name:
            if args.game is None:
                raise UsageError("--name goes with --game ID --players N (a resumed game keeps the names "
                                 "it began with; at the lobby, type name 2 Anna)")
            given = parse_names(args.name, args.game, args.players)
        wanted: dict[int, str] = {}
        if args.computer:
            if args.game is None:
                raise UsageError("--computer goes with --game ID --players N (a resumed game keeps its "
                                 "computer seats; the lobby asks for them)")
            wanted = computer.parse_computers(args.computer, args.game, args.players, given,
                                              computer.level_of(prof.computer))
        events: queue.Queue = queue.Queue()
        simulated = prof.simulated
        table = hardware.build(prof, events, poll=not simulated)
        if startup.under_systemd():
            print(startup.gpio_library(), flush=True)
        journal = Journal(paths.journal_path(args.state_dir))
        journal.check_writable()
        registry = Registry(paths.registry_path(args.state_dir))
    except UsageError as exc:
        for part in (registry, journal, table):
            if part is not None:
                part.close()
        if startup.under_systemd():  # keep trying, slower, and say why (pi_app/table/startup.py)
            lang = args.lang or (prof.lang if prof else "en")
            # the screens are another daemon's while it holds the lock
            screens = prof.screens() if prof and not isinstance(exc, lock.StateLocked) else []
            startup.failed(state, str(exc), screens, lang)
        if held is not None:
            held.close()
        raise
    stop = threading.Event()
    # What runs the table now (the lobby or a game): the watchdog pings only
    # while its loop turns; between the two, only while the table's threads run.
    current: list[Session | Lobby | None] = [None]
    watchdog = Watchdog(lambda: table.alive() if current[0] is None else current[0].alive())
    try:
        console = None
        if simulated and not args.no_console:
            console = Console(table, registry, "", [], pictures=args.pictures and not args.text,
                              interactive=sys.stdin.isatty())
            console.lang = args.lang or prof.lang
            print(said("ready", console.lang, table=prof.name), flush=True)
            threading.Thread(target=read_commands, args=(sys.stdin, events, console), daemon=True,
                             name="console").start()
        # A simulated table with no console (a service) takes the same commands
        # from a FIFO in its state directory (pi_app/simulated/hands.py); only the
        # commands and their answers are printed, into the system log.
        typist = console
        if simulated and args.no_console:
            typist = Console(table, registry, "", [], pictures=False)
            hands.listen(hands.make_fifo(state), events)
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: stop.set())
        game, players, new = args.game, args.players, args.new
        seats_file = paths.state_dir(args.state_dir) / "computers.json"
        while not stop.is_set():
            seed = args.seed if args.seed is not None else fresh_seed()
            unfinished = journal.current()
            try:
                session = Session.open(table, journal, registry, game=game, players=players, seed=seed,
                                       options=options if game == args.game else {}, lang=args.lang, new=new,
                                       names=given)
            except NothingToResume:
                if console is not None:
                    console.say(said("lobby", console.lang))
                lobby = Lobby(table, args.lang or prof.lang, page=address.page_url(),
                              known=journal.recent_names(), level=computer.level_of(prof.computer))
                current[0] = lobby
                if console is not None:
                    lobby.observer = lambda lays, c=console: c.show(lays, {})
                if typist is not None:
                    lobby.on_typed = typist.execute
                    typist.on_name = lobby.give_name
                watchdog.start()  # the table is up and the journal read: ready
                startup.started(state)
                chosen = lobby.choose(stop)
                current[0] = None
                if chosen is None:
                    break
                game, players = chosen  # --new, if given, still abandons an unfinished game
                wanted = lobby.computer_levels()
                given = lobby.player_names(game, players)  # checked by the lobby before it let ● start
                if typist is not None:
                    typist.on_name = None
                continue
            if unfinished is not None and session.scene.record.id == unfinished.id:
                seated = computer.load_levels(seats_file, session.scene.record.id,  # resumed: as it was
                                              computer.level_of(prof.computer))
            else:
                seated = wanted
                computer.save(seats_file, session.scene.record.id, set(seated), seated)
            if seated:
                session.seat_computers(computer.players_for(set(seated), session.scene.record.seed,
                                                            computer.budget(prof.computer), seated))
            current[0] = session
            session.scene.page_seconds = 3.0
            comps = session.scene.adapter.components()
            if simulated:  # made-up UIDs so that typed taps have tags
                registry.auto_enroll(session.scene.record.game, [(c.id, c.count) for c in comps])
            if typist is not None:
                typist.game, typist.components = session.scene.record.game, comps
                typist.players, typist.lang = session.scene.record.players, session.scene.lang
                typist.names = session.scene.record.names
                session.on_typed = typist.execute
            if console is not None:
                sc = session.scene
                what = said("game-for", sc.lang, game=sc.game.name or sc.record.game, n=sc.record.players)
                console.say(said("resumed", sc.lang, what=what, n=len(sc.state.history))
                            if session.resumed else said("new-game", sc.lang, what=what))
                _show_changes(session, console)
            watchdog.start()
            startup.started(state)
            session.run(stop)
            current[0] = None
            if typist is not None:
                typist.players = None  # the lobby takes a press from any seat
            game = players = None  # after a finished game: choose the next one at the table
            new = False
            wanted = {}
            given = ()
    finally:
        watchdog.stop()
        table.close()
        if journal is not None:
            journal.close()
        if registry is not None:
            registry.close()
        if held is not None:
            held.close()
    return 0


def only_count(game: str) -> int:
    """The player count of a game played by one count only; for any other
    game, a UsageError saying which counts to choose from."""
    if game not in rules.GAMES:
        raise UsageError(f"--game {game!r}: no such game; choose one of {', '.join(rules.GAMES)}")
    counts = list(rules.GAMES[game].player_counts)
    if len(counts) == 1:
        return counts[0]
    choices = ", ".join(str(n) for n in counts[:-1]) + f" or {counts[-1]}"
    raise UsageError(f"--game {game} needs --players N: {choices} players")


def parse_names(specs: list[str], game: str, players: int) -> tuple[str, ...]:
    """``["2=Anna", "king=Marco"]`` -> the names by seat, as the journal keeps them."""
    given: dict[int, str] = {}
    for item in specs:
        seat, sep, name = item.partition("=")
        at = seat_named(seat, game, players) if sep else None
        if at is None:
            raise UsageError(f"--name {item!r}: write SEAT=NAME with a seat from 1 to {players} or its role, "
                             "e.g. --name 2=Anna")
        given[at] = name
    try:
        return given_names(given, game, players)
    except ValueError as exc:
        raise UsageError(f"--name: {exc}") from None


def parse_options(given: list[str]) -> dict[str, Any]:
    """``["mordred=true"]`` -> ``{"mordred": True}``; a value that is not JSON is a string."""
    out: dict[str, Any] = {}
    for item in given:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise UsageError(f"--option {item!r}: write KEY=VALUE, e.g. --option mordred=true")
        try:
            out[key] = json.loads(value)
        except ValueError:
            out[key] = value
    return out


def _show_changes(session: Session, console: Console) -> None:
    """Print every screen that changed, from the loop thread."""

    shared = session.scene.profile.shared_screen.name

    def show(changed: dict[str, Any]) -> None:
        lights = {name: light.state for name, light in session.table.lights.items()}
        if shared in changed and session.presentation.paging() and not console.pictures:
            # Text has room for every instruction at once: no page turns to reprint.
            lay = changed[shared]
            changed = {**changed, shared: replace(lay, title=lay.title.rsplit(" · ", 1)[0], big="",
                                                  lines=(*session.scene.log, *lay.lines))}
        console.show(changed, lights)

    session.presentation.observer = show
    session.table.queue.put(SHOW_ALL)
