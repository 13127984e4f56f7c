"""The game's data files (``data/map.json``, ``data/components.json``), loaded
and checked once at import.

A broken file is refused with :class:`DataError` naming the file, the entry
and what is wrong, so a player correcting the map from the printed board
learns at once what to fix.

Colours follow shared/reference/game-data.md, not the Italian rulebook: Scots
blue, Welsh red, Romano-British yellow. The Italian text calls the Welsh and
Romano-British cubes "gialli/rossi", but its own end-game example needs the
Romano-British yellow, as every English source has them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from rules.datafile import DataError, read_json

DATA_DIR = Path(__file__).parent / "data"
LOYALIST = "black"

_COUNT_NAMES = (
    "followers_per_faction",
    "removed_per_faction_two_players",
    "home_followers",
    "region_followers",
    "court_draw",
    "saxon_tokens",
    "control_tokens_per_faction",
    "crown_tokens",
    "loyalists",
)


@dataclass(frozen=True)
class Faction:
    id: str
    colour: str
    home: str


@dataclass(frozen=True)
class GameData:
    regions: tuple[str, ...]  # map order: the order regions are filled at setup
    borders: Mapping[str, frozenset[str]]
    banners: Mapping[str, str]  # Mordred variant: region resolved -> region that gets a loyalist
    factions: tuple[Faction, ...]
    counts: Mapping[str, int]
    mordred_start: Mapping[str, int]
    cards: Mapping[str, int]  # card id -> copies per player

    @cached_property
    def colours(self) -> tuple[str, ...]:
        # ruling: docs/rulings.md#kid-faction-colours (the data file's colours)
        return tuple(f.colour for f in self.factions)

    @cached_property
    def faction_ids(self) -> tuple[str, ...]:
        return tuple(f.id for f in self.factions)

    @cached_property
    def _by_id(self) -> dict[str, Faction]:
        return {f.id: f for f in self.factions}

    def faction(self, faction_id: str) -> Faction:
        return self._by_id[faction_id]

    @cached_property
    def deck(self) -> tuple[str, ...]:
        """One player's action cards, each copy once, in card-list order."""
        return tuple(card for card, n in self.cards.items() for _ in range(n))


def _read(path: Path) -> Any:
    return read_json(path)


def _provenance(path: Path, entry: str, item: Mapping[str, Any]) -> None:
    if not isinstance(item.get("source"), str) or not item["source"]:
        raise DataError(path, entry, 'needs a "source" saying where the value comes from')
    if not isinstance(item.get("unverified"), bool):
        raise DataError(path, entry, 'needs "unverified": true or false')


def _list(path: Path, data: Any, key: str) -> list[Any]:
    value = data.get(key) if isinstance(data, dict) else None
    if not isinstance(value, list) or not value:
        raise DataError(path, key, "must be a non-empty list")
    return value


def _load_map(path: Path) -> tuple[tuple[str, ...], dict[str, frozenset[str]], dict[str, str]]:
    data = _read(path)
    entries = _list(path, data, "regions")
    names: list[str] = []
    raw: dict[str, list[Any]] = {}
    banners: dict[str, str] = {}
    for i, item in enumerate(entries):
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            raise DataError(path, f"regions[{i}]", 'must be an object with a "name"')
        name = item["name"]
        entry = f"region {name!r}"
        if name in raw:
            raise DataError(path, entry, "listed twice")
        _provenance(path, entry, item)
        if not isinstance(item.get("borders"), list) or not item["borders"]:
            raise DataError(path, entry, '"borders" must be a non-empty list of region names')
        if not isinstance(item.get("banner"), str):
            raise DataError(path, entry, '"banner" must name a region')
        names.append(name)
        raw[name] = item["borders"]
        banners[name] = item["banner"]
    borders: dict[str, frozenset[str]] = {}
    for name in names:
        entry = f"region {name!r}"
        for other in raw[name]:
            if other not in raw:
                raise DataError(path, entry, f"borders {other!r}, which is not a region")
            if other == name:
                raise DataError(path, entry, "borders itself")
            if name not in raw[other]:
                raise DataError(path, entry, f"borders {other!r} but {other!r} does not list {name!r}")
        if len(set(raw[name])) != len(raw[name]):
            raise DataError(path, entry, "lists a border twice")
        if banners[name] not in raw or banners[name] == name:
            raise DataError(path, entry, f"banner {banners[name]!r} must be another region")
        borders[name] = frozenset(raw[name])
    # Every region must be reachable: a split map is a typing mistake.
    seen, todo = {names[0]}, [names[0]]
    while todo:
        for other in borders[todo.pop()]:
            if other not in seen:
                seen.add(other)
                todo.append(other)
    if len(seen) != len(names):
        missing = ", ".join(n for n in names if n not in seen)
        raise DataError(path, "regions", f"the map is split: {missing} cannot be reached from {names[0]}")
    return tuple(names), borders, banners


