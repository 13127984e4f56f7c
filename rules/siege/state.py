"""Siege's game state: the table, the hands and decks, and the turn's flow.

Phases (``self.phase``) and who acts:

* ``setup_draw`` (chance: 8 draws), ``setup`` (3 plays or discards), per side,
  the Attacker first;
* per turn: ``die`` (chance: the event die), ``draw`` (chance), ``event``
  (Spear of Destiny's choice), ``horn`` (the wall a Horn of Joshua removes),
  ``lose`` (Plague, Floods, starvation, Famine, a lost melee: one card at a
  time), ``arrive`` (a reinforcement's place in row 2), ``feed``, ``play``,
  ``attack`` / ``aim`` / ``support`` (the attacked side) / ``attack_die``
  (chance), ``move``, and ``pour`` (the Defender's window for Oil, Pitch
  and Lead during the Attacker's turn).

Units on the table are ids ``<card>-<n>`` (``knight-12``); rows hold ids in
order, left to right, so "adjacent" means next in the same row.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable, Sequence
from itertools import accumulate
from typing import Any

from rules.core import CHANCE, JSON, Event, Move, Outcome, State
from rules.siege import moves as mv
from rules.siege.checks import explain
from rules.siege.combat import group_need, melee_result, ranged_hits
from rules.siege.constants import (
    ATTACKER,
    DEFENDER,
    DIE_FACES,
    GAME_ID,
    HAND_LIMIT,
    LEADER,
    POUR_CARDS,
    ROWS,
    SETUP_ACTIONS,
    SETUP_DRAW,
    SIDES,
    SUPPLY,
    SUPPLY_LIMIT,
)
from rules.siege.data import CARDS, DATA
from rules.siege.table import Table, card_of, kind_of

CHANCE_PHASES = frozenset(("setup_draw", "die", "draw", "attack_die"))
#: the phases the turn's flow (``_advance``) may move on from by itself
_FLOWING = frozenset(("begin", "end", "feed", "lose", "play", "attack", "pour", "move"))
#: events that stay in force until the drawer's next turn
LASTING = ("low_morale", "bad_weather", "papal_injunction", "floods")
SPEAR_CHOICES = ("bonus", "archer", "swordsman")

@functools.lru_cache(maxsize=16384, typed=True)
def _m(kind: type[Move], *fields: Any) -> Move:
    """The move ``kind(*fields)``, one shared instance each: the search
    lists the menus millions of times, and moves are frozen."""
    return kind(*fields)


@functools.lru_cache(maxsize=4096)
def _plays(card: str, target: str | None, slots: tuple[int | None, ...]) -> tuple[Move, ...]:
    """``card`` played on ``target`` at each of ``slots``."""
    return tuple(_m(mv.Play, card, target, at) for at in slots)


@functools.lru_cache(maxsize=4096)
def _drawn(card: str, copies: int) -> tuple[Move, float]:
    """A draw with its weight: ``copies`` of ``card`` left in the deck."""
    return _m(mv.Draw, card), float(copies)


# A menu's moves naming a unit, one shared instance each, kept by the unit
# id alone: ``_m`` without building its key (a menu lists every unit).
@functools.lru_cache(maxsize=4096)
def _attack(uid: str) -> Move:
    return mv.Attack(uid)


@functools.lru_cache(maxsize=4096)
def _brawl(uid: str) -> Move:
    return mv.Attack(uid, True)


@functools.lru_cache(maxsize=4096)
def _join(uid: str) -> Move:
    return mv.Join(uid)


@functools.lru_cache(maxsize=4096)
def _target(uid: str) -> Move:
    return mv.Target(uid)


@functools.lru_cache(maxsize=4096)
def _lose(uid: str) -> Move:
    return mv.Lose(uid)


#: cards that are a Defender's turn's discard after setup (see must_discard)
_FORTIFICATIONS = frozenset(card for card, c in CARDS.items() if c.kind == "fortification")

@functools.lru_cache(maxsize=1024)
def _row2_plays(card: str, n: int) -> tuple[Move, ...]:
    """``_plays(card, None, _SLOTS[n])``: the usual plays into a row 2 of n - 1 cards."""
    return _plays(card, None, _SLOTS[n])


@functools.lru_cache(maxsize=4096)
def _into_row1(uid: str, n: int) -> tuple[Move, ...]:
    """The moves of a unit into row 1 at each of its n slots."""
    return tuple(_m(mv.Shift, uid, "r1", at) for at in range(n))


#: slots 0..n-1 of a row, by n (a row is never near 64 cards long)
_SLOTS = tuple(tuple(range(n)) for n in range(64))
_DICE = tuple(mv.Die(v) for v in range(1, DIE_FACES + 1))
_DIE_OUTCOMES = tuple((die, 1.0) for die in _DICE)
_DIE_TOTALS = tuple(float(v) for v in range(1, DIE_FACES + 1))  # one each: the running totals
#: the draw and the discard of each card, one shared instance each
_DRAWS = {card: _m(mv.Draw, card) for card in CARDS}
_DISCARDS = {card: _m(mv.Discard, card) for card in CARDS}
_END = _m(mv.EndPhase)
#: the cards played into row 2 at any slot, with no target (troops, war machines)
_INTO_ROW2 = frozenset(card for card, c in CARDS.items() if c.kind in ("troop", "war_machine"))


#: where the moves write their events; None: make none (a search's playout)
Events = list[Event] | None


def _played(seat: int, card: str, target: str | None) -> dict[str, Any]:
    """A ``played`` event's params, before the unit a card becomes."""
    return {"seat": seat, "card": card, **({"target": target} if target else {})}


def _take(counts: dict[str, int], card: str) -> None:
    counts[card] -= 1
    if not counts[card]:
        del counts[card]


def _add(counts: dict[str, int], card: str, n: int = 1) -> None:
    counts[card] = counts.get(card, 0) + n


