"""The web process's answers to bad requests and to a journal it cannot read."""

from __future__ import annotations

import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from pi_app.store.journal import Journal
from pi_app.web.server import App
from pi_app.web.source import Source
from tests.web.play import Table, get, wait_for_moves, web_process

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def played(tmp_path: Path) -> Path:
    """A journal with a finished game of Mordred and an unfinished one of Artus."""
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    first = Table(journal, "mordred", 3, seed=3)
    first.run()
    second = Table(journal, "artus", 2, seed=4)
    second.run(12)
    journal.close()
    return path


def app_for(path: Path) -> tuple[Source, App]:
    source = Source(path)
    source.refresh()
    return source, App(source)


BAD_PATHS = ["/game/3", "/game/0/report", "/game/99999/log.jsonl", "/game/x", "/game/1/nothing",
             "/game/1/../../etc/passwd", "/static/../journal.py", "/%00", "/static/", "/night/",
             "/" + "a" * 5000, "/game/12345678901"]


@pytest.mark.parametrize("target", BAD_PATHS)
def test_a_path_that_names_nothing_gets_404_with_a_sentence(played: Path, target: str) -> None:
    source, app = app_for(played)
    try:
        answer = app.respond(target)
    finally:
        source.close()
    assert answer.status == 404
    text = answer.body.decode()
    assert "Traceback" not in text
    assert "There is no such page here." in text or "The journal holds no game" in text
    assert "The game in progress is at /." in text


def test_over_http_bad_requests_get_a_sentence_and_no_traceback(played: Path) -> None:
    with web_process(played) as base:
        status, kind, body = get(base + "game/77")
        assert (status, kind.split(";")[0]) == (404, "text/html")
        assert b"The journal holds no game 77." in body
        host, port = urlsplit(base).hostname, urlsplit(base).port
        assert host == "127.0.0.1" and port is not None
        for raw in (b"BREW / HTTP/1.1\r\n\r\n", b"GET / / HTTP/1.1\r\n\r\n",
                    b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n",
                    b"GET /" + b"x" * 70000 + b" HTTP/1.1\r\n\r\n"):
            with socket.create_connection((host, port), timeout=10) as sock:
                sock.sendall(raw)
                answer = b""
                while chunk := sock.recv(65536):
                    answer += chunk
                    if b"\r\n\r\n" in answer and len(answer.split(b"\r\n\r\n", 1)[1]) >= 20:
                        break
            head, _, text = answer.partition(b"\r\n\r\n")
            assert head.split()[1] in (b"400", b"405", b"414", b"501"), head
            assert b"Traceback" not in answer and text.strip().endswith(b"."), answer[:300]


def test_pages_of_a_played_journal(played: Path) -> None:
    source, app = app_for(played)
    try:
        home = app.respond("/").body.decode()
        assert "Artus · game 2 · 2 players" in home and 'data-live="/live"' in home
        assert "Turn: " in home or "The table draws" in home
        assert "drew a card (hidden until the game is over)" in home
        assert '<a href="/game/1"' in home  # the night's other game
        report = app.respond("/game/1/report").body.decode()
        assert "<svg" in report and "victory points over the game" in report
        assert "Time per turn" in report and "No move was refused." in report
        jsonl = app.respond("/game/2/log.jsonl")
        assert jsonl.status == 200 and b'"hidden"' in jsonl.body and b'"seed"' not in jsonl.body
        finished = app.respond("/game/1/log.jsonl").body
        assert b'"seed": 3' in finished
        night = app.respond("/night").body.decode()
        assert "2 games" in night and '<a href="#game-1">Mordred</a>' in night
    finally:
        source.close()


def test_every_page_asks_only_the_box(played: Path) -> None:
    """No CDN: every address a page names is a path on the box, and the
    browser is told to fetch nothing from anywhere else."""
    import re

    source, app = app_for(played)
    try:
        for target in ("/", "/live", "/night", "/game/1", "/game/1/report", "/game/2", "/game/9"):
            page = app.respond(target).body.decode()
            for link in re.findall(r'(?:src|href|action)="([^"]*)"', page):
                assert link.startswith(("/", "#")) and not link.startswith("//"), (target, link)
            assert "http://" not in page and "https://" not in page, target
        script = app.respond("/static/app.js").body.decode()
        assert re.findall(r'(?:fetch|EventSource)\(("[^"]*"|\w+)', script) == ["live", '"/events"']
    finally:
        source.close()
    with web_process(played) as base:
        with urllib.request.urlopen(base) as answer:
            policy = answer.headers["Content-Security-Policy"]
        assert "default-src 'self'" in policy


