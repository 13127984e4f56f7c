"""Presentation: what happened put into words, every screen laid out from
the scene, sent, and the lights set.

Input, commit and the loop record what happened as a Notice (a kind, a
seat, a refusal, a move); :meth:`Presentation.tell` is the one place it
becomes words, in the table's language: a seat's notice, the shared
screen's, the instructions, the transcript's line. Beyond those words it
only reads the game (pi_app.session.scene): nothing here moves a cursor's
choice, changes the game or writes the journal. What it owns is the glass:
which layout each screen shows now, the order frames go out in, the pages a
long screen turns through, a screen that stopped answering tried again, and
each seat's light.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import lru_cache

from PIL import Image

import rules
from drivers.base import Light, Screen, ScreenError
from pi_app import games
from pi_app.i18n import t
from pi_app.session import computer
from pi_app.session.scene import Notice, Record, Scene
from pi_app.ui.menu import BACK, CONFIRM, Cursor
from pi_app.ui.screens import SMALL, Layout, font, pages, pressed, render, wrap
from rules import sections
from rules.core import CHANCE

FLASH_SECONDS = 0.8
ARROWS = "◀   ●   ▶"
SCREEN_RETRY_SECONDS = 1.0  # a screen that stopped answering is tried again this often

#: JournalWriteError.reason -> the words the shared screen says it with
JOURNAL_FAULTS = {"disk full": "journal-full", "I/O error": "journal-io", "read-only": "journal-readonly"}

log = logging.getLogger(__name__)


# A screen's layout comes back often (a menu's items as the cursor goes to
# and fro, "waiting" between turns), and render is a pure function of it:
# the frame is kept per layout. Bounded: Pillow keeps a frame's pixels a byte
# each (8 KiB), its key a screenful of words and at most a 64x64 picture (4
# KiB more): 64 of them take 0.5-0.8 MB (7.4 KiB a frame measured in RSS).
FRAMES_KEPT = 64


@lru_cache(maxsize=FRAMES_KEPT)
def _kept_frame(layout: Layout) -> Image.Image:
    return render(layout)


def frame(layout: Layout) -> Image.Image:
    """``render(layout)``, drawn once per layout while it is kept; a copy, so
    that whoever is handed it may keep or change it."""
    return _kept_frame(layout).copy()


#: JournalWriteError.reason -> what the players can do about it
JOURNAL_FIXES = {"disk full": "journal-fix-full", "I/O error": "journal-fix-io",
                 "read-only": "journal-fix-readonly"}


def journal_line(reason: str, lang: str) -> str:
    """The shared screen's line for moves the disk has not taken yet."""
    return t("journal-unsaved", lang, reason=t(JOURNAL_FAULTS.get(reason, "journal-io"), lang))


def refused_layout(reason: str, lang: str) -> Layout:
    """Every screen while the journal refuses a move: why, what to do, and
    that the table tries again by itself."""
    why = t("move-unsaved-why", lang, reason=t(JOURNAL_FAULTS.get(reason, "journal-io"), lang))
    return Layout(title=t("move-unsaved", lang), alert=True, lines=(
        why, t(JOURNAL_FIXES.get(reason, "journal-fix-io"), lang), t("unsaved-retrying", lang),
        t("unsaved-hold", lang)))


