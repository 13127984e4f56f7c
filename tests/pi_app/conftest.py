from __future__ import annotations

import contextlib
import queue
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Self

import pytest

import rules
from pi_app import games
from pi_app.session.loop import Session
from pi_app.simulated.autoplay import next_input
from pi_app.store.journal import Journal
from pi_app.store.registry import Registry
from pi_app.table import hardware, profile
from rules.core import Move
from tests.pi_app.fakegame import GAME_ID, FakeAdapter, FakeGame


@pytest.fixture
def fake_game(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setitem(rules.GAMES, GAME_ID, FakeGame())
    monkeypatch.setitem(games.ADAPTERS, GAME_ID, FakeAdapter)
    return GAME_ID


class Rig:
    """A simulated table with its journal and registry in a temp dir."""

    def __init__(self, tmp: Path, players: int, table: str = "sim") -> None:
        self.tmp = tmp
        self.players = players
        self.profile = profile.load(profile.find(table))
        self.table: hardware.Table | None = None
        self.journal: Journal | None = None
        self.registry = Registry(tmp / "tags.sqlite")

    def open(self, game: str | None = None, lang: str = "en", **kw) -> Session:
        self.close()
        self.table = hardware.build(self.profile, queue.Queue(), keep_frames=True, poll=False,
                                    seats=self.players)
        self.journal = Journal(self.tmp / "journal.sqlite")
        session = Session.open(self.table, self.journal, self.registry, game=game, players=self.players,
                               lang=lang, **kw)
        adapter = session.scene.adapter
        comps = [(c.id, c.count) for c in adapter.components()]
        enrolled = self.registry.auto_enroll(session.scene.record.game, comps)
        self.uids = {comp: uids[0] for comp, uids in enrolled.items()}
        self.session = session
        session.redraw()
        session.set_lights()
        return session

    def tap(self, seat: int, component: str) -> None:
        assert self.table is not None
        self.table.tap(f"seat{seat + 1}.pad", self.uids[component])
        self.session.pump()

    def tap_zone(self, zone: str, component: str) -> None:
        assert self.table is not None
        self.table.tap(f"zone.{zone}.reader", self.uids[component])
        self.session.pump()

    def tap_uid(self, seat: int, uid: str) -> None:
        assert self.table is not None
        self.table.tap(f"seat{seat + 1}.pad", uid)
        self.session.pump()

    def press(self, part: str) -> None:
        assert self.table is not None
        self.table.press(part)
        self.session.pump()

    def make(self, seat: int, target: Move, *, taps: bool = True,
             after: Callable[[Rig], None] | None = None, limit: int = 200) -> int:
        """Reach ``target`` for ``seat`` the way a player would, one tap or
        press at a time (``after`` runs after each); returns the inputs used."""
        s = self.session
        n, inputs = len(s.scene.state.history), 0
        while len(s.scene.state.history) == n:
            inp = next_input(s, seat, target, taps)
            if inp.kind == "tap":
                self.tap(seat, inp.what)
            else:
                self.press(inp.part)
            if after is not None:
                after(self)
            inputs += 1
            assert inputs < limit, f"the simulated player is stuck on {target.to_json()}"
        return inputs

    def close(self) -> None:
        if self.table is not None:
            self.table.close()
            self.table = None
        if self.journal is not None:
            self.journal.close()
            self.journal = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_: object) -> None:
        """Closed for good: the table and journal, and the registry they share."""
        self.close()
        self.registry.close()


@pytest.fixture
def rig(tmp_path: Path) -> Iterator:
    with contextlib.ExitStack() as rigs:

        def make(players: int = 2, table: str = "sim") -> Rig:
            return rigs.enter_context(Rig(tmp_path, players, table))

        yield make