def test_refusals_by_rule_once_the_game_is_over(played: Path) -> None:
    journal = Journal(played)
    try:
        finished, playing = journal.games()
        for rule in ("Turno", "Turno", "Costruzione"):
            assert journal.refused(finished, 1, "mordred.x", rule)
        assert journal.refused(playing, 0, "artus.card.not-in-hand", "")
    finally:
        journal.close()
    source, app = app_for(played)
    try:
        report = app.respond("/game/1/report").body.decode()
        assert "The rule broken most: Turno (2 times)" in report
        assert "<td>Costruzione</td><td>1</td>" in report
        live = app.respond("/game/2/report").body.decode()
        assert "shown once the game is over" in live and "not-in-hand" not in live
        night = app.respond("/night").body.decode()
        assert "The rule broken most: Mordred: Turno (2 times)" in night
        assert "Counted over the 1 games" in night
        assert "not-in-hand" not in night
    finally:
        source.close()


def test_a_journal_from_before_refusals_were_kept(played: Path) -> None:
    with sqlite3.connect(played) as db:
        db.execute("DROP TABLE refusals")
    db.close()
    source, app = app_for(played)
    try:
        assert "before the table kept its refusals" in app.respond("/game/1/report").body.decode()
    finally:
        source.close()


def test_a_damaged_journal_is_said_and_the_last_reading_kept(played: Path, tmp_path: Path) -> None:
    source, app = app_for(played)
    try:
        assert "Artus · game 2" in app.respond("/").body.decode()
        good = played.read_bytes()
        played.unlink()
        damaged = bytearray(good)
        damaged[100:4096] = b"\xff" * (4096 - 100)  # the header's end and the schema page
        played.write_bytes(bytes(damaged))
        assert source.refresh()
        page = app.respond("/").body.decode()
        assert "The journal cannot be read right now" in page
        assert "Artus · game 2" in page  # what was read before
        assert app.respond("/game/1/report").status == 200
        # the journal is put right (a new file): the page follows it again
        played.unlink()
        played.write_bytes(good)
        source.refresh()
        assert "cannot be read" not in app.respond("/").body.decode()
    finally:
        source.close()


def test_a_locked_journal_is_said_and_the_last_reading_kept(played: Path) -> None:
    source, app = app_for(played)
    source.close()  # the table takes the journal for itself while the page is not looking
    writer = sqlite3.connect(played, isolation_level=None)
    try:
        writer.execute("PRAGMA locking_mode=EXCLUSIVE")
        writer.execute("BEGIN EXCLUSIVE")
        writer.execute("UPDATE games SET options = options WHERE id = 1")  # a write: data_version moves
        source.refresh()
        page = app.respond("/").body.decode()
        assert "locked by a write in progress" in page, page[:2000]
        assert "Artus · game 2" in page
        writer.execute("COMMIT")
        writer.execute("PRAGMA locking_mode=NORMAL")
        writer.execute("SELECT 1 FROM games").fetchall()  # releases the lock
        writer.close()
        source.refresh()
        assert "locked" not in app.respond("/").body.decode()
    finally:
        writer.close()
        source.close()


def test_no_journal_yet_then_a_game(tmp_path: Path, played: Path) -> None:
    path = tmp_path / "later" / "journal.sqlite"
    source, app = app_for(path)
    try:
        assert "No journal yet" in app.respond("/").body.decode()
        path.parent.mkdir()
        shutil.copy(played, path)
        assert source.refresh()
        assert "Artus · game 2" in app.respond("/").body.decode()
    finally:
        source.close()


def test_the_web_process_never_writes_the_journal(played: Path) -> None:
    before = played.read_bytes()
    with web_process(played) as base:
        for target in ("", "night", "game/1/report", "game/2/log.jsonl"):
            assert get(base + target)[0] == 200
    assert played.read_bytes() == before


