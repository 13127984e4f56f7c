"""Feedback first: the moment an input is read, the acting seat's screen shows
it was taken (its button bar's item pressed, nothing else); then the journal
commit; then the acting seat's frame, the next seat's, the shared screen and
the other seats'. No screen shows a move before the journal's commit of it
returned."""

from __future__ import annotations

from typing import Any

from PIL import ImageChops

from drivers.screens import I2cBuses, open_oled
from drivers.sim.i2c import FakeI2cBus
from pi_app.ui.screens import HEIGHT, SMALL, Layout, pressed, render


def record_sends(r: Any) -> list[str]:
    """Every frame sent, by screen name, and ``commit`` for each journal write, in order."""
    said: list[str] = []
    s = r.session
    for name, screen in r.table.screens.items():
        def show(frame: Any, text: str = "", real: Any = screen.show, name: str = name) -> bool:
            sent = real(frame, text)
            if sent:
                said.append(name)
            return sent

        screen.show = show
    real_write = s.journal.append_many

    def append_many(*args: Any, **kw: Any) -> Any:
        out = real_write(*args, **kw)
        said.append("commit")
        return out

    s.journal.append_many = append_many
    return said


def seat2_about_to_pass(rig: Any, fake_game: Any) -> tuple[Any, Any, list[str]]:
    """Three seats; seat 1 has passed and seat 2's menu stands on pass: its
    next ● is a move that changes every screen. The sends are recorded from here."""
    r = rig(3)
    s = r.open(fake_game)
    r.press("seat1.ok")  # seat 1 passes (undo takes it back: no confirm): seat 2 to move
    assert s.scene.state.to_move() == 1 and s.scene.cursor_for(1).current().value == "pass"
    return r, s, record_sends(r)


def only_the_bar_differs(before: Any, after: Any) -> bool:
    """``after`` is ``before`` with pixels changed below the button bar's rule
    only (rows 53-63: the controller's pages 6 and 7), and some changed."""
    changed = ImageChops.difference(before.convert("L"), after.convert("L")).getbbox()
    return changed is not None and changed[1] >= HEIGHT - SMALL - 1


def test_the_acting_seat_sees_its_input_taken_then_the_commit_then_the_next_seat(rig, fake_game):
    r, s, said = seat2_about_to_pass(rig, fake_game)
    r.press("seat2.ok")  # ... pass: a move, and every screen changes
    assert s.scene.state.to_move() == 2
    assert said == ["seat2.screen", "commit", "seat2.screen", "seat3.screen", "shared.screen",
                    "seat1.screen"], said


def test_the_acknowledgement_is_the_pressed_item_and_nothing_else(rig, fake_game):
    r, s, _ = seat2_about_to_pass(rig, fake_game)
    shown = r.table.frames("seat2.screen")[-1]
    menu = s.layouts()["seat2.screen"]
    r.press("seat2.ok")
    ack, after = r.table.frames("seat2.screen")[-2:]
    assert only_the_bar_differs(shown, ack)
    assert ack.tobytes() == pressed(menu, shown, "ok").tobytes()
    assert r.table.texts("seat2.screen")[-2] == menu.text()  # the words of the screen it was
    assert after.tobytes() == render(s.layouts()["seat2.screen"]).tobytes()


def test_each_button_presses_its_own_item(rig, fake_game):
    r = rig(2)
    r.open(fake_game)
    boxes = {}
    for button in ("left", "right", "ok"):
        before = r.table.frames("seat1.screen")[-1]
        r.press(f"seat1.{button}")
        ack = r.table.frames("seat1.screen")[-2]
        assert only_the_bar_differs(before, ack), button
        boxes[button] = ImageChops.difference(before.convert("L"), ack.convert("L")).getbbox()
    assert boxes["left"][2] <= boxes["ok"][0] and boxes["ok"][2] <= boxes["right"][0], boxes


def test_a_tag_presses_the_whole_bar(rig, fake_game):
    r = rig(2)  # a journal of its own: ● above played a move, which a second rig here would resume
    s = r.open(fake_game)
    menu = s.layouts()["seat1.screen"]
    sent = len(r.table.frames("seat1.screen"))
    before = r.table.frames("seat1.screen")[-1]
    r.tap(0, next(iter(r.uids)))
    ack = r.table.frames("seat1.screen")[sent]
    assert ack.tobytes() == pressed(menu, before, "tap").tobytes()
    assert only_the_bar_differs(before, ack)


