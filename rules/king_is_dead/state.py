"""The state of a game of The King is Dead and how each move changes it.

Setup is a run of chance moves (one per follower drawn, one per region card
laid); then each power struggle is a run of turns, each turn a pass or a
card, a card being a few small picks and a summon (see NOTATION.md).
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

from rules.core import CHANCE, JSON, Event, Outcome, State
from rules.king_is_dead import actions, scoring
from rules.king_is_dead.actions import COLOURS, Board, Picks
from rules.king_is_dead.data import DATA, LOYALIST
from rules.king_is_dead.moves import Draw, KidMove, Pass, Place, Play, RegionCard, Summon

SETUP_STEPS = ("court", "fill", "order")
FACTION_IDS = frozenset(f.id for f in DATA.factions)
SAXONS = "saxons"
LOYALISTS = "loyalists"


class KingIsDeadState(State):
    game_id = "king-is-dead"

    def __init__(self, players: int, seed: int, options: dict[str, Any]) -> None:
        super().__init__(players, seed, options)
        counts = DATA.counts
        removed = counts["removed_per_faction_two_players"] if players == 2 else 0
        self.regions: dict[str, dict[str, int]] = {r: dict.fromkeys(COLOURS, 0) for r in DATA.regions}
        self.bag: dict[str, int] = {}
        for f in DATA.factions:
            self.regions[f.home][f.colour] = counts["home_followers"]
            self.bag[f.colour] = counts["followers_per_faction"] - removed - counts["home_followers"]
        self.loyalist_supply = 0
        if self.mordred:
            self.loyalist_supply = counts["loyalists"]
            for region, n in DATA.mordred_start.items():
                self.regions[region][LOYALIST] += n
                self.loyalist_supply -= n
        self.reserve: dict[str, int] = dict.fromkeys(DATA.colours, 0)
        self.control: dict[str, str | None] = dict.fromkeys(DATA.regions)
        self.resolved: list[str] = []  # in the order the struggles ended
        self.cards: list[str] = []  # region cards by position, 1 first
        self.crowns: dict[str, int] = {}  # region card -> seat whose crown token is on it
        self.courts: list[dict[str, int]] = [dict.fromkeys(DATA.colours, 0) for _ in range(players)]
        self.piles: list[list[str]] = [[] for _ in range(players)]  # cards played, in order
        self.last_play: list[int] = [-1] * players  # number of the seat's last card of the game
        self.seat = 0  # the player who set up the game starts (Preparazione)
        self.passes = 0
        self.step = "court"
        self.pending: dict[str, Any] | None = None  # {"card", "picks", "last"} during a card
        self.last_exchange: actions.NetEffect | None = None
        self.ended: str | None = None
        self._memo: dict[str, Any] = {}

    # -- copying: the memo of costly answers belongs to one position ------
    def __deepcopy__(self, memo: dict[int, Any]) -> KingIsDeadState:
        new = object.__new__(type(self))
        for key, value in self.__dict__.items():
            if key == "_memo":
                new.__dict__[key] = {}
            elif key == "history":
                new.__dict__[key] = list(value)  # moves are immutable
            else:
                new.__dict__[key] = copy.deepcopy(value, memo)
        return new

    def _cached(self, key: str, make: Any) -> Any:
        if key not in self._memo:
            self._memo[key] = make()
        return self._memo[key]

    # -- what the position is ---------------------------------------------
    @property
    def mordred(self) -> bool:
        return bool(self.options.get("mordred"))

    def open_regions(self) -> list[str]:
        return [r for r in DATA.regions if self.control[r] is None]

    def current_region(self) -> str | None:
        if self.step in SETUP_STEPS or self.ended:
            return None
        return next(r for r in self.cards if self.control[r] is None)

    def hand(self, seat: int) -> list[str]:
        held = Counter(DATA.deck) - Counter(self.piles[seat])
        return [c for c in DATA.cards for _ in range(held[c])]

    def cards_left(self) -> int:
        return len(DATA.deck) * self.players - sum(len(p) for p in self.piles)

    def saxons(self) -> int:
        return sum(1 for owner in self.control.values() if owner == SAXONS)

    def next_seat(self, seat: int) -> int:
        return (seat + 1) % self.players

    def court_seat(self) -> int | None:
        """The seat whose court the next draw fills (seat order)."""
        need = DATA.counts["court_draw"]
        return next((s for s, c in enumerate(self.courts) if sum(c.values()) < need), None)

    def fill_region(self) -> str | None:
        """The region the next draw fills (map order)."""
        full = DATA.counts["region_followers"]
        return next((r for r in DATA.regions if sum(self.regions[r].values()) < full), None)

    def clashing_seats(self) -> list[int]:
        # "Se 2 o più giocatori pescano tutti Seguaci dello stesso colore ...
        # devono ripescare": we read it as the example says, two or more
        # courts made only of one and the same colour. A single player with
        # two of a colour keeps them ("un giocatore può avere 2 Seguaci
        # dello stesso colore").
        mono: dict[str, list[int]] = {}
        for seat, court in enumerate(self.courts):
            colours = [c for c, n in court.items() if n]
            if len(colours) == 1:
                mono.setdefault(colours[0], []).append(seat)
        return sorted(s for seats in mono.values() if len(seats) > 1 for s in seats)

    def controlled(self, faction: str, region: str) -> bool:
        """For the faction cards: a region the faction controls, or its home
        region while that struggle is unresolved (Scozzesi)."""
        owner = self.control[region]
        return owner == faction or (owner is None and DATA.faction(faction).home == region)

    def board(self) -> Board:
        open_ = self.open_regions()
        return Board(
            followers=tuple((r, tuple(self.regions[r][c] for c in COLOURS)) for r in open_),
            reserve=tuple(self.reserve[c] for c in DATA.colours),
            controlled=tuple(
                (f, r) for f in sorted(FACTION_IDS) for r in DATA.regions if self.controlled(f, r)
            ),
            swappable=tuple(r for r in self.cards if self.control[r] is None and r not in self.crowns),
            last_exchange=self.last_exchange,
        )

    # -- the hooks ------------------------------------------------------------
    def _to_move(self) -> int | None:
        if self.ended:
            return None
        return CHANCE if self.step in SETUP_STEPS else self.seat

    def _legal_moves(self) -> list[KidMove]:
        return list(self._cached("legal", self._list_moves))

    def _list_moves(self) -> list[KidMove]:
        if self.step in ("court", "fill"):
            return [Draw(c) for c in DATA.colours if self.bag[c]]
        if self.step == "order":
            return [RegionCard(r) for r in DATA.regions if r not in self.cards]
        if self.step == "turn":
            held = dict.fromkeys(self.hand(self.seat))
            return [Pass(), *(Play(c) for c in held if self._may_play(c))]
        if self.step == "action":
            assert self.pending is not None
            return actions.next_picks(self._choices(), self.pending["picks"])
        return [s for s in self._summons() if s is not None]

    def chance_outcomes(self) -> list[tuple[KidMove, float]]:  # type: ignore[override]
        # Each draw is weighted by how many of that colour are left in the bag.
        if self.step in ("court", "fill"):
            return [(m, float(self.bag[m.colour])) for m in self.legal_moves()]  # type: ignore[attr-defined]
        return [(m, 1.0) for m in self.legal_moves()]

    def _check(self, move: KidMove) -> None:  # type: ignore[override]
        if move in self._legal_moves():
            return
        from rules.king_is_dead.refusals import explain

        raise explain(self, move)

    def _apply(self, move: KidMove) -> list[Event]:  # type: ignore[override]
        self._memo = {}
        events: list[Event] = []
        if isinstance(move, Draw):
            self._draw(move.colour, events)
        elif isinstance(move, RegionCard):
            self._lay_card(move.region, events)
        elif isinstance(move, Pass):
            self._pass(events)
        elif isinstance(move, Play):
            self._play(move.card, events)
        elif isinstance(move, Summon):
            self._summon(move, events)
        else:
            self._pick(move, events)
        self._memo = {}
        return events

    # -- setup ----------------------------------------------------------------
    def _draw(self, colour: str, events: list[Event]) -> None:
        self.bag[colour] -= 1
        if self.step == "court":
            seat = self.court_seat()
            assert seat is not None
            self.courts[seat][colour] += 1
            events.append(Event("court_draw", {"seat": seat, "colour": colour}))
            if self.court_seat() is None:
                clash = self.clashing_seats()
                for s in clash:
                    for c, n in self.courts[s].items():
                        self.bag[c] += n
                        self.courts[s][c] = 0
                if clash:
                    events.append(Event("court_redraw", {"seats": clash}))
                else:
                    self.step = "fill"
        else:
            region = self.fill_region()
            assert region is not None
            self.regions[region][colour] += 1
            events.append(Event("region_draw", {"region": region, "colour": colour}))
        if self.step == "fill" and self.fill_region() is None:
            # What is left in the bag becomes the common reserve.
            self.reserve, self.bag = dict(self.bag), dict.fromkeys(self.bag, 0)
            self.step = "order"

    def _lay_card(self, region: str, events: list[Event]) -> None:
        self.cards.append(region)
        events.append(Event("region_card", {"position": len(self.cards), "region": region}))
        if len(self.cards) == len(DATA.regions):
            self.step = "turn"
            events.append(Event("setup_complete", {"reserve": dict(self.reserve), "first": self.seat}))

    # -- power struggles ------------------------------------------------------
    def _pass(self, events: list[Event]) -> None:
        events.append(Event("passed", {"seat": self.seat}))
        self.passes += 1
        if self.passes == self.players:
            self._end_struggle(events)  # everyone passed in a row: it ends at once
        self.seat = self.next_seat(self.seat)

    def _end_struggle(self, events: list[Event]) -> None:
        region = self.current_region()
        assert region is not None
        here = self.regions[region]
        most = max(here.values())
        leaders = [c for c, n in here.items() if n == most]
        if most == 0 or len(leaders) > 1:
            winner = SAXONS  # a tie, or nobody there: the Saxons take it
        elif leaders[0] == LOYALIST:
            winner = LOYALISTS
        else:
            winner = DATA.faction_of_colour(leaders[0]).id
        returned = {c: n for c, n in here.items() if n}
        for c, n in here.items():
            if c == LOYALIST:
                self.loyalist_supply += n
            else:
                self.reserve[c] += n
            here[c] = 0
        self.control[region] = winner
        self.resolved.append(region)
        self.passes = 0
        self.last_exchange = None  # after a resolution an exchange may be undone
        events.append(Event("struggle_resolved", {"region": region, "winner": winner, "returned": returned}))
        if winner == LOYALISTS:
            self._finish("loyalists", events)
        elif self.saxons() >= DATA.counts["saxon_tokens"]:
            self._finish("invasion", events)
        elif len(self.resolved) == len(DATA.regions):
            self._finish("control", events)
        elif self.mordred:
            banner = DATA.banners[region]
            if self.control[banner] is None and self.loyalist_supply:
                self.regions[banner][LOYALIST] += 1
                self.loyalist_supply -= 1
                events.append(Event("loyalist_added", {"region": banner}))

    def _finish(self, reason: str, events: list[Event]) -> None:
        self.ended = reason
        self.step = "over"
        out = self._outcome()
        assert out is not None
        events.append(Event("game_over", {"reason": reason, "winners": list(out.winners)}))

    # -- a card ---------------------------------------------------------------
    def _play(self, card: str, events: list[Event]) -> None:
        last = self.players == 3 and self.cards_left() == 1
        self.piles[self.seat].append(card)
        self.last_play[self.seat] = sum(len(p) for p in self.piles)
        self.passes = 0
        self.pending = {"card": card, "picks": (), "last": last}
        events.append(Event("card_played", {"seat": self.seat, "card": card}))
        if self._all_choices():
            self.step = "action"
        else:
            events.append(Event("no_action", {"seat": self.seat, "card": card}))
            self.last_exchange = None
            self._to_summon(events)

    def _pick(self, move: KidMove, events: list[Event]) -> None:
        assert self.pending is not None
        picks: Picks = (*self.pending["picks"], move)
        self.pending["picks"] = picks
        if picks in self._choices_set():
            self._perform(self.pending["card"], picks, events)
            self._to_summon(events)

    def _perform(self, card: str, picks: Picks, events: list[Event]) -> None:
        self.last_exchange = None
        if card == "crown":
            a, b, crown = (p.region for p in picks)  # type: ignore[attr-defined]
            i, j = self.cards.index(a), self.cards.index(b)
            self.cards[i], self.cards[j] = b, a
            self.crowns[crown] = self.seat
            events.append(Event("cards_swapped", {"regions": [a, b]}))
            events.append(Event("crown_placed", {"seat": self.seat, "region": crown}))
        elif card in ("garrison", "ambassador"):
            moved = actions.transfers(card, picks)
            for src, dst, colour in moved:
                self.regions[src][colour] -= 1
                self.regions[dst][colour] += 1
            for src, dst in dict.fromkeys((s, d) for s, d, _ in moved):
                colours = [c for s, d, c in moved if (s, d) == (src, dst)]
                events.append(Event("followers_moved", {"from": src, "to": dst, "colours": colours}))
            self.last_exchange = actions.net_effect(moved)
        else:
            for p in picks:
                assert isinstance(p, Place)
                self.reserve[p.colour] -= 1
                self.regions[p.region][p.colour] += 1
                events.append(Event("follower_placed", {"region": p.region, "colour": p.colour}))

    def _to_summon(self, events: list[Event]) -> None:
        if self._all_summons() != [None]:
            self.step = "summon"
        else:
            self._end_turn()

    def _summon(self, move: Summon, events: list[Event]) -> None:
        self.regions[move.region][move.colour] -= 1
        self.courts[self.seat][move.colour] += 1
        events.append(Event("summoned", {"seat": self.seat, "region": move.region, "colour": move.colour}))
        self._end_turn()

    def _end_turn(self) -> None:
        self.pending = None
        self.step = "turn"
        self.seat = self.next_seat(self.seat)

    # -- what a card may do now -------------------------------------------------
    def _all_choices(self) -> tuple[Picks, ...]:
        assert self.pending is not None
        return actions.options(self.pending["card"], self.board())

    def _choices(self) -> tuple[Picks, ...]:
        return self._cached("choices", self._make_choices)

    def _choices_set(self) -> frozenset[Picks]:
        return self._cached("choices_set", lambda: frozenset(self._choices()))

    def _make_choices(self) -> tuple[Picks, ...]:
        assert self.pending is not None
        every = self._all_choices()
        if not self.pending["last"] or not every:
            return every
        return tuple(p for p in every if self._picks_win(p))

    def _all_summons(self) -> list[Summon | None]:
        found: list[Summon | None] = [
            Summon(r, c) for r in self.open_regions() for c in DATA.colours if self.regions[r][c]
        ]
        return found or [None]

    def _summons(self) -> list[Summon | None]:
        """The summons allowed now; ``[None]`` when there is nobody to summon."""

        def make() -> list[Summon | None]:
            every = self._all_summons()
            if not (self.pending and self.pending["last"]):
                return every
            return [s for s in every if self._wins(self._after_summon(s))]

        return self._cached("summons", make)

    # -- the 3-player last card -------------------------------------------------
    # "L'ultima Carta Azione della partita può essere giocata solo se il
    # giocatore che la possiede può utilizzarla per vincere immediatamente."
    # Once it is played nobody holds a card, so the rest of the game is
    # forced (every struggle ends on passes): the card may be played when
    # some way of playing it (picks, then summon) makes its owner a winner of
    # that forced ending, and then only in such a way.
    def _may_play(self, card: str) -> bool:
        if not (self.players == 3 and self.cards_left() == 1):
            return True
        return self._cached(f"may_play/{card}", lambda: self._card_wins(card))

    def _simulation(self) -> KingIsDeadState:
        sim = copy.deepcopy(self)
        sim.history = []
        if sim.pending:
            sim.pending["last"] = False
        return sim

    def _card_wins(self, card: str) -> bool:
        sim = self._simulation()
        sim._play(card, [])  # marks the card as the last one: its options are the winning ones
        if sim.step == "action":
            return bool(sim._choices())
        if sim.step == "summon":
            return bool(sim._summons())
        return self._wins(sim)  # no action, nobody to summon: the turn is over

    def _picks_win(self, picks: Picks) -> bool:
        sim = self._simulation()
        sim._perform(sim.pending["card"], picks, [])  # type: ignore[index]
        return any(self._wins(sim._after_summon(s)) for s in sim._all_summons())

    def _after_summon(self, summon: Summon | None) -> KingIsDeadState:
        sim = self._simulation()
        if summon is None:
            sim._end_turn()
        else:
            sim._summon(summon, [])
        return sim

    def _wins(self, sim: KingIsDeadState) -> bool:
        """Whether this seat wins once ``sim`` (a throwaway copy) is played out
        with passes only."""
        while not sim.ended:
            sim._pass([])
        out = sim._outcome()
        return out is not None and self.seat in out.winners

    # -- views and results --------------------------------------------------------
    def _outcome(self) -> Outcome | None:
        if not self.ended:
            return None
        if self.ended == "invasion":
            return scoring.by_invasion(self.courts, self.last_play)
        return scoring.by_control(
            self.control, self.resolved, self.courts, self.last_play, loyalists=self.ended == "loyalists"
        )

    def _view(self, seat: int | None) -> JSON:
        from rules.king_is_dead.view import view

        return view(self, seat)

    def perturb_secrets(self, seat: int, rng: random.Random) -> KingIsDeadState | None:
        """Another pile under ``seat``'s top card: the only thing the rules
        hide is which cards lie under the top one (so which are still held)."""
        pile = self.piles[seat]
        if len(pile) < 2:
            return None
        keep = ["crown"] if seat in self.crowns.values() and pile[-1] != "crown" else []
        pool = list((Counter(DATA.deck) - Counter([pile[-1], *keep])).elements())
        under = keep + rng.sample(pool, len(pile) - 1 - len(keep))
        rng.shuffle(under)
        other = copy.deepcopy(self)
        other.piles[seat] = [*under, pile[-1]]
        return other

    def _to_json(self) -> JSON:
        pending = None
        if self.pending is not None:
            pending = {
                "card": self.pending["card"],
                "picks": [p.to_json() for p in self.pending["picks"]],
                "last": self.pending["last"],
            }
        return {
            "step": self.step,
            "seat": self.seat,
            "passes": self.passes,
            "regions": copy.deepcopy(self.regions),
            "control": dict(self.control),
            "resolved": list(self.resolved),
            "cards": list(self.cards),
            "crowns": dict(self.crowns),
            "bag": dict(self.bag),
            "reserve": dict(self.reserve),
            "loyalist_supply": self.loyalist_supply,
            "courts": copy.deepcopy(self.courts),
            "piles": copy.deepcopy(self.piles),
            "last_play": list(self.last_play),
            "pending": pending,
            "last_exchange": [list(e) for e in self.last_exchange] if self.last_exchange else None,
            "ended": self.ended,
        }