def test_the_page_follows_a_game_being_written(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    try:
        table = Table(journal, "king-and-assassins", 2, seed=9)
        with web_process(path) as base:
            for _ in range(5):
                table.play(table.choose())
                wait_for_moves(base, len(table.state.history), table.record.id, timeout=2.0)
    finally:
        journal.close()


READER = """
import sys, time
from pathlib import Path
from pi_app.web.source import Source
source = Source(Path(sys.argv[1]))
for _ in range(int(sys.argv[2])):
    source.refresh()
    story = source.current()
    print(source.problem, len(story.steps) if story else None, flush=True)
    time.sleep(0.1)
"""


def test_a_reader_that_may_not_write_reads_a_journal_closed_cleanly(played: Path) -> None:
    """As the web unit reads (the state directory read-only to it): a WAL
    journal the table closed cleanly has no -shm file, which such a reader
    cannot create; it is read all the same, and followed once the table
    writes again."""
    unshare = shutil.which("unshare")
    assert unshare, "unshare (util-linux) is missing"
    assert not Path(f"{played}-shm").exists()
    folder = played.parent
    proc = subprocess.Popen(
        [unshare, "--mount", "sh", "-c", f'mount --bind -o ro "{folder}" "{folder}" && '
         f'touch "{folder}/probe" 2>/dev/null && exit 3; exec "{sys.executable}" -c "$0" "$1" 40',
         READER, str(played)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    assert proc.stdout is not None
    first = proc.stdout.readline().split()
    assert first == ["None", "12"], (first, proc.stderr.read() if proc.stderr else "")
    journal = Journal(played)  # the table starts again and plays on
    try:
        table_record = journal.current()
        assert table_record is not None
        state = journal.replay(table_record)
        for n in range(12, 15):
            move = state.sample_chance() if state.is_chance() else state.legal_moves()[0]
            chance, seat = state.is_chance(), state.to_move()
            state.apply(move)
            journal.append(table_record, n, None if chance else seat, move, chance, False, state)
        seen = [line.split() for line in proc.stdout]
    finally:
        journal.close()
        proc.wait(30)
    assert proc.returncode == 0, proc.stderr.read() if proc.stderr else ""
    assert ["None", "15"] in seen, seen


def test_pages_following_the_game_are_bounded(played: Path) -> None:
    from pi_app.web import server

    web = server.Server(Source(played), "127.0.0.1", 0, limits=server.Limits(streams=2))
    web.start()
    try:
        host, port = web.address
        base = f"http://{host}:{port}/"
        held = [urllib.request.urlopen(base + "events", timeout=10) for _ in range(2)]
        try:
            status, _, body = get(base + "events")
            assert status == 503 and b"2 pages already follow the game" in body
            assert get(base)[0] == 200  # the pages themselves are still served
        finally:
            for stream in held:
                stream.close()
    finally:
        web.close()


@pytest.mark.parametrize("game, players, seed", [("king-and-assassins", 2, 5), ("mordred", 3, 5),
                                                 ("artus", 2, 5), ("siege", 2, 5)])
def test_the_table_is_drawn_in_the_players_words(tmp_path: Path, game: str, players: int, seed: int) -> None:
    """No internal id or engine flag in "The table": pieces by their names,
    seats as the screens name the players."""
    import re

    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    table = Table(journal, game, players, seed=seed)
    table.run(60)
    journal.close()
    source, app = app_for(path)
    try:
        page = app.respond("/").body.decode()
    finally:
        source.close()
    drawn = page.split("<h2>The table</h2>", 1)[1].split("</section>", 1)[0]
    text = re.sub(r"<[^>]+>", " ", drawn)
    assert not re.search(r"\b(citizen|knight|assassin)[0-9]", text), text[:1500]
    assert "unverified" not in text and "unofficial" not in text, text[:1500]
    if game == "mordred":
        assert re.search(r"owner:? +Player [1-3]", text) or "owner" not in text, text[:1500]
    if game == "siege":
        assert not re.search(r"\b[a-z_]+-[0-9]+\b", text), text[:1500]  # "archer-2": a card's copy
    if game == "artus":
        assert "Player 1" in text and "Player 2" in text, text[:1500]
        assert not re.search(r"\bk[0-9]\b", text), text[:1500]  # "k0": the first player's knight


def _assert_reports_say(path: Path, lang: str, named: list[str], not_named: list[str]) -> None:
    """The game's report and the night's, read from the journal at ``path``,
    show every one of ``named`` and none of ``not_named``."""
    source = Source(path, lang)
    try:
        source.refresh()
        app = App(source)
        for page in ("/game/1/report", "/night"):
            body = app.respond(page).body.decode()
            for words in named:
                assert words in body, (page, words)
            for words in not_named:
                assert words not in body, (page, words)
    finally:
        source.close()


@pytest.mark.parametrize("lang, named, not_named", [
    ("en", ["Power Struggles", "Playing at the table"], ["Lotte per il Potere", "table.computer-not-this"]),
    ("it", ["Lotte per il Potere", "Il gioco al tavolo"], ["Power Struggles", "table.computer-not-this"])])
def test_refusals_are_named_in_the_pages_language(tmp_path: Path, lang: str, named: list[str],
                                                  not_named: list[str]) -> None:
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    table = Table(journal, "king-is-dead", 3, seed=2)
    journal.refused(table.record, 0, "kid.not-in-struggle", "Lotte per il Potere")
    journal.refused(table.record, 1, "table.computer-not-this", "")  # the table's own refusal: no section
    table.run()
    journal.close()
    _assert_reports_say(path, lang, named, not_named)


def test_the_board_is_drawn_by_the_games_own_adapter() -> None:
    """King & Assassins' adapter draws its city (games/king_and_assassins/svg.py);
    the view's other keys are laid out below it, and a game that draws no
    board has its whole view laid out."""
    import rules
    from pi_app import games
    from pi_app.web import board

    view = rules.get("king-and-assassins").new_game(2, 1).view(None)
    drawn = board.draw(view, games.for_game("king-and-assassins", 2), "en")
    assert drawn.startswith('<svg class="board"') and '<dl class="view">' in drawn
    other = rules.get("mordred").new_game(3, 1).view(None)
    assert "<svg" not in board.draw(other, games.for_game("mordred", 3), "en")


@pytest.mark.parametrize("lang, named, not_named", [
    ("en", ["Gameplay"], ["Regole per principianti"]),
    ("it", ["Regole per principianti"], ["Gameplay"])])
def test_artus_rules_are_named_in_the_pages_language(tmp_path: Path, lang: str, named: list[str],
                                                     not_named: list[str]) -> None:
    """Artus's Italian rulebook prints "GAMEPLAY" in English: an Italian page
    cites the Italian heading it sits under ("Regola: Gameplay" never)."""
    from rules.artus.messages import R_PLAY

    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    table = Table(journal, "artus", 2, seed=2)
    journal.refused(table.record, 0, "artus.phase.must-play", R_PLAY)
    table.run()
    journal.close()
    _assert_reports_say(path, lang, named, not_named)


def _played_page(tmp_path: Path, game: str, players: int, seed: int, moves: int, lang: str,
                 url: str = "/") -> str:
    """The page at ``url`` of a journal holding one game of ``moves`` random moves."""
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    Table(journal, game, players, seed=seed).run(moves)
    journal.close()
    source = Source(path, lang)
    try:
        source.refresh()
        return App(source).respond(url).body.decode()
    finally:
        source.close()


def _engine_words(view: object, found: set[str]) -> set[str]:
    """The engine's own words in a public view: its field names and its
    values that are words (a phase, a building, a card's id), humanized as
    a page left to itself would print them ("face_up" -> "face up"). Names
    (regions, towns, cells: capitalised) are the same in every language."""
    def word(text: str) -> None:
        if text[:1].islower() and any(c.isalpha() for c in text):
            found.add(text)
            found.add(text.replace("_", " ").replace("-", " "))
    if isinstance(view, dict):
        for key, value in view.items():
            word(str(key))
            _engine_words(value, found)
    elif isinstance(view, list):
        for value in view:
            _engine_words(value, found)
    elif isinstance(view, str):
        word(view)
    return found


SPECTATED = [("king-is-dead", 3, {}), ("king-is-dead", 4, {"mordred": True}), ("king-and-assassins", 2, {}),
             ("king-and-assassins", 2, {"side": "B"}), ("mordred", 3, {}), ("artus", 2, {}),
             ("artus", 3, {"mode": "advanced"}), ("siege", 2, {})]


@pytest.mark.parametrize("game, players, options", SPECTATED)
def test_the_table_reads_in_the_pages_language_with_no_internal_word(tmp_path: Path, game: str, players: int,
                                                                     options: dict) -> None:
    """"The table" of a game under way and of one over, in each language: no
    field name, engine value or id of the engine's (an Italian page said
    "regions ... followers blue: 0" and seat 0 for Player 1); what the table
    was told names the players in full ("Game over (P3 -25)" did not)."""
    import html
    import re

    from pi_app import games

    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    words: set[str] = set()
    for seed, moves in ((3, 10_000), (4, 40)):
        table = Table(journal, game, players, seed=seed, options=options)
        for _ in range(moves):
            if table.over:
                break
            _engine_words(table.state.view(None), words)
            table.play(table.choose())
        _engine_words(table.state.view(None), words)
    journal.close()
    # the words both languages share (Mordred is a name; Siege's Italian cards say "Ballista")
    words -= {"no", "set", "round", "mordred", "ballista", "bonus"}
    for lang in ("en", "it"):
        source = Source(path, lang)
        try:
            source.refresh()
            app = App(source)
            for n in (1, 2):
                page = app.respond(f"/game/{n}").body.decode()
                head = "<h2>The table</h2>" if lang == "en" else "<h2>Il tavolo</h2>"
                drawn = page.split(head, 1)[1].split("</section>", 1)[0]
                drawn = re.sub(r"<svg.*?</svg>", " ", drawn, flags=re.S)
                text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", drawn)).split())
                assert not re.search(r"\b[a-z]+_[a-z_]+\b|\b[a-z]+-[0-9]+\b|\b[a-z]+[0-9]+\b", text), text
                assert not re.search(r"(?<![\w-])[0-9]+ \| ", text), text  # a seat by its number
                # the screens' short forms ("P3 = Player 3") in full: the page has no legend
                told = page.split('<section class="said">', 1)[1].split("</section>", 1)[0]
                legend = games.for_game(game, players, lang).legend(table.state, lang)
                shorts = [entry.split(" = ")[0] for entry in legend]
                assert not [x for x in shorts if re.search(rf"(?<![\w-]){re.escape(x)}(?![\w-])", told)], told
                if lang == "it":
                    said = sorted(x for x in words
                                  if re.search(rf"(?<![\w-]){re.escape(x)}(?![\w-])", text, re.I))
                    assert not said, (game, n, said, text[:3000])
        finally:
            source.close()


def test_followers_are_counted_as_the_screens_count_them(tmp_path: Path) -> None:
    """The King is Dead's regions, reserve and courts: "2 rossi, 1 giallo",
    not every colour with its zero ("neri: 0, blu: 0, rossi: 2, ..."), which
    made the regions' table four lines a row on a phone."""
    page = _played_page(tmp_path, "king-is-dead", 3, 5, 40, "it")
    drawn = page.split("<h2>Il tavolo</h2>", 1)[1].split("</section>", 1)[0]
    assert ": 0" not in drawn and "rossi:" not in drawn, drawn
    counted = r"[0-9]+ (blu|rossi?|giall[oi])"
    assert re.search(rf"<td>{counted}(, {counted})*</td>", drawn), drawn


def test_counts_a_player_has_are_one_table_of_players(tmp_path: Path) -> None:
    """Artus's prestige, point tiles and cards in hand: one row a player, as
    a phone reads them, not a list of every player under each count."""
    page = _played_page(tmp_path, "artus", 3, 5, 30, "en")
    drawn = page.split("<h2>The table</h2>", 1)[1].split("</section>", 1)[0]
    head = "<tr><th>Player</th><th>Prestige points</th><th>Point tiles (50)</th><th>Cards in hand</th></tr>"
    assert head in drawn, drawn
    assert drawn.count("<dt>Prestige points</dt>") == 0 and drawn.count("<td>Player 3</td>") == 1, drawn


@pytest.mark.parametrize("lang, label", [("en", "The table:"), ("it", "Il tavolo:")])
def test_the_tables_draws_are_its_own_in_the_moves_list(tmp_path: Path, lang: str, label: str) -> None:
    """A draw or a roll in the moves list is the table's, as the transcript
    says ("caso Carta Round 12" read as "case ...")."""
    import html
    import re

    page = _played_page(tmp_path, "king-and-assassins", 2, 3, 30, lang, "/game/1")
    listed = page.split('<ol reversed class="moves">', 1)[1].split("</ol>", 1)[0]
    rows = [" ".join(html.unescape(re.sub(r"<[^>]+>", " ", row)).split()) for row in listed.split("<li")[1:]]
    drawn = [row for row in rows if label in row]
    assert drawn, rows
    assert not [row for row in rows if re.search(r"\b(caso|chance)\b", row)], rows
