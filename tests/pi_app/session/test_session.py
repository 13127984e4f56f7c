"""The session loop on a fake game, through the simulated table: taps on
simulated pads, presses on mock pins, layouts and lights out."""

from __future__ import annotations

import pytest

from pi_app.errors import UsageError


def shared(s):
    return s.layouts()["shared.screen"]


def screen(s, seat):
    return s.layouts()[f"seat{seat + 1}.screen"]


def test_new_game_draws_chance_and_lights_seat_to_move(rig, fake_game):
    r = rig(2)
    s = r.open(fake_game)
    assert s.scene.state.to_move() == 0  # the roll was drawn (sim profile: chance = draw)
    assert s.journal.entries(s.scene.record)[0].chance
    assert r.table.lights["seat1.light"].is_lit
    assert not r.table.lights["seat2.light"].is_lit
    assert screen(s, 0).title == "Your turn"
    assert screen(s, 1).title.startswith("Waiting: Player 1")
    # the seat to move has a menu; frames were drawn on the dummy devices
    assert screen(s, 0).footer
    assert r.table.frames("seat1.screen")


def test_screens_record_the_words_they_draw(rig, fake_game):
    r = rig(2)
    s = r.open(fake_game)
    r.press("seat1.right")
    for name, layout in s.layouts().items():
        assert r.table.screens[name].text == layout.text()
        assert r.table.texts(name)[-1] == layout.text()
        assert len(r.table.texts(name)) == len(r.table.frames(name))
    assert "play" in r.table.screens["seat1.screen"].text.splitlines()
    assert r.table.texts("seat1.screen")[-2] != r.table.texts("seat1.screen")[-1]  # pass, then play


def test_menu_steps_and_confirms(rig, fake_game):
    r = rig(2)
    s = r.open(fake_game)
    assert screen(s, 0).big == "pass"
    r.press("seat1.right")
    assert screen(s, 0).big == "play"
    r.press("seat1.ok")  # into "play": the cards
    assert screen(s, 0).lines[0].startswith("card")
    r.press("seat1.ok")  # card one: played at once, as undo takes it back
    assert s.scene.state.to_move() == 1
    assert s.scene.state.scores[0] == 1
    assert r.table.lights["seat2.light"].is_lit
    # a move that tells a secret (undo cannot take it back) asks for ● first
    while screen(s, 1).big != "peek":
        r.press("seat2.right")
    r.press("seat2.ok")
    assert "confirm" in screen(s, 1).lines[0]
    assert s.scene.state.to_move() == 1
    r.press("seat2.ok")
    assert s.scene.state.to_move() == 0


