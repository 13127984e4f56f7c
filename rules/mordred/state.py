"""The state of a game of Mordred and its turn: declare, roll, take, place, spend.

Phases of the seat to move: ``declare`` -> (chance ``roll``) -> ``place``
(each man attacking a piece waits on a chance ``mordred_die``) -> ``spend``
(each attack waits on a chance ``attack_die``) -> next seat. ``over`` once an
ending is met; endings are checked the moment they happen.
"""

from __future__ import annotations

from typing import Any

from rules.core import CHANCE, JSON, Event, IllegalMove, Move, Outcome, State
from rules.mordred import scoring
from rules.mordred.messages import RULE_DECLARE, RULE_PLACE, RULE_SPEND, RULE_TURN
from rules.mordred.moves import Attack, Build, Declare, Die, EndTurn, Place, Roll
from rules.mordred.tables import BUILDINGS, FACES, ROWS, TABLES

#: Not in the rulebook: the game also ends after this many rounds, so that
#: every game ends (a table may otherwise roll row A forever). A real game
#: lasts about ten rounds ("circa una mezz'ora").
#: ruling: docs/rulings.md#mordred-round-limit
ROUND_LIMIT = 60

_CHANCE_PHASES = {"roll": "dice", "mordred_die": "die", "attack_die": "die"}
_ROLLS = [Roll((a, b)) for a in FACES for b in FACES]
_DIE = [Die(v) for v in FACES]
_DECLARES = [*(Declare(r) for r in ROWS), Declare(None)]
_CHEAPEST = TABLES.cheapest()
#: The map's order of the spaces, in which moves are listed.
_SPACE_ORDER = {name: i for i, name in enumerate(TABLES.spaces)}
#: Per space, the buildings its terrain allows, in BUILDINGS order, with
#: their price there and the move (frozen, so listed again and again).
_BUILDABLE = {
    space: tuple(
        (b, TABLES.cost[b][info.terrain], Build(b, space))
        for b in BUILDINGS if TABLES.cost[b][info.terrain] is not None
    )
    for space, info in TABLES.spaces.items()
}

# A refusal before it is raised: (code, rule, params).
Verdict = tuple[str, str, dict[str, Any]]


