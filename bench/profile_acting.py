"""Where the CPU before the acting seat's frame goes, for the slowest inputs.

Plays the latency games of ``bench.bench_session`` (every game and player
count, three seeds; the same seeded inputs), finds the inputs whose CPU to
the acting seat's last frame is in the top ``--tail`` share, then plays the
same games again with cProfile running over exactly those inputs, from the
event to that frame being handed to its screen, and prints the profile
(this thread's CPU time, which the model scales).

    python -m bench.profile_acting [--tail 0.02] [--sort cumulative] [--limit 40]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import tempfile
import time
from pathlib import Path
from typing import Any

import rules
from bench import bench_session
from bench.pi_model import InputCost
from drivers.screens import OledScreen
from pi_app import games as table_games
from pi_app.session.loop import Session

SEEDS = (1, 2, 3)


def runs() -> list[tuple[str, int, int]]:
    return [(game, players, seed) for game in table_games.ADAPTERS if game in rules.GAMES
            for players in rules.get(game).player_counts for seed in SEEDS]


def acting_cpu(cost: InputCost) -> float | None:
    key = cost.points.get("acting")
    return None if key is None else cost.frames[key].cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tail", type=float, default=0.02, help="the share of slowest inputs profiled")
    parser.add_argument("--sort", default="cumulative")
    parser.add_argument("--limit", type=int, default=40)
    parser.add_argument("--out", type=Path, help="also save the profile here (pstats)")
    args = parser.parse_args()
    found: list[tuple[float, tuple[str, int, int], int, int]] = []  # cpu, run, input, frames to acting
    with tempfile.TemporaryDirectory(prefix="tk-prof-") as tmp:
        for run in runs():
            glass: list[InputCost] = []
            bench_session.play(*run, Path(tmp), bench_session.Costs(), None, glass=glass)
            for n, cost in enumerate(glass):
                cpu = acting_cpu(cost)
                if cpu is not None:
                    found.append((cpu, run, n, cost.points["acting"] + 1))
    found.sort(reverse=True)
    tail = found[:max(1, int(len(found) * args.tail))]
    print(f"{len(found)} inputs with an acting seat's frame; profiling the {len(tail)} slowest "
          f"(CPU here to that frame {tail[-1][0] * 1e3:.2f} to {tail[0][0] * 1e3:.2f} ms, p99 "
          f"{bench_session.pct([f[0] for f in found], 0.99) * 1e3:.2f} ms)")
    by_game: dict[str, int] = {}
    for _, (game, players, _seed), _, _ in tail:
        by_game[f"{game} {players}p"] = by_game.get(f"{game} {players}p", 0) + 1
    print("of them: " + ", ".join(f"{k} {v}" for k, v in sorted(by_game.items(), key=lambda kv: -kv[1])))
    wanted: dict[tuple[str, int, int], dict[int, int]] = {}
    for _, run, n, frames in tail:
        wanted.setdefault(run, {})[n] = frames
    prof = cProfile.Profile(time.thread_time)  # CPU, as the glass rows count it: not the fsync's wait
    state: dict[str, Any] = {"n": -1, "left": 0}
    real_pump, real_show = Session.pump, OledScreen.show

    def pump(self: Session) -> int:
        state["n"] += 1
        frames = state["want"].get(state["n"])
        if frames is None:
            return real_pump(self)
        state["left"] = frames
        prof.enable()
        try:
            return real_pump(self)
        finally:
            prof.disable()  # the acting seat's frame was the input's last

    def show(self: OledScreen, frame: Any, text: str = "") -> bool:
        sent = real_show(self, frame, text)
        if sent and state["left"]:
            state["left"] -= 1
            if not state["left"]:
                prof.disable()
        return sent

    Session.pump, OledScreen.show = pump, show  # type: ignore[method-assign]
    try:
        with tempfile.TemporaryDirectory(prefix="tk-prof-") as tmp:
            for run, want in wanted.items():
                state.update(n=-1, left=0, want=want)
                bench_session.play(*run, Path(tmp), bench_session.Costs(), None, glass=[])
    finally:
        Session.pump, OledScreen.show = real_pump, real_show  # type: ignore[method-assign]
    if args.out:
        prof.dump_stats(args.out)
    pstats.Stats(prof).sort_stats(args.sort).print_stats(args.limit)


if __name__ == "__main__":
    main()
