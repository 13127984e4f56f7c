"""Hub readers built from a table profile: one connection per hub, shared by its readers.

The profile's reader spec names its hub and index; the hub spec gives the port
(a path such as /dev/serial/by-id/usb-MicroPython_...-if00, or "auto" / empty to
find the hub by its USB id) and, optionally, ``hold_ms``: how long the hub keeps
a tag it no longer reads (firmware default 500 ms). Specs are read by attribute only, so drivers does
not depend on pi_app.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from drivers.hub.connection import HubConnection, HubReader

log = logging.getLogger(__name__)

STARTUP_WAIT = 3.0    # seconds to wait for a hub's first snapshot when it is opened

_lock = threading.Lock()
_hubs: dict[str, HubConnection] = {}
_users: dict[str, int] = {}


def _hub_spec(hub_name: str, profile: Any) -> Any:
    for h in getattr(profile, "hubs", ()):
        if h.name == hub_name:
            return h
    known = ", ".join(h.name for h in getattr(profile, "hubs", ())) or "none"
    raise ValueError(f"reader hub {hub_name!r} is not declared in the profile (declared: {known}); "
                     "add a [[hubs]] table with its name and port")


def _port_of(hub: Any) -> str | None:
    port = str(hub.port or "").strip()
    return None if port in ("", "auto") else port


def open_reader(spec: Any, profile: Any) -> HubReader:
    """The TagReader for ``spec`` (backend "hub"): reader ``spec.index`` of hub ``spec.hub``."""
    hubs = list(getattr(profile, "hubs", ()))
    hub_name = spec.hub or (hubs[0].name if len(hubs) == 1 else None)
    if hub_name is None:
        raise ValueError(f"reader {spec.name!r} does not say which hub it is on; set hub = \"NAME\"")
    hub = _hub_spec(hub_name, profile)
    port = _port_of(hub)
    hold_ms = getattr(hub, "hold_ms", None)
    key = port or "auto"
    with _lock:
        conn = _hubs.get(key)
        if conn is None:
            conn = HubConnection(port, name=hub_name)
            if hold_ms is not None:
                conn.set_hold(None, int(hold_ms))  # kept, and sent on every (re)connect
            conn.start()
            _hubs[key] = conn
            _users[key] = 0
            fresh = True
        else:
            fresh = False
        _users[key] += 1
    if fresh and not conn.wait_synced(STARTUP_WAIT):
        # Not fatal: the watcher reports the readers as faulty and retries.
        log.warning("reader hub %s not answering yet (%s); retrying in the background",
                    hub_name, conn.last_error)
    return HubReader(conn, spec.index, spec.name, on_close=lambda: _release(key))


def _release(key: str) -> None:
    with _lock:
        _users[key] -= 1
        if _users[key] > 0:
            return
        conn = _hubs.pop(key)
        del _users[key]
    conn.close()


def close_all() -> None:
    """Close every hub connection opened here (for shutdown and tests)."""
    with _lock:
        conns = list(_hubs.values())
        _hubs.clear()
        _users.clear()
    for c in conns:
        c.close()
