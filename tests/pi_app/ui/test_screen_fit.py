"""Nothing a screen can say is cut off or clipped, measured in pixels with
the real font at 128x64: every catalogue sentence with its longest
parameters, every table phrase, and every line the games' adapters show
through whole simulated games, in English and Italian."""

from __future__ import annotations

import re
import string
from functools import cache
from pathlib import Path

import pytest

import rules
from pi_app import games as table_games
from pi_app import i18n
from pi_app import names as players_
from pi_app.session.loop import ARROWS as ARROWS_FOOTER
from pi_app.simulated.demo import Night
from pi_app.ui.screens import Layout, pages, plan, problems, render
from rules import catalogue, sections
from rules.catalogue import LANGS

GAMES = [g for g in ("king-is-dead", "king-and-assassins", "mordred", "artus", "siege") if g in rules.GAMES]


def _game_of(code: str) -> list[str]:
    for game in GAMES:
        if code.startswith(game + ".") or code.startswith(f"table.{game.split('-')[0]}."):
            return [game]
    return GAMES


@cache
def _vocabulary(game: str, lang: str) -> tuple[str, ...]:
    """Every name a parameter of ``game`` can hold on a screen."""
    players = max(rules.get(game).player_counts)
    adapter = table_games.for_game(game, players, lang)
    words = {c.name(lang) for c in adapter.components()}
    words |= {players_.display_name(game, s, lang, names=["W" * players_.MAX_NAME], computer=True)
              for s in range(players)}
    words |= {pair[i18n.LANGS.index(lang)] for vocab in catalogue._WORDS.values() for pair in vocab.values()}
    return tuple(sorted(words, key=len))


def _longest(template: str, game: str, lang: str) -> str:
    names = [f for _, f, _, _ in string.Formatter().parse(template) if f]
    longest = _vocabulary(game, lang)[-1]
    return template.format(**{re.split(r"[.\[]", n)[0]: longest for n in names})


def _refusal(code: str, lang: str) -> list[Layout]:
    out = []
    pair = catalogue._MESSAGES[code]
    for game in _game_of(code):
        message = _longest(pair[i18n.LANGS.index(lang)], game, lang)
        rule = max((s[i18n.LANGS.index(lang)] for s in sections.table(game).values()), key=len)
        out.append(Layout(title=i18n.t("refused", lang), lines=(message, i18n.t("rule", lang, rule=rule)),
                          alert=True))
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_every_catalogue_sentence_fits_or_pages(lang: str) -> None:
    found = []
    for code in sorted(catalogue._MESSAGES):
        for layout in _refusal(code, lang):
            found += [f"{code}: {p}" for p in problems(layout)]
    assert not found, "\n".join(found[:20])


@pytest.mark.parametrize("lang", LANGS)
def test_every_table_phrase_fits_as_a_title_a_big_line_and_a_line(lang: str) -> None:
    found = []
    for key, pair in i18n._TEXT.items():
        text = _longest(pair[i18n.LANGS.index(lang)], GAMES[0], lang)
        for layout in (Layout(title=text, big="x", lines=("y",), footer=ARROWS_FOOTER),
                       Layout(title="x", big=text, lines=("y",), footer=ARROWS_FOOTER),
                       Layout(title="x", big="y", lines=(text, text), footer=ARROWS_FOOTER)):
            found += [f"{key}: {p}" for p in problems(layout)]
    assert not found, "\n".join(found[:20])


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_every_screen_of_a_whole_game_fits_or_pages(tmp_path: Path, game: str, lang: str) -> None:
    night = Night(tmp_path, lang=lang)
    configs = [c for c in night.games(game)]
    g, players, options = max(configs, key=lambda c: (c[1], len(c[2])))
    report = night.play(g, players, options)
    listed = (tmp_path / f"{g}-{players}p{''.join(f'-{k}-{v}' for k, v in options.items())}.problems.txt")
    assert report.cut == 0, listed.read_text(encoding="utf-8")[:2000]
    # No rulebook section in the other language on any screen.
    said = "\n".join(words for shots in report.screens.values() for _, words in shots)
    other = {pair[1 - LANGS.index(lang)] for pair in sections.table(g).values() if pair[0] != pair[1]}
    assert not [name for name in other if f": {name}" in said], "a section named in the other language"


def test_a_line_that_reached_the_button_bar_is_moved_clear_of_it() -> None:
    # The menu seen at a King is Dead seat: the big line wraps to two lines
    # and "● confirm 1/2" used to lose its bottom row against the bar.
    layout = Layout(title="Crown: 2", big="Swap the Aquae Sulis card", lines=("● confirm  1/2",),
                    footer=ARROWS_FOOTER)
    assert problems(layout) == []
    img = render(layout)
    bar = 64 - 10 - 2
    assert all(img.getpixel((x, bar - 1)) == 0 for x in range(128)), "ink touches the bar"


def test_a_sentence_too_long_for_one_screen_pages_and_says_so() -> None:
    long = ("Day 6: Attacker; Attacker events: Reinforcements: Knight; Knight arrives in row 2; "
            "Remove Peasant (castle wall breached)")
    layout = Layout(title="Turn: Attacker", big=long, lines=("Food 3", "Cards 5"))
    n = pages(layout)
    assert n > 1
    shown = []
    for page in range(n):
        layout_p = Layout(title=layout.title, big=long, lines=layout.lines, page=page)
        assert problems(layout_p) == []
        text = render(layout_p)
        assert text.getbbox() is not None
    for page in range(n):
        where = plan(Layout(title=layout.title, big=long, lines=layout.lines, page=page))
        shown += [p.text for p in where.placed if p.part in ("big", "line")]
        assert any(p.part == "page" and p.text == f"{page + 1}/{n}" for p in where.placed)
    assert " ".join(shown).split() == [*long.split(), "Food", "3", "Cards", "5"]


def test_the_session_turns_the_pages_of_a_screen_that_takes_more_than_one(rig) -> None:
    r = rig(2)
    s = r.open("king-is-dead")
    words = tuple(f"Line {i} of a long notice" for i in range(9))
    s.scene.seats[0].notice = Layout(title="Notice", lines=words)
    s.redraw()
    first = r.table.frames("seat1.screen")[-1]
    s.scene.page_seconds = 0.001
    s.scene.screen_page_at = 0.0
    s.tick()
    second = r.table.frames("seat1.screen")[-1]
    assert first.tobytes() != second.tobytes()
    placed = plan(s.presentation.layouts_sent["seat1.screen"]).placed
    assert "2/" in " ".join(p.text for p in placed if p.part == "page")


def test_a_big_letter_reaching_out_left_is_moved_clear_of_the_edge() -> None:
    # Siege's menu at a seat: the bold "J" at 20 px inks a column left of
    # its origin, which was cut at the screen's edge (seen in a whole game)
    layout = Layout(title="Your turn: play or pass", big="Join attack", lines=("Action  1/3",),
                    footer=ARROWS_FOOTER)
    assert not problems(layout)
    big = next(p for p in plan(layout).placed if p.part == "big")
    assert big.size == 20 and big.box[0] == 0
