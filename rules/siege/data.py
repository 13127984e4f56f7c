"""Loads and validates the card lists, the ranged table and the opening
layout in ``data/``. Every problem names the file, the entry and what is
wrong, so a player correcting a value from the box gets a clear answer."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rules.datafile import DataError, read_json
from rules.siege.constants import SIDES

DATA_DIR = Path(__file__).parent / "data"

KINDS = ("troop", "war_machine", "modifier", "supply", "action", "fortification", "leader", "event")
EFFECTS = (
    "plague", "low_morale", "bad_weather", "famine", "papal_injunction", "floods",
    "reinforcement", "horn_of_joshua", "spear_of_destiny",
)
#: the values each kind must carry (the engine reads them).
REQUIRED = {
    "troop": ("melee", "defence"), "war_machine": ("shield",), "leader": ("defence",), "event": ("effect",),
}
#: the cards the engine gives special rules to: they must exist.
ENGINE_CARDS = (
    "commander", "supply_wagon", "knight", "swordsman", "archer", "catapult", "ballista", "battering_ram",
    "siege_tower", "field_marshal", "assassin", "traitor", "castle_keep", "castle_walls", "moat", "peasant",
    "stonemason", "oil", "pitch", "lead",
)
DECK_NAMES = ("attacker", "attacker_events", "defender", "defender_events")
ROW_NAMES = ("r0", "r1", "r2", "rc")


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    name_it: str
    kind: str
    melee: int = 0
    defence: int = 0
    shield: int = 0
    capacity: int = 0
    mounted: bool = False
    ranged: bool = False
    effect: str = ""
    troop: str = ""
    delay_days: int = 0
    unverified: bool = False


@dataclass(frozen=True)
class SiegeData:
    cards: dict[str, Card]
    decks: dict[str, dict[str, int]]  # deck name -> card -> count (layout included)
    ranged: tuple[dict[str, dict[int, int | None]], ...]  # by seat: card -> line -> lowest hit
    layout: tuple[dict[str, list[str]], ...]  # by seat: row -> cards


def _read(folder: Path, name: str) -> dict[str, Any]:
    raw = read_json(folder / name)
    if not isinstance(raw, dict):
        raise DataError(name, "-", "the top level must be an object")
    return raw


def _int(value: Any, file: str, entry: str, field: str, low: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise DataError(file, entry, f"{field} must be an integer >= {low}, not {value!r}")
    return value


def _provenance(item: Any, file: str, entry: str) -> None:
    if not isinstance(item, dict):
        raise DataError(file, entry, "must be an object")
    if not isinstance(item.get("provenance"), str) or not item["provenance"].strip():
        raise DataError(file, entry, "has no provenance")
    if "unverified" in item and not isinstance(item["unverified"], bool):
        raise DataError(file, entry, "unverified must be true or false")


def _cards(raw: dict[str, Any]) -> dict[str, Card]:
    f = "cards.json"
    entries = raw.get("cards")
    if not isinstance(entries, dict) or not entries:
        raise DataError(f, "cards", "missing or empty")
    cards: dict[str, Card] = {}
    for cid, item in entries.items():
        _provenance(item, f, cid)
        kind = item.get("kind")
        if kind not in KINDS:
            raise DataError(f, cid, f"unknown kind {kind!r}; known kinds: {', '.join(KINDS)}")
        for need in REQUIRED.get(kind, ()):
            if need not in item:
                raise DataError(f, cid, f"a {kind} card needs a {need} value")
        if kind == "event" and item["effect"] not in EFFECTS:
            raise DataError(f, cid, f"unknown effect {item['effect']!r}")
        if item.get("effect") == "reinforcement":
            for need in ("troop", "delay_days"):
                if need not in item:
                    raise DataError(f, cid, f"a reinforcement needs a {need} value")
        for field in ("name", "name_it"):
            if not isinstance(item.get(field), str):
                raise DataError(f, cid, f"{field} must be a string")
        cards[cid] = Card(
            id=cid, name=item["name"], name_it=item["name_it"], kind=kind,
            melee=_int(item.get("melee", 0), f, cid, "melee"),
            defence=_int(item.get("defence", 0), f, cid, "defence"),
            shield=_int(item.get("shield", 1), f, cid, "shield", 1 if kind == "war_machine" else 0),
            capacity=_int(item.get("capacity", 0), f, cid, "capacity"),
            mounted=bool(item.get("mounted", False)), ranged=bool(item.get("ranged", False)),
            effect=item.get("effect", ""), troop=item.get("troop", ""),
            delay_days=_int(item.get("delay_days", 0), f, cid, "delay_days"),
            unverified=bool(item.get("unverified", False)),
        )
    for cid in ENGINE_CARDS:
        if cid not in cards:
            raise DataError(f, cid, "missing: the engine needs this card")
    for card in cards.values():
        if card.effect == "reinforcement" and cards.get(card.troop) is None:
            raise DataError(f, card.id, f"reinforcement troop {card.troop!r} is not a card")
        if card.effect == "reinforcement" and cards[card.troop].kind != "troop":
            raise DataError(f, card.id, f"reinforcement {card.troop!r} is not a troop")
    if cards["siege_tower"].capacity < 1:
        raise DataError(f, "siege_tower", "capacity must be at least 1")
    return cards


def _decks(raw: dict[str, Any], cards: dict[str, Card]) -> dict[str, dict[str, int]]:
    f = "cards.json"
    entries = raw.get("decks")
    if not isinstance(entries, dict):
        raise DataError(f, "decks", "missing")
    decks: dict[str, dict[str, int]] = {}
    for name in DECK_NAMES:
        deck = entries.get(name)
        if deck is None:
            raise DataError(f, f"decks.{name}", "missing")
        _provenance(deck, f, f"decks.{name}")
        total = _int(deck.get("total"), f, f"decks.{name}", "total", 1)
        counts: dict[str, int] = {}
        if not isinstance(deck.get("cards"), dict):
            raise DataError(f, f"decks.{name}", "cards must be an object")
        for cid, item in deck["cards"].items():
            entry = f"decks.{name}.{cid}"
            _provenance(item, f, entry)
            if cid not in cards:
                raise DataError(f, entry, "no such card in cards")
            is_event = cards[cid].kind == "event"
            if is_event != name.endswith("_events"):
                raise DataError(f, entry, f"a {cards[cid].kind} card does not belong in the {name} deck")
            counts[cid] = _int(item.get("count"), f, entry, "count", 1)
        if sum(counts.values()) != total:
            raise DataError(f, f"decks.{name}", f"the counts add up to {sum(counts.values())}, not {total}")
        decks[name] = counts
    return decks


def _ranged(raw: dict[str, Any], cards: dict[str, Card]) -> tuple[dict[str, dict[int, int | None]], ...]:
    f = "ranged.json"
    _provenance(raw, f, "table")
    table = raw.get("table")
    if not isinstance(table, dict):
        raise DataError(f, "table", "missing")
    out = []
    for side in SIDES:
        rows = table.get(side)
        if not isinstance(rows, dict) or not rows:
            raise DataError(f, side, "missing")
        parsed: dict[str, dict[int, int | None]] = {}
        for cid, lines in rows.items():
            entry = f"{side}.{cid}"
            if cid not in cards:
                raise DataError(f, entry, "no such card")
            if not isinstance(lines, dict) or set(lines) != {"1", "2"}:
                raise DataError(f, entry, 'needs exactly the lines "1" and "2"')
            parsed[cid] = {}
            for line, need in lines.items():
                bad = not isinstance(need, int) or isinstance(need, bool) or not 1 <= need <= 6
                if need is not None and bad:
                    raise DataError(f, f"{entry}.{line}", f"must be a die result 1..6 or null, not {need!r}")
                parsed[cid][int(line)] = need
        for cid in ("archer", "ballista", "catapult", "battering_ram"):
            if cid not in parsed:
                raise DataError(f, f"{side}.{cid}", "missing: the table is incomplete")
        out.append(parsed)
    return tuple(out)


def _layout(raw: dict[str, Any], cards: dict[str, Card], decks: dict[str, dict[str, int]]) -> tuple:
    f = "layout.json"
    _provenance(raw, f, "layout")
    out = []
    for side in SIDES:
        rows = raw.get(side)
        if not isinstance(rows, dict) or set(rows) != set(ROW_NAMES):
            raise DataError(f, side, f"needs exactly the rows {', '.join(ROW_NAMES)}")
        used: dict[str, int] = {}
        for row, names in rows.items():
            if not isinstance(names, list):
                raise DataError(f, f"{side}.{row}", "must be a list of cards")
            for cid in names:
                if cid not in cards:
                    raise DataError(f, f"{side}.{row}", f"no such card {cid!r}")
                used[cid] = used.get(cid, 0) + 1
        for cid, n in used.items():
            if decks[side].get(cid, 0) < n:
                raise DataError(f, f"{side}.{cid}", f"the layout needs {n} but the {side} deck holds "
                                f"{decks[side].get(cid, 0)}")
        out.append({row: list(rows[row]) for row in ROW_NAMES})
    leaders = ("commander", "castle_keep")
    for seat, leader in enumerate(leaders):
        if out[seat]["rc"].count(leader) != 1:
            raise DataError(f, f"{SIDES[seat]}.rc", f"needs exactly one {leader}")
    return tuple(out)


def load(folder: Path = DATA_DIR) -> SiegeData:
    try:
        return _load(folder)
    except DataError as exc:
        raise exc.located(folder) from None


def _load(folder: Path) -> SiegeData:
    raw_cards = _read(folder, "cards.json")
    cards = _cards(raw_cards)
    decks = _decks(raw_cards, cards)
    ranged = _ranged(_read(folder, "ranged.json"), cards)
    layout = _layout(_read(folder, "layout.json"), cards, decks)
    return SiegeData(cards=cards, decks=decks, ranged=ranged, layout=layout)


DATA = load()
CARDS = DATA.cards
