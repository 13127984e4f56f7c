"""A simulated game night: every game with a table adapter, for each of its
player counts with the default options and once at the most seats for each
other combination of its options (a variant, a mode, a side of the board),
played through the simulated table by simulated players (taps on the pads,
presses on mock pins), with some illegal attempts refused. The last seat of
every game is a computer player (at ``DEMO_BUDGET``, smaller than the table's
default so the night takes minutes, and iterations only, no clock, so that
the seed fixes every game on any machine and in either language): a
simulated person carries out each of its moves and confirms it, as at a real
table.

Writes, under the output directory: one animated GIF per game of all the
screens together, a transcript per game, ``summary.md`` and the review sheet;
with ``frames`` (``demo --frames``) every screen's frames as PNG too
(``<game>-<n>p[-<option>-<value>...]/<screen>/0001.png``), thousands of files
for a night.
"""

from __future__ import annotations

import queue
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

import rules
from pi_app import games as table_games
from pi_app import names as naming
from pi_app.session import computer
from pi_app.session.loop import Session
from pi_app.simulated.autoplay import MAX_INPUTS, Input, take_turn
from pi_app.simulated.review import SheetGame, write_sheet
from pi_app.store.journal import Journal
from pi_app.store.registry import Registry
from pi_app.table import hardware, profile
from pi_app.ui.screens import Layout, font, problems
from players import Budget

MAX_GIF_FRAMES = 600
#: the transcript's own words, in the night's language (the records are already in it)
LABELS: dict[str, tuple[str, str]] = {
    "move": ("move", "mossa"), "chance": ("chance", "sorte"), "refused": ("refused", "rifiutata"),
    "unknown-tag": ("unknown tag", "tag ignoto"), "undo": ("undo", "annullata"), "note": ("note", "nota"),
    "said": ("said", "detto"), "outcome": ("outcome", "esito"), "table": ("table", "tavolo"),
    "tap": ("taps", "tocca"), "press": ("presses", "preme"), "secret": ("(secret)", "(segreto)"),
    "players": ("players", "giocatori"), "seed": ("seed", "seme"), "options": ("options", "opzioni"),
    "none": ("none", "nessuna"), "plays": ("plays", "gioca"),
    # the buttons, as their glyphs and names on the table
    "ok": ("●", "●"), "left": ("◀", "◀"), "right": ("▶", "▶"), "undo-button": ("undo", "annulla"),
}


def label(key: str, lang: str) -> str:
    return LABELS[key][1 if lang == "it" else 0]


def button(part: str, lang: str) -> str:
    """A button pressed, in words: "seat1.ok" is "●", "shared.undo" "undo"."""
    name = part.rsplit(".", 1)[-1]
    key = "undo-button" if name == "undo" else name
    return label(key, lang) if key in LABELS else name
DEMO_BUDGET = Budget(iterations=150, seconds=None)  # no clock: the same game on a loaded machine


@dataclass
class GameReport:
    game: str
    players: int
    options: dict[str, Any] = field(default_factory=dict)  # those that differ from the defaults
    moves: int = 0
    inputs: int = 0
    refused: int = 0
    frames: int = 0
    seconds: float = 0.0
    result: str = ""
    cut: int = 0  # lines cut off or clipped, over all frames (pi_app.ui.screens.problems)
    name: str = ""  # the folder of its frames
    screens: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # screen -> [(png, words)]
    computer: int | None = None  # the computer player's seat
    files: list[str] = field(default_factory=list)
    journal: str = ""  # the game's journal, for the night's report


