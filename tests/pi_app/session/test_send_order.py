"""Feedback first: after an input, the acting seat's screen is sent first, then
the shared screen, then the other seats'; and no screen shows a move before
the journal's commit of it returned."""

from __future__ import annotations

from typing import Any


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
    """Three seats; seat 1 has passed and seat 2 has picked pass: its next ●
    is a move that changes every screen. The sends are recorded from here."""
    r = rig(3)
    s = r.open(fake_game)
    r.press("seat1.ok")
    r.press("seat1.ok")  # seat 1 passes: seat 2 to move
    r.press("seat2.ok")  # seat 2: pass ...
    return r, s, record_sends(r)


def test_the_acting_seats_screen_goes_first_then_the_shared_one(rig, fake_game):
    r, s, said = seat2_about_to_pass(rig, fake_game)
    r.press("seat2.ok")  # ... confirmed: a move, and every screen changes
    assert s.scene.state.to_move() == 2
    frames = [n for n in said if n != "commit"]
    assert frames == ["seat2.screen", "shared.screen", "seat1.screen", "seat3.screen"], frames


def test_no_screen_shows_a_move_before_its_commit_returned(rig, fake_game):
    r = rig(2)
    s = r.open(fake_game)
    r.press("seat1.right")
    r.press("seat1.ok")
    r.press("seat1.ok")
    said = record_sends(r)
    moves = len(s.scene.state.history)
    r.press("seat1.ok")  # the move
    assert len(s.scene.state.history) > moves
    assert said[0] == "commit" and said.count("commit") >= 1, said
    last_commit = max(i for i, n in enumerate(said) if n == "commit")
    assert all(n == "commit" for n in said[:last_commit + 1]), said


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
    r.press("seat1.ok")
    r.press("seat1.ok")  # seat 2 to move
    r.press("seat2.ok")
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
    assert [n for n in said if n != "commit"] == ["seat2.screen", "words", "shared.screen", "seat1.screen",
                                                   "seat3.screen"], said
    assert s.scene.transcript[-1].kind == "said" and s.scene.transcript[-1].extra["lines"] == s.scene.log
