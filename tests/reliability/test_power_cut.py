"""Power cuts: a real `tablekeeper run` process on the simulated table, fed a
whole game through its console and killed with SIGKILL again and again:
between inputs, right after an input was typed (mid-move), and inside a
journal write (before the INSERT, before its COMMIT, right after the COMMIT,
through ``tests.reliability.journal_cut``). Restarted without ``--game`` it
must resume the game with every move it had acknowledged, none twice and
none it was not given, until the game ends.

An in-process mirror (``mirror.py``) plays the same game input for input;
the daemon's ``sync`` marker says when it has handled an input, and its
seats' screens must then say what the mirror's say. After each cut the
mirror is rebuilt from a copy of the daemon's journal.

TABLEKEEPER_POWER_CUTS=N (default 5) cuts per game; TABLEKEEPER_POWER_CUT_GAMES=M
(default 1) games of each kind, with other seeds and player counts;
TABLEKEEPER_POWER_CUT_SEED=S changes the first seed. A failure names the
game, seed and cut to run again.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from pi_app.table.hardware import Table
from rules.core import JSON
from tests.reliability.daemon import Daemon, DaemonDied
from tests.reliability.mirror import Mirror, Players, copy_journal, mirror_table, replay

CUTS = int(os.environ.get("TABLEKEEPER_POWER_CUTS", "5"))
ROUNDS = int(os.environ.get("TABLEKEEPER_POWER_CUT_GAMES", "1"))
SEED = int(os.environ.get("TABLEKEEPER_POWER_CUT_SEED", "1"))

#: every game with its player counts (the first for the first seed, the
#: next for the next...), and about how many inputs and journal writes a game
#: takes at the first count (to spread the cuts over the whole of it)
GAMES = {
    "king-is-dead": ((3, 4, 2), 300, 155),
    "king-and-assassins": ((2,), 1000, 180),
    "mordred": ((4, 3), 700, 250),
    "artus": ((2, 3, 4), 360, 90),
    "siege": ((2,), 400, 240),
}
KINDS = ("between", "mid-move", "insert", "commit", "after")
JOURNAL_KINDS = ("insert", "commit", "after")
#: after the planned cuts, one more: right after the COMMIT of the game's last move
END = "end"
SELF_CUT = (*JOURNAL_KINDS, END)


@dataclass
class Fate:
    """How one daemon process ends: cut by ``kind`` at input (or journal
    write) ``at``, or (kind None) by quitting at the end of the game."""

    kind: str | None = None
    at: int = 0


@dataclass
class Run:
    game: str
    players: int
    seed: int
    tmp: Path
    rng: random.Random = field(init=False)
    cuts: Counter = field(default_factory=Counter)
    #: cuts that fell while an input was unanswered; and those after which
    #: the journal held moves the daemon had not acknowledged yet
    unanswered: int = 0
    ahead: int = 0
    inputs: int = 0
    restarts: int = 0

    def __post_init__(self) -> None:
        self.rng = random.Random(f"{self.game}/{self.players}/{self.seed}")
        self.state_dir = self.tmp / "state"

    def where(self, fate: Fate) -> str:
        return (f"{self.game} for {self.players}, seed {self.seed}, cut {sum(self.cuts.values()) + 1} "
                f"({fate.kind} at {fate.at}), after {self.inputs} inputs "
                f"(again: TABLEKEEPER_POWER_CUTS={CUTS} TABLEKEEPER_POWER_CUT_SEED={self.seed} "
                f"-k {self.game})")


def fate_of(run: Run, instance: int, size: tuple[int, int]) -> Fate:
    """The instance-th daemon's end: the first CUTS are cut, each kind in
    turn, at a point drawn so that the cuts spread over the game; the next
    one at the game's last move."""
    if instance >= CUTS:
        return Fate(END if instance == CUTS else None)
    kind = KINDS[(instance + run.seed) % len(KINDS)]
    inputs, writes = size
    span = max(2, (inputs if kind not in JOURNAL_KINDS else writes) * 3 // (2 * (CUTS + 1)))
    return Fate(kind, run.rng.randint(1, span))


def start(run: Run, fate: Fate, new: bool) -> Daemon:
    args = ["run", "--table", "sim", "--state-dir", str(run.state_dir), "--text"]
    if new:
        args += ["--game", run.game, "--players", str(run.players), "--seed", str(run.seed)]
    env = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "WATCHDOG_USEC")}
    if fate.kind in SELF_CUT:
        report = run.tmp / "cut.json"
        report.unlink(missing_ok=True)
        report.with_name("cut.json.arm").unlink(missing_ok=True)
        where = "after" if fate.kind == END else fate.kind
        return Daemon([str(fate.at), where, str(report), *args], module="tests.reliability.journal_cut",
                      env=env)
    return Daemon(args, env=env)


