"""Siege records written before the players named every choice.

Tablekeeper's first Siege engine put every card entering row 1 or 2 at the
row's right-hand end and made some picks itself: the wall a Horn of Joshua
removes (the rightmost), the food card Famine destroys (the last), the unit
of a group that dies in a lost melee (the first), the Peasant the Spear of
Destiny converts (the last), the place of a reinforcement or of a soldier
stepping down from a tower (the right-hand end). Today each is the player's
move (NOTATION.md, "Older records"). A game recorded before then still
replays exactly as it was played: a move without ``at`` is read as the right
end, and where today's engine waits for a choice that the recorded move does
not make, the old engine's own pick comes first. Play at the table never
comes through here, so it cannot skip a choice.
ruling: docs/rulings.md#siege-older-records
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules.core import Game, IllegalMove, Move, RecordReader, State
from rules.siege import moves as mv
from rules.siege.constants import ATTACKER, DEFENDER
from rules.siege.moves import move_from_json
from rules.siege.state import SiegeState


class SiegeRecordReader(RecordReader):
    """``older`` once a move shows the first engine's notation (a card
    entering a row without ``at``, a pick the record leaves out); ``current``
    once one shows today's (an ``at``, ``raze``, ``place``, a Spear naming
    its Peasant): a record in today's notation never gets a pick made for
    it, and a move it makes out of turn is refused as any other."""

    newer_fields = frozenset({"arriving"})  # reinforcements waiting for their place in row 2

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.current = False

    def implied(self, state: State, data: Any) -> Move | None:
        """The old engine's pick where today's waits for a choice that the
        recorded move does not make; after the last move of a record read
        as older, wherever today's engine waits for one."""
        assert isinstance(state, SiegeState)
        pick = _old_pick(state)
        if pick is None:
            return None
        if data is None:
            return pick if self.older else None
        recorded = move_from_json(data)
        self.current = self.current or _today(recorded)
        if self.current or _allowed(state, recorded):
            return None
        if not self.older and not _fits_after(state, pick, recorded):
            return None  # not the old engine's gap: the move is refused as it is
        self._older(state)
        return pick

    def read(self, state: State, data: Any) -> Move:
        assert isinstance(state, SiegeState)
        recorded = move_from_json(data)
        self.current = self.current or _today(recorded)
        move = _right_end(state, recorded)
        if move != recorded:
            self._older(state)
        return move

    def _older(self, state: SiegeState) -> None:
        """The record is the first engine's: its one reading that no move
        shows (where a lost card a Traitor took goes) is kept too."""
        self.older = state.older_record = True


def _today(move: Move) -> bool:
    """A move only today's notation writes."""
    if isinstance(move, (mv.Raze, mv.Place)):
        return True
    return getattr(move, "at", None) is not None or (isinstance(move, mv.Spear) and move.unit is not None)


def _allowed(state: SiegeState, move: Move) -> bool:
    try:
        state.check(_right_end(state, move))
    except IllegalMove:
        return False
    return True


def _fits_after(state: SiegeState, pick: Move | None, recorded: Move) -> bool:
    """Whether the old engine's picks make room for ``recorded``: it is then
    allowed, or a chance step comes first (a log whose outcomes the seed
    draws)."""
    trial = state.copy()
    while pick is not None:
        trial.apply(pick)
        pick = _old_pick(trial)
    return trial.is_chance() or _allowed(trial, recorded)


def _old_pick(state: SiegeState) -> Move | None:
    """The pick the old engine made itself where today's waits for one."""
    if state.outcome() is not None:
        return None
    if state.phase == "horn":
        return mv.Raze(state.walls()[-1])
    if state.phase == "arrive":
        entry = state.arriving[0]
        return mv.Place(len(state.rows[entry["seat"]][entry["row"]]))
    losses = state.losses or {}
    if state.phase == "lose" and losses.get("reason") == "famine":
        return mv.Lose(unit=state.supplies(state.seat)[-1])
    if state.phase == "lose" and losses.get("reason") == "melee":
        return mv.Lose(unit=losses["units"][0])
    return None


def _right_end(state: SiegeState, move: Move) -> Move:
    """``move`` with the place the old notation left out: the right-hand end
    of the row, where the old engine put the card."""
    if isinstance(move, mv.Play) and move.at is None and _enters_row2(state, move):
        return replace(move, at=len(state.rows[state.seat]["r2"]))
    if isinstance(move, mv.Shift) and move.at is None and move.to == "r1":
        return replace(move, at=len(state.rows[ATTACKER]["r1"]))
    if isinstance(move, mv.Spear) and move.choice != "bonus" and move.unit is None and move.at is None:
        peasants = state.peasants()
        if peasants:
            return replace(move, unit=peasants[-1], at=len(state.rows[DEFENDER]["r2"]))
    return move


def _enters_row2(state: SiegeState, move: mv.Play) -> bool:
    try:
        return state.entry_slots(move.card, move.target) != [None]
    except (KeyError, ValueError):  # no such card: ``check`` names the fault
        return False
