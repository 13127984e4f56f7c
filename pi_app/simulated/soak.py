"""Game after game in one process, as the daemon plays a game night, with
the process's memory, threads and open files measured after each game.

What the daemon keeps for a whole night is kept here too, because that is
where growth would come from: one table built once (simulated, from the
``sim`` profile, frames not kept), one journal and one tag registry, the
lobby choosing each next game with button presses, and a new session per game
that ends with ● pressed on the final screen (``pi_app/commands/run.py``).
Simulated players (``pi_app.simulated.autoplay``) play every move with taps and
presses, and now and then try something illegal, as in the demo; the last
seat of every game, chosen in the lobby, is a computer player. A round
goes through every game and player count the lobby offers, each also with
the variants the demo plays at that count (Artus advanced...); ``short``
rounds play each game once, at its fewest players.

    tablekeeper soak --games 100 [--short] [--json]

prints one line per game (one JSON object with ``--json``) and a summary.
"""

from __future__ import annotations

import gc
import json
import os
import queue
import random
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from pi_app import paths
from pi_app.session import computer
from pi_app.session.lobby import Lobby
from pi_app.session.loop import Session
from pi_app.simulated.autoplay import MAX_INPUTS, Input, take_turn
from pi_app.simulated.demo import Night
from pi_app.store.journal import Journal
from pi_app.store.registry import Registry
from pi_app.table import hardware
from players import Budget

#: the project's packages, whose module-level caches the soak empties
PACKAGES = ("rules", "players", "pi_app", "drivers")


def bounded_caches() -> list[Any]:
    """Every bounded ``functools`` cache at module level in the project's
    modules imported now (a module not imported has nothing cached): found,
    not listed, so that no game is named here and a new cache is not missed."""
    found = []
    for name, module in list(sys.modules.items()):
        if name.split(".")[0] not in PACKAGES:
            continue
        for value in list(vars(module).values()):
            parameters = getattr(value, "cache_parameters", None)
            if callable(parameters) and getattr(value, "__module__", None) == name \
                    and parameters()["maxsize"] is not None:
                found.append(value)
    return found
#: the last seat of every game is a computer player, thinking briefly: a night's
#: worth of games stays within minutes
SOAK_BUDGET = Budget(iterations=20, seconds=0.1)
SETTLE_SECONDS = 3.0  # a refusal's flash runs on gpiozero's thread for 0.72 s


@dataclass(frozen=True)
class Sample:
    """The process after ``game`` games."""

    game: int
    round: int  # of the rotation, from 1
    end_of_round: bool  # the last game of its round
    played: str  # "artus 4p mode=advanced"
    moves: int
    seconds: float  # this game, lobby to ●
    rss_kb: int  # VmRSS now
    hwm_kb: int  # VmHWM: the peak resident size so far
    threads: int  # Python threads alive (threading.active_count)
    tasks: int  # native threads (/proc/self/task), C libraries' included
    fds: int  # open file descriptors (/proc/self/fd)
    blocks: int  # Python memory blocks in use after a full collection, dead weak references aside


@dataclass(frozen=True)
class Growth:
    """From the sample after game ``since`` to the last: memory as the last
    minus the first, threads and open files as the most seen at any later
    game minus the first (one leaked thread is already a leak)."""

    since: int
    until: int
    rss_kb: int
    blocks: int
    threads: int
    tasks: int
    fds: int

    @property
    def rss_kb_per_game(self) -> float:
        return self.rss_kb / max(1, self.until - self.since)

    @property
    def blocks_per_game(self) -> float:
        return self.blocks / max(1, self.until - self.since)


def round_ends(samples: list[Sample]) -> list[int]:
    """The games that ended a round, in order."""
    return [s.game for s in samples if s.end_of_round]


class Tally:
    """What a night's summary needs from its samples, kept as they come: the
    first and the last, the sample after game ``since`` (by default, the end
    of round ``warm_rounds``) and the most threads and files seen after it.
    The soak measures its own process, so it keeps no list of samples: one
    would grow by about ten blocks a game, and be taken for a leak."""

    def __init__(self, since: int | None = None, warm_rounds: int = 2) -> None:
        self.since = since
        self.warm_rounds = warm_rounds
        self.games = 0
        self.seconds = 0.0
        self.first: Sample | None = None
        self.last: Sample | None = None
        self.base: Sample | None = None
        self.peak: tuple[int, int, int] | None = None  # threads, tasks, fds after the base

    def add(self, s: Sample) -> None:
        self.games += 1
        self.seconds += s.seconds
        self.first = self.first or s
        self.last = s
        if self.base is None:
            warmed = s.end_of_round and s.round == self.warm_rounds
            if s.game == self.since or (self.since is None and warmed):
                self.base = s
        elif self.peak is None:
            self.peak = (s.threads, s.tasks, s.fds)
        else:
            self.peak = (max(self.peak[0], s.threads), max(self.peak[1], s.tasks), max(self.peak[2], s.fds))

    def growth(self) -> Growth:
        """From the base sample to the last (see ``Growth``)."""
        if self.base is None or self.peak is None or self.last is None:
            since = self.since if self.since is not None else f"the end of round {self.warm_rounds}"
            have = f"{self.first.game}..{self.last.game}" if self.first and self.last else "-"
            raise ValueError(f"no samples to compare after game {since}: have games {have}; "
                             "play more games than the warm-up")
        base, last = self.base, self.last
        return Growth(base.game, last.game, last.rss_kb - base.rss_kb, last.blocks - base.blocks,
                      self.peak[0] - base.threads, self.peak[1] - base.tasks, self.peak[2] - base.fds)