def between(found: list[JSON], histories: list[list[JSON]]) -> bool:
    """The journal holds a history the daemon passed through since its last
    acknowledgement: the one acknowledged, or one between two inputs in a row
    (a move, its chance draws, an undo), each a prefix of the next."""
    if found == histories[0]:
        return True
    for a, b in itertools.pairwise(histories):
        lo, hi = (a, b) if len(a) <= len(b) else (b, a)
        if hi[: len(lo)] == lo and len(lo) <= len(found) <= len(hi) and hi[: len(found)] == found:
            return True
    return False


def check_resume(run: Run, table: Table, fate: Fate, histories: list[list[JSON]]) -> Mirror:
    """The journal after a cut: what the daemon acknowledged, nothing else;
    the mirror resumed from a copy of it."""
    where = run.where(fate)
    copy = copy_journal(run.state_dir, run.tmp / f"after-cut-{sum(run.cuts.values())}")
    mirror = Mirror(table, run.players, copy.parent)
    found = mirror.found
    typed = histories[-1]
    differs = next((i for i, (a, b) in enumerate(zip(found, typed, strict=False)) if a != b),
                   min(len(found), len(typed)))
    assert between(found, histories), (
        f"{where}: the journal holds {len(found)} moves; acknowledged were {len(histories[0])}, then after "
        f"each input typed since: {[len(h) for h in histories[1:]]}; first difference at move {differs}")
    if fate.kind in SELF_CUT:
        report = json.loads((run.tmp / "cut.json").read_text())
        assert len(found) == report["committed"], (
            f"{where}: cut {report['where']} a journal write, which left {report['committed']} moves "
            f"certain; the journal holds {len(found)}")
    run.unanswered += len(histories) > 1
    run.ahead += found != histories[0]
    assert mirror.record is not None
    engine = replay(mirror.record, found)  # the engine alone, not the journal's replay
    if found:
        snapshot = mirror.journal.snapshot(mirror.record, len(found) - 1)
        assert snapshot == json.loads(json.dumps(engine.to_json()["state"], sort_keys=True)), where
    if mirror.session is not None:
        resumed = mirror.history()
        assert resumed[: len(found)] == found, where
        assert all(e.chance for e in mirror.journal.entries(mirror.record)[len(found):]), (
            f"{where}: on resuming, the table wrote moves that are no chance draws")
        assert mirror.session.scene.state.to_json() == replay(mirror.record, resumed).to_json(), where
    return mirror


