"""The web process's HTTP side: routes, live updates, and the server itself.

aiohttp's low-level server answers on one event loop: a room of phones,
each holding a page open and an event stream, costs a few kilobytes a
connection, not a thread. Pages are drawn by two worker threads (drawing
holds the source's lock anyway), the journal is watched by a third. Live
updates are server-sent events (``/events``): one line per change of the
journal, after which the page fetches its live part again; a page without
JavaScript is whole and current when loaded.

What a real network brings is bounded (:class:`Limits`): a connection must
send a request's head within ``request_timeout`` of opening or of its last
answer; a client that takes nothing of what it is sent for
``write_timeout`` is dropped (an event stream's send buffer is kept small,
so one that stops reading is found soon); connections and event streams
are counted per client address; the listen backlog holds a room's burst.
The ``Host`` a request names must be one of the box's names or the address
the request came in on: a page elsewhere whose name was pointed at the box
(DNS rebinding) is refused. A client that goes away or is dropped is one
line in the log, never a traceback.

Only GET is answered. A path that names nothing gets 404 with a sentence,
a fault while drawing a page 500 with a sentence (the traceback goes to the
process's log, never to the browser).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import re
import socket
import sys
import threading
import traceback
from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from http import HTTPStatus
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web
from aiohttp.web_protocol import RequestHandler

from pi_app.store import export
from pi_app.store.journal import JournalError
from pi_app.web import pages
from pi_app.web.source import Source
from pi_app.web.story import Story
from pi_app.web.words import w

HTML = "text/html; charset=utf-8"
_STATIC = {"app.js": "text/javascript; charset=utf-8", "style.css": "text/css; charset=utf-8"}
_GAME = re.compile(r"/game/([0-9]{1,9})(/live|/report|/log\.jsonl)?")
_EARLIER = re.compile(r"/earlier/([0-9]{1,6})")
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
            stories = [s for s in (src.story(r.id) for r in (nights[-1] if nights else [])) if s is not None]
            body = pages.notices(src, None) + pages.night_report(stories, self.lang)
            return self._page(True, w("night-report", self.lang), body, None)
        earlier = _EARLIER.fullmatch(path)
        if earlier is not None:
            listed = pages.earlier_page(src, int(earlier.group(1)))
            if listed is None:
                return self.missing(w("not-found", self.lang))
            return self._page(True, w("earlier", self.lang), listed, None)
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


@dataclass(frozen=True)
class Limits:
    """What one client may hold of the server, and for how long."""

    request_timeout: float = 10.0  # for a request's head, from the connection's opening or its last answer
    write_timeout: float = 10.0  # a client that takes nothing of what is sent for this long is dropped
    keepalive: float = 15.0  # seconds between comments on a quiet event stream (proxies close idle ones)
    streams: int = 512  # event streams open at once (a few kilobytes each)
    per_client: int = 32  # connections from one address at once (a phone's browser opens about six)
    streams_per_client: int = 8  # event streams from one address (its open tabs)
    backlog: int = 1024  # connections waiting to be accepted (the kernel caps it at net.core.somaxconn)
    stream_buffer: int = 8192  # an event stream's send buffer: small, so a client that stops reading fills it


TEXT = "text/plain; charset=utf-8"


def _plain(status: int, sentence: str) -> Response:
    return Response(status, TEXT, sentence.encode())


def _say(line: str) -> None:
    """One line in the process's log (the journal's, under systemd)."""
    print(f"tablekeeper web: {line}", file=sys.stderr, flush=True)


def box_names(extra: Iterable[str] = ()) -> frozenset[str]:
    """The names a request may give as its ``Host``: this machine's, its
    mDNS name and ``extra`` (any address the request came in on is taken too)."""
    host = socket.gethostname().lower()
    names = {"localhost", host, f"{host}.local", host.split(".")[0]}
    return frozenset(n.strip().lower().rstrip(".") for n in (*names, *extra) if n.strip())


def host_name(header: str) -> str:
    """The name or address in a ``Host`` header, without its port."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:header.find("]")] if "]" in header else header
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


class _Stream:
    """One open event stream: woken when the journal changes or the client goes."""

    def __init__(self) -> None:
        self.wake = asyncio.Event()
        self.gone = False


