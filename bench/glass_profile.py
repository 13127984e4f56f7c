"""Where the bus bytes and the CPU of an input go: a profile, not a benchmark.

Plays the latency benchmark's games (``bench_session``: the reference
table's SH1106s on the counting fake bus, the simulated players) and prints

- per game, the I2C bytes per input, and the shared screen's alone (a floor
  for the bytes target: no seat's screen counted);
- per game, the I2C bytes per input by what each screen went through: a seat's
  menu to its next menu (a press or tap inside a move), menu to waiting (the
  seat has played), waiting to menu (its turn came), waiting to waiting, the
  shared screen; and how many inputs sent more than the target's 600 bytes;
- per change, the columns of its pages it sends (its windows), those that
  differ, and the least a rearrangement of the same words could send: per
  page the larger of the two frames' inked columns (as if the other's ink lay
  within them), the most that lining the screens up can save;
- the functions that take the CPU time before the acting seat's frame is
  sent, in the slowest 3% of inputs by that time (cProfile on this thread's
  CPU clock; a second, profiled pass over the same seeded games).

    python -m bench.glass_profile [--quick] [GAME ...]
"""

from __future__ import annotations

import cProfile
import io
import pstats
import queue
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import rules
from bench.bench_session import BUS_BYTES_P99, MUX_CHANNELS, inputs, on_the_bus, pct, started
from drivers.oled_devices import changed_windows, page_bytes
from pi_app import games as table_games
from pi_app.session.presentation import frame
from pi_app.store.journal import Journal
from pi_app.store.registry import Registry
from pi_app.table import hardware, profile
from pi_app.ui.screens import Layout

GAP = 8  # the SH1106's (drivers.oled_devices.Sh1106._gap): the reference table's screens


@dataclass
class Input:
    game: str
    acting_cpu: float | None  # thread CPU seconds from pump() to the acting seat's frame (not its ack)
    by_change: dict[str, int] = field(default_factory=dict)  # "menu>waiting" etc. -> bytes
    #: "menu>waiting" etc. -> columns sent, columns that differ, the aligned bound (:func:`columns`)
    columns: dict[str, tuple[int, int, int]] = field(default_factory=dict)


def columns(before: Layout, after: Layout) -> tuple[int, int, int]:
    """Of the 8 pages of 128 columns, going from ``before`` to ``after``: the
    columns sent (the changed windows), the columns that differ, and the bound
    no arrangement of the same ink per page goes below: per page the larger
    frame's count of inked columns (a column inked in one frame and not in the
    other is sent, so the least is when one frame's inked columns lie within
    the other's)."""
    old, new = page_bytes(frame(before), 8), page_bytes(frame(after), 8)
    sent = differ = bound = 0
    for a, b in zip(old, new, strict=True):
        sent += sum(end - start for start, end in changed_windows(a, b, GAP))
        differ += sum(x != y for x, y in zip(a, b, strict=True))
        bound += max(len(a) - a.count(0), len(b) - b.count(0))
    return sent, differ, bound


def _kind(layout: Layout | None) -> str:
    return "none" if layout is None else "menu" if layout.footer else "waiting"


def play(game: str, players: int, seed: int, work: Path, limit: int | None,
         each: Callable[[int], tuple[Callable[[], None], Callable[[], None]]] | None = None) -> list[Input]:
    """One seeded game as ``bench_session`` plays it; ``each(i)`` may give a
    (start, stop) pair run around input ``i`` up to the acting seat's frame."""
    table = hardware.build(profile.load(profile.find("sim")), queue.Queue(), poll=False, seats=players)
    bus = on_the_bus(table, full_frames=False)
    journal = Journal(work / f"{game}-{players}-{seed}.sqlite")
    registry = Registry(work / "tags.sqlite")
    out: list[Input] = []
    mark: dict[str, Any] = {}
    try:
        session, uids = started(table, journal, registry, game, players, seed)
        channel = MUX_CHANNELS  # the screens on_the_bus put on the bus
        for name, screen in table.screens.items():
            def show(frame: Any, text: str = "", real: Any = screen.show, name: str = name) -> bool:
                sent = real(frame, text)
                # the acting seat's frame, not its acknowledgement (sent while the screen is acknowledged)
                acked = name in getattr(session.presentation, "acknowledged", ())
                if sent and name == mark["acting"] and mark["cpu"] is None and not acked:
                    mark["cpu"] = time.thread_time() - mark["t0"]
                    mark["stop"]()
                    mark["stop"] = lambda: None
                return sent
            screen.show = show
        rng = random.Random(seed)
        for seat in inputs(session, table, uids, rng, lambda: limit is None or len(out) < limit):
            before = {k: t.bytes for k, t in bus.traffic.items()}
            shown = dict(session.presentation.layouts_sent)
            start, stop = each(len(out)) if each else (lambda: None, lambda: None)
            mark.update(acting=session.scene.profile.seats[seat].screen.name if seat is not None and seat >= 0
                        else "", cpu=None, stop=stop, t0=time.thread_time())
            start()
            session.pump()
            mark["stop"]()
            got = Input(game, mark["cpu"])
            for name, layout in session.presentation.layouts_sent.items():
                if shown.get(name) == layout:
                    continue
                sent = sum(t.bytes - before.get(k, 0) for k, t in bus.traffic.items()
                           if k[0] == channel[name])
                what = ("shared" if name == "shared.screen"
                        else f"{_kind(shown.get(name))}>{_kind(layout)}")
                got.by_change[what] = got.by_change.get(what, 0) + sent
                if shown.get(name) is not None:
                    got.columns[what] = columns(shown[name], layout)
            out.append(got)
    finally:
        table.close()
        registry.close()
        journal.close()
    return out


