"""Artus's data files (``data/ring.json``, ``data/table.json``,
``data/cards.json``, ``data/components.json``), loaded and checked at import.

A broken file is refused with :class:`DataError` naming the file, the entry
and what is wrong, so a player correcting a value from the printed board
learns at once what to fix.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rules.datafile import DataError, read_json

DATA_DIR = Path(__file__).parent / "data"

PILES = ("knight", "king", "scoring")
PRINCE_COLOURS = ("silver", "bronze")
CARD_COLOURS = ("silver", "bronze", "both")
PLATE_COLOURS = ("crown", "green", "yellow", "red")
ACTIONS = {"knight": "knight", "royal": "king", "ring": "king", "score": "scoring", "choice": "scoring"}
EFFECTS = ("all", "all-opposite", "green-yellow-red", "carpet", "three-red")
#: how many Knights each penalised scoring card asks for, by effect
EFFECT_KNIGHTS = {"green-yellow-red": 3, "carpet": 2, "three-red": 3}
PILE_SIZES = {"knight": 8, "king": 8, "scoring": 6}


@dataclass(frozen=True)
class Plate:
    value: int
    colour: str


@dataclass(frozen=True)
class Card:
    id: str
    pile: str
    count: int
    action: str  # knight | royal | ring | score | choice
    colour: str | None = None  # royal and ring cards
    lo: int = 0  # movement range (knight, royal, choice)
    hi: int = 0
    both_ways: bool = False
    effect: str | None = None  # score cards
    penalty: int | None = None


@dataclass(frozen=True)
class Mode:
    hand: Mapping[str, int]
    piles: tuple[str, ...]
    plays_per_turn: int
    draws_per_turn: int
    rounds: int


@dataclass(frozen=True)
class GameData:
    seats: int
    crowns: Mapping[int, str]  # seat -> "large" | "small"
    start_princes: Mapping[int, str]  # seat -> prince colour
    carpet: frozenset[int]
    plates: tuple[Plate, ...]  # by offset counter-clockwise from the King
    cards: Mapping[str, Card]
    knights: Mapping[int, int]  # players -> knights per player
    knights_on_score_track: int
    rings: int
    king_rings: int
    prince_rings: int
    crowning_rings: int
    point_tiles: int
    point_tile_value: int
    modes: Mapping[str, Mode]

    @property
    def large_crown(self) -> int:
        return next(s for s, size in self.crowns.items() if size == "large")

    def pile_cards(self, pile: str) -> list[str]:
        """One player's cards of a pile, each copy once, sorted."""
        return sorted(c.id for c in self.cards.values() if c.pile == pile for _ in range(c.count))


def _read(path: Path) -> Any:
    return read_json(path)


def _list(path: Path, data: Any, key: str) -> list[Any]:
    if not isinstance(data, dict) or not isinstance(data.get(key), list):
        raise DataError(path, key, "must be a list under the top-level object")
    return data[key]