@dataclass(eq=False)
class _Conn:
    """What the server knows of one connection, for its limits."""

    peer: str
    transport: asyncio.Transport
    since: float
    state: str = "waiting"  # waiting (for a request's head), answering, streaming
    buffered: int = 0  # the write buffer at the last look
    stalled: float | None = None  # since when the write buffer has not shrunk
    stream: _Stream | None = None
    dropped: str = ""  # why the server closed it, for the log
    answered: bool = False  # has had an answer (closing it when idle after one is no news)


class _Guard(asyncio.Protocol):
    """Between the socket and aiohttp's protocol: counts the connection,
    refuses one over its client's limit, and tells aiohttp everything else."""

    def __init__(self, http: _Http, inner: RequestHandler) -> None:
        self.http = http
        self.inner = inner
        self.conn: _Conn | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.conn = self.http.admit(transport)
        if self.conn is not None:
            self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self.conn is not None:
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.conn is not None else None

    def pause_writing(self) -> None:
        if self.conn is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.conn is not None:
            self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.conn is None:
            return
        self.http.release(self.conn, exc)
        self.inner.connection_lost(exc)


class _Handler(RequestHandler):
    """aiohttp's protocol with a sentence for a request it cannot read
    (a bad request line, a header too long), and no traceback in the log."""

    def handle_error(self, request: Any, status: int = 500, exc: BaseException | None = None,
                     message: str | None = None) -> web.StreamResponse:
        try:
            reason = HTTPStatus(status).phrase
        except ValueError:
            reason = "error"
        sentence = f"The request could not be read ({status} {reason}); ask for a page such as /."
        response = web.Response(status=status, body=sentence.encode(), headers={"Content-Type": TEXT})
        response.force_close()  # what follows on the connection cannot be trusted either
        return response


