"""Codes to sentences: every IllegalMove code, in English and Italian.

Each game package registers its ``MESSAGES`` (``code -> (english, italian)``,
``str.format`` templates over the error's params) when it is imported, and
optionally its ``words``: the (english, italian) names of the ids its params
hold, so that a sentence names a card in its own language while the params
stay ids.

A param named in ``PLAYER_PARAMS`` holds a player's 0-based seat, never
shown as a number: the caller names it (the table by role or lobby name,
through ``name_player``), else it reads "Player N".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

#: The languages of every word the table says, in the order of every
#: (english, italian) pair; the one list the project has of them.
LANGS = ("en", "it")
PLAYER_PARAMS = frozenset({"player"})
#: A seat with no role and no name given: the one default name of a player.
PLAYER = ("Player {n}", "Giocatore {n}")

_MESSAGES: dict[str, tuple[str, str]] = {
    "core.game-over": ("The game is over: no more moves.", "La partita è finita: niente più mosse."),
    "core.not-legal": ("That move is not legal now: {move}.", "Questa mossa non è legale ora: {move}."),
    "core.wrong-game": (
        "That move belongs to another game ({kind}).",
        "Questa mossa appartiene a un altro gioco ({kind}).",
    ),
}


# Per code, the vocabulary registered with it: one game's ids may be another's too.
_WORDS: dict[str, Mapping[str, tuple[str, str]]] = {}


def register(
    messages: Mapping[str, tuple[str, str]], words: Mapping[str, tuple[str, str]] | None = None
) -> None:
    for key, pair in [*messages.items(), *(words or {}).items()]:
        if not (isinstance(pair, tuple) and len(pair) == len(LANGS)):
            raise ValueError(f"catalogue entry {key!r} must be (english, italian)")
    vocabulary = dict(words or {})
    for code, pair in messages.items():
        _MESSAGES[code] = pair
        _WORDS[code] = vocabulary


def has(code: str) -> bool:
    return code in _MESSAGES


def _named(value: Any, words: Mapping[str, tuple[str, str]], i: int) -> Any:
    """An id in words: itself, one of several alike ("archer-3": an Archer),
    or a list of them ("discard, play"); anything else as it is."""
    if not isinstance(value, str):
        return value
    if value in words:
        return words[value][i]
    base, sep, number = value.rpartition("-")
    if sep and number.isdigit() and base in words:
        return words[base][i]
    parts = value.split(", ")
    if len(parts) > 1 and all(p in words for p in parts):
        return ", ".join(words[p][i] for p in parts)
    return value


def text(code: str, params: Mapping[str, Any], lang: str = "en",
         name_player: Callable[[int], str] | None = None) -> str:
    """The sentence for ``code`` in ``lang``; ``name_player`` names a seat
    in the same language (default "Player N")."""
    if lang not in LANGS:
        raise ValueError(f"language must be one of {', '.join(LANGS)}, not {lang!r}")
    pair = _MESSAGES.get(code)
    if pair is None:
        return f"{code} {dict(params)}"
    i = LANGS.index(lang)
    words = _WORDS.get(code, {})
    named = {k: _named(v, words, i) for k, v in params.items()}
    for key in PLAYER_PARAMS & named.keys():
        seat = named[key]
        if isinstance(seat, int):
            named[key] = name_player(seat) if name_player else PLAYER[i].format(n=seat + 1)
    try:
        said = pair[i].format(**named)
    except (KeyError, IndexError, ValueError):
        return f"{pair[i]} {named}"
    return said[:1].upper() + said[1:]  # a sentence that opens with a param ("north ...")
