"""Which moves are legal now, and why a refused move breaks the rules.

``_problem(move)`` gives None for a legal move or the (code, rule, params) of
the most specific rule it breaks; ``_legal_moves`` lists the candidates it
passes, so the two can never disagree. Nothing here depends on the secret
identities except the Assassin player's own reveals.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from rules.core import CHANCE, IllegalMove, Move
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

SEAT_OF_PHASE = {
    "choose": ASSASSIN_SEAT,
    "start": KING_SEAT,
    "draw": CHANCE,
    "king": KING_SEAT,
    "assassin": ASSASSIN_SEAT,
}

#: A refusal before it becomes an IllegalMove: (code suffix, rule, params).
Problem = tuple[str, str, dict[str, Any]]

# Moves are frozen, so the listing hands out these same steps instead of
# making new ones each time (the search lists moves millions of times).
_STEPS = {(p, d): mv.Step(p, d) for p in (KING, *KNIGHT_NAMES, *CITIZEN_NAMES) for d in DIRS}
_CITIZENS = frozenset(CITIZEN_NAMES)
_KNIGHTS = frozenset(KNIGHT_NAMES)


class Legality:
    """The rules' side of the state (mixed into KAState, which holds these fields)."""

    side: str
    phase: str
    deck: list[int]
    card: int | None
    pos: dict[str, int]
    at: dict[int, str]
    assassins: list[str]
    revealed: list[str]
    ap: dict[str, int]
    kills: int
    arrests: int

    @property
    def board(self) -> Board:
        return BOARDS[self.side]

    @property
    def round_card(self) -> RoundCard | None:
        return None if self.card is None else ROUND_CARDS[self.card]

    def _legal_moves(self) -> list[Move]:
        phase = self.phase
        if phase == "choose":
            return [mv.Choose(c) for c in combinations(CITIZEN_NAMES, ASSASSINS)]
        if phase == "start":
            return [mv.Start(self.board.name(s.king)) for s in self.board.starts]
        if phase == "draw":
            return [mv.Draw(c) for c in self.deck]
        # Steps, nearly all of the candidates, are decided here from the board
        # and the pools at hand: the same tests as _step_problem, in its order,
        # for a piece of the player to move that is on the board (the search
        # lists moves millions of times). Other moves go through _problem. The
        # order is the one the candidates always had. test_legality.py checks
        # that the list is exactly the moves _problem accepts.
        board = self.board
        steps, roof, at, pos, ap = board.steps, board.roof, self.at, self.pos, self.ap
        problem = self._problem
        step_move = _STEPS
        legal: list[Move] = [mv.End()]
        if phase == "king":
            if ap["king"] and KING in pos:
                here = pos[KING]
                gate = board.gate_dir(here)
                for d, to in steps[here].items():  # in DIRS order
                    if d == gate or (to >= 0 and not roof[to] and at.get(to) is None):
                        legal.append(step_move[KING, d])
            knights_ap = ap["knights"]
            if knights_ap:
                # Arrests and eliminations that _problem refuses at its first
                # test are not made to be refused: no handcuffs or an arrest
                # made (_arrest_problem), a target not revealed (_knight_eliminate_problem).
                card = self.round_card
                may_arrest = card is not None and card.handcuffs and not self.arrests
                revealed = self.revealed
                for k in KNIGHT_NAMES:
                    if k not in pos:
                        continue
                    here = pos[k]
                    near = steps[here].items()
                    for d, to in near:
                        if to < 0:
                            continue
                        target = at.get(to)
                        if target is not None and (target not in _CITIZENS
                                                   or not isinstance(self._push_chain(to, d), list)):
                            continue
                        if knights_ap >= (2 if roof[to] and not roof[here] else 1):
                            legal.append(step_move[k, d])
                    for _, to in near:
                        target = at.get(to)
                        if target in _CITIZENS:
                            if may_arrest:
                                arrest = mv.Arrest(k, target)  # type: ignore[arg-type]
                                if problem(arrest) is None:
                                    legal.append(arrest)
                            if target in revealed:
                                eliminate = mv.Eliminate(k, target)  # type: ignore[arg-type]
                                if problem(eliminate) is None:
                                    legal.append(eliminate)
        else:
            pool = ap["assassins"]
            revealed, assassins, kills = self.revealed, self.assassins, self.kills
            for c in CITIZEN_NAMES:
                if c not in revealed and c in assassins:  # as _reveal_problem
                    legal.append(mv.Reveal(c))
                if c not in pos:
                    continue
                here = pos[c]
                shown = c in revealed
                near = steps[here]
                for d, to in near.items():
                    if to < 0 or at.get(to) is not None:
                        continue
                    climb = roof[to] and not roof[here]
                    if shown:
                        cost = 1 if climb else 0 if roof[here] and not roof[to] else 1
                    else:
                        cost = 2 if climb else 1
                    if pool >= cost:
                        legal.append(step_move[c, d])
                if shown:
                    # As for the knights: no attack without the 2 points
                    # _attack_problem asks or away from the king, no
                    # elimination past the second.
                    if pool >= 2 and pos.get(KING) in near.values():
                        attack = mv.Attack(c)
                        if problem(attack) is None:
                            legal.append(attack)
                    for to in near.values():
                        target = at.get(to)
                        if target in _KNIGHTS and kills < 2:
                            eliminate = mv.Eliminate(c, target)  # type: ignore[arg-type]
                            if problem(eliminate) is None:
                                legal.append(eliminate)
        return legal

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
            # (standing on the gate is not enough). ruling: docs/rulings.md#ka-entering-the-castle
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
            # revealed assassin (game-data.md). ruling: docs/rulings.md#ka-descend-typo
            return self._afford("assassins", 1 if climb else 0 if descend else 1, R_ASSASSINS)
        return self._afford("assassins", 2 if climb else 1, R_CITIZENS)

    def _push_chain(self, cell: int, d: str) -> list[tuple[str, int, int]] | Problem:
        """The tokens a knight entering ``cell`` pushes, as (piece, from, to), or why it may not.
        ruling: docs/rulings.md#ka-push-chain"""
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
        if m.target in self.revealed:  # ruling: docs/rulings.md#ka-arrest-takes-a-citizen-token
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
        # ruling: docs/rulings.md#ka-reveals
        if m.piece not in self.assassins:
            return ("reveal.not-assassin", R_ASSASSIN_TURN, {"piece": m.piece})
        return None