class Night:
    def __init__(self, out: Path, lang: str = "en", seed: int = 1, frames: bool = True) -> None:
        self.out = out
        self.lang = lang
        self.seed = seed
        self.frames = frames  # every frame as a PNG (the review sheet then shows them)
        self.profile = profile.load(profile.find("sim"))

    def games(self, only: str | None = None) -> list[tuple[str, int, dict[str, Any]]]:
        """(game, players, options): every player count with the defaults
        ({}), then each other combination of options at the most seats."""
        ids = [only] if only else [g for g in table_games.ADAPTERS if g in rules.GAMES]
        plan: list[tuple[str, int, dict[str, Any]]] = []
        for g in ids:
            game = rules.get(g)
            counts = [n for n in game.player_counts if n <= len(self.profile.seats)]
            plan += [(g, n, {}) for n in counts]
            defaults = {o.name: o.default for o in game.options}
            for combo in game.option_combinations():
                changed = {k: v for k, v in combo.items() if v != defaults[k]}
                # an option that only opens another player count (Mordred's unofficial
                # two players) is no setup at the official counts (Game.setups)
                if counts and changed and (max(counts), combo) in game.setups():
                    plan.append((g, max(counts), changed))
        return plan

    def play(self, game: str, players: int, options: dict[str, Any] | None = None) -> GameReport:
        options = dict(options or {})
        name = f"{game}-{players}p" + "".join(f"-{k}-{v}" for k, v in options.items())
        work = self.out / name
        work.mkdir(parents=True, exist_ok=True)
        for stale in [work / "journal.sqlite", work / "tags.sqlite"]:
            for suffix in ("", "-wal", "-shm"):
                Path(f"{stale}{suffix}").unlink(missing_ok=True)
        report = GameReport(game, players, options)
        start = time.perf_counter()
        table = hardware.build(self.profile, queue.Queue(), keep_frames=True, poll=False, seats=players)
        journal = Journal(work / "journal.sqlite")
        registry = Registry(work / "tags.sqlite")
        try:
            session = Session.open(table, journal, registry, game=game, players=players,
                                   seed=self.seed + players, options=options, lang=self.lang, new=True)
            comps = [(c.id, c.count) for c in session.scene.adapter.components()]
            uids = {c: u[0] for c, u in registry.auto_enroll(game, comps).items()}
            shown: dict[str, list[Layout]] = {}  # per screen, the layout of each frame sent
            session.presentation.observer = lambda changed: [shown.setdefault(k, []).append(v)
                                                             for k, v in changed.items()]
            report.computer = players - 1
            session.seat_computers(computer.players_for({players - 1}, self.seed + players, DEMO_BUDGET))
            session.redraw()
            session.tick()
            lines: list[str] = []
            gif: list[Image.Image] = [self.composite(table, players)]
            stride = [1, 0]  # keep one input in stride[0]; inputs seen
            rng = random.Random(f"{game}/{players}/{self.seed}" + (f"/{options}" if options else ""))
            said = 0
            secret: set[int] = set()  # transcript records that answer a secret input

            def send(inp: Input) -> None:
                seat = session.scene.profile.seat_of_part(inp.part)
                hidden = seat is not None and session.scene.adapter.hides_input(
                    session.scene.state, seat, inp.what if inp.kind == "tap" else None)
                first = len(session.scene.transcript)
                if inp.kind == "tap":
                    table.tap(inp.part, uids.get(inp.what, inp.what))
                else:
                    table.press(inp.part)
                session.pump()
                report.inputs += 1
                if report.inputs > MAX_INPUTS:
                    raise RuntimeError(f"{name}: the simulated players are stuck")
                if hidden:
                    secret.update(range(first, len(session.scene.transcript)))
                comp = session.scene.adapter.component(inp.what) if inp.kind == "tap" else None
                if inp.kind == "tap":  # words, not ids
                    thing = comp.name(self.lang) if comp is not None else inp.what or inp.part
                else:
                    thing = button(inp.part, self.lang)
                what = label("secret", self.lang) if hidden else f"{label(inp.kind, self.lang)} {thing}"
                lines.append(f"  {session.scene.player(seat or 0)}: {what}")
                # The whole game in at most MAX_GIF_FRAMES frames: when full,
                # keep every other frame and take half as many from now on.
                stride[1] += 1
                if stride[1] % stride[0] == 0:
                    gif.append(self.composite(table, players))
                    if len(gif) >= MAX_GIF_FRAMES:
                        gif[:] = gif[::2]
                        stride[0] *= 2

            def flush() -> None:
                nonlocal said
                for i, rec in enumerate(session.scene.transcript[said:], start=said):
                    # Players as the screens name them, never a seat number.
                    lang = self.lang
                    who = session.scene.player(rec.seat) if rec.seat is not None else label("table", lang)
                    hide = i in secret and rec.kind in ("refused", "unknown-tag")
                    text = label("secret", lang) if hide else rec.text
                    kind = label(rec.kind, self.lang) if rec.kind in LABELS else rec.kind
                    lines.append(f"{kind:>11} | {who:9} | {text}")
                    if rec.kind == "refused" or rec.kind == "unknown-tag":
                        report.refused += 1
                said = len(session.scene.transcript)

            flush()
            while session.scene.state.outcome() is None and session.scene.state.to_move() is not None:
                moved = take_turn(session, rng, send, between=flush)
                flush()
                report.moves += moved
            outcome = session.scene.state.outcome()
            if outcome is not None:
                big, detail = session.scene.adapter.outcome_lines(outcome, self.lang)
                report.result = f"{big} ({detail[0] if detail else outcome.reason})"
                lines.append(f"{label('outcome', self.lang):>11} | {report.result}")
            session.tick()
            gif.append(self.composite(table, players))
            report.frames = self.save_frames(table, work)
            report.name = name
            report.screens = {screen: [(f"{name}/{screen}/{i:04d}.png" if self.frames else "", words)
                                       for i, words in enumerate(table.texts(screen), start=1)]
                              for screen in table.screens}
            report.cut = self.check_frames(shown, self.out / f"{name}.problems.txt")
            gif_path = self.out / f"{name}.gif"
            gif[0].save(gif_path, save_all=True, append_images=gif[1:], duration=150, loop=0,
                        optimize=False)
            transcript = self.out / f"{name}.transcript.txt"
            lang = self.lang
            head = (f"{rules.get(game).name or game}, {players} {label('players', lang)}, "
                    f"{label('seed', lang)} {self.seed + players}, {label('options', lang)}: "
                    f"{options_text(session.scene.state.options) or label('none', lang)}; "
                    f"{naming.display_name(game, players - 1, lang, computer=True)} {label('plays', lang)}\n")
            transcript.write_text(head + "\n".join(lines) + "\n", encoding="utf-8")
            report.files = [str(gif_path), str(transcript), str(work)]
            report.journal = str(work / "journal.sqlite")
        finally:
            table.close()
            journal.close()
            registry.close()
        report.seconds = time.perf_counter() - start
        return report

    def composite(self, table: hardware.Table, players: int) -> Image.Image:
        """All screens at once: the shared one on top, the seats below."""
        gap, label = 6, 12
        width = max(2, players) * (128 + gap) + gap
        img = Image.new("L", (width, 2 * (64 + label) + 3 * gap), 40)
        draw = ImageDraw.Draw(img)
        small = font(10)

        def put(name: str, x: int, y: int) -> None:
            kept = table.frames(name) if name in table.screens else []
            frame = kept[-1] if kept else None
            draw.text((x, y), name, font=small, fill=200)
            if frame is not None:
                img.paste(frame.convert("L"), (x, y + label))

        put("shared.screen", (width - 128) // 2, gap)
        for i in range(players):
            put(f"seat{i + 1}.screen", gap + i * (128 + gap), 2 * gap + 64 + label)
        return img.convert("P")

    def check_frames(self, shown: dict[str, list[Layout]], path: Path) -> int:
        """Every frame's cut or clipped lines, measured in pixels, listed in
        ``path`` (screen/frame: problem); returns how many."""
        found = [f"{name}/{i:04d}.png: {problem}"
                 for name, layouts in sorted(shown.items())
                 for i, layout in enumerate(layouts, start=1) for problem in problems(layout)]
        path.write_text("".join(line + "\n" for line in found) or "none\n", encoding="utf-8")
        return len(found)

    def save_frames(self, table: hardware.Table, work: Path) -> int:
        """How many frames the screens showed; saved as PNG with ``frames``."""
        count = 0
        for name in table.screens:
            folder = work / name
            if folder.is_dir():
                for old in folder.glob("*.png"):
                    old.unlink()
            kept = table.frames(name)
            count += len(kept)
            if not self.frames:
                continue
            folder.mkdir(parents=True, exist_ok=True)
            for i, frame in enumerate(kept, start=1):
                frame.save(folder / f"{i:04d}.png")
        return count


def review_sheet(reports: list[GameReport], out: Path, lang: str = "en") -> Path:
    """``out/index.html``: every screen of every game, frame by frame, in ``lang``."""
    games = [SheetGame(r.name, f"{rules.get(r.game).name or r.game}, {r.players} {label('players', lang)}"
                       + (f" ({options_text(r.options)})" if r.options else ""), r.result,
                       f"{r.name}.transcript.txt", f"{r.name}.gif", r.screens, r.cut) for r in reports]
    return write_sheet(out, games, lang)


def options_text(options: dict[str, Any]) -> str:
    """The options as set ("side=B"); empty for none."""
    return ", ".join(f"{k}={v}" for k, v in options.items())


#: summary.md's words, English and Italian
SUMMARY: dict[str, tuple[str, str]] = {
    "title": ("# Tablekeeper demo: a simulated game night",
              "# Dimostrazione di Tablekeeper: una serata simulata"),
    "head": ("| game | players | computer | options | moves | inputs | refused | frames | cut/clipped "
             "| result | seconds |",
             "| gioco | giocatori | computer | opzioni | mosse | comandi | rifiutati | fotogrammi | tagliate "
             "| esito | secondi |"),
    "games": ("{n} games in {s} s on the simulated table; in each, the last seat is a computer player.",
              "{n} partite in {s} s sul tavolo simulato; in ognuna l'ultimo posto è un giocatore computer."),
    "game": ("1 game in {s} s on the simulated table; its last seat is a computer player.",
             "1 partita in {s} s sul tavolo simulato; l'ultimo posto è un giocatore computer."),
    "defaults": ("defaults", "predefinite"),
    "cut": ("Cut or clipped lines in all frames: {n} (each game's are listed in its .problems.txt).",
            "Righe tagliate in tutti i fotogrammi: {n} (quelle di ogni partita sono nel suo .problems.txt)."),
    "failed": ("Failed:", "Non riuscite:"),
}


def summary(reports: list[GameReport], seconds: float, out: Path, failed: list[str] | None = None,
            lang: str = "en") -> str:
    """``out/summary.md``, in the night's language; returns its text."""
    def say(key: str) -> str:
        return SUMMARY[key][1 if lang == "it" else 0]

    number = f"{seconds:.1f}".replace(".", ",") if lang == "it" else f"{seconds:.1f}"
    rows = [say("head"), "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in reports:
        opts = options_text(r.options) if r.options else say("defaults")
        seat = "-" if r.computer is None else naming.display_name(r.game, r.computer, lang)
        secs = f"{r.seconds:.1f}".replace(".", ",") if lang == "it" else f"{r.seconds:.1f}"
        rows.append(f"| {r.game} | {r.players} | {seat} | {opts} | {r.moves} | {r.inputs} | {r.refused} | "
                    f"{r.frames} | {r.cut} | {r.result} | {secs} |")
    games = say("game" if len(reports) == 1 else "games").format(n=len(reports), s=number)
    text = (f"{say('title')}\n\n{games}\n\n"
            + "\n".join(rows) + "\n"
            f"\n{say('cut').format(n=sum(r.cut for r in reports))}\n")
    if failed:
        text += f"\n{say('failed')}\n\n" + "".join(f"- {line}\n" for line in failed)
    (out / "summary.md").write_text(text, encoding="utf-8")
    return text
