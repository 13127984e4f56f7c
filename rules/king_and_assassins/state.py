"""The game in progress: its fields, the effects of each move, the views.

Steps (``phase``): ``choose`` (the Assassin player's secret pick) -> ``start``
(side B only: the king's start cell) -> per round ``draw`` (chance: the round
card) -> ``king`` (seat 0) -> ``assassin`` (seat 1) -> ``draw`` ... -> ``over``.

Secrets: ``assassins`` (the three chosen citizens) is known to seat 1 only.
Nothing the public or seat 0 sees (views, public events, seat 0's legal moves
and refusals) may depend on it; ``perturb_secrets`` lets the conformance suite
check that. Which moves are legal, and why not, is in legality.py.
"""

from __future__ import annotations

import random
from typing import Any

from rules.core import JSON, Event, Move, Outcome, State
from rules.king_and_assassins import moves as mv
from rules.king_and_assassins.data import ASSASSINS, ROUND_CARDS
from rules.king_and_assassins.legality import ASSASSIN_SEAT, GAME_ID, KING_SEAT, SEAT_OF_PHASE, Legality
from rules.king_and_assassins.pieces import CITIZEN_NAMES, KING, KNIGHT_NAMES, kind

__all__ = ["ASSASSIN_SEAT", "GAME_ID", "KING_SEAT", "KAState"]


def deck_for(side: str) -> list[int]:
    # Setup lato B: the red-crystal card goes back in the box.
    return sorted(c.id for c in ROUND_CARDS.values() if side == "A" or not c.red_crystal)


