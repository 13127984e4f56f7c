"""The table adapter: how one game meets the table.

:class:`TableAdapter` works for ANY registered game from ``legal_moves()``
alone: the menu is built from the moves' JSON, labels are the JSON values,
instructions echo the engine's events. A game's own adapter subclasses it and
overrides only what it knows better: its components (the tagged cards and
pieces), what a tap means, labels and translations, the instructions for the
players, each seat's private screen, the public status.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from PIL import Image

import rules
from pi_app import names as naming
from pi_app.i18n import pick, t
from pi_app.ui.menu import Cursor, flatten
from rules.core import JSON, Event, IllegalMove, Move, Outcome, State


@dataclass(frozen=True)
class Component:
    """A tagged card or piece: ``id`` is what the tag registry stores
    (``garrison@2``: seat 2's Garrison; ``follower:blue``: any blue cube).
    ``seat`` is the owner (0-based) or None for shared pieces; ``value`` is
    what it stands for in the notation (a card name, a colour)."""

    id: str
    kind: str
    value: str
    seat: int | None = None
    label: tuple[str, str] = ("", "")
    count: int = 1  # how many tags `tags enroll` asks for (two Settlement cards)

    def name(self, lang: str) -> str:
        return pick(self.label, lang) or self.value


def seat_name(seat: int | None, lang: str, game: str, names: Sequence[str] = ()) -> str:
    """The player at ``seat`` as every screen names them (pi_app.names),
    by the ``names`` given at the lobby where there are some."""
    return naming.display_name(game, seat, lang, names)


class TableAdapter:
    """The generic adapter; subclass per game and register it in
    ``pi_app.games.ADAPTERS``."""

    game_id: ClassVar[str] = ""
    #: the rulebook section a move out of turn breaks, for the refusal
    turn_rule: ClassVar[str] = ""
    #: a tap that makes a whole move is confirmed with ● when :meth:`confirms`
    #: says so (a card played in Siege draws the next one), else played at once
    tap_confirms: ClassVar[bool] = False
    #: (english, italian) for field names and values in menus
    field_labels: ClassVar[dict[str, tuple[str, str]]] = {}
    value_labels: ClassVar[dict[str, tuple[str, str]]] = {}
    #: component kind -> the move field a tap of it chooses ("follower" ->
    #: "colour"); kinds not listed match their value anywhere in a move
    tap_fields: ClassVar[dict[str, str]] = {}
    #: move fields a seat's menu branches on after every other (Artus: the
    #: figure comes after its distance, so that its tap can end the move)
    later_fields: ClassVar[tuple[str, ...]] = ()
    #: menu levels (by field) at which a tap that leaves one move with the
    #: highlighted choice makes that move (Artus: the distance shown, then
    #: the figure tapped); elsewhere a tap narrows the menu to what it names
    tap_completes: ClassVar[frozenset[str]] = frozenset()
    #: the move field a board zone's name chooses ("region": a piece tapped
    #: on the Deva reader picks Deva); None: the game has no board zones
    zone_field: ClassVar[str | None] = None
    #: public-view fields whose numbers are seats (the spectator page names the player)
    player_fields: ClassVar[frozenset[str]] = frozenset()
    #: public-view lists with one entry per seat (the page puts each beside its player)
    seat_lists: ClassVar[frozenset[str]] = frozenset()
    #: the public view's fields the spectator page shows, by (english, italian)
    #: name; the others are the engine's bookkeeping (a step's name, a counter
    #: of passes). Empty: every field, named as the menus name it.
    view_labels: ClassVar[dict[str, tuple[str, str]]] = {}

    def __init__(self, players: int, lang: str = "en", names: Sequence[str] = ()) -> None:
        self.players = players
        self.lang = lang
        #: the players' names given at the lobby, by seat ("" or none: the game's default)
        self.names = tuple(names)

    def player_name(self, seat: int | None, lang: str) -> str:
        """The player at ``seat`` as every screen of this game names them."""
        return seat_name(seat, lang, self.game_id, self.names)

    # -- components and taps ----------------------------------------------
    def components(self) -> list[Component]:
        """Every tagged card or piece of a game of ``players``, in the order
        `tags enroll` asks for them. The generic adapter knows none."""
        return []

    def component(self, component_id: str) -> Component | None:
        for comp in self.components():
            if comp.id == component_id:
                return comp
        return None

    def enroll_prompt(self, comp: Component, lang: str) -> str:
        owner = f" ({self.player_name(comp.seat, lang)})" if comp.seat is not None else ""
        return f"{comp.name(lang)}{owner}"

    def tap(self, state: State, seat: int, comp: Component, moves: Sequence[Move],
            field: str | None) -> list[Move]:
        """The moves a tap of ``comp`` by ``seat`` narrows ``moves`` to (the
        options in the menu now, whose level branches on ``field``). Empty
        means refused; :meth:`refusal` then says why."""
        return [m for m in moves if self.matches(comp, m)]

    def may_tap(self, state: State, seat: int, comp: Component) -> bool:
        """Whether ``seat`` may tap ``comp`` on its pad now: a shared piece or
        its own (a game may let another's card name a target)."""
        return comp.seat is None or comp.seat == seat

    def matches(self, comp: Component, move: Move) -> bool:
        name = self.tap_fields.get(comp.kind)
        if name is None:
            return comp.value in _values(move.to_json())
        return flatten(move.to_json()).get(name) == comp.value

    def refusal(self, state: State, seat: int, comp: Component, moves: Sequence[Move]) -> IllegalMove:
        """Why a tap fits no legal move: the engine is asked about the move
        the tap would make (its field set in a move offered now, or the
        adapter's :meth:`probe`), so the refusal names the rule it breaks."""
        probes = [self.probe(state, seat, comp)]
        name = self.tap_fields.get(comp.kind)
        if name is not None:
            game = rules.get(state.game_id)
            for move in moves[:1]:
                data = move.to_json()
                if name in data:
                    with contextlib.suppress(ValueError):  # the engine says no such move
                        probes.append(game.move_from_json({**data, name: comp.value}))
        for probe in probes:
            if probe is None:
                continue
            try:
                state.check(probe)
            except IllegalMove as exc:
                return exc
        return IllegalMove("table.not-now", self.turn_rule, what=comp.name(self.lang))

    def idle(self, state: State, seat: int, option: Any) -> IllegalMove:
        """Why a menu option listed with no moves (a piece that cannot move
        now) does nothing when chosen."""
        what = self.value_label(option.field, option.value, self.lang)
        return IllegalMove("table.not-now", self.turn_rule, what=what)

    def probe(self, state: State, seat: int, comp: Component) -> Move | None:
        """The move a tap of ``comp`` would start, to be checked by the engine."""
        return None

    def chance_seat(self, state: State) -> int | None:
        """The seat a chance step is secret to (a card drawn into its hand),
        as the rules say (``State.secret_seat``): at a table that enters
        chance, only that seat's tap reveals it and no menu of outcomes is
        shown on the shared screen. None: a public step."""
        return state.secret_seat() if state.is_chance() else None

    def chance_tap(self, state: State, comp: Component, moves: Sequence[Move]) -> list[Move]:
        """At a chance step, the outcomes a tapped component reveals."""
        return [m for m in moves if self.matches(comp, m)]

    # -- words -----------------------------------------------------------------
    def field_label(self, field: str | None, lang: str) -> str:
        if field is None:
            return ""
        if field in self.field_labels:
            return pick(self.field_labels[field], lang)
        return field.rsplit(".", 1)[-1].replace("_", " ")

    def value_label(self, field: str | None, value: Any, lang: str) -> str:
        if value is None:
            return "-"
        key = value if isinstance(value, str) else None
        if key is not None and key in self.value_labels:
            return pick(self.value_labels[key], lang)
        if isinstance(value, list):
            return ", ".join(self.value_label(field, v, lang) for v in value)
        return str(value).replace("_", " ")

    def view_field(self, field: str, lang: str) -> str:
        """A public-view field's name on the spectator page (its view label,
        else the menus' label)."""
        if field in self.view_labels:
            return pick(self.view_labels[field], lang)
        return self.field_label(field, lang)

    def view_words(self, field: str | None, value: Any, lang: str) -> str | None:
        """A whole public-view value in the words the screens use for it
        (The King is Dead's followers: "2 red, 1 yellow"); None: the page lays
        it out field by field."""
        return None

    def page_view(self, view: JSON) -> JSON:
        """The public ``view`` as the spectator page lays it out: by default as
        it is; a game may give a field its seat's own name (Siege's last row)."""
        return view

    def view_shows(self, field: str) -> bool:
        """True for a public-view field the spectator page shows."""
        return not self.view_labels or field in self.view_labels

    def view_value(self, field: str | None, value: Any, lang: str) -> str:
        """A public-view value on the spectator page: a seat as its player,
        else as the menus say it."""
        if field in self.player_fields and isinstance(value, int) and not isinstance(value, bool):
            return self.player_name(value, lang)
        return self.value_label(field, value, lang)

    def move_text(self, move: JSON, lang: str) -> str:
        """A move in words, short enough for a confirm screen."""
        parts = [self.value_label(k, v, lang) for k, v in move.items()]
        return " ".join(p for p in parts if p)

    def take_notes(self, before: State, moves: Sequence[Move], events: Sequence[Event], after: State) -> None:
        """What the seats' screens read from ``moves`` besides the state (a
        seat's newest card): noted as soon as they are journalled, before any
        frame. The table's instructions are worded after the acting seat's
        frame (pi_app.session.scene), so they must not be what a seat's screen reads.
        :meth:`instructions` takes the same notes (the journal's replay calls
        it alone): taking them twice must change nothing."""

    def instructions(self, before: State, moves: Sequence[Move], events: Sequence[Event], after: State,
                     lang: str) -> list[str]:
        """What the players must now do on the table, from the public events
        of ``moves`` (a move and the chance steps Tablekeeper drew after it)."""
        out = []
        for ev in events:
            if ev.audience is not None:
                continue
            params = ", ".join(f"{k} {self.value_label(k, v, lang)}" for k, v in ev.params.items())
            out.append(f"{ev.type.replace('_', ' ')}: {params}" if params else ev.type.replace("_", " "))
        return out or [self.move_text(m.to_json(), lang) for m in moves]

    def private_lines(self, state: State, seat: int, lang: str) -> tuple[str, list[str]]:
        """A seat's own screen while waiting: (key fact, small lines)."""
        view = state.view(seat)
        return "", [f"{k}: {v}" for k, v in view.items() if not isinstance(v, (dict, list))][:3]

    def public_lines(self, state: State, lang: str) -> list[str]:
        """The shared screen's standing lines: scores, the order of things."""
        return []

    def step_title(self, state: State, lang: str) -> str:
        """What the seat to move is being asked, for its screen's title."""
        return t("your-turn", lang)

    def menu_title(self, state: State, cursor: Cursor, lang: str) -> str:
        """The title over a seat's menu, as far as it has chosen: ``step_title``
        unless a game names what the choices so far settled."""
        return self.step_title(state, lang)

    def chance_title(self, state: State, lang: str) -> str:
        return t("chance-choose", lang)

    def outcome_lines(self, outcome: Outcome, lang: str) -> tuple[str, list[str]]:
        names = ", ".join(self.player_name(s, lang) for s in outcome.winners)
        key = "winner" if len(outcome.winners) == 1 else "winners"
        big = t(key, lang, seats=names) if outcome.winners else t("no-winner", lang)
        scores = [f"{self.player_name(int(s), lang)}: {v}" for s, v in outcome.scores.items()]
        return big, [outcome.reason, *scores]

    # -- menus, pictures, secrecy ------------------------------------------------
    def menu(self, state: State, seat: int) -> Cursor:
        """The menu a seat steps through now; a game may build a choice in
        steps its moves' JSON does not show (three citizens one at a time)."""
        return Cursor.over(state.legal_moves())

    def remembered(self, move: JSON) -> JSON:
        """A seat's played move as its menus remember it, to start there
        next time: a game whose moves name a piece by where it stands says
        where it stands after the move. By default the move as played."""
        return move

    def group(self, state: State, field: str, value: Any) -> Any:
        """The group a value of a move's ``field`` falls in, so that a long
        choice (more than ``pi_app.ui.menu.GROUP_OVER``) is made in two
        shorter steps: a part of the table, then a place in it. Its words
        are :meth:`value_label` of ``<field>/group``. None: no groups."""
        return None

    def picture(self, state: State, seat: int, cursor: Cursor | None) -> Image.Image | None:
        """A drawing (a board) for the seat's screen, beside its words;
        ``cursor`` is the seat's menu on its turn. None: words only."""
        return None

    def board_svg(self, view: JSON) -> tuple[str, tuple[str, ...]] | None:
        """The board of the public ``view`` drawn for the web pages (SVG),
        with the view's keys it shows; None: the pages lay the view out as it is."""
        return None

    def record_text(self, move: JSON, lang: str, secret: bool = False) -> str:
        """A played move as the table's transcript keeps it; a ``secret`` one
        (``State.secrecy``, the rules' answer) says only that it was made."""
        return self.secret_text(move, lang) if secret else self.move_text(move, lang)

    def looking_at(self, state: State) -> None:
        """The state the next move's words are about (the one before it),
        for an adapter whose words read it; a replay says so before each move."""

    def secret_text(self, move: JSON, lang: str) -> str:
        """A secret move's words while the game runs: that it was made."""
        return "a card drawn" if lang == "en" else "carta pescata"

    def confirms(self, state: State, move: Move) -> bool:
        """True when ``move`` asks for ● before it is played: undo cannot
        take it back (the rules' answer, ``State.secrecy``; or a chance step
        follows it), it ends the game, or it reveals what was hidden
        (:meth:`reveals`). Any other move is played by the input that
        chooses it: one press of undo takes it back."""
        if self.reveals(move):
            return True
        work = state.copy()
        try:
            events = work.apply(move)
        except IllegalMove:
            return True  # refused on ●, where the refusal is read
        return (work.is_chance() or work.outcome() is not None
                or not state.secrecy(move, events).undoable)

    def choice_confirms(self, state: State, move: Move) -> bool:
        """True when the ● that picks ``move`` (one that :meth:`confirms`)
        from a menu option standing for it alone is its confirm: the option
        is shown with "● confirm", and no second screen repeats the move.
        For a choice whose option names the whole move (a row to declare, a
        pile to draw from); never for a tap, which may be a mistake. By
        default never: every such move asks on a screen of its own."""
        return False

    def chosen_label(self, move: Move, field: str | None, value: Any, lang: str) -> str:
        """The words of an option whose ● is its one move's confirm
        (:meth:`choice_confirms`). By default its value's (a row, a pile: the
        whole move already); a game whose last option names only part of the
        move (a distance) says the whole move here, as a confirm's screen would."""
        return self.value_label(field, value, lang)

    def reveals(self, move: Move) -> bool:
        """True for a move that shows what was hidden (a secret identity)."""
        return False

    def legend(self, state: State, lang: str) -> list[str]:
        """Each short form the screens of ``state`` may show, spelled out
        ("P1 = Player 1"): what holding ● shows. None by default: words first."""
        return []

    def hides_input(self, state: State, seat: int, component: str | None) -> bool:
        """True when a seat's input now (a tap of ``component``, or a press)
        would betray its secret, so a transcript says only that it acted: by
        default, while the rules say its move now is secret."""
        return state.secret_seat() == seat


def _values(data: Any) -> list[Any]:
    """Every scalar in a move's JSON."""
    if isinstance(data, dict):
        return [v for value in data.values() for v in _values(value)]
    if isinstance(data, list):
        return [v for value in data for v in _values(value)]
    return [data]
