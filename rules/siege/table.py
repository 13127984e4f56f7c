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
        out = [u for r in ("r0", "r1", "r2") for u in rows[r] if CARDS[card_of(u)].kind in FIGHTING]
        for tower in rows["r0"]:
            out.extend(self.towers.get(tower, ()))
        return out

    def hand_size(self, seat: int) -> int:
        return sum(self.hands[seat].values())

    def supplies(self, seat: int) -> list[str]:
        """The food cards on the seat's table: its own, and any a Traitor took."""
        return [u for u in self.rows[seat]["rc"] if CARDS[card_of(u)].kind == "supply"]

    def peasants(self) -> list[str]:
        """The Peasants on the Defender's table (the Spear of Destiny's)."""
        return [u for u in self.rows[DEFENDER]["rc"] if card_of(u) == SUPPLY[DEFENDER]]

    def troops_in_play(self, seat: int) -> list[str]:
        """Every "carta Truppa in gioco" of the seat: troops, war machines
        and food cards ("anch'essi delle Truppe").
        ruling: docs/rulings.md#siege-what-is-a-truppa"""
        return self.units(seat) + self.supplies(seat)

    def walls(self) -> list[str]:
        return [u for u in self.rows[DEFENDER]["r1"] if card_of(u) == "castle_walls"]

    def moat(self) -> str | None:
        return next((u for u in self.rows[DEFENDER]["r0"] if card_of(u) == "moat"), None)

    def leader(self, seat: int) -> str:
        return next(u for u in self.rows[seat]["rc"] if card_of(u) == LEADER[seat])

    def has_event(self, seat: int, effects: tuple[str, ...], variant: str | None = None) -> bool:
        return any(
            e["seat"] == seat and CARDS[e["card"]].effect in effects
            and (variant is None or e["variant"] == variant)
            for e in self.active
        )

    def modifier_in_force(self, seat: int, card: str) -> bool:
        """A modifier card on the table, unless Low Morale sets it aside."""
        present = any(card_of(u) == card for u in self.rows[seat]["rc"])
        return present and not self.has_event(seat, ("low_morale",), "ignore")

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
        """The target's line counted on its own side: the Defender's walls
        are line 1 and row 2 line 2 (line 1 once no wall is left); the
        Attacker's rows 0 and 1 (and the towers) line 1, row 2 line 2.
        ruling: docs/rulings.md#siege-ranged-lines"""
        where = self.locate(target)
        assert where is not None
        seat, row = where
        if seat == DEFENDER:
            return 2 if row == "r2" and self.walls() else 1
        return 2 if row in ("r2", "rc") else 1

    def faces(self, uid: str, target: str) -> int:
        """Die faces that hit when ``uid`` alone shoots at ``target``."""
        card, seat = card_of(uid), self.seat
        where = self.locate(target)
        if where is None or where[0] == seat:
            return 0
        # Rams are hit from afar only by Catapults, and only at the walls.
        if card_of(target) == "battering_ram" and (card != "catapult" or where[1] != "r0"):
            return 0
        # Leaders fall only to troops in melee.
        # ruling: docs/rulings.md#siege-leaders-fall-to-melee
        if card_of(target) in LEADER:
            return 0
        in_tower = self.locate(uid)[1] in self.towers  # type: ignore[index]
        table = DATA.ranged[seat].get(card)
        if table is None:
            return 0
        if in_tower:
            line = 1
        elif where[0] == DEFENDER:  # self.line(target), from the place found above
            line = 2 if where[1] == "r2" and self.walls() else 1
        else:
            line = 2 if where[1] in ("r2", "rc") else 1
        need = table[line]
        faces = faces_of(need)
        if faces and card == "archer":
            # The table's 5-6 for the Defender's archers counts the walls'
            # +1: with no wall left they need a 6. Archers in a Siege Tower
            # gain the same +1, and shoot over the walls (line 1).
            # ruling: docs/rulings.md#siege-archers-and-the-walls
            if seat == DEFENDER and not self.walls():
                faces -= 1
            if in_tower:
                faces += 1
        return faces

    def ranged_candidates(self) -> list[str]:
        if self.seat == ATTACKER:
            return self.rows[DEFENDER]["r1"] + self.rows[DEFENDER]["r2"]
        return self.units(ATTACKER)

    def melee_targets(self, uid: str) -> list[str]:
        seat = self.seat
        where = self.locate(uid)
        if where is None:
            return []
        row = where[1]
        if seat == ATTACKER:
            if row == "r1":
                if self.walls() or self.moat():
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
        return any(card_of(u) == "battering_ram" for u in self.rows[ATTACKER]["r0"])

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
        common = self.targets_of(self.group[0])
        for u in self.group[1:]:
            theirs = set(self.targets_of(u))
            common = [t for t in common if t in theirs]
        return common

    def joiners(self) -> list[str]:
        first = card_of(self.group[0])
        if len(self.group) >= GROUP_LIMIT or CARDS[first].kind != "troop":
            return []
        common = set(self.group_targets())
        return [
            u for u in self.units(self.seat)
            if card_of(u) == first and u not in self.group and u not in self.used
            and common.intersection(self.targets_of(u))
        ]

    def supporters(self, target: str) -> list[str]:
        # ruling: docs/rulings.md#siege-support
        where = self.locate(target)
        if where is None or where[1] not in ("r0", "r1", "r2"):
            return []
        row = self.rows[where[0]][where[1]]
        i = row.index(target)
        near = [row[j] for j in (i - 1, i + 1) if 0 <= j < len(row)]
        return [u for u in near if CARDS[card_of(u)].kind == "troop"]
