"""What a player reads at the table: things to do there, not commands."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("lang", ["en", "it"])
def test_an_unknown_tag_mid_game_says_what_to_do_at_the_table(rig, lang: str) -> None:
    r = rig(2)
    s = r.open("king-is-dead", lang=lang)
    r.tap_uid(0, "04DEADBEEF")
    notice = s.scene.seats[0].notice
    assert notice is not None and notice.alert
    text = notice.text()
    assert "tablekeeper" not in text and "enroll" not in text and "run:" not in text
    assert "04DEADBEEF" in text
    assert ("Tap the card or piece" if lang == "en" else "Tocca la carta o il pezzo") in text
    # and what to do with a card or piece that is new: play on, give it to the host afterwards
    assert ("play on without it and give it to the host after the game" if lang == "en"
            else "continua senza e dallo all'organizzatore a fine partita") in " ".join(text.split())


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_tap_that_does_not_go_with_an_earlier_pick_says_so(rig, lang: str) -> None:
    # The King is Dead, a Garrison: red tapped, then a region with no red.
    r = rig(2)
    s = r.open("king-is-dead", lang=lang)
    r.tap(0, "garrison@1")
    takes = [m.to_json() for m in s.scene.seats[0].cursor.moves]
    colour = takes[0]["colour"]
    without = next(t["region"] for t in takes if not any(
        u["region"] == t["region"] and u["colour"] == colour for u in takes))
    r.tap(0, f"follower:{colour}")
    narrowed = s.scene.seats[0].cursor.moves
    assert {m.to_json()["colour"] for m in narrowed} == {colour}
    before = s.scene.state.to_json()
    r.tap(0, f"region:{without}")
    notice = s.scene.seats[0].notice
    assert notice is not None and notice.alert, "the tap was used silently"
    assert s.scene.adapter.component(f"region:{without}").name(lang) in notice.text()
    assert s.scene.state.to_json() == before
    assert s.scene.seats[0].cursor.moves == narrowed, "the earlier pick was dropped"


# The codes a first-time player met: faction and region marks, hand card
# stubs, a round card's letters, pieces left as letters.
CODES = [r"\b(Sc|We|RB|Sax|Sas|Ga)\d", r"\b[A-Z][a-z]\w?\*", r"\bCro Gar\b", r"\bK\d+ N\d+ A\d+",
         r"\b(AP|PA) [KR]\d", r"\b[VT]\d+ (SC|CP)\d", r"\b(LC|CG)\d",
]
# hands: Artus's "Kn±1-5 Kg1-7s Ring-b", Siege's "Ar Kn Wag Sw"
HANDS = [r"\b(Kn|Kg)[±\d]", r"\bRing-[sb]\b", r"\b(Ar|Kn|Wag|Sw|Pea|Cmd|Twr) (Ar|Kn|Wag|Sw|Pea|Cat|Bal)\b",
         r"\((Att|Def|Dif)\)"]  # Siege's events in force: "Floods (Att)"
# players and pieces: Artus's "P1:-8" and "Rings 7:1", King & Assassins' "Kn3" and "C12",
# Mordred's "track 1:3 2:5", "pawns 3 5 7" and "R1"
SHORT = [r"\b\d:\d", r"\bKn\d", r"\bC\d+ C\d+\b", r"\b(A:|Reveal|Rivela) C\d",
         r"\b(pawns|pedoni)( \d+)+", r"\bR\d\b",
         # King & Assassins' confirm screen: "Knight 6 N↑", "Knight 3 elim. Citizen 5"
         r"\b[NESWO][↑↓→←]", r"\belim\."]


@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("game", ["king-is-dead", "king-and-assassins", "mordred", "artus", "siege"])
def test_whole_games_show_words_not_codes(rig, game: str, lang: str) -> None:
    import re

    from tests.pi_app.table_checks import words_shown

    r = rig(2 if game in ("king-and-assassins", "siege") else 3)
    text = words_shown(r, r.open(game, lang=lang), seed=5)
    assert text
    # but Artus's prestige row, which keeps "P1:-8" (held ● spells it out)
    text = re.sub(r"^([PG]\d:-?\d+ ?)+$", "", text, flags=re.M)
    patterns = CODES + SHORT + (HANDS if game in ("artus", "siege") else [])
    found = [m.group(0) for pattern in patterns for m in re.finditer(pattern, text)]
    assert not found, found[:10]


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_refusal_names_a_player_as_the_table_does_not_by_seat_number(rig, lang: str) -> None:
    # Mordred: dice rolled when none are due; Artus: a move while a card is
    # to be drawn from a player's pile. Both once printed a bare seat number.
    from rules.artus.moves import Draw
    from rules.core import CHANCE, IllegalMove
    from rules.mordred.moves import Roll

    player = {"en": "Player 1", "it": "Giocatore 1"}[lang]
    for game, move in (("mordred", Roll((1, 1))), ("artus", Draw("knight"))):
        r = rig(3)
        s = r.open(game, lang=lang, new=True)
        state = s.scene.state.copy()
        while game == "artus" and state.to_move() != CHANCE:  # on to a card drawn from a pile
            state.apply(state.legal_moves()[0])
        with pytest.raises(IllegalMove) as info:
            state.apply(move)
        s.commit.refuse(0, info.value)
        text = s.scene.seats[0].notice.text()
        assert player in text, text
        assert "seat" not in text and "posto" not in text and "player 0" not in text.lower(), text
        # The engine's sentence alone (replay, exports) names the seat the same way.
        assert "Player 1" in info.value.message("en") and "Giocatore 1" in info.value.message("it")


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_tag_of_another_game_is_named_in_words(rig, lang: str) -> None:
    r = rig(3)
    s = r.open("mordred", lang=lang)
    r.registry.enroll("04DEADBEEF0003", "king-is-dead", "garrison@1")
    r.tap_uid(0, "04DEADBEEF0003")
    text = s.scene.seats[0].notice.text()
    garrison = {"en": "Garrison", "it": "Guarnigione"}[lang]
    assert garrison in text and "The King is Dead" in text, text
    assert "garrison@1" not in text and "king-is-dead" not in text and "04DEADBEEF0003" not in text


@pytest.mark.parametrize("lang", ["en", "it"])
def test_holding_ok_spells_out_the_short_forms_until_it_is_let_go(rig, lang: str,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # Artus's prestige row keeps "P1:-8": held ● says who P1 is, on that seat's screen.
    import time

    from drivers.events import ButtonHeld, ButtonReleased

    r = rig(3)
    s = r.open("artus", lang=lang, new=True)
    s.handle(ButtonHeld("seat2.ok", 0.0))
    notice = s.presentation.seat_layout(1)
    first = {"en": "P1 = Player 1", "it": "G1 = Giocatore 1"}[lang]
    assert notice.title == {"en": "SHORT FORMS", "it": "ABBREVIAZIONI"}[lang]
    assert first in notice.lines and len(notice.lines) == 3
    assert s.presentation.seat_layout(0).title != notice.title  # only the seat that held ●
    # Read at the player's pace: still there a minute on while ● is down ...
    later = time.monotonic() + 60
    with monkeypatch.context() as clock:
        clock.setattr(time, "monotonic", lambda: later)
        s.tick()
    assert s.presentation.seat_layout(1) == notice
    s.handle(ButtonReleased("seat1.ok", 0.0))  # another seat letting go changes nothing here
    assert s.presentation.seat_layout(1) == notice
    # ... and gone the moment it is let go, back to the seat's own screen.
    s.handle(ButtonReleased("seat2.ok", 0.0))
    assert s.scene.seats[1].notice is None and s.presentation.seat_layout(1).title != notice.title
    # A game with nothing shortened says so instead of an empty screen.
    r2 = rig(3)
    m = r2.open("mordred", lang=lang, new=True)
    m.handle(ButtonHeld("seat1.ok", 0.0))
    assert m.presentation.seat_layout(0).lines == ({"en": "Nothing is shortened in this game.",
                                       "it": "In questo gioco nulla è abbreviato."}[lang],)


def test_a_real_hold_of_ok_on_its_pin_reaches_the_session(rig) -> None:
    # gpiozero's own hold thread on the mock pin, not an event put by hand.
    import time

    r = rig(3)
    s = r.open("artus", new=True)
    pin = r.table.pin_factory.pin(r.table.buttons["seat1.ok"].pin)
    hold = r.table.buttons["seat1.ok"].device.hold_time
    pin.drive_low()
    time.sleep(hold + 0.3)
    s.pump()
    assert s.presentation.seat_layout(0).title == "SHORT FORMS"  # while ● is down
    pin.drive_high()
    s.pump()
    assert s.presentation.seat_layout(0).title != "SHORT FORMS"  # gone as it is let go


@pytest.mark.parametrize("lang", ["en", "it"])
def test_siege_says_whose_hand_holds_how_many_cards(lang: str) -> None:
    import random

    import rules
    from pi_app.games import for_game

    state = rules.get("siege").new_game(2, 3)
    rng = random.Random(3)
    while state.view(None)["phase"] in ("setup_draw", "setup"):
        chance = state.to_move() == rules.CHANCE
        state.apply(state.sample_chance() if chance else rng.choice(state.legal_moves()))
    day = for_game("siege", 2, lang).public_lines(state, lang)[-1]
    sizes = [side["hand_size"] for side in state.view(None)["sides"]]
    assert day.endswith(f"in hand: Attacker {sizes[0]}, Defender {sizes[1]}" if lang == "en"
                        else f"in mano: Attaccante {sizes[0]}, Difensore {sizes[1]}"), day


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_king_is_dead_setup_names_the_followers_already_at_home(rig, lang: str) -> None:
    from pi_app.games.king_is_dead.adapter import HOMES

    r = rig(2)
    s = r.open("king-is-dead", lang=lang)
    said = "\n".join(s.scene.log)
    put = ": put " if lang == "en" else ": metti "
    homes = [line for line in said.splitlines() if line.split(":")[0] in HOMES and put in line]
    assert homes, said
    for line in homes:
        assert ("(besides the 2 " if lang == "en" else "(oltre ai 2 ") in line, line


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_waiting_seat_reads_its_court_labelled(rig, lang: str) -> None:
    r = rig(2)
    s = r.open("king-is-dead", lang=lang)
    big = s.presentation.layout_of("seat2.screen").big
    assert big.startswith("Court: " if lang == "en" else "Corte: "), big


def test_an_artus_card_that_moves_either_way_says_so_in_words() -> None:
    from pi_app.games.artus.words import card_name

    assert card_name("knight-1-5-both", "en") == "Knight 1-5 either way"
    assert card_name("knight-1-5-both", "it") == "Cavaliere 1-5 avanti o indietro"


def test_siege_says_which_unit_attacks_and_one_term_for_close_combat() -> None:
    from pi_app.games.siege.adapter import SiegeAdapter
    from pi_app.games.siege.said import said
    from rules.core import Event

    adapter = SiegeAdapter(2)
    assert adapter.move_text({"type": "attack", "unit": "catapult-1"}, "en") == "Attack with Catapult"
    assert adapter.move_text({"type": "attack", "unit": "catapult-1"}, "it") == "Attacca con Catapulta"
    assert adapter.value_label("phase", "attack", "en") == "Attack"  # the phase, on the spectator page
    melee = [Event("melee", {"seat": 0, "attack": 1, "defence": 4})]
    told = " ".join(str(line) for line in said(melee, [None, None, None], "it"))
    assert "Corpo a corpo" in told and "ischia" not in told, told


@pytest.mark.parametrize(("lang", "names", "removed", "aimed"), [
    ("en", (), "Remove the Attacker's Archer (row 2 #3)", "the Defender's Knight (row 1 #1)"),
    ("it", (), "Togli Arciere dell'Attaccante (fila 2 #3)", "Cavaliere del Difensore (fila 1 #1)"),
    ("en", ("Anna", "Bruno"), "Remove Anna's Archer (row 2 #3)", "Bruno's Knight (row 1 #1)"),
    ("it", ("Anna", "Bruno"), "Togli Arciere di Anna (fila 2 #3)", "Cavaliere di Bruno (fila 1 #1)"),
])
def test_siege_says_whose_unit_is_removed_or_aimed_at(lang: str, names: tuple[str, ...], removed: str,
                                                      aimed: str) -> None:
    # Seen: "Melee 1 against 4 / Remove Archer (row 2 #3)": whose Archer?
    from pi_app.games.siege.adapter import SiegeAdapter
    from pi_app.games.siege.said import said
    from rules.core import Event

    before = {"sides": [{"rows": {"r2": ["swordsman-1", "knight-2", "archer-1"]}},
                        {"rows": {"r1": ["knight-3"]}}], "towers": {}}
    after = {"sides": [{"rows": {"r2": ["swordsman-1", "knight-2"]}}, {"rows": {"r1": ["knight-3"]}}],
             "towers": {}}
    lost = [Event("destroyed", {"unit": "archer-1"})]
    told = [text for _, text in said(lost, [after, before], lang, names)]
    assert told == [removed]
    adapter = SiegeAdapter(2, lang, names)
    adapter._seen = before
    assert adapter.value_label("target", "knight-3", lang) == aimed


@pytest.mark.parametrize("lang", ["en", "it"])
def test_siege_setup_says_three_of_the_eight_cards_are_played_or_discarded(lang: str) -> None:
    import rules
    from pi_app.games import for_game

    state = rules.get("siege").new_game(2, 3)
    adapter = for_game("siege", 2, lang)
    shared = " ".join(adapter.public_lines(state, lang))
    assert ("draws 8 cards, then plays or discards 3" if lang == "en"
            else "pesca 8 carte, poi ne gioca o scarta 3") in shared, shared
    while state.view(None)["phase"] != "setup":
        state.apply(state.sample_chance())
    titles = []
    while state.view(None)["phase"] == "setup" and state.to_move() == 0:
        titles.append(adapter.step_title(state, lang))
        state.apply(state.legal_moves()[0])
    assert titles == (["Setup: play or discard 3 of your 8 cards", "Setup: play or discard 2 more cards",
                       "Setup: play or discard 1 more card"] if lang == "en" else
                      ["Preparazione: gioca o scarta 3 delle tue 8 carte",
                       "Preparazione: gioca o scarta ancora 2 carte",
                       "Preparazione: gioca o scarta ancora 1 carta"])


@pytest.mark.parametrize("lang", ["en", "it"])
def test_artus_says_a_place_at_the_round_table_never_a_seat(lang: str) -> None:
    # Seen: "Seat 1 (-15) / Empty seat 1/22", read as a player's seat.
    import re

    import rules
    from pi_app.games.artus.adapter import ArtusAdapter

    adapter = ArtusAdapter(3, lang)
    state = rules.get("artus").new_game(3, 1)
    while state.view(None)["phase"] != "place":
        state.apply(state.sample_chance() if state.is_chance() else state.legal_moves()[0])
    adapter.step_title(state, lang)  # the menu's view, as a seat's screen asks first
    adapter._see(state)
    said = [adapter.field_label("seat", lang), adapter.value_label("seat", 1, lang),
            adapter.value_label("knights", [3, 5], lang)]
    place = "Place" if lang == "en" else "Posto"
    assert said[0] == ("Empty place" if lang == "en" else "Posto libero")
    assert said[1].startswith(f"{place} 1 (") and said[2] == ("places 3, 5" if lang == "en" else "posti 3, 5")
    assert not [text for text in said if re.search(r"\b[Ss]eats?\b", text)], said


@pytest.mark.parametrize("lang", ["en", "it"])
def test_artus_asks_a_cards_distance_under_the_cards_name(rig, lang: str) -> None:
    # Seen: a tapped card's distance asked under "Play a card", the card gone from the screen.
    import random

    from pi_app.games.artus.words import card_name
    from pi_app.ui.screens import problems
    from tests.pi_app.artus_play import step

    r = rig(2)
    s = r.open("artus", seed=5)
    s.scene.lang = lang
    rng = random.Random(5)
    for _ in range(400):
        state = s.scene.state
        if state.to_move() not in (None, -1) and state.view(None)["phase"] == "play":
            moving = {m.to_json()["card"] for m in state.legal_moves() if m.to_json().get("do") == "move"}
            if moving and len({m.to_json()["card"] for m in state.legal_moves()}) > 1:
                break
        step(r, rng)
    seat = state.to_move()
    screen = f"seat{seat + 1}.screen"
    asked = s.layouts()[screen].title
    assert asked.startswith("Play " if lang == "en" else "Gioca ")
    card = sorted(moving)[0]
    r.tap(seat, f"{card}@{seat + 1}")
    lay = s.layouts()[screen]
    assert s.scene.cursor_for(seat).field() == "steps", lay  # the distance is asked
    name = card_name(card, lang)
    assert lay.title.startswith(("Play " if lang == "en" else "Gioca ") + name), lay
    assert problems(lay) == [], lay  # the longer title wraps or pages, never cut
