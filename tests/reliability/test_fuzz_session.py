"""The daemon's session under random streams of taps and presses, for every
game with an adapter: known and unknown tags, tags of other games, pieces of
other seats, pads and buttons of seats beyond the player count, zone readers,
undo and SHOW_ALL, at any time (chance steps, after the game is over), mixed
with inputs toward a legal move so that games go deep. After every input:

* nothing raised out of the session loop and no internal error is shown;
* the state is the replay of the journal;
* every screen recorded the words the session means it to say;
* no screen says another seat's secret (tests/reliability/session_fuzz.py),
  nor a computer player's screen its own (most examples seat one).

Reproducible (derandomized, no example database). TABLEKEEPER_FUZZ_EXAMPLES
raises the examples per game, TABLEKEEPER_FUZZ_STEPS the inputs per example;
TABLEKEEPER_FUZZ_REPORT names a file to which each example appends a JSON
line of what it tried (for docs/reliability.md).
"""

from __future__ import annotations

import json
import os
import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import rules
from pi_app import games as table_games
from rules.core import IllegalMove, Move, State
from tests.reliability.session_fuzz import (
    TABLES,
    Harness,
    Input,
    Leak,
    Setup,
    check_opening,
    give,
    progress,
)

GAMES = [g for g in rules.GAMES if g in table_games.ADAPTERS]
EXAMPLES = int(os.environ.get("TABLEKEEPER_FUZZ_EXAMPLES", "4"))
STEPS = int(os.environ.get("TABLEKEEPER_FUZZ_STEPS", "150"))
REPORT = os.environ.get("TABLEKEEPER_FUZZ_REPORT")
PROGRESS = 60  # in a hundred inputs, about this many work toward a legal move
UNKNOWN = ("04DEADBEEF0001", "0000", "FFFFFFFFFFFFFFFFFFFF", "04AAAAAAAAAAAA")  # enrolled for no game

# No shrinking: a stream of hundreds of inputs on a changing state shrinks for
# many minutes, while the failure's message and its listed draws already name
# the input, and the same example comes back on every run (derandomized).
FUZZ = settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None,
                phases=[Phase.explicit, Phase.generate],
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
                print_blob=False)


def draw_setup(data: st.DataObject, game: str) -> Setup:
    g = rules.get(game)
    players = data.draw(st.sampled_from(list(g.player_counts)), label="players")
    return Setup(game, players,
                 data.draw(st.sampled_from(g.option_combinations()), label="options"),
                 data.draw(st.sampled_from(TABLES), label="table"),
                 data.draw(st.integers(0, 2**16), label="seed"),
                 data.draw(st.sampled_from(("en", "it")), label="lang"),
                 data.draw(st.sampled_from([None, *range(players)]), label="computer"))


def draw_target(data: st.DataObject, moves: list[Move]) -> Move:
    """A legal move to work toward; passing less often, so games go deep."""
    playing = [m for m in moves if m.to_json().get("type") != "pass"]
    pool = playing if playing and data.draw(st.integers(0, 9), label="play?") < 8 else moves
    return pool[data.draw(st.integers(0, len(pool) - 1), label="target")]


def draw_noise(data: st.DataObject, h: Harness) -> Input:
    """Any input the table can receive, whether it makes sense now or not."""
    roll = data.draw(st.integers(0, 99), label="noise")
    pad = data.draw(st.sampled_from(h.pads), label="pad")
    if roll < 36:
        return Input("tap", pad, h.uids[data.draw(st.sampled_from(sorted(h.uids)), label="component")])
    if roll < 72:
        return Input("press", data.draw(st.sampled_from(h.buttons), label="button"))
    if roll < 78:
        return Input("tap", pad, data.draw(st.sampled_from(UNKNOWN), label="unknown"))
    if roll < 84:
        return Input("tap", pad, data.draw(st.sampled_from(h.foreign), label="foreign"))
    if roll < 90 and h.zones:
        comp = data.draw(st.sampled_from(sorted(h.uids)), label="component")
        return Input("tap", data.draw(st.sampled_from(h.zones), label="zone"), h.uids[comp])
    if roll < 98:
        return Input("press", h.profile.undo.name)
    return Input("show-all")


@pytest.mark.parametrize("game", GAMES)
@FUZZ
@given(data=st.data())
def test_random_input_never_crashes_loses_a_move_or_shows_a_secret(game: str, data: st.DataObject) -> None:
    setup = draw_setup(data, game)
    rng = random.Random(repr(setup))  # the re-deals of secrets: fixed by the example
    with tempfile.TemporaryDirectory(prefix="tablekeeper-fuzz-") as folder:
        h = Harness(Path(folder), setup)
        try:
            tally = run(h, data, rng)
        finally:
            h.close()
    if REPORT:
        with open(REPORT, "a", encoding="utf-8") as out:
            out.write(json.dumps({"setup": repr(setup), **tally}) + "\n")