class _Http:
    """The event loop's side: connections, their limits, the event streams."""

    def __init__(self, app: App, limits: Limits, names: frozenset[str], pages: ThreadPoolExecutor,
                 loop: asyncio.AbstractEventLoop) -> None:
        self.app = app
        self.limits = limits
        self.names = names
        self.pages = pages
        self.loop = loop
        self.conns: dict[asyncio.Transport, _Conn] = {}
        self.per_peer: Counter[str] = Counter()
        self.streams: dict[_Stream, str] = {}  # stream -> its client's address
        self.latest = b""  # the newest event, for every stream
        self.generation = 0  # counts the events published
        quiet = logging.getLogger("aiohttp.quiet")
        quiet.propagate = False
        quiet.addHandler(logging.NullHandler())
        self.server_kwargs: dict[str, Any] = {"access_log": None, "logger": quiet,
                                              "keepalive_timeout": limits.request_timeout}
        self.server: web.Server | None = None  # made on the loop (aiohttp asks it)

    async def listen(self, sock: socket.socket) -> asyncio.AbstractServer:
        self.server = web.Server(self.handle, **self.server_kwargs)
        return await self.loop.create_server(self.protocol, sock=sock, backlog=self.limits.backlog)

    def protocol(self) -> asyncio.Protocol:
        assert self.server is not None
        return _Guard(self, _Handler(self.server, loop=self.loop, **self.server_kwargs))

    # -- connections --------------------------------------------------------
    def admit(self, transport: asyncio.Transport) -> _Conn | None:
        peername = transport.get_extra_info("peername")
        peer = str(peername[0]) if peername else "?"
        if self.per_peer[peer] >= self.limits.per_client:
            sentence = (f"{self.limits.per_client} connections from {peer} are already open: close a page "
                        "and reload this one.").encode()
            transport.write(b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: " + TEXT.encode()
                            + b"\r\nContent-Length: " + str(len(sentence)).encode()
                            + b"\r\nConnection: close\r\n\r\n" + sentence)
            transport.close()
            _say(f"{peer}: refused a connection ({self.limits.per_client} open from it already)")
            return None
        conn = _Conn(peer, transport, self.loop.time())
        self.conns[transport] = conn
        self.per_peer[peer] += 1
        return conn

    def release(self, conn: _Conn, exc: Exception | None) -> None:
        self.conns.pop(conn.transport, None)
        self.per_peer[conn.peer] -= 1
        if self.per_peer[conn.peer] <= 0:
            del self.per_peer[conn.peer]
        if conn.stream is not None:
            conn.stream.gone = True
            conn.stream.wake.set()
        if conn.dropped:
            _say(f"{conn.peer}: dropped ({conn.dropped})")
        elif exc is not None:
            _say(f"{conn.peer}: went away ({type(exc).__name__})")

    def sweep(self) -> None:
        """Close what overstays: a connection without a request, a client
        that takes nothing of what it is sent."""
        now = self.loop.time()
        for conn in list(self.conns.values()):
            size = conn.transport.get_write_buffer_size()
            if size and size >= conn.buffered:
                conn.stalled = conn.stalled if conn.stalled is not None else now
            else:
                conn.stalled = None
            conn.buffered = size
            if conn.stalled is not None and now - conn.stalled > self.limits.write_timeout:
                conn.dropped = f"took nothing of what it was sent for {self.limits.write_timeout:g} s"
                conn.transport.abort()
            elif conn.state == "waiting" and not size and now - conn.since > self.limits.request_timeout:
                if not conn.answered:
                    conn.dropped = f"no request within {self.limits.request_timeout:g} s"
                conn.transport.close()

    # -- requests -----------------------------------------------------------
    async def handle(self, request: web.BaseRequest) -> web.StreamResponse:
        conn = self.conns.get(request.transport)  # type: ignore[arg-type]
        if conn is None:  # closed meanwhile
            raise ConnectionResetError("the client went away")
        conn.state = "answering"
        try:
            return await self._answer(request, conn)
        finally:
            if conn.state == "answering":
                conn.state, conn.since, conn.answered = "waiting", self.loop.time(), True

    async def _answer(self, request: web.BaseRequest, conn: _Conn) -> web.StreamResponse:
        if request.method != "GET":
            return _web(_plain(405, "This page only shows the game: it takes no changes (GET only)."))
        host = request.headers.get("Host")
        if host is not None and not self._known(host_name(host), request):
            return _web(_plain(421, f"This box does not answer to the name {host_name(host)!r}: open it by "
                                    "its own name or address, or add the name to TABLEKEEPER_WEB_NAMES in "
                                    "/etc/tablekeeper/web.env."))
        if urlsplit(request.raw_path).path == "/events":
            return await self._events(request, conn)
        answer = await self.loop.run_in_executor(self.pages, self.app.respond, request.raw_path)
        return _web(answer)

    def _known(self, name: str, request: web.BaseRequest) -> bool:
        if name in self.names:
            return True
        try:
            asked = ipaddress.ip_address(name.split("%")[0])
        except ValueError:
            return False
        local = request.transport.get_extra_info("sockname") if request.transport else None
        if not local:
            return False
        here = ipaddress.ip_address(str(local[0]).split("%")[0])
        if isinstance(here, ipaddress.IPv6Address) and here.ipv4_mapped is not None:
            here = here.ipv4_mapped
        return asked == here or (asked.is_loopback and here.is_loopback)

    async def _events(self, request: web.BaseRequest, conn: _Conn) -> web.StreamResponse:
        limits = self.limits
        mine = sum(1 for peer in self.streams.values() if peer == conn.peer)
        if len(self.streams) >= limits.streams or mine >= limits.streams_per_client:
            many = limits.streams if len(self.streams) >= limits.streams else limits.streams_per_client
            return _web(_plain(503, f"{many} pages already follow the game: close one, or reload this page "
                                    "by hand to see the game."))
        stream = _Stream()
        conn.state, conn.stream = "streaming", stream
        self.streams[stream] = conn.peer
        try:
            sock = request.transport.get_extra_info("socket") if request.transport else None
            if sock is not None:
                with contextlib.suppress(OSError):
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, limits.stream_buffer)
            response = web.StreamResponse(headers={"Content-Type": "text/event-stream",
                                                   "Cache-Control": "no-store"})
            response.force_close()
            await response.prepare(request)
            seen = self.generation
            first = await self.loop.run_in_executor(self.pages, self.app.event)
            await response.write(b"retry: 1000\n" + first)
            while not stream.gone:
                if self.generation == seen:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(stream.wake.wait(), limits.keepalive)
                    stream.wake.clear()
                    if stream.gone:
                        break
                    if self.generation == seen:
                        await response.write(b": still here\n\n")
                        continue
                seen = self.generation
                await response.write(self.latest)
            return response
        except (ConnectionError, RuntimeError):
            # the page was closed or dropped (aiohttp says "Cannot write to closing transport"
            # as a ConnectionResetError, or as RuntimeError in older releases)
            return web.Response()
        finally:
            self.streams.pop(stream, None)

    def publish(self, event: bytes) -> None:
        """Tell every open stream (called on the loop)."""
        self.latest = event
        self.generation += 1
        for stream in self.streams:
            stream.wake.set()


