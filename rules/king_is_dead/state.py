"""The state of a game of The King is Dead and how each move changes it.

Setup is a run of chance moves (one per follower drawn, one per region card
laid); then each power struggle is a run of turns, each turn a pass or a
card, a card being a few small picks and a summon (see NOTATION.md).
"""

from __future__ import annotations

import copy
import functools
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from functools import lru_cache
from operator import itemgetter
from typing import Any

from rules.core import CHANCE, JSON, Event, Outcome, State
from rules.king_is_dead import actions, scoring
from rules.king_is_dead.actions import COLOURS, Board, Picks
from rules.king_is_dead.data import DATA, LOYALIST
from rules.king_is_dead.last_card import LastCard, way_key
from rules.king_is_dead.last_card import effects as last_card_effects
from rules.king_is_dead.moves import (
    PASS,
    PLAYS,
    SUMMONS,
    Draw,
    KidMove,
    Pass,
    Place,
    Play,
    RegionCard,
    Summon,
)
from rules.king_is_dead.refusals import explain
from rules.king_is_dead.scoring import SAXONS
from rules.king_is_dead.view import view

SETUP_STEPS = ("court", "fill", "order")
Menu = Mapping[Picks, tuple[KidMove, ...]]
#: Where a move's handlers put its events; None: nobody reads them (the search's ``play_listed``).
Events = list[Event] | None
_HOME = {f.id: f.home for f in DATA.factions}  # as ``controlled`` reads it, looked up once
# A region's followers by COLOURS, the reserve by faction colour: as tuples, in one call.
_BY_COLOUR = itemgetter(*COLOURS)
_BY_FACTION = itemgetter(*DATA.colours)
#: Each region's summons by faction colour, in map order: what ``_all_summons`` lists.
_SUMMONS_OF = tuple((r, tuple((c, SUMMONS[r, c]) for c in DATA.colours)) for r in DATA.regions)


@lru_cache(maxsize=256)
def _controlled(owners: tuple[str | None, ...]) -> tuple[tuple[str, str], ...]:
    """The board's (faction, region) pairs that ``controlled`` admits, from
    each region's owner in map order: few distinct, asked at every card."""
    return tuple((f, r) for f in DATA.faction_ids for r, owner in zip(DATA.regions, owners, strict=True)
                 if owner == f or (owner is None and _HOME[f] == r))


@lru_cache(maxsize=4096)
def _turn(pile: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[KidMove, ...]]:
    """The cards held after playing ``pile``, each once in card-list order (as
    ``hand``), and the turn's moves with them all playable: asked at every
    turn of a search's random games, where the same piles come back."""
    held = tuple(c for c, n in DATA.cards.items() if pile.count(c) < n)
    return held, (PASS, *(PLAYS[c] for c in held))


