"""Input: what a tap, a press or a turn of a knob means at this moment.

A seat's ◀ ● ▶ walk its menu (pi_app.ui.menu.Cursor) and choose a move; a tag
on a seat's pad picks a piece or a card, on a board zone's reader a place;
the undo button asks for an undo; a chance step is entered by its tap or on
the shared screen's menu. What an input means goes forward to commit
(pi_app.session.commit): a move to play, an undo, a refusal or an unknown tag. Only
the cursors and notices of the scene change here; nothing is drawn.
"""

from __future__ import annotations

from typing import Any

from drivers.events import ButtonHeld, ButtonPressed, ButtonReleased, EncoderTurned, TagArrived
from pi_app.games.base import Component
from pi_app.session.commit import Commit
from pi_app.session.scene import Notice, Scene
from pi_app.store.registry import Registry
from pi_app.ui.menu import BACK, BRANCH, CONFIRM, Cursor, Option, flatten
from pi_app.ui.screens import BAR_ITEMS, TAPPED
from rules.core import IllegalMove, Move


class InputMap:
    def __init__(self, scene: Scene, registry: Registry, commit: Commit) -> None:
        self.scene = scene
        self.profile = scene.profile
        self.registry = registry
        self.commit = commit

    def handle(self, event: object) -> bool:
        """Act on a tap, press, hold or turn; False for any other event."""
        if isinstance(event, TagArrived):
            self.on_tag(event.reader, event.uid)
        elif isinstance(event, ButtonPressed):
            self.on_button(event.button)
        elif isinstance(event, ButtonHeld):
            self.on_held(event.button)
        elif isinstance(event, ButtonReleased):
            self.on_released(event.button)
        elif isinstance(event, EncoderTurned):
            # A turn is ◀ or ▶ once per detent, with everything a press means.
            role = "right" if event.steps > 0 else "left"
            for _ in range(abs(event.steps)):
                self.on_button(event.encoder.rsplit(".", 1)[0] + "." + role)
        else:
            return False
        return True

    def pressed_item(self, event: object) -> str | None:
        """Which item of the acting seat's button bar ``event`` presses, to
        acknowledge it at once (pi_app.ui.screens.pressed): a button's own,
        ◀ or ▶ for a turn, the whole bar for a tag; None for anything else
        (a release, a hold, a tag lifted)."""
        if isinstance(event, TagArrived):
            return TAPPED
        if isinstance(event, ButtonPressed):
            role = event.button.rsplit(".", 1)[-1]
            return role if role in BAR_ITEMS else None
        if isinstance(event, EncoderTurned) and event.steps:
            return "right" if event.steps > 0 else "left"
        return None

    def seat_of(self, part: str) -> int | None:
        seat = self.profile.seat_of_part(part)
        return seat if seat is not None and seat < len(self.scene.seats) else None

    def acting_seat(self, event: object) -> int | None:
        """The seat whose input ``event`` is (a piece on a board zone: the seat
        to move), so that its screen is the first sent; None for none."""
        part = getattr(event, "reader", None) or getattr(event, "button", None) \
            or getattr(event, "encoder", None)
        seat = self.seat_of(part) if isinstance(part, str) else None
        if seat is None and isinstance(event, TagArrived):
            seat = self.scene.state.to_move()
        return seat if seat is not None and 0 <= seat < len(self.scene.seats) else None

    # -- buttons -------------------------------------------------------------------
    def on_held(self, button: str) -> None:
        """● held: the seat's screen spells out the short forms the screens
        use for as long as ● stays down (read at the player's own pace, gone
        the moment the finger lifts). The press that began the hold has acted."""
        seat = self.seat_of(button)
        if seat is None or button.rsplit(".", 1)[-1] != "ok":
            return
        sc = self.scene
        if sc.journal_fault is not None and not sc.unsaved_ok:
            self.commit.play_on_unsaved()  # the players' explicit choice, from any seat
            return
        self.commit.tell(Notice("legend", seat))

    def on_released(self, button: str) -> None:
        """● let go after a hold: the legend goes; any other notice (a
        refusal that came meanwhile) stays to be read and dismissed."""
        sc = self.scene
        seat = self.seat_of(button)
        if seat is None or button.rsplit(".", 1)[-1] != "ok":
            return
        if sc.seats[seat].notice is not None and sc.seats[seat].notice_kind == "legend":
            sc.seats[seat].notice = None

    def on_button(self, button: str) -> None:
        sc = self.scene
        if button == self.profile.undo.name:
            self.commit.on_undo()
            return
        seat = self.seat_of(button)
        if seat is None:
            return
        if sc.journal_fault is not None and not sc.unsaved_ok:
            return  # the screens show why the game waits: a press would act on a menu no one sees
        role = button.rsplit(".", 1)[-1]
        if sc.undo_pending:
            sc.undo_pending = False
            self.commit.tell(Notice("undo-cancelled"))
            return
        ui = sc.seats[seat]
        if ui.notice is not None:
            ui.notice = None  # the press that dismisses a refusal does nothing else
            return
        if sc.state.outcome() is not None:
            # the next game starts only once this one is on disk
            sc.new_game_requested = role == "ok" and self.commit.write_journal()
            return
        if sc.state.is_chance():
            self.chance_press(seat, role)
            return
        if seat in sc.computers:
            # ● on a computer's seat confirms its move, carried out on the table
            move = sc.computer_moves.get(seat)
            if role == "ok" and move is not None and seat == sc.state.to_move():
                self.commit.play(seat, move)
            return
        if seat != sc.state.to_move():
            self.commit.refuse(seat, self.not_your_turn(seat))
            return
        cursor = sc.cursor_for(seat)
        if role == "left":
            cursor.step(-1)
        elif role == "right":
            cursor.step(1)
        elif role == "ok":
            opt = cursor.current()
            move = cursor.select()
            if move is not None and not self.commit.play(seat, move):
                off_refused(cursor)
            elif opt.kind == BRANCH and not opt.moves:  # a piece listed to say it cannot act
                self.commit.refuse(seat, sc.adapter.idle(sc.state, seat, opt))

    def chance_press(self, seat: int, role: str) -> None:
        sc = self.scene
        if self.profile.chance == "draw" or sc.adapter.chance_seat(sc.state) is not None:
            return  # a secret draw is entered by a tap on the drawer's pad only
        cursor = sc.chance_cursor = sc.chance_cursor or Cursor.over(sc.state.legal_moves())
        if role in ("left", "right"):
            cursor.step(-1 if role == "left" else 1)
        elif role == "ok":
            move = cursor.select()
            if move is not None:
                self.commit.play(None, move)

    # -- tags ----------------------------------------------------------------------
    def component(self, uid: str) -> Component | None:
        """The piece or card of this game a tag is on; None for any other tag."""
        sc = self.scene
        tag = self.registry.lookup(uid)
        return sc.adapter.component(tag.component) if tag and tag.game == sc.record.game else None

    def on_tag(self, reader: str, uid: str) -> None:
        sc = self.scene
        seat = self.seat_of(reader)
        if seat is None:
            self.on_zone_tag(reader, uid)
            return
        comp = self.tapped(seat, uid)
        if comp is None:
            return
        if sc.state.outcome() is not None:
            self.commit.refuse(seat, IllegalMove("table.game-over", ""))
            return
        if sc.state.is_chance():
            self.chance_tap(seat, comp)
            return
        if seat != sc.state.to_move():
            self.commit.refuse(seat, self.not_your_turn(seat))
            return
        if not sc.adapter.may_tap(sc.state, seat, comp):
            self.commit.refuse(seat, IllegalMove("table.not-your-piece", sc.adapter.turn_rule,
                                                 owner=sc.player(comp.seat), seat=sc.player(seat)))
            return
        cursor = sc.cursor_for(seat)
        subset = sc.adapter.tap(sc.state, seat, comp, cursor.moves, cursor.field())
        if not subset and len(cursor.stack) > 1:
            # The tap may start over: a card tapped while deep in a menu, or
            # a new pick of what was picked before (blue instead of red). A
            # tap that only fails to go with an earlier pick of something
            # else (a region with no red, after red) is refused, not used to
            # drop that pick unseen.
            root = cursor.stack[0][0]
            subset = sc.adapter.tap(sc.state, seat, comp, root, Cursor.over(root).field())
            chosen = chosen_fields(cursor.moves, root)
            field = sc.adapter.tap_fields.get(comp.kind)
            if subset and chosen and field is not None and field not in chosen:
                words = ", ".join(str(sc.adapter.value_label(f, v, sc.lang)) for f, v in chosen.items())
                self.commit.refuse(seat, IllegalMove("table.tap-conflict", sc.adapter.turn_rule,
                                                     what=comp.name(sc.lang), chosen=words))
                return
            if subset:
                del cursor.stack[1:]
        if not subset:
            self.commit.refuse(seat, sc.adapter.refusal(sc.state, seat, comp, cursor.moves))
            return
        completed = self.completed(cursor, subset)
        if completed is not None:
            subset = [completed]  # the highlighted choice and the tap make one move
        one = cursor.single(Option(BRANCH, moves=tuple(subset)))
        if one is not None and not (sc.adapter.tap_confirms and sc.adapter.confirms(sc.state, one)):
            self.commit.play(seat, one)  # the tap itself chose the move
        else:
            # A tap whose move undo cannot take back (a card played in Siege
            # draws the next) waits for ● as a menu does: a card tapped by
            # mistake costs nothing.
            cursor.narrow(subset)

    def completed(self, cursor: Cursor, subset: list[Move]) -> Move | None:
        """The one move a tap narrowing to ``subset`` makes with the choice
        highlighted now, at a level where the game lets a tap end the move
        (``tap_completes``: a distance shown, then the figure tapped); else
        None, and the tap narrows the menu as anywhere else."""
        opt = cursor.current()
        if opt.kind != BRANCH or cursor.field() not in self.scene.adapter.tap_completes:
            return None
        return cursor.single(Option(BRANCH, moves=tuple(m for m in subset if m in opt.moves)))

    def tapped(self, seat: int, uid: str) -> Component | None:
        """The component a seat's tap names, the seat's pending undo and
        notice dropped; an unknown tag is reported to the seat (None)."""
        self.scene.undo_pending = False
        self.scene.seats[seat].notice = None
        comp = self.component(uid)
        if comp is None:
            self.commit.unknown_tag(seat, uid)
        return comp

    def on_zone_tag(self, reader: str, uid: str) -> None:
        """A piece put on a board zone's reader: for the seat to move, it
        picks that zone (and the piece's own field, a colour) in its menu."""
        sc = self.scene
        zone = next((z for z in self.profile.zones if z.reader.name == reader), None)
        seat = sc.state.to_move()
        field = sc.adapter.zone_field
        if zone is None or field is None or seat is None or seat < 0 or sc.state.outcome() is not None:
            return
        comp = self.tapped(seat, uid)
        if comp is None:
            return
        cursor = sc.cursor_for(seat)

        def narrowed(moves: tuple[Move, ...]) -> list[Move]:
            here = [m for m in moves if flatten(m.to_json()).get(field) == zone.name]
            return sc.adapter.tap(sc.state, seat, comp, here, field) if here else []

        subset = narrowed(cursor.moves)
        if not subset and len(cursor.stack) > 1:
            subset = narrowed(cursor.stack[0][0])
            if subset:
                del cursor.stack[1:]
        if not subset:
            self.commit.refuse(seat, self.zone_refusal(seat, comp, zone.name, cursor.moves))
        elif len(subset) == 1:
            self.commit.play(seat, subset[0])
        else:
            cursor.narrow(subset)

    def zone_refusal(self, seat: int, comp: Component, zone: str, moves: tuple[Move, ...]) -> IllegalMove:
        """Why a piece on a zone fits no move: the engine is asked about the
        move offered now with the zone (and the piece's field) put in it."""
        sc = self.scene
        own = sc.adapter.tap_fields.get(comp.kind)
        for move in moves[:1]:
            data = move.to_json()
            if sc.adapter.zone_field in data:
                probe = {**data, str(sc.adapter.zone_field): zone}
                if own in data:
                    probe[str(own)] = comp.value
                try:
                    sc.state.check(sc.game.move_from_json(probe))
                except IllegalMove as exc:
                    return exc
                except ValueError:
                    pass  # no such move in the notation: say it plainly below
        what = f"{comp.name(sc.lang)} @ {zone}"
        return IllegalMove("table.not-now", sc.adapter.turn_rule, what=what)

    def chance_tap(self, seat: int, comp: Component) -> None:
        sc = self.scene
        drawer = sc.adapter.chance_seat(sc.state)
        if drawer is not None and seat != drawer:
            # A secret draw shows on the screen of the pad it is tapped on:
            # only the drawer's own pad may reveal it.
            self.commit.refuse(seat, IllegalMove("table.draw-own-pad", "", drawer=sc.player(drawer)))
            return
        moves = sc.state.legal_moves()
        subset = sc.adapter.chance_tap(sc.state, comp, moves)
        if len(subset) == 1:
            self.commit.play(None, subset[0])
        elif subset:
            sc.chance_cursor = Cursor.over(moves)
            sc.chance_cursor.narrow(subset)
        else:
            self.commit.refuse(seat, IllegalMove("table.chance-pending", "",
                                                 what=sc.adapter.chance_title(sc.state, sc.lang)))

    def not_your_turn(self, seat: int) -> IllegalMove:
        sc = self.scene
        to_move = sc.state.to_move()
        return IllegalMove("table.not-your-turn", sc.adapter.turn_rule,
                           to_move=sc.player(to_move) if to_move is not None else "-",
                           seat=sc.player(seat))


def off_refused(cursor: Cursor) -> None:
    """After a refused move the menu leaves it, so that the next ● does not
    ask for the same refusal: from its confirm back to the choices, and on
    to the next one."""
    if cursor.current().kind == CONFIRM and len(cursor.stack) > 1:
        cursor.back()
    if len(cursor.options()) > 1:
        cursor.step(1)
        if cursor.current().kind == BACK:
            cursor.step(1)


def chosen_fields(moves: tuple[Move, ...], root: tuple[Move, ...]) -> dict[str, Any]:
    """The fields a menu's earlier picks fixed: one value in ``moves``, more in ``root``."""
    here = [flatten(m.to_json()) for m in moves]
    every = [flatten(m.to_json()) for m in root]
    out = {}
    for key, value in here[0].items() if here else ():
        if all(h.get(key) == value for h in here) and any(e.get(key) != value for e in every):
            out[key] = value
    return out
