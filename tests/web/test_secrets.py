"""No byte the web process serves carries a seat's secret before the rules reveal it.

Simulated games of all five games are written to a journal while
`tablekeeper web` serves it; after every move every endpoint is fetched.
A secret is found the way the engines' conformance suite finds one: a move
its game's notation calls secret (a card drawn into a hand, the assassins
picked: ``expected_secret``, as for ``journal export``) that could have been another
with the very same public view is dealt afresh in a *twin* journal,
together with another seed, and the twin is replayed with the same public
moves for as long as the public views stay equal. While the game is not
over, every endpoint must answer the twin with exactly the same bytes: any
difference is information about the secret (or the seed, which decides
the draws) reaching the page.
"""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest

import rules
from pi_app.store.journal import Journal
from pi_app.web.server import App
from pi_app.web.source import Source
from rules.core import IllegalMove, Move, State
from tests.reliability.test_journal_commands import expected_secret
from tests.web.play import Table, first_event, get, wait_for_moves, web_process

GAMES = sorted(rules.GAMES)
TWIN_SEED = 987_654_321
ALTERNATIVES = 40  # alternatives tried for a move before it is judged public


def endpoints(game_id: int) -> list[str]:
    return ["", "live", "night", f"game/{game_id}", f"game/{game_id}/live", f"game/{game_id}/report",
            f"game/{game_id}/log.jsonl", "static/app.js", "static/style.css"]


class Twins:
    """Copies of the real game in which one secret (or the seed) differs,
    each followed while its public view equals the real one."""

    def __init__(self, game: rules.core.Game, players: int, rng: random.Random) -> None:
        self.rng = rng
        self.alive: dict[int | str, tuple[State, Move | None]] = {
            "seed": (game.new_game(players, TWIN_SEED, {}), None)}
        self.seen_secrets = 0

    def follow(self, before: State, move: Move, after: State) -> None:
        public = after.view(None)
        for key, (twin, _) in list(self.alive.items()):
            try:
                twin.apply(move)
            except (IllegalMove, ValueError, KeyError):
                del self.alive[key]  # the secret came out: the real move is not open to the twin
                continue
            if twin.view(None) != public:
                del self.alive[key]
        # a move its game's notation calls secret, when another one leaves the
        # same public view (a public move may too: a knight swapping places
        # with its twin; a die whose result only its consequence shows)
        if not expected_secret(before.game_id, move.to_json()):
            return
        others = [m for m in before.legal_moves() if m != move]
        for alt in self.rng.sample(others, min(len(others), ALTERNATIVES)):
            twin = before.copy()
            twin.apply(alt)
            if twin.view(None) == public:
                self.alive[len(before.history)] = (twin, alt)
                self.seen_secrets += 1
                break

    def pick(self) -> list[int | str]:
        """The twins compared now: the seed's, the newest secret, one other."""
        keys = list(self.alive)
        secrets = [k for k in keys if k != "seed"]
        out: list[int | str] = [k for k in keys if k == "seed"]
        if secrets:
            out.append(secrets[-1])
        if len(secrets) > 1:
            out.append(self.rng.choice(secrets[:-1]))
        return out


def twin_journal(real: Path, folder: Path, game_id: int, key: int | str, alt: Move | None) -> Path:
    """A copy of the real journal with another seed, or move ``key`` replaced by ``alt``."""
    path = folder / f"twin-{key}.sqlite"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    with sqlite3.connect(f"{real.resolve().as_uri()}?mode=ro", uri=True) as src, \
            sqlite3.connect(path) as dst:
        src.backup(dst)
        dst.execute("UPDATE moves SET snapshot = NULL")
        if alt is None:
            dst.execute("UPDATE games SET seed = ? WHERE id = ?", (TWIN_SEED, game_id))
        else:
            dst.execute("UPDATE moves SET move = ? WHERE game_id = ? AND n = ?",
                        (json.dumps(alt.to_json(), sort_keys=True), game_id, key))
    src.close()
    dst.close()
    return path


def served_by(path: Path, paths: list[str]) -> tuple[dict[str, bytes], bytes]:
    source = Source(path)
    try:
        source.refresh()
        assert source.problem is None, source.problem
        app = App(source)
        return {p: app.respond("/" + p).body for p in paths}, app.event()
    finally:
        source.close()


@pytest.mark.parametrize("game", GAMES)
def test_no_endpoint_tells_a_secret_before_the_rules_do(game: str, tmp_path: Path) -> None:
    g = rules.get(game)
    players = min(g.player_counts)
    real = tmp_path / "journal.sqlite"
    journal = Journal(real)
    try:
        # an earlier game of the night, finished, so the lists and night report have two games
        earlier = Table(journal, game, players, seed=5)
        earlier.run()
        table = Table(journal, game, players, seed=11)
        gid = table.record.id
        paths = endpoints(gid)
        twins = Twins(g, players, random.Random(game))
        compared = 0
        with web_process(real, poll=0.02) as base:  # looks often: a thousand moves to follow
            while not table.over:
                before = table.state.copy()
                move = table.choose()
                table.play(move)
                twins.follow(before, move, table.state)
                wait_for_moves(base, len(table.state.history), gid)
                served = {}
                for p in paths:
                    status, _, body = get(base + p)
                    assert status == 200, (p, body[:300])
                    served[p] = body
                event = first_event(base + "events")
                if table.over:
                    break  # the rules reveal everything now
                for key in twins.pick():
                    _, alt = twins.alive[key]
                    twin = twin_journal(real, tmp_path, gid, key, alt)
                    bodies, twin_event = served_by(twin, paths)
                    what = "the seed" if alt is None else f"move {int(key) + 1}'s secret"
                    for p in paths:
                        assert bodies[p] == served[p], (
                            f"{game} after move {len(table.state.history)}: /{p} changes with {what} "
                            f"({_first_difference(served[p], bodies[p])})")
                    assert twin_event.split(b"\n")[0] == event.rstrip(b"\n"), f"/events changes with {what}"
                    compared += 1
        assert compared > 20
        if game in ("artus", "king-and-assassins", "siege"):
            assert twins.seen_secrets > 0, f"{game}: no secret move was found to deal afresh"
    finally:
        journal.close()


def _first_difference(a: bytes, b: bytes) -> str:
    i = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    return f"at byte {i}: {a[max(0, i - 60):i + 60]!r} / {b[max(0, i - 60):i + 60]!r}"
