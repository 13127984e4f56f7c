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