class Presentation:
    def __init__(self, scene: Scene, screens: Mapping[str, Screen], lights: Mapping[str, Light]) -> None:
        self.scene = scene
        self.profile = scene.profile
        self.screens = screens
        self.lights = lights
        self.layouts_sent: dict[str, Layout] = {}  # screen -> the layout it shows now
        #: called with the layouts that changed (the console)
        self.observer: Callable[[dict[str, Layout]], None] | None = None
        self.screens_tried = time.monotonic()
        self.faults_checked: set[str] = set()  # the faults retry_screens last saw
        #: screens showing an input's acknowledgement: sent their layout's own frame at the next redraw
        self.acknowledged: set[str] = set()

    # -- what happened, in words ---------------------------------------------------------
    def tell(self, notice: Notice) -> None:
        """Put what happened into words where the table reads them."""
        sc = self.scene
        lang, kind, seat = sc.lang, notice.kind, notice.seat
        if kind in ("move", "chance"):
            words = sc.adapter.record_text(notice.move, lang, notice.params.get("secret", False))
            sc.transcript.append(Record(kind, seat, words, notice.move, {"events": notice.params["events"]}))
        elif kind == "refused":
            self.refused(notice)
        elif kind == "unknown-tag":
            self.unknown_tag(notice)
        elif kind == "legend":  # ● held: the short forms spelled out
            lines = sc.adapter.legend(sc.state, lang) or [t("legend-none", lang)]
            self.seat_notice(seat, kind, Layout(title=t("legend", lang), lines=tuple(lines)))
        elif kind == "undo-ask":
            sc.pending_text = sc.adapter.move_text(notice.move, lang)
        elif kind == "undo-done":
            text = t("undo-done", lang, move=sc.adapter.move_text(notice.move, lang))
            sc.log = [text]
            sc.transcript.append(Record("undo", seat, text, notice.move))
        elif kind == "undo-barrier":
            what = t("undo-barrier-chance" if notice.params["chance"] else "undo-barrier-secret", lang)
            sc.shared_notice = Layout(title=t("undo-barrier", lang, what=what), alert=True)
            sc.transcript.append(Record("refused", None, sc.shared_notice.title))
        elif kind == "undo-failed":
            words = t(JOURNAL_FAULTS.get(notice.params["reason"], "journal-io"), lang)
            sc.shared_notice = Layout(title=t("undo-failed", lang, reason=words), alert=True)
        elif kind in ("undo-none", "undo-cancelled"):
            sc.shared_notice = Layout(title=t(kind, lang))
        elif kind in ("undo-unsaved", "internal-error"):
            sc.shared_notice = Layout(title=t(kind, lang), alert=True)
        elif kind == "journal-unsaved":  # a move kept in memory, the players having chosen to go on
            sc.transcript.append(Record("note", None, journal_line(notice.params["reason"], lang)))
        elif kind == "journal-refused":  # a move the journal did not take: as if never played
            sc.transcript.append(Record("refused", None, journal_line(notice.params["reason"], lang)))
        elif kind == "unsaved-chosen":
            sc.transcript.append(Record("note", None, t("unsaved-chosen", lang)))
        elif kind in ("started", "resumed"):
            sc.note(t(kind, lang, **notice.params))
        elif kind == "computer-move":  # notice.move None: a secret one, which the table is not told
            text = None if notice.move is None else sc.adapter.move_text(notice.move, lang)
            sc.computer_line = computer.said(sc.player(seat), text, lang)
            sc.log = [*sc.log, sc.computer_line]
            sc.transcript.append(Record("said", None, sc.log[-1], extra={"lines": sc.log[-1:]}))
        else:
            raise ValueError(f"no words for a notice of kind {kind!r}")

    def seat_notice(self, seat: int | None, kind: str, layout: Layout) -> None:
        if seat is not None:
            ui = self.scene.seats[seat]
            ui.notice, ui.notice_kind = layout, kind

    def refused(self, notice: Notice) -> None:
        """Why, on the seat's screen and in the transcript (a computer's
        screen shows no notices: nobody reads it)."""
        sc, exc, seat = self.scene, notice.error, notice.seat
        assert exc is not None and seat is not None
        message = exc.message(sc.lang, sc.player)
        rule = sections.name(sc.record.game, exc.rule, sc.lang)
        # The table's own refusals (a tap out of turn) break no rule of the
        # game: a section heading cited there explains nothing.
        cite = rule and not exc.code.startswith("table.")
        lines = [message] + ([t("rule", sc.lang, rule=rule)] if cite else [])
        if seat not in sc.computers:
            self.seat_notice(seat, "refused", Layout(title=t("refused", sc.lang), lines=tuple(lines),
                                                     alert=True))
        sc.transcript.append(Record("refused", seat, message, extra={"code": exc.code, "rule": rule}))

    def unknown_tag(self, notice: Notice) -> None:
        sc, tag, seat, lang = self.scene, notice.tag, notice.seat, self.scene.lang
        uid = notice.params["uid"]
        if tag is None:
            detail = t("unknown-tag-detail", lang, uid=uid, game=sc.record.game)
        elif tag.game == sc.record.game:
            detail = t("tag-not-for-players", lang, component=tag_words(tag.game, tag.component, lang),
                       players=sc.record.players)
        else:
            detail = t("tag-not-in-game", lang, component=tag_words(tag.game, tag.component, lang),
                       game=game_words(tag.game))
        if seat not in sc.computers:
            self.seat_notice(seat, "unknown-tag", Layout(title=t("unknown-tag", lang), lines=(detail,),
                                                         alert=True))
        sc.transcript.append(Record("unknown-tag", seat, detail, extra={"uid": uid}))

    # -- layouts -------------------------------------------------------------------
    def seat_layout(self, seat: int) -> Layout:
        sc = self.scene
        if sc.journal_fault is not None and not sc.unsaved_ok:
            return refused_layout(sc.journal_fault, sc.lang)
        layout = self._seat_layout(seat)
        if sc.unsaved_ok:  # until the journal catches up
            return replace(layout, lines=(t("game-unsaved", sc.lang), *layout.lines))
        return layout

    def _seat_layout(self, seat: int) -> Layout:
        sc = self.scene
        ui = sc.seats[seat]
        lang = sc.lang
        if seat in sc.computers and sc.state.outcome() is None:
            return computer.seat_layout(seat, sc.player(seat), sc.state.to_move(), lang,
                                        getattr(sc.computers[seat], "level", None))
        if ui.notice is not None:
            return ui.notice
        outcome = sc.state.outcome()
        if outcome is not None:
            big, lines = sc.adapter.outcome_lines(outcome, lang)
            return Layout(title=t("game-over", lang), big=big, lines=tuple(lines))
        to_move = sc.state.to_move()
        if to_move == seat:
            cursor = sc.cursor_for(seat)
            menu = self.menu_layout(cursor, sc.adapter.menu_title(sc.state, cursor, lang))
            return replace(menu, image=sc.adapter.picture(sc.state, seat, cursor))
        big, lines = sc.adapter.private_lines(sc.state, seat, lang)
        waiting = (sc.adapter.chance_title(sc.state, lang) if to_move == CHANCE
                   else t("waiting-for", lang, seat=sc.player(to_move)))
        return Layout(title=waiting, big=big, lines=tuple(lines),
                      image=sc.adapter.picture(sc.state, seat, None))

    def menu_layout(self, cursor: Cursor, title: str) -> Layout:
        sc = self.scene
        lang = sc.lang
        opt = cursor.current()
        pos, count = cursor.position()
        if opt.kind == CONFIRM:
            big = sc.adapter.move_text(opt.moves[0].to_json(), lang)
            sub = f"● {t('confirm', lang)}"
        elif opt.kind == BACK:
            big, sub = f"← {t('back', lang)}", ""
        else:
            # the ● that picks this move confirms it: the screen says so, as a confirm's does
            move = cursor.single(opt) if cursor.confirmed_by_choice(opt) else None
            if move is not None:
                big = sc.adapter.chosen_label(move, opt.field, opt.value, lang)
                sub = f"● {t('confirm', lang)}"
            else:
                big = sc.adapter.value_label(opt.field, opt.value, lang)
                sub = sc.adapter.field_label(opt.field, lang)
        lines = (f"{sub}  {pos}/{count}".strip(),)
        if sub and len(wrap(lines[0], font(SMALL))) > 1:
            # A long label (a hand of cards) and the counter each on a line of its own.
            lines = (sub, f"{pos}/{count}")
        return Layout(title=title, big=big, lines=lines, footer=ARROWS)

    def paging(self) -> bool:
        """The shared screen takes the instructions in turn on its big line:
        below it the standing lines (scores) leave no room for earlier ones,
        and every instruction is something to do on the table."""
        return bool(self.scene.page_seconds) and len(self.scene.log) > 1

    def shared_layout(self) -> Layout:
        sc = self.scene
        lang = sc.lang
        if sc.journal_fault is not None and not sc.unsaved_ok:
            return refused_layout(sc.journal_fault, lang)
        if sc.undo_pending:
            return Layout(title=t("undo-ask", lang), big=sc.pending_text,
                          lines=(t("undo-confirm", lang),), alert=True)
        faults = tuple(t("reader-fault", lang, reader=r) for r in sc.faults)
        if sc.journal_fault is not None:
            faults = (journal_line(sc.journal_fault, lang), *faults)
        outcome = sc.state.outcome()
        if outcome is not None:
            big, lines = sc.adapter.outcome_lines(outcome, lang)
            return Layout(title=t("game-over", lang), big=big, lines=faults + tuple(lines))
        chance = sc.state.is_chance() and self.profile.chance == "table"
        if chance and sc.adapter.chance_seat(sc.state) is None:
            cursor = sc.chance_cursor or Cursor.over(sc.state.legal_moves())
            return self.menu_layout(cursor, sc.adapter.chance_title(sc.state, lang))
        head = sc.shared_notice
        to_move = sc.state.to_move()
        title = (head.title if head else sc.adapter.chance_title(sc.state, lang) if chance
                 else t("turn-of", lang, seat=sc.player(to_move)))
        if self.paging() and not head:
            page = sc.page % len(sc.log)
            return Layout(title=f"{title} · {page + 1}/{len(sc.log)}", big=sc.log[page],
                          lines=faults + tuple(sc.adapter.public_lines(sc.state, lang)))
        big = sc.log[-1] if sc.log else ""
        earlier = sc.log[:-1][-2:]
        return Layout(title=title, big=big, alert=bool(head and head.alert),
                      lines=faults + tuple(sc.adapter.public_lines(sc.state, lang)) + tuple(earlier))

    def screen_names(self) -> list[str]:
        names = [self.profile.seats[s.index].screen.name for s in self.scene.seats]
        names.append(self.profile.shared_screen.name)
        return names

    def layouts(self) -> dict[str, Layout]:
        out = {self.profile.seats[s.index].screen.name: self.seat_layout(s.index) for s in self.scene.seats}
        out[self.profile.shared_screen.name] = self.shared_layout()
        return out

    def layout_of(self, name: str) -> Layout:
        """What screen ``name`` says now: its entry of :meth:`layouts`."""
        for ui in self.scene.seats:
            if self.profile.seats[ui.index].screen.name == name:
                return self.seat_layout(ui.index)
        return self.shared_layout()

    # -- the glass -----------------------------------------------------------------
    def acknowledge(self, seat: int, item: str) -> None:
        """The seat sees at once that its input was taken, before it is
        worked out: the frame its screen shows with ``item`` of the button
        bar pressed (pi_app.ui.screens.pressed: one or two pages of bus).
        It claims nothing about the input: the seat's next frame, sent once
        the move is checked and on disk, says what it meant. Only a screen
        showing a button bar is acknowledged; a screen that is not answering
        is left to redraw."""
        name = self.profile.seats[seat].screen.name
        layout = self.layouts_sent.get(name)
        screen = self.screens.get(name)
        if layout is None or not layout.footer or screen is None or name in self.scene.faults:
            return
        self.acknowledged.add(name)  # even half-sent, the next redraw sends the layout's own frame
        try:
            screen.show(pressed(layout, frame(layout), item), text=layout.text())
        except ScreenError:
            self.layouts_sent.pop(name, None)  # redraw reports it and sends it again once it answers

    def send_order(self, names: list[str]) -> list[str]:
        """Feedback first: the acting seat's screen, then the seat to move
        next (it has something to do), then the shared screen, then the
        other seats' (on one I2C bus they go one after another)."""
        sc = self.scene
        acting = sc.acting
        first = [] if acting is None else [self.profile.seats[acting].screen.name]
        to_move = sc.state.to_move()
        if isinstance(to_move, int) and 0 <= to_move < len(self.profile.seats):
            first.append(self.profile.seats[to_move].screen.name)
        first.append(self.profile.shared_screen.name)
        return [n for n in dict.fromkeys(first) if n in names] + [n for n in names if n not in first]

    def failed(self, name: str, exc: ScreenError) -> None:
        """Screen ``name`` did not take its frame: said on the shared screen
        (and in the log, the shared screen itself can say it nowhere else),
        sent again once it answers."""
        sc = self.scene
        self.layouts_sent.pop(name, None)  # so it is sent again once it answers
        if name not in sc.faults:
            log.warning("%s", exc)
            sc.faults[name] = str(exc)
            self.layouts_sent.pop(self.profile.shared_screen.name, None)

    def redraw(self, then: Callable[[], None] | None = None) -> None:
        """Every screen whose layout changed is sent its frame, in
        :meth:`send_order`. ``then`` (the lights) runs once the acting
        seat's frame is handed to its screen, before the other screens are
        laid out; first, when no seat is acting."""
        sc = self.scene
        changed = {}
        shown: list[str] = []
        order = self.send_order(self.screen_names())
        acting = None if sc.acting is None else self.profile.seats[sc.acting].screen.name
        if then is not None and acting not in order:
            then()
            then = None
        # each screen's layout is worked out just before it is sent: the acting
        # seat's frame does not wait for the others' layouts
        for name in order:
            if then is not None and name != acting:  # the acting seat's frame is out (or unchanged)
                then()
                then = None
            layout = self.layout_of(name)
            if sc.screen_page and pages(layout) > 1:
                layout = replace(layout, page=sc.screen_page)
            same = self.layouts_sent.get(name) == layout
            if same and name not in self.acknowledged:
                continue
            self.acknowledged.discard(name)
            self.layouts_sent[name] = layout
            if not same:
                changed[name] = layout
            screen = self.screens.get(name)
            if screen is None:
                continue
            try:
                screen.show(frame(layout), text=layout.text())
            except ScreenError as exc:  # a screen that stops answering is reported, not fatal
                self.failed(name, exc)
                continue
            shown.append(name)
        if then is not None:  # the acting seat's screen was the only one
            then()
        # A bus's sender sends while the next screen is laid out and drawn;
        # redraw returns once every frame is on its screen.
        for name in shown:
            try:
                getattr(self.screens[name], "flush", lambda: None)()
            except ScreenError as exc:
                self.failed(name, exc)
                continue
            if sc.faults.pop(name, None) is not None:
                self.layouts_sent.pop(self.profile.shared_screen.name, None)
        if changed and self.observer is not None:
            self.observer(changed)

    def forget(self) -> None:
        """Every screen is sent again at the next redraw (a screen was replaced)."""
        self.layouts_sent.clear()

    def tick(self, now: float) -> None:
        """What changes with time alone: the shared screen's page of
        instructions, every long screen's page, a refusal's blinking light, a screen that answers again."""
        sc = self.scene
        if self.paging() and now - sc.page_at >= (sc.page_seconds or 0.0):
            sc.page = (sc.page + 1) % len(sc.log)
            sc.page_at = now
            self.redraw()
        if sc.page_seconds and now - sc.screen_page_at >= sc.page_seconds:
            sc.screen_page_at = now
            if any(pages(layout) > 1 for layout in self.layouts_sent.values()):
                sc.screen_page += 1
                self.redraw()
        for seat, until in list(sc.flash_until.items()):
            if now >= until:
                del sc.flash_until[seat]
        self.retry_screens(now)
        self.set_lights()

    def retry_screens(self, now: float) -> None:
        """A screen that stopped answering gets the frame of now as soon as
        it answers again, and the shared screen its fault lines (a fault that
        began or ended while the screens were drawn), even while nothing
        happens at the table."""
        sc = self.scene
        shared = self.profile.shared_screen.name
        due = now - self.screens_tried >= SCREEN_RETRY_SECONDS
        for _ in range(2):  # a screen that answers again changes the shared screen's lines
            faulty = sc.faults.keys() & self.screens.keys()
            # the shared layout is only worked out when the faults changed: it is not cheap
            changed = sc.faults.keys() != self.faults_checked and shared not in sc.faults
            self.faults_checked = set(sc.faults)
            stale = changed and self.layouts_sent.get(shared) != self.shared_layout()
            if not (stale or (faulty and due)):
                return
            self.screens_tried, due = now, False
            self.redraw()

    # -- lights --------------------------------------------------------------------
    def set_lights(self) -> None:
        """The seat to move is lit (the winners, once the game is over); a
        seat whose light blinks a refusal is left blinking."""
        sc = self.scene
        to_move = sc.state.to_move()
        outcome = sc.state.outcome()
        for ui in sc.seats:
            light = self.lights.get(self.profile.seats[ui.index].light.name)
            if light is None or ui.index in sc.flash_until:
                continue
            lit = ui.index in outcome.winners if outcome is not None else ui.index == to_move
            if lit:
                light.on()
            else:
                light.off()

    def flash(self, seat: int) -> None:
        """The seat's light blinks for FLASH_SECONDS: its input was refused."""
        light = self.lights.get(self.profile.seats[seat].light.name)
        if light is not None:
            light.blink()
        self.scene.flash_until[seat] = time.monotonic() + FLASH_SECONDS


def game_words(game: str) -> str:
    """A game's title; the id only for a game this box does not know."""
    try:
        return rules.get(game).name or game
    except (KeyError, ValueError):
        return game


def tag_words(game: str, component: str, lang: str) -> str:
    """A component of any game as its screens name it (its id only when
    that game does not know it)."""
    try:
        players = max(rules.get(game).player_counts)
    except (KeyError, ValueError):
        return component
    comp = games.for_game(game, players, lang).component(component)
    return comp.name(lang) if comp is not None else component
