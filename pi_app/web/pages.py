"""The spectator pages as HTML: the live game, a game's report, the night.

Every function here reads :class:`~pi_app.web.story.Story` (public by
construction) and the source's status; nothing reads the journal itself.
The pages are whole without JavaScript; ``app.js`` only swaps the live part
when the server says the journal changed.
"""

from __future__ import annotations

import time
from html import escape

from pi_app.store.journal import GameRecord
from pi_app.web import board, report
from pi_app.web.source import Source
from pi_app.web.story import Story, public_steps
from pi_app.web.words import duration, w
from rules.core import CHANCE


def shell(title: str, body: str, lang: str, live: str | None = None, style: str | None = None) -> str:
    """A whole page; ``live``: the address of its part that follows the game;
    ``style``: the style sheet itself, for a file read away from the box
    (then the page has no links back to it)."""
    data = f' data-live="{escape(live)}"' if live else ""
    if style is None:
        head = '<link rel="stylesheet" href="/static/style.css"><script src="/static/app.js" defer></script>'
        nav = (f'<header><a href="/">{escape(w("title", lang))}</a> · '
               f'<a href="/night">{escape(w("night-report", lang))}</a></header>')
    else:
        head, nav = f"<style>{style}</style>", ""
    return (f'<!doctype html>\n<html lang="{lang}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(title)}</title>{head}</head>"
            f'<body{data}>{nav}<main id="live">{body}</main></body></html>\n')


def heading(story: Story, number: int | None = None) -> str:
    """The game's name, number and players, as HTML."""
    return escape(title(story, number), quote=False)


def title(story: Story, number: int | None = None) -> str:
    """``number``: the game's place where it is not its journal's (a night of several journals)."""
    lang = story.lang
    rec = story.record
    n = rec.id if number is None else number
    return f"{story.name} · {w('game-n', lang, n=n)} · {w('players', lang, n=rec.players)}"


def notices(source: Source, story: Story | None) -> str:
    lang = source.lang
    out = []
    if source.problem is not None:
        fault = w("busy", lang) if source.problem == "busy" else source.problem
        out.append(w("problem", lang, fault=fault))
    if story is not None and story.record.id in source.faults:
        out.append(w("game-problem", lang, fault=source.faults[story.record.id]))
    return "".join(f'<p class="problem" role="alert">{escape(line)}</p>' for line in out)


def live(source: Source, story: Story | None) -> str:
    """The live part of the page: the game as it stands, and the night's games."""
    lang = source.lang
    if story is None:
        empty = w("no-journal", lang) if source.missing else w("no-games", lang)
        return notices(source, None) + f'<p class="status">{escape(empty)}</p>'
    steps = public_steps(story)
    parts = [notices(source, story), f'<h1 data-moves="{len(steps)}">{heading(story)}</h1>',
             f'<p class="status">{escape(status(story))}</p>']
    if story.outcome is not None:
        big, lines = story.outcome
        parts.append(f'<section class="outcome"><h2>{escape(big)}</h2>'
                     + "".join(f"<p>{escape(line)}</p>" for line in lines) + "</section>")
    said = story.said or [w("nothing-told", lang)]
    parts.append(f'<section class="said"><h2>{escape(w("told", lang))}</h2><ul>'
                 + "".join(f"<li>{escape(line)}</li>" for line in said) + "</ul></section>")
    parts.append(f'<section><h2>{escape(w("scores", lang))}</h2>{scores(story)}</section>')
    parts.append(f'<section><h2>{escape(w("board", lang))}</h2>'
                 f"{board.draw(story.view, story.labels, lang)}</section>")
    parts.append(f'<section><h2>{escape(w("moves", lang))}</h2>{moves(story, steps)}</section>')
    parts.append(links(story))
    parts.append(games(source, story))
    return "".join(parts)


def status(story: Story) -> str:
    lang = story.lang
    if story.outcome is not None:
        return w("game-over", lang)
    if story.record.ended:
        return w("abandoned", lang)
    if story.to_move == CHANCE:
        return w("chance-turn", lang)
    if story.to_move is None:
        return w("game-over", lang)
    return w("turn-of", lang, seat=story.player(story.to_move, lang))


def scores(story: Story) -> str:
    lang = story.lang
    if story.score_name is None or not story.running:
        return f"<p>{escape(w('no-running-score', lang))}</p>"
    now = story.running[-1][1]
    title = story.score_name[:1].upper() + story.score_name[1:]  # "Punti vittoria: ...", a sentence's start
    return (f"<p>{escape(title)}: "
            + ", ".join(f"{escape(story.player(i, lang))} <strong>{v:g}</strong>"
                        for i, v in enumerate(now))
            + "</p>")


def moves(story: Story, steps: list[dict]) -> str:
    lang = story.lang
    if not steps:
        return f"<p>{escape(w('no-moves', lang))}</p>"
    items = []
    for s in reversed(steps):  # the newest first: what a latecomer wants to read
        who = story.player(s["seat"], lang) if s["seat"] is not None else w("chance", lang)
        if s["secret"]:
            key = "drew-secret" if s["chance"] else "chose-secret"
            what = escape(w(key, lang, seat=who))
        else:
            # The table's draws and rolls read as a label: "The table: Round card 12".
            colon = ":" if s["seat"] is None else ""
            what = f"<b>{escape(who)}{colon}</b> {escape(s['words'])}"
        # To the minute while the game runs: a page is no clock of the draws.
        at = time.strftime("%H:%M:%S" if story.over else "%H:%M", time.localtime(s["at"]))
        items.append(f'<li value="{s["n"]}"><time>{at}</time> {what}</li>')
    return f'<ol reversed class="moves">{"".join(items)}</ol>'


