"""The spectator page's server on a real network: clients that send nothing,
stop reading, go away, crowd in from one address, or name another host."""

from __future__ import annotations

import contextlib
import socket
import struct
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pi_app.store.journal import Journal
from pi_app.web import server
from pi_app.web.source import Source
from tests.system import need
from tests.web.play import Table, web_process

PATIENCE = 20.0  # seconds a test waits for what the server does on its own (never a target)


@pytest.fixture
def played(tmp_path: Path) -> Path:
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    table = Table(journal, "king-and-assassins", 2, seed=2)
    table.run(6)
    journal.close()
    return path


@contextlib.contextmanager
def serving(path: Path, **limits: float) -> Iterator[server.Server]:
    web = server.Server(Source(path), "127.0.0.1", 0, limits=server.Limits(**limits), names=("box.lan",))
    web.start()
    try:
        yield web
    finally:
        web.close()


def ask(address: tuple[str, int], request: bytes, source: str = "127.0.0.1") -> bytes:
    """The whole answer to ``request`` (the server closes or the head and 20 bytes came)."""
    with socket.create_connection(address, timeout=10, source_address=(source, 0)) as sock:
        sock.sendall(request)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
            _head, sep, body = answer.partition(b"\r\n\r\n")
            if sep and len(body) >= 20:
                break
    return answer


def get(path: str, host: str = "localhost") -> bytes:
    return f"GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode()


def status(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1])


def until(what: str, check: object) -> None:
    deadline = time.monotonic() + PATIENCE
    while not check():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {PATIENCE} s: {what}")
        time.sleep(0.05)


def closed_by_server(sock: socket.socket) -> bool:
    sock.settimeout(PATIENCE)
    try:
        while sock.recv(65536):
            pass
    except (ConnectionResetError, TimeoutError):
        return False
    return True


def test_a_connection_that_sends_no_request_is_closed(played: Path) -> None:
    with serving(played, request_timeout=0.5) as web:
        silent = socket.create_connection(web.address, timeout=10)
        slow = socket.create_connection(web.address, timeout=10)
        slow.sendall(b"GET / HTTP/1.1\r\n")  # a head never finished
        with silent, slow:
            assert status(ask(web.address, get("/"))) == 200
            assert closed_by_server(silent) and closed_by_server(slow)
        until("both counted as closed", lambda: web.counts()["connections"] == 0)


def test_an_event_stream_that_stops_reading_is_dropped(played: Path) -> None:
    with serving(played, write_timeout=0.5, stream_buffer=4096) as web:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # before connecting: a small window
        sock.connect(web.address)
        sock.sendall(get("/events"))
        until("the stream is open", lambda: web.counts()["streams"] == 1)
        big = b"data: " + b"x" * 20000 + b"\n\n"
        for _ in range(40):  # far more than the buffers hold: the client reads none of it
            web.loop.call_soon_threadsafe(web.http.publish, big)
        until("the stream is dropped", lambda: web.counts()["streams"] == 0)
        sock.close()
        reader = socket.create_connection(web.address, timeout=10)  # a reading page is served as before
        with reader:
            reader.sendall(get("/events"))
            got = b""
            while b"retry: 1000" not in got:  # however the stream's first bytes are split
                chunk = reader.recv(65536)
                assert chunk, got
                got += chunk


def test_one_address_cannot_take_every_stream_or_connection(played: Path) -> None:
    with serving(played, streams_per_client=2, per_client=4) as web:
        held = [socket.create_connection(web.address, timeout=10) for _ in range(2)]
        for sock in held:
            sock.sendall(get("/events"))
        until("two streams open", lambda: web.counts()["streams"] == 2)
        answer = ask(web.address, get("/events"))
        assert status(answer) == 503 and b"2 pages already follow the game" in answer
        assert status(ask(web.address, get("/events"), source="127.0.0.2")) == 200  # another phone
        idle = [socket.create_connection(web.address, timeout=10) for _ in range(2)]
        until("four connections from 127.0.0.1", lambda: web.http.per_peer["127.0.0.1"] == 4)
        answer = ask(web.address, get("/"))
        assert status(answer) == 503 and b"4 connections from 127.0.0.1 are already open" in answer
        assert status(ask(web.address, get("/"), source="127.0.0.3")) == 200
        for sock in [*held, *idle]:
            sock.close()


def test_only_the_boxs_names_and_addresses_are_answered(played: Path) -> None:
    with serving(played) as web:
        port = web.address[1]
        for name in ("localhost", f"localhost:{port}", f"127.0.0.1:{port}", "box.lan", "BOX.LAN:80",
                     f"{socket.gethostname()}.local"):
            assert status(ask(web.address, get("/", name))) == 200, name
        for name in ("evil.example", f"evil.example:{port}", "box.lan.evil.example", "10.9.9.9"):
            answer = ask(web.address, get("/", name))
            assert status(answer) == 421 and b"does not answer to the name" in answer, name
        answer = ask(web.address, get("/events", "evil.example"))
        assert status(answer) == 421


def test_clients_that_go_away_leave_a_line_each_and_no_traceback(played: Path) -> None:
    with web_process(played) as base:
        port = int(base.rsplit(":", 1)[1].strip("/"))
        for path in ("/night", "/events", "/game/1/report") * 15:
            sock = socket.create_connection(("127.0.0.1", port), timeout=10)
            sock.sendall(get(path))
            # closed at once with a reset, the answer unread
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            sock.close()
        # served again once the server has seen them go (while it had not, this address was over its limit)
        until("a page served", lambda: status(ask(("127.0.0.1", port), get("/"))) == 200)
    # web_process fails on a traceback in the log


def test_the_listen_backlog_holds_a_rooms_burst(played: Path) -> None:
    ss = need("ss", "iproute2")
    with serving(played) as web:
        port = web.address[1]
        listing = subprocess.run([ss, "-ltnH", f"sport = :{port}"], capture_output=True, text=True,
                                 check=True).stdout.split()
        assert int(listing[2]) >= 512, listing  # Send-Q of a listening socket: its backlog


def test_the_daemon_does_not_load_the_web_server() -> None:
    """Every command's parser is built at start: the table's daemon must not
    pay aiohttp's import time and memory for a page it does not serve."""
    import sys

    probe = "import sys, pi_app.cli; pi_app.cli.build_parser(); print(sorted(m for m in sys.modules " \
            "if m.split('.')[0] == 'aiohttp' or m == 'pi_app.web.server'))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120,
                          check=True)
    assert done.stdout.strip() == "[]", done.stdout
