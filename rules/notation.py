"""One codec for every game's moves: a move's dataclass fields to and from
its JSON notation (each game's NOTATION.md documents the words).

A move is a frozen dataclass whose ``kind`` names it in the notation::

    {"type": kind, field: value, ...}

written in field order. A field with a default is left out while it holds
its default (so ``null`` is written only where the field has none); a tuple
is written as a list. Where a game's notation differs from its fields,
:func:`notation_field` says how: another key (``key``), a tuple spread over
several keys (``spread``), or a closed vocabulary (``choices``). A move with
a rule of its own among its fields overrides :meth:`Move.check_notation`;
a game still reading an older notation passes :class:`Notation` an
``older`` rewrite.

Parsing is strict, after python-chess's ``Move.from_uci``: anything
malformed raises :class:`NotationError` (a ``ValueError``) naming the game,
the move and the fault, and nothing is guessed; a well-formed move that
breaks a rule parses, and the state's ``check`` refuses it.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import MISSING, dataclass, field, fields
from types import NoneType, UnionType
from typing import Any, ClassVar

JSON = dict[str, Any]


class NotationError(ValueError):
    """A move's JSON that no state could accept: not an object, an unknown
    type, a missing or unknown field, a value of the wrong kind."""


def notation_field(
    *,
    key: str | None = None,
    spread: Sequence[str] = (),
    choices: Sequence[str] = (),
    default: Any = MISSING,
) -> Any:
    """A move field whose notation is not simply its name and its value:
    written under ``key``, spread over the keys ``spread`` (a tuple, one key
    an item), or one of ``choices``."""
    meta = {"key": key, "spread": tuple(spread), "choices": tuple(choices)}
    return field(default=default, metadata={"notation": meta})


class Move:
    """Base of every game's moves: frozen dataclasses with a JSON notation."""

    #: the move's ``type`` in the notation
    kind: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # Each class compiles its own encoder: never one its base class has
        # (or will have), but a hand-written one is inherited as usual.
        inherited = cls.to_json
        generic = inherited is Move.to_json or hasattr(inherited, "compiled_for")
        if "to_json" not in cls.__dict__ and generic:
            cls.to_json = Move.to_json  # type: ignore[method-assign]

    def to_json(self) -> JSON:
        # The first call compiles the class's own encoder and puts it on the
        # class, so later calls cost what a hand-written one does (a search
        # keys its tree by the moves' JSON).
        cls = type(self)
        cls.to_json = _encoder(_PLANS.get(cls) or _plan(cls))  # type: ignore[method-assign]
        return self.to_json()

    @classmethod
    def check_notation(cls, game: str, data: Mapping[str, Any]) -> None:
        """A rule among this move's fields beyond each field's own (which
        fields go together): raise :class:`NotationError` naming it."""


class Notation:
    """A game's notation: its moves by ``kind``, and the parser."""

    def __init__(
        self,
        game: str,
        moves: Iterable[type[Move]],
        older: Callable[[str, JSON], JSON] | None = None,
    ) -> None:
        self.game = game
        self.types: dict[str, type[Move]] = {}
        for cls in moves:
            if not cls.kind or cls.kind in self.types:
                raise ValueError(f"{game}: move {cls.__name__} needs a kind of its own, not {cls.kind!r}")
            self.types[cls.kind] = cls
        #: rewrites a move in an older notation (``(kind, data)``) to today's
        self.older = older

    def parse(self, data: Any) -> Move:
        game = self.game
        if not isinstance(data, dict):
            raise NotationError(f'a {game} move must be a JSON object with a "type", not {data!r}')
        kind = data.get("type")
        cls = self.types.get(kind) if isinstance(kind, str) else None
        if cls is None:
            raise NotationError(f"unknown {game} move type {kind!r}; known: {', '.join(self.types)}")
        if self.older is not None:
            data = self.older(kind, data)
        plan = _PLANS.get(cls) or _plan(cls)
        keys = set(data) - {"type"}
        missing = [k for f in plan.fields if not f.optional for k in f.keys if k not in keys]
        if missing:
            raise NotationError(f"{game} move {kind!r} is missing {', '.join(missing)}")
        extra = sorted(keys - plan.keys)
        if extra:
            takes = ", ".join(k for f in plan.fields for k in f.keys) or "no field"
            raise NotationError(
                f"{game} move {kind!r} has unknown fields {', '.join(extra)}; it takes {takes}"
            )
        values: dict[str, Any] = {}
        for f in plan.fields:
            if f.spread:
                values[f.attr] = tuple(f.read(game, kind, k, data[k]) for k in f.spread)
            elif f.key in data:
                values[f.attr] = f.read(game, kind, f.key, data[f.key])
        cls.check_notation(game, data)
        return cls(**values)


