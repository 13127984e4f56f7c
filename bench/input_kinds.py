"""Where a game's inputs go: the input benchmark's moves (bench.bench_input,
the same seeds, setups and moves) grouped by kind of move, with what each
kind's cheapest inputs do at each menu level (a ● or a tap that picks, a ◀ ▶
that steps to the choice) and how many choices the level offers.

    python -m bench.input_kinds artus [--quick]

A move's kind is its type and what it does (``play/move``); where a game's
moves name a figure by its place (Artus), also the kind of figure there.
No rows for bench.run: the input benchmark's own rows are the figures.
"""

from __future__ import annotations

import statistics
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from bench import bench_input as b
from pi_app.session.input_map import InputMap
from pi_app.session.scene import Scene
from rules.core import Move


@dataclass
class Kind:
    costs: list[int] = field(default_factory=list)
    #: (what the input did, the level's field) -> how many such inputs
    inputs: Counter[tuple[str, str]] = field(default_factory=Counter)
    #: the same -> the options their levels offered, summed
    options: Counter[tuple[str, str]] = field(default_factory=Counter)


def kind_of(scene: Scene, move: Move) -> str:
    data = move.to_json()
    name = "/".join(str(data[k]) for k in ("type", "do") if k in data)
    figures = scene.state.view(None).get("figures")
    where = data.get("seat")
    if data.get("do") == "move" and isinstance(figures, list) and isinstance(where, int):
        figure = str(figures[where])
        name += " knight" if figure[:1] == "k" and figure[1:].isdigit() else " prince"
    return name


def levels(scene: Scene, imap: InputMap, seat: int, path: list[b.Input]) -> list[tuple[str, str, int]]:
    """Each input of ``path`` with the menu level it was given on: its
    field ("-": a confirm) and how many options it had; the scene is left
    as it was found."""
    start = b.snapshot(scene, seat)
    live, imap.commit = imap.commit, b.Probe()
    out = []
    try:
        for inp in path:
            cursor = scene.cursor_for(seat)
            did = "step" if inp[0] == "press" and not inp[1].endswith(".ok") else inp[0]
            out.append((did if did != "press" else "●", cursor.field() or "-", len(cursor.options())))
            b.send(imap, inp)
    finally:
        imap.commit = live
        b.restore(scene, seat, start)
    return out


def gather(game_id: str, quick: bool = False) -> dict[str, Kind]:
    kinds: dict[str, Kind] = defaultdict(Kind)

    def watch(scene: Scene, imap: InputMap, seat: int, move: Move, path: list[b.Input] | None) -> None:
        k = kinds[kind_of(scene, move)]
        k.costs.append(len(path) if path is not None else b.MAX_DEPTH + 1)
        for did, level, options in levels(scene, imap, seat, path or []):
            k.inputs[(did, level)] += 1
            k.options[(did, level)] += options

    for n, opts, table in b.setups(game_id):
        for seed in range(1 if quick else b.SEEDS):
            for _ in b.play_game(game_id, n, opts, seed, table, b.QUICK_MOVES if quick else b.MOVES, watch):
                pass
    return dict(kinds)


def report(game_id: str, kinds: dict[str, Kind]) -> str:
    every = [c for k in kinds.values() for c in k.costs]
    lines = [f"{game_id}: {len(every)} moves, median {statistics.median(every)}, p90 {b.pct(every, 0.9)}, "
             f"worst {max(every)}; {sum(c <= 2 for c in every)} cost 2 or less, "
             f"{sum(c >= 5 for c in every)} cost 5 or more"]
    for name, k in sorted(kinds.items(), key=lambda item: -len(item[1].costs)):
        spread = ", ".join(f"{c}: {n}" for c, n in sorted(Counter(k.costs).items()))
        lines.append(f"  {name}: {len(k.costs)} moves, median {statistics.median(k.costs)}, "
                     f"mean {statistics.mean(k.costs):.2f} (inputs: moves {spread})")
        for (did, level), n in sorted(k.inputs.items(), key=lambda item: (item[0][1], item[0][0])):
            lines.append(f"      {did:4} on {level}: {n / len(k.costs):.2f} a move "
                         f"({k.options[(did, level)] / n:.1f} options there)")
    return "\n".join(lines)


def main(argv: list[str]) -> None:
    quick = "--quick" in argv
    games: list[Any] = [a for a in argv if not a.startswith("--")] or ["artus"]
    for game_id in games:
        print(report(game_id, gather(game_id, quick)))


if __name__ == "__main__":
    main(sys.argv[1:])
