"""The RP2040 reader hub over USB serial: up to 16 RC522 readers behind one port.

    hub = open_hub()                 # finds 2E8A:0005, opens it exclusively, reads in a thread
    pad = hub.reader(0)              # a drivers.base.TagReader
    pad.poll()                       # frozenset of upper-case hex UIDs, or ReaderError
    hub.close()

From a table profile, ``open_reader(spec, profile)`` gives the reader a spec names and
``open_button(spec, profile, events)`` the button (drivers.hub.buttons.HubButton),
sharing one connection per hub. The protocol is firmware/PROTOCOL.md.
"""

from drivers.hub.buttons import HubButton
from drivers.hub.connection import Heartbeat, HubConnection, HubInfo, HubReader, HubStats, open_hub
from drivers.hub.factory import close_all, open_button, open_reader
from drivers.hub.port import HUB_PID, HUB_VID, find_hub_port, open_exclusive

__all__ = [
    "HUB_PID",
    "HUB_VID",
    "Heartbeat",
    "HubButton",
    "HubConnection",
    "HubInfo",
    "HubReader",
    "HubStats",
    "close_all",
    "find_hub_port",
    "open_button",
    "open_exclusive",
    "open_hub",
    "open_reader",
]
