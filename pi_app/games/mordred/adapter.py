"""Mordred at the table (notation: rules/mordred/NOTATION.md).

Tagged components: each seat's building pieces, every piece of a kind
enrolled as that kind (tap any village to choose "village"; the space is then
picked in the menu, named as in ``rules/mordred/data/map.json``). The row,
the Mordred men's spaces, attacks and the end of the turn are chosen with
the buttons; dice are entered on the shared screen or drawn by Tablekeeper
where the profile allows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from pi_app.games.base import Component, TableAdapter
from pi_app.i18n import pick
from rules.core import JSON, Event, IllegalMove, Move, Outcome, State
from rules.mordred.messages import RULE_TURN
from rules.mordred.moves import Build
from rules.mordred.tables import BUILDINGS, TABLES

Pair = tuple[str, str]

BUILDING_LABELS: dict[str, Pair] = {
    "village": ("village", "Villaggio"),
    "town": ("town", "Città"),
    "small_castle": ("small castle", "Castello Piccolo"),
    "large_castle": ("large castle", "Castello Grande"),
}
# Plurals for the seat screen's "pieces left" line.
BUILDING_PLURALS: dict[str, Pair] = {
    "village": ("villages", "Villaggi"),
    "town": ("towns", "Città"),
    "small_castle": ("small castles", "Castelli Piccoli"),
    "large_castle": ("large castles", "Castelli Grandi"),
}
TYPE_LABELS: dict[str, Pair] = {
    "declare": ("Declare", "Dichiara"),
    "place": ("Place a man", "Piazza un uomo"),
    "build": ("Build", "Costruisci"),
    "attack": ("Attack", "Attacca"),
    "end_turn": ("End turn", "Fine turno"),
}
FIELD_LABELS: dict[str, Pair] = {
    "type": ("Action", "Azione"),
    "row": ("Row", "Riga"),
    "space": ("Space", "Spazio"),
    "building": ("Building", "Edificio"),
    "from": ("From", "Da"),
    # The roll is entered one die at a time: six values, then six more.
    "first": ("First die", "Primo dado"),
    "second": ("Second die", "Secondo dado"),
    "value": ("Die", "Dado"),
}
#: the public view's fields the spectator page shows, in the rulebook's words
#: (Tracciato di Mordred, uomini di Mordred, punti vittoria, monete)
VIEW_LABELS: dict[str, Pair] = {
    "seat": ("Player", "Giocatore"),
    "round": ("Round", "Round"),
    "turn": ("Turn", "Turno"),
    "row": ("Row declared", "Riga dichiarata"),
    "dice": ("Dice", "Dadi"),
    "players": ("Players", "Giocatori"),
    "vp": ("Victory points", "Punti vittoria"),
    "money": ("Money", "Monete"),
    "pawn": ("Pawn", "Pedone"),
    "supply": ("Pieces left", "Pezzi rimasti"),
    "pieces": ("Buildings", "Edifici"),
    "building": ("Building", "Edificio"),
    "owner": ("Owner", "Proprietario"),
    "mordred_men": ("Mordred's men", "Uomini di Mordred"),
    "men_in_supply": ("Mordred's men in the supply", "Uomini di Mordred nella riserva"),
    "men_to_place": ("Men still to place", "Uomini ancora da piazzare"),
}
#: why the game ended, as whole sentences (the rulebook's "Fine della Partita", a-d)
ENDINGS: dict[str, Pair] = {
    "all_men_placed": ("All of Mordred's men are on the map",
                       "Tutti gli uomini di Mordred sono sulla mappa"),
    "pieces_exhausted": ("A player began a turn with every piece of one kind on the map",
                         "Un giocatore ha iniziato il turno con tutti i pezzi di un tipo sulla mappa"),
    "track_end": ("A pawn could not move the full distance on the Mordred track",
                  "Un pedone non ha potuto muoversi di tutti gli spazi sul Tracciato di Mordred"),
    "mordred_slain": ("Mordred was defeated in his castle on Anglesey",
                      "Mordred è stato sconfitto nel suo Castello di Anglesey"),
    "round_limit": ("The round limit was reached", "È stato raggiunto il limite di round"),
}
#: who wins and why: {men} of Mordred's on the map against the players' {pieces}
VERDICTS: dict[str, Pair] = {
    "mordred": ("Mordred won Wales ({men} against {pieces}): the pawn furthest right "
                "on the Mordred track wins",
                "Mordred ha vinto il Galles ({men} contro {pieces}): vince il pedone più "
                "a destra sul Tracciato di Mordred"),
    "arthur": ("King Arthur held Wales ({men} of Mordred's against {pieces}): most "
               "victory points wins",
               "Re Artù ha tenuto il Galles ({men} di Mordred contro {pieces}): vince chi "
               "ha più punti vittoria"),
    "slain": ("Whoever defeats Mordred wins outright", "Chi sconfigge Mordred vince subito la partita"),
}
TIE_BREAKS: dict[str, Pair] = {
    "vp": ("Tie: victory points decide", "Parità: decidono i punti vittoria"),
    "money": ("Tie: money decides", "Parità: decidono i soldi"),
    "shared": ("Tie: the victory is shared", "Parità: la vittoria è condivisa"),
}
def _count(n: int, one: str, many: str, uno: str, molti: str, lang: str) -> str:
    """``n`` with its noun in the right number: "1 man", "4 pezzi"."""
    return f"{n} {(one if n == 1 else many) if lang == 'en' else (uno if n == 1 else molti)}"


# A building tapped with no build open: the refusal most worth reading first.
_REFUSAL_ORDER = ("none_left", "cannot_afford", "first_on_border", "not_reachable", "terrain")


def building(name: str, lang: str) -> str:
    return pick(BUILDING_LABELS.get(name, (name, name)), lang)


def money(amount: int, lang: str) -> str:
    """Pounds as each rulebook writes them: "£8" in English, "8£" in Italian."""
    return f"£{amount}" if lang == "en" else f"{amount}£"


def points(vp: int, lang: str) -> str:
    """Victory points in whole words, as the rulebook names them."""
    one = vp == 1
    if lang == "en":
        return f"{vp} victory point{'' if one else 's'}"
    return f"{vp} punt{'o' if one else 'i'} vittoria"


def track(pawn: int, lang: str) -> str:
    """A pawn's place on the Mordred track, its spaces counted from 1."""
    return f"{'track' if lang == 'en' else 'tracciato'} {pawn + 1}"


