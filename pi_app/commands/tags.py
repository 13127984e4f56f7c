"""`tablekeeper tags`: the tag registry (enroll, list, forget)."""

from __future__ import annotations

import argparse
import queue
import sys
from collections.abc import Iterator

import rules
from pi_app import games as table_games
from pi_app import paths
from pi_app.errors import UsageError
from pi_app.store.registry import Registry, RegistryError
from pi_app.table import hardware, profile
from rules.catalogue import LANGS

NAME = "tags"
HELP = "enroll, list and forget the NFC tags of a game's cards and pieces"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    state_dir = argparse.ArgumentParser(add_help=False)
    # Before or after the action: `tags --state-dir D list` and `tags list --state-dir D`.
    state_dir.add_argument("--state-dir", default=argparse.SUPPRESS, help="where the tag registry lives")
    parser.add_argument("--state-dir", help="where the tag registry lives")
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    enroll = sub.add_parser("enroll", help="walk through a game's components, one tap each",
                            parents=[state_dir])
    enroll.add_argument("game", help="game id, e.g. king-is-dead")
    enroll.add_argument("--players", type=int, help="components for this many players (default: the most)")
    enroll.add_argument("--table", help="table profile whose pads read the taps")
    enroll.add_argument("--stdin", action="store_true", help="type or paste UIDs instead of tapping")
    enroll.add_argument("--lang", choices=LANGS, default="en")
    listing = sub.add_parser("list", help="the enrolled tags", parents=[state_dir])
    listing.add_argument("game", nargs="?", help="only this game")
    forget = sub.add_parser("forget", help="forget a tag", parents=[state_dir])
    forget.add_argument("uid", help="the tag's UID in hex")


def run(args: argparse.Namespace) -> int:
    registry = Registry(paths.registry_path(args.state_dir))
    try:
        if args.action == "list":
            tags = registry.tags(args.game)
            for tag in tags:
                print(f"{tag.uid}  {tag.game}  {tag.component}")
            if not tags:
                print("no tags enrolled" + (f" for {args.game}" if args.game else ""))
            return 0
        if args.action == "forget":
            try:
                gone = registry.forget(args.uid)
            except RegistryError as exc:
                raise UsageError(str(exc)) from None
            print(f"forgot {args.uid}" if gone else f"{args.uid} was not enrolled")
            return 0 if gone else 1
        return enroll(args, registry)
    finally:
        registry.close()


def enroll(args: argparse.Namespace, registry: Registry, uids: Iterator[str] | None = None) -> int:
    if args.game not in rules.GAMES:
        raise UsageError(f"unknown game {args.game!r}; registered games: {', '.join(rules.GAMES) or 'none'}")
    game = rules.get(args.game)
    players = args.players or max(game.player_counts)
    if players not in game.player_counts:
        counts = ", ".join(map(str, game.player_counts))
        raise UsageError(f"{args.game} is for {counts} players, not {players}")
    adapter = table_games.for_game(args.game, players, args.lang)
    comps = adapter.components()
    if not comps:
        raise UsageError(f"{args.game} has no tagged components declared by its table adapter")
    table = None
    if uids is None:
        if args.stdin:
            uids = (line.strip() for line in sys.stdin if line.strip())
        else:
            prof = profile.load(profile.find(args.table))
            if prof.simulated:
                raise UsageError("a simulated table has no real pads; use --stdin to type UIDs")
            table = hardware.build(prof, queue.Queue())
            uids = _taps(table)
    done = 0
    total = sum(c.count for c in comps)
    try:
        for comp in comps:
            for n in range(comp.count):
                have = registry.uids_of(args.game, comp.id)
                if len(have) > n:
                    done += 1
                    continue
                what = adapter.enroll_prompt(comp, args.lang)
                extra = f" ({n + 1} of {comp.count})" if comp.count > 1 else ""
                while True:
                    print(f"[{done + 1}/{total}] tap {what}{extra}", flush=True)
                    uid = next(uids, None)
                    if uid is None:
                        print(f"stopped: {done} of {total} enrolled; run the command again to go on")
                        return 1
                    try:
                        tag = registry.enroll(uid, args.game, comp.id)
                    except RegistryError as exc:
                        print(f"  refused: {exc}", flush=True)
                        continue
                    print(f"  {tag.uid} is {comp.id}", flush=True)
                    break
                done += 1
    finally:
        if table is not None:
            table.close()
    print(f"all {total} tags of {args.game} enrolled")
    return 0


def _taps(table: hardware.Table) -> Iterator[str]:
    """UIDs as they arrive on any pad of a real table."""
    from drivers.events import TagArrived

    while True:
        event = table.queue.get()
        if isinstance(event, TagArrived):
            yield event.uid
