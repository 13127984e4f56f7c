"""Siege: the search's measure of the public position (players.evaluation).

The public score (players.simple, the units in each side's rows) counts a
Castle Walls section as much as a Knight and sees nothing of how the game is
won. Siege ends when the Attacker's troops take the Castle Keep (through a
breach: no wall and no Moat left, a troop in his row 1), when the Defender's
sally kills the Commander (the Attacker's rows 0 to 2 empty, a fighting
troop in the Defender's row 2, no Battering Ram at the walls), or when the
Attacker has nothing left to draw (the siege lifted). Random play ends most
games by the sally. So this measure counts, for the Attacker: the walls and
the Moat still standing against him, each side's forces by what they fight
with, the Commander's screen (how few units stand before him) and, once the
walls are breached, the troops at the breach; the food each side has on
the table and likely holds, and the Attacker's time running out. A food card
on the table counts for more than a Knight: with none a side feeds a whole
day every turn and a troop starves whenever its hand holds no food (counted
like a Swordsman, the Defender's only Peasant was traded for one by the
Spear of Destiny and his troops starved: bench/README.md). Only the table, the discards,
the hands' sizes and the decks' sizes are read: all public.
"""

from __future__ import annotations

from rules.core import State
from rules.siege.constants import ATTACKER, DEFENDER, SUPPLY
from rules.siege.data import DATA
from rules.siege.table import card_of

#: What a unit on the table is worth to its side (a Knight's 3 the scale).
WORTH = {
    "knight": 3.0, "swordsman": 2.0, "archer": 1.5,
    "catapult": 2.0, "ballista": 1.5, "battering_ram": 2.0, "siege_tower": 2.0,
    "field_marshal": 0.5, "stonemason": 0.5,
}
#: Cards that fight hand to hand: what a sally or a breach needs.
FIGHTERS = frozenset(("knight", "swordsman", "archer"))
WALL = 2.0  # a Castle Walls section standing
MOAT = 2.0
FORCE = 0.5  # per point of WORTH
HAND = 0.3  # per card in hand (its size is public)
#: The Commander with nobody before him, a sally ready: most of a lost game.
EXPOSED = 8.0
#: ... with one unit before him.
THIN = 2.0
#: The breach open and a fighting troop of the Attacker's in row 1: the Keep
#: falls to his next melee (defence 0).
BREACH = 8.0
#: A Battering Ram at standing walls (it can strike them, and it stops a
#: sally), and a Siege Tower at the Moat once no wall is left (it can fill
#: it): a step towards the breach, one of each counted.
RAM_AT_WALLS = 1.0
TOWER_AT_MOAT = 1.5
#: Per food card a side is likely to hold (it feeds the troops; without one
#: a troop starves): its food cards not on the table nor in its discards,
#: shared out over its hand and deck by their sizes (what is in the hand is
#: secret). Two at most count.
FOOD = 1.0
#: Per food card a side has on the table (two at most: the rule's limit):
#: each feeds half a day every day until Famine takes it.
FED = 3.0
#: Each side's food cards in all (its deck's, the opening layout's included).
_FOOD_CARDS = (DATA.decks["attacker"][SUPPLY[ATTACKER]], DATA.decks["defender"][SUPPLY[DEFENDER]])
#: The Attacker's decks (normal and events) below this many cards: time runs short.
SHORT = 10
LIFT = 4.0  # all of it at an empty deck


def _food_in_hand(world: State, side: int, on_table: list[str]) -> float:
    """The food cards ``side`` is likely to hold, from what the public sees."""
    hand = world.hand_size(side)  # type: ignore[attr-defined]
    if not hand:
        return 0.0
    food = SUPPLY[side]
    unseen = (_FOOD_CARDS[side] - sum(1 for u in on_table if card_of(u) == food)
              - world.discards[side].get(food, 0))  # type: ignore[attr-defined]
    pool = hand + sum(world.decks[side]["normal"].values())  # type: ignore[attr-defined]
    return min(2.0, hand * max(unseen, 0) / pool)


def _on_table(units: list[str], side: int) -> int:
    food = SUPPLY[side]
    return min(2, sum(1 for u in units if card_of(u) == food))


def _worth(units: list[str]) -> float:
    return sum(WORTH.get(card_of(u), 0.0) for u in units)


def siege(world: State, seat: int) -> float:
    """How good ``world`` is for ``seat``: the Attacker's margin, or for the
    Defender its negative."""
    rows = world.rows  # type: ignore[attr-defined]
    att, dfn = rows[ATTACKER], rows[DEFENDER]
    walls = sum(1 for u in dfn["r1"] if card_of(u) == "castle_walls")
    moat = any(card_of(u) == "moat" for u in dfn["r0"])
    inside = [u for soldiers in world.towers.values() for u in soldiers]  # type: ignore[attr-defined]
    front = att["r0"] + att["r1"] + att["r2"]
    value = -WALL * walls - MOAT * moat
    value += FORCE * (_worth(front) + _worth(att["rc"]) + _worth(inside)
                      - _worth(dfn["r2"]) - _worth(dfn["rc"]))
    value += HAND * (world.hand_size(ATTACKER) - world.hand_size(DEFENDER))  # type: ignore[attr-defined]
    value += FED * (_on_table(att["rc"], ATTACKER) - _on_table(dfn["rc"], DEFENDER))
    value += FOOD * (_food_in_hand(world, ATTACKER, att["rc"]) - _food_in_hand(world, DEFENDER, dfn["rc"]))
    sally = (any(card_of(u) in FIGHTERS for u in dfn["r2"])
             and not any(card_of(u) == "battering_ram" for u in att["r0"]))
    if sally:
        screen = len(front)  # a Siege Tower in row 0 counts, not the soldiers inside it
        if screen == 0:
            value -= EXPOSED
        elif screen == 1:
            value -= THIN
    at_walls = {card_of(u) for u in att["r0"]}
    if walls and "battering_ram" in at_walls:
        value += RAM_AT_WALLS
    if not walls and moat and "siege_tower" in at_walls:
        value += TOWER_AT_MOAT
    if not walls and not moat and any(card_of(u) in FIGHTERS for u in att["r1"]):
        value += BREACH
    decks = world.decks[ATTACKER]  # type: ignore[attr-defined]
    left = sum(decks["normal"].values()) + sum(decks["events"].values())
    if left < SHORT:
        value -= LIFT * (SHORT - left) / SHORT
    return value if seat == ATTACKER else -value
