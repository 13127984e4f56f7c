"""Every module-level cache is bounded and known to the soak.

The soak clears ``pi_app.simulated.soak.bounded_caches()`` before it counts memory, so
that a cache filling up is not read as a leak; a cache missing from that list
would hide nothing but blur the count, and an unbounded one would be a leak.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil

from pi_app.simulated.soak import bounded_caches

PACKAGES = ("rules", "players", "pi_app", "drivers")
#: unbounded caches whose keys come from a small fixed set: they fill once and stay
FIXED_KEYS = {
    "players.playout._cells": "a King & Assassins board's side",
    "players.playout._gate_steps": "a King & Assassins board's side",
    "rules.artus.board.values": "the King's place on the court",
    "rules.artus.board.label": "a figure, crowned or not",
    "rules.sections.table": "a game's id",
    "rules.siege.state._handler": "a move class",
}


def _module_caches() -> dict[str, functools._lru_cache_wrapper]:
    found = {}
    for package in PACKAGES:
        root = importlib.import_module(package)
        for info in pkgutil.walk_packages(root.__path__, f"{package}."):
            if info.name.endswith(".__main__"):  # runs the command line
                continue
            module = importlib.import_module(info.name)
            for name, value in vars(module).items():
                if isinstance(value, functools._lru_cache_wrapper) and value.__module__ == info.name:
                    found[f"{info.name}.{name}"] = value
    return found


def test_every_module_cache_is_bounded_and_cleared_by_the_soak() -> None:
    caches = _module_caches()
    assert caches, "no cache found: the scan is broken"
    unbounded = sorted(n for n, c in caches.items() if c.cache_parameters()["maxsize"] is None)
    assert unbounded == sorted(FIXED_KEYS), "an unbounded cache must have keys from a small fixed set"
    listed = {id(c) for c in bounded_caches()}  # every module is imported now
    missing = sorted(n for n, c in caches.items() if id(c) not in listed and n not in FIXED_KEYS)
    assert not missing, f"the soak does not clear: {missing}"
    assert listed <= {id(c) for c in caches.values()}, "the soak clears something that is not a module cache"