class PowerCutGame:
    """One game to its end through daemons cut one after another."""

    def __init__(self, run: Run) -> None:
        self.run = run
        counts, inputs, writes = GAMES[run.game]
        scale = run.players / counts[0]
        self.size = (int(inputs * scale), int(writes * scale))
        self.crowd = Players(run.rng)
        self.instance = 0
        self.fate = fate_of(run, 0, self.size)
        self.table = mirror_table(run.players)
        self.mirror = Mirror(self.table, run.players, run.tmp / "mirror", run.game, run.seed)
        # [acknowledged, then the history after each input typed since]; a
        # new game's setup is drawn (and journalled) before the first answer
        self.histories: list[list[JSON]] = [[], self.mirror.history()]
        self.daemon = start(run, self.fate, new=True)
        self.since = 0  # inputs this daemon was given

    def play(self) -> None:
        try:
            while self.play_until_cut():
                self.resume()
            assert self.daemon.send("quit")
            code = self.daemon.finish()
            said = self.daemon.stderr()
            assert code == 0 and said == "", f"{self.where()}: status {code}: {said}"
        finally:
            self.daemon.close()
            self.mirror.close()
            self.table.close()

    def where(self) -> str:
        return self.run.where(self.fate)

    def check_screens(self, after: str) -> None:
        if self.mirror.session is None:
            return
        want = self.mirror.seat_screens()
        got = {name: self.daemon.screens.get(name) for name in want}
        assert got == want, f"{self.where()}: {after}, the daemon's screens differ from the mirror's"

    def play_until_cut(self) -> bool:
        """Play on; True when the daemon was cut, False at the game's end."""
        d, run = self.daemon, self.run
        try:
            d.sync()
        except DaemonDied:
            return True  # cut in a journal write while resuming (drawing chance steps)
        self.histories = self.histories[-1:]
        self.check_screens("on start")
        while not self.mirror.over():
            inp = self.crowd.next(self.mirror)
            line = self.mirror.line(inp)
            self.mirror.apply(inp)
            self.histories.append(self.mirror.history())
            if self.fate.kind == END and self.mirror.over():  # cut once the last move is on disk
                (run.tmp / "cut.json.arm").write_text(str(len(self.histories[-1]) - 1))
            d.send(line)
            run.inputs += 1
            self.since += 1
            token = d.mark()
            if self.fate.kind == "mid-move" and self.since == self.fate.at:
                time.sleep(run.rng.choice([0.0, 0.001, 0.003, 0.006]))
                d.kill()
                if token in d.drain():  # it had answered after all
                    self.histories = self.histories[-1:]
                return True
            try:
                d.wait(token)
            except DaemonDied:
                return True
            self.histories = self.histories[-1:]
            self.check_screens(f"after input {line!r}")
            if self.fate.kind == "between" and self.since == self.fate.at:
                time.sleep(run.rng.uniform(0, 0.05))
                d.kill()
                d.drain()
                return True
        return False

    def resume(self) -> None:
        d, run, fate = self.daemon, self.run, self.fate
        code = d.finish()
        assert code == -9, f"{self.where()}: the daemon ended with status {code}: {d.stderr()}"
        assert fate.kind is not None and (fate.kind not in SELF_CUT or (run.tmp / "cut.json").exists()), (
            f"{self.where()}: the daemon died by itself: {d.stderr()}")
        assert d.stderr() == "", f"{self.where()}: {d.stderr()}"
        d.close()
        self.mirror.close()
        self.mirror = check_resume(run, self.table, fate, self.histories)
        run.cuts[fate.kind] += 1
        self.instance += 1
        self.fate = fate_of(run, self.instance, self.size)
        self.daemon = start(run, self.fate, new=False)
        run.restarts += 1
        self.crowd.reset()
        self.since = 0
        m = self.mirror
        self.histories = [m.found] + ([m.history()] if m.session is not None else [])


def check_final(run: Run) -> list[JSON]:
    table = mirror_table(run.players)
    final = Mirror(table, run.players, copy_journal(run.state_dir, run.tmp / "final").parent)
    try:
        assert final.session is None and final.record is not None and final.record.ended, (
            f"{run.game} for {run.players}, seed {run.seed}: the finished game is not marked ended in "
            "the journal, so the table would resume it at every start")
    finally:
        final.close()
        table.close()
    return final.found


def runs() -> list[tuple[str, int, int]]:
    out = []
    for game, (players, _, _) in GAMES.items():
        for r in range(ROUNDS):
            seed = SEED + r
            out.append((game, players[(seed - 1) % len(players)], seed))
    return out


@pytest.mark.parametrize(("game", "players", "seed"), runs())
def test_power_cuts_lose_nothing(tmp_path: Path, game: str, players: int, seed: int) -> None:
    run = Run(game, players, seed, tmp_path)
    play = PowerCutGame(run)
    play.play()
    assert check_final(run) == play.histories[-1], f"{game}, seed {seed}: the journal's last moves differ"
    cuts = sum(run.cuts.values())
    print(f"{game} for {players}, seed {seed}: {run.inputs} inputs, {cuts} cuts {dict(run.cuts)}, "
          f"{run.unanswered} with an input unanswered, {run.ahead} with the journal ahead of the answers")
    assert cuts >= min(CUTS, 2), f"{game}, seed {seed}: the game ended after only {dict(run.cuts)}"
