"""Where a collision is, from CollReg's CollPos, under either reading of it.

NXP's reader library (phhalHw_Rc523) takes CollPos - 1 as a bit index into
the FIFO: counted from bit 0 of the FIFO's first byte, RxAlign included. Other
code counts it from the first bit received. The two agree when RxAlign is 0;
which one a given chip or clone follows is not settled, so the driver copes
with both.
"""

from __future__ import annotations

from dataclasses import dataclass

from drivers.rc522 import chip as r


@dataclass(frozen=True)
class Collision:
    """Where a reply's first collision is, among the bits received."""

    index: int  # 0-based, counted from the first bit received
    uncertain: bool  # the two readings disagree here (and NXP's position was taken)
    proves: str | None  # the reading this CollPos proves (only that one fits), if any


def locate_collision(coll: int, rx_align: int, received: int, reading: str | None) -> Collision | None:
    """Read CollReg for a reply of ``received`` bits stored from bit ``rx_align`` of the FIFO.

    NXP's reading counts CollPos (1-based, 0 meaning 32) from bit 0 of the FIFO's
    first byte, so the collided bit is received bit ``CollPos - 1 - rx_align``;
    the other counts from the first bit received: ``CollPos - 1``. None when
    CollPos is not valid or fits neither reading.
    """
    if coll & r.COLL_POS_NOT_VALID:
        return None
    position = (coll & r.COLL_POS_MASK) or 32
    fifo = position - 1 - rx_align
    first = position - 1
    fifo_fits = 0 <= fifo < received
    first_fits = first < received
    if fifo_fits and first_fits:
        if fifo == first:
            return Collision(first, False, None)
        if reading == r.COLLPOS_RECEIVED:
            return Collision(first, False, None)
        # Still worth checking under NXP's reading: its far side must answer.
        return Collision(fifo, True, None)
    if fifo_fits:
        return Collision(fifo, False, r.COLLPOS_FIFO)
    if first_fits:
        return Collision(first, False, r.COLLPOS_RECEIVED)
    return None
