"""The arithmetic of combat, pure: ranged faces and dice, melee values."""

from __future__ import annotations

from rules.siege.constants import DIE_FACES


def faces_of(need: int | None) -> int:
    """How many die faces hit when ``need`` or more hits (0 for N/A)."""
    return 0 if need is None else DIE_FACES + 1 - need


def group_need(faces: list[int]) -> int:
    """The lowest die result that hits for a group: grouping multiplies the
    faces ("se due truppe sono unite, raddoppiate il valore base"), so two
    archers needing 6 need 5-6, three archers on the walls hit on 1-6."""
    return DIE_FACES + 1 - min(DIE_FACES, sum(faces))


def ranged_hits(roll: int, modifier: int, need: int) -> bool:
    return roll + modifier >= need


def melee_result(attack: int, defence: int, first_attacker: int) -> tuple[bool, bool]:
    """(target dies, one attacking unit dies).

    The bigger value wins, equal values destroy each other; a group is
    summed against the target (plus its supporter), and the defence strikes
    back unit against unit: two Swordsmen (4) kill a Knight (3), and the
    Knight still kills one Swordsman (3 >= 2).
    ruling: docs/rulings.md#siege-group-strikes-back"""
    return attack >= defence, defence >= first_attacker
