"""`tablekeeper web`: the spectator page, a read-only process of its own.

It reads the journal the table writes and serves the game in progress, the
night's games and their reports to any browser on the table's network. It
never writes: the journal is opened read-only, and its unit
(``systemd/tablekeeper-web.service``) cannot write the state directory.
"""

from __future__ import annotations

import argparse
import signal
import threading

from pi_app import paths
from pi_app.errors import UsageError
from pi_app.table.sdnotify import notify
from pi_app.web.server import Server
from pi_app.web.source import Source
from rules.catalogue import LANGS

NAME = "web"
HELP = "serve the spectator page: the game in progress and the night's reports (read-only)"
DEFAULT_HOST = "0.0.0.0"  # every interface: the table's LAN (the box has no other network to face)
DEFAULT_PORT = 8080


def add_arguments(parser: argparse.ArgumentParser) -> None:
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--state-dir", help="the directory `tablekeeper run` keeps its journal in "
                       "(default: $STATE_DIRECTORY or ~/.local/state/tablekeeper)")
    where.add_argument("--journal", metavar="FILE", help="the journal file itself")
    parser.add_argument("--host", default=DEFAULT_HOST,
                        help=f"address to listen on (default {DEFAULT_HOST}: every network of the box; "
                        "127.0.0.1: this machine only)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT,
                        help=f"port to listen on (default {DEFAULT_PORT}; 0: any free port)")
    parser.add_argument("--lang", choices=LANGS, default="en", help="language of the pages")
    parser.add_argument("--poll", type=float, default=0.1, metavar="SECONDS",
                        help="how often the journal is looked at for news (default 0.1)")


def run(args: argparse.Namespace) -> int:
    path = args.journal or paths.journal_path(args.state_dir)
    if not 0.01 <= args.poll <= 5:
        raise UsageError(f"--poll {args.poll} is out of range: give 0.01 to 5 seconds")
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port {args.port} is not a port: give 1-65535 (or 0 for any free port)")
    try:
        server = Server(Source(path, args.lang), args.host, args.port, poll=args.poll)
    except OSError as exc:
        raise UsageError(f"cannot listen on {args.host}:{args.port}: {exc.strerror}; give another --port, "
                         "or stop the program that uses it") from None
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    try:
        server.start()
        host, port = server.address
        print(f"tablekeeper web: serving {path} at http://{host}:{port}/", flush=True)
        notify("READY=1")
        done.wait()
    except KeyboardInterrupt:
        pass
    finally:
        notify("STOPPING=1")
        server.close()
    return 0
