"""`tablekeeper replay` on the logs in examples/ and on every registered game,
with chance outcomes from the seed and from the file (issue 2)."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import rules
from pi_app.commands.replay import replay
from rules.core import Move

EXAMPLES = Path(__file__).parents[2] / "examples"
PHIL, JO, LAURA = 0, 1, 2


def _replay_lines(lines: list[str], name: str = "log.jsonl") -> list[dict[str, Any]]:
    out = io.StringIO()
    replay(io.StringIO("\n".join(lines)), out, name)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def _replay_example(name: str) -> list[dict[str, Any]]:
    path = EXAMPLES / name
    return _replay_lines(path.read_text(encoding="utf-8").splitlines(), str(path))


def _verdicts(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in records if "n" in r]


def _events(record: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [e for e in record["events"] if e["type"] == kind]


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.jsonl")), ids=lambda p: p.name)
def test_every_example_replays_to_a_last_line_with_the_public_view(path: Path) -> None:
    header = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    assert header["game"] in rules.GAMES
    records = _replay_example(path.name)
    verdicts = _verdicts(records)
    assert [v["n"] for v in verdicts] == list(range(1, len(verdicts) + 1))
    assert set(records[-1]) == {"outcome", "view"}
    assert records[-1]["view"].get("game", header["game"]) == header["game"]  # Artus's view names no game
    assert all("n" in r or "chance" in r for r in records[:-1])


def test_example_power_struggle_from_the_rulebook() -> None:
    # Phil, Jo and Laura; every chance outcome of the setup is a line of the file.
    records = _replay_example("king-is-dead-power-struggle.jsonl")
    assert not [r for r in records if "chance" in r]
    verdicts = _verdicts(records)
    assert all(v["ok"] for v in verdicts)
    setup, turns = verdicts[:40], verdicts[40:]
    assert _events(setup[-1], "setup_complete")
    # Phil passes, Jo passes; Laura plays: the struggle goes on.
    assert [_events(v, "passed") for v in turns[:2]] == [
        [{"type": "passed", "seat": PHIL}],
        [{"type": "passed", "seat": JO}],
    ]
    assert _events(turns[2], "card_played") == [{"type": "card_played", "seat": LAURA, "card": "settlement"}]
    # Only Jo's last pass, after Laura's and Phil's, ends it: at once.
    ended = [i for i, v in enumerate(turns) if _events(v, "struggle_resolved")]
    assert ended == [len(turns) - 1]
    assert [e["seat"] for v in turns[-3:] for e in _events(v, "passed")] == [LAURA, PHIL, JO]
    assert _events(turns[-1], "struggle_resolved")[0]["region"] == "Caledonia"
    # The next struggle starts with Laura.
    view = records[-1]["view"]
    assert view["struggle"] == 2 and view["to_move"] == LAURA and view["passes"] == 0
    assert records[-1]["outcome"] is None


def test_example_refusals_are_reported_and_change_nothing() -> None:
    path = EXAMPLES / "king-is-dead-refusals.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    records = _replay_lines(lines)
    refused = {v["n"]: (v["code"], v["rule"], v["rule_it"]) for v in _verdicts(records) if not v["ok"]}
    assert refused == {
        4: ("king-is-dead.garrison.not-adjacent", "Garrison", "Guarnigione"),
        10: ("king-is-dead.exchange.undo", "Garrison", "Guarnigione"),
        14: ("king-is-dead.turn.card-used", "Taking Actions", "Eseguire le Azioni"),
    }
    assert next(v for v in _verdicts(records) if v["n"] == 4)["message"] == (
        "Caledonia does not border Eboracum: Garrison exchanges between bordering regions."
    )
    # Without the refused lines the log ends in exactly the same position.
    kept = [line for i, line in enumerate(lines) if i not in refused]
    assert _replay_lines(kept)[-1] == records[-1]


def test_example_everyone_passes_ends_by_control_with_both_tie_breaks() -> None:
    records = _replay_example("king-is-dead-everyone-passes.jsonl")
    verdicts = _verdicts(records)
    assert len(verdicts) == 24 and all(v["ok"] for v in verdicts)
    assert _events(verdicts[-1], "game_over") == [{"type": "game_over", "reason": "control", "winners": [0]}]
    outcome = records[-1]["outcome"]
    assert outcome["winners"] == [0] and outcome["reason"] == "control"
    assert outcome["detail"]["decided_by"] == ["romano-british", "scots"]
    assert records[-1]["view"]["to_move"] is None


def test_the_command_replays_an_example_and_names_a_bad_line(tmp_path: Path) -> None:
    example = EXAMPLES / "king-is-dead-refusals.jsonl"
    proc = subprocess.run(
        [sys.executable, "-m", "pi_app", "replay", str(example)], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert [json.loads(line) for line in proc.stdout.splitlines()][-1].keys() == {"outcome", "view"}
    lines = example.read_text(encoding="utf-8").splitlines()
    lines[6] = '{"type": "take", "region": "Atlantis", "colour": "red"}'
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "pi_app", "replay", str(bad)], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 2
    assert f"{bad}:7: not a king-is-dead move" in proc.stderr and "Traceback" not in proc.stderr


def _playout_log(game_id: str, seed: int) -> tuple[dict[str, Any], list[tuple[Move, bool, bool]], Any]:
    """A seeded random game with a few stale moves (illegal by then) mixed
    in: the header, ``(move, legal, at a chance step)`` per line, the end."""
    game = rules.get(game_id)
    rng = random.Random(seed)
    players = game.player_counts[seed % len(game.player_counts)]
    options = game.option_combinations()[seed % len(game.option_combinations())]
    state = game.new_game(players=players, seed=seed, options=options)
    header = {"game": game_id, "players": players, "seed": seed, "options": options}
    log: list[tuple[Move, bool, bool]] = []
    played: list[Move] = []
    while state.to_move() is not None:
        legal = state.legal_moves()
        stale = [m for m in played[-30:] if m not in legal]
        if stale and rng.random() < 0.1:
            log.append((rng.choice(stale), False, state.is_chance()))
        move = state.sample_chance() if state.is_chance() else rng.choice(legal)
        log.append((move, True, state.is_chance()))
        played.append(move)
        state.apply(move)
    return header, log, state


@pytest.mark.parametrize("game_id", list(rules.GAMES))
@pytest.mark.parametrize("seed", [1, 2])
def test_every_game_replays_a_whole_game_with_chance_from_the_file_or_the_seed(
    game_id: str, seed: int
) -> None:
    header, log, state = _playout_log(game_id, seed)
    last = {
        "outcome": json.loads(json.dumps(state.outcome().to_json())),  # type: ignore[union-attr]
        "view": json.loads(json.dumps(state.view(None))),
    }
    # "file": every line, the chance outcomes included; stale lines refused.
    records = _replay_lines(
        [json.dumps({**header, "chance": "file"}), *(json.dumps(m.to_json()) for m, _, _ in log)]
    )
    assert [v["ok"] for v in _verdicts(records)] == [ok for _, ok, _ in log]
    assert not [r for r in records if "chance" in r]
    assert records[-1] == last
    # "seed": the lines read at a seat's turn; the seed draws the rest, as it did.
    seat_lines = [(m, ok) for m, ok, at_chance in log if not at_chance]
    records = _replay_lines(
        [json.dumps({**header, "chance": "seed"}), *(json.dumps(m.to_json()) for m, _ in seat_lines)]
    )
    assert [v["ok"] for v in _verdicts(records)] == [ok for _, ok in seat_lines]
    assert [r["chance"] for r in records if "chance" in r] == [m.to_json() for m, ok, c in log if c and ok]
    assert records[-1] == last


def test_every_game_has_an_example() -> None:
    shown = {json.loads(p.read_text(encoding="utf-8").splitlines()[0])["game"]
             for p in EXAMPLES.glob("*.jsonl")}
    assert set(rules.GAMES) <= shown


@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.jsonl")), ids=lambda p: p.name)
def test_every_example_is_told_in_words(path: Path, lang: str) -> None:
    out = io.StringIO()
    with path.open(encoding="utf-8") as f:
        replay(f, out, str(path), lang)
    told = out.getvalue().splitlines()
    records = _replay_example(path.name)
    assert len(told) == len(records) and all(told)
    assert not any(line.lstrip().startswith("{") for line in told), "JSON, not words"
    ended = records[-1]["outcome"] is not None
    last = told[-1]
    if ended:
        assert last.startswith(("Winner", "Vince", "Assassins win", "Vincono", "Attacker", "Defender",
                                "King", "Il Re", "No winner", "Nessun")), last
    else:
        assert last.startswith(("The game is not over", "La partita non è finita")), last
    refused = [r["n"] for r in records if r.get("ok") is False]
    word = "refused" if lang == "en" else "rifiutata"
    assert [int(line.split(".")[0]) for line in told if f": {word}. " in line] == refused


def test_replay_lang_on_the_command_line() -> None:
    path = EXAMPLES / "king-is-dead-refusals.jsonl"
    done = subprocess.run([sys.executable, "-m", "pi_app", "replay", "--lang", "it", str(path)],
                          capture_output=True, text=True, check=True)
    assert "4. Giocatore 1: Prendi blu in Caledonia: rifiutata. Caledonia non confina" in done.stdout