@lru_cache(maxsize=128)
def last_card_memo(position: tuple[Any, ...]) -> dict[Any, Any]:
    """The 3-player last card's memo of one position with the Mordred variant
    (``_last_card_memo``), the most recent kept: the search's random games
    seldom come back to one."""
    return {}


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

    # -- copying: every field is plain data; the memo belongs to one position --
    def __deepcopy__(self, memo: dict[int, Any]) -> KingIsDeadState:
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)  # ints, strs, None, tuples: shared safely
        new.options = dict(self.options)
        new.history = list(self.history)  # moves are immutable
        new.regions = {r: dict(c) for r, c in self.regions.items()}
        new.bag = dict(self.bag)
        new.reserve = dict(self.reserve)
        new.control = dict(self.control)
        new.resolved = list(self.resolved)
        new.cards = list(self.cards)
        new.crowns = dict(self.crowns)
        new.courts = [dict(c) for c in self.courts]
        new.piles = [list(p) for p in self.piles]
        new.last_play = list(self.last_play)
        new.pending = dict(self.pending) if self.pending is not None else None  # picks: a tuple
        new._memo = {}
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
        held = dict(DATA.cards)  # copies of each card, in card-list order
        for card in self.piles[seat]:
            if card in held:
                held[card] -= 1
        return [c for c, n in held.items() for _ in range(n)]

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
        # dello stesso colore"). ruling: docs/rulings.md#kid-court-redraw
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
        control, regions, crowns = self.control, self.regions, self.crowns  # looked up once
        return Board(
            tuple([(r, _BY_COLOUR(regions[r])) for r in DATA.regions if control[r] is None]),
            _BY_FACTION(self.reserve),
            _controlled(tuple(control.values())),  # in map order, as made
            tuple([r for r in self.cards if control[r] is None and r not in crowns]),
            self.last_exchange,
        )

    # -- the hooks ------------------------------------------------------------
    def _to_move(self) -> int | None:
        if self.ended:
            return None
        return CHANCE if self.step in SETUP_STEPS else self.seat

    def _legal_moves(self) -> list[KidMove]:
        # As ``_cached``, written out: asked at every move of a search's random games.
        memo = self._memo
        moves = memo.get("legal")
        if moves is None:
            moves = memo["legal"] = self._list_moves()
        return list(moves)

    def _list_moves(self) -> Sequence[KidMove]:
        if self.step in ("court", "fill"):
            return [Draw(c) for c in DATA.colours if self.bag[c]]
        if self.step == "order":
            return [RegionCard(r) for r in DATA.regions if r not in self.cards]
        if self.step == "turn":
            held, moves = _turn(tuple(self.piles[self.seat]))
            if len(held) == 1:  # perhaps the game's last card
                return [PASS, *(PLAYS[c] for c in held if self._may_play(c))]
            return moves
        if self.step == "action":
            assert self.pending is not None
            return list(self.pending["menu"].get(self.pending["picks"], ()))
        return [s for s in self._summons() if s is not None]

    def chance_outcomes(self) -> list[tuple[KidMove, float]]:  # type: ignore[override]
        # Each draw is weighted by how many of that colour are left in the bag.
        if self.step in ("court", "fill"):
            return [(m, float(self.bag[m.colour])) for m in self.legal_moves()]  # type: ignore[attr-defined]
        return [(m, 1.0) for m in self.legal_moves()]

    def _check(self, move: KidMove) -> None:  # type: ignore[override]
        if move not in self._legal_moves():
            raise explain(self, move)

    def _apply(self, move: KidMove) -> list[Event]:  # type: ignore[override]
        events: list[Event] = []
        self._carry_out(move, events)
        return events

    def play_listed(self, move: KidMove) -> None:  # type: ignore[override]
        # As the base's, with no events made (``events`` None): a playout
        # plays some 70 moves and never reads them.
        self._carry_out(move, None)
        self.history.append(move)

    def _carry_out(self, move: KidMove, events: Events) -> None:
        before, self._memo = self._memo, {}
        if type(move) is Play:
            # The 3-player last card: what the turn worked out of its ways holds
            # for its play, on the same board.
            self._play(move.card, events, known=before.get("last card"))
        else:
            # Looked up by the move's class (every move class is final): a chain
            # of isinstance tests cost more than the pass it ended in.
            _APPLY.get(type(move), KingIsDeadState._pick)(self, move, events)
        self._memo = {}

    # -- setup ----------------------------------------------------------------
    def _draw(self, move: Draw, events: Events) -> None:
        colour = move.colour
        self.bag[colour] -= 1
        if self.step == "court":
            seat = self.court_seat()
            assert seat is not None
            self.courts[seat][colour] += 1
            if events is not None:
                events.append(Event("court_draw", {"seat": seat, "colour": colour}))
            if self.court_seat() is None:
                clash = self.clashing_seats()
                for s in clash:
                    for c, n in self.courts[s].items():
                        self.bag[c] += n
                        self.courts[s][c] = 0
                if clash:
                    if events is not None:
                        events.append(Event("court_redraw", {"seats": clash}))
                else:
                    self.step = "fill"
        else:
            region = self.fill_region()
            assert region is not None
            self.regions[region][colour] += 1
            if events is not None:
                events.append(Event("region_draw", {"region": region, "colour": colour}))
        if self.step == "fill" and self.fill_region() is None:
            # What is left in the bag becomes the common reserve.
            self.reserve, self.bag = dict(self.bag), dict.fromkeys(self.bag, 0)
            self.step = "order"

    def _lay_card(self, move: RegionCard, events: Events) -> None:
        region = move.region
        self.cards.append(region)
        if events is not None:
            events.append(Event("region_card", {"position": len(self.cards), "region": region}))
        if len(self.cards) == len(DATA.regions):
            self.step = "turn"
            if events is not None:
                events.append(Event("setup_complete", {"reserve": dict(self.reserve), "first": self.seat}))

    # -- power struggles ------------------------------------------------------
    def _pass(self, move: Pass, events: Events) -> None:
        if events is not None:
            events.append(Event("passed", {"seat": self.seat}))
        self.passes += 1
        if self.passes == self.players:
            self._end_struggle(events)  # everyone passed in a row: it ends at once
        self.seat = self.next_seat(self.seat)

    def _end_struggle(self, events: Events) -> None:
        region = self.current_region()
        assert region is not None
        here = self.regions[region]
        winner = scoring.region_winner(here)
        returned = {c: n for c, n in here.items() if n} if events is not None else None
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
        if events is not None:
            events.append(Event("struggle_resolved",
                                {"region": region, "winner": winner, "returned": returned}))
        self.ended = scoring.ending(winner, self.saxons(), len(self.resolved))
        if self.ended:
            self.step = "over"
            if events is not None:
                out = self._outcome()
                assert out is not None
                events.append(Event("game_over", {"reason": self.ended, "winners": list(out.winners)}))
        elif self.mordred:
            banner = DATA.banners[region]
            if self.control[banner] is None and self.loyalist_supply:
                self.regions[banner][LOYALIST] += 1
                self.loyalist_supply -= 1
                if events is not None:
                    events.append(Event("loyalist_added", {"region": banner}))

    # -- a card ---------------------------------------------------------------
    def _play(self, card: str, events: Events, screen: bool = True,
              known: LastCard | None = None) -> None:
        last = self.players == 3 and self.cards_left() == 1
        self.piles[self.seat].append(card)
        self.last_play[self.seat] = sum(len(p) for p in self.piles)
        self.passes = 0
        self.pending = {"card": card, "picks": (), "last": last}
        if last and not self.mordred:
            self.pending["last card"] = known or self._new_last_card(self.last_play)
        if events is not None:
            events.append(Event("card_played", {"seat": self.seat, "card": card}))
        board = self.board()
        menu = actions.options_menu(card, board)  # looked up once: the board is hashed for it
        if menu:
            # Worked out once per card, as the menu of every step: the board
            # does not change while the player picks, and the copies made by
            # later steps share it. ``screen=False``: the card's every way,
            # the last card's rule not applied (for ``_card_wins``, which
            # stops at the first way that wins).
            self.pending["menu"] = self._make_menu(board, menu) if screen else menu
            self.step = "action"
        else:
            if events is not None:
                events.append(Event("no_action", {"seat": self.seat, "card": card}))
            self.last_exchange = None
            self._to_summon(events)

    def _pick(self, move: KidMove, events: Events) -> None:
        assert self.pending is not None
        picks: Picks = (*self.pending["picks"], move)
        self.pending["picks"] = picks
        if picks not in self.pending["menu"]:  # nothing more to pick: carry it out
            self._perform(self.pending["card"], picks, events)
            self._to_summon(events)

    def _perform(self, card: str, picks: Picks, events: Events) -> None:
        self.last_exchange = None
        if card == "crown":
            a, b, crown = (p.region for p in picks)  # type: ignore[attr-defined]
            i, j = self.cards.index(a), self.cards.index(b)
            self.cards[i], self.cards[j] = b, a
            self.crowns[crown] = self.seat
            if events is not None:
                events.append(Event("cards_swapped", {"regions": [a, b]}))
                events.append(Event("crown_placed", {"seat": self.seat, "region": crown}))
        elif card in ("garrison", "ambassador"):
            moved = actions.transfers(picks)
            for src, dst, colour in moved:
                self.regions[src][colour] -= 1
                self.regions[dst][colour] += 1
            if events is not None:
                for src, dst in dict.fromkeys((s, d) for s, d, _ in moved):
                    colours = [c for s, d, c in moved if (s, d) == (src, dst)]
                    events.append(Event("followers_moved", {"from": src, "to": dst, "colours": colours}))
            self.last_exchange = actions.net_effect(moved)
        else:
            for p in picks:
                assert isinstance(p, Place)
                self.reserve[p.colour] -= 1
                self.regions[p.region][p.colour] += 1
                if events is not None:
                    events.append(Event("follower_placed", {"region": p.region, "colour": p.colour}))

    def _to_summon(self, events: Events) -> None:
        # As ``_all_summons() != [None]``, without listing them.
        regions = self.regions
        if any(any(_BY_FACTION(regions[r])) for r in self.cards if self.control[r] is None):
            self.step = "summon"
        else:
            self._end_turn()

    def _summon(self, move: Summon, events: Events) -> None:
        self.regions[move.region][move.colour] -= 1
        self.courts[self.seat][move.colour] += 1
        if events is not None:
            events.append(Event("summoned",
                                {"seat": self.seat, "region": move.region, "colour": move.colour}))
        self._end_turn()

    def _end_turn(self) -> None:
        self.pending = None
        self.step = "turn"
        self.seat = self.next_seat(self.seat)

    # -- what a card may do now -------------------------------------------------
    def _all_choices(self, board: Board | None = None) -> tuple[Picks, ...]:
        assert self.pending is not None
        return actions.options(self.pending["card"], board or self.board())

    def _make_menu(self, board: Board, menu: Menu) -> Menu:
        """The card's menu on ``board`` (``menu``: every way), the 3-player
        last card's keeping only the ways that win."""
        assert self.pending is not None
        if not self.pending["last"]:
            return menu
        # Worked out as the picks are made, from this position as it is now,
        # which copies of the state made meanwhile share (they may ask later).
        if self.mordred:
            keep = self._simulation()._picks_win
        else:
            keep = functools.partial(self.pending["last card"].way_wins, self.pending["card"])
        return actions.Steps(self._all_choices(board), keep=keep)

    def _all_summons(self) -> list[Summon | None]:
        control, regions = self.control, self.regions  # as ``open_regions``, looked up once
        found: list[Summon | None] = [
            s for r, summons in _SUMMONS_OF for c, s in summons if control[r] is None and regions[r][c]
        ]
        return found or [None]

    def _summons(self) -> list[Summon | None]:
        """The summons allowed now; ``[None]`` when there is nobody to summon."""

        def make() -> list[Summon | None]:
            every = self._all_summons()
            if not (self.pending and self.pending["last"]):
                return every
            return [s for s in every if self._last_summon_wins(s)]

        return self._cached("summons", make)

    # -- the 3-player last card -------------------------------------------------
    # ruling: docs/rulings.md#kid-three-players-last-card
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
        if sim.pending:
            sim.pending["last"] = False
        return sim

    def _card_wins(self, card: str) -> bool:
        if not self.mordred:
            # Asked of this position as it is: playing the card changes only
            # the piles and the seat's last play, which ``_last_card`` reads as
            # after the play.
            fast = self._last_card()
            board = self.board()
            # (Garrison's and Ambassador's ways are listed for their effects:
            # whether there are any is asked of the list.)
            exchange = card in ("garrison", "ambassador")
            if not (actions.options(card, board) if exchange else actions.options_menu(card, board)):
                return fast.way_wins(card, ())  # no action: the summon alone
            return any(fast.effect_wins(card, key) for key in last_card_effects(card, board))
        sim = self._simulation()
        sim._play(card, None, screen=False)  # marks the card as the last one of the game
        if sim.step == "action":
            return any(sim._picks_win(p) for p in sim._all_choices())
        if sim.step == "summon":
            # As bool(sim._summons()), stopping at the first winning summon.
            return any(sim._last_summon_wins(s) for s in sim._all_summons())
        return self.seat in sim._forced_winners()  # no action, nobody to summon

    def _picks_win(self, picks: Picks) -> bool:
        """Whether some summon after ``picks`` wins; picks with the same
        effect (the same followers in another order, the same swap) are
        worked out once."""
        assert self.pending is not None
        card = self.pending["card"]
        if not self.mordred:
            return self._last_card().way_wins(card, picks)
        memo = self._last_card_memo()
        key = way_key(card, picks)
        won = memo.get(key)
        if won is None:
            sim = self._simulation()
            sim._perform(card, picks, None)
            won = memo[key] = any(sim._summon_wins(s) for s in sim._all_summons())
        return won

    def _last_card(self) -> LastCard:
        """The last card's rule in this position, without the Mordred
        variant: at the turn, as if the seat's card were played now (its
        last play the latest); while the card is played, the one its turn
        worked out."""
        if self.pending is not None and "last card" in self.pending:
            return self.pending["last card"]

        def make() -> LastCard:
            last_play = list(self.last_play)
            if self.pending is None:  # the card still in hand
                last_play[self.seat] = sum(len(p) for p in self.piles) + 1  # as ``_play`` marks it
            return self._new_last_card(last_play)

        return self._cached("last card", make)

    def _new_last_card(self, last_play: list[int]) -> LastCard:
        return LastCard(self.seat, self.cards, self.regions, self.control, self.resolved, self.courts,
                        last_play)

    def _last_card_memo(self) -> dict[Any, Any]:
        """What the last card's rule has worked out in this position (a card
        being played), shared with every state in the same position: the
        turn's check and the card's play ask the same, and so do later worlds
        of the search. The key is all that the rule reads."""
        # Kept with the state as well: hashing the long key again at every
        # way of playing the card cost as much as looking the way up.
        return self._cached("last_card_memo", lambda: last_card_memo(self._last_card_key()))

    def _last_card_key(self) -> tuple[Any, ...]:
        assert self.pending is not None
        return (
            self.seat,
            self.pending["card"],
            self.mordred,
            tuple(self.regions[r][c] for r in DATA.regions for c in COLOURS),
            tuple(self.control[r] for r in DATA.regions),
            tuple(self.resolved),
            tuple(self.cards),
            tuple(sorted(self.crowns.items())),
            tuple(self.reserve[c] for c in DATA.colours),
            tuple(court[c] for court in self.courts for c in DATA.colours),
            tuple(self.last_play),
            self.last_exchange,
            self.loyalist_supply,
        )

    def _last_summon_wins(self, summon: Summon | None) -> bool:
        """As ``_summon_wins``, the last card's picks carried out: by who takes
        each region (``LastCard``) without the Mordred variant."""
        if self.mordred:
            return self._cached("simulation", self._simulation)._summon_wins(summon)
        fast = self._cached("by takers", lambda: LastCard(self.seat, self.cards, self.regions, self.control,
                                                          self.resolved, self.courts, self.last_play))
        return fast.summon_wins(*((summon.region, summon.colour) if summon else (None, None)))

    def _summon_wins(self, summon: Summon | None) -> bool:
        """Whether the seat to move wins if it summons ``summon`` now and
        nobody plays a card after; the state is left as it was."""
        if summon is None:
            return self.seat in self._forced_winners()
        region, colour = summon.region, summon.colour
        self.regions[region][colour] -= 1
        self.courts[self.seat][colour] += 1
        try:
            return self.seat in self._forced_winners()
        finally:
            self.regions[region][colour] += 1
            self.courts[self.seat][colour] -= 1

    def _forced_winners(self) -> list[int]:
        """The winners if every remaining struggle ends on passes, worked out
        without changing the state (only banner loyalists are added)."""
        control = dict(self.control)
        resolved = list(self.resolved)
        added: dict[str, int] = {}  # Mordred: loyalists the banners add meanwhile
        supply = self.loyalist_supply
        ended = None
        saxons = self.saxons()
        mordred = self.mordred  # looked up once: the 3-player last card calls this very often
        regions = self.regions
        for region in self.cards:
            if control[region] is not None:
                continue
            counts = regions[region]
            if mordred and added.get(region):
                counts = {**counts, LOYALIST: counts[LOYALIST] + added[region]}
            winner = scoring.region_winner(counts)
            control[region] = winner
            resolved.append(region)
            saxons += winner == SAXONS
            ended = scoring.ending(winner, saxons, len(resolved))
            if ended:
                break
            if mordred:
                supply += counts[LOYALIST]
                banner = DATA.banners[region]
                if control[banner] is None and supply:
                    added[banner] = added.get(banner, 0) + 1
                    supply -= 1
        assert ended is not None
        return scoring.winners(ended, control, resolved, self.courts, self.last_play)[0]

    # -- views and results --------------------------------------------------------
    def _outcome(self) -> Outcome | None:
        if not self.ended:
            return None
        won, detail = scoring.winners(self.ended, self.control, self.resolved, self.courts, self.last_play)
        return Outcome(won, scoring.scores(self.courts), self.ended, detail)

    def _view(self, seat: int | None) -> JSON:
        return view(self, seat)

    def perturb_secrets(self, seat: int, rng: random.Random) -> KingIsDeadState | None:
        """Another pile under ``seat``'s top card: the only thing the rules
        hide is which cards lie under the top one (so which are still held)."""
        if len(self.piles[seat]) < 2:
            return None
        other = copy.deepcopy(self)
        other._deal_pile(seat, rng)
        return other

    def sample_unseen(self, seat: int, rng: random.Random) -> KingIsDeadState:
        """Every other player's pile dealt afresh under its top card."""
        other = self._unseen_copy()
        assert isinstance(other, KingIsDeadState)
        for player in range(self.players):
            if player != seat and len(self.piles[player]) >= 2:
                other._deal_pile(player, rng)
        return other

    def _deal_pile(self, seat: int, rng: random.Random) -> None:
        pile = self.piles[seat]
        keep = ["crown"] if seat in self.crowns.values() and pile[-1] != "crown" else []
        pool = list((Counter(DATA.deck) - Counter([pile[-1], *keep])).elements())
        under = keep + rng.sample(pool, len(pile) - 1 - len(keep))
        rng.shuffle(under)
        self.piles[seat] = [*under, pile[-1]]
        self._memo = {}

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
            "regions": {r: dict(c) for r, c in self.regions.items()},
            "control": dict(self.control),
            "resolved": list(self.resolved),
            "cards": list(self.cards),
            "crowns": dict(self.crowns),
            "bag": dict(self.bag),
            "reserve": dict(self.reserve),
            "loyalist_supply": self.loyalist_supply,
            "courts": [dict(c) for c in self.courts],
            "piles": [list(p) for p in self.piles],
            "last_play": list(self.last_play),
            "pending": pending,
            "last_exchange": [list(e) for e in self.last_exchange] if self.last_exchange else None,
            "ended": self.ended,
        }


#: Each move class's handler in ``_apply``; the picks of a card are the rest.
_APPLY: dict[type, Any] = {
    Draw: KingIsDeadState._draw,
    RegionCard: KingIsDeadState._lay_card,
    Pass: KingIsDeadState._pass,
    Play: lambda state, move, events: state._play(move.card, events),
    Summon: KingIsDeadState._summon,
}