def games(names: list[str], quick: bool, each: Any = None) -> list[Input]:
    out: list[Input] = []
    with tempfile.TemporaryDirectory(prefix="tk-glass-") as tmp:
        for game in names:
            counts = rules.get(game).player_counts
            for players in counts[:1] if quick else counts:
                for seed in (1,) if quick else (1, 2, 3):
                    start = len(out)
                    out += play(game, players, seed, Path(tmp), 25 if quick else None,
                                None if each is None else lambda i, s=start: each(s + i))
    return out


def bytes_report(inputs: list[Input]) -> str:
    lines = []
    for game in sorted({i.game for i in inputs}):
        mine = [i for i in inputs if i.game == game]
        totals = [sum(i.by_change.values()) for i in mine]
        over = sum(t > BUS_BYTES_P99 for t in totals)
        p99 = pct([float(t) for t in totals], 0.99)
        median = statistics.median(totals)
        lines.append(f"{game}: {len(mine)} inputs, bytes median {median:.0f}, p99 {p99:.0f}; "
                     f"{over} ({100 * over / len(mine):.0f}%) over {BUS_BYTES_P99:.0f}")
        # The floor of the target: the shared screen alone, as if no seat's screen changed.
        shared = [float(i.by_change.get("shared", 0)) for i in mine]
        alone = sum(b > BUS_BYTES_P99 for b in shared)
        lines.append(f"    the shared screen alone: p99 {pct(shared, 0.99):.0f} bytes; "
                     f"{alone} inputs ({100 * alone / len(mine):.1f}%) over {BUS_BYTES_P99:.0f}")
        changes: dict[str, list[int]] = defaultdict(list)
        for i in mine:
            for what, sent in i.by_change.items():
                changes[what].append(sent)
        share = sum(sum(v) for v in changes.values()) or 1
        for what, sent in sorted(changes.items(), key=lambda kv: -sum(kv[1])):
            median = statistics.median(sent)
            lines.append(f"    {what:<18} {len(sent):>5} times, median {median:>4.0f} bytes, "
                         f"{100 * sum(sent) / share:>3.0f}% of the bytes")
            cols = [i.columns[what] for i in mine if what in i.columns]
            if cols:
                sent_c, differ, bound = (statistics.median(c[k] for c in cols) for k in range(3))
                lines.append(f"    {'':<18} columns median: sent {sent_c:.0f}, differing {differ:.0f}, "
                             f"aligned bound {bound:.0f}")
    return "\n".join(lines)


def cpu_report(names: list[str], quick: bool, first: list[Input]) -> str:
    times = [i.acting_cpu for i in first if i.acting_cpu is not None]
    cut = pct(times, 0.97)
    slow = {n for n, i in enumerate(first) if i.acting_cpu is not None and i.acting_cpu >= cut}
    prof = cProfile.Profile(timer=time.thread_time)
    off = (lambda: None, lambda: None)
    games(names, quick, lambda n: (prof.enable, prof.disable) if n in slow else off)
    text = io.StringIO()
    pstats.Stats(prof, stream=text).sort_stats("cumulative").print_stats(40)
    per_game = defaultdict(int)
    for n in slow:
        per_game[first[n].game] += 1
    return (f"CPU to the acting seat's frame: median {statistics.median(times) * 1e3:.2f} ms, "
            f"p97 {cut * 1e3:.2f} ms, p99 {pct(times, 0.99) * 1e3:.2f} ms (here, unprofiled); "
            f"the slowest 3% by game: {dict(per_game)}\n{text.getvalue()}")


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    quick = "--quick" in sys.argv[1:]
    names = args or [g for g in table_games.ADAPTERS if g in rules.GAMES]
    first = games(names, quick)
    print(bytes_report(first))
    print(cpu_report(names, quick, first))


if __name__ == "__main__":
    main()
