"""Codes to sentences: every IllegalMove code, in English and Italian.

Each game package registers its ``MESSAGES`` (``code -> (english, italian)``,
``str.format`` templates over the error's params) when it is imported.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

LANGS = ("en", "it")

_MESSAGES: dict[str, tuple[str, str]] = {
    "core.game-over": ("The game is over: no more moves.", "La partita è finita: niente più mosse."),
    "core.not-legal": ("That move is not legal now: {move}.", "Questa mossa non è legale ora: {move}."),
    "core.wrong-game": (
        "That move belongs to another game ({kind}).",
        "Questa mossa appartiene a un altro gioco ({kind}).",
    ),
}


def register(messages: Mapping[str, tuple[str, str]]) -> None:
    for code, pair in messages.items():
        if not (isinstance(pair, tuple) and len(pair) == len(LANGS)):
            raise ValueError(f"catalogue entry {code!r} must be (english, italian)")
        _MESSAGES[code] = pair


def has(code: str) -> bool:
    return code in _MESSAGES


def text(code: str, params: Mapping[str, Any], lang: str = "en") -> str:
    if lang not in LANGS:
        raise ValueError(f"language must be one of {', '.join(LANGS)}, not {lang!r}")
    pair = _MESSAGES.get(code)
    if pair is None:
        return f"{code} {dict(params)}"
    try:
        return pair[LANGS.index(lang)].format(**params)
    except (KeyError, IndexError, ValueError):
        return f"{pair[LANGS.index(lang)]} {dict(params)}"