class MordredAdapter(TableAdapter):
    game_id = "mordred"
    turn_rule = RULE_TURN
    tap_fields: ClassVar[dict[str, str]] = {"building": "building"}
    field_labels: ClassVar[dict[str, Pair]] = FIELD_LABELS
    value_labels: ClassVar[dict[str, Pair]] = {**BUILDING_LABELS, **TYPE_LABELS}
    player_fields: ClassVar[frozenset[str]] = frozenset({"seat", "owner", "turn"})
    view_labels: ClassVar[dict[str, Pair]] = VIEW_LABELS

    # -- components and taps ---------------------------------------------------
    def components(self) -> list[Component]:
        out = []
        for seat in range(self.players):
            for kind in BUILDINGS:
                en, it = BUILDING_LABELS[kind]
                # Every piece carries a tag: a player taps whichever one is in hand.
                out.append(Component(f"{kind}@{seat + 1}", "building", kind, seat,
                                     (en.capitalize(), it), count=TABLES.per_player[kind]))
        return out

    def enroll_prompt(self, comp: Component, lang: str) -> str:
        owner = self.player_name(comp.seat, lang)
        # `tags enroll` asks for each piece in turn: "tap a village of Player 1 (3 of 9)".
        return (f"a {comp.name('en').lower()} of {owner}" if lang == "en"
                else f"un pezzo {comp.name('it')} di {owner}")

    def probe(self, state: State, seat: int, comp: Component) -> Move | None:
        return Build(comp.value, next(iter(TABLES.spaces)))

    def refusal(self, state: State, seat: int, comp: Component, moves: Sequence[Move]) -> IllegalMove:
        """Why no space takes this building now: outside spending the engine
        names the step due; while spending, the most useful of the reasons
        the spaces give (none left, too dear, where the first goes...)."""
        if state.view(None)["phase"] != "spend":
            return super().refusal(state, seat, comp, moves)
        found: dict[str, IllegalMove] = {}
        for space in TABLES.spaces:
            try:
                state.check(Build(comp.value, space))
            except IllegalMove as exc:
                key = exc.code.rsplit(".", 1)[-1]
                cheaper = key == "cannot_afford" and key in found and \
                    exc.params["cost"] < found[key].params["cost"]
                if key not in found or cheaper:
                    found[key] = exc
        for key in _REFUSAL_ORDER:
            if key in found:
                exc = found[key]
                # The engine's message names the building by its notation id.
                params = {**exc.params, "building": building(comp.value, self.lang)}
                return IllegalMove(exc.code, exc.rule, **params)
        return next(iter(found.values()), IllegalMove("table.not-now", self.turn_rule,
                                                      what=comp.name(self.lang)))

    def choice_confirms(self, state: State, move: Move) -> bool:
        # A row's option ("Row B") and a man's space ("Merthyr", under "Place a
        # man") are the whole move: their ● confirms the roll or the die that
        # follows. An attack keeps its confirm: its last option names only
        # where it comes from.
        return move.to_json().get("type") in ("declare", "place")

    # -- words -------------------------------------------------------------------
    def view_value(self, field: str | None, value: Any, lang: str) -> str:
        if field == "money" and isinstance(value, int):
            return money(value, lang)
        if field == "pawn" and isinstance(value, int):
            return track(value, lang)
        if field is None and value in BUILDING_PLURALS:  # a count's kind: "Villaggi: 5"
            plural = pick(BUILDING_PLURALS[value], lang)
            return plural[:1].upper() + plural[1:]
        return super().view_value(field, value, lang)

    def value_label(self, field: str | None, value: Any, lang: str) -> str:
        en = lang == "en"
        if field == "row":
            if value is None:
                return "No row (C)" if en else "Nessuna (C)"
            return f"Row {value}" if en else f"Riga {value}"
        if field == "building" and isinstance(value, str):
            return building(value, lang).capitalize() if en else building(value, lang)
        return super().value_label(field, value, lang)

    def move_text(self, move: JSON, lang: str) -> str:
        en = lang == "en"
        kind = move.get("type")
        if kind == "declare":
            return self.value_label("row", move["row"], lang)
        if kind == "roll":
            dice = f"{move['first']} + {move['second']}"
            return f"Dice {dice}" if en else f"Dadi {dice}"
        if kind == "die":
            return f"Die {move['value']}" if en else f"Dado {move['value']}"
        if kind == "place":
            return f"Man on {move['space']}" if en else f"Uomo su {move['space']}"
        if kind == "build":
            what = building(move["building"], lang)
            return f"{what.capitalize()} on {move['space']}" if en else f"{what} su {move['space']}"
        if kind == "attack":
            return f"Attack {move['space']} from {move['from']}" if en else \
                f"Attacca {move['space']} da {move['from']}"
        if kind == "end_turn":
            return pick(TYPE_LABELS["end_turn"], lang)
        return super().move_text(move, lang)

    def step_title(self, state: State, lang: str) -> str:
        view = state.view(None)
        en = lang == "en"
        phase = view["phase"]
        if phase == "declare":
            return "Declare a row" if en else "Dichiara una riga"
        if phase == "place":
            n = view["men_to_place"]
            return f"Place a man ({n} left)" if en else f"Piazza un uomo ({n})"
        if phase == "spend":
            # The menu hides the waiting screen's money and pawn: the title keeps both.
            me = view["players"][view["turn"]]
            cash = money(me["money"], lang)
            return f"{'Spend' if en else 'Spendi'} {cash} · {track(me['pawn'], lang)}"
        return super().step_title(state, lang)

    def chance_title(self, state: State, lang: str) -> str:
        view = state.view(None)
        en = lang == "en"
        prompt = view["prompt"]
        if prompt.get("decide") == "dice":
            return f"Roll 2 dice, row {view['row']}" if en else f"Tira 2 dadi, riga {view['row']}"
        if prompt.get("decide") == "die":
            need, space = prompt["need"], prompt["space"]
            if prompt["attacker"] == "mordred":
                return f"Mordred on {space}: {need}+" if en else f"Mordred su {space}: {need}+"
            return f"Attack {space}: {need}+" if en else f"Attacco {space}: {need}+"
        return super().chance_title(state, lang)

    # -- what the table must do ----------------------------------------------------
    # Each line fits the shared screen's big print (two lines of about 20
    # characters): the action first, so a cut loses only the detail. The title
    # already names the seat to move.
    def instructions(self, before: State, moves: Sequence[Move], events: Sequence[Event], after: State,
                     lang: str) -> list[str]:
        public = [(ev.type, dict(ev.params)) for ev in events if ev.audience is None]
        out: list[str] = []
        for i, (kind, p) in enumerate(public):
            later = public[i + 1] if i + 1 < len(public) else None
            if kind == "declared" and later and later[0] == "rolled":
                continue  # the roll's line names the row
            if kind == "rolled":
                # One line for the whole income, pawn included.
                pawn = later[1] if later and later[0] == "pawn" else None
                out.append(self.income_line(p, pawn, lang))
                continue
            if kind == "pawn" and i and public[i - 1][0] == "rolled":
                continue
            out.extend(self.event_lines(kind, p, lang))
        return out or super().instructions(before, moves, events, after, lang)

    def income_line(self, p: dict[str, Any], pawn: dict[str, Any] | None, lang: str) -> str:
        en = lang == "en"
        men = p["men"]
        parts = [f"{'Take' if en else 'Prendi'} {money(p['money'], lang)}"]
        if men:
            parts.append(f"{men} {'man' if men == 1 else 'men'}" if en
                         else f"{men} {'uomo' if men == 1 else 'uomini'}")
        if pawn is not None and pawn["to"] != pawn["from"]:
            parts.append(self.pawn_text(pawn, lang))
        dice = "+".join(str(d) for d in p["dice"])
        return f"{', '.join(parts)} ({dice}, {'row' if en else 'riga'} {p['row']})"

    def pawn_text(self, p: dict[str, Any], lang: str) -> str:
        steps = p["to"] - p["from"]
        n = abs(steps)
        if lang == "en":
            return f"pawn {n} {'left' if steps < 0 else 'right'}"
        return f"pedone {n} a {'sinistra' if steps < 0 else 'destra'}"

    def event_lines(self, kind: str, p: dict[str, Any], lang: str) -> list[str]:
        """One engine event as what the players must do or know (may be none)."""
        en = lang == "en"
        who = self.player_name(p["seat"], lang) if p.get("seat") is not None else ""
        space = p.get("space", "")
        if kind == "declared":
            if not p["declared"]:
                return [f"{who}: no row, so row C" if en else f"{who}: nessuna riga, quindi C"]
            return [f"{who} declares row {p['row']}" if en else f"{who} dichiara la riga {p['row']}"]
        if kind == "rolled":
            return [self.income_line(p, None, lang)]
        if kind == "pawn":
            text = self.pawn_text(p, lang)
            return [f"{who}: {text} to {p['to']}" if en else f"{who}: {text}, a {p['to']}"]
        if kind == "man_placed":
            return [f"Put a Mordred man on {space}" if en else f"Metti un uomo di Mordred su {space}"]
        if kind == "mordred_attack":
            return [f"Mordred attacks {space}: roll {p['need']}+" if en
                    else f"Mordred attacca {space}: serve {p['need']}+"]
        if kind == "mordred_combat":
            what = building(p["building"], lang)
            die = f"{'Die' if en else 'Dado'} {p['die']}"
            if p["success"]:
                owner = self.player_name(p["owner"], lang)
                return [f"{die}: man on {space}, {what} to {owner}" if en
                        else f"{die}: uomo su {space}, {what} al {owner}"]
            return [f"{die}: the {what} holds, discard the man" if en
                    else f"{die}: {what} resiste, scarta l'uomo"]
        if kind == "men_discarded":
            n = p["count"]
            return [f"No space for {n} men: back to supply" if en
                    else f"Niente spazio per {n} uomini: in riserva"]
        if kind == "built":
            what = building(p["building"], lang)
            cost = money(p["cost"], lang)
            if p.get("replaced"):
                old = building(p["replaced"], lang)
                return [f"{what.capitalize()} for the {old} on {space} ({cost})" if en
                        else f"{what} al posto di {old} su {space} ({cost})"]
            return [f"Put a {what} on {space} ({cost})" if en else f"Metti {what} su {space} ({cost})"]
        if kind == "attack":
            paid, need = money(p["paid"], lang), p["need"]
            return [f"Pay {paid}: {p['from']} attacks {space}, {need}+" if en
                    else f"Paga {paid}: {p['from']} attacca {space}, {need}+"]
        if kind == "player_combat":
            die = f"{'Die' if en else 'Dado'} {p['die']}"
            if p["success"]:
                return [f"{die}: remove the man from {space}" if en else f"{die}: togli l'uomo da {space}"]
            return [f"{die}: the man on {space} stays" if en else f"{die}: l'uomo su {space} resta"]
        if kind == "turn":
            return [f"{who}: declare a row (round {p['round']})" if en
                    else f"{who}: dichiara una riga (round {p['round']})"]
        if kind == "game_over":
            ending = pick(ENDINGS.get(p["ending"], (p["ending"],) * 2), lang)
            return [f"Game over: {ending[:1].lower()}{ending[1:]}" if en
                    else f"Fine partita: {ending[:1].lower()}{ending[1:]}"]
        return []

    # -- screens -----------------------------------------------------------------------
    def private_lines(self, state: State, seat: int, lang: str) -> tuple[str, list[str]]:
        view = state.view(seat)
        me = view["players"][seat]
        en = lang == "en"
        big = f"{money(me['money'], lang)}  {track(me['pawn'], lang)}"
        left = ", ".join(f"{me['supply'][b]} {pick(BUILDING_PLURALS[b], lang)}" for b in BUILDINGS)
        vp = points(me["vp"], lang)
        # Every pawn, in seat order: who is furthest right matters if Mordred wins.
        return big, [f"{'Left' if en else 'Restano'}: {left}", vp, self.track_line(view, lang)]

    def track_line(self, view: JSON, lang: str) -> str:
        """Every pawn on the Mordred track, each player named (the screen
        pages what does not fit one line)."""
        at = "on" if lang == "en" else "al"
        pawns = ", ".join(f"{self.player_name(p['seat'], lang)} {at} {p['pawn'] + 1}"
                          for p in view["players"])
        line = f"{'Pawns' if lang == 'en' else 'Pedoni'}: {pawns}"
        # Two players is not in the rulebook: the table keeps saying so.
        return f"{line} · {'unofficial' if lang == 'en' else 'non ufficiale'}" if view["unofficial"] else line

    def public_lines(self, state: State, lang: str) -> list[str]:
        view = state.view(None)
        phases = {
            "declare": ("declare", "dichiara"), "roll": ("roll", "lancio"), "place": ("place men", "piazza"),
            "mordred_die": ("Mordred's die", "dado Mordred"), "spend": ("spend", "spendi"),
            "attack_die": ("attack die", "dado attacco"),
        }
        phase = pick(phases.get(view["phase"], (view["phase"],) * 2), lang)
        men = len(view["mordred_men"])
        # Men on the map out of the box's: ending (a) comes when they are all out.
        mordred = (f"Mordred's men {men} of {TABLES.men}" if lang == "en"
                   else f"Uomini di Mordred {men} su {TABLES.men}")
        return [f"Round {view['round']}: {phase} · {mordred}", self.track_line(view, lang)]

    def outcome_lines(self, outcome: Outcome, lang: str) -> tuple[str, list[str]]:
        big, _ = super().outcome_lines(outcome, lang)
        d = dict(outcome.detail)
        ending = pick(ENDINGS.get(d.get("ending", ""), (outcome.reason,) * 2), lang)
        side = ("slain" if d.get("ending") == "mordred_slain"
                else "mordred" if d.get("mordred_won") else "arthur")
        men, pieces = int(d.get("mordred_men") or 0), int(d.get("player_pieces") or 0)
        verdict = pick(VERDICTS[side], lang).format(
            men=_count(men, "man", "men", "uomo", "uomini", lang),
            pieces=_count(pieces, "piece", "pieces", "pezzo", "pezzi", lang))
        lines = [f"{ending}.", f"{verdict}."]
        if d.get("tie_break") in TIE_BREAKS:
            lines.append(f"{pick(TIE_BREAKS[d['tie_break']], lang)}.")
        vp, cash, pawns = (list(d.get(k) or []) for k in ("vp", "money", "pawns"))
        for seat in sorted(int(s) for s in outcome.scores):
            if seat < min(len(vp), len(cash), len(pawns)):
                lines.append(f"{self.player_name(seat, lang)}: {points(vp[seat], lang)}, "
                             f"{money(cash[seat], lang)}, {track(pawns[seat], lang)}")
        return big, lines

ADAPTER = MordredAdapter
