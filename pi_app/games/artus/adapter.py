"""Artus at the table (notation: rules/artus/NOTATION.md).

Tagged components: each seat's 22 cards (tap one to play it, or, when the
table enters chance, to reveal the card just drawn on the drawer's own pad),
and the four Princes and each player's Knights, each figure with a tag of its
own (tap one and it is the figure the card moves or rings:
pi_app.games.artus.figures follows each through the moves; a player's
Knights are placed in their numbers' order, which the placing screen says).
The distance, the figure, the pile and the Knights to score are picked with
◀ ● ▶; a card that moves a figure asks the distance first, and a figure
tapped then moves that far (one input for the figure and the distance's ●);
a Knight's place at the start in two steps (the quarter of the table
between two crowns, then the place), and a figure's menu starts on the one
moved last, where it now stands. After each move the shared screen tells the table which figures to
move where, and where the crown turns; hands and drawn cards appear only on
their owner's screen.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, ClassVar

from pi_app.games.artus import words as w
from pi_app.games.artus.figures import (
    ORDINALS,
    Figures,
    knight_id,
    knight_number,
    knights_on_table,
    prince_ids,
)
from pi_app.games.base import Component, TableAdapter, seat_name
from pi_app.ui.menu import Cursor
from pi_app.ui.screens import HEIGHT, SMALL, fit_big, font, wrap
from rules.artus.data import DATA
from rules.core import JSON, Event, IllegalMove, Move, Outcome, State


class ArtusAdapter(TableAdapter):
    game_id = "artus"
    turn_rule = w.RULE_PLAY
    tap_fields: ClassVar[dict[str, str]] = {"card": "card"}
    # A card that moves a figure: the distance, then the figure's tap makes
    # the move (the tap is the figure's choice and the distance's ●).
    later_fields: ClassVar[tuple[str, ...]] = ("seat",)
    tap_completes: ClassVar[frozenset[str]] = frozenset({"steps"})
    player_fields: ClassVar[frozenset[str]] = frozenset({"turn"})
    seat_lists: ClassVar[frozenset[str]] = frozenset({"scores", "tiles", "hand_sizes", "hand_backs", "piles",
                                                       "played"})
    view_labels: ClassVar[dict[str, tuple[str, str]]] = w.VIEW_LABELS
    field_labels: ClassVar[dict[str, tuple[str, str]]] = {
        "card": ("Card", "Carta"),
        "do": ("Action", "Azione"),
        "seat": ("Figure", "Figura"),
        "steps": ("Distance, or tap the figure", "Distanza, o tocca la figura"),
        "knights": ("Knights to score", "Cavalieri da contare"),
        "pile": ("Draw from", "Pesca da"),
    }

    def __init__(self, players: int, lang: str = "en", names: Sequence[str] = ()) -> None:
        super().__init__(players, lang, names)
        # The public view of the state last asked about: menu labels name the
        # figure on a seat, and the menu is drawn right after its title.
        self._seen: JSON | None = None
        # Each seat's latest drawn card, for its own screen only.
        self.drawn: dict[int, str] = {}
        # The move count of a state whose instruction needs all the room
        # below it but the prestige line.
        self._quiet: int | None = None
        # The last card's instruction and the turn it belongs to (who, round,
        # cards played so far), said again while that player draws.
        self._carry: tuple[tuple[int, int, int], list[str], list[str], str] | None = None
        self._components: list[Component] | None = None
        self._by_id: dict[str, Component] | None = None
        # Where each tagged figure stands, noted from the moves.
        self.figures = Figures()

    def _see(self, state: State) -> JSON:
        self._seen = state.view(None)
        return self._seen

    # -- components and taps ------------------------------------------------
    def components(self) -> list[Component]:
        if self._components is None:
            self._components = self._make_components()
        return list(self._components)

    def component(self, component_id: str) -> Component | None:
        if self._by_id is None:
            self._by_id = {c.id: c for c in self.components()}
        return self._by_id.get(component_id) or self._legacy(component_id)

    def _make_components(self) -> list[Component]:
        out = []
        for seat in range(self.players):
            for cid, card in DATA.cards.items():
                out.append(Component(f"{cid}@{seat + 1}", "card", cid, seat,
                                     (w.card_name(cid, "en"), w.card_name(cid, "it")), count=card.count))
        for tag, colour, k, _ in prince_ids():  # a tag per figure: a tap names one of the two
            (en, it), (first, primo) = w.COLOURS[colour], ORDINALS[k]
            label = (f"{first} {en} prince", f"{primo} principe {it}")
            out.append(Component(tag, "prince", colour, None, label))
        for seat in range(self.players):
            for k in range(1, knights_on_table(self.players) + 1):
                out.append(Component(knight_id(seat, k), "knight", f"k{seat}", seat,
                                     (f"knight {k}", f"cavaliere {k}")))
        return out

    def _legacy(self, component_id: str) -> Component | None:
        """A table enrolled when both Princes of a colour shared one tag id
        ("prince:silver"): its taps still pick among that colour's figures."""
        colour = component_id.removeprefix("prince:")
        if component_id.startswith("prince:") and colour in w.COLOURS:
            en, it = w.COLOURS[colour]
            label = (f"{en} prince", f"principe {it}")
            return Component(component_id, "prince", colour, None, label, count=2)
        return None

    def enroll_prompt(self, comp: Component, lang: str) -> str:
        if comp.kind == "card":
            owner = seat_name(comp.seat, lang, "artus")
            return (f"the {comp.name('en')} card of {owner}" if lang == "en"
                    else f"la carta {comp.name('it')} del {owner}")
        if comp.kind == "knight":
            owner, k = seat_name(comp.seat, lang, "artus"), knight_number(comp.id)
            # The table names the next one to place by its number: the figure must show it.
            return (f"the {comp.name('en')} of {owner} (write {k} under the figure)" if lang == "en"
                    else f"il {comp.name('it')} del {owner} (scrivi {k} sotto la figura)")
        place = next(p for tag, _, _, p in prince_ids() if tag == comp.id)
        king = place == DATA.large_crown
        if lang == "en":
            return f"the {comp.name('en')} (it starts on place {place}{', as the King' if king else ''})"
        return f"il {comp.name('it')} (all'inizio sul posto {place}{', come Re' if king else ''})"

    def tap(self, state: State, seat: int, comp: Component, moves: Sequence[Move],
            field: str | None) -> list[Move]:
        if comp.kind in ("prince", "knight"):
            figures = self._see(state)["figures"]
            place = self.figures.place_of(comp.id, figures)
            # a tag per colour (an older enrolment): any figure of that colour
            colour = comp.value if place is None and comp.kind == "prince" else None
            out = []
            for m in moves:
                data = m.to_json()
                seat_of = data.get("seat")
                if data.get("type") != "play" or not isinstance(seat_of, int):
                    continue
                if seat_of == place or (colour is not None and figures[seat_of] == colour):
                    out.append(m)
            return out
        return super().tap(state, seat, comp, moves, field)

    def refusal(self, state: State, seat: int, comp: Component, moves: Sequence[Move]) -> IllegalMove:
        view = state.view(seat)
        if comp.kind == "prince" or (comp.kind == "knight" and view["phase"] != "place"):
            return IllegalMove("table.artus.figure-not-now", w.RULE_PLAY, figure=comp.name(self.lang))
        if view["phase"] == "place":
            return IllegalMove("artus.phase.placing", w.RULE_SETUP)
        if view["phase"] == "draw":
            return IllegalMove("artus.phase.must-choose-pile", w.RULE_HAND)
        if comp.value not in view["hand"]:
            played = comp.value in view["played"][seat]
            code = "table.artus.card-played" if played else "table.artus.card-in-pile"
            return IllegalMove(code, w.RULE_PLAY, card=comp.name(self.lang))
        return super().refusal(state, seat, comp, moves)

    def hides_input(self, state: State, seat: int, component: str | None) -> bool:
        # A tap while a card is drawn names the card; a card refused as not
        # in hand tells what the hand lacks.
        if component is None:
            return False
        if state.is_chance():
            return True
        comp = self.component(component)
        if comp is None or comp.kind != "card" or comp.seat != seat:
            return False
        view = state.view(seat)
        return comp.value not in view["hand"] and comp.value not in view["played"][seat]

    def chance_tap(self, state: State, comp: Component, moves: Sequence[Move]) -> list[Move]:
        # Only the drawer's own card reveals a draw: it goes to that hand.
        drawer = self.chance_seat(state)
        if comp.kind != "card" or drawer is None or comp.seat != drawer:
            return []
        return [m for m in moves if m.to_json().get("card") == comp.value]

    def menu(self, state: State, seat: int) -> Cursor:
        # A distance either way reads as a dial from the first one forward:
        # ▶ further forward, ◀ one back, then two back... (the engine lists
        # 1 to 5, then -1 to -5, which put one back farthest from the start).
        moves = state.legal_moves()
        said = [m.to_json() for m in moves]
        kinds = [(d.get("type"), d.get("card"), d.get("do"), d.get("seat")) for d in said]
        first: dict[tuple[Any, ...], int] = {}
        for i, kind in enumerate(kinds):
            first.setdefault(kind, i)

        def order(i: int) -> tuple[Any, ...]:
            steps = said[i].get("steps")
            group = first[kinds[i]]
            return (group, steps < 0, steps, i) if isinstance(steps, int) else (group, False, 0, i)

        return Cursor.over([moves[i] for i in sorted(range(len(moves)), key=order)])

    def choice_confirms(self, state: State, move: Move) -> bool:
        # A pile's option ("King pile", under "Draw: choose a pile") is the
        # whole move: its ● confirms the draw. A card's last option (a
        # distance, a Prince to ring, the Knights to score) reads as the
        # whole play where the play asks for a confirm (chosen_label): its ●
        # confirms a play the draw follows at once, or one that ends the game.
        return move.to_json().get("type") in ("draw", "play")

    def chosen_label(self, move: Move, field: str | None, value: Any, lang: str) -> str:
        data = move.to_json()
        if data.get("type") == "play":
            return self.move_text(data, lang)  # "Knight 3-6: Player 2's knight 5→8"
        return super().chosen_label(move, field, value, lang)

    # -- words ------------------------------------------------------------------
    def remembered(self, move: JSON) -> JSON:
        # A figure is named by its place: the one moved last stands where it went.
        seat, steps = move.get("seat"), move.get("steps")
        if move.get("do") == "move" and isinstance(seat, int) and isinstance(steps, int):
            return {**move, "seat": (seat + steps) % DATA.seats}
        return move

    def group(self, state: State, field: str, value: Any) -> Any:
        # A Knight placed at the start is one of up to 28 places: first the
        # quarter of the table between two crowns (the board's own marks),
        # then the place in it. The quarter is named by its crown's place.
        if field != "seat" or not isinstance(value, int) or self._see(state)["phase"] != "place":
            return None
        return max(c for c in DATA.crowns if c <= value)

    def field_label(self, field: str | None, lang: str) -> str:
        if field == "seat/group":
            return "Part of the table" if lang == "en" else "Parte del tavolo"
        if field == "seat" and self._seen is not None and self._seen["phase"] == "place":
            return "Empty place" if lang == "en" else "Posto libero"
        return super().field_label(field, lang)

    def view_value(self, field: str | None, value: Any, lang: str) -> str:
        if field == "figures" and isinstance(value, str) and value[:1] == "k" and value[1:].isdigit():
            # "k1": the second player's knight
            return w.figure_name({"figure": "knight", "owner": int(value[1:])}, lang, names=self.names)
        if field == "mode" and value in w.MODES:
            return w.MODES[value][w.lang_index(lang)]
        if field is None and value in w.PILES:  # a pile's count: "King: 3"
            return w.PILES[value][w.lang_index(lang)]
        if field is None and isinstance(value, str) and value in DATA.cards:  # a card played: "Knight 3-6"
            return w.card_name(value, lang)
        return super().view_value(field, value, lang)

    def value_label(self, field: str | None, value: Any, lang: str) -> str:
        i = w.lang_index(lang)
        if field == "card" and isinstance(value, str):
            return w.card_name(value, lang)
        if field == "do" and value in w.DOS:
            return w.DOS[value][i]
        if field == "pile" and value in w.PILES:
            return (f"{w.PILES[value][0]} pile", f"Mazzo {w.PILES[value][1]}")[i]
        if field == "steps" and isinstance(value, int):
            return (f"{value} forward", f"{value} avanti")[i] if value > 0 else \
                   (f"{-value} back", f"{-value} indietro")[i]
        if field == "knights" and isinstance(value, list):
            return ("places ", "posti ")[i] + ", ".join(str(v) for v in value)  # the Round Table's
        if field == "seat" and isinstance(value, int):
            return self._seat_label(value, lang)
        if field == "seat/group" and isinstance(value, int):
            last = min([c for c in DATA.crowns if c > value] or [DATA.seats]) - 1
            return (f"Places {value} to {last}", f"Posti da {value} a {last}")[i]
        return super().value_label(field, value, lang)

    def _seat_label(self, seat: int, lang: str) -> str:
        word = ("place", "posto")[w.lang_index(lang)]  # a place at the Round Table, not a player's seat
        view = self._seen
        if view is None:
            return f"{word} {seat}"
        figure = view["figures"][seat]
        if figure is None:
            return f"{word.capitalize()} {seat} ({w.signed(view['values'][seat])})"
        return _sentence(f"{w.figure_on(figure, seat == view['king'], lang, self.names)}, {word} {seat}")

    def _figure(self, seat: int, lang: str) -> str:
        view = self._seen
        return w.figure_on(view["figures"][seat], seat == view["king"], lang, self.names) if view else "?"

    def move_text(self, move: JSON, lang: str) -> str:
        i = w.lang_index(lang)
        kind = move.get("type")
        if kind == "card":
            return ("a card drawn", "carta pescata")[i]  # the card itself is the drawer's secret
        if kind == "draw":
            return self.value_label("pile", move.get("pile"), lang)
        if kind == "place":
            return (f"Knight on place {move.get('seat')}", f"Cavaliere sul posto {move.get('seat')}")[i]
        if kind != "play":
            return super().move_text(move, lang)
        card = w.card_name(str(move.get("card")), lang)
        seat, do = move.get("seat"), move.get("do")
        if do == "move" and isinstance(seat, int) and isinstance(move.get("steps"), int):
            dest = (seat + move["steps"]) % DATA.seats
            # Asked about after the move (an undo), the figure stands on dest.
            empty = self._seen is not None and self._seen["figures"][seat] is None
            return f"{card}: {self._figure(dest if empty else seat, lang)} {seat}→{dest}"
        if do == "ring" and isinstance(seat, int):
            return f"{card}: {('ring on', 'anello a')[i]} {self._figure(seat, lang)} {seat}"
        if move.get("knights"):
            return f"{card}: {self.value_label('knights', move['knights'], lang)}"
        if do == "penalty":
            penalty = DATA.cards[move["card"]].penalty if move.get("card") in DATA.cards else None
            return f"{card}: {('penalty', 'penalità')[i]} {penalty}"
        return card

    def step_title(self, state: State, lang: str) -> str:
        return self._title(self._see(state), None, lang)

    def menu_title(self, state: State, cursor: Cursor, lang: str) -> str:
        view = self._see(state)
        card = None
        if view["phase"] == "play":
            # Once a card is chosen, its distance and figure are asked under its name.
            # The moves' own field, not their JSON: the acting seat's every redraw asks.
            cards = {getattr(m, "card", None) for m in cursor.moves}
            card = cards.pop() if len(cards) == 1 else None
        return self._title(view, card, lang)

    def _title(self, view: JSON, card: str | None, lang: str) -> str:
        i = w.lang_index(lang)
        if view["phase"] == "place":
            left = view["placing"].count(view["to_move"])
            k = self.figures.next_knight(view["to_move"])  # the figure with that number
            return (f"Place knight {k} ({left} left)", f"Piazza cavaliere {k} ({left})")[i]
        if view["phase"] == "draw":
            return ("Draw: choose a pile", "Pesca: scegli il mazzo")[i]
        name = w.card_name(card, lang) if card is not None else None
        per_turn = DATA.modes[view["mode"]].plays_per_turn
        if per_turn == 1:
            what = name or ("a card", "una carta")[i]
            return (f"Play {what}", f"Gioca {what}")[i]
        k = per_turn - view["plays_left"] + 1
        nth = (f"card {k} of {per_turn}", f"carta {k} di {per_turn}")[i]
        what = f"{name}, {nth}" if name else nth
        return (f"Play {what}", f"Gioca {what}")[i]

    def chance_title(self, state: State, lang: str) -> str:
        view = self._see(state)
        drawing = view["drawing"]
        if not drawing:
            return super().chance_title(state, lang)
        who = w.player(drawing["player"], lang, self.names)
        pile = w.PILES[drawing["pile"]][w.lang_index(lang)]
        return f"{who}'s draw: a {pile} card" if lang == "en" else f"Pescata di {who}: carta {pile}"

    # -- screens ------------------------------------------------------------------
    def private_lines(self, state: State, seat: int, lang: str) -> tuple[str, list[str]]:
        view = state.view(seat)
        en = lang == "en"
        hand = ", ".join(w.card_name(c, lang) for c in view["hand"])  # whole names: the screen pages
        hand = hand or ("no cards" if en else "nessuna carta")
        # One small line, so that a hand of six gets the big font's room.
        score = view["scores"][seat]
        line = f"Prestige {score}" if en else f"Punti {score}"
        drawing = view["drawing"]
        if drawing and drawing["player"] == seat:
            pile = w.PILES[drawing["pile"]][w.lang_index(lang)]
            big = f"Tap the {pile} card you drew" if en else f"Tocca la carta {pile} pescata"
            return big, [hand]
        new = self.drawn.get(seat)
        if new is not None and new in view["hand"]:
            line += f" · {'new card' if en else 'carta nuova'}: {w.card_name(new, lang)}"
        return hand, [line]

    def public_lines(self, state: State, lang: str) -> list[str]:
        view = self._see(state)
        en = lang == "en"
        # Every player's prestige must fit one line beside an instruction: the
        # short form, spelled out by the legend held ● shows (legend()).
        scores = " ".join(f"{w.player_short(p, lang)}:{s}" for p, s in enumerate(view["scores"]))
        if self._quiet == len(state.history):
            return [scores]  # a long instruction needs the room
        if view["phase"] == "deal":
            return [scores, "Opening hands being drawn" if en else "Pesca delle mani iniziali"]
        if view["phase"] == "place":
            left = len(view["placing"])
            return [scores, f"Placing: {left} knight{'s' if left != 1 else ''} left" if en
                    else f"Piazzamento: ancora {left}"]
        king = view["king"]
        status = (f"Round {view['round']}/{view['rounds']}, King on {king}" if en
                  else f"Round {view['round']}/{view['rounds']}, Re al {king}")
        rings = ", ".join((f"{r} on place {s}" if en else f"{r} al posto {s}")
                          for s, r in view["rings"].items() if int(s) != king)
        return [scores, status, ("Rings: " if en else "Anelli: ") + (rings or ("none" if en else "nessuno"))]

    def legend(self, state: State, lang: str) -> list[str]:
        # The prestige row and compact instructions' one short form.
        return [f"{w.player_short(p, lang)} = {w.player(p, lang, self.names)}" for p in range(self.players)]

    def outcome_lines(self, outcome: Outcome, lang: str) -> tuple[str, list[str]]:
        en = lang == "en"
        names = ", ".join(w.player(p, lang, self.names) for p in outcome.winners)
        if len(outcome.winners) == 1:
            big = f"Winner: {names}" if en else f"Vince: {names}"
        else:
            big = f"Winners: {names}" if en else f"Vincono: {names}"
        reason = "Most prestige wins" if en else "Più prestigio vince"
        scores = " · ".join(f"{w.player(int(p), lang, self.names)} {s}" for p, s in outcome.scores.items())
        return big, [scores, reason]

    # -- what the table must do -----------------------------------------------------
    def take_notes(self, before: State, moves: Sequence[Move], events: Sequence[Event], after: State) -> None:
        self._notes(before, moves, events)

    def _notes(self, before: State, moves: Sequence[Move], events: Sequence[Event]) -> bool:
        """Each seat's newest card (its waiting screen names it) and where
        each tagged figure went; True while the opening hands are dealt."""
        self.figures.note(len(before.history), len(moves), events)
        dealing = before.view(None)["phase"] == "deal"
        for ev in events:
            if ev.type == "card_received":
                if not dealing:
                    self.drawn[ev.params["player"]] = ev.params["card"]
            elif ev.audience is None and ev.type == "card_played":
                self.drawn.pop(ev.params["player"], None)
        return dealing

    def instructions(self, before: State, moves: Sequence[Move], events: Sequence[Event], after: State,
                     lang: str) -> list[str]:
        dealing = self._notes(before, moves, events)
        verbose: list[str] = []
        compact: list[str] = []
        points: dict[int, int] = {}
        markers: list[tuple[str, str]] = []
        drawn: Counter[tuple[int, str]] = Counter()
        for ev in events:
            p = dict(ev.params)
            if ev.type == "card_received" or ev.audience is not None or ev.type == "card_played":
                continue
            if ev.type == "card_drawn":
                drawn[(p["player"], p["pile"])] += 1
            elif ev.type == "prestige":
                points[p["player"]] = points.get(p["player"], 0) + p["points"]
                if (p["score"] - p["points"] < 0) != (p["score"] < 0):
                    # Below 0 the scoring marker lies on its side (rulebook, prestige track).
                    who, down = p["player"], p["score"] < 0
                    markers.append((w.marker(who, down, lang, names=self.names),
                                    w.marker(who, down, lang, short=True, names=self.names)))
                if p.get("reason") == "scoring card":
                    self._said_score(p, lang, verbose, compact)
                elif p.get("reason") == "penalty":
                    who = w.player(p["player"], lang, self.names)
                    text = f"{who} {('penalty', 'penalità')[w.lang_index(lang)]}"
                    verbose.append(text)
                    compact.append(text)
            else:
                self._said(ev.type, p, lang, verbose, compact)
        tail = ""
        if points and verbose:
            tail = " (" + ", ".join(f"{w.player(q, lang, self.names)} {w.signed(n)}"
                                    for q, n in points.items()) + ")"
        draws = self._said_draws(drawn, dealing, lang)
        self._quiet = None
        if verbose:
            self._carry = (_turn_key(after), verbose, compact, tail)
        elif draws and self._carry is not None and self._carry[0] == _turn_key(before):
            # Choosing a pile follows the card at once: the table may still be
            # moving figures, so the card's instruction stays with the draw.
            _, verbose, compact, tail = self._carry
        if not verbose:
            return [_sentence("; ".join(draws))] if draws else []
        # A draw is also on the drawer's own screen: it gives way first; then
        # the marker's side, which the prestige line's sign shows anyway.
        marks = [m[0] for m in markers], [m[1] for m in markers]
        for full, short in (([*verbose, *marks[0], *draws], [*compact, *marks[1], *draws]),
                            ([*verbose, *marks[0]], [*compact, *marks[1]]), (verbose, compact)):
            said = self._pack(after, full, short, tail, lang)
            if said is not None:
                return said
        # Nothing fits whole: the rest still on one small line, the big line
        # as large as its room allows.
        self._quiet = len(after.history)
        if _one_line(self.public_lines(after, lang)[0]):  # else the rest would be pushed off the screen
            for k in range(len(compact) - 1, 0, -1):
                rest = _sentence("; ".join(compact[k:]))
                if len(wrap(rest, font(SMALL))) == 1:
                    return [rest, _sentence("; ".join(compact[:k]) + tail)]
        return [_sentence("; ".join(compact) + tail)]

    def _said(self, kind: str, p: dict, lang: str, verbose: list[str], compact: list[str]) -> None:
        """One public event as a sentence and as a short form, or nothing."""
        en = lang == "en"
        if kind in ("figure_moved", "displaced"):
            a, b = p["from"], p["to"]
            long, short = (w.figure_name(p, lang, names=self.names),
                           w.figure_name(p, lang, short=True, names=self.names))
            if p.get("figure") == "king":  # there is one King; the crown always turns with him
                short = "King and crown" if en else "Re e corona"
            if kind == "figure_moved":
                verbose.append(f"Move {long} from place {a} to place {b}" if en
                               else f"Sposta {long} dal posto {a} al posto {b}")
                compact.append(f"{'Move' if en else 'Sposta'} {short} {a}→{b}")
            else:
                verbose.append(f"bump {long} from place {a} to place {b}" if en
                               else f"sposta {long} dal posto {a} al {b}")
                compact.append(f"bump {short} {a}→{b}" if en else f"{short} {a}→{b}")
        elif kind == "table_rotated":
            to = p["to"]
            # The short forms say it with the King's move or crowning.
            verbose.append(f"turn the crown to place {to}" if en else f"ruota la corona al posto {to}")
        elif kind == "ring_added":
            long, short = (w.figure_name(p, lang, names=self.names),
                           w.figure_name(p, lang, short=True, names=self.names))
            verbose.append(f"Put a ring on {long} (place {p['seat']})" if en
                           else f"Metti un anello {w.on(long)} (posto {p['seat']})")
            compact.append(f"ring on {short}, place {p['seat']}" if en
                           else f"anello {w.on('il ' + short)}, posto {p['seat']}")
        elif kind == "crowned":
            old, back = p["old_king"], p["rings_returned"]
            verbose.append(f"new King! take {back} rings off place {old}" if en
                           else f"nuovo Re! togli {back} anelli dal posto {old}")
            compact.append(f"crown to place {p['seat']}, {back} rings off place {old}" if en
                           else f"corona al posto {p['seat']}, togli {back} anelli dal posto {old}")
        elif kind == "point_tiles":
            who = w.player(p["player"], lang, self.names)
            take = p["change"] > 0
            text = (f"{who} {'takes' if take else 'returns'} a 50 tile" if en
                    else f"{who} {'prende' if take else 'rende'} un 50")
            verbose.append(text)
            compact.append(text)
        elif kind == "placed":
            who = w.player(p["player"], lang, self.names)
            number = knight_number(self.figures.at.get(p["seat"], ""))
            k = "" if number is None else f" {number}"
            text = (f"{who}: knight{k} on place {p['seat']}" if en
                    else f"{who}: cavaliere{k} sul posto {p['seat']}")
            verbose.append(text)
            compact.append(text)
        elif kind == "game_over":
            verbose.append("Game over" if en else "Fine partita")
            compact.append("Game over" if en else "Fine partita")

    def _said_score(self, p: dict, lang: str, verbose: list[str], compact: list[str]) -> None:
        who = w.player(p["player"], lang, self.names)
        seats = ", ".join(str(s) for s in p.get("knights", []))
        en = lang == "en"
        verbose.append(f"{who} scores knights on {seats}" if en else f"{who} conta i cavalieri su {seats}")
        compact.append(f"{who} {'scores' if en else 'conta'} {seats}")

    def _said_draws(self, drawn: Counter[tuple[int, str]], dealing: bool, lang: str) -> list[str]:
        en = lang == "en"
        if not drawn:
            return []
        if dealing and len(drawn) > 1:
            return ["Take the cards shown on your screen" if en else "Prendi le carte del tuo schermo"]
        out = []
        for (player, pile), n in drawn.items():
            who, name = w.player(player, lang, self.names), w.PILES[pile][w.lang_index(lang)]
            if n == 1:
                out.append(f"{who} draws a {name} card" if en else f"{who} pesca carta {name}")
            else:
                out.append(f"{who} draws {n} {name} cards" if en else f"{who} pesca {n} carte {name}")
        return out

    def _pack(self, after: State, verbose: list[str], compact: list[str], tail: str,
              lang: str) -> list[str] | None:
        """The instruction as the shared screen's big line: in sentences when
        they fit beside the standing lines, else short; else the first parts
        big and the rest on one small line under the prestige line; else big
        over all the room the prestige line leaves. None when nothing fits."""
        small = self.public_lines(after, lang)
        forms = ((verbose, tail), (verbose, ""), (compact, tail), (compact, ""))
        for parts, end in forms:
            text = _sentence("; ".join(parts) + end)
            if fits_big(text, small):
                return [text]
        # The rest goes below the prestige line (the session draws it after
        # the standing lines): only those two then, each on one line, so that
        # a bump or a crowning is never pushed off the screen.
        one_line = _one_line(small[0])
        for k in range(len(compact) - 1, 0, -1):
            main, rest = _sentence("; ".join(compact[:k]) + tail), _sentence("; ".join(compact[k:]))
            if one_line and len(wrap(rest, font(SMALL))) == 1 and fits_big(main, [small[0], rest]):
                self._quiet = len(after.history)
                return [rest, main]
        for parts, end in forms[2:]:
            text = _sentence("; ".join(parts) + end)
            if fits_big(text, small[:1]):
                self._quiet = len(after.history)
                return [text]
        return None


def _turn_key(state: State) -> tuple[int, int, int]:
    view = state.view(None)
    return view["turn"], view["round"], sum(len(p) for p in view["played"])


def _one_line(prestige: str) -> bool:
    """Whether the prestige row stays one line while an instruction stands
    under it: it is drawn again as scores change, so with a digit more on each."""
    return len(wrap(" ".join(f"{part}0" for part in prestige.split()), font(SMALL))) == 1


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def fits_big(text: str, small_lines: list[str]) -> bool:
    """Whether a screen with a title draws ``text`` whole as its big line
    above ``small_lines`` (the room pi_app.ui.screens.render leaves it)."""
    n = sum(len(wrap(line, font(SMALL))) for line in small_lines)
    room = HEIGHT - (SMALL + 3) - min(n, 2) * (SMALL + 1)
    _, lines = fit_big(text, room)
    return len(" ".join(lines).split()) == len(text.split())


ADAPTER = ArtusAdapter
