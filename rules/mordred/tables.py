"""Mordred's printed tables and map, loaded from ``data/*.json`` and validated.

Most values are placeholders (see ``../../shared/reference/game-data.md``):
each entry carries its ``source`` and an ``unverified`` flag, and a player
with the box corrects them by editing the JSON. A file that contradicts
itself is refused at import with :class:`DataError` naming file, entry and
problem, so a typo never turns into a wrong ruling at the table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rules.datafile import DataError, read_json

DATA_DIR = Path(__file__).parent / "data"
ROWS = ("A", "B", "C")
FACES = (1, 2, 3, 4, 5, 6)
#: the building kinds in the order menus offer them; the data must price each.
BUILDINGS = ("village", "town", "small_castle", "large_castle")
#: (building, terrain) the rulebook itself forbids: "non potete costruire una
#: Città in uno spazio con delle Colline". The data must agree (price null).
FORBIDDEN = (("town", "hills"),)


@dataclass(frozen=True)
class Face:
    money: int
    black: bool

    @property
    def men(self) -> int:
        # "dovrete prendere anche quel numero di uomini": a black box gives as
        # many men (and pawn steps) as the pounds it shows.
        return self.money if self.black else 0


@dataclass(frozen=True)
class Space:
    name: str
    terrain: str
    roads: frozenset[str]
    black_frame: bool


@dataclass(frozen=True)
class Tables:
    money: Mapping[str, Mapping[int, Face]]
    attack: Mapping[str, int]  # what a player rolls attacking from this building
    defence: Mapping[str, int]  # what Mordred rolls to take this building
    attack_cost: int
    surcharge: int  # building away from your own pieces, off the black frames
    cost: Mapping[str, Mapping[str, int | None]]  # building -> terrain -> £ (None: forbidden)
    vp: Mapping[str, int]
    per_player: Mapping[str, int]
    men: int
    track_length: int
    dragon: int
    terrains: tuple[str, ...]
    spaces: Mapping[str, Space]
    anglesey: str

    @property
    def black_frames(self) -> frozenset[str]:
        return frozenset(n for n, s in self.spaces.items() if s.black_frame)

    def cheapest(self) -> int:
        """The lowest price of any building anywhere."""
        return min(c for prices in self.cost.values() for c in prices.values() if c is not None)

    def max_income(self) -> int:
        """The most pounds one roll can give (two dice on the best row)."""
        return 2 * max(f.money for row in self.money.values() for f in row.values())

    def max_men(self) -> int:
        """The most Mordred men one roll can give."""
        return 2 * max(f.men for row in self.money.values() for f in row.values())


def load(directory: Path = DATA_DIR) -> Tables:
    """Read and validate every data file in ``directory``."""
    try:
        return _load(directory)
    except DataError as exc:
        raise exc.located(directory) from None


def _load(directory: Path) -> Tables:
    raw = {name: _read(directory, name) for name in ("money", "combat", "buildings", "mordred", "map")}
    terrains, spaces, anglesey = _map(raw["map"])
    cost, vp, per_player, surcharge = _buildings(raw["buildings"], terrains)
    attack, defence, attack_cost = _combat(raw["combat"])
    men, length, dragon = _mordred(raw["mordred"])
    return Tables(
        money=_money(raw["money"]),
        attack=attack,
        defence=defence,
        attack_cost=attack_cost,
        surcharge=surcharge,
        cost=cost,
        vp=vp,
        per_player=per_player,
        men=men,
        track_length=length,
        dragon=dragon,
        terrains=terrains,
        spaces=spaces,
        anglesey=anglesey,
    )


# -- one reader per file ------------------------------------------------------


def _read(directory: Path, name: str) -> dict[str, Any]:
    file = f"{name}.json"
    data = read_json(directory / file)
    _need(isinstance(data, dict), file, "(file)", "must hold a JSON object")
    return data


def _money(data: dict[str, Any]) -> dict[str, dict[int, Face]]:
    file = "money.json"
    rows = _field(data, "rows", dict, file, "rows")
    _need(set(rows) == set(ROWS), file, "rows", f"must be exactly {', '.join(ROWS)}, not {sorted(rows)}")
    out: dict[str, dict[int, Face]] = {}
    for row in ROWS:
        faces = _field(rows, row, dict, file, f"rows.{row}")
        want = {str(f) for f in FACES}
        _need(set(faces) == want, file, f"rows.{row}", f"must give faces 1..6, not {sorted(faces)}")
        out[row] = {}
        for f in FACES:
            where = f"rows.{row}.{f}"
            entry = _field(faces, str(f), dict, file, where)
            _provenance(entry, file, where)
            money = _int(entry, "money", file, where, low=0)
            black = _field(entry, "black", bool, file, where)
            _need(not (black and money == 0), file, where, "a black box must give at least one man")
            out[row][f] = Face(money, black)
    return out


def _combat(data: dict[str, Any]) -> tuple[dict[str, int], dict[str, int], int]:
    file = "combat.json"
    table = _field(data, "buildings", dict, file, "buildings")
    _no_strangers(table, BUILDINGS, file, "buildings")
    attack: dict[str, int] = {}
    defence: dict[str, int] = {}
    for b in BUILDINGS:
        where = f"buildings.{b}"
        entry = _field(table, b, dict, file, where)
        _provenance(entry, file, where)
        attack[b] = _int(entry, "attack", file, where, low=1, high=6)
        defence[b] = _int(entry, "defence", file, where, low=1, high=6)
    return attack, defence, _constant(data, "attack_cost", file)


def _buildings(
    data: dict[str, Any], terrains: tuple[str, ...]
) -> tuple[dict[str, dict[str, int | None]], dict[str, int], dict[str, int], int]:
    file = "buildings.json"
    table = _field(data, "buildings", dict, file, "buildings")
    _no_strangers(table, BUILDINGS, file, "buildings")
    cost: dict[str, dict[str, int | None]] = {}
    vp: dict[str, int] = {}
    per_player: dict[str, int] = {}
    for b in BUILDINGS:
        where = f"buildings.{b}"
        entry = _field(table, b, dict, file, where)
        _provenance(entry, file, where)
        prices = _field(entry, "cost", dict, file, where)
        _no_strangers(prices, terrains, file, f"{where}.cost")
        cost[b] = {}
        for t in terrains:
            _need(
                t in prices, file, f"{where}.cost", f"missing cost on {t} (null if it may not be built there)"
            )
            cost[b][t] = None if prices[t] is None else _int(prices, t, file, f"{where}.cost", low=1)
        _need(any(c is not None for c in cost[b].values()), file, f"{where}.cost", "buildable nowhere")
        for building, terrain in FORBIDDEN:
            if building == b:
                _need(terrain in terrains, "map.json", "terrains", f"must include {terrain!r} (rulebook: "
                      f"no {building} on {terrain})")
                _need(cost[b][terrain] is None, file, f"{where}.cost.{terrain}",
                      f"must be null: the rulebook forbids a {building} on {terrain}")
        vp[b] = _int(entry, "vp", file, where, low=0)
        per_player[b] = _int(entry, "per_player", file, where, low=1)
    return cost, vp, per_player, _constant(data, "away_surcharge", file, low=0)


def _constant(data: dict[str, Any], key: str, file: str, low: int = 1) -> int:
    entry = _field(data, key, dict, file, key)
    _provenance(entry, file, key)
    return _int(entry, "value", file, key, low=low)


def _mordred(data: dict[str, Any]) -> tuple[int, int, int]:
    file = "mordred.json"
    values = {key: _constant(data, key, file, low=0) for key in ("men", "track_length", "dragon")}
    _need(values["men"] >= 2, file, "men", "Mordred needs at least 2 men (one starts on Anglesey)")
    _need(values["track_length"] >= 2, file, "track_length", "the track needs at least 2 spaces")
    last = values["track_length"] - 1
    _need(values["dragon"] <= last, file, "dragon", f"space {values['dragon']} is off the track (0..{last})")
    return values["men"], values["track_length"], values["dragon"]


def _map(data: dict[str, Any]) -> tuple[tuple[str, ...], dict[str, Space], str]:
    file = "map.json"
    _provenance(data, file, "(map)")
    terrains = _field(data, "terrains", list, file, "terrains")
    _need(
        terrains and all(isinstance(t, str) and t for t in terrains) and len(set(terrains)) == len(terrains),
        file,
        "terrains",
        "must be a list of distinct names",
    )
    raw = _field(data, "spaces", dict, file, "spaces")
    _need(bool(raw), file, "spaces", "the map has no spaces")
    spaces: dict[str, Space] = {}
    for name, entry in raw.items():
        where = f"spaces.{name}"
        _need(isinstance(entry, dict), file, where, "must be an object")
        _provenance(entry, file, where, required=False)
        terrain = _field(entry, "terrain", str, file, where)
        _need(
            terrain in terrains, file, where, f"unknown terrain {terrain!r} (terrains: {', '.join(terrains)})"
        )
        roads = _field(entry, "roads", list, file, where)
        for other in roads:
            _need(isinstance(other, str), file, where, f"road {other!r} is not a space name")
            _need(other != name, file, where, "a road from the space to itself")
            _need(other in raw, file, where, f"road to {other!r}, which is not a space on the map")
        _need(len(set(roads)) == len(roads), file, where, "a road listed twice")
        black = _field(entry, "black_frame", bool, file, where)
        spaces[name] = Space(name, terrain, frozenset(roads), black)
    for name, space in spaces.items():
        for other in sorted(space.roads):
            _need(
                name in spaces[other].roads,
                file,
                f"spaces.{name}",
                f"road to {other!r}, but {other!r} has no road back to {name!r}",
            )
    anglesey = _field(data, "anglesey", str, file, "anglesey")
    _need(anglesey in spaces, file, "anglesey", f"{anglesey!r} is not a space on the map")
    _need(
        not spaces[anglesey].black_frame, file, "anglesey", "Mordred's castle cannot be a black-framed space"
    )
    _need(any(s.black_frame for s in spaces.values()), file, "spaces", "no black-framed space to build first")
    seen = {anglesey}
    frontier = [anglesey]
    while frontier:
        for other in spaces[frontier.pop()].roads - seen:
            seen.add(other)
            frontier.append(other)
    cut_off = sorted(set(spaces) - seen)
    _need(not cut_off, file, f"spaces.{cut_off[0] if cut_off else ''}", "no road leads here from Anglesey")
    return tuple(terrains), spaces, anglesey


# -- small checks ------------------------------------------------------------


def _need(cond: Any, file: str, entry: str, problem: str) -> None:
    if not cond:
        raise DataError(file, entry, problem)


def _field(data: Mapping[str, Any], key: str, kind: type, file: str, where: str) -> Any:
    _need(key in data, file, where, f"missing {key!r}")
    value = data[key]
    ok = isinstance(value, kind) and not (kind is not bool and isinstance(value, bool))
    _need(ok, file, where, f"{key!r} must be a {kind.__name__}, not {value!r}")
    return value


def _int(data: Mapping[str, Any], key: str, file: str, where: str, low: int, high: int | None = None) -> int:
    value = _field(data, key, int, file, where)
    _need(value >= low and (high is None or value <= high), file, where, f"{key}={value} is out of range")
    return value


def _provenance(entry: Mapping[str, Any], file: str, where: str, required: bool = True) -> None:
    if required or "source" in entry:
        _need("source" in entry, file, where, "missing 'source' (where the value comes from)")
    if required or "unverified" in entry:
        _need(isinstance(entry.get("unverified"), bool), file, where, "'unverified' must be true or false")


def _no_strangers(data: Mapping[str, Any], known: tuple[str, ...], file: str, where: str) -> None:
    for key in data:
        _need(key in known, file, f"{where}.{key}", f"unknown entry (expected one of {', '.join(known)})")


#: the tables the engine plays with, validated once at import.
TABLES = load()
