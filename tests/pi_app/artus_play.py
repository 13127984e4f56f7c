"""Play Artus on the simulated table, input by input, checking after every
input that no seat's hand or drawn card shows on a screen it must not."""

from __future__ import annotations

import random
import re

from pi_app.games.artus.words import card_name
from pi_app.simulated.autoplay import choose
from pi_app.ui.screens import SMALL, font, problems, wrap
from rules.core import CHANCE

#: what a card name looks like in any language: a range ("3-6") or a short
#: card code; none may ever reach the shared screen
CARD_LOOK = re.compile(r"\d-\d|\b(Kn|Kg|Ca)[±\d]|Ring-|\bAn-|\b[SP]:")


def hand_text(session, seat: int) -> str:
    return ", ".join(card_name(c, session.scene.lang) for c in session.scene.state.view(seat)["hand"])


def check_screens(rig) -> None:
    """Hands private, the standing big lines whole."""
    s = rig.session
    layouts = s.layouts()
    shared = layouts["shared.screen"]
    if not shared.big.startswith(("Undone", "Annullata")):  # a played card is public
        assert not CARD_LOOK.search(shared.text()), shared.text()
    if s.scene.state.outcome() is None:
        assert problems(shared) == [], shared  # fits or pages
        # the prestige of every seat among the two small lines drawn
        upto = next(i for i, line in enumerate(shared.lines) if line.startswith(("P1:", "G1:")))
        assert sum(len(wrap(line, font(SMALL))) for line in shared.lines[:upto + 1]) <= 2, shared
        if s.scene.log and shared.big == s.scene.log[-1]:
            # An instruction's rest (a bump, a crowning) drawn too, not
            # pushed below the screen's edge by the standing lines.
            for part in s.scene.log[:-1]:
                at = shared.lines.index(part)
                assert sum(len(wrap(line, font(SMALL))) for line in shared.lines[:at + 1]) <= 2, shared
    hands = {p: hand_text(s, p) for p in range(len(s.scene.seats))}
    for q in range(len(s.scene.seats)):
        lay = layouts[f"seat{q + 1}.screen"]
        shown = [lay.big, *lay.lines]
        for p, hand in hands.items():
            if p != q and ", " in hand and hand != hands[q]:  # one card: any hand may hold it
                assert hand not in shown, (p, q, shown)
        drawn = s.scene.adapter.drawn.get(q)
        for p, card in s.scene.adapter.drawn.items():
            if p != q and card != drawn:
                fresh = "new card" if s.scene.lang == "en" else "carta nuova"
                assert not any(line.endswith(f"{fresh}: {card_name(card, s.scene.lang)}")
                               for line in lay.lines), (p, q, lay)
        if s.scene.state.to_move() not in (q, None) and not lay.alert and hands[q]:
            assert lay.big == hands[q] or "Tap the" in lay.big or "Tocca" in lay.big, lay
            assert problems(lay) == [], lay  # the hand in whole names: fits or pages


def step(rig, rng: random.Random, taps: bool = True) -> int:
    """One move (or, at a table entering chance, the drawer's tap); returns inputs."""
    s = rig.session
    seat = s.scene.state.to_move()
    if seat == CHANCE:
        card = s.scene.state.sample_chance().to_json()["card"]
        drawer = s.scene.state.view(None)["drawing"]["player"]
        rig.tap(drawer, f"{card}@{drawer + 1}")
        check_screens(rig)
        return 1
    return rig.make(seat, choose(s, rng), taps=taps, after=check_screens)


def play_moves(rig, rng: random.Random, count: int | None = None) -> int:
    """Play ``count`` moves (or to the end) the way players would."""
    s = rig.session
    inputs = played = 0
    while s.scene.state.outcome() is None and (count is None or played < count):
        inputs += step(rig, rng, taps=rng.random() < 0.6)
        played += 1
    return inputs
