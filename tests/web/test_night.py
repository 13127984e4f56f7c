"""`tablekeeper demo` writes the night's report beside its summary.md."""

from __future__ import annotations

from pathlib import Path

from pi_app.cli import main


def test_the_demo_writes_the_nights_report(tmp_path: Path, capsys) -> None:
    assert main(["demo", "--game", "mordred", "--out", str(tmp_path)]) == 0
    assert "night.html" in capsys.readouterr().out
    assert (tmp_path / "summary.md").exists()
    html = (tmp_path / "night.html").read_text(encoding="utf-8")
    games = html.count('<tr><td><a href="#game-')
    assert games == sum(1 for line in (tmp_path / "summary.md").read_text().splitlines()
                        if line.startswith("| mordred |"))
    assert games >= 2 and html.count('<svg class="plot"') == games  # Mordred's victory points
    assert "victory points over the game" in html and "Time per turn" in html
    # the demo's sessions saw the refusals the journal does not keep: the rule broken most
    refused = sum(int(line.split("|")[6]) for line in (tmp_path / "summary.md").read_text().splitlines()
                  if line.startswith("| mordred |"))
    assert refused > 0 and "The rule broken most: " in html
    assert "<style>" in html and "/static/" not in html  # one file, read away from the box
    # each game in a journal of its own, each its journal's game 1: the night numbers them
    import re

    headings = re.findall(r'<section id="game-\d+"><h2>([^<]*)</h2>', html)
    assert headings == [f"Mordred · game {n} · {p} players" for n, p in ((1, 3), (2, 4))], headings


def test_summary_and_the_nights_report_say_the_same_of_each_game(tmp_path: Path, capsys) -> None:
    """One source: each game's moves and result, in summary.md and night.html alike."""
    import re
    from html import unescape

    assert main(["demo", "--game", "artus", "--out", str(tmp_path)]) == 0
    capsys.readouterr()
    summary = [[cell.strip() for cell in line.split("|")[1:-1]]
               for line in (tmp_path / "summary.md").read_text().splitlines() if line.startswith("| artus |")]
    html = (tmp_path / "night.html").read_text(encoding="utf-8")
    night = [(int(moves), unescape(result)) for moves, result in re.findall(
        r'<tr><td><a href="#game-\d+">[^<]*</a></td><td>\d+</td><td>(\d+)</td><td>[^<]*</td><td>([^<]*)</td>',
        html)]
    assert len(summary) == len(night) >= 2
    for row, (moves, result) in zip(summary, night, strict=True):
        assert (int(row[4]), row[9]) == (moves, result)