def run(h: Harness, data: st.DataObject, rng: random.Random) -> dict[str, int]:
    s = h.session
    tally = check_opening(h, rng)
    target = None
    for _ in range(STEPS):
        moves = s.scene.state.legal_moves()
        if moves and data.draw(st.integers(0, 99), label="progress?") < PROGRESS:
            if target not in moves:
                target = draw_target(data, moves)
            inp = progress(h, target) or draw_noise(data, h)
        else:
            inp = draw_noise(data, h)
        tally += give(h, inp, rng)
    tally["moves"] = len(s.scene.state.history)
    tally["over"] = int(s.scene.state.outcome() is not None)
    tally["refused"] = sum(r.kind in ("refused", "unknown-tag") for r in s.scene.transcript)
    return dict(tally)


# -- the secret checks find a leak planted in an adapter ---------------------------


def _hand(state: State, seat: int) -> str:
    return " ".join(sorted(state.view(seat)["hand"]))


def _plant_public(monkeypatch: pytest.MonkeyPatch, cls: type) -> None:
    lines = cls.public_lines
    monkeypatch.setattr(cls, "public_lines", lambda self, state, lang: [*lines(self, state, lang),
                                                                        _hand(state, 0)])


def _plant_private(monkeypatch: pytest.MonkeyPatch, cls: type) -> None:
    lines = cls.private_lines

    def private_lines(self, state: State, seat: int, lang: str) -> tuple[str, list[str]]:
        big, small = lines(self, state, seat, lang)
        return big, [*small, _hand(state, 1 - seat)]

    monkeypatch.setattr(cls, "private_lines", private_lines)


def _plant_refusal(monkeypatch: pytest.MonkeyPatch, cls: type) -> None:
    monkeypatch.setattr(cls, "refusal", lambda self, state, seat, comp, moves: IllegalMove(
        "table.not-now", "", what=_hand(state, 1 - seat)))


def _plant_said(monkeypatch: pytest.MonkeyPatch, cls: type) -> None:
    said = cls.instructions
    monkeypatch.setattr(cls, "instructions", lambda self, before, moves, events, after, lang: [
        *said(self, before, moves, events, after, lang), _hand(after, 0)])


@pytest.mark.parametrize(("plant", "found"), [
    (_plant_public, "the shared screen says"),
    (_plant_private, r"seat\d\.screen says"),
    (_plant_refusal, r"after tap seat\d\.pad"),
    (_plant_said, "the table is told"),
])
def test_a_secret_planted_on_a_screen_is_found(plant, found: str, monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: Path) -> None:
    """Siege's hands, planted where the seat's own screen, the shared screen, a
    refusal or the table's instructions would show them to another seat."""
    plant(monkeypatch, table_games.ADAPTERS["siege"])
    rng = random.Random(7)
    h = Harness(tmp_path, Setup("siege", 2, {}, "sim", 7))
    try:
        with pytest.raises(Leak, match=found):
            check_opening(h, rng)
            for _ in range(200):
                moves = h.session.scene.state.legal_moves()
                seat = rng.randrange(2)  # a card of a player's own, on that player's pad
                cards = [h.uids[c.id] for c in h.session.scene.adapter.components() if c.seat == seat]
                if moves and rng.random() < 0.7:
                    give(h, progress(h, rng.choice(moves)), rng)
                    continue
                give(h, Input("tap", h.pads[seat], rng.choice(cards)), rng)
                # Siege confirms a tapped card with ● (adapter tap_confirms): play it.
                give(h, Input("press", h.pads[seat].replace(".pad", ".ok")), rng)
    finally:
        h.close()


def test_a_computer_screen_showing_its_own_hand_is_found(monkeypatch: pytest.MonkeyPatch,
                                                         tmp_path: Path) -> None:
    """A computer's screen faces the whole table: its own hand there is a leak."""
    from pi_app.session.presentation import Presentation
    from pi_app.ui.screens import Layout

    layout = Presentation.seat_layout

    def seat_layout(self: Presentation, seat: int) -> Layout:
        if seat in self.scene.computers and self.scene.state.outcome() is None:
            return Layout(title="computer", lines=(_hand(self.scene.state, seat),))
        return layout(self, seat)

    monkeypatch.setattr(Presentation, "seat_layout", seat_layout)
    rng = random.Random(7)
    h = Harness(tmp_path, Setup("siege", 2, {}, "sim", 7, computer=1))
    try:
        with pytest.raises(Leak, match=r"seat2\.screen says"):
            check_opening(h, rng)
            target = None
            for _ in range(200):
                moves = h.session.scene.state.legal_moves()
                if target not in moves:  # a person pursues one move until it is made
                    target = rng.choice(moves)
                give(h, progress(h, target), rng)
    finally:
        h.close()