def test_a_seat_without_a_button_bar_gets_no_acknowledgement(rig, fake_game):
    r = rig(2)
    s = r.open(fake_game)
    assert not s.layouts()["seat2.screen"].footer  # seat 1 to move: seat 2 waits
    sent = len(r.table.frames("seat2.screen"))
    r.press("seat2.left")
    frames = r.table.frames("seat2.screen")[sent:]
    assert all(not only_the_bar_differs(r.table.frames("seat2.screen")[sent - 1], f) for f in frames)


def test_the_acknowledgement_is_a_page_or_two_on_the_bus():
    """On the reference table's SH1106 behind its multiplexer, as luma sends it."""
    bus = FakeI2cBus({(0, 0x3C)})
    screen = open_oled("seat1.screen", driver="sh1106", address=0x3C, mux_channel=0,
                       i2c=I2cBuses(opener=lambda port: bus))
    menu = Layout(title="Your turn: play or pass", big="Garrison", lines=("Card 1/3",), footer="◀   ●   ▶")
    screen.show(render(menu))
    for item in ("left", "ok", "right", "tap"):
        before = bus.total()
        screen.show(pressed(menu, render(menu), item))
        sent = bus.total().bytes - before.bytes
        assert 0 < sent <= 2 * (128 + 16), (item, sent)  # two pages and their addressing at most


def test_no_screen_shows_a_move_before_its_commit_returned(rig, fake_game):
    r = rig(2)
    s = r.open(fake_game)
    r.press("seat1.right")
    r.press("seat1.ok")  # into "play": the cards
    said = record_sends(r)
    moves = len(s.scene.state.history)
    shown = r.table.frames("seat1.screen")[-1]
    r.press("seat1.ok")  # the move: card one
    assert len(s.scene.state.history) > moves
    assert said[:2] == ["seat1.screen", "commit"], said  # its acknowledgement, then the commit
    assert only_the_bar_differs(shown, r.table.frames("seat1.screen")[-2])  # which shows no move
    last_commit = max(i for i, n in enumerate(said) if n == "commit")
    assert all(n == "commit" for n in said[1:last_commit + 1]), said


def test_a_move_and_the_chance_steps_drawn_after_it_are_one_commit(rig):
    """One fsync a tap: on an SD card each costs milliseconds before any frame."""
    import random

    from pi_app.simulated.autoplay import choose

    r = rig(2)
    s = r.open("artus")
    commits: list[int] = []
    real_write = s.journal.append_many

    def append_many(*args, **kw):
        commits[-1] += 1
        return real_write(*args, **kw)

    s.journal.append_many = append_many
    rng = random.Random(2)
    drawn = 0
    while len(s.scene.state.history) < 120 and s.scene.state.outcome() is None:
        seat = s.scene.state.to_move()
        before = len(s.scene.state.history)
        commits.append(0)
        r.make(seat, choose(s, rng), after=lambda _r: commits.append(0))
        drawn += len(s.scene.state.history) - before > 1
    assert drawn, "no move was followed by a chance step"
    assert max(commits) == 1, commits


def test_the_acting_seats_frame_does_not_wait_for_the_other_layouts(rig, fake_game):
    r = rig(3)
    s = r.open(fake_game)
    r.press("seat1.ok")  # seat 2 to move
    said = record_sends(r)
    shown = s.presentation  # the part that lays the screens out
    real_seat, real_shared = shown.seat_layout, shown.shared_layout

    def seat_layout(seat):
        said.append(f"layout seat{seat + 1}")
        return real_seat(seat)

    def shared_layout():
        said.append("layout shared")
        return real_shared()

    shown.seat_layout, shown.shared_layout = seat_layout, shared_layout
    r.press("seat2.ok")  # the move: every screen changes
    first_frame = said.index("seat2.screen")
    assert "layout seat1" not in said[:first_frame] and "layout seat3" not in said[:first_frame], said


def test_the_instructions_are_worded_after_the_acting_seats_frame(rig, fake_game):
    r, s, said = seat2_about_to_pass(rig, fake_game)
    real = s.scene.adapter.instructions

    def instructions(*args, **kw):
        said.append("words")
        return real(*args, **kw)

    s.scene.adapter.instructions = instructions
    r.press("seat2.ok")  # a move: every screen changes
    assert [n for n in said if n != "commit"] == ["seat2.screen", "seat2.screen", "seat3.screen", "words",
                                                   "shared.screen", "seat1.screen"], said
    assert s.scene.transcript[-1].kind == "said" and s.scene.transcript[-1].extra["lines"] == s.scene.log
