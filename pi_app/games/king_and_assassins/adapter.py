"""King & Assassins at the table (notation: rules/king_and_assassins/NOTATION.md).

Seat 1 (index 0) is the King player, seat 2 (index 1) the Assassin player.
Tagged components: the Assassin player's twelve citizen cards (tap three to
pick the assassins at the start, confirmed on that player's screen only; tap
one later to reveal it), a token for every piece (tap one to choose it, or a
citizen as the target of an arrest), three assassin tokens (swapped in for a
revealed citizen's token; a tap stands for the revealed assassins), and the
fifteen round cards (tapped when the table enters the round card). Actions, directions and targets are chosen
in the menu. Each player's screen shows the board; only the Assassin player's
marks the hidden assassins, and only that screen tells an arrest's secret.
No input's menu or options depend on the secret: a token tap never offers a
reveal, and the Assassin player's menu offers a reveal for every citizen who
may be an assassin (an innocent one is refused on that player's screen).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, ClassVar

from PIL import Image

from pi_app.games.base import Component, TableAdapter
from pi_app.games.king_and_assassins.board import draw_board
from pi_app.games.king_and_assassins.svg import ka_board
from pi_app.games.king_and_assassins.words import (
    CODE,
    DIR_LABELS,
    FIELD_LABELS,
    REASONS,
    RULE_SETUP,
    RULE_TURN,
    TYPE_LABELS,
    VIEW_LABELS,
    Pair,
    card_text,
    event_lines,
    move_words,
    piece_name,
    refusal_params,
    say,
)
from pi_app.ui.menu import BACK, BRANCH, CONFIRM, Cursor, Option
from rules.core import JSON, Event, IllegalMove, Move, Outcome, State
from rules.king_and_assassins.data import ASSASSINS, DIRS, ROUND_CARDS
from rules.king_and_assassins.moves import Choose, Draw, Reveal, Step, name_order
from rules.king_and_assassins.pieces import CITIZEN_NAMES, KING, KNIGHT_NAMES

KING_SEAT, ASSASSIN_SEAT = 0, 1


_PIECE_ID = re.compile(r"(king|knight|citizen|assassin)[0-9]*")


class PickMenu(Cursor):
    """The secret pick as three choices of one citizen each (the engine's
    single ``choose`` move has 220 options): each level offers the citizens
    not yet picked, the last one the pick to confirm."""

    def picked(self) -> list[str]:
        sets = [set(m.citizens) for m in self.moves if isinstance(m, Choose)]
        return sorted(set.intersection(*sets), key=name_order) if sets else []

    def field(self) -> str | None:
        return None if len(set(self.moves)) <= 1 else f"pick{len(self.picked()) + 1}"

    # A level's options are asked for several times an input (the item, its
    # place in the count, the board's marks, the step), each a scan of the
    # 220 picks for every citizen: kept for the level they were made for,
    # one level at a time (its moves, the same tuple, and its depth).
    def options(self) -> list[Option]:
        moves, depth = self.moves, len(self.stack)
        kept = self.__dict__.get("_kept")
        if kept is None or kept[0] is not moves or kept[1] != depth:
            kept = (moves, depth, tuple(self.level_options()))
            self.__dict__["_kept"] = kept
        return list(kept[2])

    def level_options(self) -> list[Option]:
        """The options of the level the menu stands on, worked out."""
        name = self.field()
        if name is None:
            opts = [Option(CONFIRM, moves=self.moves[:1])]
        else:
            picked = set(self.picked())
            opts = []
            for citizen in CITIZEN_NAMES:
                with_it = tuple(m for m in self.moves if isinstance(m, Choose) and citizen in m.citizens)
                if citizen not in picked and with_it:
                    opts.append(Option(BRANCH, name, citizen, with_it))
        if len(self.stack) > 1:
            opts.append(Option(BACK))
        return opts


#: a menu option for the King when he cannot move: listed so that he does not
#: vanish from the pieces without a word
KING_IDLE = "king-idle"
KING_IDLE_WORDS: Pair = ("The King cannot move", "Il Re non può muoversi")


class TurnMenu(Cursor):
    """The King player's menu: where it lists the pieces that may step, a
    King who cannot is listed too, to say so (● on him says why)."""

    def options(self) -> list[Option]:
        opts = super().options()
        if self.field() == "piece" and all(isinstance(m, Step) for m in self.moves) \
                and not any(m.to_json().get("piece") == KING for m in self.moves):
            at = next((i for i, o in enumerate(opts) if o.kind == BACK), len(opts))
            opts.insert(at, Option(BRANCH, "piece", KING_IDLE))
        return opts


class KingAndAssassinsAdapter(TableAdapter):
    game_id = "king-and-assassins"
    turn_rule = RULE_TURN
    # a token tap that leaves one move shows it to confirm when undo cannot take it back
    tap_confirms = True
    # what a token tap chooses, for the simulated players (taps themselves go through tap())
    tap_fields: ClassVar[dict[str, str]] = {"token": "piece"}
    field_labels: ClassVar[dict[str, Pair]] = {
        **FIELD_LABELS,
        **{f"pick{i}": (f"pick {i}", f"scelta {i}") for i in (1, 2, 3)},
    }
    value_labels: ClassVar[dict[str, Pair]] = {**TYPE_LABELS, **DIR_LABELS}
    view_labels: ClassVar[dict[str, Pair]] = VIEW_LABELS

    def __init__(self, players: int, lang: str = "en", names: Sequence[str] = ()) -> None:
        super().__init__(players, lang, names)
        # The Assassin player's pick in progress, so a tap knows what is already picked.
        self.pick_menu: PickMenu | None = None
        # Who the last assassin was, said when the game ended: kept for the final screens.
        self.last_assassin: str | None = None

    # -- components --------------------------------------------------------------
    def components(self) -> list[Component]:
        out = [Component(f"citizen-card:{c}", "citizen-card", c, ASSASSIN_SEAT,
                         (f"{piece_name(c, 'en')} card", f"carta {piece_name(c, 'it')}"))
               for c in CITIZEN_NAMES]
        for name in (KING, *KNIGHT_NAMES, *CITIZEN_NAMES):
            # Citizens' tokens are shared: the King player taps one to arrest it.
            owner = KING_SEAT if name in (KING, *KNIGHT_NAMES) else None
            out.append(Component(f"token:{name}", "token", name, owner,
                                 (f"{piece_name(name, 'en')} token", f"segnalino {piece_name(name, 'it')}")))
        # A revealed citizen's token is swapped for one of the three assassin tokens
        # (Turno del Giocatore Assassino): any of them stands for the revealed assassins.
        out.append(Component("assassin-token", "assassin-token", "assassin", None,
                             ("assassin token", "segnalino Assassino"), count=ASSASSINS))
        out += [Component(f"round-card:{n}", "round-card", str(n), None,
                          (f"round card {n}", f"carta Round {n}")) for n in sorted(ROUND_CARDS)]
        return out

    def enroll_prompt(self, comp: Component, lang: str) -> str:
        if comp.kind == "assassin-token":
            return say(("an assassin token", "un segnalino Assassino"), lang)
        article = "the" if lang == "en" else ("il" if comp.kind == "token" else "la")
        owner = ""
        if comp.kind == "citizen-card":
            owner = say((" (Assassin player)", " (giocatore Assassino)"), lang)
        return f"{article} {comp.name(lang)}{owner}"

    # -- menus and taps ------------------------------------------------------------
    def menu(self, state: State, seat: int) -> Cursor:
        step = state.view(None)["step"]
        if step == "choose":
            self.pick_menu = PickMenu.over(state.legal_moves())
            return self.pick_menu
        if step == "assassin":
            return Cursor.over(self._assassin_moves(state))
        if step == "king" and KING in state.view(None)["pieces"] \
                and not any(isinstance(m, Step) and m.piece == KING for m in state.legal_moves()):
            return TurnMenu.over(state.legal_moves())
        return super().menu(state, seat)

    def idle(self, state: State, seat: int, option: Any) -> IllegalMove:
        if option.value == KING_IDLE:  # why he cannot: the reason a tap of his token gets
            king = self.component(f"token:{KING}")
            if king is not None:
                return self.refusal(state, seat, king, state.legal_moves())
        return super().idle(state, seat, option)

    def reveals(self, move: Move) -> bool:
        return isinstance(move, Reveal)

    @staticmethod
    def _assassin_moves(state: State) -> list[Move]:
        """The Assassin player's menu shaped by public facts only. The engine lists a
        reveal for the chosen citizens alone, in citizen order among the other moves,
        so the order of the actions and the length of the list would tell, through
        the presses seen at the table, who is an assassin. Here the reveals come
        last, one for every citizen on the board who may still be one; the engine
        refuses an innocent one on this player's screen, as it does a wrong card.
        An arrested assassin may still be revealed (docs/rulings.md), by a tap of
        his card: the menu lists the citizens on the board only."""
        view = state.view(None)
        public = [m for m in state.legal_moves() if not isinstance(m, Reveal)]
        shown = {p for p, v in view["pieces"].items() if v["kind"] == "assassin"}
        shown |= {*view["arrested_assassins"], *view["eliminated"]}
        if len(shown) >= ASSASSINS:
            return public
        present = set(view["pieces"]) - set(view["arrested"])
        maybe = [c for c in CITIZEN_NAMES if c not in shown and c in present]
        return public + [Reveal(c) for c in maybe]

    def tap(self, state: State, seat: int, comp: Component, moves: Sequence[Move],
            field: str | None) -> list[Move]:
        step = state.view(None)["step"]
        if comp.kind == "citizen-card":
            if step == "choose" and self.pick_menu is not None:
                live = self.pick_menu  # the pick so far, also when the session retries from the top
                if comp.value in live.picked() or live.field() is None:
                    return []
                found = [m for m in live.moves if isinstance(m, Choose) and comp.value in m.citizens]
            elif step == "assassin":
                found = [m for m in state.legal_moves() if m == Reveal(comp.value)]
            else:
                return []
        elif comp.kind in ("token", "assassin-token"):
            names = {comp.value} if comp.kind == "token" else set(_revealed_on_board(state))
            found = []
            if field == "target":
                found = [m for m in moves if m.to_json().get("target") in names]
            # Never a reveal: a hidden assassin's token must open the same menu as any
            # citizen's, or the presses that follow would tell (the card reveals it).
            found = found or [m for m in moves if not isinstance(m, Reveal) and names & {
                m.to_json().get("piece"), m.to_json().get("target")}]
        else:
            return []
        # One move left: played at once, or shown to confirm (tap_confirms, confirms()).
        return found

    def refusal(self, state: State, seat: int, comp: Component, moves: Sequence[Move]) -> IllegalMove:
        exc = self._refusal(state, seat, comp, moves)
        return IllegalMove(exc.code, exc.rule, **refusal_params(exc.params, self.lang))

    def _refusal(self, state: State, seat: int, comp: Component, moves: Sequence[Move]) -> IllegalMove:
        # Names as in the notation here: refusal() puts every refusal in the table's words.
        step = state.view(None)["step"]
        if comp.kind == "citizen-card":
            if step == "choose" and self.pick_menu is not None:
                code = "already-picked" if comp.value in self.pick_menu.picked() else "three-picked"
                return IllegalMove(CODE + code, RULE_SETUP, piece=comp.value)
            if step == "assassin":
                try:
                    state.check(Reveal(comp.value))
                except IllegalMove as exc:
                    return exc
            return IllegalMove(CODE + "card-not-now", RULE_TURN)
        if comp.kind == "round-card":
            return IllegalMove(CODE + "round-card-not-now", RULE_TURN)
        if comp.kind == "assassin-token":
            revealed = _revealed_on_board(state)
            if not revealed:
                return IllegalMove(CODE + "no-assassin-yet", RULE_TURN)
            # The same reason a tap of the first revealed one's citizen token would get.
            comp = Component(f"token:{revealed[0]}", "token", revealed[0])
        if comp.value in CITIZEN_NAMES and seat == KING_SEAT:
            code = "not-a-target" if any("target" in m.to_json() for m in moves) else "citizen-not-yours"
            return IllegalMove(CODE + code, RULE_TURN, piece=comp.value)
        # Why the piece cannot even step: no points, not on the board, not yours; else
        # the first blocked step that stays on the board (a roof, a knight in the way).
        reasons: list[IllegalMove] = []
        for d in DIRS:
            try:
                state.check(Step(comp.value, d))
            except IllegalMove as exc:
                if exc.code.endswith(("ap.not-enough", "piece.not-on-board", "piece.not-yours")):
                    return exc
                if not exc.code.endswith("move.off-board"):
                    reasons.append(exc)
        return reasons[0] if reasons else IllegalMove(CODE + "piece-idle", RULE_TURN, piece=comp.value)

    def chance_tap(self, state: State, comp: Component, moves: Sequence[Move]) -> list[Move]:
        if comp.kind != "round-card":
            return []
        return [m for m in moves if m == Draw(int(comp.value))]

    def hides_input(self, state: State, seat: int, component: str | None) -> bool:
        # The pick is made with taps and presses that would name the citizens; a
        # citizen card tapped later is refused or not according to the secret.
        return super().hides_input(state, seat, component) or (
            seat == ASSASSIN_SEAT and (component or "").startswith("citizen-card:"))

    # -- words --------------------------------------------------------------------
    def view_field(self, field: str, lang: str) -> str:
        return piece_name(field, lang) if _PIECE_ID.fullmatch(field) else super().view_field(field, lang)

    def view_value(self, field: str | None, value: Any, lang: str) -> str:
        if isinstance(value, str) and _PIECE_ID.fullmatch(value):  # "citizen2": as its token says it
            return piece_name(value, lang)
        return super().view_value(field, value, lang)

    def value_label(self, field: str | None, value: Any, lang: str) -> str:
        if value == KING_IDLE:
            return say(KING_IDLE_WORDS, lang)
        if field in ("piece", "target") or (field or "").startswith("pick"):
            return piece_name(str(value), lang)
        if field == "card" and isinstance(value, int):
            return card_text(value, lang)
        return super().value_label(field, value, lang)

    def move_text(self, move: JSON, lang: str) -> str:
        """Short, for the confirm screen beside the board (about 60 px wide)."""
        return move_words(move, lang, short=True)

    def record_text(self, move: JSON, lang: str, secret: bool = False) -> str:
        return self.secret_text(move, lang) if secret else move_words(move, lang, short=False)

    def secret_text(self, move: JSON, lang: str) -> str:
        return "Assassins chosen in secret" if lang == "en" else "Assassini scelti in segreto"

    def step_title(self, state: State, lang: str) -> str:
        view = state.view(None)
        en = lang == "en"
        step, ap = view["step"], view["ap"]
        if step == "choose":
            return "Pick 3 assassins" if en else "Scegli 3 assassini"
        if step == "start":
            return "King's start" if en else "Partenza del re"
        if step == "king":
            return (f"King {ap['king']} AP, Knights {ap['knights']}" if en
                    else f"Re {ap['king']} PA, Cavalieri {ap['knights']}")
        n = ap["assassins"]
        if en:
            return f"{n} action point" if n == 1 else f"{n} action points"
        return f"{n} punto azione" if n == 1 else f"{n} punti azione"

    def chance_title(self, state: State, lang: str) -> str:
        n = state.view(None)["round"] + 1
        return f"Round {n}: round card" if lang == "en" else f"Round {n}: carta Round"

    def private_lines(self, state: State, seat: int, lang: str) -> tuple[str, list[str]]:
        view = state.view(seat)
        en = lang == "en"
        big = f"Round {view['round']}" if view["round"] else ("Setup" if en else "Preparazione")
        n = view["cards_left"]
        if en:
            lines = [f"{n} card left" if n == 1 else f"{n} cards left"]
        else:
            lines = [f"{n} carta rimasta" if n == 1 else f"{n} carte rimaste"]
        if view["wounds"]:
            lines.insert(0, f"Wounds {view['wounds']}/2" if en else f"Ferite {view['wounds']}/2")
        if seat == ASSASSIN_SEAT and view.get("assassins"):
            gone = {*view["arrested"], *view["eliminated"]}
            mine = " ".join(piece_name(c, lang) for c in view["assassins"] if c not in gone)
            lines.insert(0, f"A: {mine}")
            # The secret result of an arrest made this turn: only this seat's view holds it,
            # and it is the big line so it cannot scroll off the panel.
            if view["step"] == "king" and view["arrests_this_turn"] and view["arrested"]:
                last = view["arrested"][-1]
                was = last in view["assassins"]
                verdict = (("assassin!" if was else "innocent") if en
                           else ("assassino!" if was else "innocente"))
                big = f"{piece_name(last, lang)} {verdict}"
                lines = lines[:1]  # room for the big line's two rows
        return big, lines

    def public_lines(self, state: State, lang: str) -> list[str]:
        view = state.view(None)
        en = lang == "en"
        if not view["round"]:
            return []
        parts = [f"Round {view['round']}/{view['round'] + view['cards_left']}"]
        if view["step"] in ("king", "assassin"):
            parts.append(self.step_title(state, lang))  # the points left
        if view["wounds"]:
            parts.append(f"wounds {view['wounds']}/2" if en else f"ferite {view['wounds']}/2")
        return [" · ".join(parts)]

    def outcome_lines(self, outcome: Outcome, lang: str) -> tuple[str, list[str]]:
        en = lang == "en"
        king = KING_SEAT in outcome.winners
        side = (("King wins" if en else "Vince il Re") if king
                else ("Assassins win" if en else "Vincono gli Assassini"))
        lines = [say(REASONS.get(outcome.reason, (outcome.reason, outcome.reason)), lang)]
        if outcome.reason == "assassins-gone" and self.last_assassin:
            name = piece_name(self.last_assassin, lang)
            lines.append(f"Last: {name}" if lang == "en" else f"Ultimo: {name}")
        rnd = dict(outcome.detail).get("round")
        return side, lines + ([f"Round {rnd}"] if rnd else [])

    # -- what the table must do ------------------------------------------------------
    def take_notes(self, before: State, moves: Sequence[Move], events: Sequence[Event], after: State) -> None:
        for ev in events:
            if ev.type == "arrested_assassin" and ev.audience is None:  # the last one, told to all
                self.last_assassin = ev.params["target"]  # the final screens name it

    def instructions(self, before: State, moves: Sequence[Move], events: Sequence[Event], after: State,
                     lang: str) -> list[str]:
        self.take_notes(before, moves, events, after)
        secret = before.secret_seat() is not None  # the rules' answer: the pick is not told
        return event_lines(events, lang, self.names) or [self.record_text(m.to_json(), lang, secret)
                                                         for m in moves]

    # -- the board ------------------------------------------------------------------
    def picture(self, state: State, seat: int, cursor: Cursor | None) -> Image.Image | None:
        view = state.view(seat)
        marks = {c: "secret" for c in view.get("assassins", []) if c in view["pieces"]
                 and view["pieces"][c]["kind"] == "citizen"}
        focus: list[str] = []
        if cursor is not None:
            if isinstance(cursor, PickMenu):
                marks.update(dict.fromkeys(cursor.picked(), "secret"))
            focus = self._focus(view, cursor)
        return draw_board(view, marks, focus)

    def _focus(self, view: JSON, cursor: Cursor) -> list[str]:
        """The cells the menu points at: the highlighted piece or target, the
        start cell; deeper in, the piece every option here shares."""
        opt = cursor.current()
        cells: list[str] = []
        pieces = view["pieces"]
        if opt.kind == BRANCH and (opt.field in ("piece", "target") or (opt.field or "").startswith("pick")):
            piece = KING if opt.value == KING_IDLE else opt.value  # a King who cannot move: where he is
            cells.append(pieces.get(piece, {}).get("cell", ""))
        elif opt.kind == BRANCH and opt.field == "cell":
            cells.append(str(opt.value))
        shared = {m.to_json().get("piece") for m in cursor.moves}
        if len(shared) == 1 and None not in shared:
            cells.append(pieces.get(shared.pop(), {}).get("cell", ""))
        if opt.kind == CONFIRM:
            data = opt.moves[0].to_json()
            cells += [pieces.get(data.get(k), {}).get("cell", "") for k in ("piece", "target")]
        return list(dict.fromkeys(c for c in cells if c))

    def board_svg(self, view: JSON) -> tuple[str, tuple[str, ...]] | None:
        if "rows" in view and "pieces" in view:
            return ka_board(view, lambda name: self.view_field(name, self.lang)), ("rows", "pieces", "gates")
        return None


def _revealed_on_board(state: State) -> list[str]:
    """The revealed assassins on the board, whom an assassin token stands for (public)."""
    return [p for p, v in state.view(None)["pieces"].items() if v["kind"] == "assassin"]


ADAPTER = KingAndAssassinsAdapter
