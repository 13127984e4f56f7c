"""Hub readers and buttons built from a table profile: one connection per hub, shared by
its readers and buttons.

The profile's reader spec names its hub and index; the hub spec gives the port
(a path such as /dev/serial/by-id/usb-MicroPython_...-if00, or "auto" / empty to
find the hub by its USB id) and, optionally, ``hold_ms``: how long the hub keeps
a tag it no longer reads (firmware default 500 ms). A button spec names its hub and
``button``, the hub's button number. Specs are read by attribute only, so drivers does
not depend on pi_app.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from drivers.events import EventSink
from drivers.hub.buttons import HubButton
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


def _acquire(spec: Any, profile: Any, what: str) -> tuple[HubConnection, str, bool]:
    """The connection to the hub ``spec`` names, opened if it is the first part on it;
    its key, and whether it was opened now. The caller releases it with _release."""
    hubs = list(getattr(profile, "hubs", ()))
    hub_name = spec.hub or (hubs[0].name if len(hubs) == 1 else None)
    if hub_name is None:
        raise ValueError(f"{what} {spec.name!r} does not say which hub it is on; set hub = \"NAME\"")
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
    return conn, key, fresh


def open_reader(spec: Any, profile: Any) -> HubReader:
    """The TagReader for ``spec`` (backend "hub"): reader ``spec.index`` of hub ``spec.hub``."""
    conn, key, _ = _acquire(spec, profile, "reader")
    return HubReader(conn, spec.index, spec.name, on_close=lambda: _release(key))


def open_button(spec: Any, profile: Any, events: EventSink, *,
                clock: Callable[[], float] | None = None) -> HubButton:
    """The button for ``spec`` (backend "hub"): button ``spec.button`` of hub ``spec.hub``,
    putting the same events on ``events`` as a GPIO button. A hub that answered with
    firmware that has no such button is refused here, with what to do."""
    conn, key, _ = _acquire(spec, profile, "button")
    try:
        options: dict[str, Any] = {} if clock is None else {"clock": clock}
        button = HubButton(spec.name, conn, int(spec.button), events,
                           hold_time=float(getattr(spec, "hold_time", None) or 1.0),
                           on_close=lambda: _release(key), **options)
    except Exception:
        _release(key)
        raise
    problem = button.problem() if conn.synced else None
    if problem:
        button.close()
        raise ValueError(f"button {spec.name}: {problem}")
    return button


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
