"""What the cards on the table allow: where a unit is, what is in force,
and what each unit can reach with an attack. Queries only; the state's
flow (``state.py``) changes the table."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from rules.siege.combat import faces_of
from rules.siege.constants import (
    ATTACKER,
    DEFENDER,
    GROUP_LIMIT,
    LEADER,
    ROW1_LIMIT,
    ROW1_LIMIT_MARSHAL,
    SUPPLY,
)
from rules.siege.data import CARDS, DATA

#: events that forbid the drawer's attacks while in force
NO_ATTACK = ("bad_weather", "papal_injunction", "floods")
FIGHTING = ("troop", "war_machine")


@lru_cache(maxsize=512)  # a game has ~130 uids; the search asks millions of times
def card_of(uid: str) -> str:
    return uid.rsplit("-", 1)[0]


@lru_cache(maxsize=512)
def kind_of(uid: str) -> str:
    """The kind of the unit's card (``CARDS[card_of(uid)].kind``), kept per uid."""
    return CARDS[card_of(uid)].kind


def _line_of(side: int, row: str, walls: bool) -> int:
    """The line of a target in ``row`` of ``side``, counted on its own side:
    the Defender's walls are line 1 and row 2 line 2 (line 1 once no wall
    is left); the Attacker's rows 0 and 1 (and the towers) line 1, row 2 line 2.
    ruling: docs/rulings.md#siege-ranged-lines"""
    if side == DEFENDER:
        return 2 if row == "r2" and walls else 1
    return 2 if row in ("r2", "rc") else 1


#: the only targets ``_may_shoot_at`` may refuse, by their card
_SHOT_ONLY_SOMETIMES = frozenset(("battering_ram", *LEADER))


def _may_shoot_at(card: str, target: str, row: str) -> bool:
    """Whether a shot of ``card`` can hit ``target`` in ``row`` at all:
    rams are hit from afar only by Catapults, and only at the walls;
    leaders fall only to troops in melee.
    ruling: docs/rulings.md#siege-leaders-fall-to-melee"""
    aimed = card_of(target)
    if aimed == "battering_ram" and (card != "catapult" or row != "r0"):
        return False
    return aimed not in LEADER


@lru_cache(maxsize=256)
def _line_faces(seat: int, card: str, line: int, in_tower: bool, walls: bool) -> int:
    """Die faces that hit when ``card`` of ``seat`` shoots at ``line``."""
    table = DATA.ranged[seat].get(card)
    if table is None:
        return 0
    faces = faces_of(table[line])
    if faces and card == "archer":
        # The table's 5-6 for the Defender's archers counts the walls'
        # +1: with no wall left they need a 6. Archers in a Siege Tower
        # gain the same +1, and shoot over the walls (line 1).
        # ruling: docs/rulings.md#siege-archers-and-the-walls
        if seat == DEFENDER and not walls:
            faces -= 1
        if in_tower:
            faces += 1
    return faces


@lru_cache(maxsize=256)
def _lines_hit(seat: int, card: str, in_tower: bool, walls: bool) -> tuple[bool, bool, bool]:
    """Whether a shot of ``card`` hits at all, by the target's line (1, 2;
    index 0 unused); from a tower every target is at line 1."""
    if in_tower:
        return (_line_faces(seat, card, 1, True, walls) > 0,) * 3
    return False, _line_faces(seat, card, 1, False, walls) > 0, _line_faces(seat, card, 2, False, walls) > 0


#: ``_lines_hit`` of every shooter, by seat and card, then by ``2 * in_tower + walls``:
#: a fixed table from the ranged data, read where a menu lists a shooter's targets
_LINES_HIT: tuple[dict[str, tuple[tuple[bool, bool, bool], ...]], ...] = tuple(
    {card: tuple(_lines_hit(seat, card, tower, walls) for tower in (False, True) for walls in (False, True))
     for card in DATA.ranged[seat]}
    for seat in (ATTACKER, DEFENDER))
_NO_LINE = ((False, False, False),) * 4


def _traits_of(uid: str, seat: int) -> tuple[str, str, bool]:
    """The unit's card, its ``Table.mode`` for ``seat`` outside a hand-to-hand
    attack (where an Archer that can brawl fights in melee), and ``can_brawl``."""
    card = card_of(uid)
    c = CARDS[card]
    brawls = c.kind == "troop" and c.ranged and c.melee > 0
    if card == "battering_ram":
        return card, "ram", brawls
    if card == "siege_tower":
        return card, "fill", brawls
    if c.ranged and card in DATA.ranged[seat]:
        return card, "ranged", brawls
    if c.kind == "troop" and c.melee > 0:
        return card, "melee", brawls
    return card, "none", brawls