def _load_components(path: Path, regions: tuple[str, ...]) -> tuple[Any, ...]:
    data = _read(path)
    factions: list[Faction] = []
    for i, item in enumerate(_list(path, data, "factions")):
        entry = f"factions[{i}]"
        if not isinstance(item, dict) or not all(
            isinstance(item.get(k), str) for k in ("id", "colour", "home")
        ):
            raise DataError(path, entry, 'must have "id", "colour" and "home" strings')
        entry = f"faction {item['id']!r}"
        _provenance(path, entry, item)
        if item["home"] not in regions:
            raise DataError(path, entry, f"home {item['home']!r} is not a region of map.json")
        if item["colour"] == LOYALIST:
            raise DataError(path, entry, f"{LOYALIST!r} is the loyalists' colour")
        factions.append(Faction(item["id"], item["colour"], item["home"]))
    for key in ("id", "colour", "home"):
        values = [getattr(f, key) for f in factions]
        if len(set(values)) != len(values):
            raise DataError(path, "factions", f"two factions share a {key}")

    raw_counts = data.get("counts")
    if not isinstance(raw_counts, dict):
        raise DataError(path, "counts", "must be an object")
    counts: dict[str, int] = {}
    for name in _COUNT_NAMES:
        item = raw_counts.get(name)
        if not isinstance(item, dict) or not isinstance(item.get("value"), int) or item["value"] < 0:
            raise DataError(path, f"counts.{name}", 'must be {"value": a whole number >= 0, ...}')
        _provenance(path, f"counts.{name}", item)
        counts[name] = item["value"]
    unknown = set(raw_counts) - set(_COUNT_NAMES)
    if unknown:
        raise DataError(path, "counts", f"unknown entries {sorted(unknown)}")

    mordred: dict[str, int] = {}
    for i, item in enumerate(_list(path, data, "mordred_start")):
        entry = f"mordred_start[{i}]"
        if not isinstance(item, dict) or item.get("region") not in regions:
            raise DataError(path, entry, '"region" must be a region of map.json')
        if not isinstance(item.get("loyalists"), int) or item["loyalists"] < 1:
            raise DataError(path, entry, '"loyalists" must be a whole number >= 1')
        _provenance(path, entry, item)
        mordred[item["region"]] = item["loyalists"]

    cards: dict[str, int] = {}
    for i, item in enumerate(_list(path, data, "cards")):
        entry = f"cards[{i}]"
        if not isinstance(item, dict) or not isinstance(item.get("id"), str):
            raise DataError(path, entry, 'must have an "id"')
        if not isinstance(item.get("count"), int) or item["count"] < 1:
            raise DataError(path, f"card {item['id']!r}", '"count" must be a whole number >= 1')
        _provenance(path, f"card {item['id']!r}", item)
        if item["id"] in cards:
            raise DataError(path, f"card {item['id']!r}", "listed twice")
        cards[item["id"]] = item["count"]
    # The rules name every card; the list must be exactly them.
    expected = {"crown", "garrison", "ambassador", "settlement"} | {f.id for f in factions}
    if set(cards) != expected:
        raise DataError(path, "cards", f"must be exactly {sorted(expected)}, not {sorted(cards)}")
    return tuple(factions), counts, mordred, cards


def _check_totals(path: Path, data: GameData) -> None:
    """Counts that must add up, whatever the values."""
    c = data.counts
    homes = c["home_followers"]
    if homes > c["region_followers"]:
        raise DataError(path, "counts.home_followers", "more than a region holds at setup")
    if sum(data.mordred_start.values()) > c["loyalists"]:
        raise DataError(path, "mordred_start", "more loyalists than the box holds")
    home_of = {f.home for f in data.factions}
    for region, n in data.mordred_start.items():
        if n + (homes if region in home_of else 0) > c["region_followers"]:
            raise DataError(path, "mordred_start", f"{region} would start with more than region_followers")
    for players in (2, 3, 4):
        removed = c["removed_per_faction_two_players"] if players == 2 else 0
        per_faction = c["followers_per_faction"] - removed - homes
        bag = per_faction * len(data.factions)
        needed = c["region_followers"] * len(data.regions) - homes * len(data.factions)
        needed += players * c["court_draw"]
        if per_faction < 0 or bag < needed:
            raise DataError(
                path,
                "counts",
                f"with {players} players the bag ({bag}) cannot fill courts and regions ({needed})",
            )
    if c["saxon_tokens"] < 1 or c["saxon_tokens"] > len(data.regions):
        raise DataError(path, "counts.saxon_tokens", "must be between 1 and the number of regions")


def load(directory: Path = DATA_DIR) -> GameData:
    map_path = directory / "map.json"
    comp_path = directory / "components.json"
    regions, borders, banners = _load_map(map_path)
    factions, counts, mordred, cards = _load_components(comp_path, regions)
    data = GameData(regions, borders, banners, factions, counts, mordred, cards)
    _check_totals(comp_path, data)
    return data


DATA = load()
