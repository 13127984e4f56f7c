"""Players' names given at the lobby: kept in the journal (schema 3, older
journals upgraded on opening), used by every screen of every game, and the
same after a restart."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

import rules
from pi_app import names as naming
from pi_app.commands.run import parse_names
from pi_app.errors import UsageError
from pi_app.session.lobby import Lobby
from pi_app.store.journal import _SCHEMA, SCHEMA_VERSION, Journal, JournalError
from tests.pi_app.table_checks import words_shown

GAMES = [g for g in ("king-is-dead", "king-and-assassins", "mordred", "artus", "siege") if g in rules.GAMES]
NAMES = ("Anna", "Marco", "Lucia")


def _count(game: str) -> int:
    return 2 if game in ("king-and-assassins", "siege") else 3


def _shown(r, s, turns: int = 40) -> str:
    return words_shown(r, s, turns=turns)


# -- the journal ------------------------------------------------------------------
def test_names_are_kept_with_the_game_and_read_back(tmp_path: Path) -> None:
    j = Journal(tmp_path / "j.sqlite")
    rec = j.start("siege", 2, 0, {}, names=("Anna", ""))
    assert rec.names == ("Anna", "")
    j.close()
    again = Journal(tmp_path / "j.sqlite")
    assert again.current().names == ("Anna", "")
    assert Journal(tmp_path / "j.sqlite", readonly=True).games()[0].names == ("Anna", "")
    # none given: none kept
    assert again.start("siege", 2, 0, {}).names == ()
    assert again.current().names == ()


def _version_2(path: Path) -> None:
    """A journal as version 2 wrote it: no names column."""
    db = sqlite3.connect(path)
    db.executescript(_SCHEMA.replace(",\n    names TEXT", ""))
    db.execute("INSERT INTO games (game, players, seed, options, started) VALUES ('siege', 2, 7, '{}', 0)")
    db.execute("PRAGMA user_version=2")
    db.commit()
    db.close()


def test_a_version_2_journal_is_read_as_it_is_and_upgraded_when_opened_to_write(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    _version_2(path)
    reader = Journal(path, readonly=True)
    assert reader.current().names == () and reader.current().seed == 7
    reader.close()
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == 2, "a reader wrote"
    j = Journal(path)
    assert j.current().seed == 7 and j.current().names == ()
    assert j.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 3
    j.name_players(j.current(), ["", "Marco"])
    j.close()
    assert Journal(path).current().names == ("", "Marco")


def test_an_older_game_resumes_after_the_upgrade(rig) -> None:
    """A box upgraded mid-game: the journal version 2 wrote resumes where it was."""
    r = rig(2)
    s = r.open("siege")
    _shown(r, s, turns=4)
    moves, state = len(s.scene.state.history), s.scene.state.to_json()
    r.close()
    db = sqlite3.connect(r.tmp / "journal.sqlite")
    db.execute("ALTER TABLE games DROP COLUMN names")  # as version 2 made it
    db.execute("PRAGMA user_version=2")
    db.commit()
    db.close()
    again = r.open("siege")
    assert again.resumed and len(again.scene.state.history) == moves and again.scene.state.to_json() == state
    assert again.scene.record.names == () and again.scene.player(0) == "Attacker"


@pytest.mark.parametrize(("names", "fault"), [
    ("{oops", "unreadable player names"),
    ('["A", "B", "C"]', "unreadable player names"),  # three names for two players
    ('["Annabella Maria"]', "unreadable player names"),  # longer than a screen shows
    ("[1]", "unreadable player names"),
])
def test_broken_names_in_a_journal_are_refused_with_the_file(tmp_path: Path, names: str, fault: str) -> None:
    path = tmp_path / "j.sqlite"
    j = Journal(path)
    j.start("siege", 2, 0, {})
    j.db.execute("UPDATE games SET names = ?", (names,))
    j.close()
    before = path.read_bytes()
    with pytest.raises(JournalError, match=rf"journal {re.escape(str(path))} is refused: game 1 has {fault}"):
        Journal(path).current()
    assert path.read_bytes() == before


def test_a_version_3_journal_without_the_names_column_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    _version_2(path)
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version=3")
    db.commit()
    db.close()
    with pytest.raises(JournalError, match=r"table 'games' has columns .* \(schema version 3\)"):
        Journal(path)


# -- the screens -------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("game", GAMES)
def test_every_screen_of_every_game_uses_the_names_given(rig, game: str, lang: str) -> None:
    n = _count(game)
    r = rig(n)
    s = r.open(game, lang=lang, names=NAMES[:n])
    text = _shown(r, s)
    defaults = {naming.display_name(game, seat, lang) for seat in range(n)}
    numbered = [d for d in defaults if re.fullmatch(r"(Player|Giocatore) \d", d)]
    found = [d for d in numbered if d in text]
    assert not found, f"default names on the screens: {found}"
    assert any(name in text for name in NAMES[:n])
    shared = s.presentation.shared_layout().text()
    assert naming.display_name(game, s.scene.state.to_move() or 0, lang, NAMES) in shared \
        or s.scene.state.outcome() is not None or s.scene.state.is_chance()


def test_roles_give_way_to_the_names_given(rig) -> None:
    r = rig(2)
    s = r.open("siege", names=("Anna", "Marco"))
    text = _shown(r, s, turns=6)
    assert "Turn: Anna" in text or "Turn: Marco" in text
    assert not re.search(r"\b(Attacker|Defender)\b(?! (player|card))", text.replace("(Attacker)", "")), text


def test_a_restarted_table_shows_the_same_names(rig) -> None:
    r = rig(3)
    s = r.open("mordred", names=("Anna", "", "Lucia"))
    before = {name: lay.text() for name, lay in s.layouts().items()}
    assert "Anna" in "\n".join(before.values())
    r.close()
    again = r.open("mordred")  # resumed from the journal, as after a power cut
    assert again.resumed and again.scene.record.names == ("Anna", "", "Lucia")
    assert again.scene.player(1) == "Player 2" and again.scene.player(2) == "Lucia"
    after = "\n".join(lay.text() for lay in again.layouts().values())
    assert "Anna" in after


def test_a_refusal_names_the_player_by_the_name_given(rig) -> None:
    r = rig(2)
    s = r.open("king-and-assassins", names=("Anna", "Marco"))
    other = 1 - s.scene.state.to_move()
    r.press(f"seat{other + 1}.ok")
    assert "Anna" in s.scene.seats[other].notice.text() or "Marco" in s.scene.seats[other].notice.text()


# -- giving names --------------------------------------------------------------------
def test_run_name_takes_seats_by_number_and_role() -> None:
    assert parse_names(["2=Anna"], "artus", 3) == ("", "Anna", "")
    assert parse_names(["king=Marco", "seat2= Lucia  "], "king-and-assassins", 2) == ("Marco", "Lucia")


@pytest.mark.parametrize(("specs", "words"), [
    (["4=Anna"], "seat from 1 to 3"),
    (["Anna"], "SEAT=NAME"),
    (["1=Anna", "2=anna"], "given to seats 1 and 2"),
    (["1=Player 2"], "what the table calls seat 2"),
    (["1=Bartholomew"], "longer than the 10 letters"),
])
def test_run_name_refuses_what_the_table_cannot_use(specs: list[str], words: str) -> None:
    with pytest.raises(UsageError, match=words):
        parse_names(specs, "artus", 3)


def test_the_lobby_takes_names_typed_and_shows_them_on_each_seat(rig) -> None:
    r = rig(2)
    r.open("siege")
    lobby = Lobby(r.table, "en")
    assert lobby.give_name(1, "Marco") == "seat 2: Marco"
    assert "Your name: Marco" in lobby.layouts()["seat2.screen"].text()
    with pytest.raises(ValueError, match="given to seats"):
        lobby.give_name(0, "marco")
    assert lobby.names == {1: "Marco"}
    siege = lobby.options.index(("siege", 2))
    lobby.index = siege
    lobby.press("seat1.ok")
    assert lobby.press("seat1.ok") == ("siege", 2)
    assert lobby.player_names("siege", 2) == ("", "Marco")


def test_the_lobby_will_not_start_a_game_where_a_name_is_another_seats_role(rig) -> None:
    r = rig(2)
    r.open("siege")
    lobby = Lobby(r.table, "en")
    lobby.give_name(1, "Attacker")  # the Defender's player, called as the game calls seat 1
    lobby.index = lobby.options.index(("siege", 2))
    lobby.press("seat1.ok")
    assert lobby.press("seat1.ok") is None
    shared = lobby.layouts()["shared.screen"]
    assert shared.alert and "Attacker is another player's name" in shared.text()
    lobby.give_name(1, "Marco")
    assert lobby.press("seat1.ok") == ("siege", 2)


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_lobbys_name_lines_fit_or_page_with_the_longest_name(rig, lang: str) -> None:
    from pi_app.ui.screens import problems

    r = rig(2)
    r.open("siege")
    lobby = Lobby(r.table, lang)
    lobby.give_name(0, "W" * naming.MAX_NAME)
    lobby.give_name(1, "Attacker")
    lobby.index = lobby.options.index(("siege", 2))
    lobby.press("seat1.ok")
    lobby.press("seat1.ok")
    layouts = lobby.layouts()
    assert layouts["shared.screen"].alert
    assert not [(name, p) for name, lay in layouts.items() for p in problems(lay)]
