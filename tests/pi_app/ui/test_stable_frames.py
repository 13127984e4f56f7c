"""A menu keeps its frame from one item to the next: the label and the
counter stand where they stood when the next item's name is set in another
size, so the cursor's step sends the big line's and the counter's pixels,
not the whole screen again (the I2C bus's bytes, counted on the fake bus)."""

from __future__ import annotations

from drivers.screens import I2cBuses, open_oled
from drivers.sim.i2c import FakeI2cBus, Traffic
from drivers.sim.oled_controller import OledController
from pi_app.session.presentation import ARROWS
from pi_app.ui.screens import Layout, plan, problems, render

TITLE = "Place a knight (5 left)"
#: a short name in the largest font, then a long one set smaller on two lines
SHORT = Layout(title=TITLE, big="Seat 1 (-15)", lines=("Empty seat  1/22",), footer=ARROWS)
LONG = Layout(title=TITLE, big="Knight on seat 27 beside the King", lines=("Empty seat  2/22",),
              footer=ARROWS)
#: a hand of cards too long for one line with the counter: label and counter on lines of their own
HAND = Layout(title="New: 8 cards", big="Discard",
              lines=("Archer, Assassin, Ballista, Battering Ram, Supply Wagon", "2/2"), footer=ARROWS)
ONE = Layout(title="New: 8 cards", big="Discard Archer", lines=("Archer, Assassin, Ballista, Battering Ram, "
                                                                "Supply Wagon", "1/2"), footer=ARROWS)


def rows(layout: Layout) -> list[int]:
    return [p.y for p in plan(layout).placed if p.part == "line"]


def big_size(layout: Layout) -> int:
    return next(p.size for p in plan(layout).placed if p.part == "big")


def test_the_label_and_counter_keep_their_row_when_the_name_changes_size() -> None:
    assert big_size(SHORT) != big_size(LONG)  # the case this is about
    assert not problems(SHORT) and not problems(LONG)
    assert rows(SHORT) == rows(LONG)
    assert not problems(HAND) and not problems(ONE)
    assert rows(HAND) == rows(ONE)


def test_the_small_print_stands_a_blank_row_above_the_button_bar() -> None:
    where = plan(SHORT)
    line = next(p for p in where.placed if p.part == "line")
    assert where.rule_y is not None and line.box[3] <= where.rule_y - 1


def test_the_cursors_step_sends_only_the_name_and_the_counter() -> None:
    bus = FakeI2cBus(set())
    bus.attach(0, 0x3C, OledController("sh1106", seed=0))
    screen = open_oled("seat1.screen", driver="sh1106", mux_channel=0, i2c=I2cBuses(opener=lambda port: bus))
    screen.show(render(SHORT))
    bus.traffic.clear()
    screen.show(render(LONG))
    step = bus.traffic.get((0, 0x3C), Traffic())
    # the title, the label and the button bar are not sent again: before, the
    # label moved under the smaller name and the step cost 570 bytes (498 now)
    assert step.bytes <= 520