class KAState(Legality, State):
    game_id = GAME_ID

    def __init__(self, players: int, seed: int, options: dict[str, Any]) -> None:
        super().__init__(players, seed, options)
        self.side: str = options["side"]
        board = self.board
        self.phase = "choose"
        self.deck = deck_for(self.side)
        self.card: int | None = None
        self.round = 0
        # Citizens go on the board first; on side B the king and knights come after the pick.
        self.pos: dict[str, int] = dict(zip(CITIZEN_NAMES, board.citizens, strict=True))
        if len(board.starts) == 1:
            self._place_king(board.starts[0].king)
        self.assassins: list[str] = []
        self.revealed: list[str] = []
        self.arrested: list[str] = []
        self.eliminated: list[str] = []
        self.knights_lost: list[str] = []
        self.wounds = 0
        self.ap = {"king": 0, "knights": 0, "assassins": 0}
        self.kills = 0
        self.arrests = 0
        self.result: tuple[int, str] | None = None
        self._reindex()

    # -- small helpers ----------------------------------------------------
    def _reindex(self) -> None:
        self.at: dict[int, str] = {cell: piece for piece, cell in self.pos.items()}

    def _place_king(self, cell: int) -> None:
        board = self.board
        start = next(s for s in board.starts if s.king == cell)
        self.pos[KING] = cell
        self.pos.update(zip(KNIGHT_NAMES, (*start.knights, *board.knights), strict=True))

    def _put(self, piece: str, cell: int) -> None:
        del self.at[self.pos[piece]]
        self.pos[piece] = cell
        self.at[cell] = piece

    def _remove(self, piece: str) -> int:
        cell = self.pos.pop(piece)
        del self.at[cell]
        return cell

    def _gone(self) -> int:
        return sum(1 for c in self.assassins if c in self.arrested or c in self.eliminated)

    def copy(self) -> KAState:
        # Faster than deepcopy: every container holds only immutable values.
        new = object.__new__(type(self))
        new.__dict__ = {k: (v.copy() if isinstance(v, (list, dict)) else v) for k, v in self.__dict__.items()}
        return new

    # -- whose move -------------------------------------------------------
    def _to_move(self) -> int | None:
        return SEAT_OF_PHASE.get(self.phase)

    # -- effects ----------------------------------------------------------
    def _apply(self, move: Move) -> list[Event]:
        handler = {
            mv.Choose: self._do_choose,
            mv.Start: self._do_start,
            mv.Draw: self._do_draw,
            mv.End: self._do_end,
            mv.Step: self._do_step,
            mv.Arrest: self._do_arrest,
            mv.Eliminate: self._do_eliminate,
            mv.Attack: self._do_attack,
            mv.Reveal: self._do_reveal,
        }[type(move)]
        return handler(move)  # type: ignore[operator]

    def _finish(self, winner: int, reason: str) -> Event:
        self.result = (winner, reason)
        self.phase = "over"
        return Event("game_over", {"winners": [winner], "reason": reason})

    def _do_choose(self, m: mv.Choose) -> list[Event]:
        self.assassins = list(m.citizens)
        self.phase = "start" if len(self.board.starts) > 1 else "draw"
        return [
            Event("assassins_chosen", {}),
            Event("your_assassins", {"citizens": list(m.citizens)}, (ASSASSIN_SEAT,)),
        ]

    def _do_start(self, m: mv.Start) -> list[Event]:
        board = self.board
        cell = next(s.king for s in board.starts if board.name(s.king) == m.cell)
        self._place_king(cell)
        self._reindex()
        self.phase = "draw"
        knights = {k: board.name(self.pos[k]) for k in KNIGHT_NAMES}
        return [Event("king_placed", {"cell": m.cell, "knights": knights})]

    def _do_draw(self, m: mv.Draw) -> list[Event]:
        self.deck.remove(m.card)
        self.card = m.card
        self.round += 1
        card = ROUND_CARDS[m.card]
        self.ap = {"king": card.king, "knights": card.knights, "assassins": 0}
        self.kills = self.arrests = 0
        self.phase = "king"
        return [
            Event("round_card", {"round": self.round, "card": card.to_json(), "cards_left": len(self.deck)})
        ]

    def _do_end(self, m: mv.End) -> list[Event]:
        seat = self._to_move()
        events = [Event("turn_ended", {"seat": seat})]
        self.kills = self.arrests = 0
        if self.phase == "king":
            # Unused points are lost; the Assassin player's points come from the same card.
            self.ap = {"king": 0, "knights": 0, "assassins": ROUND_CARDS[self.card].assassins}  # type: ignore[index]
            self.phase = "assassin"
        else:
            self.ap = {"king": 0, "knights": 0, "assassins": 0}
            self.phase = "draw"
            # The deck never reshuffles: with no card left for a new round the game ends and
            # the king, still on the board, has lost. ruling: docs/rulings.md#ka-last-round-card
            if not self.deck:
                events.append(self._finish(ASSASSIN_SEAT, "deck-exhausted"))
        return events

    def _do_step(self, m: mv.Step) -> list[Event]:
        board = self.board
        here = self.pos[m.piece]
        k = kind(m.piece)
        if k == "king" and board.gate_dir(here) == m.dir:
            self.ap["king"] -= 1
            self._remove(KING)
            return [
                Event("king_escaped", {"gate": board.name(here)}),
                self._finish(KING_SEAT, "king-escaped"),
            ]
        to = board.steps[here][m.dir]
        action = (
            "climb"
            if board.roof[to] and not board.roof[here]
            else ("descend" if board.roof[here] and not board.roof[to] else "move")
        )
        pushed: list[tuple[str, int, int]] = []
        if k == "king":
            pool, cost = "king", 1
        elif k == "knight":
            pool, cost = "knights", 2 if action == "climb" else 1
            chain = self._push_chain(to, m.dir)
            assert isinstance(chain, list)
            pushed = chain
        elif m.piece in self.revealed:
            pool, cost = "assassins", {"move": 1, "climb": 1, "descend": 0}[action]
        else:
            pool, cost = "assassins", 2 if action == "climb" else 1
        for piece, _, dest in reversed(pushed):
            self._put(piece, dest)
        self._put(m.piece, to)
        self.ap[pool] -= cost
        return [
            Event(
                "moved",
                {
                    "piece": m.piece,
                    "from": board.name(here),
                    "to": board.name(to),
                    "action": action,
                    "cost": cost,
                    "pushed": [
                        {"piece": p, "from": board.name(a), "to": board.name(b)} for p, a, b in pushed
                    ],
                },
            )
        ]

    def _do_arrest(self, m: mv.Arrest) -> list[Event]:
        cell = self._remove(m.target)
        self.arrested.append(m.target)
        self.arrests += 1
        self.ap["knights"] -= 1
        events = [Event("arrested", {"piece": m.piece, "target": m.target, "cell": self.board.name(cell)})]
        if m.target in self.assassins:
            if self._gone() == ASSASSINS:
                # The last assassin: announced to all, and the game ends at once.
                self.revealed.append(m.target)
                events.append(Event("arrested_assassin", {"target": m.target, "last": True}))
                events.append(self._finish(KING_SEAT, "assassins-gone"))
            else:
                events.append(
                    Event("arrested_assassin", {"target": m.target, "last": False}, (ASSASSIN_SEAT,))
                )
        return events

    def _do_eliminate(self, m: mv.Eliminate) -> list[Event]:
        cell = self._remove(m.target)
        if self.phase == "king":
            self.eliminated.append(m.target)
            self.ap["knights"] -= 1
            events = [
                Event(
                    "eliminated",
                    {"piece": m.piece, "target": m.target, "cell": self.board.name(cell), "cost": 1},
                )
            ]
            if self._gone() == ASSASSINS:
                events.append(self._finish(KING_SEAT, "assassins-gone"))
            return events
        # The first elimination of a turn costs 1, the second 2, whichever assassins make them.
        cost = self.kills + 1
        self.kills += 1
        self.knights_lost.append(m.target)
        self.ap["assassins"] -= cost
        return [
            Event(
                "eliminated",
                {"piece": m.piece, "target": m.target, "cell": self.board.name(cell), "cost": cost},
            )
        ]

    def _do_attack(self, m: mv.Attack) -> list[Event]:
        self.ap["assassins"] -= 2
        self.wounds += 1
        events = [Event("king_wounded", {"piece": m.piece, "wounds": self.wounds})]
        if self.wounds >= 2:
            self._remove(KING)
            events.append(self._finish(ASSASSIN_SEAT, "king-killed"))
        return events

    def _do_reveal(self, m: mv.Reveal) -> list[Event]:
        self.revealed.append(m.piece)
        cell = self.pos.get(m.piece)
        return [
            Event(
                "revealed",
                {
                    "piece": m.piece,
                    "cell": None if cell is None else self.board.name(cell),
                    "arrested": m.piece in self.arrested,
                },
            )
        ]

    # -- what each seat sees ---------------------------------------------
    def _view(self, seat: int | None) -> JSON:
        board = self.board
        card = self.round_card
        pieces = {
            p: {"kind": "assassin" if p in self.revealed else kind(p), "cell": board.name(c)}
            for p, c in sorted(self.pos.items(), key=lambda pc: pc[1])
        }
        view: JSON = {
            "game": GAME_ID,
            "side": self.side,
            "board_unverified": board.unverified,
            "step": self.phase,
            "to_move": self._to_move(),
            "round": self.round,
            "cards_left": len(self.deck),
            "card": None if card is None else card.to_json(),
            "ap": dict(self.ap),
            "eliminations_this_turn": self.kills,
            "arrests_this_turn": self.arrests,
            "wounds": self.wounds,
            "rows": list(board.rows),
            "gates": [{"cell": board.name(g.cell), "dir": g.dir} for g in board.gates],
            "pieces": pieces,
            "arrested": list(self.arrested),
            "arrested_assassins": [c for c in self.arrested if c in self.revealed],
            "eliminated": list(self.eliminated),
            "knights_lost": list(self.knights_lost),
        }
        if self.phase == "start":
            view["starts"] = [board.name(s.king) for s in board.starts]
        if seat == ASSASSIN_SEAT:
            view["assassins"] = list(self.assassins)
            view["assassins_left"] = len(self.assassins) - self._gone()
        if self.result is not None:
            view["outcome"] = self._outcome().to_json()  # type: ignore[union-attr]
        return view

    def _outcome(self) -> Outcome | None:
        if self.result is None:
            return None
        winner, reason = self.result
        return Outcome(
            [winner],
            {s: int(s == winner) for s in (KING_SEAT, ASSASSIN_SEAT)},
            reason,
            {"round": self.round, "wounds": self.wounds},
        )

    def _secret_seat(self) -> int | None:
        return ASSASSIN_SEAT if self.phase == "choose" else None  # the three assassins, picked unseen

    def _undoable(self, move: Move) -> bool:
        # Undoing an arrest would tell, by working or not, whether it caught an assassin.
        return not isinstance(move, mv.Arrest)

    def _to_json(self) -> JSON:
        name = self.board.name
        return {
            "side": self.side,
            "phase": self.phase,
            "deck": list(self.deck),
            "card": self.card,
            "round": self.round,
            "pos": {p: name(c) for p, c in self.pos.items()},
            "assassins": list(self.assassins),
            "revealed": list(self.revealed),
            "arrested": list(self.arrested),
            "eliminated": list(self.eliminated),
            "knights_lost": list(self.knights_lost),
            "wounds": self.wounds,
            "ap": dict(self.ap),
            "kills": self.kills,
            "arrests": self.arrests,
            "result": None if self.result is None else list(self.result),
        }

    def perturb_secrets(self, seat: int, rng: random.Random) -> State | None:
        """Other assassins for seat 1, consistent with everything public: the
        revealed ones stay, and whether all three are gone stays as it was."""
        if seat != ASSASSIN_SEAT or not self.assassins:
            return None
        for _ in range(20):
            other = self.copy()
            other._deal_assassins(self, rng)
            if other.assassins != self.assassins:
                return other
        return None

    def sample_unseen(self, seat: int, rng: random.Random) -> State:
        """For the King: three assassins drawn uniformly from every choice the
        table has not ruled out. The Assassin player sees everything."""
        other = self._unseen_copy()
        assert isinstance(other, KAState)
        if seat != ASSASSIN_SEAT and self.assassins:
            while not other._deal_assassins(self, rng):
                pass
        return other

    def _deal_assassins(self, real: KAState, rng: random.Random) -> bool:
        """Other assassins, keeping the revealed ones; True when the choice
        agrees with what is public (whether all three are gone). Retried on
        False, this samples uniformly from the choices that agree."""
        fixed = [c for c in CITIZEN_NAMES if c in real.revealed]
        pool = [c for c in CITIZEN_NAMES if c not in real.revealed]
        self.assassins = sorted(fixed + rng.sample(pool, ASSASSINS - len(fixed)), key=mv.name_order)
        return (self._gone() == ASSASSINS) == (real._gone() == ASSASSINS)
