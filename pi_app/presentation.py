"""Presentation: every screen laid out from the scene, sent, and the lights set.

It only reads the game (pi_app.scene): nothing here moves a cursor's choice,
changes the game or writes the journal. What it owns is the glass: which
layout each screen shows now, the order frames go out in, the pages a long
screen turns through, a screen that stopped answering tried again, and each
seat's light.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import lru_cache

from PIL import Image

from drivers.base import Light, Screen, ScreenError
from pi_app import computer
from pi_app.i18n import t
from pi_app.menu import BACK, CONFIRM, Cursor
from pi_app.scene import Scene
from pi_app.screens import SMALL, Layout, font, pages, render, wrap
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


def journal_line(reason: str, lang: str) -> str:
    """The shared screen's line for moves the disk has not taken yet."""
    return t("journal-unsaved", lang, reason=t(JOURNAL_FAULTS.get(reason, "journal-io"), lang))


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

    # -- layouts -------------------------------------------------------------------
    def seat_layout(self, seat: int) -> Layout:
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
            menu = self.menu_layout(cursor, sc.adapter.step_title(sc.state, lang))
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
    def send_order(self, names: list[str]) -> list[str]:
        """Feedback first: the acting seat's screen, then the shared screen,
        then the other seats' (on one I2C bus they go one after another)."""
        acting = self.scene.acting
        first = [] if acting is None else [self.profile.seats[acting].screen.name]
        first.append(self.profile.shared_screen.name)
        return [n for n in first if n in names] + [n for n in names if n not in first]

    def redraw(self) -> None:
        sc = self.scene
        changed = {}
        # each screen's layout is worked out just before it is sent: the acting
        # seat's frame does not wait for the others' layouts
        for name in self.send_order(self.screen_names()):
            layout = self.layout_of(name)
            if sc.screen_page and pages(layout) > 1:
                layout = replace(layout, page=sc.screen_page)
            if self.layouts_sent.get(name) == layout:
                continue
            self.layouts_sent[name] = layout
            changed[name] = layout
            screen = self.screens.get(name)
            if screen is None:
                continue
            try:
                screen.show(frame(layout), text=layout.text())
            except ScreenError as exc:  # a screen that stops answering is reported, not fatal
                self.layouts_sent.pop(name, None)  # so it is sent again once it answers
                if name not in sc.faults:
                    log.warning("%s", exc)  # the shared screen itself can say it nowhere else
                    sc.faults[name] = str(exc)
                    self.layouts_sent.pop(self.profile.shared_screen.name, None)
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
