"""Siege at the table (notation: rules/siege/NOTATION.md). Seat 1 is the
Attacker, seat 2 the Defender.

Tagged components: every physical card of both decks, one tag each; cards
of a kind are interchangeable, so every tag of a kind stands for that kind
(``knight@1``: any of the Attacker's Knights). A card is tapped on its
owner's pad when drawn (revealing it, confirmed on that seat's screen only)
and when played, discarded or fed to the troops, so Tablekeeper knows each
hand and refuses a card the hand does not hold. A card of a unit on the
table, picked up and tapped on the pad, names that unit: one's own to
attack with, join, move, support with or lose, the other side's as a
target (where several units are of that kind, the menu then picks among
them). The rest is picked in the menu, and so is every choice a card or
a loss leaves to a player (the place a card takes in its row, the wall a
Horn removes, the unit lost: docs/rulings.md#siege-the-player-chooses);
die results are entered with the buttons (or rolled by Tablekeeper where the table's
profile lets it draw chance).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, ClassVar

from pi_app.games.base import Component, TableAdapter
from pi_app.games.siege import words as w
from pi_app.games.siege.said import at_most_two, said
from pi_app.i18n import pick
from pi_app.ui.menu import Cursor
from rules.core import JSON, Event, IllegalMove, Move, Outcome, State
from rules.siege.constants import HAND_LIMIT, R_FEED, R_HAND, R_TURN, SETUP_ACTIONS, SETUP_DRAW, SIDES, SUPPLY
from rules.siege.data import CARDS, DATA

#: chance phases whose drawn card goes into the drawer's hand (a secret)
HAND_DRAWS = ("setup_draw", "draw")


class SiegeAdapter(TableAdapter):
    game_id = "siege"
    turn_rule = R_TURN
    tap_confirms = True
    tap_fields: ClassVar[dict[str, str]] = {"card": "card"}
    field_labels: ClassVar[dict[str, tuple[str, str]]] = {
        "type": ("Action", "Azione"), "card": ("Card", "Carta"), "target": ("Target", "Bersaglio"),
        "unit": ("Unit", "Unità"), "to": ("To", "Verso"), "choice": ("Choice", "Scelta"),
        "value": ("Die", "Dado"), "melee": ("Shoot or hand to hand", "Tiro o corpo a corpo"),
        "at": ("Place in the row", "Posto nella fila"),
    }
    value_labels: ClassVar[dict[str, tuple[str, str]]] = dict(w.TYPES)
    view_labels: ClassVar[dict[str, tuple[str, str]]] = w.VIEW_LABELS
    player_fields: ClassVar[frozenset[str]] = frozenset({"seat"})
    seat_lists: ClassVar[frozenset[str]] = frozenset({"sides"})

    def __init__(self, players: int, lang: str = "en", names: Sequence[str] = ()) -> None:
        super().__init__(players, lang, names)
        # The public view last asked about: menu labels say where a unit lies.
        self._seen: JSON | None = None
        # Each seat's latest drawn card, for its own screen only; the cards
        # drawn by the last moves are "fresh" until the seat's next move,
        # while its menu's title confirms them.
        self.drawn: dict[int, str] = {}
        self.fresh: dict[int, list[str]] = {}
        # The hand of the seat whose menu is drawn: the menu's first level
        # shows it, on that seat's own screen only.
        self._hand: list[str] = []
        # The seat's menu as last made: below its first level (a card tapped)
        # the screen names the card chosen instead of the hand.
        self._menu: Cursor | None = None

    def looking_at(self, state: State) -> None:
        self._see(state)  # a unit's row in a move's words is read from the state before it

    def _see(self, state: State) -> JSON:
        self._seen = state.view(None)
        return self._seen

    # -- components and taps ------------------------------------------------
    def components(self) -> list[Component]:
        out = []
        for seat, side in enumerate(SIDES):
            counts = Counter(DATA.decks[side]) + Counter(DATA.decks[f"{side}_events"])
            for card, n in counts.items():
                info = CARDS[card]
                out.append(Component(f"{card}@{seat + 1}", "card", card, seat, (info.name, info.name_it),
                                     count=n))
        return out

    def enroll_prompt(self, comp: Component, lang: str) -> str:
        side = w.role(comp.seat, lang, self.names)
        return (f"a {comp.name('en')} card of the {side}" if lang == "en"
                else f"una carta {comp.name('it')} dell'{side}")

    def tap(self, state: State, seat: int, comp: Component, moves: Sequence[Move],
            field: str | None) -> list[Move]:
        """A card from the hand names itself; else a card of a unit on the
        table, picked up and tapped, names the units of its kind: of the
        seat's own, the one to attack with, join, move, support with or lose
        (a card of the hand first: Floods' loss is a food card from the
        hand); of the other side's, the target."""
        if comp.seat != seat:
            return _naming(moves, "target", comp.value)
        out = super().tap(state, seat, comp, moves, field)
        return out or _naming(moves, "unit", comp.value)

    def may_tap(self, state: State, seat: int, comp: Component) -> bool:
        """The other side's card, picked up from the table, names a target
        of that kind (an attack's, a Traitor's, the oil's)."""
        return comp.seat == seat or bool(_naming(state.legal_moves(), "target", comp.value))

    def refusal(self, state: State, seat: int, comp: Component, moves: Sequence[Move]) -> IllegalMove:
        view = state.view(seat)
        name = comp.name(self.lang)
        if view["phase"] not in ("setup", "play") and _on_table(view, seat, comp.value):
            return IllegalMove("table.not-now", R_TURN, what=name)
        if comp.value not in view["hand"]:
            n = len(view["hand"])
            if n >= HAND_LIMIT:
                return IllegalMove("table.siege.sixth-card", R_HAND, card=name, n=n)
            return IllegalMove("table.siege.not-in-hand", R_HAND, card=name)
        if view["phase"] == "feed":
            food = w.card_name(SUPPLY[seat], self.lang)
            return IllegalMove("table.siege.feed-first", R_FEED, food=food)
        if view["phase"] == "lose" and view["losses"]:
            reason = w.loss_reason(view["losses"]["reason"], self.lang)
            return IllegalMove("table.siege.lose-first", R_TURN, reason=reason)
        return super().refusal(state, seat, comp, moves)

    def probe(self, state: State, seat: int, comp: Component) -> Move | None:
        from rules import get

        return get(self.game_id).move_from_json({"type": "play", "card": comp.value})

    def chance_tap(self, state: State, comp: Component, moves: Sequence[Move]) -> list[Move]:
        # A drawn card (hand or event) is revealed by the drawer's own card.
        view = self._see(state)
        if view["phase"] not in HAND_DRAWS or comp.kind != "card" or comp.seat != view["seat"]:
            return []
        return [m for m in moves if m.to_json().get("card") == comp.value]

    # -- menus and words -------------------------------------------------------
    def menu(self, state: State, seat: int) -> Cursor:
        self._see(state)
        self._menu = super().menu(state, seat)
        return self._menu

    def field_label(self, field: str | None, lang: str) -> str:
        # Only a seat's own menu branches on the move type (chance steps
        # never do): there the hand is shown, to choose with it in view;
        # once a card is tapped (or chosen), that card alone.
        if field == "type" and self._hand and self._seen and self._seen["phase"] in ("setup", "play"):
            menu = self._menu
            deep = menu is not None and len(menu.stack) > 1
            cards = {m.to_json().get("card") for m in menu.moves} if menu is not None and deep else set()
            if len(cards) == 1 and isinstance(card := next(iter(cards)), str):
                return w.card_name(card, lang)
            return w.hand_text(self._hand, lang)
        return super().field_label(field, lang)

    def page_view(self, view: JSON) -> JSON:
        # each side's last row has its own name: the Attacker's Command row, the Defender's Castle row
        sides = [{**side, "rows": {(f"rc{seat}" if row == "rc" else row): units
                                   for row, units in side.get("rows", {}).items()}}
                 for seat, side in enumerate(view.get("sides", []))]
        return {**view, "sides": sides} if sides else view

    def view_field(self, field: str, lang: str) -> str:
        if field in w.ROW_NAMES:  # "r1": a side's row as the screens name it
            return pick(w.ROW_NAMES[field], lang)
        if "-" in field and w.card_of(field) in CARDS:  # a siege tower's copy, holding soldiers
            return w.card_name(w.card_of(field), lang)
        return super().view_field(field, lang)

    def view_value(self, field: str | None, value: Any, lang: str) -> str:
        if isinstance(value, str) and "-" in value and w.card_of(value) in CARDS:  # "archer-2": a card's copy
            return w.card_name(w.card_of(value), lang)
        if isinstance(value, str) and value in CARDS:  # a discarded card, an event, a troop on its way
            return w.card_name(value, lang)
        if field == "row" and value in w.ROW_NAMES:
            return pick(w.ROW_NAMES[value], lang)
        if field == "reason" and isinstance(value, str):
            return w.loss_reason(value, lang)
        return super().view_value(field, value, lang)

    def value_label(self, field: str | None, value: Any, lang: str) -> str:
        name = (field or "").rsplit(".", 1)[-1]
        if name == "unit" and value is None:
            return "No support" if lang == "en" else "Nessun supporto"
        if name == "at" and isinstance(value, int):  # the place a card takes in its row
            return w.slot(self._entry_row(), value, lang)
        if name == "phase" and value in w.PHASES:
            return pick(w.PHASES[value], lang)
        if name == "melee":  # an Archer's attack: shot (no key) or hand to hand
            return pick(w.MELEE[bool(value)], lang)
        if name == "card" and isinstance(value, str):
            return w.card_name(value, lang)
        if name == "choice" and isinstance(value, str):
            return pick(w.SPEAR.get(value, (value, value)), lang)
        if name == "target" and value == "grain":
            return "Food from discards" if lang == "en" else "Cibo dagli scarti"
        if name == "to" and value in w.ROW_NAMES:
            return f"{'to' if lang == 'en' else 'in'} {pick(w.ROW_NAMES[value], lang)}"
        if name == "target" and isinstance(value, str):  # the other side's unit: whose it is
            return w.unit(value, [self._seen], lang, self.names)
        if name in ("unit", "to") and isinstance(value, str):
            return w.unit(value, [self._seen], lang)
        return super().value_label(field, value, lang)

    def move_text(self, move: JSON, lang: str) -> str:
        kind = str(move.get("type", ""))
        verb = pick(w.TYPES.get(kind, (kind, kind)), lang)
        if kind == "die":
            return f"{verb} {move.get('value')}"
        at = move.get("at")
        # ruling: docs/rulings.md#siege-place-in-the-row
        row = "r1" if kind == "move" else self._entry_row() if kind == "place" else "r2"
        place = w.slot(row, at, lang, into=True) if isinstance(at, int) else ""
        if kind == "spear":
            choice = pick(w.SPEAR.get(str(move.get("choice")), ("?", "?")), lang)
            unit = move.get("unit")  # the Peasant the Defender named
            text = f"{choice}: {self.value_label('unit', unit, lang)}" if isinstance(unit, str) else choice
            return " ".join(filter(None, [text, place]))
        if kind == "place":  # the title names the card
            return f"{pick(w.TYPES['place'], lang)} {place}"
        skip = ("type", "at", "to") if place else ("type",)
        rest = [self.value_label(k, v, lang) for k, v in move.items() if k not in skip]
        if place:
            rest.append(place)
        if kind == "support" and move.get("unit") is None:
            return rest[0]
        return " ".join([verb, *rest])

    def _entry_row(self) -> str:
        """The row a place (``at``) in the menu now counts in: row 1 when
        moving, the arriving card's row, else row 2."""
        seen = self._seen or {}
        if seen.get("phase") == "move":
            return "r1"
        if seen.get("phase") == "arrive" and seen.get("arriving"):
            return str(seen["arriving"][0]["row"])
        return "r2"

    def step_title(self, state: State, lang: str) -> str:
        view = self._see(state)
        phase = view["phase"]
        if phase == "feed":
            food = w.card_name(SUPPLY[view["seat"]], lang)
            return f"Feed: tap {food}" if lang == "en" else f"Nutri: {food}"
        seat = state.to_move()
        self._hand = state.view(seat)["hand"] if seat is not None and seat >= 0 else []
        fresh = [c for c in self.fresh.get(seat or 0, []) if c in self._hand]
        if phase == "setup":
            # the rulebook's step 4: of the 8 cards drawn, 3 are played or discarded
            left = int(getattr(state, "count", SETUP_ACTIONS))  # plays or discards left
            first = left == SETUP_ACTIONS
            if lang == "en":
                return (f"Setup: play or discard {left} of your {SETUP_DRAW} cards" if first
                        else f"Setup: play or discard {left} more card{'s' if left != 1 else ''}")
            return (f"Preparazione: gioca o scarta {left} delle tue {SETUP_DRAW} carte" if first
                    else f"Preparazione: gioca o scarta ancora {left} cart{'e' if left != 1 else 'a'}")
        if phase in ("setup", "play") and seat == view["seat"] and fresh:
            # The cards drawn, confirmed on the drawer's own screen: its menu.
            if len(fresh) > 1:
                return f"New: {len(fresh)} cards" if lang == "en" else f"Nuove: {len(fresh)} carte"
            name = w.card_name(fresh[0], lang)
            return f"New card: {name}" if lang == "en" else f"Nuova carta: {name}"
        if phase == "play" and seat == view["seat"]:
            moves = [m.to_json() for m in state.legal_moves()]
            dead = [m for m in moves if m["type"] == "discard" and CARDS[m["card"]].kind == "fortification"]
            if moves and dead == moves:
                # Walls and Moat after setup: their discard is the turn's card
                name = "/".join(pick(w.FORTIFICATION[m["card"]], lang) for m in moves)
                return f"Must discard {name}" if lang == "en" else f"Scarta {name}"
        if phase == "arrive" and view["arriving"]:  # a reinforcement, or a soldier off a tower
            entry = view["arriving"][0]
            name = w.card_name(entry["card"] if "card" in entry else w.card_of(entry["unit"]), lang)
            return f"{name}: where?" if lang == "en" else f"{name}: dove?"
        if phase == "lose" and view["losses"]:
            reason = w.loss_reason(view["losses"]["reason"], lang)
            left = view["losses"]["count"]
            return f"Lose {left} to {reason}" if lang == "en" else f"Perdi {left} per {reason}"
        return pick(w.STEP.get(phase, ("Your turn", "Tocca a te")), lang)

    def chance_title(self, state: State, lang: str) -> str:
        view = self._see(state)
        who = w.role(view["seat"], lang, self.names)
        en = lang == "en"
        phase = view["phase"]
        if phase == "setup_draw":
            n = view["sides"][view["seat"]]["hand_size"] + 1
            return f"{who} draws {n} of 8" if en else f"{who} pesca {n} di 8"
        if phase == "draw" and view["drawing_from"] == "events":
            return f"{who} draws an event" if en else f"Evento: {who}"
        if phase == "draw":
            return f"{who} draws a card" if en else f"Pesca: {who}"
        if phase == "die":
            return f"Event die: {who}" if en else f"Dado evento: {who}"
        if phase == "attack_die":
            return f"Attack die: {who}" if en else f"Dado attacco: {who}"
        return super().chance_title(state, lang)

    # -- screens ---------------------------------------------------------------
    def private_lines(self, state: State, seat: int, lang: str) -> tuple[str, list[str]]:
        view = state.view(seat)
        en = lang == "en"
        hand = w.hand_text(view["hand"], lang) or ("no cards" if en else "nessuna carta")
        n = len(view["hand"])
        line = f"{w.role(seat, lang, self.names)} · {n} card{'s' if n != 1 else ''}" if en else \
            f"{w.role(seat, lang, self.names)} · {n} cart{'e' if n != 1 else 'a'}"
        new = self.drawn.get(seat)
        fresh = "new card" if en else "carta nuova"
        got = f"{fresh}: {w.card_name(new, lang)}" if new in view["hand"] else ""
        if view["phase"] in HAND_DRAWS and view["seat"] == seat:  # the drawer taps what was drawn
            big = "Tap the card you drew" if en else "Tocca la carta pescata"
            return big, [got, f"{line}: {hand}"] if got else [f"{line}: {hand}"]
        return hand, [f"{line} · {got}" if got else line]

    def public_lines(self, state: State, lang: str) -> list[str]:
        view = self._see(state)
        en = lang == "en"
        if view["phase"] in ("setup_draw", "setup"):
            return [f"Setup: each player draws {SETUP_DRAW} cards, then plays or discards "
                    f"{SETUP_ACTIONS}" if en else f"Preparazione: ogni giocatore pesca {SETUP_DRAW} carte, "
                    f"poi ne gioca o scarta {SETUP_ACTIONS}"]
        # how many cards each player holds, each named: "6/5" alone explained nothing
        hands = ", ".join(f"{w.role(seat, lang, self.names)} {side['hand_size']}"
                          for seat, side in enumerate(view["sides"]))
        out = [f"Day {view['day']} · in hand: {hands}" if en else f"Giorno {view['day']} · in mano: {hands}"]
        if view["feeding_due"] and view["phase"] in ("die", "draw", "event"):  # at "feed" it is the big line
            who = w.role(view["seat"], lang, self.names)
            out.insert(0, f"{who} must feed today" if en else f"{who} nutre oggi")
        events = [self._event_text(e, lang) for e in view["events"]]
        if events:
            out.insert(0, "; ".join(events))
        return out

    def _event_text(self, event: JSON, lang: str) -> str:
        name = pick(w.EVENT_SHORT.get(event["card"], (w.card_name(event["card"], lang),) * 2), lang)
        side = w.role(event["seat"], lang, self.names)  # the player's name, as everywhere
        n = event["turns_left"]
        if lang == "en":
            return f"{name} ({side}) {n} turn{'s' if n != 1 else ''}"
        return f"{name} ({side}) {n} turn{'i' if n != 1 else 'o'}"

    def outcome_lines(self, outcome: Outcome, lang: str) -> tuple[str, list[str]]:
        en = lang == "en"
        winner = w.role(outcome.winners[0], lang, self.names) if outcome.winners else "-"
        big = f"{winner} wins" if en else f"Vince: {winner}"
        reason = pick(w.REASONS.get(outcome.reason, (outcome.reason,) * 2), lang)
        detail = dict(outcome.detail)
        day = (f"Day {detail.get('day')} · walls left {detail.get('walls_left')}" if en
               else f"Giorno {detail.get('day')} · mura {detail.get('walls_left')}")
        return big, [reason[:1].upper() + reason[1:], day]

    # -- what the table must do ---------------------------------------------------
    def take_notes(self, before: State, moves: Sequence[Move], events: Sequence[Event], after: State) -> None:
        """The cards each seat drew (its screens mark them new), and the table as the menus read it."""
        self.fresh.clear()
        for ev in events:
            if ev.type == "drew" and "card" in ev.params:
                self.drawn[ev.params["seat"]] = ev.params["card"]
                self.fresh.setdefault(ev.params["seat"], []).append(ev.params["card"])
            elif ev.type in ("played", "discarded", "fed") and self.drawn.get(ev.params.get("seat")) == \
                    ev.params.get("card") and ev.params["card"] not in after.view(ev.params["seat"])["hand"]:
                self.drawn.pop(ev.params["seat"], None)
        self._seen = after.view(None)

    def instructions(self, before: State, moves: Sequence[Move], events: Sequence[Event], after: State,
                     lang: str) -> list[str]:
        views = [after.view(None), before.view(None)]
        self.take_notes(before, moves, events, after)
        lines = said(events, views, lang, self.names)
        if views[0]["phase"] == "feed" and views[0]["to_move"] == views[0]["seat"]:
            lines.append(("feed", self.feed_reminder(views[0], lang)))
        self._seen = views[0]
        return at_most_two(lines) or super().instructions(before, moves, events, after, lang)

    def feed_reminder(self, view: JSON, lang: str) -> str:
        who = w.role(view["seat"], lang, self.names)
        food = w.card_name(SUPPLY[view["seat"]], lang)
        return (f"Day {view['day']}: {who}, feed! Tap a {food}" if lang == "en"
                else f"Giorno {view['day']}: {who}, nutri! Tocca {food}")


ADAPTER = SiegeAdapter


def _on_table(view: JSON, seat: int, card: str) -> bool:
    """Whether a unit of ``card`` lies on the table on ``seat``'s side."""
    rows = view["sides"][seat]["rows"]
    return any(w.card_of(u) == card for units in rows.values() for u in units if isinstance(u, str))


def _naming(moves: Sequence[Move], field: str, card: str) -> list[Move]:
    """The moves whose ``field`` is a unit of ``card``."""
    return [m for m in moves if isinstance(unit := m.to_json().get(field), str)
            and w.card_of(unit) == card]