def _copy_fields(d: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of the state's fields, each by its known shape: much
    cheaper than copy.deepcopy, and apply() copies on every move."""
    out = dict(d)
    out["decks"] = [{k: dict(v) for k, v in side.items()} for side in d["decks"]]
    out["rows"] = [{r: list(units) for r, units in side.items()} for side in d["rows"]]
    for key in ("hands", "discards"):
        out[key] = [dict(x) for x in d[key]]
    for key in ("active", "coming", "arriving"):
        out[key] = [dict(x) for x in d[key]]
    for key in ("played", "used", "group"):
        out[key] = list(d[key])
    for key in ("boarded", "damage", "owners"):
        out[key] = dict(d[key])
    out["towers"] = {k: list(v) for k, v in d["towers"].items()}
    out["result"] = dict(d["result"]) if d["result"] is not None else None
    losses = d["losses"]
    out["losses"] = {k: list(v) if isinstance(v, list) else v for k, v in losses.items()} if losses else None
    if "history" in d:
        out["history"] = list(d["history"])
        out["options"] = dict(d["options"])
    return out


class SiegeState(Table, State):
    game_id = GAME_ID

    def __init__(self, players: int, seed: int, options: dict[str, Any]) -> None:
        super().__init__(players, seed, options)
        self.phase = "setup_draw"
        self.seat = ATTACKER  # whose turn (or whose setup)
        self.turn = 0
        self.day = 0
        self.serial = 0
        self.decks: list[dict[str, dict[str, int]]] = [
            {"normal": dict(DATA.decks[side]), "events": dict(DATA.decks[f"{side}_events"])} for side in SIDES
        ]
        self.hands: list[dict[str, int]] = [{}, {}]
        self.discards: list[dict[str, int]] = [{}, {}]
        self.rows: list[dict[str, list[str]]] = [{r: [] for r in ROWS} for _ in SIDES]
        self.towers: dict[str, list[str]] = {}  # Siege Tower id -> soldiers inside
        self.boarded: dict[str, int] = {}  # soldier id -> day it entered a tower
        self.owners: dict[str, int] = {}  # a card a Traitor moved -> the side whose deck it is
        # a game recorded by the first engine, which put a lost card a
        # Traitor took on the discards of the side it was on (rules/siege/older.py)
        self.older_record = False
        self.played: list[str] = []  # units that entered the table this turn
        self.used: list[str] = []  # units that attacked this turn
        self.damage: dict[str, int] = {}  # hits this turn; cleared at its end
        self.card_played = False
        self.count = SETUP_DRAW  # setup draws or setup actions left
        self.deck = ""  # "normal" or "events": what the event die chose
        self.group: list[str] = []  # the attack being built
        self.hand_to_hand = False  # the Archers of that attack fight hand to hand
        self.aim = ""  # its target
        self.support: str | None = None
        self.losses: dict[str, Any] | None = None  # {"count", "reason", "resume"}
        self.active: list[dict[str, Any]] = []  # events in force
        self.coming: list[dict[str, Any]] = []  # reinforcements on their way
        # cards entering a row by no move of their own, waiting for the place
        # their owner names: {"seat", "row", and "card" (a reinforcement) or
        # "unit" (a soldier stepping down from a tower)}
        self.arriving: list[dict[str, Any]] = []
        self.after_arrival = ""  # the phase the turn goes on with once they are placed
        self.bonus = 0  # Spear of Destiny's +1 on the next attack this turn (die or melee)
        self.resume = ""  # the phase a pour window returns to
        self.window_done = False
        self.result: dict[str, Any] | None = None
        for seat in (ATTACKER, DEFENDER):
            for row, cards in DATA.layout[seat].items():
                for card in cards:
                    _take(self.decks[seat]["normal"], card)
                    self._place(seat, row, card)

    # -- plumbing --------------------------------------------------------
    def copy(self) -> SiegeState:
        other = object.__new__(type(self))
        other.__dict__ = _copy_fields(self.__dict__)
        return other

    def _place(self, seat: int, row: str, card: str, at: int | None = None) -> str:
        self.serial += 1
        uid = f"{card}-{self.serial}"
        self._insert(seat, row, uid, at)
        if card == "siege_tower":
            self.towers[uid] = []
        return uid

    def _insert(self, seat: int, row: str, uid: str, at: int | None) -> None:
        """Into ``row`` at the slot the player named (the right end where
        the card's place is not theirs to name: the opening layout, food
        and modifiers, whose order changes nothing)."""
        units = self.rows[seat][row]
        units.insert(len(units) if at is None else at, uid)

    def slots(self, seat: int, row: str) -> range:
        """The places a card entering ``row`` may take, left to right.
        ruling: docs/rulings.md#siege-place-in-the-row"""
        return range(len(self.rows[seat][row]) + 1)

    def entry_slots(self, card: str, target: str | None) -> list[int | None]:
        """The slots a played card takes in row 2 ([None] when it enters
        no row whose order matters)."""
        entering = target if card == "traitor" else card
        if entering is None or entering == "grain" or card == "assassin" or card in POUR_CARDS:
            return [None]
        if CARDS[card_of(entering)].kind in ("troop", "war_machine"):
            return list(self.slots(self.seat, "r2"))
        return [None]

    # -- the hooks -------------------------------------------------------
    # The search asks these at every step: straight to the hook, without
    # the base class's indirection (``to_move`` and ``legal_moves`` are the
    # hooks themselves, below; the game is over exactly when the result is
    # set, so they say the same as the base's).
    def _to_move(self) -> int | None:
        if self.result is not None:
            return None
        if self.phase in CHANCE_PHASES:
            return CHANCE
        if self.phase == "support":
            return 1 - self.seat
        if self.phase == "pour":
            return DEFENDER
        if self.phase == "arrive":
            return self.arriving[0]["seat"]
        return self.seat

    to_move = _to_move

    def _legal_moves(self) -> list[Move]:
        if self.result is not None:
            return []
        p = self.phase
        # the players' phases first, the most frequent first: a search lists
        # the chance steps' outcomes through ``chance_totals``
        if p == "play":
            return self.play_menu(setup=False)
        if p == "lose":
            return self.loss_options()
        if p == "attack":
            attackers, brawlers = self.attack_menu()
            return [*map(_attack, attackers), *map(_brawl, brawlers), _END]
        if p == "aim":
            targets = self.group_targets()
            return [*map(_join, self.joiners(targets)), *map(_target, targets)]
        if p == "move":
            return [*self.shift_options(), _END]
        if p in ("setup_draw", "draw"):
            return [_DRAWS[c] for c in sorted(self._draw_deck())]
        if p in ("die", "attack_die"):
            return list(_DICE)
        if p == "setup":
            return self.play_menu(setup=True)
        if p == "event":
            # Which Peasant turns is the Defender's to say.
            # ruling: docs/rulings.md#siege-the-player-chooses
            peasants = self.peasants() if self.seat == DEFENDER else []
            return [_m(mv.Spear, "bonus"), *(_m(mv.Spear, c, p, at) for c in SPEAR_CHOICES[1:]
                                             for p in peasants for at in self.slots(DEFENDER, "r2"))]
        if p == "horn":
            return [_m(mv.Raze, u) for u in self.walls()]
        if p == "arrive":
            entry = self.arriving[0]
            return [_m(mv.Place, at) for at in self.slots(entry["seat"], entry["row"])]
        if p == "feed":
            return [_m(mv.Feed, SUPPLY[self.seat])] if self.hands[self.seat].get(SUPPLY[self.seat]) else []
        if p == "support":
            return [*(_m(mv.Support, u) for u in self.supporters(self.aim)), _m(mv.Support, None)]
        if p == "pour":
            return [*self.pour_options(), _m(mv.Pass)]
        return []

    legal_moves = _legal_moves

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        if self.phase in ("setup_draw", "draw"):
            deck = self._draw_deck()
            return [_drawn(c, deck[c]) for c in sorted(deck)]
        if self.phase in ("die", "attack_die") and self.result is None:
            return list(_DIE_OUTCOMES)
        return super().chance_outcomes()

    def chance_totals(self) -> tuple[Sequence[Move], Sequence[float]]:
        # A draw's weights are the copies left, its totals their running sum;
        # the die's are fixed. ``chance_outcomes`` in the search's shape.
        p = self.phase
        if p == "die" or p == "attack_die":
            if self.result is None:
                return _DICE, _DIE_TOTALS
        elif p == "draw" or p == "setup_draw":
            deck = self.decks[self.seat]["normal" if p == "setup_draw" else self.deck]  # _draw_deck()
            cards = sorted(deck)
            return list(map(_DRAWS.__getitem__, cards)), list(accumulate(map(deck.__getitem__, cards)))
        return super().chance_totals()

    def _check(self, move: Move) -> None:
        if move in self._legal_moves():
            return
        explain(self, move)

    def _apply(self, move: Move) -> list[Event]:
        ev: list[Event] = []
        _handler(type(move))(self, move, ev)
        if self.phase in _FLOWING:  # else the flow waits here: _advance would return at once
            self._advance(ev)
        return ev

    def play_listed(self, move: Move) -> None:
        # The base's, with ``_apply`` written out and no events made (``ev``
        # None): a playout plays some 200 moves and never reads them.
        _handler(type(move))(self, move, None)
        if self.phase in _FLOWING:
            self._advance(None)
        self.history.append(move)

    # -- options ---------------------------------------------------------
    def _draw_deck(self) -> dict[str, int]:
        return self.decks[self.seat]["normal" if self.phase == "setup_draw" else self.deck]

    def play_targets(self, card: str, setup: bool) -> list[str | None]:
        """The targets ``card`` may be played with now ([None] for a card that
        takes none; [] when it cannot be played)."""
        seat, opp = self.seat, 1 - self.seat
        kind = CARDS[card].kind
        if setup and seat == DEFENDER and card not in ("castle_walls", "moat"):
            return []
        if kind == "fortification":
            if not setup or (card == "moat" and self.moat() is not None):
                return []
            return [None]
        if kind in ("troop", "war_machine", "modifier"):
            return [None]
        if kind == "supply":
            return [None] if len(self.supplies(seat)) < SUPPLY_LIMIT and card == SUPPLY[seat] else []
        if card == "assassin":
            return [u for u in self.rows[opp]["rc"] if CARDS[card_of(u)].kind == "modifier"]
        if card == "traitor":
            # ruling: docs/rulings.md#siege-what-is-a-truppa
            food_fits = len(self.supplies(seat)) < SUPPLY_LIMIT
            out: list[str | None] = [u for u in self.troops_in_play(opp)
                                     if food_fits or CARDS[card_of(u)].kind != "supply"]
            if self.discards[seat].get(SUPPLY[seat]) and self._grain_fits(setup):
                out.append("grain")
            return out
        if card in POUR_CARDS and seat == DEFENDER and not setup:
            return list(self.rows[ATTACKER]["r0"])
        return []

    def _grain_fits(self, setup: bool) -> bool:
        # ruling: docs/rulings.md#siege-hand-limit
        # The Traitor leaves the hand and the grain enters it; the hand must
        # still be able to come down to the limit with the actions left.
        left = self.count - 1 if setup else 0
        return self.hand_size(self.seat) - left <= HAND_LIMIT

    def must_discard(self) -> list[str]:
        """Castle Walls and Moat in the Defender's hand in his play phase:
        after setup "non potrà giocarle, e ... dovranno essere scartate", and
        a discard "come la Moat" is the turn's card; so the turn's card is
        their discard (one a turn; after feeding they wait a turn).
        ruling: docs/rulings.md#siege-walls-after-setup"""
        if self.phase != "play" or self.seat != DEFENDER or self.card_played:
            return []
        return sorted(c for c in self.hands[DEFENDER] if CARDS[c].kind == "fortification")

    def play_options(self, setup: bool) -> list[Move]:
        hand = self.hands[self.seat]
        out: list[Move] = []
        if not setup and (dead := self.must_discard()):
            return [_m(mv.Discard, c) for c in dead]
        for card in sorted(hand):
            for target in self.play_targets(card, setup):
                out.extend(_plays(card, target, tuple(self.entry_slots(card, target))))
            out.append(_m(mv.Discard, card))
        if not setup and self.hand_size(self.seat) <= HAND_LIMIT:
            out.append(_m(mv.EndPhase))
        return out

    def play_menu(self, setup: bool) -> list[Move]:
        """``play_options(setup)``, with the usual card, a troop or a war
        machine, listed from row 2's length without asking ``play_targets``
        and ``entry_slots`` (no target; any slot of row 2)."""
        seat = self.seat
        hand = self.hands[seat]
        # must_discard() is empty but for the Defender before his turn's card
        if not setup and seat == DEFENDER and not self.card_played and self.phase == "play":
            dead = [c for c in hand if c in _FORTIFICATIONS]
            if dead:
                return [_DISCARDS[c] for c in sorted(dead)]
        out: list[Move] = []
        n = len(self.rows[seat]["r2"]) + 1
        anywhere = not (setup and seat == DEFENDER)
        for card in sorted(hand):
            if anywhere and card in _INTO_ROW2:
                out += _row2_plays(card, n)
            else:
                for target in self.play_targets(card, setup):
                    out.extend(_plays(card, target, tuple(self.entry_slots(card, target))))
            out.append(_DISCARDS[card])
        if not setup and sum(hand.values()) <= HAND_LIMIT:
            out.append(_END)
        return out

    def loss_candidates(self, reason: str) -> list[str]:
        """What the seat may give up: Plague counts machines and food, not
        modifiers or leaders; starvation's and Floods' "Truppa" is read the
        same way (ruling: docs/rulings.md#siege-what-is-a-truppa). Famine
        takes one of the seat's food cards, a lost melee one unit of the
        attacking group: the seat names which (ruling:
        docs/rulings.md#siege-the-player-chooses)."""
        if reason == "famine":
            return self.supplies(self.seat)
        if reason == "melee":
            return [u for u in (self.losses or {}).get("units", []) if self.locate(u) is not None]
        return self.troops_in_play(self.seat)

    def loss_options(self) -> list[Move]:
        if not self.losses:
            return []
        reason = self.losses["reason"]
        out: list[Move] = list(map(_lose, self.loss_candidates(reason)))
        if reason == "floods" and self.hands[self.seat].get(SUPPLY[self.seat]):
            out.append(_m(mv.Lose, None, SUPPLY[self.seat]))
        return out

    def may_lose(self) -> bool:
        """``bool(loss_options())`` without listing them: the turn's flow
        asks it at every loss and every hungry turn."""
        if not self.losses:
            return False
        reason = self.losses["reason"]
        if reason == "floods" and self.hands[self.seat].get(SUPPLY[self.seat]):
            return True
        if reason in ("famine", "melee"):
            return bool(self.loss_candidates(reason))
        return self.has_troops(self.seat)

    def pour_options(self) -> list[Move]:
        hand = self.hands[DEFENDER]
        return [_m(mv.Play, c, t) for c in POUR_CARDS if hand.get(c) for t in self.rows[ATTACKER]["r0"]]

    # -- movement --------------------------------------------------------
    def shift_options(self) -> list[Move]:
        # ruling: docs/rulings.md#siege-movement-into-row-1
        # ruling: docs/rulings.md#siege-tower
        seat = self.seat
        if seat != ATTACKER or (self.active and self.has_event(seat, ("floods",))):
            return []
        rows = self.rows[ATTACKER]
        out: list[Move] = []
        if self.played and len(rows["r1"]) < self.row1_limit():
            n = len(rows["r1"]) + 1  # slots(ATTACKER, "r1")
            for u in self.played:
                if u in rows["r2"]:
                    out += _into_row1(u, n)
        towers = [t for t in rows["r0"] if t in self.towers]
        for u in rows["r1"]:
            card = card_of(u)
            if card == "siege_tower" or (card == "battering_ram" and not self.moat()):
                out.append(_m(mv.Shift, u, "r0"))
            if CARDS[card].kind == "troop" and not CARDS[card].mounted:
                cap = CARDS["siege_tower"].capacity
                out.extend(_m(mv.Shift, u, t) for t in towers if len(self.towers[t]) < cap)
        return out

    def can_shift(self) -> bool:
        """``bool(shift_options())`` without listing them: the turn's flow
        asks it after every step of the Attacker's movement."""
        seat = self.seat
        if seat != ATTACKER or (self.active and self.has_event(seat, ("floods",))):
            return False
        rows = self.rows[ATTACKER]
        r1 = rows["r1"]
        if self.played:
            r2 = rows["r2"]
            if any(u in r2 for u in self.played) and len(r1) < self.row1_limit():
                return True
        if not r1:
            return False
        towers = self.towers
        cap = CARDS["siege_tower"].capacity
        room = any(len(towers[t]) < cap for t in rows["r0"] if t in towers)
        for u in r1:
            card = card_of(u)
            if card == "siege_tower" or (card == "battering_ram" and not self.moat()):
                return True
            if room and CARDS[card].kind == "troop" and not CARDS[card].mounted:
                return True
        return False

    # -- applying --------------------------------------------------------
    def _do_draw(self, move: mv.Draw, ev: Events) -> None:
        seat, card = self.seat, move.card
        setup = self.phase == "setup_draw"
        deck = self.decks[seat]["normal" if setup else self.deck]  # _draw_deck()
        left = deck[card] - 1  # _take and _add written out: half the moves of a playout are draws or dice
        if left:
            deck[card] = left
        else:
            del deck[card]
        if setup or self.deck == "normal":
            hand = self.hands[seat]
            hand[card] = hand.get(card, 0) + 1
            if ev is not None:
                ev.append(Event("drew", {"seat": seat, "card": card}, audience=(seat,)))
            if ev is not None:
                ev.append(Event("drew", {"seat": seat}))
            if setup:
                self.count -= 1
                if not self.count:
                    self.phase, self.count = "setup", SETUP_ACTIONS
            else:
                self.phase = "feed"
            return
        if ev is not None:
            ev.append(Event("event_drawn", {"seat": seat, "card": card}))
        self.phase = "feed"
        self._resolve_event(card, ev)

    def _resolve_event(self, card: str, ev: Events) -> None:
        seat = self.seat
        effect = CARDS[card].effect
        _add(self.discards[seat], card)
        if effect in LASTING:
            variant = ""
            if effect == "low_morale":  # ruling: docs/rulings.md#siege-low-morale
                mods = [u for u in self.rows[seat]["rc"] if CARDS[card_of(u)].kind == "modifier"]
                variant = "ignore" if mods else "dice"
            # "resta attiva fino al suo prossimo turno": two turns from now.
            # ruling: docs/rulings.md#siege-event-duration
            self.active.append({"card": card, "seat": seat, "until": self.turn + 2, "variant": variant})
        if effect == "plague":
            n = math.ceil(len(self.loss_candidates("plague")) / 2)
            if n:
                self.losses = {"count": n, "reason": "plague", "resume": "feed"}
                self.phase = "lose"
        elif effect == "floods":
            self.losses = {"count": 1, "reason": "floods", "resume": "feed"}
            self.phase = "lose"
        elif effect == "famine":
            if self.supplies(seat):  # which one is the drawer's choice
                self.losses = {"count": 1, "reason": "famine", "resume": "feed"}
                self.phase = "lose"
        elif effect == "reinforcement":  # ruling: docs/rulings.md#siege-reinforcements
            troop, delay = CARDS[card].troop, CARDS[card].delay_days
            if delay:
                self.coming.append({"seat": seat, "troop": troop, "day": self.day + delay})
            else:
                self._arrive({"seat": seat, "row": "r2", "card": troop})
        elif effect == "horn_of_joshua":
            if self.walls():  # the drawer names the section (``raze``)
                # ruling: docs/rulings.md#siege-the-player-chooses
                self.phase = "horn"
        elif effect == "spear_of_destiny":
            self.phase = "event"

    def _arrive(self, entry: dict[str, Any]) -> None:
        """A card is entering a row by no move of its own (a reinforcement,
        a soldier stepping down from a tower): its owner names its place
        (``place``) before the turn goes on with its current phase.
        ruling: docs/rulings.md#siege-place-in-the-row"""
        self.arriving.append(entry)
        if self.phase != "arrive":
            self.after_arrival, self.phase = self.phase, "arrive"

    def _do_place(self, move: mv.Place, ev: Events) -> None:
        entry = self.arriving.pop(0)
        seat, row = entry["seat"], entry["row"]
        if "card" in entry:  # a reinforcement enters row 2 like a card played this turn
            uid = self._place(seat, row, entry["card"], move.at)
            self.played.append(uid)
            if ev is not None:
                ev.append(Event("arrived", {"seat": seat, "unit": uid}))
        else:
            self._insert(seat, row, entry["unit"], move.at)
            if ev is not None:
                ev.append(Event("moved", {"unit": entry["unit"], "to": row}))
        if not self.arriving:
            self.phase, self.after_arrival = self.after_arrival, ""

    def _do_die(self, move: mv.Die, ev: Events) -> None:
        if ev is not None:
            ev.append(Event("die", {"seat": self.seat, "value": move.value, "for": self.phase}))
        if self.phase == "die":
            key = "events" if move.value <= 3 else "normal"
            if not self.decks[self.seat][key]:  # that deck is spent: draw from the other
                key = "normal" if key == "events" else "events"
            self.deck, self.phase = key, "draw"
        else:
            self._resolve_shot(move.value, ev)

    def _do_spear(self, move: mv.Spear, ev: Events) -> None:
        # ruling: docs/rulings.md#siege-spear-of-destiny
        if move.choice == "bonus":
            self.bonus = 1
        else:
            peasant = move.unit or ""
            self.rows[self.seat]["rc"].remove(peasant)
            uid = self._place(self.seat, "r2", move.choice, move.at)
            self.played.append(uid)
            if ev is not None:
                ev.append(Event("converted", {"from": peasant, "to": uid}))
        self.phase = "feed"

    def _do_raze(self, move: mv.Raze, ev: Events) -> None:
        # "Rimuovete quella sezione dal gioco": removed, not discarded.
        self._destroy(move.unit, ev, "horn_of_joshua", discard=False)
        self.phase = "feed"

    def _do_lose(self, move: mv.Lose, ev: Events) -> None:
        assert self.losses is not None
        if move.unit is not None:
            self._destroy(move.unit, ev, self.losses["reason"])
        else:
            _take(self.hands[self.seat], move.card or "")
            _add(self.discards[self.seat], move.card or "")
            if ev is not None:
                ev.append(Event("discarded", {"seat": self.seat, "card": move.card}))
        self.losses["count"] -= 1

    def _do_feed(self, move: mv.Feed, ev: Events) -> None:
        _take(self.hands[self.seat], move.card)
        _add(self.discards[self.seat], move.card)
        self.card_played = True  # "varrà come carta giocata"
        self.phase = "play"
        if ev is not None:
            ev.append(Event("fed", {"seat": self.seat, "card": move.card}))

    def _do_discard(self, move: mv.Discard, ev: Events) -> None:
        _take(self.hands[self.seat], move.card)
        _add(self.discards[self.seat], move.card)
        if ev is not None:
            ev.append(Event("discarded", {"seat": self.seat, "card": move.card}))
        self._after_card()

    def _do_play(self, move: mv.Play, ev: Events) -> None:
        seat = DEFENDER if self.phase == "pour" else self.seat
        card, target = move.card, move.target
        _take(self.hands[seat], card)
        kind = CARDS[card].kind
        if kind in ("troop", "war_machine", "supply", "modifier", "fortification"):
            if kind in ("troop", "war_machine"):
                uid = self._place(seat, "r2", card, move.at)
                self.played.append(uid)
            else:
                uid = self._place(seat, "rc" if kind != "fortification" else "r0" if card == "moat" else "r1",
                                  card)
            if ev is not None:
                ev.append(Event("played", {**_played(seat, card, target), "unit": uid}))
        else:
            if ev is not None:
                ev.append(Event("played", _played(seat, card, target)))
            _add(self.discards[seat], card)
            if card == "traitor" and target == "grain":
                _take(self.discards[seat], SUPPLY[seat])
                _add(self.hands[seat], SUPPLY[seat])
            elif card == "traitor":
                assert target is not None
                self._turncoat(seat, target, move.at)
                for flags in (self.used, self.group):
                    if target in flags:
                        flags.remove(target)
            else:  # Assassin, Oil, Pitch, Lead
                assert target is not None
                self._destroy(target, ev, card)
        if self.phase != "pour":
            self._after_card()

    def _after_card(self) -> None:
        if self.phase == "setup":
            self.count -= 1
            if not self.count:
                self._end_setup()
        else:
            self.card_played = True

    def _end_setup(self) -> None:
        self.played.clear()
        if self.seat == ATTACKER:
            self.seat, self.phase, self.count = DEFENDER, "setup_draw", SETUP_DRAW
        else:
            self.seat, self.day, self.phase = ATTACKER, 1, "begin"

    def _do_endphase(self, move: mv.EndPhase, ev: Events) -> None:
        if self.phase == "play":
            self.phase = "attack"
        elif self.phase == "attack":
            self.phase = "move"
        else:
            self.phase = "end"

    def _do_attack(self, move: mv.Attack, ev: Events) -> None:
        self.group = [move.unit]
        self.hand_to_hand = move.melee
        self.phase = "aim"

    def _do_join(self, move: mv.Join, ev: Events) -> None:
        self.group.append(move.unit)

    def _do_target(self, move: mv.Target, ev: Events) -> None:
        self.aim = move.target
        self.used.extend(self.group)
        mode = self.mode(self.group[0])
        if ev is not None:
            ev.append(Event("attack", {"seat": self.seat, "units": list(self.group), "target": move.target}))
        if mode in ("ranged", "ram"):
            self.phase = "attack_die"
        elif mode == "fill":
            self._fill_moat(ev)
        elif self.supporters(move.target):
            self.phase = "support"
        else:
            self._resolve_melee(ev)

    def _do_support(self, move: mv.Support, ev: Events) -> None:
        self.support = move.unit
        self._resolve_melee(ev)

    def _do_shift(self, move: mv.Shift, ev: Events) -> None:
        where = self.locate(move.unit)
        assert where is not None
        self.rows[ATTACKER][where[1]].remove(move.unit)
        if move.to in ("r0", "r1"):
            self._insert(ATTACKER, move.to, move.unit, move.at)
        else:
            self.towers[move.to].append(move.unit)
            self.boarded[move.unit] = self.day
        if ev is not None:
            ev.append(Event("moved", {"unit": move.unit, "to": move.to}))
        if move.to == "r0":
            # "in qualsiasi momento": the Defender may pour at once.
            self.resume, self.phase = "move", "pour"

    def _do_pass(self, move: mv.Pass, ev: Events) -> None:
        self.phase, self.resume = self.resume, ""

    # -- resolution ------------------------------------------------------
    def _end_attack(self) -> None:
        self.group, self.aim, self.support = [], "", None
        self.hand_to_hand = False
        self.phase = "attack"

    def _resolve_shot(self, roll: int, ev: Events) -> None:
        seat, aim = self.seat, self.aim
        need = group_need(self.group_faces(self.group, aim))
        modifier = self.dice_modifier(seat) + self.bonus
        self.bonus = 0
        if seat == ATTACKER and card_of(aim) == "castle_walls":
            modifier -= int(self.modifier_in_force(DEFENDER, "stonemason"))
        hit = ranged_hits(roll, modifier, need)
        if ev is not None:
            ev.append(Event("shot", {"seat": seat, "target": aim, "roll": roll, "modifier": modifier,
                                     "need": need, "hit": hit}))
        if hit:
            self.damage[aim] = self.damage.get(aim, 0) + 1
            card = CARDS[card_of(aim)]
            # ruling: docs/rulings.md#siege-shields
            hits_needed = card.shield if card.kind in ("war_machine", "fortification") else 1
            if self.damage[aim] >= hits_needed:
                self._destroy(aim, ev, "shot")
        self._end_attack()

    def _resolve_melee(self, ev: Events) -> None:
        aim, first = self.aim, self.group[0]
        attack = sum(CARDS[card_of(u)].melee for u in self.group) + self.bonus
        self.bonus = 0
        defence = self._defence(aim) + (self._defence(self.support) if self.support else 0)
        target_dies, attacker_dies = melee_result(attack, defence, CARDS[card_of(first)].melee)
        if ev is not None:
            ev.append(Event("melee", {"seat": self.seat, "target": aim, "attack": attack,
                                      "defence": defence}))
        if target_dies:
            self._destroy(aim, ev, "melee")
        group = list(self.group)
        self._end_attack()
        if attacker_dies and self.result is None:
            if len(group) == 1:
                self._destroy(first, ev, "melee")
            else:
                # "la stessa sorte tocca anche ad un Uomo di Spada": one of the
                # group, which one the attacking side says.
                # ruling: docs/rulings.md#siege-the-player-chooses
                self.losses = {"count": 1, "reason": "melee", "resume": "attack", "units": group}
                self.phase = "lose"

    @staticmethod
    def _defence(uid: str) -> int:
        # A war machine's shield "non può essere usato nei combattimenti
        # corpo-a-corpo": in melee it defends with 0.
        card = CARDS[card_of(uid)]
        return card.defence if card.kind in ("troop", "leader") else 0

    def _fill_moat(self, ev: Events) -> None:
        tower = self.group[0]
        moat = self.aim
        soldiers = self.towers.get(tower, [])
        for soldier in soldiers:  # they step down into row 1, where the Attacker says
            self.boarded.pop(soldier, None)
        self.towers[tower] = []
        self._destroy(moat, ev, "filled")
        self._destroy(tower, ev, "filled")
        self._end_attack()
        for soldier in soldiers:
            self._arrive({"seat": ATTACKER, "row": "r1", "unit": soldier})

    def _turncoat(self, seat: int, uid: str, at: int | None) -> None:
        """The Traitor's card changes sides: a food card to the taker's food
        place, anything else into row 2 as a card played this turn. Soldiers
        in a tower taken stay with their side, stepping down into row 1.
        ruling: docs/rulings.md#siege-what-is-a-truppa"""
        owner = self.owners.pop(uid, 1 - seat)
        if owner != seat:
            self.owners[uid] = owner
        self._lift(uid)
        if CARDS[card_of(uid)].kind == "supply":
            self.rows[seat]["rc"].append(uid)
            return
        soldiers = self.towers.get(uid, [])
        for soldier in soldiers:
            self.boarded.pop(soldier, None)
        if uid in self.towers:
            self.towers[uid] = []
        self._insert(seat, "r2", uid, at)
        self.played.append(uid)
        for soldier in soldiers:  # into their own row 1, where their side says
            self._arrive({"seat": 1 - seat, "row": "r1", "unit": soldier})

    def _lift(self, uid: str) -> int:
        """Take a unit off the table (out of a tower too); returns its side."""
        where = self.locate(uid)
        assert where is not None
        seat, row = where
        if row in self.towers:
            self.towers[row].remove(uid)
            self.boarded.pop(uid, None)
        else:
            self.rows[seat][row].remove(uid)
        return seat

    def _pile(self, uid: str, seat: int) -> int:
        """The side whose discards a lost card goes to: its deck's."""
        owner = self.owners.pop(uid, seat)
        return seat if self.older_record else owner

    def _destroy(self, uid: str, ev: Events, reason: str, discard: bool = True) -> None:
        seat = self._lift(uid)
        card = card_of(uid)
        if discard:  # onto its own deck's pile, wherever a Traitor took it
            _add(self.discards[self._pile(uid, seat) if self.owners or self.older_record else seat], card)
        for inside in self.towers.pop(uid, []):  # "i soldati al suo interno muoiono"
            _add(self.discards[self._pile(inside, seat)], card_of(inside))
            self.boarded.pop(inside, None)
            if ev is not None:
                ev.append(Event("destroyed", {"unit": inside, "reason": "tower"}))
        if self.boarded:
            self.boarded.pop(uid, None)
        if self.damage:
            self.damage.pop(uid, None)
        if uid in self.played:
            self.played.remove(uid)
        if ev is not None:
            ev.append(Event("destroyed", {"unit": uid, "reason": reason}))
        if card == LEADER[ATTACKER]:
            self.result = {"winner": DEFENDER, "reason": "commander_killed"}
        elif card == LEADER[DEFENDER]:
            self.result = {"winner": ATTACKER, "reason": "keep_taken"}

    # -- the flow --------------------------------------------------------
    def feeding_due(self) -> bool:
        """One food card on the table is half a day: feed every other day
        (even days); none: every day; two: never.
        ruling: docs/rulings.md#siege-feeding-days"""
        n = 0
        for u in self.rows[self.seat]["rc"]:  # supplies(), counted
            if kind_of(u) == "supply":
                n += 1
        return n == 0 or (n == 1 and self.day % 2 == 0)

    def _advance(self, ev: Events) -> None:
        # The usual way through a turn, feed -> play -> attack -> move -> end
        # -> begin (-> die), falls through its steps in one pass; the others
        # (lose, pour) go round the loop.
        while self.result is None:
            p, seat = self.phase, self.seat
            if p not in _FLOWING:
                return
            if p == "feed":
                if self.feeding_due():
                    if self.hands[seat].get(SUPPLY[seat]):
                        return
                    # no food in hand: a troop starves (if any is left)
                    self.losses = {"count": 1, "reason": "starve", "resume": "play"}
                    if self.may_lose():  # the seat names the troop
                        self.phase = "lose"
                        if ev is not None:
                            ev.append(Event("starving", {"seat": seat}))
                        return
                    self.losses = None  # none left: the "lose" step's own way on
                self.phase = p = "play"
            if p == "play":
                if not self.card_played and self.hands[seat]:
                    return
                self.phase = p = "attack"
            if p == "attack":
                if (self.active and self.no_attack(seat)) or not self.can_attack():
                    self.phase = p = "move"
                elif seat == ATTACKER and not self.window_done and self.rows[ATTACKER]["r0"]:
                    # The window before the attacks: the Defender is offered
                    # the pour cards whether or not he holds one, so the
                    # window itself betrays nothing.
                    # ruling: docs/rulings.md#siege-pour-windows
                    self.window_done = True
                    self.resume, self.phase = "attack", "pour"
                    continue
                else:
                    return
            if p == "move":
                if self.can_shift():
                    return
                self.phase = p = "end"
            if p == "end":
                self._end_turn(ev)
                p = "begin"
            if p == "begin":
                self._begin_turn(ev)
            elif p == "lose":
                assert self.losses is not None
                if self.losses["count"] > 0 and self.may_lose():
                    return
                self.phase, self.losses = self.losses["resume"], None
            elif p == "pour":
                if self.rows[ATTACKER]["r0"]:
                    return
                self.phase, self.resume = self.resume, ""

    def _end_turn(self, ev: Events) -> None:
        if self.played:
            self.played.clear()
        if self.used:
            self.used.clear()
        if self.damage:
            self.damage.clear()  # "I danni non vengono conservati"
        self.card_played = False
        self.bonus = 0
        self.window_done = False
        if self.seat == DEFENDER:
            self.day += 1
        self.seat = 1 - self.seat
        self.phase = "begin"

    def _begin_turn(self, ev: Events) -> None:
        self.turn += 1
        if self.active:
            self.active = [e for e in self.active if e["until"] > self.turn]
        if ev is not None:
            ev.append(Event("turn", {"seat": self.seat, "turn": self.turn, "day": self.day}))
        decks = self.decks[self.seat]
        if decks["normal"] or decks["events"]:
            self.phase = "die"
        elif self.seat == ATTACKER:
            # The rulebook is silent: with nothing left to draw the siege is lifted.
            # ruling: docs/rulings.md#siege-end-of-the-decks
            self.result = {"winner": DEFENDER, "reason": "siege_lifted"}
        else:
            self.phase = "feed"
        if self.result is not None:
            if ev is not None:
                ev.append(Event("game_over", dict(self.result)))
            return
        if not self.coming:
            return
        for c in [c for c in self.coming if c["seat"] == self.seat and c["day"] <= self.day]:
            self.coming.remove(c)
            self._arrive({"seat": self.seat, "row": "r2", "card": c["troop"]})

    # -- views and outcome -----------------------------------------------
    def _side_view(self, seat: int) -> JSON:
        return {
            "role": SIDES[seat],
            "rows": {r: list(units) for r, units in self.rows[seat].items()},
            "hand_size": self.hand_size(seat),
            "deck_size": sum(self.decks[seat]["normal"].values()),
            "event_deck_size": sum(self.decks[seat]["events"].values()),
            "discards": dict(sorted(self.discards[seat].items())),
        }

    def _view(self, seat: int | None) -> JSON:
        out: JSON = {
            "game": GAME_ID,
            "turn": self.turn,
            "day": self.day,
            "phase": self.phase,
            "drawing_from": self.deck if self.phase == "draw" else None,
            "seat": self.seat,
            "to_move": self._to_move(),
            "sides": [self._side_view(s) for s in (ATTACKER, DEFENDER)],
            "towers": {t: list(inside) for t, inside in self.towers.items()},
            "events": [
                {"card": e["card"], "seat": e["seat"], "variant": e["variant"],
                 "turns_left": e["until"] - self.turn}
                for e in self.active
            ],
            "feeding_due": self.feeding_due() if self.phase not in ("setup", "setup_draw") else False,
            "attack": self._attack_view(),
            "losses": dict(self.losses) if self.losses else None,
            "damage": dict(self.damage),
            "coming": [dict(c) for c in self.coming],
            "arriving": [dict(a) for a in self.arriving],
            "played": list(self.played),
            "used": list(self.used),
            "card_played": self.card_played,
            "bonus": self.bonus,
            "result": dict(self.result) if self.result else None,
        }
        if seat is not None:
            hand = self.hands[seat]
            out["hand"] = [c for c in sorted(hand) for _ in range(hand[c])]
        return out

    def _attack_view(self) -> JSON | None:
        if not self.group:
            return None
        return {"units": list(self.group), "target": self.aim, "support": self.support,
                "melee": self.mode(self.group[0]) == "melee"}

    def _outcome(self) -> Outcome | None:
        if self.result is None:
            return None
        winner = self.result["winner"]
        return Outcome(
            winners=[winner],
            scores={s: int(s == winner) for s in (ATTACKER, DEFENDER)},
            reason=self.result["reason"],
            detail={"day": self.day, "turn": self.turn, "walls_left": len(self.walls())},
        )

    def _secret_seat(self) -> int | None:
        # The Attacker's setup draws and every draw from a normal deck go into a
        # hand; an event card drawn is played face up at once.
        secret = self.phase == "setup_draw" or (self.phase == "draw" and self.deck == "normal")
        return self.seat if secret else None

    def _to_json(self) -> JSON:
        skip = ("players", "seed", "options", "history")
        return _copy_fields({k: v for k, v in self.__dict__.items() if k not in skip})

    def perturb_secrets(self, seat: int, rng: random.Random) -> State | None:
        """Another hand for ``seat`` of the same size, dealt from that hand
        and the seat's unseen normal deck."""
        if not self.hand_size(seat):
            return None
        other = self.copy()
        other._deal_hand(seat, rng)
        return other

    def sample_unseen(self, seat: int, rng: random.Random) -> State:
        """The other side's hand dealt afresh from its hand and unseen normal deck."""
        other = self._unseen_copy()
        assert isinstance(other, SiegeState)
        for side in (ATTACKER, DEFENDER):
            if side != seat:
                other._deal_hand(side, rng)
        return other

    def _deal_hand(self, seat: int, rng: random.Random) -> None:
        """A hand of the same size for ``seat`` from its hand and normal deck,
        shuffled from a sorted pool so the deal depends on ``rng`` alone."""
        size = self.hand_size(seat)
        held = (self.hands[seat], self.decks[seat]["normal"])
        pool = sorted(c for counts in held for c, n in counts.items() for _ in range(n))
        rng.shuffle(pool)
        hand: dict[str, int] = {}
        deck: dict[str, int] = {}
        for i, card in enumerate(pool):
            _add(hand if i < size else deck, card)
        self.hands[seat] = dict(sorted(hand.items()))
        self.decks[seat]["normal"] = dict(sorted(deck.items()))


@functools.cache
def _handler(kind: type[Move]) -> Callable[[SiegeState, Move, Events], None]:
    """``SiegeState._do_<move type>``, found once per move type: a name built
    afresh for every move is a new string each time, and CPython's type
    attribute cache keeps a reference to each such name, thousands in a night."""
    return getattr(SiegeState, f"_do_{kind.__name__.lower()}")