def _web(answer: Response) -> web.Response:
    return web.Response(status=answer.status, body=answer.body, headers={
        "Content-Type": answer.type, "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": POLICY, "Server": "tablekeeper"})


class Server:
    """The source watched in a thread, the pages served on an event loop in
    another, drawn in two more."""

    def __init__(self, source: Source, host: str, port: int, poll: float = 0.1, limits: Limits | None = None,
                 names: Iterable[str] = ()) -> None:
        self.source = source
        self.poll = poll
        self.limits = limits or Limits()
        self.app = App(source)
        self.stop = threading.Event()
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        # bound here, so a port in use is said before anything starts
        self.sock = socket.create_server((host, port), family=family, backlog=self.limits.backlog)
        self.sock.setblocking(False)
        self.names = box_names(names)
        self.pages = ThreadPoolExecutor(max_workers=2, thread_name_prefix="tablekeeper-page")
        self.loop = asyncio.new_event_loop()
        self.http = _Http(self.app, self.limits, self.names, self.pages, self.loop)
        self._threads: list[threading.Thread] = []
        self._listening: asyncio.AbstractServer | None = None
        self._sweeper: asyncio.Task[None] | None = None

    @property
    def address(self) -> tuple[str, int]:
        host, port = self.sock.getsockname()[:2]
        return str(host), int(port)

    def counts(self) -> dict[str, int]:
        """Connections and event streams open now (for tests and the benchmark)."""
        return {"connections": len(self.http.conns), "streams": len(self.http.streams)}

    def start(self, ready: Callable[[], None] = lambda: None) -> None:
        self.source.refresh()
        self.http.latest = self.app.event()
        started = threading.Event()
        for target in (self._watch, lambda: self._serve(started)):
            thread = threading.Thread(target=target, daemon=True, name="tablekeeper-web")
            thread.start()
            self._threads.append(thread)
        started.wait(30)
        ready()

    def _serve(self, started: threading.Event) -> None:
        asyncio.set_event_loop(self.loop)
        self._listening = self.loop.run_until_complete(self.http.listen(self.sock))
        self._sweeper = self.loop.create_task(self._sweep())
        started.set()
        self.loop.run_forever()

    async def _sweep(self) -> None:
        every = max(0.05, min(1.0, self.limits.request_timeout / 4, self.limits.write_timeout / 4))
        while True:
            await asyncio.sleep(every)
            self.http.sweep()

    def _watch(self) -> None:
        while not self.stop.is_set():
            if self.source.refresh():
                event = self.app.event()
                with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                    self.loop.call_soon_threadsafe(self.http.publish, event)
            self.stop.wait(self.poll)

    async def _shut(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        if self._listening is not None:
            self._listening.close()
        for conn in list(self.http.conns.values()):
            conn.transport.abort()
        others = [t for t in asyncio.all_tasks(self.loop) if t is not asyncio.current_task()]
        for task in others:
            task.cancel()
        await asyncio.gather(*others, return_exceptions=True)
        self.loop.stop()

    def close(self) -> None:
        self.stop.set()
        if self.loop.is_running():
            asyncio.run_coroutine_threadsafe(self._shut(), self.loop)
        for thread in self._threads:
            thread.join(10)
        if not self.loop.is_running():
            self.loop.close()
        self.sock.close()
        self.pages.shutdown(wait=True)
        self.source.close()
