"""`tablekeeper tags`: the tag registry (enroll, check, list, forget) and the sheet to print."""

from __future__ import annotations

import argparse
import queue
import sys
from collections.abc import Iterator
from pathlib import Path

import rules
from pi_app import games as table_games
from pi_app import paths
from pi_app.commands import tag_sheet
from pi_app.errors import UsageError
from pi_app.games.base import Component, TableAdapter
from pi_app.store.registry import Registry, RegistryError, normalise
from pi_app.table import hardware, profile
from rules.catalogue import LANGS

NAME = "tags"
HELP = "enroll, check, list and forget the NFC tags of a game's cards and pieces; print their sheet"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    state_dir = argparse.ArgumentParser(add_help=False)
    # Before or after the action: `tags --state-dir D list` and `tags list --state-dir D`.
    state_dir.add_argument("--state-dir", default=argparse.SUPPRESS, help="where the tag registry lives")
    parser.add_argument("--state-dir", help="where the tag registry lives")
    # A game's set: what enroll, check and sheet each take.
    game_set = argparse.ArgumentParser(add_help=False)
    game_set.add_argument("game", help="game id, e.g. king-is-dead")
    game_set.add_argument("--players", type=int, help="the set for this many players (default: the most)")
    game_set.add_argument("--lang", choices=LANGS, default="en")
    # Where the taps come from: enroll and check.
    taps = argparse.ArgumentParser(add_help=False)
    taps.add_argument("--table", help="table profile whose pads read the taps")
    taps.add_argument("--stdin", action="store_true", help="type or paste UIDs instead of tapping")
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    sub.add_parser("enroll", help="walk through a game's components, one tap each",
                   parents=[state_dir, game_set, taps])
    sub.add_parser("check", help="tap a game's whole set once: what is missing, tapped twice or "
                   "not of this game", parents=[state_dir, game_set, taps])
    sheet = sub.add_parser("sheet", help="the game's sheet to print: every piece numbered in the order "
                           "enroll asks for it, and its sticker", parents=[game_set])
    sheet.add_argument("--out", default=".", help="folder for the pages (GAME-1.svg, ...)")
    listing = sub.add_parser("list", help="the enrolled tags", parents=[state_dir])
    listing.add_argument("game", nargs="?", help="only this game")
    forget = sub.add_parser("forget", help="forget a tag", parents=[state_dir])
    forget.add_argument("uid", help="the tag's UID in hex")


def run(args: argparse.Namespace) -> int:
    if args.action == "sheet":
        _components(args)  # the game and players checked, with the same words as enroll
        for path in tag_sheet.write(args.game, args.players or max(rules.get(args.game).player_counts),
                                    args.lang, Path(args.out)):
            print(f"written: {path}")
        return 0
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
        if args.action == "check":
            return check(args, registry)
        return enroll(args, registry)
    finally:
        registry.close()


def _components(args: argparse.Namespace) -> tuple[TableAdapter, list[Component]]:
    """The game's adapter and its tagged components for ``--players``; a UsageError for a game or a
    count that is not known."""
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
    return adapter, comps


def _uid_source(args: argparse.Namespace) -> tuple[Iterator[str], hardware.Table | None]:
    """The UIDs typed (--stdin) or tapped on the table's pads, and the table to close after."""
    if args.stdin:
        return (line.strip() for line in sys.stdin if line.strip()), None
    prof = profile.load(profile.find(args.table))
    if prof.simulated:
        raise UsageError("a simulated table has no real pads; use --stdin to type UIDs")
    table = hardware.build(prof, queue.Queue())
    return _taps(table), table


def enroll(args: argparse.Namespace, registry: Registry, uids: Iterator[str] | None = None) -> int:
    adapter, comps = _components(args)
    table = None
    if uids is None:
        uids, table = _uid_source(args)
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


def check(args: argparse.Namespace, registry: Registry, uids: Iterator[str] | None = None) -> int:
    """Every tag of a game's set tapped once, in any order: each answered with what it is; at the
    end (every tag seen, the input's end, or Ctrl-C) what is missing, what was tapped twice and what
    is not of this game. Exit 0 when the set is whole and nothing foreign was tapped."""
    adapter, comps = _components(args)
    slots = {comp.id: comp for comp in comps}
    enrolled = {uid: slots[c.id] for c in comps for uid in registry.uids_of(args.game, c.id)}
    total = sum(c.count for c in comps)
    seen: set[str] = set()
    again: list[str] = []
    foreign: list[str] = []
    table = None
    if uids is None:
        uids, table = _uid_source(args)
    print(f"tap every tag of {args.game} once, in any order ({total} tags); "
          "Ctrl-C ends the check early", flush=True)
    try:
        while len(seen) < total:
            raw = next(uids, None)
            if raw is None:
                break
            try:
                uid = normalise(raw)
            except RegistryError as exc:
                print(f"  refused: {exc}", flush=True)
                continue
            comp = enrolled.get(uid)
            if comp is None:
                tag = registry.lookup(uid)
                where = (f"enrolled as {tag.component} of {tag.game}" if tag is not None
                         else "not enrolled")
                foreign.append(f"{uid} ({where})")
                print(f"  {uid}: {where}", flush=True)
            elif uid in seen:
                again.append(f"{uid} ({adapter.enroll_prompt(comp, args.lang)})")
                print(f"  {uid}: tapped already, {adapter.enroll_prompt(comp, args.lang)}", flush=True)
            else:
                seen.add(uid)
                print(f"  [{len(seen)}/{total}] {adapter.enroll_prompt(comp, args.lang)}", flush=True)
    except KeyboardInterrupt:
        print("  (ended)")
    finally:
        if table is not None:
            table.close()
    missing = []
    number = 0  # the sheet's numbers (tablekeeper tags sheet), which are enroll's
    for comp in comps:
        first, number = number + 1, number + comp.count
        have = registry.uids_of(args.game, comp.id)
        counts = {"not tapped": len([uid for uid in have if uid not in seen]),
                  "not enrolled": comp.count - len(have)}
        said = [(f"{n} of {comp.count} " if comp.count > 1 else "") + words
                for words, n in counts.items() if n]
        if said:
            numbers = str(first) if comp.count == 1 else f"{first}-{number}"
            missing.append(f"{numbers} {adapter.enroll_prompt(comp, args.lang)}: {', '.join(said)}")
    print(f"{len(seen)} of {total} tags of {args.game} answered")
    for title, items in (("missing", missing), ("tapped twice", again), ("not of this game", foreign)):
        if items:
            print(f"{title} ({len(items)}):")
            for item in items:
                print(f"  {item}")
    if not missing and not foreign:
        print(f"the set of {args.game} is whole")
        return 0
    return 1


def _taps(table: hardware.Table) -> Iterator[str]:
    """UIDs as they arrive on any pad of a real table."""
    from drivers.events import TagArrived

    while True:
        event = table.queue.get()
        if isinstance(event, TagArrived):
            yield event.uid
