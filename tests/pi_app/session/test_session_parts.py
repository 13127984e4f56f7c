"""The session's three parts, each alone: presentation lays out a game state
with no journal and no input; input maps presses to moves with no screens and
no journal; commit applies, journals and undoes with no screens."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import rules
from drivers.events import ButtonPressed
from pi_app import games
from pi_app.session.commit import Commit
from pi_app.session.input_map import InputMap
from pi_app.session.presentation import ARROWS, Presentation
from pi_app.session.scene import Scene
from pi_app.store.journal import GameRecord, Journal
from pi_app.store.registry import Registry
from pi_app.table import profile
from rules.core import IllegalMove, Move, State
from tests.pi_app.fakegame import mv


@pytest.fixture
def sim() -> profile.Profile:
    return profile.load(profile.find("sim"))


def rolled(game: str, players: int = 2) -> State:
    """A game past its opening roll: seat 0 to move."""
    state = rules.get(game).new_game(players, 1, {})
    state.apply(mv(type="roll", value=5))
    return state


def scene_of(sim: profile.Profile, game: str, state: State, players: int = 2) -> Scene:
    # a record as the journal would give it, with no journal behind it
    record = GameRecord(id=1, game=game, players=players, seed=1, options={}, ended=False)
    return Scene(sim, record, state, "en")


@dataclass
class Glass:
    """A screen that keeps the words it was sent."""

    sent: list[str] = field(default_factory=list)

    def show(self, frame: object, text: str = "") -> bool:
        self.sent.append(text)
        return True


@dataclass
class Lamp:
    state: str = "off"

    def on(self) -> None:
        self.state = "on"

    def off(self) -> None:
        self.state = "off"

    def blink(self, *_: object) -> None:
        self.state = "blink"


# -- presentation ----------------------------------------------------------------
def test_presentation_lays_out_a_state_without_journal_or_input(sim, fake_game) -> None:
    scene = scene_of(sim, fake_game, rolled(fake_game))
    scene.log = ["Roll the die"]
    screens = {"seat1.screen": Glass(), "seat2.screen": Glass(), "shared.screen": Glass()}
    lights = {"seat1.light": Lamp(), "seat2.light": Lamp()}
    shown = Presentation(scene, screens, lights)
    seat1, seat2, shared = shown.seat_layout(0), shown.seat_layout(1), shown.shared_layout()
    assert seat1.footer == ARROWS  # the seat to move sees its menu
    assert seat2.title == "Waiting: Player 1"
    assert shared.big == "Roll the die" and shared.title == "Turn: Player 1"
    shown.set_lights()
    assert (lights["seat1.light"].state, lights["seat2.light"].state) == ("on", "off")


def test_presentation_sends_the_acting_seat_first_then_the_seat_to_move_and_only_what_changed(
        sim, fake_game) -> None:
    scene = scene_of(sim, fake_game, rolled(fake_game))
    order: list[str] = []
    screens = {name: Glass() for name in ("seat1.screen", "seat2.screen", "shared.screen")}
    for name, glass in screens.items():
        glass.show = lambda frame, text="", name=name: order.append(name) or True  # type: ignore[method-assign]
    shown = Presentation(scene, screens, {})
    scene.acting = 1
    shown.redraw()
    assert scene.state.to_move() == 0
    assert order == ["seat2.screen", "seat1.screen", "shared.screen"]
    order.clear()
    shown.redraw()
    assert order == []  # nothing changed, nothing sent
    scene.seats[0].cursor = scene.cursor_for(0)
    scene.cursor_for(0).step(1)
    shown.redraw()
    assert order == ["seat1.screen"]


def test_presentation_waits_for_each_bus_and_reports_a_frame_its_sender_lost(sim, fake_game) -> None:
    """Screens with a sender: every frame is queued first (the next one drawn
    while the last is on the wire), then flushed; one that failed on the
    wire is a fault, as a frame refused at once is, and is sent again."""
    from drivers.base import ScreenError

    scene = scene_of(sim, fake_game, rolled(fake_game))
    order: list[str] = []

    class Queued(Glass):
        def __init__(self, name: str, fails: bool = False) -> None:
            super().__init__()
            self.name, self.fails = name, fails

        def show(self, frame: object, text: str = "") -> bool:
            order.append(f"queued {self.name}")
            return True

        def flush(self) -> None:
            order.append(f"flushed {self.name}")
            if self.fails:
                self.fails = False
                raise ScreenError(f"screen {self.name} did not take a frame")

    screens = {"seat1.screen": Queued("seat1.screen"), "seat2.screen": Queued("seat2.screen", fails=True),
               "shared.screen": Queued("shared.screen")}
    shown = Presentation(scene, screens, {})
    shown.redraw()
    assert order.index("flushed seat1.screen") > max(i for i, o in enumerate(order) if o.startswith("queued"))
    assert "seat2.screen" in scene.faults and "seat2.screen" not in shown.layouts_sent
    order.clear()
    shown.redraw()  # answers again: sent, and no longer a fault
    assert "queued seat2.screen" in order and "seat2.screen" not in scene.faults


# -- input -----------------------------------------------------------------------
@dataclass
class Ledger:
    """Stands in for commit: what input asked of it."""

    played: list[tuple[int | None, Move]] = field(default_factory=list)
    refused: list[tuple[int, str]] = field(default_factory=list)
    undos: int = 0

    def play(self, seat: int | None, move: Move) -> bool:
        self.played.append((seat, move))
        return True

    def refuse(self, seat: int, exc: IllegalMove) -> None:
        self.refused.append((seat, exc.code))

    def on_undo(self) -> None:
        self.undos += 1


def test_input_maps_presses_to_a_move_without_screens(sim, fake_game, tmp_path: Path) -> None:
    scene = scene_of(sim, fake_game, rolled(fake_game))
    ledger = Ledger()
    keys = InputMap(scene, Registry(tmp_path / "tags.sqlite"), ledger)  # type: ignore[arg-type]
    cursor = scene.cursor_for(0)
    first = cursor.current()
    keys.handle(ButtonPressed("seat1.right", 0.0))
    assert cursor.current() != first and not ledger.played
    keys.handle(ButtonPressed("seat1.left", 0.0))
    assert cursor.current() == first
    keys.handle(ButtonPressed("seat1.ok", 0.0))  # a move undo takes back: played by its ●
    assert ledger.played == [(0, first.moves[0])]
    # a move that tells a secret: down the menu to its confirm, played by the next ●
    ledger.played.clear()
    scene.seats[0].cursor = None
    cursor = scene.cursor_for(0)
    while cursor.current().value != "peek":
        keys.handle(ButtonPressed("seat1.right", 0.0))
    keys.handle(ButtonPressed("seat1.ok", 0.0))
    move = cursor.current()
    assert move.kind == "confirm" and not ledger.played
    keys.handle(ButtonPressed("seat1.ok", 0.0))
    assert ledger.played == [(0, move.moves[0])]


def test_input_refuses_the_wrong_seat_and_passes_undo_on(sim, fake_game, tmp_path: Path) -> None:
    scene = scene_of(sim, fake_game, rolled(fake_game))
    ledger = Ledger()
    keys = InputMap(scene, Registry(tmp_path / "tags.sqlite"), ledger)  # type: ignore[arg-type]
    keys.handle(ButtonPressed("seat2.ok", 0.0))
    assert ledger.refused == [(1, "table.not-your-turn")]
    keys.handle(ButtonPressed(sim.undo.name, 0.0))
    assert ledger.undos == 1 and not ledger.played
    assert keys.acting_seat(ButtonPressed("seat2.left", 0.0)) == 1


# -- commit ----------------------------------------------------------------------
def test_commit_applies_journals_refuses_and_undoes_without_screens(sim, fake_game, tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.sqlite")
    state = rules.get(fake_game).new_game(2, 1, {})
    record = journal.start(fake_game, 2, 1, state.options)
    scene = Scene(sim, record, state, "en")
    flashed: list[int] = []
    commit = Commit(scene, journal, Registry(tmp_path / "tags.sqlite"), flashed.append,
                    Presentation(scene, {}, {}).tell)
    assert commit.play(None, mv(type="roll", value=5))
    assert commit.play(0, mv(type="pass"))
    assert [e.move for e in journal.entries(record)] == [{"type": "roll", "value": 5}, {"type": "pass"}]
    assert scene.computer_due and scene.log  # the table is told what to do next
    before = scene.state.to_json()
    assert not commit.play(1, mv(type="play", card="nine"))  # no such card: refused, nothing changed
    assert scene.state.to_json() == before and flashed == [1]
    assert scene.transcript[-1].kind == "refused" and scene.seats[1].notice is not None
    commit.on_undo()
    assert scene.undo_pending
    commit.on_undo()
    assert [e.move for e in journal.entries(record)] == [{"type": "roll", "value": 5}]
    assert scene.state.to_move() == 0 and scene.transcript[-1].kind == "undo"
    journal.close()


@pytest.mark.parametrize("game", ["artus", "king-and-assassins", "king-is-dead", "mordred", "siege"])
def test_commit_tells_the_instructions_the_state_as_it_was_before_the_move(sim, game, tmp_path: Path) -> None:
    """play() hands the adapter the state before the move without copying it:
    the engine applies the move to a copy, so that state stays as it was."""
    journal = Journal(tmp_path / "journal.sqlite")
    g = rules.get(game)
    players = g.player_counts[0]
    state = g.new_game(players, 7, {})
    record = journal.start(game, players, 7, state.options)
    scene = scene_of(sim, game, state, players)
    scene.record = record
    commit = Commit(scene, journal, Registry(tmp_path / "tags.sqlite"), lambda seat: None,
                    Presentation(scene, {}, {}).tell)
    told: list[dict] = []
    real = scene.adapter.instructions

    def instructions(before: State, *args: object) -> list[str]:
        told.append(before.to_json())
        return real(before, *args)

    scene.adapter.instructions = instructions  # type: ignore[method-assign]
    rng = random.Random(7)
    for _ in range(40):
        if scene.state.outcome() is not None:
            break
        old = scene.state
        was = old.to_json()
        move = old.sample_chance() if old.is_chance() else rng.choice(old.legal_moves())
        assert commit.play(old.to_move(), move)
        assert scene.log is not None  # worded when first read (the shared screen reads them)
        assert old.to_json() == was and told[-1] == was
        assert scene.state is not old and len(scene.state.history) > len(old.history)
    journal.close()


def test_a_moves_words_come_in_the_transcript_before_what_follows_it(sim, fake_game, tmp_path: Path) -> None:
    """The instructions are worded when first read; whatever is told next
    (here a refusal, with no screen drawn between) still comes after them."""
    journal = Journal(tmp_path / "journal.sqlite")
    state = rules.get(fake_game).new_game(2, 1, {})
    record = journal.start(fake_game, 2, 1, state.options)
    scene = Scene(sim, record, state, "en")
    commit = Commit(scene, journal, Registry(tmp_path / "tags.sqlite"), lambda seat: None,
                    Presentation(scene, {}, {}).tell)
    worded: list[int] = []
    real = scene.adapter.instructions

    def instructions(*args: object) -> list[str]:
        worded.append(len(scene._transcript))
        return real(*args)

    scene.adapter.instructions = instructions  # type: ignore[method-assign]
    assert commit.play(None, mv(type="roll", value=5))
    assert commit.play(0, mv(type="pass"))
    assert len(worded) == 1  # the roll's words, when the pass's move record was added; the pass's: not yet
    # the pass's line is in the transcript already, in its place: only its words wait
    assert [r.kind for r in scene._transcript][-2:] == ["move", "said"] and len(worded) == 1
    assert not commit.play(1, mv(type="play", card="nine"))  # refused
    assert [r.kind for r in scene.transcript] == ["chance", "said", "move", "said", "refused"]
    assert scene.transcript[-2].extra["lines"] == scene.log
    journal.close()


@pytest.mark.parametrize("game", ["artus", "king-and-assassins", "king-is-dead", "mordred", "siege"])
def test_notes_taken_before_the_words_change_nothing(game: str) -> None:
    """take_notes() then instructions() (the table) leaves an adapter as
    instructions() alone (the journal's replay), with the same words."""
    g = rules.get(game)
    players = g.player_counts[-1]
    alone = games.for_game(game, players, "en")
    noted = games.for_game(game, players, "en")
    state = g.new_game(players, 11, {})
    rng = random.Random(11)
    for _ in range(150):
        if state.outcome() is not None:
            break
        move = state.sample_chance() if state.is_chance() else rng.choice(state.legal_moves())
        after = state.copy()
        events = after.apply(move)
        noted.take_notes(state, [move], events, after)
        assert noted.instructions(state, [move], events, after, "en") == \
            alone.instructions(state, [move], events, after, "en")
        assert vars(noted) == vars(alone)
        state = after
