"""The web process's HTTP side: routes, live updates, and the server itself.

The standard library's ``ThreadingHTTPServer`` serves it: no dependency to
install on the Pi, a few hundred kilobytes over the interpreter, and a
thread per open page is what a table's dozen phones need. Live updates are
server-sent events (``/events``): one line per change of the journal, after
which the page fetches its live part again; a page without JavaScript is
whole and current when loaded.

Only GET is answered. A path that names nothing gets 404 with a sentence,
a fault while drawing a page 500 with a sentence (the traceback goes to the
process's log, never to the browser).
"""

from __future__ import annotations

import json
import re
import sys
import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from urllib.parse import urlsplit

from pi_app.store import export
from pi_app.store.journal import JournalError
from pi_app.web import pages
from pi_app.web.source import Source
from pi_app.web.story import Story
from pi_app.web.words import w

HTML = "text/html; charset=utf-8"
_STATIC = {"app.js": "text/javascript; charset=utf-8", "style.css": "text/css; charset=utf-8"}
_GAME = re.compile(r"/game/([0-9]{1,9})(/live|/report|/log\.jsonl)?")
KEEPALIVE = 15.0  # seconds between comments on a quiet event stream (proxies close idle ones)
MAX_STREAMS = 32  # open pages following the game at once: each holds a thread (the unit's TasksMax is 64)
# Everything from the box itself: a page that asked a CDN for anything would be refused by the browser.
POLICY = ("default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
          "frame-ancestors 'none'; form-action 'none'; base-uri 'none'")


@dataclass(frozen=True)
class Response:
    status: int
    type: str
    body: bytes


class App:
    """What each path answers, drawn from ``source`` (a pure function of the
    journal's public content: no clock, no path, no counter in any body)."""

    def __init__(self, source: Source) -> None:
        self.source = source
        self.lang = source.lang
        self._static = {name: (resources.files("pi_app.web") / "static" / name).read_bytes()
                        for name in _STATIC}

    def respond(self, target: str) -> Response:
        path = urlsplit(target).path
        try:
            with self.source.lock:
                return self._route(path)
        except Exception as exc:  # a fault drawing a page: a sentence here, the traceback in the log
            traceback.print_exc(file=sys.stderr)
            sentence = (f"The page {path} could not be made ({type(exc).__name__}); the table and its game "
                        "are not affected. Reload the page in a moment.")
            return Response(500, "text/plain; charset=utf-8", sentence.encode())

    def _route(self, path: str) -> Response:
        src = self.source
        if path in ("/", "/live"):
            story = src.current()
            body = pages.live(src, story)
            return self._page(path == "/", self._title(story), body, "/live")
        if path == "/night":
            nights = src.nights()
            body = pages.notices(src, None) + pages.night_report(nights[-1] if nights else [], self.lang)
            return self._page(True, w("night-report", self.lang), body, None)
        if path.startswith("/static/") and path[len("/static/"):] in _STATIC:
            name = path[len("/static/"):]
            return Response(200, _STATIC[name], self._static[name])
        match = _GAME.fullmatch(path)
        if match is None:
            return self.missing(w("not-found", self.lang))
        game_id, what = int(match.group(1)), match.group(2) or ""
        story = src.story(game_id)
        if story is None:
            return self.missing(w("no-game", self.lang, n=game_id))
        if what == "/log.jsonl":
            return self._jsonl(story)
        if what == "/report":
            return self._page(True, self._title(story), pages.game_report(src, story), None)
        return self._page(what == "", self._title(story), pages.live(src, story), f"/game/{game_id}/live")

    def _page(self, whole: bool, title: str, body: str, live: str | None) -> Response:
        html = pages.shell(title, body, self.lang, live) if whole else body
        return Response(200, HTML, html.encode())

    def _title(self, story: Story | None) -> str:
        return pages.title(story) if story is not None else w("title", self.lang)

    def _jsonl(self, story: Story) -> Response:
        """The game's log as ``journal export --format jsonl`` writes it (an
        unfinished game keeps its secrets and its seed)."""
        journal = self.source.journal()
        if journal is None:
            return Response(503, "text/plain; charset=utf-8",
                            w("problem", self.lang, fault=self.source.problem or "-").encode())
        try:
            lines = export.jsonl(export.read(journal, journal.game(story.record.id)))
        except JournalError as exc:
            return Response(503, "text/plain; charset=utf-8",
                            w("game-problem", self.lang, fault=exc.fault).encode())
        return Response(200, "application/x-ndjson; charset=utf-8",
                        "".join(line + "\n" for line in lines).encode())

    def missing(self, sentence: str) -> Response:
        return Response(404, HTML, pages.not_found(self.lang, sentence).encode())

    def event(self) -> bytes:
        """One server-sent event: where the journal stands (what changed is
        for the page to fetch)."""
        with self.source.lock:
            story = self.source.current()
            data = {"game": story.record.id if story else None, "moves": len(story.steps) if story else 0,
                    "games": len(self.source.records), "problem": self.source.problem is not None}
        return f"data: {json.dumps(data)}\n\n".encode()


