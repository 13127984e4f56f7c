"""The game in progress: phases, the legality of every action, its effects, the views.

Steps (``phase``): ``choose`` (the Assassin player's secret pick) -> ``start``
(side B only: the king's start cell) -> per round ``draw`` (chance: the round
card) -> ``king`` (seat 0) -> ``assassin`` (seat 1) -> ``draw`` ... -> ``over``.

Secrets: ``assassins`` (the three chosen citizens) is known to seat 1 only.
Nothing the public or seat 0 sees (views, public events, seat 0's legal moves
and refusals) may depend on it; ``perturb_secrets`` lets the conformance suite
check that.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from rules.core import CHANCE, JSON, Event, IllegalMove, Move, Outcome, State
from rules.king_and_assassins import moves as mv
from rules.king_and_assassins.data import ASSASSINS, BOARDS, DIRS, ROUND_CARDS, Board, RoundCard
from rules.king_and_assassins.pieces import CITIZEN_NAMES, KING, KNIGHT_NAMES, kind

GAME_ID = "king-and-assassins"
KING_SEAT, ASSASSIN_SEAT = 0, 1

# Rulebook sections (Italian), as IllegalMove.rule.
R_SETUP = "Setup del gioco"
R_SETUP_B = "Setup lato B"
R_ROUND = "Il gioco"
R_BOARD = "Panoramica della plancia e dei movimenti"
R_KING_TURN = "Turno del Giocatore Re"
R_KING = "Azioni del Re"
R_KNIGHTS = "Azioni dei Cavalieri"
R_PUSH = "Spingere segnalini"
R_ASSASSIN_TURN = "Turno del Giocatore Assassino"
R_CITIZENS = "Azioni dei Cittadini"
R_ASSASSINS = "Azioni degli Assassini"

_SEAT_OF_PHASE = {
    "choose": ASSASSIN_SEAT,
    "start": KING_SEAT,
    "draw": CHANCE,
    "king": KING_SEAT,
    "assassin": ASSASSIN_SEAT,
}

#: A refusal before it becomes an IllegalMove: (code suffix, rule, params).
Problem = tuple[str, str, dict[str, Any]]


def deck_for(side: str) -> list[int]:
    # Setup lato B: the red-crystal card goes back in the box.
    return sorted(c.id for c in ROUND_CARDS.values() if side == "A" or not c.red_crystal)


class KAState(State):
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
    @property
    def board(self) -> Board:
        return BOARDS[self.side]

    @property
    def round_card(self) -> RoundCard | None:
        return None if self.card is None else ROUND_CARDS[self.card]

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
        return _SEAT_OF_PHASE.get(self.phase)

    # -- legality ---------------------------------------------------------
    def _legal_moves(self) -> list[Move]:
        phase = self.phase
        if phase == "choose":
            return [mv.Choose(c) for c in combinations(CITIZEN_NAMES, ASSASSINS)]
        if phase == "start":
            return [mv.Start(self.board.name(s.king)) for s in self.board.starts]
        if phase == "draw":
            return [mv.Draw(c) for c in self.deck]
        cands: list[Move] = [mv.End()]
        steps = self.board.steps
        if phase == "king":
            if self.ap["king"] and KING in self.pos:
                cands += [mv.Step(KING, d) for d in DIRS]
            if self.ap["knights"]:
                for k in KNIGHT_NAMES:
                    if k not in self.pos:
                        continue
                    cands += [mv.Step(k, d) for d in DIRS]
                    for d in DIRS:
                        target = self.at.get(steps[self.pos[k]][d])
                        if kind(target) == "citizen":
                            cands += [mv.Arrest(k, target), mv.Eliminate(k, target)]  # type: ignore[arg-type]
        else:
            for c in CITIZEN_NAMES:
                cands.append(mv.Reveal(c))
                if c not in self.pos:
                    continue
                cands += [mv.Step(c, d) for d in DIRS]
                if c in self.revealed:
                    cands.append(mv.Attack(c))
                    for d in DIRS:
                        target = self.at.get(steps[self.pos[c]][d])
                        if kind(target) == "knight":
                            cands.append(mv.Eliminate(c, target))  # type: ignore[arg-type]
        return [m for m in cands if self._problem(m) is None]

    def _check(self, move: Move) -> None:
        problem = self._problem(move)
        if problem is not None:
            code, rule, params = problem
            raise IllegalMove(f"{GAME_ID}.{code}", rule, **params)

    def _problem(self, m: Move) -> Problem | None:
        phase = self.phase
        if isinstance(m, mv.Draw):
            if phase != "draw":
                return ("round.no-draw-now", R_ROUND, {})
            if m.card not in self.deck:
                return ("round.card-not-in-deck", R_ROUND, {"card": m.card})
            return None
        if phase == "draw":
            return ("round.draw-first", R_ROUND, {})
        if isinstance(m, mv.Choose):
            return self._choose_problem(m) if phase == "choose" else ("setup.already-chosen", R_SETUP, {})
        if phase == "choose":
            return ("setup.choose-first", R_SETUP, {})
        if isinstance(m, mv.Start):
            return self._start_problem(m) if phase == "start" else ("setup.no-start-now", R_SETUP_B, {})
        if phase == "start":
            return ("setup.start-first", R_SETUP_B, {})
        if isinstance(m, mv.End):
            return None
        if isinstance(m, mv.Step):
            return self._step_problem(m)
        if phase == "king":
            if isinstance(m, (mv.Reveal, mv.Attack)):
                return ("turn.kings-turn", R_KING_TURN, {"action": m.to_json()["type"]})
            if isinstance(m, mv.Arrest):
                return self._arrest_problem(m)
            if isinstance(m, mv.Eliminate):
                return self._knight_eliminate_problem(m)
        else:
            if isinstance(m, mv.Arrest):
                return ("turn.assassins-turn", R_ASSASSIN_TURN, {"action": "arrest"})
            if isinstance(m, mv.Reveal):
                return self._reveal_problem(m)
            if isinstance(m, mv.Eliminate):
                return self._assassin_eliminate_problem(m)
            if isinstance(m, mv.Attack):
                return self._attack_problem(m)
        return ("move.unknown", R_ROUND, {"move": type(m).__name__})

    def _choose_problem(self, m: mv.Choose) -> Problem | None:
        picked = m.citizens
        if not isinstance(picked, tuple) or len(picked) != ASSASSINS:
            return ("setup.choose-three", R_SETUP, {"count": len(picked) if isinstance(picked, tuple) else 0})
        for c in picked:
            if kind(c) != "citizen":
                return ("setup.unknown-citizen", R_SETUP, {"piece": c})
        if len(set(picked)) != len(picked):
            return ("setup.citizen-twice", R_SETUP, {})
        return None

    def _start_problem(self, m: mv.Start) -> Problem | None:
        names = [self.board.name(s.king) for s in self.board.starts]
        if m.cell not in names:
            return ("setup.not-a-start", R_SETUP_B, {"cell": m.cell, "starts": ", ".join(names)})
        return None

    def _own_piece(self, piece: str, kinds: tuple[str, ...]) -> Problem | None:
        """The piece exists, belongs to the player to move and is on the board."""
        k = kind(piece)
        if k is None:
            return ("piece.unknown", R_BOARD, {"piece": piece})
        king_turn = self.phase == "king"
        if (k == "citizen") == king_turn:
            return ("piece.not-yours", R_KING_TURN if king_turn else R_ASSASSIN_TURN, {"piece": piece})
        if k not in kinds:
            rule = R_KING if k == "king" else R_KNIGHTS if k == "knight" else R_ASSASSINS
            return ("piece.cannot-do-that", rule, {"piece": piece})
        if piece not in self.pos:
            return ("piece.not-on-board", R_BOARD, {"piece": piece})
        return None

    def _afford(self, pool: str, cost: int, rule: str) -> Problem | None:
        if self.ap[pool] < cost:
            return ("ap.not-enough", rule, {"pool": pool, "need": cost, "left": self.ap[pool]})
        return None

    def _step_problem(self, m: mv.Step) -> Problem | None:
        bad = self._own_piece(m.piece, ("king", "knight", "citizen"))
        if bad:
            return bad
        if m.dir not in DIRS:
            return ("move.bad-direction", R_BOARD, {"dir": m.dir})
        board = self.board
        here = self.pos[m.piece]
        to = board.steps[here][m.dir]
        k = kind(m.piece)
        if k == "king" and board.gate_dir(here) == m.dir:
            # Entering the castle is leaving the gate space through it: one ordinary king step
            # (standing on the gate is not enough).
            return self._afford("king", 1, R_KING)
        if to < 0:
            return ("move.off-board", R_BOARD, {"piece": m.piece, "dir": m.dir})
        climb = board.roof[to] and not board.roof[here]
        descend = board.roof[here] and not board.roof[to]
        occupant = self.at.get(to)
        if k == "king":
            if board.roof[to]:
                return ("king.street-only", R_KING, {"cell": board.name(to)})
            if occupant is not None:
                return ("move.occupied", R_KING, {"cell": board.name(to), "occupant": occupant})
            return self._afford("king", 1, R_KING)
        if k == "knight":
            if occupant is not None:
                if kind(occupant) != "citizen":
                    return ("move.occupied", R_KNIGHTS, {"cell": board.name(to), "occupant": occupant})
                pushed = self._push_chain(to, m.dir)
                if not isinstance(pushed, list):
                    return pushed
            return self._afford("knights", 2 if climb else 1, R_KNIGHTS)
        if occupant is not None:
            rule = R_ASSASSINS if m.piece in self.revealed else R_CITIZENS
            return ("move.occupied", rule, {"cell": board.name(to), "occupant": occupant})
        if m.piece in self.revealed:
            # Scendere costs 0: the rulebook's "segnalino Cavaliere" there is a typo for the
            # revealed assassin (game-data.md).
            return self._afford("assassins", 1 if climb else 0 if descend else 1, R_ASSASSINS)
        return self._afford("assassins", 2 if climb else 1, R_CITIZENS)

    def _push_chain(self, cell: int, d: str) -> list[tuple[str, int, int]] | Problem:
        """The tokens a knight entering ``cell`` pushes, as (piece, from, to), or why it may not."""
        board = self.board
        chain: list[tuple[str, int, int]] = []
        while (piece := self.at.get(cell)) is not None:
            k = kind(piece)
            if k != "citizen":
                return (
                    "push.into-king" if k == "king" else "push.into-knight",
                    R_PUSH,
                    {"pushed": chain[-1][0], "cell": board.name(cell)},
                )
            nxt = board.steps[cell][d]
            if nxt < 0:
                return ("push.off-board", R_PUSH, {"pushed": piece})
            if board.roof[nxt] and not board.roof[cell]:
                return ("push.street-to-roof", R_PUSH, {"pushed": piece, "cell": board.name(nxt)})
            chain.append((piece, cell, nxt))
            cell = nxt
        return chain

    def _reach(self, piece: str, target: str, rule: str) -> Problem | None:
        """Adjacent, and not from a street up to a roof."""
        board = self.board
        here, there = self.pos[piece], self.pos[target]
        if there not in board.steps[here].values():
            return ("target.not-adjacent", rule, {"piece": piece, "target": target})
        if board.roof[there] and not board.roof[here]:
            return ("target.on-roof", rule, {"piece": piece, "target": target})
        return None

    def _target(self, target: str, kinds: tuple[str, ...], rule: str) -> Problem | None:
        k = kind(target)
        if k is None:
            return ("target.unknown", rule, {"target": target})
        if k not in kinds:
            return ("target.wrong-kind", rule, {"target": target})
        if target not in self.pos:
            return ("target.not-on-board", rule, {"target": target})
        return None

    def _arrest_problem(self, m: mv.Arrest) -> Problem | None:
        card = self.round_card
        if card is None or not card.handcuffs:
            return ("arrest.no-handcuffs", R_KNIGHTS, {})
        if self.arrests:
            return ("arrest.one-per-turn", R_KNIGHTS, {})
        bad = self._own_piece(m.piece, ("knight",)) or self._target(m.target, ("citizen",), R_KNIGHTS)
        if bad:
            return bad
        if m.target in self.revealed:
            return ("arrest.revealed", R_KNIGHTS, {"target": m.target})
        return self._reach(m.piece, m.target, R_KNIGHTS) or self._afford("knights", 1, R_KNIGHTS)

    def _knight_eliminate_problem(self, m: mv.Eliminate) -> Problem | None:
        bad = self._own_piece(m.piece, ("knight",)) or self._target(m.target, ("citizen",), R_KNIGHTS)
        if bad:
            return bad
        if m.target not in self.revealed:
            return ("eliminate.not-revealed", R_KNIGHTS, {"target": m.target})
        return self._reach(m.piece, m.target, R_KNIGHTS) or self._afford("knights", 1, R_KNIGHTS)

    def _revealed_assassin(self, piece: str) -> Problem | None:
        bad = self._own_piece(piece, ("citizen",))
        if bad:
            return bad
        if piece not in self.revealed:
            return ("assassin.not-revealed", R_ASSASSIN_TURN, {"piece": piece})
        return None

    def _assassin_eliminate_problem(self, m: mv.Eliminate) -> Problem | None:
        bad = self._revealed_assassin(m.piece) or self._target(m.target, ("knight",), R_ASSASSINS)
        if bad:
            return bad
        if self.kills >= 2:
            return ("eliminate.two-per-turn", R_ASSASSINS, {})
        return self._reach(m.piece, m.target, R_ASSASSINS) or self._afford(
            "assassins", self.kills + 1, R_ASSASSINS
        )

    def _attack_problem(self, m: mv.Attack) -> Problem | None:
        bad = self._revealed_assassin(m.piece)
        if bad:
            return bad
        # The king is always on a street, so every adjacent assassin reaches him.
        if self.pos[KING] not in self.board.steps[self.pos[m.piece]].values():
            return ("attack.not-adjacent", R_ASSASSINS, {"piece": m.piece})
        return self._afford("assassins", 2, R_ASSASSINS)

    def _reveal_problem(self, m: mv.Reveal) -> Problem | None:
        if kind(m.piece) != "citizen":
            return ("reveal.not-citizen", R_ASSASSIN_TURN, {"piece": m.piece})
        if m.piece in self.revealed:
            return ("reveal.already", R_ASSASSIN_TURN, {"piece": m.piece})
        # Seat 1's own move: refusing it tells seat 1 nothing it does not know. An arrested
        # assassin may be revealed too (Catturare un assassino nascosto: revealing is the Assassin
        # player's choice); like any reveal it is free and made in the Assassin player's turn.
        if m.piece not in self.assassins:
            return ("reveal.not-assassin", R_ASSASSIN_TURN, {"piece": m.piece})
        return None

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
            # the king, still on the board, has lost.
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
        fixed = [c for c in self.assassins if c in self.revealed]
        pool = [c for c in CITIZEN_NAMES if c not in self.revealed]
        all_gone = self._gone() == ASSASSINS
        for _ in range(20):
            other = self.copy()
            other.assassins = sorted(fixed + rng.sample(pool, ASSASSINS - len(fixed)), key=mv.name_order)
            if other.assassins != self.assassins and (other._gone() == ASSASSINS) == all_gone:
                return other
        return None