def links(story: Story) -> str:
    lang = story.lang
    gid = story.record.id
    return (f'<p class="links"><a href="/game/{gid}/report">{escape(w("report", lang))}</a><br>'
            f'<a href="/game/{gid}/log.jsonl" download="game-{gid}.jsonl">'
            f'{escape(w("download", lang))}</a></p>')


EARLIER = 10  # earlier nights' games listed under the game, the latest first; the rest a page each


def games(source: Source, here: Story | None) -> str:
    lang = source.lang
    nights = source.nights()
    if not nights:
        return ""
    tonight = [source.summary(r) for r in nights[-1]]
    out = [f'<section><h2>{escape(w("games-tonight", lang))}</h2>{game_list(tonight, here)}</section>']
    earlier = [r for night in nights[:-1] for r in night]
    if earlier:
        out.append(f'<section><h2>{escape(w("earlier", lang))}</h2>{earlier_list(source, earlier, 0, here)}'
                   "</section>")
    return "".join(out)


def earlier_list(source: Source, earlier: list[GameRecord], page: int, here: Story | None) -> str:
    """Page ``page`` (from 0) of the earlier nights' games, the latest first,
    with a link to the next page: a page reads only the games it lists."""
    lang = source.lang
    newest_first = earlier[::-1][page * EARLIER:(page + 1) * EARLIER]
    html = game_list([source.summary(r) for r in reversed(newest_first)], here)
    if (page + 1) * EARLIER < len(earlier):
        left = len(earlier) - (page + 1) * EARLIER
        html += (f'<p class="links"><a href="/earlier/{page + 1}">'
                 f'{escape(w("more-games", lang, n=left))}</a></p>')
    return html


def earlier_page(source: Source, page: int) -> str | None:
    """A page of the earlier nights' games; None past the last one."""
    earlier = [r for night in source.nights()[:-1] for r in night]
    if page * EARLIER >= len(earlier) and page:
        return None
    return (f"<h1>{escape(w('earlier', source.lang))}</h1>"
            + earlier_list(source, earlier, page, None))


def game_list(stories: list[Story], here: Story | None) -> str:
    items = []
    for s in reversed(stories):
        mark = ' aria-current="page"' if here is not None and s.record.id == here.record.id else ""
        items.append(f'<li><a href="/game/{s.record.id}"{mark}>{heading(s)}</a> · '
                     f"{escape(report.result_words(s))}</li>")
    return f'<ul class="games">{"".join(items)}</ul>'


def game_report(source: Source, story: Story) -> str:
    lang = story.lang
    parts = [notices(source, story), f"<h1>{heading(story)}</h1>",
             f'<p class="status">{escape(report.result_words(story))} · '
             f"{escape(duration(report.game_time(story), lang))}</p>",
             f'<section><h2>{escape(w("scores", lang))}</h2>{report.plot(story)}</section>',
             f'<section><h2>{escape(w("times", lang))}</h2>{report.times_table(story)}</section>',
             f'<section><h2>{escape(w("refusals", lang))}</h2>{report.game_refusals(story)}</section>',
             links(story)]
    return "".join(parts)


def night_report(stories: list[Story], lang: str) -> str:
    """The night: every game in a table, the total time, the refusals, and
    each game's report below."""
    head = w("night-head", lang).split("|")
    rows = "".join(
        f'<tr><td><a href="#game-{i}">{escape(s.name)}</a></td>'
        f"<td>{s.record.players}</td><td>{report.moves_made(s)}</td>"
        f"<td>{escape(duration(report.game_time(s), lang))}</td>"
        f"<td>{escape(report.result_words(s))}</td></tr>" for i, s in enumerate(stories, start=1))
    total = sum(report.game_time(s) for s in stories)
    summary = w("night-total", lang, games=len(stories), moves=sum(report.moves_made(s) for s in stories),
                time=duration(total, lang))
    parts = [f"<h1>{escape(w('night-report', lang))}</h1>", f"<p>{escape(summary)}</p>",
             '<div class="scroll"><table><tr>' + "".join(f"<th>{escape(h)}</th>" for h in head)
             + f"</tr>{rows}</table></div>",
             f'<section><h2>{escape(w("refusals", lang))}</h2>'
             f"{report.night_refusals(stories, lang)}</section>"]
    # the demo plays each game in a journal of its own, each its journal's game 1: numbered as the night's
    ids = [s.record.id for s in stories]
    own = len(set(ids)) == len(ids)
    for i, s in enumerate(stories, start=1):
        parts.append(f'<section id="game-{i}"><h2>{heading(s, None if own else i)}</h2>'
                     f'<p class="status">{escape(report.result_words(s))}</p>'
                     f"{report.plot(s)}<h3>{escape(w('times', lang))}</h3>{report.times_table(s)}</section>")
    return "".join(parts)


def not_found(lang: str, sentence: str) -> str:
    return shell(w("not-found", lang), f'<p class="problem">{escape(sentence)} '
                 f'{escape(w("back-home", lang))}</p>', lang)
