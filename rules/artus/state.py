"""The Artus engine: setup, turns, card actions, displacement, scoring."""

from __future__ import annotations

import random
from typing import Any

from rules.artus import board, scoring
from rules.artus import messages as msg
from rules.artus.data import DATA, EFFECT_KNIGHTS, Card, Mode
from rules.artus.moves import Draw, Place, Play, Reveal
from rules.artus.offers import card_offer, figures, offered
from rules.core import CHANCE, JSON, Event, IllegalMove, Move, Outcome, State, require

# Phases: "deal" (opening hands, all chance), "place" (Knights go on seats in
# reverse order), "play" (cards are played), "draw" (refilling the hand: a
# pile to choose, then the card as chance), "over".


class ArtusState(State):
    game_id = "artus"

    def __init__(self, players: int, seed: int, options: dict[str, Any]) -> None:
        super().__init__(players, seed, options)
        mode = DATA.modes[options["mode"]]
        n = DATA.seats
        self.seats: list[str | None] = [None] * n
        self.rings: list[int] = [0] * n
        for seat, colour in DATA.start_princes.items():
            self.seats[seat] = colour
            self.rings[seat] = DATA.king_rings if seat == DATA.large_crown else DATA.prince_rings
        self.king = DATA.large_crown
        self.scores = [0] * players
        self.hands: list[list[str]] = [[] for _ in range(players)]
        self.piles: list[dict[str, list[str]]] = [
            {pile: DATA.pile_cards(pile) for pile in mode.piles} for _ in range(players)
        ]
        self.played: list[list[str]] = [[] for _ in range(players)]
        self.phase = "deal"
        self.deal_queue: list[tuple[int, str]] = [
            (p, pile) for p in range(players) for pile, k in mode.hand.items() for _ in range(k)
        ]
        # The start player is seat 0; placing starts at his right-hand
        # neighbour and runs counter-clockwise, i.e. against the turn order.
        on_table = DATA.knights[players] - DATA.knights_on_score_track
        self.place_order = [p for _ in range(on_table) for p in reversed(range(players))]
        self.current = 0
        self.round = 1
        self.plays_left = 0
        self.draws_left = 0
        self.pending: str | None = None

    # -- helpers ---------------------------------------------------------
    @property
    def mode(self) -> Mode:
        return DATA.modes[self.options["mode"]]

    def copy(self) -> ArtusState:
        # Plain lists only: a hand-made copy is much cheaper than deepcopy.
        new = object.__new__(type(self))
        d = dict(self.__dict__)
        d["options"] = dict(self.options)
        d["history"] = list(self.history)
        for key in ("seats", "rings", "scores", "deal_queue", "place_order"):
            d[key] = list(d[key])
        d["hands"] = [list(h) for h in self.hands]
        d["played"] = [list(h) for h in self.played]
        d["piles"] = [{k: list(v) for k, v in p.items()} for p in self.piles]
        new.__dict__ = d
        return new

    def apply(self, move: Move) -> list[Event]:
        """As :meth:`State.apply` (checked, all or nothing), but the working
        copy shares the history instead of copying it: a late move would copy
        hundreds of moves for one. The move joins the history only once
        ``_apply`` has returned, which never reads or changes the history."""
        self.check(move)
        history = self.history
        self.history = []
        try:
            work = self.copy()
        finally:
            self.history = history
        work.history = history
        events = work._apply(move)
        history.append(move)
        self.__dict__ = work.__dict__
        return events

    def _pile_in_draw(self) -> tuple[int, str]:
        """Whose pile the next chance card comes from."""
        if self.phase == "deal":
            return self.deal_queue[0]
        assert self.pending is not None
        return self.current, self.pending

    # -- to move and legal moves -----------------------------------------
    def _to_move(self) -> int | None:
        if self.phase == "deal":
            return CHANCE
        if self.phase == "place":
            return self.place_order[0]
        if self.phase == "play":
            return self.current
        if self.phase == "draw":
            return CHANCE if self.pending else self.current
        return None

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        player, pile = self._pile_in_draw()
        cards = self.piles[player][pile]
        return [(Reveal(c), float(cards.count(c))) for c in sorted(set(cards))]

    def _legal_moves(self) -> list[Move]:
        if self._to_move() == CHANCE:
            player, pile = self._pile_in_draw()
            return [Reveal(c) for c in sorted(set(self.piles[player][pile]))]
        if self.phase == "place":
            return [Place(s) for s, f in enumerate(self.seats) if f is None]
        if self.phase == "draw":
            return [Draw(pile) for pile in self.mode.piles if self.piles[self.current][pile]]
        knights, royals = figures(tuple(self.seats))
        mine = knights.get(board.knight(self.current), ())
        out: list[Move] = []
        for cid in sorted(set(self.hands[self.current])):
            out.extend(card_offer(DATA.cards[cid], mine, royals, self.king)[0])  # type: ignore[arg-type]
        return out

    # -- check ----------------------------------------------------------
    def _check(self, move: Move) -> None:
        if type(move) is Play and self.phase == "play" and self._offered(move):
            return  # the common case, a card play its card offers: one look at the kept listing
        if self._to_move() == CHANCE:
            player, pile = self._pile_in_draw()
            require(isinstance(move, Reveal), "artus.phase.draw-due", msg.R_HAND, player=player, pile=pile)
            assert isinstance(move, Reveal)
            require(
                move.card in self.piles[player][pile],
                "artus.draw.not-in-pile",
                msg.R_HAND,
                card=move.card,
                pile=pile,
            )
            return
        require(not isinstance(move, Reveal), "artus.phase.no-draw-due", msg.R_HAND)
        if not isinstance(move, (Draw, Place, Play)):
            raise IllegalMove("core.wrong-game", "", kind=type(move).__name__)
        if self.phase == "place":
            require(isinstance(move, Place), "artus.phase.placing", msg.R_SETUP)
            assert isinstance(move, Place)
            self._check_seat(move.seat, msg.R_SETUP)
            require(self.seats[move.seat] is None, "artus.place.occupied", msg.R_SETUP, seat=move.seat)
            return
        require(not isinstance(move, Place), "artus.phase.not-placing", msg.R_SETUP)
        if self.phase == "draw":
            require(isinstance(move, Draw), "artus.phase.must-choose-pile", msg.R_HAND)
            assert isinstance(move, Draw)
            piles = self.mode.piles
            require(
                move.pile in piles,
                "artus.draw.unknown-pile",
                msg.R_HAND,
                pile=move.pile,
                piles=", ".join(piles),
            )
            require(
                bool(self.piles[self.current][move.pile]), "artus.draw.pile-empty", msg.R_HAND, pile=move.pile
            )
            return
        require(not isinstance(move, Draw), "artus.phase.must-play", msg.R_PLAY, left=self.plays_left)
        assert isinstance(move, Play)
        if not self._offered(move):  # the checks one by one say what is wrong
            self._check_play(move)

    def _offered(self, move: Play) -> bool:
        """``move`` is one that its card, in the hand, offers now (the listing is kept)."""
        if move.card not in self.hands[self.current]:
            return False
        card = DATA.cards.get(move.card) if isinstance(move.card, str) else None
        if card is None:
            return False
        fast = offered(card, move, self.seats, self.king, self.current)
        if fast is not None:  # a figure's move or a ring: read off the seats it names
            return fast
        knights, royals = figures(tuple(self.seats))
        mine = knights.get(board.knight(self.current), ())
        try:
            return move in card_offer(card, mine, royals, self.king)[1]  # type: ignore[arg-type]
        except TypeError:  # a field of a type no listed move has (unhashable)
            return False

    def _check_seat(self, seat: Any, rule: str) -> None:
        require(board.seat_ok(seat), "artus.seat.no-seat", rule, seat=seat, last=DATA.seats - 1)

    def _check_play(self, move: Play) -> None:
        card = DATA.cards.get(move.card) if isinstance(move.card, str) else None
        require(card is not None, "artus.card.unknown", msg.R_PLAY, card=move.card)
        assert card is not None
        require(move.card in self.hands[self.current], "artus.card.not-in-hand", msg.R_PLAY, card=move.card)
        dos = {
            "knight": ("move",),
            "royal": ("move",),
            "ring": ("ring",),
            "choice": ("move", "ring", "score"),
            "score": ("score", "penalty") if card.effect in EFFECT_KNIGHTS else ("score",),
        }[card.action]
        require(move.do in dos, "artus.card.wrong-action", msg.R_PLAY, card=card.id, do=move.do)
        extras = {
            "seat": move.seat is not None and move.do not in ("move", "ring"),
            "steps": move.steps is not None and move.do != "move",
            "knights": bool(move.knights) and move.do != "score",
        }
        for field_name, extra in extras.items():
            require(not extra, "artus.play.extra", msg.R_PLAY, field=field_name)
        if move.do == "move":
            self._check_figure_move(card, move)
        elif move.do == "ring":
            self._check_ring(card, move)
        else:
            self._check_score(card, move)

    def _check_figure_move(self, card: Card, move: Play) -> None:
        rule = {"knight": msg.R_KNIGHT, "royal": msg.R_ROYAL}.get(card.action, msg.R_SCORING)
        self._check_seat(move.seat, rule)
        assert move.seat is not None
        figure = self.seats[move.seat]
        require(figure is not None, "artus.move.no-figure", rule, seat=move.seat)
        assert figure is not None
        if card.action == "knight":
            require(not board.is_royal(figure), "artus.move.not-own-knight", rule, seat=move.seat)
        if card.action == "royal":
            require(board.is_royal(figure), "artus.move.not-royal", rule, seat=move.seat)
            require(
                card.colour in ("both", figure),
                "artus.move.wrong-colour",
                rule,
                card=card.id,
                colour=card.colour,
                seat=move.seat,
                figure=figure,
            )
        else:
            require(
                board.owner(figure) in (None, self.current), "artus.move.foreign-knight", rule, seat=move.seat
            )
        steps = move.steps
        ok = isinstance(steps, int) and not isinstance(steps, bool)
        require(not ok or steps >= 0 or card.both_ways, "artus.move.backwards", rule, card=card.id)  # type: ignore[operator]
        require(
            ok and card.lo <= abs(steps) <= card.hi,
            "artus.move.out-of-range",
            rule,  # type: ignore[arg-type]
            card=card.id,
            lo=card.lo,
            hi=card.hi,
            steps=steps,
        )

    def _check_ring(self, card: Card, move: Play) -> None:
        self._check_seat(move.seat, msg.R_RING)
        assert move.seat is not None
        figure = self.seats[move.seat]
        require(board.is_royal(figure), "artus.ring.not-prince", msg.R_RING, seat=move.seat)
        require(move.seat != self.king, "artus.ring.king", msg.R_RING, seat=move.seat)
        colour = card.colour or "both"
        require(
            colour in ("both", figure),
            "artus.ring.wrong-colour",
            msg.R_RING,
            card=card.id,
            colour=colour,
            seat=move.seat,
            figure=figure,
        )

    def _check_score(self, card: Card, move: Play) -> None:
        rule = msg.R_SCORING
        if card.effect not in EFFECT_KNIGHTS:
            require(not move.knights, "artus.score.no-choice", rule, card=card.id)
            return
        assert card.effect is not None
        # "Must choose" Knights that meet the card; the penalty is only for a
        # card that cannot be met (NOTATION.md, Readings). ruling: docs/rulings.md#artus-penalty-cards
        can = bool(scoring.selections(self.seats, self.king, self.current, card.effect))
        if move.do == "penalty":
            require(not can, "artus.score.can-fulfil", rule, card=card.id, penalty=card.penalty)
            return
        require(can, "artus.score.cannot-fulfil", rule, card=card.id, penalty=card.penalty)
        wanted = EFFECT_KNIGHTS[card.effect]
        knights = move.knights
        require(
            len(knights) == wanted,
            "artus.score.wrong-count",
            rule,
            card=card.id,
            wanted=wanted,
            got=len(knights),
        )
        for i, seat in enumerate(knights):
            self._check_seat(seat, rule)
            require(seat not in knights[:i], "artus.score.same-knight", rule, seat=seat)
            require(
                self.seats[seat] == board.knight(self.current), "artus.score.not-own-knight", rule, seat=seat
            )
        colours = [board.plate(self.king, s).colour for s in knights]
        if card.effect == "green-yellow-red":
            require(
                sorted(colours) == ["green", "red", "yellow"],
                "artus.score.colours",
                rule,
                colours=", ".join(colours),
            )
        elif card.effect == "carpet":
            for seat in knights:
                require(seat in DATA.carpet, "artus.score.not-carpet", rule, seat=seat)
        else:
            for seat, colour in zip(knights, colours, strict=True):
                require(colour == "red", "artus.score.not-red", rule, seat=seat)

    # -- apply ----------------------------------------------------------
    def _apply(self, move: Move) -> list[Event]:
        events: list[Event] = []
        if type(move) is Play:  # most moves of a game
            self._play(move, events)
        elif isinstance(move, Reveal):
            self._reveal(move.card, events)
        elif isinstance(move, Place):
            self._place(move.seat, events)
        elif isinstance(move, Draw):
            self.pending = move.pile
            events.append(Event("pile_chosen", {"player": self.current, "pile": move.pile}))
        else:
            assert isinstance(move, Play)  # a subclass of it
            self._play(move, events)
        return events

    def _reveal(self, card: str, events: list[Event]) -> None:
        player, pile = self._pile_in_draw()
        self.piles[player][pile].remove(card)
        self.hands[player].append(card)
        self.hands[player].sort()
        events.append(Event("card_drawn", {"player": player, "pile": pile}))
        events.append(Event("card_received", {"player": player, "pile": pile, "card": card}, (player,)))
        if self.phase == "deal":
            self.deal_queue.pop(0)
            if not self.deal_queue:
                self.phase = "place"
                events.append(Event("placing", {"player": self.place_order[0]}))
            return
        self.pending = None
        self.draws_left -= 1
        self._settle_draw(events)

    def _place(self, seat: int, events: list[Event]) -> None:
        player = self.place_order.pop(0)
        self.seats[seat] = board.knight(player)
        events.append(
            Event("placed", {"player": player, "seat": seat, **board.label(board.knight(player), False)})
        )
        if not self.place_order:
            self._start_turn(events)

    def _start_turn(self, events: list[Event], mode: Mode | None = None) -> None:
        self.phase = "play"
        self.plays_left = min((mode or self.mode).plays_per_turn, len(self.hands[self.current]))
        events.append(Event("turn", {"player": self.current, "round": self.round}))

    def _settle_draw(self, events: list[Event], mode: Mode | None = None) -> None:
        """Wait for the pile choice, or go straight to the card when only one
        pile is left; end the turn when nothing is left to draw."""
        p = self.current
        mode = mode or self.mode
        if self.draws_left > 0:
            open_piles = list(filter(self.piles[p].get, mode.piles))  # those with a card left
            if open_piles:
                if len(open_piles) == 1:
                    self.pending = open_piles[0]
                return
        self.current = (p + 1) % self.players
        if self.current == 0:
            self.round += 1
        if not any(self.hands):
            self.phase = "over"
            self.round = mode.rounds
            outcome = self._outcome()
            assert outcome is not None
            events.append(Event("game_over", {"winners": outcome.winners, "scores": self.scores}))
            return
        self._start_turn(events, mode)

    def _play(self, move: Play, events: list[Event]) -> None:
        p, cid, do = self.current, move.card, move.do
        self.hands[p].remove(cid)
        self.played[p].append(cid)
        events.append(Event("card_played", {"player": p, "card": cid, "do": do}))
        if do == "move":
            assert move.seat is not None and move.steps is not None
            self._move_figure(move.seat, move.steps, events)
        elif do == "ring":
            assert move.seat is not None
            self._add_ring(move.seat, events)
        elif do == "penalty":
            card = DATA.cards[cid]
            assert card.penalty is not None
            self._score(card.penalty, "penalty", events)["card"] = cid
        else:
            self._score_card(DATA.cards[cid], move.knights, events)
        self.plays_left -= 1
        if self.plays_left == 0:
            self.phase = "draw"
            mode = self.mode
            self.draws_left = mode.draws_per_turn
            self._settle_draw(events, mode)

    def _move_figure(self, src: int, steps: int, events: list[Event]) -> None:
        """Move the figure on ``src``; it scores the seat it leaves (the King
        scores 0: his seat faces the crown). A figure where it lands is
        displaced to the next empty seat counter-clockwise and scores nothing.
        ruling: docs/rulings.md#artus-score-before-the-table-turns"""
        seats, rings, king = self.seats, self.rings, self.king
        figure = seats[src]
        assert figure is not None
        was_king = src == king
        dst = (src + steps) % DATA.seats
        ringed = rings[src]
        seats[src], rings[src] = None, 0
        # the label's copy filled in place: a third cheaper than merging it with **
        moved = board.label(figure, was_king).copy()
        moved["from"], moved["to"], moved["steps"], moved["player"] = src, dst, steps, self.current
        events.append(Event("figure_moved", moved))
        new_king = dst if was_king else king
        occupant = seats[dst]
        if occupant is not None:
            to = board.next_empty_ccw(seats, dst)
            seats[to], rings[to] = occupant, rings[dst]
            displaced = board.label(occupant, dst == king).copy()
            displaced["from"], displaced["to"] = dst, to
            events.append(Event("displaced", displaced))
            if dst == king:
                new_king = to
        seats[dst], rings[dst] = figure, ringed
        if new_king != king:
            self._rotate(new_king, events)
        if not was_king:  # the seat's value as it was before the table turned
            self._score(board.values(king)[src], "seat left", events)["seat"] = src

    def _rotate(self, new_king: int, events: list[Event]) -> None:
        if new_king != self.king:
            events.append(Event("table_rotated", {"from": self.king, "to": new_king}))
            self.king = new_king

    def _add_ring(self, seat: int, events: list[Event]) -> None:
        gain = board.values(self.king)[seat]
        rings = self.rings
        rings[seat] += 1
        figure = self.seats[seat]
        assert figure is not None
        ringed = board.label(figure, False).copy()
        ringed["seat"], ringed["rings"] = seat, rings[seat]
        events.append(Event("ring_added", ringed))
        self._score(gain, "ring", events)["seat"] = seat
        if rings[seat] >= DATA.crowning_rings:
            old = self.king
            returned = rings[old] - DATA.prince_rings
            rings[old] = DATA.prince_rings
            events.append(
                Event(
                    "crowned", {"colour": figure, "seat": seat, "old_king": old, "rings_returned": returned}
                )
            )
            self._rotate(seat, events)

    def _score_card(self, card: Card, knights: tuple[int, ...], events: list[Event]) -> None:
        p = self.current
        if card.action == "choice":
            knights = (scoring.best_knight(self.seats, self.king, p),)
            points = scoring.total(self.king, knights)
        elif card.effect in ("all", "all-opposite"):
            knights = tuple(scoring.own_knights(self.seats, p))
            points = scoring.total(self.king, knights) * (-1 if card.effect == "all-opposite" else 1)
        else:
            points = scoring.total(self.king, knights)
        scored = self._score(points, "scoring card", events)
        scored["card"], scored["knights"] = card.id, list(knights)

    def _score(self, points: int, reason: str, events: list[Event]) -> dict[str, Any]:
        """Add ``points`` to the player to move, with the event saying so and,
        when the 50 tiles change, the event for them. Returns the prestige
        event's params for the caller to add its detail (seat, card) to, after
        player, points, score and reason: no keyword dict merged into it."""
        p = self.current
        old = self.scores[p]
        new = self.scores[p] = old + points
        params = {"player": p, "points": points, "score": new, "reason": reason}
        events.append(Event("prestige", params))
        tile = DATA.point_tile_value  # inline _tiles(): a late card play scores once or twice
        before, after = max(0, old) // tile, max(0, new) // tile
        if after != before:
            events.append(Event("point_tiles", {"player": p, "tiles": after, "change": after - before}))
        return params

    @staticmethod
    def _tiles(score: int) -> int:
        """The "50" tiles in front of a player: one per 50 points reached.
        ruling: docs/rulings.md#artus-fifty-tiles-and-negative-scores"""
        return max(0, score) // DATA.point_tile_value

    # -- views, outcome, JSON -------------------------------------------
    def _view(self, seat: int | None) -> JSON:
        to_move = self._to_move()
        view: JSON = {
            "mode": self.options["mode"],
            "phase": self.phase,
            "round": self.round,
            "rounds": self.mode.rounds,
            "to_move": "chance" if to_move == CHANCE else to_move,
            "turn": self.current,
            "plays_left": self.plays_left if self.phase == "play" else 0,
            "draws_left": self.draws_left if self.phase == "draw" else 0,
            "drawing": self._drawing(),
            "king": self.king,
            # Per seat, clockwise from seat 0: the figure ("k<player>", "silver",
            # "bronze" or null; the King stands on "king"), the plate's value
            # (green > 0, yellow 0, red < 0) and a Prince's rings.
            "figures": list(self.seats),
            "values": list(board.values(self.king)),
            "rings": {str(s): r for s, r in enumerate(self.rings) if r},
            "scores": list(self.scores),
            "tiles": [self._tiles(s) for s in self.scores],
            "hand_sizes": [len(h) for h in self.hands],
            # Card backs show which pile each hand card came from.
            "hand_backs": [self._backs(h) for h in self.hands],
            "piles": [{k: len(v) for k, v in p.items()} for p in self.piles],
            "played": [list(p) for p in self.played],
            "placing": list(self.place_order),
        }
        if seat is not None:
            view["seat"] = seat
            view["hand"] = list(self.hands[seat])
        return view

    def _secret_seat(self) -> int | None:
        drawing = self._drawing()  # every card drawn goes into the drawer's hand
        return drawing["player"] if drawing else None

    def _drawing(self) -> JSON | None:
        if self._to_move() != CHANCE:
            return None
        player, pile = self._pile_in_draw()
        return {"player": player, "pile": pile}

    @staticmethod
    def _backs(hand: list[str]) -> dict[str, int]:
        out: dict[str, int] = {}
        for cid in hand:
            pile = DATA.cards[cid].pile
            out[pile] = out.get(pile, 0) + 1
        return out

    def _outcome(self) -> Outcome | None:
        if self.phase != "over":
            return None
        best = max(self.scores)
        winners = [p for p, s in enumerate(self.scores) if s == best]
        return Outcome(
            winners,
            dict(enumerate(self.scores)),
            f"all cards played after {self.mode.rounds} rounds; most prestige wins, ties share",
            {"tiles": [self._tiles(s) for s in self.scores]},
        )

    def _to_json(self) -> JSON:
        return {
            "phase": self.phase,
            "seats": list(self.seats),
            "rings": list(self.rings),
            "king": self.king,
            "scores": list(self.scores),
            "hands": [list(h) for h in self.hands],
            "piles": [{k: list(v) for k, v in p.items()} for p in self.piles],
            "played": [list(p) for p in self.played],
            "deal_queue": [list(d) for d in self.deal_queue],
            "place_order": list(self.place_order),
            "current": self.current,
            "round": self.round,
            "plays_left": self.plays_left,
            "draws_left": self.draws_left,
            "pending": self.pending,
        }

    def perturb_secrets(self, seat: int, rng: random.Random) -> State | None:
        """Deal ``seat`` another hand from its own unseen cards, keeping the
        card backs (how many from each pile) that the table can see."""
        if not self.hands[seat]:
            return None
        other = self.copy()
        assert isinstance(other, ArtusState)
        other._deal_hand(seat, rng)
        return other

    def sample_unseen(self, seat: int, rng: random.Random) -> State:
        """Every other player's hand dealt afresh, pile by pile, from that
        hand and that player's unseen pile (the backs stay as the table sees them)."""
        other = self._unseen_copy()
        assert isinstance(other, ArtusState)
        for player in range(self.players):
            if player != seat:
                other._deal_hand(player, rng)
        return other

    def _deal_hand(self, seat: int, rng: random.Random) -> None:
        """Same number of cards from each pile; the pool is sorted first so
        the deal depends on ``rng`` alone, not on the cards it replaces."""
        hand: list[str] = []
        for pile, cards in self.piles[seat].items():
            mine = [c for c in self.hands[seat] if DATA.cards[c].pile == pile]
            pool = sorted(mine + cards)
            rng.shuffle(pool)
            hand.extend(pool[: len(mine)])
            self.piles[seat][pile] = sorted(pool[len(mine) :])
        self.hands[seat] = sorted(hand)
