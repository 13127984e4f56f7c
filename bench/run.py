"""All the benchmarks, one table: ``python -m bench.run [--quick] [--only AREA] [--json PATH]``.

Each ``bench/bench_*.py`` module's ``measure(quick)`` is run in turn; the rows
are printed as one table and written as JSON (default ``bench-out/results.json``)
with the machine they ran on.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
import time
from pathlib import Path

import bench
from bench.common import Row, machine, table, write_json

# The table's order: the issue's, then any other area.
AREAS = ("latency", "glass", "start-up", "memory", "engines", "readers", "input")


def modules() -> list:
    return [importlib.import_module(f"bench.{m.name}") for m in sorted(pkgutil.iter_modules(bench.__path__),
                                                                        key=lambda m: m.name)
            if m.name.startswith("bench_")]


def measured(mod: object) -> bool:
    return callable(getattr(mod, "measure", None))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.run", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer games and repetitions: a smoke run")
    parser.add_argument("--only", action="append", default=[], help="only modules whose name contains this")
    parser.add_argument("--json", default="bench-out/results.json", help="where to write the rows")
    args = parser.parse_args(argv)
    rows: list[Row] = []
    for mod in modules():
        if not measured(mod) or (args.only and not any(o in mod.__name__ for o in args.only)):
            continue
        start = time.perf_counter()
        print(f"{mod.__name__} ...", file=sys.stderr, flush=True)
        rows += mod.measure(quick=args.quick)
        print(f"{mod.__name__}: {time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
    rows.sort(key=lambda r: AREAS.index(r.area) if r.area in AREAS else len(AREAS))
    m = machine()
    print(f"{m['cpu']}, {m['cores']} cores, {m['memory_mb']} MB, {m['system']}, {m['python']}, "
          f"load {m['load_1min']}")
    print(table(rows))
    command = "python -m bench.run" + (" --quick" if args.quick else "")
    write_json(rows, Path(args.json), command)
    print(f"\nwritten: {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