class MordredState(State):
    game_id = "mordred"

    def __init__(self, players: int, seed: int, options: dict[str, Any]) -> None:
        super().__init__(players, seed, options)
        t = TABLES
        self.round = 1
        self.current = 0  # the table seats the first player (highest roll) as seat 0
        self.phase = "declare"
        self.row: str | None = None
        self.declared = False
        self.dice: tuple[int, int] | None = None
        # the rulebook gives no starting money: ruling: docs/rulings.md#mordred-starting-money
        self.money = [0] * players
        self.pawns = [t.dragon] * players
        self.supply = [dict(t.per_player) for _ in range(players)]
        self.pieces: dict[str, tuple[int, str]] = {}
        self.men = {t.anglesey}  # Mordred himself, in his castle
        self.men_supply = t.men - 1
        self.to_place = 0
        self.target: tuple[str | None, str] | None = None  # (attacking origin or None, space)
        self.built_any = False
        self.end: tuple[str, int | None] | None = None  # (ending, seat that caused it)

    def copy(self) -> MordredState:
        # Hand-made: deepcopy per move would dominate random playouts.
        new = object.__new__(MordredState)
        d = self.__dict__.copy()
        d["options"] = dict(self.options)
        d["history"] = list(self.history)
        d["money"] = list(self.money)
        d["pawns"] = list(self.pawns)
        d["supply"] = [dict(s) for s in self.supply]
        d["pieces"] = dict(self.pieces)
        d["men"] = set(self.men)
        new.__dict__ = d
        return new

    # -- whose move, which moves ---------------------------------------------
    def _to_move(self) -> int | None:
        if self.phase == "over":
            return None
        return CHANCE if self.phase in _CHANCE_PHASES else self.current

    def _legal_moves(self) -> list[Move]:
        if self.phase == "declare":
            return list(_DECLARES)
        if self.phase == "roll":
            return list(_ROLLS)
        if self.phase in ("mordred_die", "attack_die"):
            return list(_DIE)
        if self.phase == "place":
            return [Place(s) for s in self._placeable()]
        moves: list[Move] = []
        me = self.current
        money = self.money[me]
        if money >= _CHEAPEST:  # else nothing is affordable anywhere
            # _site and _price's tests, in their order, without their refusals:
            # the search lists these moves at every step of every playout.
            t = TABLES
            men, pieces, supply = self.men, self.pieces, self.supply[me]
            for space, info in t.spaces.items():
                if space in men:
                    continue
                piece = pieces.get(space)
                if piece is not None:
                    if piece[0] != me:
                        continue
                    surcharge = 0
                elif info.black_frame:
                    surcharge = 0
                elif not self.built_any:
                    continue
                else:
                    owners = {pieces[n][0] for n in info.roads if n in pieces}
                    if not owners:
                        continue
                    surcharge = 0 if me in owners else t.surcharge
                budget = money - surcharge
                same = None if piece is None else piece[1]
                for b, cost, build in _BUILDABLE[space]:
                    if b != same and supply[b] and cost <= budget:
                        moves.append(build)
        if self.money[self.current] >= TABLES.attack_cost:
            for origin, (owner, _) in self.pieces.items():
                if owner == self.current:
                    moves.extend(Attack(origin, s) for s in sorted(TABLES.spaces[origin].roads & self.men))
        moves.append(EndTurn())
        return moves

    def _placeable(self) -> list[str]:
        # _place's tests without its refusals (the search lists these often):
        # the free spaces next to a man (roads go both ways, tables.py checks),
        # in the map's order.
        men, pieces, me, spaces = self.men, self.pieces, self.current, TABLES.spaces
        near: set[str] = set()
        for man in men:
            near |= spaces[man].roads
        near -= men
        return [
            s for s in sorted(near, key=_SPACE_ORDER.__getitem__)
            if (p := pieces.get(s)) is None or p[0] != me
        ]

    # -- checks: each returns None (legal), or the reason it is not ----------
    def _check(self, move: Move) -> None:
        verdict = self._verdict(move)
        if verdict is not None:
            code, rule, params = verdict
            raise IllegalMove(code, rule, **params)

    def _verdict(self, move: Move) -> Verdict | None:
        phase = self.phase
        if not isinstance(move, (Declare, Roll, Place, Die, Build, Attack, EndTurn)):
            return "mordred.move.foreign", RULE_TURN, {"kind": type(move).__name__}
        if phase in _CHANCE_PHASES:
            expected = _CHANCE_PHASES[phase]
            if isinstance(move, (Roll, Die)) and isinstance(move, Roll) != (expected == "dice"):
                return "mordred.chance.wrong_kind", RULE_DECLARE, {"expected": expected}
            if isinstance(move, Roll):
                ok = all(d in FACES for d in move.dice)
                return None if ok else ("mordred.roll.bad_value", RULE_DECLARE, {"dice": list(move.dice)})
            if isinstance(move, Die):
                rule = RULE_PLACE if phase == "mordred_die" else RULE_SPEND
                return None if move.value in FACES else ("mordred.die.bad_value", rule, {"value": move.value})
            return "mordred.chance.pending", RULE_TURN, {"expected": expected}
        if isinstance(move, (Roll, Die)):
            return "mordred.chance.not_due", RULE_TURN, {"player": self.current}
        if phase == "declare":
            if not isinstance(move, Declare):
                return "mordred.turn.declare_first", RULE_DECLARE, {}
            if move.row is not None and move.row not in ROWS:
                return "mordred.declare.bad_row", RULE_DECLARE, {"row": move.row}
            return None
        if isinstance(move, Declare):
            return "mordred.declare.already", RULE_DECLARE, {}
        if phase == "place":
            if isinstance(move, Place):
                return self._place(move.space)
            return "mordred.place.men_first", RULE_PLACE, {"count": self.to_place}
        # phase == "spend"
        if isinstance(move, Place):
            return "mordred.place.none_left", RULE_PLACE, {}
        if isinstance(move, Build):
            found = self._build(move.building, move.space)
            return None if isinstance(found, int) else found
        if isinstance(move, Attack):
            return self._attack(move.origin, move.space)
        return None  # EndTurn: money carries over, nothing need be spent

    def _place(self, space: str) -> Verdict | None:
        spaces = TABLES.spaces
        if space not in spaces:
            return "mordred.place.unknown_space", RULE_PLACE, {"space": space}
        if space in self.men:
            return "mordred.place.occupied", RULE_PLACE, {"space": space}
        if not spaces[space].roads & self.men:
            # Any man will do, even one cut off from the main group.
            return "mordred.place.not_adjacent", RULE_PLACE, {"space": space}
        piece = self.pieces.get(space)
        if piece is not None and piece[0] == self.current:
            # "il pezzo di un altro giocatore": a player's own pieces are not targets.
            # ruling: docs/rulings.md#mordred-men-against-own-pieces
            return "mordred.place.own_piece", RULE_PLACE, {"space": space}
        return None

    def _build(self, building: str, space: str) -> Verdict | int:
        """The full price of ``building`` on ``space`` now, or why not."""
        site = self._site(space)
        return site if not isinstance(site, int) else self._price(building, space, site)

    def _site(self, space: str) -> Verdict | int:
        """Whether the current player may build on ``space`` at all: the
        surcharge it carries, or why not."""
        t = TABLES
        if space not in t.spaces:
            return "mordred.build.unknown_space", RULE_SPEND, {"space": space}
        if space in self.men:
            return "mordred.build.mordred_there", RULE_SPEND, {"space": space}
        piece = self.pieces.get(space)
        if piece is not None:
            if piece[0] != self.current:
                return "mordred.build.occupied", RULE_SPEND, {"space": space}
            # A replacement stays where the player already is: no place rule, no
            # surcharge (the rulebook only asks the full price).
            return 0
        if t.spaces[space].black_frame:
            return 0  # always open, never a surcharge
        if not self.built_any:
            # Section 4: the game's first building, not each player's (the
            # overview says otherwise; NOTATION.md, "contradicts itself").
            # ruling: docs/rulings.md#mordred-first-building
            return "mordred.build.first_on_border", RULE_SPEND, {"space": space}
        owners = {self.pieces[n][0] for n in t.spaces[space].roads if n in self.pieces}
        if not owners:
            return "mordred.build.not_reachable", RULE_SPEND, {"space": space}
        # Section 4: +£1 unless next to a piece of your own, even when another
        # player's piece is also there (the overview's wording is looser).
        # ruling: docs/rulings.md#mordred-surcharge
        return 0 if self.current in owners else t.surcharge

    def _price(self, building: str, space: str, surcharge: int) -> Verdict | int:
        """What ``building`` costs on a space open to it, or why not."""
        if building not in BUILDINGS:
            return "mordred.build.unknown_building", RULE_SPEND, {"building": building}
        # The refusal's params are made only when refusing: the search prices
        # every building on every space in each listing of the moves.
        me = self.current
        piece = self.pieces.get(space)
        if piece is not None and piece[1] == building:
            # Silent in the rulebook; replacing a piece by its twin only burns money.
            # ruling: docs/rulings.md#mordred-replacing-your-own-piece
            return "mordred.build.same_piece", RULE_SPEND, {"building": building, "space": space}
        terrain = TABLES.spaces[space].terrain
        cost = TABLES.cost[building][terrain]
        if cost is None:
            return ("mordred.build.terrain", RULE_SPEND,
                    {"building": building, "space": space, "terrain": terrain})
        if self.supply[me][building] == 0:
            return "mordred.build.none_left", RULE_SPEND, {"building": building, "space": space}
        cost += surcharge
        if cost > self.money[me]:
            return (
                "mordred.build.cannot_afford",
                RULE_SPEND,
                {"building": building, "space": space, "cost": cost, "money": self.money[me]},
            )
        return cost

    def _attack(self, origin: str, space: str) -> Verdict | None:
        t = TABLES
        for name in (origin, space):
            if name not in t.spaces:
                return "mordred.attack.unknown_space", RULE_SPEND, {"space": name}
        piece = self.pieces.get(origin)
        if piece is None or piece[0] != self.current:
            return "mordred.attack.not_your_piece", RULE_SPEND, {"space": origin}
        if space not in self.men:
            return "mordred.attack.no_man", RULE_SPEND, {"space": space}
        if space not in t.spaces[origin].roads:
            return "mordred.attack.not_adjacent", RULE_SPEND, {"space": space, "origin": origin}
        if self.money[self.current] < t.attack_cost:
            return (
                "mordred.attack.cannot_afford",
                RULE_SPEND,
                {"cost": t.attack_cost, "money": self.money[self.current]},
            )
        return None

    # -- applying ------------------------------------------------------------
    def _apply(self, move: Move) -> list[Event]:
        events: list[Event] = []
        seat = self.current
        if isinstance(move, Declare):
            # "Se vi dimenticate di dichiarare la riga ... la riga C".
            self.row = move.row or "C"
            self.declared = move.row is not None
            self.phase = "roll"
            events.append(Event("declared", {"seat": seat, "row": self.row, "declared": self.declared}))
        elif isinstance(move, Roll):
            self._take(move.dice, events)
        elif isinstance(move, Place):
            self._put_man(move.space, events)
        elif isinstance(move, Die) and self.phase == "mordred_die":
            self._mordred_combat(move.value, events)
        elif isinstance(move, Die):
            self._player_combat(move.value, events)
        elif isinstance(move, Build):
            self._build_now(move.building, move.space, events)
        elif isinstance(move, Attack):
            self.money[seat] -= TABLES.attack_cost  # paid before the die is rolled
            self.target = (move.origin, move.space)
            self.phase = "attack_die"
            events.append(
                Event(
                    "attack",
                    {
                        "seat": seat,
                        "from": move.origin,
                        "space": move.space,
                        "paid": TABLES.attack_cost,
                        "need": self._need(),
                    },
                )
            )
        elif isinstance(move, EndTurn):
            self._next_turn(events)
        return events

    def _take(self, dice: tuple[int, int], events: list[Event]) -> None:
        """Phase 2: money, then men, then the pawn moves left."""
        seat = self.current
        assert self.row is not None
        faces = [TABLES.money[self.row][d] for d in dice]
        self.dice = dice
        gained = sum(f.money for f in faces)
        owed = sum(f.men for f in faces)
        # Men beyond the supply cannot be taken; the pawn still moves in full.
        # ruling: docs/rulings.md#mordred-men-beyond-the-supply
        taken = min(owed, self.men_supply)
        self.money[seat] += gained
        self.men_supply -= taken
        self.to_place = taken
        events.append(
            Event(
                "rolled",
                {
                    "seat": seat,
                    "row": self.row,
                    "dice": list(dice),
                    "money": gained,
                    "men": taken,
                    "black": [f.black for f in faces],
                },
            )
        )
        if owed and not self._move_pawn(-owed, events):
            return
        self.phase = "place"
        self._settle_placement(events)

    def _move_pawn(self, steps: int, events: list[Event]) -> bool:
        """Move the current pawn; ending (c) when it cannot go the full way
        ("non potete spostare ... del numero di spazi richiesto"): the pawn
        stops at the end of the track. Landing exactly on the end is not it
        (the overview's "arrivate alla fine" reads otherwise; NOTATION.md).
        ruling: docs/rulings.md#mordred-end-of-the-track
        False when the game ended."""
        seat = self.current
        before = self.pawns[seat]
        wanted = before + steps
        after = min(max(wanted, 0), TABLES.track_length - 1)
        self.pawns[seat] = after
        events.append(Event("pawn", {"seat": seat, "from": before, "to": after}))
        if after != wanted:
            self._finish("track_end", seat, events)
            return False
        return True

    def _settle_placement(self, events: list[Event]) -> None:
        if self.to_place and not self._placeable():
            # No space may take a man: the rest are discarded to the supply.
            # ruling: docs/rulings.md#mordred-men-with-nowhere-to-go
            events.append(Event("men_discarded", {"seat": self.current, "count": self.to_place}))
            self.men_supply += self.to_place
            self.to_place = 0
        if self.phase == "place" and not self.to_place:
            self.phase = "spend"

    def _put_man(self, space: str, events: list[Event]) -> None:
        self.to_place -= 1
        piece = self.pieces.get(space)
        if piece is not None:
            self.target = (None, space)
            self.phase = "mordred_die"
            events.append(
                Event(
                    "mordred_attack",
                    {
                        "seat": self.current,
                        "space": space,
                        "owner": piece[0],
                        "building": piece[1],
                        "need": self._need(),
                    },
                )
            )
            return
        self.men.add(space)
        events.append(Event("man_placed", {"seat": self.current, "space": space}))
        if not self._all_men_placed(events):
            self._settle_placement(events)

    def _mordred_combat(self, value: int, events: list[Event]) -> None:
        assert self.target is not None
        space = self.target[1]
        owner, building = self.pieces[space]
        need = self._need()
        self.target = None
        self.phase = "place"
        won = value >= need
        events.append(
            Event(
                "mordred_combat",
                {
                    "space": space,
                    "owner": owner,
                    "building": building,
                    "need": need,
                    "die": value,
                    "success": won,
                },
            )
        )
        if won:
            # The piece goes back to its owner; the man takes the space.
            del self.pieces[space]
            self.supply[owner][building] += 1
            self.men.add(space)
            if self._all_men_placed(events):
                return
        else:
            self.men_supply += 1  # a failed man is discarded to the supply
        self._settle_placement(events)

    def _player_combat(self, value: int, events: list[Event]) -> None:
        assert self.target is not None and self.target[0] is not None
        origin, space = self.target
        need = self._need()
        self.target = None
        self.phase = "spend"
        won = value >= need
        events.append(
            Event(
                "player_combat",
                {
                    "seat": self.current,
                    "from": origin,
                    "space": space,
                    "need": need,
                    "die": value,
                    "success": won,
                },
            )
        )
        if not won:
            return
        self.men.discard(space)
        self.men_supply += 1  # ruling: docs/rulings.md#mordred-anglesey
        if space == TABLES.anglesey:
            self._finish("mordred_slain", self.current, events)
            return
        self._move_pawn(+1, events)

    def _need(self) -> int:
        """The roll the pending combat needs, from the combat table."""
        assert self.target is not None
        origin, space = self.target
        if origin is None:
            return TABLES.defence[self.pieces[space][1]]
        return TABLES.attack[self.pieces[origin][1]]

    def _build_now(self, building: str, space: str, events: list[Event]) -> None:
        seat = self.current
        cost = self._build(building, space)
        assert isinstance(cost, int)
        old = self.pieces.get(space)
        if old is not None:
            self.supply[seat][old[1]] += 1  # the replaced piece comes off the map
        self.money[seat] -= cost
        self.supply[seat][building] -= 1
        self.pieces[space] = (seat, building)
        self.built_any = True
        events.append(
            Event(
                "built",
                {
                    "seat": seat,
                    "building": building,
                    "space": space,
                    "cost": cost,
                    "replaced": old[1] if old else None,
                },
            )
        )

    def _next_turn(self, events: list[Event]) -> None:
        nxt = (self.current + 1) % self.players
        if nxt == 0:
            if self.round == ROUND_LIMIT:
                self._finish("round_limit", None, events)
                return
            self.round += 1
        self.current = nxt
        self.phase = "declare"
        self.row, self.declared, self.dice = None, False, None
        events.append(Event("turn", {"seat": nxt, "round": self.round}))
        # Ending (b) is only looked at "all'inizio del vostro turno".
        spent = [b for b in BUILDINGS if self.supply[nxt][b] == 0]
        if spent:
            self._finish("pieces_exhausted", nxt, events)

    def _all_men_placed(self, events: list[Event]) -> bool:
        # Ending (a): every one of Mordred's men stands on the map at once.
        if len(self.men) == TABLES.men:
            self._finish("all_men_placed", self.current, events)
            return True
        return False

    def _finish(self, ending: str, seat: int | None, events: list[Event]) -> None:
        self.end = (ending, seat)
        self.phase = "over"
        self.target = None
        out = self._outcome()
        assert out is not None
        events.append(
            Event("game_over", {"ending": ending, "seat": seat, "winners": out.winners, "reason": out.reason})
        )

    # -- reading the state ---------------------------------------------------
    def vp(self) -> list[int]:
        totals = [0] * self.players
        for owner, building in self.pieces.values():
            totals[owner] += TABLES.vp[building]
        return totals

    def _outcome(self) -> Outcome | None:
        if self.end is None:
            return None
        ending, seat = self.end
        return scoring.decide(
            ending, seat, len(self.men), len(self.pieces), self.pawns, self.vp(), self.money
        )

    def _view(self, seat: int | None) -> JSON:
        # Perfect information: every seat sees the public view, plus who it is.
        vp = self.vp()
        out = self.outcome()
        return {
            "game": self.game_id,
            "seat": seat,
            "unofficial": self.players == 2,
            "round": self.round,
            "turn": self.current,
            "to_move": self._to_move(),
            "phase": self.phase,
            "row": self.row,
            "declared": self.declared,
            "dice": list(self.dice) if self.dice else None,
            "players": [
                {
                    "seat": s,
                    "money": self.money[s],
                    "pawn": self.pawns[s],
                    "vp": vp[s],
                    "supply": dict(self.supply[s]),
                }
                for s in range(self.players)
            ],
            "pieces": {sp: {"owner": o, "building": b} for sp, (o, b) in sorted(self.pieces.items())},
            "mordred_men": sorted(self.men),
            "men_in_supply": self.men_supply,
            "men_to_place": self.to_place,
            "track": {"length": TABLES.track_length, "dragon": TABLES.dragon},
            "prompt": self._prompt(),
            "outcome": out.to_json() if out else None,
        }

    def _prompt(self) -> JSON:
        """What must be decided now, for the seat's screen."""
        p = self.phase
        if p == "declare":
            return {"decide": "row", "rows": list(ROWS), "default": "C"}
        if p == "roll":
            return {"decide": "dice", "row": self.row}
        if p == "place":
            return {"decide": "place", "men_left": self.to_place, "spaces": self._placeable()}
        if p in ("mordred_die", "attack_die"):
            assert self.target is not None
            return {
                "decide": "die",
                "attacker": "mordred" if p == "mordred_die" else "player",
                "from": self.target[0],
                "space": self.target[1],
                "need": self._need(),
            }
        if p == "spend":
            return {"decide": "spend", "money": self.money[self.current], "attack_cost": TABLES.attack_cost}
        return {"decide": None}

    def _to_json(self) -> JSON:
        return {
            "round": self.round,
            "current": self.current,
            "phase": self.phase,
            "row": self.row,
            "declared": self.declared,
            "dice": list(self.dice) if self.dice else None,
            "money": list(self.money),
            "pawns": list(self.pawns),
            "supply": [dict(s) for s in self.supply],
            "pieces": {sp: [o, b] for sp, (o, b) in sorted(self.pieces.items())},
            "men": sorted(self.men),
            "men_supply": self.men_supply,
            "to_place": self.to_place,
            "target": list(self.target) if self.target else None,
            "built_any": self.built_any,
            "end": list(self.end) if self.end else None,
        }
