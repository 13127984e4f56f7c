"""`tablekeeper demo`: a simulated game night (see pi_app.simulated.demo)."""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from pathlib import Path
from typing import TYPE_CHECKING

import rules
from pi_app.errors import UsageError
from pi_app.web import night as night_report
from pi_app.web.report import moves_made, result_words
from rules.catalogue import LANGS

if TYPE_CHECKING:
    from pi_app.simulated.demo import GameReport

NAME = "demo"
HELP = "play a simulated game night of every game with a table adapter; save frames, GIFs, transcripts"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", help="only this game id (default: every game with an adapter)")
    parser.add_argument("--out", default="demo-out", help="output directory (default: demo-out)")
    parser.add_argument("--lang", choices=LANGS, default="en", help="language of the screens")
    parser.add_argument("--seed", type=int, default=1, help="seed of the games and the players: the same "
                        "seed plays the same games on any machine and in either language")
    parser.add_argument("--frames", action="store_true", help="save every screen's every frame as PNG "
                        "(thousands of files for a night), shown on the review sheet")


def told_as(report: GameReport, lang: str) -> None:
    """The game's moves and result as the night's report reads them from its
    journal: summary.md and night.html say the same of each game."""
    stories = night_report.stories([Path(report.journal)], lang) if report.journal else []
    if stories:
        report.moves = moves_made(stories[-1])
        report.result = result_words(stories[-1])


def run(args: argparse.Namespace) -> int:
    from pi_app.simulated.demo import Night, options_text, review_sheet, summary

    if args.game is not None and args.game not in rules.GAMES:
        raise UsageError(f"unknown game {args.game!r}; registered games: {', '.join(rules.GAMES) or 'none'}")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out} is a file; give a directory for the frames, GIFs and transcripts")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot create the output directory {out}: {exc.strerror}") from None
    night = Night(out, lang=args.lang, seed=args.seed, frames=args.frames)
    plan = night.games(args.game)
    if not plan:
        raise UsageError("no game has a table adapter and a registered engine yet")
    start = time.perf_counter()
    reports = []
    failed = []
    for game, players, options in plan:
        what = f"{game} for {players}" + (f" ({options_text(options)})" if options else "")
        try:
            report = night.play(game, players, options)
        except Exception as exc:  # one game's fault must not cost the rest of the night
            traceback.print_exc()
            failed.append(f"{what}: {exc}")
            continue
        told_as(report, args.lang)
        print(f"{what}: {report.moves} moves, {report.inputs} inputs, "
              f"{report.refused} refused, {report.result} ({report.seconds:.1f} s)", flush=True)
        reports.append(report)
    summary(reports, time.perf_counter() - start, out, failed, args.lang)
    night_report.write(out / "night.html", [Path(r.journal) for r in reports if r.journal], args.lang)
    review_sheet(reports, out, args.lang)
    pictures = "as PNG and " if args.frames else ""
    print(f"\nwrote {out}/summary.md, one GIF and transcript per game, {out}/index.html (open it in a "
          f"browser: each game's page shows every screen frame by frame, {pictures}in words) and the "
          f"night's report {out}/night.html")
    for line in failed:
        print(f"FAILED {line}", file=sys.stderr)
    return 1 if failed else 0
