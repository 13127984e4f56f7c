"""A menu over any game's legal moves, stepped with ◀ ● ▶.

Moves are grouped by their JSON fields: at each level the menu branches on the
first field (in notation order) whose values differ among the moves left, so
"type" usually comes first, then the card, the region, the colour; a game may
put a field last (``later``: a figure, named by its tap once its distance is
chosen). Each
level starts on the choice its ``prefer`` names (the one the player made
last time there). When one move is left it is played at once unless
``confirms`` says it asks for ● first (undo cannot take it back, or it
reveals something); without ``confirms`` every move asks. A move that asks
is confirmed by the ● that picks it where ``chosen`` says so: its option,
one whole move, is shown with "● confirm" (a row declared, a pile drawn
from), so no second screen repeats it. Nothing here knows a game.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.core import Move

BRANCH, CONFIRM, BACK = "branch", "confirm", "back"
#: a level choosing among more than this many values is made in two steps
#: where the game groups them (a part of the table, then a place in it)
GROUP_OVER = 8
#: the field name of a grouping level: "seat/group" groups the values of "seat"
GROUPED = "/group"
MISSING = None  # the value of a field a move does not have
UNSET = object()  # no choice remembered: a level starts on its first option


def flatten(data: Any, prefix: str = "") -> dict[str, Any]:
    """A move's JSON as ``{"field.sub": value}``: nested objects become dotted
    fields so each can be its own menu level; lists stay whole values."""
    out: dict[str, Any] = {}
    if isinstance(data, dict):
        for key, value in data.items():
            name = f"{prefix}.{key}" if prefix else str(key)
            if isinstance(value, dict) and value:
                out.update(flatten(value, name))
            else:
                out[name] = value
    else:
        out[prefix or "move"] = data
    return out


_PLAIN = (str, int, float, bool, type(None))


def _key(value: Any) -> Any:
    """Equal for values with the same JSON. Plain values key by their type
    and value (True, 1 and 1.0 stay apart, as their JSON does) without a
    json.dumps each: a menu keys every move at every field, every redraw."""
    if type(value) in _PLAIN:
        return type(value), value
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True)
class Option:
    kind: str  # BRANCH, CONFIRM or BACK
    field: str | None = None
    value: Any = None
    moves: tuple[Move, ...] = ()


def split(moves: Sequence[Move], group: Grouping | None = None,
          later: tuple[str, ...] = ()) -> tuple[str | None, list[Option]]:
    """The field the moves differ on first and one option per value of it, in
    the order the values first appear, the fields of ``later`` after every
    other. One move (or identical ones): no field. More than ``GROUP_OVER``
    values that ``group`` sorts into two or more groups: one option per group
    instead, on the field ``<name>/group``."""
    flat = [flatten(m.to_json()) for m in moves]
    order: list[str] = []
    for f in flat:
        order.extend(k for k in f if k not in order)
    order.sort(key=lambda name: name in later)  # stable: the notation's order otherwise
    for name in order:
        groups: dict[Any, list[int]] = {}
        for i, f in enumerate(flat):
            groups.setdefault(_key(f.get(name, MISSING)), []).append(i)
        if len(groups) > 1:
            options = [
                Option(BRANCH, name, flat[idx[0]].get(name, MISSING), tuple(moves[i] for i in idx))
                for idx in groups.values()
            ]
            if group is not None and len(options) > GROUP_OVER:
                return grouped(name, options, group) or (name, options)
            return name, options
    return None, []


Grouping = Callable[[str, Any], Any]  # (field, value) -> the value's group, None for none


def grouped(name: str, options: list[Option], group: Grouping) -> tuple[str, list[Option]] | None:
    """``options`` as one option per group, in the order the groups first
    appear; None when a value has no group or all share one."""
    members: dict[Any, list[Option]] = {}
    for opt in options:
        key = group(name, opt.value)
        if key is None:
            return None
        members.setdefault(_key(key), []).append(opt)
    if len(members) < 2:
        return None
    field = name + GROUPED
    return field, [Option(BRANCH, field, group(name, opts[0].value),
                          tuple(m for opt in opts for m in opt.moves)) for opts in members.values()]


@dataclass
class Cursor:
    """Where a seat is in the menu: a stack of narrowing move sets, each with
    the option highlighted at that level. The bottom is every legal move."""

    stack: list[tuple[tuple[Move, ...], int]] = field(default_factory=list)
    # split() of each level, computed once: the screen asks for it several times per redraw
    _splits: dict[int, tuple[tuple[Move, ...], tuple[str | None, list[Option]]]] = field(
        default_factory=dict, repr=False, compare=False)
    #: by depth, the choice each level started on (where "back" is placed from)
    _home: dict[int, int] = field(default_factory=dict, repr=False, compare=False)
    #: whether a move asks for ● before it is played; None: every move does
    confirms: Callable[[Move], bool] | None = field(default=None, repr=False, compare=False)
    #: the values a level branching on a field may start on, best first, given its moves
    #: (none there: the first option)
    prefer: Callable[[str, tuple[Move, ...]], list[Any]] | None = field(
        default=None, repr=False, compare=False)
    #: the group of a field's value, for a long choice made in two steps (None: one step)
    group: Grouping | None = field(default=None, repr=False, compare=False)
    #: whether the ● that picks a move asking for a confirm is that confirm,
    #: where an option stands for that move alone (None: never)
    chosen: Callable[[Move], bool] | None = field(default=None, repr=False, compare=False)
    #: fields branched on after every other (see ``split``)
    later: tuple[str, ...] = field(default=(), repr=False, compare=False)

    @classmethod
    def over(cls, moves: Sequence[Move]) -> Cursor:
        return cls([(tuple(moves), 0)])

    @property
    def moves(self) -> tuple[Move, ...]:
        return self.stack[-1][0]

    @property
    def index(self) -> int:
        return self.stack[-1][1]

    def _split(self) -> tuple[str | None, list[Option]]:
        moves = self.moves
        hit = self._splits.get(id(moves))
        if hit is None or hit[0] is not moves:
            hit = (moves, split(moves, self.group, self.later))
            self._splits[id(moves)] = hit
        return hit[1]

    def field(self) -> str | None:
        return self._split()[0] if len(self.moves) > 1 else None

    def options(self) -> list[Option]:
        if len(self.moves) == 1 or self._split()[0] is None:
            opts = [Option(CONFIRM, moves=self.moves[:1])]
        else:
            opts = list(self._split()[1])
        if len(self.stack) > 1:
            opts.insert(self._back_at(len(opts)), Option(BACK))
        return opts

    def _back_at(self, n: int) -> int:
        """Where "back" goes among a level's ``n`` choices: in a seat's menu
        (one that remembers, ``prefer``) across the ring from the one the
        level started on, so that the choices on either side of it are each
        one press away; else last (a die's faces stay in order)."""
        if self.prefer is None:
            return n
        home, far = self._home.get(len(self.stack), 0), (n + 1) // 2
        return home + far if home + far <= n else home + far - n

    def current(self) -> Option:
        opts = self.options()
        return opts[self.index % len(opts)]

    def step(self, delta: int) -> None:
        moves, index = self.stack[-1]
        self.stack[-1] = (moves, (index + delta) % len(self.options()))

    def narrow(self, moves: Sequence[Move]) -> None:
        """Go down to a subset (a chosen option, or a tapped card's branch),
        on the option the level prefers."""
        self.stack.append((tuple(moves), 0))
        self.start()

    def start(self) -> None:
        """Put this level on the option ``prefer`` names, if it has one."""
        depth = len(self.stack)
        self._home[depth] = 0
        name = self.field()
        if self.prefer is None or name is None:
            return
        branches = [opt for opt in self.options() if opt.kind != BACK]
        where = {_key(opt.value): i for i, opt in reversed(list(enumerate(branches))) if opt.kind == BRANCH}
        # a grouping level starts on the group of the value its field prefers
        base = name.removesuffix(GROUPED)
        for value in self.prefer(base, self.moves):
            if base != name and self.group is not None:
                value = self.group(base, value)
            if _key(value) in where:
                self._home[depth] = home = where[_key(value)]
                self.stack[-1] = (self.moves, self.options().index(branches[home]))
                return

    def single(self, opt: Option) -> Move | None:
        """The one move an option stands for, else None."""
        return opt.moves[0] if opt.moves and all(m == opt.moves[0] for m in opt.moves) else None

    def confirmed_by_choice(self, opt: Option) -> bool:
        """Whether ● on ``opt`` plays its one move though the move asks for
        a confirm: the option shows "● confirm" (see ``chosen``)."""
        move = self.single(opt)
        return (move is not None and self._chosen(opt, move)
                and self.confirms is not None and self.confirms(move))

    def _chosen(self, opt: Option, move: Move) -> bool:
        # the game's cheap word first: ``confirms`` plays the move on a copy
        return opt.kind == BRANCH and self.chosen is not None and self.chosen(move)

    def back(self) -> None:
        if len(self.stack) > 1:
            self._home.pop(len(self.stack), None)
            self.stack.pop()

    def select(self) -> Move | None:
        """● on the highlighted option: the move when it is confirmed (or
        needs no confirming), else None after stepping down (or back up).
        An option with no moves (a piece that cannot move) selects nothing."""
        opt = self.current()
        if opt.kind == CONFIRM:
            return opt.moves[0]
        if opt.kind == BACK:
            self.back()
        elif opt.moves:
            move = self.single(opt)
            # played now: it needs no confirm, or the ● that picked it is its confirm
            if move is not None and self.confirms is not None and (not self.confirms(move)
                                                                   or self._chosen(opt, move)):
                return move
            self.narrow(opt.moves)
        return None

    def position(self) -> tuple[int, int]:
        return self.index % len(self.options()) + 1, len(self.options())


@dataclass
class Memory:
    """What a seat chose last, for its menus to start on: for the same
    subject (the piece or card, a field of ``subjects``); else what it chose
    last time after the choice it made last (a man placed after a row
    declared); else its last choice at all. It holds the seat's own moves
    of the game as journalled, so a game resumed or undone starts its menus
    where the table did."""

    subjects: tuple[str, ...] = ()
    chosen: dict[tuple[str, Any], Any] = field(default_factory=dict)
    #: a played move's JSON as it is remembered: where a piece it names
    #: stands after it (a figure moved is found on its new place)
    follow: Callable[[Any], Any] | None = None

    def note(self, move: Any) -> None:
        """``move`` (its JSON) was played by the seat."""
        flat = flatten(self.follow(move) if self.follow is not None else move)
        about = [(f, _key(flat[f])) for f in self.subjects if f in flat]
        for name, value in flat.items():
            last = self.chosen.get((name, None), UNSET)
            if last is not UNSET:
                self.chosen[(name, ("after", _key(last)))] = value
            self.chosen[(name, None)] = value
            for subject in about:
                self.chosen[(name, subject)] = value

    def prefer(self, name: str, moves: tuple[Move, ...]) -> list[Any]:
        """The values a level branching on ``name`` may start on, best first."""
        out = []
        flat = [flatten(m.to_json()) for m in moves]
        for f in self.subjects:
            values = {_key(x.get(f, MISSING)) for x in flat}
            if len(values) == 1 and flat and f in flat[0]:
                out.append(self.chosen.get((name, (f, values.pop())), UNSET))
        last = self.chosen.get((name, None), UNSET)
        if last is not UNSET:
            out += [self.chosen.get((name, ("after", _key(last))), UNSET), last]
        return [v for v in out if v is not UNSET]
