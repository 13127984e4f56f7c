"""Nobody can work out the draws from what the table shows.

A real `tablekeeper run` starts a game (no ``--seed``: as at the lobby or
the service) and draws its opening; then a spectator takes only what the
public surfaces show while the game runs (the page, its log download, the
report, the export) and tries what worked against a seed taken from the
clock: every seed within ten minutes before the first move's time, checked
against the draws the page shows. None may reproduce them, the seed itself
must be nowhere in what they show, and it must lie outside the million
seeds a laptop scans in two minutes."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import rules
from pi_app.store import export
from pi_app.store.journal import Journal
from pi_app.web.server import App
from pi_app.web.source import Source
from rules.core import State
from tests.reliability.daemon import Daemon

GAME, PLAYERS = "king-is-dead", 2
WINDOW = 600  # seconds before the first move the game may have begun
_TIME = re.compile(r"<time>(\d\d):(\d\d)(?::(\d\d))?</time>")


def public_surfaces(journal_path: Path) -> dict[str, str]:
    source = Source(journal_path)
    source.refresh()
    app = App(source)
    try:
        out = {path: app.respond(path).body.decode() for path in
               ("/", "/live", "/game/1", "/game/1/live", "/game/1/report", "/game/1/log.jsonl", "/night")}
    finally:
        source.close()
    journal = Journal(journal_path, readonly=True)
    try:
        out["export"] = "\n".join(export.text(export.read(journal, journal.game(1)), journal))
    finally:
        journal.close()
    return out


def clock_candidates(page: str) -> list[int]:
    """Every seed the old rule (the clock, mod 10^6) could have given, from
    the times the page prints and today's date."""
    stamps = _TIME.findall(page)
    assert stamps, "the page shows when the moves were made"
    today = time.localtime()
    firsts = []
    for hh, mm, ss in stamps:
        at = time.mktime((today.tm_year, today.tm_mon, today.tm_mday, int(hh), int(mm), int(ss or 0),
                          0, 0, -1))
        firsts.append((int(at), 1 if ss else 60))
    at, resolution = min(firsts)
    return [t % 1_000_000 for t in range(at - WINDOW, at + resolution)]


def reproduces(seed: int, lines: list[dict]) -> bool:
    """Whether ``seed`` draws every public draw the log shows."""
    game = rules.get(GAME)
    state: State = game.new_game(PLAYERS, seed, lines[0].get("options", {}))
    matched = 0
    for line in lines[1:]:
        if "hidden" in line:
            if not state.is_chance():
                break  # a secret choice: the spectator can follow no further
            state.apply(state.sample_chance())
            continue
        move = game.move_from_json(line)
        if state.is_chance():
            if state.sample_chance() != move:
                return False
            matched += 1
        state.apply(move)
    return matched > 0


def test_the_public_surfaces_do_not_give_away_the_draws(tmp_path: Path) -> None:
    daemon = Daemon(["run", "--table", "sim", "--state-dir", str(tmp_path), "--text",
                     "--game", GAME, "--players", str(PLAYERS)])
    try:
        daemon.sync()  # the opening is drawn and journalled
        daemon.send("quit")
        assert daemon.finish() == 0, daemon.stderr()
    finally:
        daemon.close()
    journal_path = tmp_path / "journal.sqlite"
    shown = public_surfaces(journal_path)
    lines = [json.loads(line) for line in shown["/game/1/log.jsonl"].splitlines()]
    assert "seed" not in lines[0]
    draws = [line for line in lines[1:] if "hidden" not in line]
    assert len(draws) >= 20  # the opening's draws are public: what an attack checks a seed against

    recovered = [seed for seed in clock_candidates(shown["/game/1"]) if reproduces(seed, lines)]
    assert recovered == [], f"the draws follow from the clock: seed {recovered}"

    journal = Journal(journal_path, readonly=True)
    try:
        seed = journal.game(1).seed
    finally:
        journal.close()
    assert not 0 <= seed < 1_000_000, "a seed a laptop finds by trying them all"
    for where, text in shown.items():
        assert str(seed) not in text, f"{where} shows the seed"
