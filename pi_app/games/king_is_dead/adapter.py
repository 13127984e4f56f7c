"""The King is Dead at the table (notation: rules/king_is_dead/NOTATION.md).

Tagged components: each seat's eight action cards (tap one to play it), the
follower cubes (tap one to choose its colour: in a take, a place, a summon,
or a draw from the bag at setup) and the eight region cards (tap one to
choose that region, or to reveal it when the order is laid out). Passing and
every other choice are made in the menu.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, ClassVar

from pi_app.games.base import Component, TableAdapter
from pi_app.i18n import pick
from pi_app.ui.screens import SMALL, font, wrap
from rules.core import JSON, Event, Move, Outcome, State
from rules.king_is_dead.data import DATA
from rules.king_is_dead.messages import CARD_WORDS

# The game's facts come from the engine's data and words: one place each.
REGIONS = DATA.regions
CARDS = tuple(dict.fromkeys(DATA.deck))
COLOURS = DATA.colours
PICKS = ("swap", "take", "place", "into")  # moves inside an action: nothing changes on the table yet
#: what a step inside an action chooses, for its title
PICK_HINTS: dict[str, tuple[str, str]] = {
    "swap": ("swap a region card", "scambia una carta Regione"),
    "take": ("take a follower", "prendi un seguace"),
    "place": ("place a follower", "piazza un seguace"),
    "into": ("choose the region", "scegli la regione"),
    "crown": ("where the Crown goes", "dove va la Corona"),
    "summon": ("summon to court", "convoca a corte"),
}
LOYALIST = "black"
FACTION_COLOURS = {f.id: f.colour for f in DATA.factions}
HOMES = {f.home: f.colour for f in DATA.factions}  # region -> the colour of the followers at home there
CARD_LABELS = CARD_WORDS
FACTION_LABELS: dict[str, tuple[str, str]] = {
    "saxons": ("Saxons", "Sassoni"),
    "loyalists": ("Loyalists", "Lealisti"),
}
# (singular, plural) per language: Italian adjectives agree with the count.
COLOUR_WORDS: dict[str, tuple[tuple[str, str], tuple[str, str]]] = {
    "blue": (("blue", "blue"), ("blu", "blu")),
    "red": (("red", "red"), ("rosso", "rossi")),
    "yellow": (("yellow", "yellow"), ("giallo", "gialli")),
    "black": (("black", "black"), ("nero", "neri")),
}
TYPE_LABELS: dict[str, tuple[str, str]] = {
    "pass": ("Pass", "Passa"),
    "play": ("Play a card", "Gioca carta"),
    "swap": ("Swap card", "Scambia carta"),
    "crown": ("Crown token", "Gettone Corona"),
    "take": ("Take", "Prendi"),
    "into": ("Into empty", "In regione vuota"),
    "place": ("Place", "Piazza"),
    "summon": ("Summon", "Richiama"),
    "draw": ("Draw", "Pesca"),
    "region_card": ("Region card", "Carta Regione"),
}
STEP_TITLES: dict[str, tuple[str, str]] = {
    "turn": ("Your turn: play or pass", "Tocca a te: gioca o passa"),
    "summon": ("Summon a follower to court", "Convoca a corte"),
}
#: the public view's fields a spectator reads, as the rulebook names them
#: (the bag, the common reserve, the court); the rest is the engine's own
VIEW_LABELS: dict[str, tuple[str, str]] = {
    "seat": ("Player", "Giocatore"),
    "name": ("Region", "Regione"),
    "region": ("Region", "Regione"),
    "control": ("Won by", "Vinta da"),
    "followers": ("Followers", "Seguaci"),
    "home": ("Home of", "Patria di"),
    "resolved": ("Struggle over", "Lotta risolta"),
    "position": ("Order", "Ordine"),
    "face_up": ("Face up", "Scoperta"),
    "crown": ("Crown token", "Gettone Corona"),
    "regions": ("Regions", "Regioni"),
    "region_cards": ("Region cards", "Carte Regione"),
    "current_region": ("Power struggle in", "Lotta per il potere in"),
    "saxons": ("Regions won by the Saxons (4: invasion)", "Regioni vinte dai Sassoni (4: invasione)"),
    "loyalist_supply": ("Loyalists left", "Lealisti rimasti"),
    "reserve": ("Common reserve", "Riserva comune"),
    "bag": ("Bag", "Sacchetto"),
    "seats": ("Players", "Giocatori"),
    "court": ("Court", "Corte"),
    "sets": ("Sets", "Set"),
    "cards_played": ("Cards played", "Carte giocate"),
    "top_card": ("Last card played", "Ultima carta giocata"),
    "crown_token": ("Holds the Crown token", "Ha il gettone Corona"),
    "team": ("Team", "Squadra"),
}
REASONS: dict[str, tuple[str, str]] = {
    "control": ("by control of the regions", "per le regioni controllate"),
    "invasion": ("by Saxon invasion", "per invasione sassone"),
    "loyalists": ("the loyalists rule", "vincono i lealisti"),
}


def _l(pair: tuple[str, str], lang: str) -> str:
    return pick(pair, lang)


def colour_word(colour: str, n: int, lang: str) -> str:
    words = COLOUR_WORDS.get(colour)
    if words is None:
        return colour
    forms = words[0] if lang == "en" else words[1]
    return forms[0] if n == 1 else forms[1]


def to_them(name: str) -> str:
    """Italian "to the" before a plural name: "agli Scozzesi", "ai Gallesi"."""
    low = name.lower()
    impure = (low[:1] in "aeiouxz" or low[:2] in ("gn", "ps", "pn")
              or (low[:1] == "s" and low[1:2] not in "aeiou"))
    return f"{'agli' if impure else 'ai'} {name}"


def counted(colours: Counter, lang: str) -> str:
    """``Counter({"blue": 2, "red": 1})`` -> "2 blue, 1 red" (in colour order)."""
    order = [*COLOURS, LOYALIST]
    return ", ".join(f"{colours[c]} {colour_word(c, colours[c], lang)}" for c in order if colours.get(c))


# Regions won so far, by faction, in the standing lines (whole words: the
# screen pages what does not fit).
SCORE_FACTIONS = ("scots", "welsh", "romano-british", "loyalists")
CROWN = ("crown", "corona")


def fits_one_line(text: str) -> bool:
    """True when ``text`` is one line of small print on a 128-pixel screen."""
    return len(wrap(text, font(SMALL))) == 1


def card_order(cards: Sequence[tuple[str, bool]], lang: str) -> str:
    """The region cards still to be fought, in order, by name, each with a
    crown token marked in words: "Next: Ratae, Eboracum (crown), ..."."""
    names = ", ".join(region + (f" ({_l(CROWN, lang)})" if crowned else "") for region, crowned in cards)
    return f"{'Next' if lang == 'en' else 'Prossime'}: {names}" if names else ""


class KingIsDeadAdapter(TableAdapter):
    game_id = "king-is-dead"
    turn_rule = "Lotte per il Potere"
    zone_field: ClassVar[str | None] = "region"  # readers under the eight regions, where a table has them
    tap_fields: ClassVar[dict[str, str]] = {"card": "card", "follower": "colour", "region-card": "region"}
    field_labels: ClassVar[dict[str, tuple[str, str]]] = {
        "type": ("Action", "Azione"),
        "card": ("Card", "Carta"),
        "region": ("Region", "Regione"),
        "colour": ("Colour", "Colore"),
    }
    value_labels: ClassVar[dict[str, tuple[str, str]]] = {**CARD_LABELS, **FACTION_LABELS, **TYPE_LABELS}
    view_labels: ClassVar[dict[str, tuple[str, str]]] = VIEW_LABELS
    player_fields: ClassVar[frozenset[str]] = frozenset({"seat", "crown"})

    # -- components ------------------------------------------------------------
    def components(self) -> list[Component]:
        out = []
        for seat in range(self.players):
            for card in CARDS:
                out.append(Component(f"{card}@{seat + 1}", "card", card, seat, CARD_LABELS[card],
                                     count=2 if card == "settlement" else 1))
        for colour in COLOURS:  # loyalists (variant) are chosen in the menu
            en, it = COLOUR_WORDS[colour][0][0], COLOUR_WORDS[colour][1][0]
            out.append(Component(f"follower:{colour}", "follower", colour, None,
                                 (f"{en} follower", f"Seguace {it}")))
        for region in REGIONS:
            out.append(Component(f"region:{region}", "region-card", region, None,
                                 (f"{region} region card", f"Carta Regione {region}")))
        return out

    def enroll_prompt(self, comp: Component, lang: str) -> str:
        if comp.kind == "card":
            owner = self.player_name(comp.seat, lang)
            return (f"the {comp.name('en')} card of {owner}" if lang == "en"
                    else f"la carta {comp.name('it')} di {owner}")
        if comp.kind == "follower":
            return f"a {comp.name('en')} cube" if lang == "en" else f"un cubo {comp.name('it')}"
        return f"the {comp.name('en')}" if lang == "en" else f"la {comp.name('it')}"

    def tap(self, state: State, seat: int, comp: Component, moves: Sequence[Move],
            field: str | None) -> list[Move]:
        if comp.kind == "card":
            # An action card only ever starts its play, never picks a region.
            return [m for m in moves if m.to_json() == {"type": "play", "card": comp.value}]
        return super().tap(state, seat, comp, moves, field)

    def probe(self, state: State, seat: int, comp: Component) -> Move | None:
        if comp.kind == "card":
            from rules import get

            return get(self.game_id).move_from_json({"type": "play", "card": comp.value})
        return None

    # -- words -------------------------------------------------------------------
    def value_label(self, field: str | None, value: Any, lang: str) -> str:
        if field == "colour" and isinstance(value, str):
            return colour_word(value, 1, lang)
        return super().value_label(field, value, lang)

    def view_words(self, field: str | None, value: Any, lang: str) -> str | None:
        if isinstance(value, dict) and value and all(c in COLOUR_WORDS for c in value):
            # followers by colour, as the screens count them: "2 red, 1 yellow"
            return counted(Counter(value), lang) or "-"
        return None

    def view_value(self, field: str | None, value: Any, lang: str) -> str:
        if field == "team" and isinstance(value, int):
            return str(value + 1)  # the teams as the outcome names them: 1 and 2
        return super().view_value(field, value, lang)

    def move_text(self, move: JSON, lang: str) -> str:
        kind = move.get("type", "")
        card = _l(CARD_LABELS.get(move.get("card", ""), (move.get("card", ""),) * 2), lang)
        region = move.get("region", "")
        colour = colour_word(move.get("colour", ""), 1, lang)
        en = lang == "en"
        texts = {
            "pass": "Pass" if en else "Passa",
            "play": f"Play {card}" if en else f"Gioca {card}",
            "swap": f"Swap the {region} card" if en else f"Scambia la carta {region}",
            "crown": f"Crown on {region}" if en else f"Corona su {region}",
            "take": f"Take {colour} in {region}" if en else f"Prendi {colour} in {region}",
            "into": f"Into {region}" if en else f"In {region}",
            "place": f"Place {colour} in {region}" if en else f"Piazza {colour} in {region}",
            "summon": f"Summon {colour} from {region}" if en else f"Convoca a corte {colour} da {region}",
            "draw": f"Draw {colour}" if en else f"Pesca {colour}",
            "region_card": f"Region card {region}" if en else f"Carta Regione {region}",
        }
        return texts.get(kind, super().move_text(move, lang))

    def step_title(self, state: State, lang: str) -> str:
        view = state.view(None)
        pending = view.get("pending")
        if view.get("step") == "action" and pending:
            card = _l(CARD_LABELS.get(pending["card"], (pending["card"],) * 2), lang)
            # what this step chooses: "Crown: 1" over a list of regions said nothing
            kinds = {m.to_json().get("type") for m in state.legal_moves()}
            hint = next((_l(PICK_HINTS[k], lang) for k in PICK_HINTS if k in kinds), "")
            step = len(pending["picks"]) + 1
            return f"{card} {step}: {hint}" if hint else f"{card}: {step}"
        return _l(STEP_TITLES.get(view.get("step", ""), STEP_TITLES["turn"]), lang)

    def chance_title(self, state: State, lang: str) -> str:
        view = state.view(None)
        draw = view.get("draw") or {}
        en = lang == "en"
        if "seat" in draw and draw["seat"] is not None:
            who = self.player_name(draw["seat"], lang)
            return f"Court draw: {who}" if en else f"Corte: {who}"
        if "region" in draw and draw["region"] is not None:
            return f"Draw for {draw['region']}" if en else f"Pesca per {draw['region']}"
        if "position" in draw:
            return f"Region card {draw['position']}" if en else f"Carta Regione {draw['position']}"
        return super().chance_title(state, lang)

    # -- what the table must do ---------------------------------------------------------
    def instructions(self, before: State, moves: Sequence[Move], events: Sequence[Event], after: State,
                     lang: str) -> list[str]:
        en = lang == "en"
        out: list[str] = []
        courts: dict[int, Counter] = {}
        fills: dict[str, Counter] = {}
        placed: dict[str, Counter] = {}
        order: list[str] = []
        last: list[str] = []  # announcements that belong at the end (the big line)
        for ev in events:
            if ev.audience is not None:
                continue
            p = dict(ev.params)
            kind = ev.type
            who = self.player_name(p.get("seat"), lang) if "seat" in p else ""
            if kind == "court_draw":
                courts.setdefault(p["seat"], Counter())[p["colour"]] += 1
            elif kind == "court_redraw":
                seats = ", ".join(self.player_name(s, lang) for s in p.get("seats", []))
                out.append(f"{seats}: court back in the bag" if en else f"{seats}: corte nel sacchetto")
                for s in p.get("seats", []):
                    courts.pop(s, None)
            elif kind == "region_draw":
                fills.setdefault(p["region"], Counter())[p["colour"]] += 1
            elif kind == "region_card":
                order.append(p["region"])
            elif kind == "setup_complete":
                first = self.player_name(p.get("first"), lang)
                last.append(f"Ready: {first} starts" if en else f"Pronti: inizia {first}")
            elif kind == "passed":
                out.append(f"{who} passes" if en else f"{who} passa")
            elif kind == "card_played":
                card = _l(CARD_LABELS.get(p["card"], (p["card"],) * 2), lang)
                out.append(f"{who} plays {card}" if en else f"{who} gioca {card}")
            elif kind == "cards_swapped":
                a, b = (list(p.get("regions", [])) + ["?", "?"])[:2]
                out.append(f"Swap the {a} and {b} cards" if en else f"Scambia le carte {a} e {b}")
            elif kind == "crown_placed":
                out.append(f"Crown token on {p['region']}" if en else f"Gettone Corona su {p['region']}")
            elif kind == "followers_moved":
                what = counted(Counter(p.get("colours", [])), lang)
                out.append(f"Move {what} from {p['from']} to {p['to']}" if en
                           else f"Sposta {what} da {p['from']} a {p['to']}")
            elif kind == "follower_placed":
                placed.setdefault(p["region"], Counter())[p["colour"]] += 1
            elif kind == "no_action":
                card = _l(CARD_LABELS.get(p["card"], (p["card"],) * 2), lang)
                out.append(f"{card} can do nothing" if en else f"{card} non ha effetto")
            elif kind == "summoned":
                colour = colour_word(p["colour"], 1, lang)
                out.append(f"{who}: {colour} from {p['region']} to the court" if en
                           else f"{who}: {colour} da {p['region']} alla corte")
            elif kind == "struggle_resolved":
                winner = p.get("winner", "")
                name = _l({**CARD_LABELS, **FACTION_LABELS}.get(winner, (winner, winner)), lang)
                back = sum(Counter(p.get("returned", {})).values())
                last.append(f"{p['region']} to the {name}; {back} to reserve" if en
                            else f"{p['region']} {to_them(name)}; {back} in riserva")
            elif kind == "loyalist_added":
                out.append(f"Put a loyalist in {p['region']}" if en
                           else f"Metti un lealista in {p['region']}")
            elif kind == "game_over":
                reason = _l(REASONS.get(p.get("reason", ""), (p.get("reason", ""),) * 2), lang)
                last.append(f"Game over {reason}" if en else f"Fine partita {reason}")
        for seat, colours in courts.items():
            who = self.player_name(seat, lang)
            out.append(f"{who} court: {counted(colours, lang)}" if en
                       else f"Corte ({who}): {counted(colours, lang)}")
        for region, colours in fills.items():
            # A faction's home region already holds its followers from the
            # start: said, so that a later summon from there is no surprise.
            home = HOMES.get(region)
            there = ""
            if home is not None:
                n = DATA.counts["home_followers"]
                there = (f" (besides the {n} {colour_word(home, n, lang)} at home)" if en
                         else f" (oltre ai {n} {colour_word(home, n, lang)} di casa)")
            out.append(f"{region}: put {counted(colours, lang)}{there}" if en
                       else f"{region}: metti {counted(colours, lang)}{there}")
        for region, colours in placed.items():
            out.append(f"Put {counted(colours, lang)} in {region}" if en
                       else f"Metti {counted(colours, lang)} in {region}")
        if order:
            cards = ", ".join(order)
            out.append(f"Region cards: {cards}" if en else f"Carte Regione: {cards}")
        if not out and not last:
            # A pick inside an action (the first region of a Garrison): the
            # table changes only once the action is complete, so the screen
            # reports the choice rather than asking anyone to move a thing.
            who = self.player_name(before.to_move(), lang)
            out = [self.picked(m.to_json(), who, lang) for m in moves if m.to_json().get("type") in PICKS]
        result = [line[:1].upper() + line[1:] for line in out + last]
        return result or super().instructions(before, moves, events, after, lang)

    @staticmethod
    def picked(move: JSON, who: str, lang: str) -> str:
        """A pick reported, not asked for: "seat 1 chose yellow in Ratae"."""
        region = move.get("region", "")
        colour = colour_word(move.get("colour", ""), 1, lang)
        en = lang == "en"
        what = {
            "swap": f"the {region} card" if en else f"la carta {region}",
            "take": f"{colour} in {region}",
            "place": f"{colour} for {region}" if en else f"{colour} per {region}",
            "into": f"empty {region}" if en else f"{region} vuota",
        }[move["type"]]
        return f"{who} chose {what}" if en else f"{who} sceglie {what}"

    def private_lines(self, state: State, seat: int, lang: str) -> tuple[str, list[str]]:
        view = state.view(seat)
        me = view["seats"][seat]
        court = Counter(me["court"])
        # labelled: "1 blue, 2 red" alone did not say whose or what they were
        big = (f"{'Court' if lang == 'en' else 'Corte'}: {counted(court, lang)}" if court
               else ("Court empty" if lang == "en" else "Corte vuota"))
        held = Counter(c for c in view.get("hand", []) if c in CARD_LABELS)
        hand = ", ".join(_l(CARD_LABELS[c], lang) + (f" ×{n}" if n > 1 else "") for c, n in held.items())
        sets = f"Sets: {me['sets']}" if lang == "en" else f"Set: {me['sets']}"
        return big, [sets, f"{'Hand' if lang == 'en' else 'Mano'}: {hand}"] if hand else [sets]

    def public_lines(self, state: State, lang: str) -> list[str]:
        view = state.view(None)
        if view.get("step") in ("court", "fill", "order"):
            return []
        face_up = [(c["region"], c.get("crown") is not None)
                   for c in view.get("region_cards", []) if c.get("face_up")]
        # Regions won so far by each faction (the Saxons invade at 4), then the
        # struggles to come, in order: each on one line of small print.
        control = Counter(r["control"] for r in view.get("regions", []) if r.get("control"))
        names = {**CARD_LABELS, **FACTION_LABELS}
        score = ", ".join(f"{_l(names[f], lang)} {control[f]}" for f in SCORE_FACTIONS
                          if f != "loyalists" or control[f])
        saxons = f"{_l(FACTION_LABELS['saxons'], lang)} {control['saxons']}/4"
        return [x for x in (f"{score}, {saxons}", card_order(face_up, lang)) if x]

    def outcome_lines(self, outcome: Outcome, lang: str) -> tuple[str, list[str]]:
        """Who won; then how the game ended and what decided it (naming the
        tie-break), each one line, as the final screens show two small lines
        under the winner; then the factions' order and every court."""
        big, _ = super().outcome_lines(outcome, lang)
        en = lang == "en"
        detail = dict(outcome.detail)
        lines = [_l(REASONS.get(outcome.reason, (outcome.reason,) * 2), lang)]
        decision = self.decision(detail, lang)
        if decision:
            lines.append(decision)
        names = {**CARD_LABELS, **FACTION_LABELS}
        if detail.get("ranking"):
            order = " > ".join(_l(names.get(f, (f, f)), lang) for f in detail["ranking"])
            lines.append(f"Factions: {order}" if en else f"Fazioni: {order}")
        for seat, score in outcome.scores.items():
            if isinstance(score, dict):
                court = counted(Counter({c: score.get(c, 0) for c in COLOURS}), lang)
                sets = f"sets {score.get('sets', 0)}" if en else f"set {score.get('sets', 0)}"
                lines.append(f"{self.player_name(int(seat), lang)}: {court}; {sets}")
        return big, lines

    def decision(self, detail: dict[str, Any], lang: str) -> str:
        """What decided the winners, in one line of small print: the deciding
        count, or "Tie-break:" and the rulebook's tie-breaks used in order."""
        en = lang == "en"
        teams = dict(detail.get("team_sets", {}))
        if teams:  # 4 players, invasion: each team pools its courts
            a, b = (teams.get(str(t), teams.get(t, 0)) for t in (0, 1))
            if a == b:
                return f"{a} sets each, last wins" if en else f"{a} set a testa; vince l'ultimo"
            return f"Sets: team 1 {a}, team 2 {b}" if en else f"Set: sq.1 {a}, sq.2 {b}"
        steps = [str(step) for step in detail.get("decided_by", [])]
        if not steps:
            return ""
        if len(steps) == 1:
            what = self._criterion(steps[0], lang, short=False)
            return f"Most {what}" if en else f"Più {what}"
        line = ""
        tie_break, tie = ("Tie-break", "Spareggio"), ("Tie", "Parità")
        for head, short_words in ((tie_break, False), (tie_break, True), (tie, True)):
            used = ", ".join(self._criterion(step, lang, short=short_words) for step in steps[1:])
            line = f"{_l(head, lang)}: {used}"
            if fits_one_line(line):
                break
        return line

    @staticmethod
    def _criterion(step: str, lang: str, short: bool) -> str:
        """A step of the rulebook's ranking: a faction's followers go by
        their colour, what players see in their courts."""
        if step in FACTION_COLOURS:
            colour = colour_word(FACTION_COLOURS[step], 2, lang)
            if short:
                return colour
            return f"{colour} followers" if lang == "en" else f"Seguaci {colour}"
        words = {
            "total followers": (("followers in all", "Seguaci in tutto"), ("all", "tutti")),
            "last card played wins": (("last to play wins", "vince l'ultimo a giocare"),
                                      ("last wins", "vince l'ultimo")),
            "last card played loses": (("last to play loses", "perde l'ultimo a giocare"),
                                       ("last loses", "perde l'ultimo")),
            "sets": (("complete sets", "set completi"), ("sets", "set")),
        }
        pair = words.get(step)
        return _l(pair[short], lang) if pair else step


ADAPTER = KingIsDeadAdapter