# ``_traits_of`` kept per seat, each keyed by the unit id alone: the search
# asks millions of times, of the ~130 units a game has, and a cache of one
# string argument answers faster than one keyed by the pair.
@lru_cache(maxsize=1024)
def _attacker_traits(uid: str) -> tuple[str, str, bool]:
    return _traits_of(uid, ATTACKER)


@lru_cache(maxsize=1024)
def _defender_traits(uid: str) -> tuple[str, str, bool]:
    return _traits_of(uid, DEFENDER)


#: by seat
_TRAITS = (_attacker_traits, _defender_traits)


def _traits(uid: str, seat: int) -> tuple[str, str, bool]:
    return _TRAITS[seat](uid)


#: the rows a fighting unit stands in (and row 0's towers, with soldiers inside)
_FIELD = ("r0", "r1", "r2")


class Table:
    """Mixed into the state: reads its rows, towers and events."""

    seat: int
    day: int
    rows: list[dict[str, list[str]]]
    towers: dict[str, list[str]]
    boarded: dict[str, int]
    active: list[dict[str, Any]]
    used: list[str]
    group: list[str]
    hands: list[dict[str, int]]
    hand_to_hand: bool

    def locate(self, uid: str) -> tuple[int, str] | None:
        """(side, row) of a unit on the table; row is a tower id for the
        soldiers inside a Siege Tower."""
        for seat in (ATTACKER, DEFENDER):
            for row, units in self.rows[seat].items():
                if uid in units:
                    return seat, row
        for tower, inside in self.towers.items():
            if uid in inside:
                return ATTACKER, tower
        return None

    def units(self, seat: int) -> list[str]:
        """The seat's fighting cards (troops and war machines) in rows 0-2,
        and the soldiers in its towers; not walls, Moat, food or leaders."""
        rows = self.rows[seat]
        out = [u for r in _FIELD for u in rows[r] if kind_of(u) in FIGHTING]
        towers = self.towers
        if towers:
            for tower in rows["r0"]:
                if tower in towers:
                    out += towers[tower]
        return out

    def hand_size(self, seat: int) -> int:
        return sum(self.hands[seat].values())

    def supplies(self, seat: int) -> list[str]:
        """The food cards on the seat's table: its own, and any a Traitor took."""
        return [u for u in self.rows[seat]["rc"] if kind_of(u) == "supply"]

    def peasants(self) -> list[str]:
        """The Peasants on the Defender's table (the Spear of Destiny's)."""
        return [u for u in self.rows[DEFENDER]["rc"] if card_of(u) == SUPPLY[DEFENDER]]

    def troops_in_play(self, seat: int) -> list[str]:
        """Every "carta Truppa in gioco" of the seat: troops, war machines
        and food cards ("anch'essi delle Truppe").
        ruling: docs/rulings.md#siege-what-is-a-truppa"""
        return self.units(seat) + self.supplies(seat)

    def _walls_stand(self) -> bool:
        """``bool(walls())``, without the list (a loop: faster than any() of a generator)."""
        for u in self.rows[DEFENDER]["r1"]:  # noqa: SIM110
            if card_of(u) == "castle_walls":
                return True
        return False

    def walls(self) -> list[str]:
        return [u for u in self.rows[DEFENDER]["r1"] if card_of(u) == "castle_walls"]

    # moat, leader and sally_blocked: loops, where next() or any() of a
    # generator cost more (the search asks them at nearly every attack question)
    def moat(self) -> str | None:
        for u in self.rows[DEFENDER]["r0"]:
            if card_of(u) == "moat":
                return u
        return None

    def leader(self, seat: int) -> str:
        for u in self.rows[seat]["rc"]:
            if card_of(u) == LEADER[seat]:
                return u
        raise StopIteration(f"no {LEADER[seat]} on the table")

    def has_event(self, seat: int, effects: tuple[str, ...], variant: str | None = None) -> bool:
        for e in self.active:  # most turns none: asked at every step of the flow
            if e["seat"] == seat and CARDS[e["card"]].effect in effects and (
                    variant is None or e["variant"] == variant):
                return True
        return False

    def modifier_in_force(self, seat: int, card: str) -> bool:
        """A modifier card on the table, unless Low Morale sets it aside."""
        for u in self.rows[seat]["rc"]:
            if card_of(u) == card:
                return not (self.active and self.has_event(seat, ("low_morale",), "ignore"))
        return False

    def row1_limit(self) -> int:
        return ROW1_LIMIT_MARSHAL if self.modifier_in_force(ATTACKER, "field_marshal") else ROW1_LIMIT

    def dice_modifier(self, seat: int) -> int:
        return -1 if self.has_event(seat, ("low_morale",), "dice") else 0

    def no_attack(self, seat: int) -> bool:
        return self.has_event(seat, NO_ATTACK)

    # -- attacks ---------------------------------------------------------
    def mode(self, uid: str) -> str:
        card = card_of(uid)
        if card == "battering_ram":
            return "ram"
        if card == "siege_tower":
            return "fill"
        if CARDS[card].ranged and card in DATA.ranged[self.seat]:
            # An Archer shoots, or fights hand to hand when its attack says so.
            return "melee" if self.hand_to_hand and self.can_brawl(uid) else "ranged"
        if CARDS[card].kind == "troop" and CARDS[card].melee > 0:
            return "melee"
        return "none"

    def line(self, target: str) -> int:
        """The target's line counted on its own side (see ``_line_of``)."""
        where = self.locate(target)
        assert where is not None
        return _line_of(where[0], where[1], bool(self.walls()))

    def faces(self, uid: str, target: str) -> int:
        """Die faces that hit when ``uid`` alone shoots at ``target``."""
        return self.group_faces([uid], target)[0]

    def group_faces(self, group: list[str], target: str) -> list[int]:
        """``[faces(u, target) for u in group]``, the target found once."""
        where = self.locate(target)
        if where is None or where[0] == self.seat:
            return [0] * len(group)
        walls = self._walls_stand()
        out = []
        for uid in group:
            card = card_of(uid)
            if not _may_shoot_at(card, target, where[1]):
                out.append(0)
                continue
            in_tower = self.locate(uid)[1] in self.towers  # type: ignore[index]
            line = 1 if in_tower else _line_of(where[0], where[1], walls)
            out.append(_line_faces(self.seat, card, line, in_tower, walls))
        return out

    def ranged_candidates(self) -> list[str]:
        if self.seat == ATTACKER:
            return self.rows[DEFENDER]["r1"] + self.rows[DEFENDER]["r2"]
        return self.units(ATTACKER)

    def melee_targets(self, uid: str) -> list[str]:
        where = self.locate(uid)
        if where is None:
            return []
        return self._melee_from(uid, where[1])

    def _melee_from(self, uid: str, row: str) -> list[str]:
        """``melee_targets(uid)`` of a unit of the seat in ``row`` (a tower id inside one)."""
        seat = self.seat
        if seat == ATTACKER:
            if row == "r1":
                if self._walls_stand() or self.moat():
                    return []
                return [*self.rows[DEFENDER]["r2"], self.leader(DEFENDER)]
            if row in self.towers:  # over the walls, never into the Keep
                if self.day - self.boarded.get(uid, self.day) < (2 if self.moat() else 1):
                    return []
                return list(self.rows[DEFENDER]["r2"])
            return []
        # ruling: docs/rulings.md#siege-sally
        if row != "r2" or self.sally_blocked():
            return []
        rows = self.rows[ATTACKER]
        front = rows["r0"] + rows["r1"]
        if front:
            return front
        if rows["r2"]:
            return list(rows["r2"])
        return [self.leader(ATTACKER)]

    def sally_blocked(self) -> bool:
        for u in self.rows[ATTACKER]["r0"]:  # noqa: SIM110
            if card_of(u) == "battering_ram":
                return True
        return False

    def targets_of(self, uid: str) -> list[str]:
        mode = self.mode(uid)
        row = (self.locate(uid) or (0, ""))[1]
        if mode == "ram":
            if self.seat != ATTACKER or row != "r0":
                return []
            return [w for w in self.walls() if self.faces(uid, w)]
        if mode == "fill":
            moat = self.moat()
            return [moat] if self.seat == ATTACKER and row == "r0" and moat and not self.walls() else []
        if mode == "ranged":
            return [t for t in self.ranged_candidates() if self.faces(uid, t)]
        if mode == "melee":
            return self.melee_targets(uid)
        return []

    def can_brawl(self, uid: str) -> bool:
        """A shooting troop (an Archer) that may also fight hand to hand:
        "Due carte con valori uguali si annullano (es. Arciere contro Arciere)".
        ruling: docs/rulings.md#siege-archers-hand-to-hand"""
        card = CARDS[card_of(uid)]
        return card.kind == "troop" and card.ranged and card.melee > 0

    def attackers(self) -> list[str]:
        return [u for u in self.units(self.seat) if u not in self.used and self.targets_of(u)]

    def brawlers(self) -> list[str]:
        """Archers that can attack hand to hand now (``attack`` with ``melee``)."""
        return [u for u in self.units(self.seat)
                if u not in self.used and self.can_brawl(u) and self.melee_targets(u)]

    def group_targets(self) -> list[str]:
        common = self._reach_of(self.group[0])
        for u in self.group[1:]:
            theirs = set(self._reach_of(u))
            common = [t for t in common if t in theirs]
        return common

    def joiners(self, targets: list[str] | None = None) -> list[str]:
        """``targets``: ``group_targets()`` when the caller has it already."""
        first = card_of(self.group[0])
        if len(self.group) >= GROUP_LIMIT or CARDS[first].kind != "troop":
            return []
        common = set(self.group_targets() if targets is None else targets)
        if not common:
            return []
        seat, group, used = self.seat, self.group, self.used
        known = _TRAITS[seat]
        kept: dict[Any, list[str]] = {}
        out: list[str] = []
        # placed(seat), of the first unit's card only (a troop: a fighting card)
        rows = self.rows[seat]
        for row in _FIELD:
            for u in rows[row]:
                if card_of(u) == first and u not in group and u not in used and not common.isdisjoint(
                        self._reach(u, row, kept, known(u))):
                    out.append(u)
        for tower in rows["r0"]:
            for u in self.towers.get(tower, ()):
                if card_of(u) == first and u not in group and u not in used and not common.isdisjoint(
                        self._reach(u, tower, kept, known(u))):
                    out.append(u)
        return out

    def supporters(self, target: str) -> list[str]:
        # ruling: docs/rulings.md#siege-support
        where = self.locate(target)
        if where is None or where[1] not in ("r0", "r1", "r2"):
            return []
        row = self.rows[where[0]][where[1]]
        i = row.index(target)
        near = [row[j] for j in (i - 1, i + 1) if 0 <= j < len(row)]
        return [u for u in near if CARDS[card_of(u)].kind == "troop"]

    # -- the search's fast paths -------------------------------------------
    # The definitions above state the rules; the moves and the turn's flow
    # ask these instead, millions of times in a search: the same answers
    # (tests/rules/siege/test_fast_paths.py holds them equal over seeded
    # playouts), with each unit's row known from the walk over the rows
    # instead of searched for, and a shooter's faces worked out once a line.

    def placed(self, seat: int) -> list[tuple[str, str]]:
        """``units(seat)``, each with its row (a tower id for the soldiers inside one)."""
        rows = self.rows[seat]
        out = [(u, r) for r in ("r0", "r1", "r2") for u in rows[r] if kind_of(u) in FIGHTING]
        for tower in rows["r0"]:
            out.extend((u, tower) for u in self.towers.get(tower, ()))
        return out

    def reach(self, uid: str, row: str, kept: dict[Any, list[str]] | None = None) -> list[str]:
        """``targets_of(uid)`` of the seat's unit in ``row``. ``kept``: the
        answers that do not depend on the unit itself, kept over one menu:
        what a shooter of one card reaches from a tower or not, and what a
        fighter reaches from a row (not from a tower, where its day aboard counts)."""
        return self._reach(uid, row, kept, _traits(uid, self.seat))

    def _reach(self, uid: str, row: str, kept: dict[Any, list[str]] | None,
               traits: tuple[str, str, bool]) -> list[str]:
        """``reach``, the unit's ``_traits`` given."""
        card, mode, brawls = traits
        if mode == "ranged":
            if not (brawls and self.hand_to_hand):
                if kept is None:
                    return self._shots(card, row in self.towers)
                key = (card, row in self.towers)
                found = kept.get(key)
                if found is None:
                    found = kept[key] = self._shots(card, key[1])
                return found
            mode = "melee"
        if mode == "melee":
            return self._melee_kept(uid, row, kept)
        if mode == "none":
            return []
        if mode == "fill":  # a Siege Tower: the Moat, from row 0 once no wall stands
            moat = self.moat() if self.seat == ATTACKER and row == "r0" else None
            return [moat] if moat and not self._walls_stand() else []
        # a ram: every wall from row 0, when its shot can hit one at all
        if self.seat != ATTACKER or row != "r0" or not _lines_hit(ATTACKER, card, False, True)[1]:
            return []
        return self.walls()

    def _melee_kept(self, uid: str, row: str, kept: dict[Any, list[str]] | None) -> list[str]:
        if kept is None or row in self.towers:
            return self._melee_from(uid, row)
        found = kept.get(row)
        if found is None:
            found = kept[row] = self._melee_from(uid, row)
        return found

    def _reach_of(self, uid: str) -> list[str]:
        """``targets_of(uid)``, through ``reach``."""
        where = self.locate(uid)
        return self.reach(uid, where[1]) if where is not None else self.targets_of(uid)

    def _shots(self, card: str, in_tower: bool) -> list[str]:
        """``[t for t in ranged_candidates() if faces(uid, t)]`` for a shooter
        of ``card`` of the seat, in a tower or not: by rows, each row's line
        counted once (``_line_of``)."""
        walls = self._walls_stand()
        _, near, far = _LINES_HIT[self.seat].get(card, _NO_LINE)[2 * in_tower + walls]
        sometimes = _SHOT_ONLY_SOMETIMES
        out: list[str]
        if self.seat == ATTACKER:
            rows = self.rows[DEFENDER]
            out = [t for t in rows["r1"] if card_of(t) not in sometimes or _may_shoot_at(card, t, "r1")] \
                if near else []
            if far if walls else near:
                out += [t for t in rows["r2"] if card_of(t) not in sometimes or _may_shoot_at(card, t, "r2")]
            return out
        if not (near or far):
            return []
        rows = self.rows[ATTACKER]
        out = []
        for r, hit in (("r0", near), ("r1", near), ("r2", far)):
            if hit:
                out += [t for t in rows[r] if kind_of(t) in FIGHTING
                        and (card_of(t) not in sometimes or _may_shoot_at(card, t, r))]
        if near:
            out.extend(t for tower in rows["r0"] for t in self.towers.get(tower, ())
                       if _may_shoot_at(card, t, tower))
        return out

    def attack_menu(self) -> tuple[list[str], list[str]]:
        """``(attackers(), brawlers())`` in one walk over the seat's units."""
        used, seat = self.used, self.seat
        rows = self.rows[seat]
        known = _TRAITS[seat]
        kept: dict[Any, list[str]] = {}
        attackers: list[str] = []
        brawlers: list[str] = []
        placed = [(u, r) for r in _FIELD for u in rows[r]]
        for tower in rows["r0"]:
            placed.extend((u, tower) for u in self.towers.get(tower, ()))
        for u, row in placed:
            traits = known(u)
            # mode "none": no target and no hand to hand (as in can_attack)
            if traits[1] == "none" or u in used:
                continue
            if self._reach(u, row, kept, traits):
                attackers.append(u)
            if traits[2] and self._melee_kept(u, row, kept):
                brawlers.append(u)
        return attackers, brawlers

    def has_troops(self, seat: int) -> bool:
        """``bool(troops_in_play(seat))``, stopping at the first."""
        rows = self.rows[seat]
        for r in ("r2", "r1", "r0"):  # row 2 first: the Defender's rows 0 and 1 hold his Moat and walls
            for u in rows[r]:
                if kind_of(u) in FIGHTING:
                    return True
        for tower in rows["r0"]:
            if self.towers.get(tower):
                return True
        return any(kind_of(u) == "supply" for u in rows["rc"])

    def can_attack(self) -> bool:
        """``bool(attackers() or brawlers())``, stopping at the first unit that can."""
        used, seat, towers = self.used, self.seat, self.towers
        rows = self.rows[seat]
        known = _TRAITS[seat]
        kept: dict[Any, list[str]] = {}
        tried: set[tuple[str, str]] = set()  # (card, row) with no attack: the same for its like
        for row in _FIELD:
            for u in rows[row]:
                traits = known(u)
                # mode "none": no target, and no hand to hand (only a shooter brawls);
                # the same skips walls, the Moat, food and leaders (units() has no such)
                if traits[1] == "none" or u in used or (traits[0], row) in tried:
                    continue
                if self._reach(u, row, kept, traits) or (traits[2] and self._melee_kept(u, row, kept)):
                    return True
                tried.add((traits[0], row))
        for tower in rows["r0"]:
            for u in towers.get(tower, ()):  # aboard a tower the day it boarded counts: no ``tried``
                if u in used:
                    continue
                traits = known(u)
                if self._reach(u, tower, kept, traits) or (traits[2] and self._melee_kept(u, tower, kept)):
                    return True
        return False
