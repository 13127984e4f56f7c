"""Python's garbage collector does not start while an input goes from its
event to the screens (a collection there delays the frames); it is on again
once they are out."""

from __future__ import annotations

import gc
from typing import Any

from pi_app.session.loop import collector_waits
from tests.pi_app.session.test_send_order import seat2_about_to_pass


def collections_during(action: Any) -> tuple[list[str], list[str]]:
    """The frames sent and every collection started while ``action`` ran, in order."""
    order: list[str] = []

    def seen(phase: str, info: dict) -> None:
        if phase == "start":
            order.append(f"gc{info['generation']}")

    gc.callbacks.append(seen)
    old = gc.get_threshold()
    gc.set_threshold(1, 1, 1)  # a collection at (nearly) every allocation while it lasts
    try:
        action(order)
    finally:
        gc.set_threshold(*old)
        gc.callbacks.remove(seen)
    return order, [n for n in order if n.startswith("gc")]


def test_no_collection_while_waiting_and_the_collector_is_on_after() -> None:
    def action(order: list[str]) -> None:
        with collector_waits():
            order.append("in")
            junk = [[i] for i in range(2000)]  # would start many collections
            del junk
            order.append("out")
        [[i] for i in range(10)]

    order, collected = collections_during(action)
    inside = order[order.index("in"):order.index("out")]
    assert not [n for n in inside if n.startswith("gc")], inside
    assert collected and gc.isenabled()


def test_a_collector_switched_off_stays_off() -> None:
    gc.disable()
    try:
        with collector_waits():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_no_collection_between_an_input_and_its_frames(rig, fake_game):
    r, s, shared = seat2_about_to_pass(rig, fake_game)  # the list: collections, the input, the frames
    real_handle = s.input.handle

    def handle(event: object) -> bool:
        shared.append("input")  # where the input's own work begins
        return real_handle(event)

    s.input.handle = handle  # type: ignore[method-assign]

    def action(order: list[str]) -> None:
        shared.clear()
        r.press("seat2.ok")  # a move: every screen changes
        junk = [[i] for i in range(100)]  # after the input, the collector runs again
        del junk
        order.extend(shared)

    def seen_in(order: list[str]) -> None:
        gc.callbacks.append(note)
        try:
            action(order)
        finally:
            gc.callbacks.remove(note)

    def note(phase: str, info: dict) -> None:
        if phase == "start":
            shared.append("gc")

    order, _ = collections_during(seen_in)
    assert s.scene.state.to_move() == 2
    frames = [n for n in order if n.endswith(".screen")]
    assert len(frames) == 5, order  # the acting seat's acknowledgement, then four frames
    start = min(order.index("input"), order.index(frames[0]))
    end = max(i for i, n in enumerate(order) if n.endswith(".screen"))
    assert "gc" not in order[start:end], order
    assert "gc" in order[end:], order
    assert gc.isenabled()