# -- the plans: each move class's fields read once ---------------------------

_WHAT = {str: "a non-empty string", int: "an integer", bool: "true or false"}


@dataclass(frozen=True)
class _Field:
    attr: str
    key: str
    spread: tuple[str, ...]
    choices: tuple[str, ...]
    optional: bool  # has a default, left out while it holds it
    default: Any
    nullable: bool  # no default, and None is one of its values: written as null
    item: type  # str, int or bool: the value's (or each item's) type
    is_tuple: bool

    @property
    def keys(self) -> tuple[str, ...]:
        return self.spread or (self.key,)

    def read(self, game: str, kind: str, key: str, value: Any) -> Any:
        if self.choices:
            if value not in self.choices:
                raise NotationError(
                    f"{game} move {kind!r}: {key} {value!r} is not one of {', '.join(self.choices)}"
                )
            return value
        if value is None and self.nullable:
            return None
        if self.is_tuple and not self.spread:
            if not isinstance(value, list) or not all(_is(self.item, v) for v in value):
                raise NotationError(
                    f"{game} move {kind!r}: {key} must be a list, each item {_WHAT[self.item]}, not {value!r}"
                )
            return tuple(value)
        if not _is(self.item, value):
            what = _WHAT[self.item] + (" or null" if self.nullable else "")
            raise NotationError(f"{game} move {kind!r}: {key} must be {what}, not {value!r}")
        return value


@dataclass(frozen=True)
class _Plan:
    cls: type
    kind: str
    fields: tuple[_Field, ...]
    keys: frozenset[str]


_PLANS: dict[type, _Plan] = {}


def _plan(cls: type) -> _Plan:
    hints = typing.get_type_hints(cls)
    out = []
    for f in fields(cls):  # type: ignore[arg-type]
        meta = f.metadata.get("notation", {})
        default = f.default if f.default is not MISSING else f.default_factory  # type: ignore[misc]
        optional = default is not MISSING
        item, is_tuple, nullable = _shape(hints[f.name])
        out.append(
            _Field(
                attr=f.name,
                key=meta.get("key") or f.name,
                spread=meta.get("spread", ()),
                choices=meta.get("choices", ()),
                optional=optional,
                default=default() if callable(default) else default,
                nullable=nullable and not optional,
                item=item,
                is_tuple=is_tuple,
            )
        )
    keys = frozenset(k for f in out for k in f.keys)
    plan = _PLANS[cls] = _Plan(cls, cls.kind, tuple(out), keys)  # type: ignore[attr-defined]
    return plan


def _encoder(plan: _Plan) -> Callable[[Move], JSON]:
    """``to_json`` for one class, written out as the plan says: the fields
    always written in one dict display, each one left out at its default
    tested after."""
    always = [f'"type": {plan.kind!r}']
    maybe = []
    scope: dict[str, Any] = {}
    for n, f in enumerate(plan.fields):
        value = f"self.{f.attr}"
        if f.spread:
            items = [(repr(k), f"{value}[{i}]") for i, k in enumerate(f.spread)]
        else:
            items = [(repr(f.key), f"list({value})" if f.is_tuple else value)]
        if not f.optional:
            always += [f"{k}: {v}" for k, v in items]
            continue
        scope[f"default{n}"] = f.default
        test = f"{value} is not None" if f.default is None else f"{value} != default{n}"
        maybe.append(f"    if {test}:\n" + "".join(f"        out[{k}] = {v}\n" for k, v in items))
    source = f"def to_json(self):\n    out = {{{', '.join(always)}}}\n{''.join(maybe)}    return out\n"
    exec(source, scope)  # the source is built above from the class's own field names
    encoder = scope["to_json"]
    encoder.compiled_for = plan.cls
    return encoder  # type: ignore[no-any-return]


def _shape(hint: Any) -> tuple[type, bool, bool]:
    """(item type, is a tuple, may be None) of a field's annotation."""
    nullable = False
    if isinstance(hint, UnionType) or typing.get_origin(hint) is typing.Union:
        args = [a for a in typing.get_args(hint) if a is not NoneType]
        nullable = len(args) < len(typing.get_args(hint))
        (hint,) = args
    if typing.get_origin(hint) is tuple:
        (item,) = set(typing.get_args(hint)) - {Ellipsis}
        return item, True, nullable
    return hint, False, nullable


def _is(kind: type, value: Any) -> bool:
    if kind is str:
        return isinstance(value, str) and value != ""
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, kind)
