"""Siege: the hard level's playout policy (players.playout.FINE, players.levels:
``Level.plays``), both sides playing as a player would rather than at random.

A random playout ends the attack phase at once as often as it fights, leaves
a Battering Ram in row 1, never pours oil on what reaches the Moat, gives up
a Knight to starvation as readily as an Archer and fights a melee with one
Swordsman where three could join: a playout then tells the search little of
whether a siege is going well. Here each side fights with every unit that
can (the attack phase ends only when nothing is left to attack with, now
and then sooner), joins the most units a group may hold, the Attacker aims
at the walls and the Moat first, the Defender pours and supports when he
can, the Attacker moves his machines and troops forward, and a side gives
up its cheapest unit. Cards are played as randomly as before.

The policy reads the world's public fields only (the table, the attack
being built, the seat to move): a world dealt from the searching seat's
view differs from another only in hands and decks, which it never reads.
"""

from __future__ import annotations

import random

from players.siege_measure import WORTH
from rules.core import Move, State
from rules.siege import moves as mv
from rules.siege.constants import ATTACKER
from rules.siege.table import card_of

#: How often a playout's attack phase goes on fighting while a unit can.
FIGHT = 0.9
#: How often the Attacker's movement steps a unit forward while one can.
ADVANCE = 0.8
#: The Attacker's targets first: what stands between him and the Keep.
_BREACH = frozenset(("castle_walls", "moat"))


def _aim(world: State, legal: list[Move], rng: random.Random) -> Move:
    """Join while the group may grow; then the Attacker's walls and Moat
    first, else any target."""
    joins = [m for m in legal if type(m) is mv.Join]
    if joins:
        return rng.choice(joins)
    targets = [m for m in legal if type(m) is mv.Target]
    if world.seat == ATTACKER:  # type: ignore[attr-defined]
        walls = [m for m in targets if card_of(m.target) in _BREACH]  # type: ignore[attr-defined]
        if walls:
            return rng.choice(walls)
    return rng.choice(targets or legal)


def siege_playout(world: State, legal: list[Move], rng: random.Random) -> Move:
    """A playout's move in Siege for the seat to move (two or more legal)."""
    phase = world.phase  # type: ignore[attr-defined]
    if phase == "attack":
        fights = [m for m in legal if type(m) is not mv.EndPhase]
        return rng.choice(fights) if fights and rng.random() < FIGHT else legal[-1]  # the end: last
    if phase == "aim":
        return _aim(world, legal, rng)
    if phase == "move":
        steps = [m for m in legal if type(m) is not mv.EndPhase]
        if steps and rng.random() < ADVANCE:
            return rng.choice(steps)
        return rng.choice(legal)
    if phase == "pour":
        pours = [m for m in legal if type(m) is mv.Play]
        return rng.choice(pours) if pours else legal[-1]
    if phase == "support":
        helpers = [m for m in legal if type(m) is mv.Support and m.unit is not None]  # type: ignore[attr-defined]
        return rng.choice(helpers) if helpers else legal[-1]
    if phase == "lose":
        units = [m for m in legal if type(m) is mv.Lose and m.unit is not None]  # type: ignore[attr-defined]
        if units:
            cheapest = min(WORTH.get(card_of(m.unit), 0.0) for m in units)  # type: ignore[attr-defined]
            return rng.choice([m for m in units if WORTH.get(card_of(m.unit), 0.0) == cheapest])  # type: ignore[attr-defined]
    return rng.choice(legal)
