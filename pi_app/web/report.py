"""The report of a game and of a night: scores over the game as an SVG plot,
each player's time per turn, the refusals by rule.

Pure functions of :class:`~pi_app.web.story.Story` (public by construction);
``refusals`` come from whoever kept them: the journal does not (it keeps the
accepted moves only), so the web process passes None and the report says so,
while ``tablekeeper demo`` passes the refusals its sessions saw.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from html import escape

from pi_app.web.story import Story
from pi_app.web.words import duration, w

_COLOURS = ["#c0392b", "#2e86c1", "#27ae60", "#8e44ad", "#d68910", "#17a589"]


@dataclass(frozen=True)
class TurnTimes:
    seat: int
    turns: int
    total: float
    longest: float

    @property
    def average(self) -> float:
        return self.total / self.turns if self.turns else 0.0


def turn_times(story: Story) -> list[TurnTimes]:
    """Each seat's turns (its moves in a row) and the time they took: from
    the journal's time of the move before the turn to its last move's."""
    spans: dict[int, list[float]] = {}
    prev_at: float | None = None
    prev_seat: int | None = None
    for step in story.steps:
        if step.chance or step.seat is None:
            prev_at, prev_seat = step.at, None
            continue
        took = step.at - prev_at if prev_at is not None else 0.0
        turns = spans.setdefault(step.seat, [])
        if prev_seat == step.seat and turns:
            turns[-1] += took
        else:
            turns.append(took)
        prev_at, prev_seat = step.at, step.seat
    return [TurnTimes(seat, len(t), sum(t), max(t)) for seat, t in sorted(spans.items()) if t]


def plot(story: Story) -> str:
    """The running score of every seat over the moves, as an inline SVG."""
    lang = story.lang
    if story.score_name is None:
        return f"<p>{escape(w('no-running-score', lang))}</p>"
    points = story.running
    last = story.steps[-1].n if story.steps else 0
    if points and points[-1][0] < last:
        points = [*points, (last, points[-1][1])]
    if len(points) < 2:
        points = [*points, *points] if points else [(0, [0.0] * story.record.players)] * 2
    width, height, left, bottom = 600, 240, 44, 28
    xs = [n for n, _ in points]
    ys = [v for _, vals in points for v in vals]
    x0, x1 = min(xs), max(max(xs), min(xs) + 1)
    y0, y1 = min(min(ys), 0.0), max(max(ys), 1.0)
    if y1 == y0:
        y1 = y0 + 1

    def sx(x: float) -> float:
        return left + (x - x0) / (x1 - x0) * (width - left - 10)

    def sy(y: float) -> float:
        return 10 + (y1 - y) / (y1 - y0) * (height - bottom - 10)

    title = w("plot-title", lang, score=story.score_name)
    parts = [f'<svg class="plot" viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}">',
             f'<line x1="{left}" y1="{sy(y0):.1f}" x2="{width - 10}" y2="{sy(y0):.1f}" class="axis"/>',
             f'<line x1="{left}" y1="10" x2="{left}" y2="{height - bottom}" class="axis"/>']
    if y0 < 0:
        parts.append(f'<line x1="{left}" y1="{sy(0):.1f}" x2="{width - 10}" y2="{sy(0):.1f}" class="zero"/>')
    for y in (y0, (y0 + y1) / 2, y1):
        parts.append(f'<text x="{left - 4}" y="{sy(y) + 4:.1f}" class="tick" text-anchor="end">{y:g}</text>')
    for x in (x0, x1):
        parts.append(f'<text x="{sx(x):.1f}" y="{height - bottom + 14}" class="tick" '
                     f'text-anchor="middle">{x}</text>')
    parts.append(f'<text x="{(width + left) / 2}" y="{height - 2}" class="tick" text-anchor="middle">'
                 f'{escape(w("move-axis", lang))}</text>')
    seats = max(len(vals) for _, vals in points)
    for seat in range(seats):
        colour = _COLOURS[seat % len(_COLOURS)]
        # a step line: a score holds until the move that changes it
        path: list[str] = []
        for i, (n, vals) in enumerate(points):
            y = sy(vals[seat]) if seat < len(vals) else sy(0)
            if i:
                path.append(f"{sx(n):.1f},{float(path[-1].split(',')[1]):.1f}")
            path.append(f"{sx(n):.1f},{y:.1f}")
        parts.append(f'<polyline points="{" ".join(path)}" fill="none" stroke="{colour}" stroke-width="2"/>')
    parts.append("</svg>")
    legend = " ".join(f'<span style="color:{_COLOURS[seat % len(_COLOURS)]}">■</span> '
                      f"{escape(story.player(seat, lang))}: "
                      f"<strong>{points[-1][1][seat]:g}</strong>"
                      for seat in range(seats))
    return (f"<figure><figcaption>{escape(title)}</figcaption>{''.join(parts)}"
            f'<p class="legend">{legend}</p></figure>')


def times_table(story: Story) -> str:
    lang = story.lang
    rows = turn_times(story)
    if not rows:
        return f"<p>{escape(w('no-times', lang))}</p>"
    body = "".join(f"<tr><td>{escape(story.player(r.seat, lang))}</td><td>{r.turns}</td>"
                   f"<td>{escape(duration(r.average, lang))}</td><td>{escape(duration(r.longest, lang))}</td>"
                   f"<td>{escape(duration(r.total, lang))}</td></tr>" for r in rows)
    return _table(w("times-head", lang), body)


def refusals_table(refusals: Counter[str] | None, lang: str, note: str = "") -> str:
    """The refused moves by rule, the most broken first; ``None``: not kept."""
    if refusals is None:
        return f"<p>{escape(w('refusals-not-kept', lang))}</p>"
    note_html = f"<p>{escape(note)}</p>" if note else ""
    if not refusals:
        return note_html + f"<p>{escape(w('no-refusals', lang))}</p>"
    (rule, n), *_ = refusals.most_common(1)
    body = "".join(f"<tr><td>{escape(r)}</td><td>{k}</td></tr>" for r, k in refusals.most_common())
    return (f"<p><strong>{escape(w('most-broken', lang, rule=rule, n=n))}</strong></p>" + note_html
            + _table(w("refusals-head", lang), body))


def game_refusals(story: Story) -> str:
    if story.refusals is not None and not story.over:
        return f"<p>{escape(w('refusals-later', story.lang))}</p>"
    return refusals_table(story.refusals, story.lang)


def night_refusals(stories: list[Story], lang: str) -> str:
    """The night's refusals by rule, over its games that are over."""
    kept = [s for s in stories if s.refusals is not None]
    if not kept:
        return refusals_table(None, lang)
    over = [s for s in kept if s.over]
    total: Counter[str] = Counter()
    for s in over:  # a rule is its game's: "Artus: Gameplay"
        total.update({f"{s.name}: {rule}": n for rule, n in (s.refusals or {}).items()})
    note = w("refusals-some", lang, n=len(over)) if len(over) < len(stories) else ""
    return refusals_table(total, lang, note)


def _table(head: str, body: str) -> str:
    cells = "".join(f"<th>{escape(h)}</th>" for h in head.split("|"))
    return f'<div class="scroll"><table><tr>{cells}</tr>{body}</table></div>'


def game_time(story: Story) -> float:
    if len(story.steps) < 1 or story.record.started is None:
        return 0.0
    return max(0.0, story.steps[-1].at - story.record.started)


def moves_made(story: Story) -> int:
    """The players' moves (the table's draws and rolls not counted): what the
    night's report and the demo's summary.md both call a game's moves."""
    return sum(1 for step in story.steps if not step.chance)


def result_words(story: Story) -> str:
    """The game's end as the table said it: who won, why, the scores (the
    night's report and the demo's summary.md both say this)."""
    lang = story.lang
    if story.outcome is not None:
        big, lines = story.outcome
        return "; ".join(line.rstrip(".") for line in (big, *lines))  # a screen's sentence, listed
    if story.record.ended:
        return w("abandoned", lang)
    return w("in-progress", lang)