def growth(samples: list[Sample], since: int) -> Growth:
    """Growth after game ``since`` (a sample with that game number must exist)."""
    tally = Tally(since)
    for s in samples:
        tally.add(s)
    return tally.growth()


# -- measuring the process ---------------------------------------------------------------


def status_kb(field: str) -> int:
    """One ``kB`` line of /proc/self/status (VmRSS, VmHWM)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise OSError(f"/proc/self/status has no {field} line: the soak needs Linux's /proc")


def measure(game: int, rotation: int, played: str, moves: int, seconds: float) -> Sample:
    """The process now, after ``game`` games of a rotation of ``rotation``."""
    # CPython's type attribute cache (4,096 entries) keeps a reference to each
    # attribute name it is asked for, and a name built at run time (Pillow's
    # f"{name}_encoder") is a new string each time: bounded, but it fills over
    # hundreds of games and would pass for a leak.
    sys._clear_type_cache()
    # Bounded caches whose entries differ in size with the positions and words
    # of each game: a computer seat's search visits thousands of The King is
    # Dead's positions, and its long lines on the shared screen add words at
    # several sizes. Full or not, they hold what they hold by design: emptied
    # so that the count shows what is kept beyond them.
    for bounded in bounded_caches():
        bounded.cache_clear()
    gc.collect()  # what is still reachable, not what is waiting for the collector
    # sqlite3 keeps a weak reference to each cursor a connection made and drops
    # the dead ones every 200 cursors: up to 200 blocks a connection that come
    # and go with the count of queries, noise that would hide a small leak.
    dead = sum(1 for o in gc.get_objects() if type(o) is weakref.ReferenceType and o() is None)
    return Sample(game, (game - 1) // rotation + 1, game % rotation == 0, played, moves, round(seconds, 3),
                  status_kb("VmRSS"), status_kb("VmHWM"),
                  threading.active_count(), len(os.listdir("/proc/self/task")),
                  len(os.listdir("/proc/self/fd")), sys.getallocatedblocks() - dead)


# -- the night ---------------------------------------------------------------------------------


class Soak:
    """One table, journal and registry for every game, as in the daemon."""

    def __init__(self, state_dir: Path, *, seed: int = 1, lang: str = "en", attempts: bool = True,
                 short: bool = False) -> None:
        self.seed = seed
        self.lang = lang
        self.attempts = attempts
        self.night = Night(state_dir, lang=lang, seed=seed)  # its plan of games and variants
        self.table = hardware.build(self.night.profile, queue.Queue(), poll=False)
        try:
            self.journal = Journal(paths.journal_path(str(state_dir)))
            self.registry = Registry(paths.registry_path(str(state_dir)))
        except BaseException:
            self.table.close()
            raise
        self.rounds = self.rotation(short)
        self.threads = threading.active_count()  # the table's own: the buttons' hold threads

    def rotation(self, short: bool = False) -> list[tuple[str, int, dict[str, Any]]]:
        """The lobby's (game, players) in its order, each with every set of
        options the demo plays at that count (the defaults first); ``short``:
        each game once, at its fewest players, with its defaults."""
        plan = self.night.games()
        out: list[tuple[str, int, dict[str, Any]]] = []
        for game, players in Lobby(self.table, self.lang).options:
            if short and any(g == game for g, _, _ in out):
                continue
            variants = [opts for g, n, opts in plan if (g, n) == (game, players)] or [{}]
            out += [(game, players, opts) for opts in (variants[:1] if short else variants)]
        return out

    def close(self) -> None:
        self.table.close()
        self.journal.close()
        self.registry.close()

    def __enter__(self) -> Soak:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def run(self, games: int) -> Iterator[Sample]:
        """Play ``games`` games back to back; a sample after each. Every
        round of the rotation plays the same games (seeds and players' choices
        by place in the round), so the ends of two rounds find the process in
        the same state, but for what it failed to let go."""
        for i in range(games):
            start = time.perf_counter()
            place = i % len(self.rounds)
            game, players, options = self.rounds[place]
            moves = self.play(place, game, players, options)
            seconds = time.perf_counter() - start
            self.settle()
            played = f"{game} {players}p" + "".join(f" {k}={v}" for k, v in options.items())
            yield measure(i + 1, len(self.rounds), played, moves, seconds)

    def choose_in_lobby(self, game: str, players: int) -> set[int]:
        """Step the lobby to (game, players) with seat 1's buttons, press ●,
        make the last seat a computer player and press ● again; the computer seats."""
        lobby = Lobby(self.table, self.lang)
        seat = self.table.profile.seats[0].name
        for _ in range(lobby.options.index((game, players))):
            self.table.press(f"{seat}.right")
        self.table.press(f"{seat}.ok")
        self.table.press(f"{seat}.right")
        self.table.press(f"{seat}.ok")
        chosen = lobby.choose(threading.Event())
        if chosen != (game, players) or lobby.computer_seats() != {players - 1}:
            raise RuntimeError(f"the lobby chose {chosen} with computers at {lobby.computer_seats()}, "
                               f"not {game} for {players} with the last seat a computer")
        return lobby.computer_seats()

    def play(self, place: int, game: str, players: int, options: dict[str, Any]) -> int:
        """One game, from the lobby to ● on the final screen; its moves."""
        computers = self.choose_in_lobby(game, players)
        session = Session.open(self.table, self.journal, self.registry, game=game, players=players,
                               seed=self.seed + place, options=options, lang=self.lang)
        session.seat_computers(computer.players_for(computers, self.seed + place, SOAK_BUDGET))
        session.scene.page_seconds = 3.0  # as the daemon: the shared screen pages its instructions
        comps = [(c.id, c.count) for c in session.scene.adapter.components()]
        uids = {c: u[0] for c, u in self.registry.auto_enroll(game, comps).items()}
        session.set_lights()
        session.redraw()
        rng = random.Random(f"soak/{self.seed}/{place}")
        inputs = 0

        def send(inp: Input) -> None:
            nonlocal inputs
            if inp.kind == "tap":
                self.table.tap(inp.part, uids.get(inp.what, inp.what))
            else:
                self.table.press(inp.part)
            session.pump()
            inputs += 1
            if inputs > MAX_INPUTS:
                raise RuntimeError(f"{game} for {players}: the simulated players are stuck")
            for seat in computers:
                shown = secret_screens(session, seat, rng)
                if shown:
                    raise RuntimeError(f"{game} for {players}: {', '.join(shown)} would change with the "
                                       f"computer's secrets (seat {seat + 1}): a screen shows them")

        while session.scene.state.outcome() is None:
            take_turn(session, rng, send, attempts=self.attempts)
        while not session.scene.new_game_requested:  # a refusal still shown takes a press of its own
            send(Input("press", f"{session.scene.seats[0].name}.ok"))
        return len(session.scene.state.history)

    def settle(self) -> None:
        """Let the last refusal's flash end: its thread is gpiozero's and ends
        on its own. A thread that does not is what the samples are for."""
        deadline = time.monotonic() + SETTLE_SECONDS
        while threading.active_count() > self.threads and time.monotonic() < deadline:
            time.sleep(0.02)


def soak(state_dir: Path, games: int, *, seed: int = 1, attempts: bool = True, short: bool = False,
         report: Callable[[Sample], None] | None = None) -> Tally:
    tally = Tally()
    with Soak(state_dir, seed=seed, attempts=attempts, short=short) as night:
        for s in night.run(games):
            tally.add(s)
            if report is not None:
                report(s)
    return tally


def line(s: Sample) -> str:
    return (f"{s.game:>5} {s.played:<34} {s.moves:>5} moves {s.seconds:>6.2f} s  "
            f"rss {s.rss_kb / 1024:6.1f} MB peak {s.hwm_kb / 1024:6.1f} MB  "
            f"threads {s.threads:>3} tasks {s.tasks:>3} fds {s.fds:>3} "
            f"blocks {s.blocks}")


def to_json(s: Sample) -> str:
    return json.dumps(asdict(s), sort_keys=True)


def from_json(text: str) -> Sample:
    return Sample(**json.loads(text))


def secret_screens(session: Session, seat: int, rng: random.Random) -> list[str]:
    """The screens that would say something else if ``seat``'s secrets were
    dealt afresh (``State.perturb_secrets``): each would show them. For a
    computer's seat its own screen counts too: nobody sits behind it."""
    other = session.scene.state.perturb_secrets(seat, rng)
    if other is None:
        return []
    shown = session.layouts()
    real = session.scene.state
    try:
        session.scene.state = other
        dealt = session.layouts()
    finally:
        session.scene.state = real
    return sorted(name for name in shown if shown[name] != dealt[name])
