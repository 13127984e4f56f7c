"""How a menu saves a person inputs (issue 34): a move that undo takes
back is played by the press that chooses it, a level starts on the seat's
last choice there, and "back" stands where it costs the other choices least."""

from __future__ import annotations

from pi_app.ui.menu import BACK, BRANCH, CONFIRM, Cursor, Memory
from tests.pi_app.fakegame import mv

MOVES = [mv(type="place", region=r, colour=c) for r in ("north", "south", "east") for c in ("red", "blue")]


def test_a_move_undo_takes_back_is_played_by_its_press_and_another_asks_to_confirm():
    cursor = Cursor.over(MOVES)
    cursor.confirms = lambda m: m.to_json()["colour"] == "blue"
    assert cursor.select() is None  # north: its colours
    assert cursor.select() == mv(type="place", region="north", colour="red")  # no confirm
    while cursor.current().value != "blue":
        cursor.step(1)
    assert cursor.select() is None and cursor.current().kind == CONFIRM  # blue asks first
    assert cursor.select() == mv(type="place", region="north", colour="blue")


def test_a_move_that_asks_may_be_confirmed_by_the_press_that_picks_it():
    cursor = Cursor.over(MOVES)
    cursor.confirms = lambda m: True  # every move asks (a roll follows)
    cursor.chosen = lambda m: m.to_json()["colour"] == "red"  # a red option names the whole move
    cursor.select()  # north: its colours
    assert cursor.confirmed_by_choice(cursor.current())
    assert cursor.select() == mv(type="place", region="north", colour="red")  # its ● is the confirm
    cursor.step(1)
    assert not cursor.confirmed_by_choice(cursor.current())
    assert cursor.select() is None and cursor.current().kind == CONFIRM  # blue asks on its own screen
    cursor.back()
    cursor.back()
    assert not cursor.confirmed_by_choice(cursor.current())  # a region: several moves, no confirm


def test_without_a_rule_for_confirms_every_move_asks():
    cursor = Cursor.over(MOVES)
    cursor.select()
    assert cursor.select() is None and cursor.current().kind == CONFIRM


def test_a_level_starts_on_the_seats_last_choice_for_that_subject_then_at_all():
    memory = Memory(subjects=("region",))
    memory.note({"type": "place", "region": "south", "colour": "blue"})
    memory.note({"type": "place", "region": "east", "colour": "red"})
    cursor = Cursor.over(MOVES)
    cursor.prefer = memory.prefer
    cursor.start()
    assert cursor.current().value == "east"  # the last region chosen
    cursor.step(-1)
    cursor.select()  # south: blue, as last time there
    assert cursor.current().value == "blue"
    cursor.back()
    cursor.step(-1)
    cursor.select()  # north, never chosen: red, the last colour at all
    assert cursor.current().value == "red"


def test_back_stands_across_the_ring_from_where_a_level_starts():
    many = [mv(type="go", to=n) for n in range(4)]
    cursor = Cursor.over([mv(type="pass"), *many])
    cursor.prefer = Memory().prefer  # a seat's menu
    cursor.step(1)
    cursor.select()
    kinds = [o.kind for o in cursor.options()]
    assert kinds == [BRANCH, BRANCH, BACK, BRANCH, BRANCH]
    assert cursor.index == 0  # the first choice; its neighbours either way are choices too
    dice = Cursor.over([mv(type="roll", first=1, second=n) for n in range(1, 4)] + [mv(type="roll", first=2)])
    dice.select()  # a menu that remembers nothing (a die entered): back stays last
    assert [o.kind for o in dice.options()] == [BRANCH, BRANCH, BRANCH, BACK]


def test_a_long_choice_the_game_groups_is_made_in_two_steps_starting_on_the_last_choices_group():
    many = [mv(type="go", to=n) for n in range(20)]
    cursor = Cursor.over(many)
    cursor.group = lambda field, value: value // 10 if field == "to" else None
    memory = Memory()
    memory.note({"type": "go", "to": 13})
    cursor.prefer = memory.prefer
    cursor.start()
    assert cursor.field() == "to/group" and len(cursor.options()) == 2
    assert cursor.current().value == 1  # the group of 13, the last place chosen
    cursor.select()
    assert cursor.field() == "to" and cursor.current().value == 13
    few = Cursor.over(many[:8])  # a short choice stays one step
    few.group = cursor.group
    assert few.field() == "to"