def _int(path: Path, entry: str, value: Any, lo: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise DataError(path, entry, f"must be an integer, not {value!r}")
    if lo is not None and value < lo:
        raise DataError(path, entry, f"must be at least {lo}, not {value}")
    return value


def _provenance(path: Path, entry: str, item: Mapping[str, Any]) -> None:
    if not isinstance(item.get("provenance"), str) or not item["provenance"].strip():
        raise DataError(path, entry, "needs a provenance (where the value comes from)")
    if not isinstance(item.get("unverified", False), bool):
        raise DataError(path, entry, "'unverified' must be true or false")


def _load_ring(path: Path) -> tuple[int, dict[int, str], dict[int, str], frozenset[int]]:
    seats = _list(path, _read(path), "seats")
    crowns: dict[int, str] = {}
    princes: dict[int, str] = {}
    carpet: set[int] = set()
    for i, item in enumerate(seats):
        entry = f"seats[{i}]"
        if not isinstance(item, dict):
            raise DataError(path, entry, "must be an object")
        _provenance(path, entry, item)
        if item.get("seat") != i:
            raise DataError(path, entry, f"'seat' must be {i}: seats are listed clockwise from 0")
        if "crown" in item:
            if item["crown"] not in ("large", "small"):
                raise DataError(path, entry, f"crown must be 'large' or 'small', not {item['crown']!r}")
            if item.get("prince") not in PRINCE_COLOURS:
                raise DataError(path, entry, "a crown seat needs a starting prince, 'silver' or 'bronze'")
            crowns[i] = item["crown"]
            princes[i] = item["prince"]
        elif "prince" in item:
            raise DataError(path, entry, "a prince starts only on a crown seat")
        if item.get("carpet", False) is True:
            carpet.add(i)
        elif item.get("carpet", False) is not False:
            raise DataError(path, entry, "'carpet' must be true or false")
    n = len(seats)
    if len(crowns) != 4 or sorted(crowns.values()).count("large") != 1:
        raise DataError(path, "seats", "needs four crown seats, exactly one of them large")
    for seat, colour in princes.items():
        if n % 2 or princes.get((seat + n // 2) % n) != colour:
            raise DataError(path, f"seats[{seat}]", f"the {colour} prince needs a {colour} prince opposite")
    if len(carpet) != 6:
        raise DataError(path, "seats", f"needs six carpet chairs, not {len(carpet)}")
    return n, crowns, princes, frozenset(carpet)


def _load_table(path: Path, seats: int) -> tuple[Plate, ...]:
    plates = _list(path, _read(path), "plates")
    if len(plates) != seats:
        raise DataError(path, "plates", f"needs one plate per seat: {seats}, not {len(plates)}")
    out = []
    for i, item in enumerate(plates):
        entry = f"plates[{i}]"
        if not isinstance(item, dict):
            raise DataError(path, entry, "must be an object")
        _provenance(path, entry, item)
        if item.get("offset") != i:
            raise DataError(path, entry, f"'offset' must be {i}: plates are listed counter-clockwise")
        value = _int(path, entry + ".value", item.get("value"))
        colour = item.get("colour")
        if colour not in PLATE_COLOURS:
            raise DataError(path, entry, f"colour must be one of {', '.join(PLATE_COLOURS)}, not {colour!r}")
        if (i == 0) != (colour == "crown"):
            raise DataError(path, entry, "the crown plate is offset 0, and only there")
        fits = {"crown": value == 0, "green": value > 0, "yellow": value == 0, "red": value < 0}[colour]
        if not fits:
            raise DataError(path, entry, f"a {colour} plate cannot be worth {value}")
        out.append(Plate(value, colour))
    return tuple(out)


def _range(path: Path, entry: str, item: Mapping[str, Any]) -> tuple[int, int, bool]:
    lo = _int(path, entry + ".min", item.get("min"), 1)
    hi = _int(path, entry + ".max", item.get("max"), lo)
    both = item.get("both_ways", False)
    if not isinstance(both, bool):
        raise DataError(path, entry, "'both_ways' must be true or false")
    return lo, hi, both


def _load_cards(path: Path, seats: int) -> dict[str, Card]:
    items = _list(path, _read(path), "cards")
    cards: dict[str, Card] = {}
    for i, item in enumerate(items):
        entry = f"cards[{i}]"
        if not isinstance(item, dict):
            raise DataError(path, entry, "must be an object")
        cid = item.get("id")
        if not isinstance(cid, str) or not cid:
            raise DataError(path, entry, "needs an 'id'")
        entry = f"card {cid!r}"
        if cid in cards:
            raise DataError(path, entry, "id used twice")
        _provenance(path, entry, item)
        action = item.get("action")
        if action not in ACTIONS:
            raise DataError(path, entry, f"action must be one of {', '.join(ACTIONS)}, not {action!r}")
        if item.get("pile") != ACTIONS[action]:
            raise DataError(path, entry, f"a {action} card belongs in the {ACTIONS[action]} pile")
        count = _int(path, entry + ".count", item.get("count", 1), 1)
        card = Card(cid, ACTIONS[action], count, action)
        if action in ("royal", "ring") and item.get("colour") not in CARD_COLOURS:
            raise DataError(path, entry, f"colour must be one of {', '.join(CARD_COLOURS)}")
        if action in ("knight", "royal", "choice"):
            lo, hi, both = _range(path, entry, item)
            if hi >= seats // 2:
                raise DataError(path, entry, f"range {lo}-{hi} is too long for a ring of {seats} seats")
            card = Card(cid, card.pile, count, action, item.get("colour"), lo, hi, both)
        elif action == "ring":
            card = Card(cid, card.pile, count, action, item["colour"])
        else:
            effect = item.get("effect")
            if effect not in EFFECTS:
                raise DataError(path, entry, f"effect must be one of {', '.join(EFFECTS)}, not {effect!r}")
            penalty = item.get("penalty")
            if (penalty is None) == (effect in EFFECT_KNIGHTS):
                raise DataError(
                    path, entry, f"a {effect} card {'needs' if penalty is None else 'has no'} penalty"
                )
            if penalty is not None:
                _int(path, entry + ".penalty", penalty)
            card = Card(cid, card.pile, count, action, effect=effect, penalty=penalty)
        cards[cid] = card
    for pile, size in PILE_SIZES.items():
        got = sum(c.count for c in cards.values() if c.pile == pile)
        if got != size:
            raise DataError(path, f"{pile} pile", f"needs {size} cards, not {got}")
    return cards


def _load_components(path: Path, cards: Mapping[str, Card]) -> dict[str, Any]:
    data = _read(path)
    if not isinstance(data, dict):
        raise DataError(path, "file", "must be an object")
    _provenance(path, "file", data)
    try:
        knights = {int(k): _int(path, f"knights.{k}", v, 2) for k, v in data["knights"].items()}
        modes = {}
        for name, m in data["modes"].items():
            entry = f"modes.{name}"
            piles = tuple(m["piles"])
            if not set(piles) <= set(PILES) or not set(m["hand"]) <= set(piles):
                raise DataError(path, entry, f"piles and hand must name piles among {', '.join(PILES)}")
            mode = Mode(
                {k: _int(path, f"{entry}.hand.{k}", v, 0) for k, v in m["hand"].items()},
                piles,
                _int(path, entry + ".plays_per_turn", m["plays_per_turn"], 1),
                _int(path, entry + ".draws_per_turn", m["draws_per_turn"], 1),
                _int(path, entry + ".rounds", m["rounds"], 1),
            )
            total = sum(c.count for c in cards.values() if c.pile in piles)
            if mode.rounds * mode.plays_per_turn != total:
                raise DataError(path, entry, f"{mode.rounds} rounds do not play out {total} cards")
            if mode.plays_per_turn != mode.draws_per_turn:
                raise DataError(path, entry, "a turn must draw as many cards as it plays")
            modes[name] = mode
        out = {
            "knights": knights,
            "knights_on_score_track": _int(path, "knights_on_score_track", data["knights_on_score_track"], 0),
            "rings": _int(path, "rings", data["rings"], 1),
            "king_rings": _int(path, "start_rings.king", data["start_rings"]["king"], 1),
            "prince_rings": _int(path, "start_rings.prince", data["start_rings"]["prince"], 1),
            "crowning_rings": _int(path, "crowning_rings", data["crowning_rings"], 2),
            "point_tiles": _int(path, "point_tiles", data["point_tiles"], 0),
            "point_tile_value": _int(path, "point_tile_value", data["point_tile_value"], 1),
            "modes": modes,
        }
    except (KeyError, TypeError, AttributeError) as exc:
        raise DataError(path, "file", f"missing or malformed field {exc}") from None
    if set(out["modes"]) != {"beginner", "advanced"}:
        raise DataError(path, "modes", "needs exactly 'beginner' and 'advanced'")
    return out


def load(directory: Path = DATA_DIR) -> GameData:
    seats, crowns, princes, carpet = _load_ring(directory / "ring.json")
    plates = _load_table(directory / "table.json", seats)
    cards = _load_cards(directory / "cards.json", seats)
    comp = _load_components(directory / "components.json", cards)
    path = directory / "components.json"
    if comp["king_rings"] != comp["crowning_rings"]:
        raise DataError(path, "start_rings.king", "the King starts with the crowning number of rings")
    for players, knights in comp["knights"].items():
        on_table = players * (knights - comp["knights_on_score_track"]) + len(princes)
        if on_table >= seats:
            raise DataError(path, f"knights.{players}", f"{on_table} figures leave no empty seat of {seats}")
    return GameData(
        seats=seats,
        crowns=crowns,
        start_princes=princes,
        carpet=carpet,
        plates=plates,
        cards=cards,
        **comp,
    )


DATA = load()