def handler(app: App, stop: threading.Event) -> type[BaseHTTPRequestHandler]:
    streams = threading.BoundedSemaphore(MAX_STREAMS)

    class Handler(BaseHTTPRequestHandler):
        server_version = "tablekeeper"
        sys_version = ""
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            if urlsplit(self.path).path == "/events":
                self._events()
                return
            self._send(app.respond(self.path))

        def _refuse(self) -> None:
            self._send(Response(405, "text/plain; charset=utf-8",
                                b"This page only shows the game: it takes no changes (GET only)."))

        do_POST = do_PUT = do_DELETE = do_PATCH = _refuse

        def _send(self, response: Response) -> None:
            self.send_response(response.status)
            self.send_header("Content-Type", response.type)
            self.send_header("Content-Length", str(len(response.body)))
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Content-Type-Options", "nosniff")
            self.send_header("Content-Security-Policy", POLICY)
            self.end_headers()
            self.wfile.write(response.body)

        def _events(self) -> None:
            if not streams.acquire(blocking=False):
                self._send(Response(503, "text/plain; charset=utf-8",
                                    f"{MAX_STREAMS} pages already follow the game: close one, or reload this "
                                    "page by hand to see the game.".encode()))
                return
            try:
                self._stream()
            finally:
                streams.release()

        def _stream(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-store")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            version = app.source.version
            try:
                self.wfile.write(b"retry: 1000\n" + app.event())
                self.wfile.flush()
                while not stop.is_set():
                    now = app.source.wait(version, KEEPALIVE)
                    self.wfile.write(app.event() if now != version else b": still here\n\n")
                    self.wfile.flush()
                    version = now
            except (BrokenPipeError, ConnectionResetError, TimeoutError):
                return  # the page was closed

        def log_message(self, format: str, *args: object) -> None:
            return  # one line per request would fill the SD card's log: faults are logged by App

        def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
            # malformed requests (a bad request line, a header too long): a sentence, as for 404
            sentence = f"The request could not be read ({message or code}); ask for a page such as /."
            body = sentence.encode()
            self.send_response(code)
            self.send_header("Content-Type", "text/plain; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Connection", "close")
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

    return Handler


class Server:
    """The source watched in a thread, the pages served in others."""

    def __init__(self, source: Source, host: str, port: int, poll: float = 0.1) -> None:
        self.source = source
        self.poll = poll
        self.app = App(source)
        self.stop = threading.Event()
        self.http = ThreadingHTTPServer((host, port), handler(self.app, self.stop))
        self.http.daemon_threads = True
        self._threads: list[threading.Thread] = []

    @property
    def address(self) -> tuple[str, int]:
        host, port = self.http.server_address[:2]
        return str(host), int(port)

    def start(self, ready: Callable[[], None] = lambda: None) -> None:
        self.source.refresh()
        for target in (lambda: self.source.watch(self.stop, self.poll), self.http.serve_forever):
            thread = threading.Thread(target=target, daemon=True)
            thread.start()
            self._threads.append(thread)
        ready()

    def close(self) -> None:
        self.stop.set()
        self.http.shutdown()
        self.http.server_close()
        self.source.close()