def test_back_option_returns_up(rig, fake_game):
    r = rig(2)
    s = r.open(fake_game)
    r.press("seat1.right")
    r.press("seat1.ok")
    # "back" stands across the ring from where the level starts: the
    # choices on either side of that one are each one press away
    cards = len(s.scene.cursor_for(0).options()) - 1
    assert screen(s, 0).big != "back"
    for _ in range((cards + 1) // 2):
        r.press("seat1.right")
    assert "back" in screen(s, 0).big
    r.press("seat1.ok")
    assert screen(s, 0).big == "play"


def test_tap_plays_a_card_and_used_card_is_refused(rig, fake_game):
    r = rig(2)
    s = r.open(fake_game)
    r.tap(0, "one@1")
    assert s.scene.state.scores[0] == 1
    r.press("seat2.ok")  # seat 2: pass, played at once
    assert s.scene.state.to_move() == 0
    before = s.scene.state.to_json()
    flashes = r.table.lights["seat1.light"].flashes
    r.tap(0, "one@1")
    assert s.scene.state.to_json() == before
    lay = screen(s, 0)
    assert lay.alert and lay.title == "REFUSED"
    assert "already used" in lay.lines[0] and "Rule: Cards" in lay.lines
    assert r.table.lights["seat1.light"].flashes == flashes + 1
    r.press("seat1.ok")  # dismisses the refusal, does nothing else
    assert not screen(s, 0).alert and s.scene.state.to_json() == before


def test_out_of_turn_and_other_seats_piece(rig, fake_game):
    r = rig(3)
    s = r.open(fake_game)
    before = s.scene.state.to_json()
    r.press("seat2.ok")
    assert screen(s, 1).lines[0] == "Turn: Player 1, not Player 2. Wait for your turn."
    # the table's own refusal: no rulebook section cited, which would explain nothing
    assert not [line for line in screen(s, 1).lines if line.startswith("Rule:")]
    r.tap(0, "two@2")
    assert "belongs to Player 2" in screen(s, 0).lines[0]
    assert s.scene.state.to_json() == before
    assert r.table.lights["seat2.light"].state == "flash"


def test_unknown_tag_reported_on_tapping_seat(rig, fake_game):
    r = rig(2)
    s = r.open(fake_game)
    before = s.scene.state.to_json()
    r.tap_uid(1, "04DEADBEEF0001")
    lay = screen(s, 1)
    assert lay.title == "UNKNOWN TAG" and "04DEADBEEF0001" in lay.lines[0]
    assert s.scene.state.to_json() == before
    assert not screen(s, 0).alert
    # A tag enrolled for another game is named for what it is, not guessed.
    r.registry.enroll("04DEADBEEF0002", "another-game", "garrison@2")
    r.press("seat2.ok")
    r.tap_uid(1, "04DEADBEEF0002")
    lay = screen(s, 1)
    assert lay.title == "UNKNOWN TAG"
    assert lay.lines[0] == "This is garrison@2 of another-game: it is not used in this game."
    assert s.scene.state.to_json() == before


def test_cube_tap_narrows_to_its_colour(rig, fake_game):
    r = rig(2)
    s = r.open(fake_game)
    r.tap(0, "cube:blue")  # narrows to the two blue placements
    assert len(s.scene.seats[0].cursor.moves) == 2
    assert screen(s, 0).big == "north"
    r.press("seat1.ok")
    r.press("seat1.ok")
    assert s.scene.state.markers == [("north", "blue")]


def test_undo_with_confirmation_and_barriers(rig, fake_game):
    r = rig(2)
    s = r.open(fake_game)
    r.press("shared.undo")  # the last entry is the roll: a barrier
    assert "Cannot undo" in shared(s).title
    r.tap(0, "one@1")
    r.press("shared.undo")
    assert shared(s).title == "UNDO?" and "one" in shared(s).big
    r.press("seat2.ok")  # any other button cancels
    assert s.scene.state.scores[0] == 1
    r.press("shared.undo")
    r.press("shared.undo")
    assert s.scene.state.scores[0] == 0 and s.scene.state.to_move() == 0
    assert len(s.journal.entries(s.scene.record)) == 1
    # a revealed secret is a barrier too
    while screen(s, 0).big != "peek":
        r.press("seat1.left")
    r.press("seat1.ok")
    r.press("seat1.ok")  # its confirm: a secret told cannot be taken back
    assert s.scene.state.to_move() == 1
    r.press("shared.undo")
    assert "secret" in shared(s).title


def test_resume_after_restart(rig, fake_game):
    r = rig(2)
    s = r.open(fake_game)
    r.tap(0, "two@1")
    r.press("seat2.right")
    r.press("seat2.right")
    r.press("seat2.ok")  # into place
    r.press("seat2.ok")
    r.press("seat2.ok")
    state = s.scene.state.to_json()
    s2 = r.open()  # a new process: same journal, no --game
    assert s2.scene.state.to_json() == state
    assert s2.scene.record.id == s.scene.record.id


def test_resume_refuses_another_game_without_new(rig, fake_game):
    r = rig(2)
    r.open(fake_game)
    r.players = 3
    with pytest.raises(UsageError, match="--new"):
        r.open(fake_game)
    s = r.open(fake_game, new=True)
    assert s.scene.state.players == 3


def test_game_over_shows_outcome(rig, fake_game):
    r = rig(2)
    s = r.open(fake_game)
    for _ in range(12):
        if s.scene.state.outcome() is not None:
            break
        seat = s.scene.state.to_move()
        r.press(f"seat{seat + 1}.ok")  # pass, confirm
        r.press(f"seat{seat + 1}.ok")
    assert s.scene.state.outcome() is not None
    assert shared(s).title == "GAME OVER"
    assert s.journal.current() is None


def test_italian_screens(rig, fake_game):
    r = rig(2)
    s = r.open(fake_game, lang="it")
    assert screen(s, 0).title == "Tocca a te"
    r.press("seat2.ok")
    assert "Turno: Giocatore 1, non Giocatore 2" in screen(s, 1).lines[0]


def _table_chance(r):
    """The rig's profile with chance read in at the table."""
    import dataclasses

    r.profile = dataclasses.replace(r.profile, chance="table")


def test_chance_entered_with_buttons_at_the_table(rig, fake_game):
    r = rig(2)
    _table_chance(r)
    s = r.open(fake_game)
    assert s.scene.state.is_chance()
    lay = shared(s)
    assert lay.big == "4" and lay.footer  # the dice menu is on the shared screen
    assert screen(s, 0).title == "Enter the result"
    r.press("seat2.right")  # any seat enters it
    r.press("seat2.ok")
    assert "confirm" in shared(s).lines[0]
    r.press("seat2.ok")
    assert s.scene.state.pile == 5 and s.scene.state.to_move() == 0
    entries = s.journal.entries(s.scene.record)
    assert entries[0].chance and entries[0].barrier


def test_reader_fault_shown_and_cleared(rig, fake_game):
    r = rig(2)
    s = r.open(fake_game)
    reader = r.table.readers["seat2.pad"]
    reader.fail("unplugged")
    r.table._step_until(lambda: bool(r.table.watcher.faults()))
    s.pump()
    assert "seat2.pad not answering" in shared(s).lines
    reader.recover()
    r.table._step_until(lambda: not r.table.watcher.faults(), step=1.0)
    s.pump()
    assert "seat2.pad not answering" not in shared(s).lines


def test_shared_screen_pages_long_instructions(rig, fake_game):
    r = rig(2)
    s = r.open(fake_game)
    s.scene.log = ["one", "two", "three", "four"]
    s.scene.page_seconds = 0.001
    assert shared(s).big == "one" and shared(s).title.endswith("1/4")
    import time

    time.sleep(0.002)
    s.tick()
    assert shared(s).big == "two"
    # Two instructions page too: the standing lines leave no room for the first below.
    s.scene.log = ["move the piece", "the region falls"]
    s.scene.page = 0
    assert shared(s).big == "move the piece" and shared(s).title.endswith("1/2")
    time.sleep(0.002)
    s.tick()
    assert shared(s).big == "the region falls"
    s.scene.page_seconds = None  # tests and the demo: the last instruction, no paging
    assert shared(s).big == "the region falls" and "1/2" not in shared(s).title


def test_a_game_without_its_own_adapter_plays_through_menus(rig, fake_game, monkeypatch):
    import random

    from pi_app import games
    from pi_app.simulated.autoplay import choose, next_input

    monkeypatch.delitem(games.ADAPTERS, fake_game)  # only the generic adapter is left
    r = rig(3)
    s = r.open(fake_game)
    assert type(s.scene.adapter) is games.TableAdapter and s.scene.adapter.components() == []
    rng = random.Random(2)
    while s.scene.state.outcome() is None:
        seat, target = s.scene.state.to_move(), choose(s, rng)
        n = len(s.scene.state.history)
        while len(s.scene.state.history) == n:
            inp = next_input(s, seat, target)
            assert inp.kind == "press"
            r.press(inp.part)
    assert shared(s).title == "GAME OVER"
    assert any(rec.kind == "said" and "took" in rec.text for rec in s.scene.transcript)


def test_a_screen_that_stops_answering_is_reported_not_fatal(rig, fake_game):
    from pi_app.ui.screens import render

    r = rig(2)
    s = r.open(fake_game)
    device = r.table.screens["seat2.screen"].device

    def broken(image):
        raise OSError(121, "Remote I/O error")

    device.display = broken  # the I2C bus stops answering for this screen
    r.press("seat1.ok")  # pass: every screen changes
    r.press("seat1.ok")
    assert s.scene.state.to_move() == 1
    assert any("seat2.screen not answering" in line for line in shared(s).lines)
    del device.display  # it answers again
    r.press("seat2.right")
    assert not any("not answering" in line for line in shared(s).lines)
    assert r.table.frames("seat2.screen")[-1].tobytes() == render(screen(s, 1)).tobytes()


def test_a_piece_on_a_board_zone_picks_that_zone(rig, fake_game, tmp_path):
    import dataclasses

    from pi_app.table.profile import PartSpec, ZoneSpec

    r = rig(2)
    zones = tuple(ZoneSpec(n, PartSpec(f"zone.{n}.reader", "reader", {"backend": "sim"}))
                  for n in ("north", "south"))
    r.profile = dataclasses.replace(r.profile, zones=zones)
    s = r.open(fake_game)
    r.tap_zone("south", "cube:red")  # seat 1 to move: one move fits, played at once
    assert s.scene.state.markers == [("south", "red")]
    assert s.scene.state.to_move() == 1
    r.press("seat2.right")  # seat 2 starts down its menu, then puts a cube on north
    r.tap_zone("north", "cube:blue")
    assert s.scene.state.markers[-1] == ("north", "blue")
    before = s.scene.state.to_json()
    r.tap_zone("north", "one@1")  # a card on a zone fits no move: refused for the seat to move
    assert s.scene.state.to_json() == before
    assert screen(s, 0).alert and "@ north" in screen(s, 0).text()


def test_a_rotary_encoder_steps_the_menu(rig, fake_game):
    import dataclasses

    from pi_app.table.profile import PartSpec

    r = rig(2)
    seat = dataclasses.replace(r.profile.seats[0], encoder=PartSpec("seat1.encoder", "encoder",
                                                                         {"pin_a": 16, "pin_b": 25}))
    r.profile = dataclasses.replace(r.profile, seats=(seat, *r.profile.seats[1:]))
    s = r.open(fake_game)
    r.table.turn("seat1.encoder", 1)
    s.pump()
    assert screen(s, 0).big == "play"
    r.table.turn("seat1.encoder", -1)
    s.pump()
    assert screen(s, 0).big == "pass"
