"""What each action card can do on a given board: every complete way of
carrying it out, as the sequence of small picks a player makes.

Pure functions over a hashable :class:`Board`, cached: a card's options are
worked out once per position, and each step of the menu is the set of next
picks among the options that match the picks made so far. The partial-action
rule ("follow the card as far as possible", Azioni Parziali) and the
no-immediate-undo rule of Garrison and Ambassador live here, in one place.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from rules.king_is_dead.data import DATA, LOYALIST
from rules.king_is_dead.moves import Crown, Into, KidMove, Place, Swap, Take

#: Follower colours in a fixed order: the factions', then the loyalists'.
COLOURS: tuple[str, ...] = (*DATA.colours, LOYALIST)

Picks = tuple[KidMove, ...]
#: The net change an exchange makes: (region, colour, +n / -n), sorted.
NetEffect = tuple[tuple[str, str, int], ...]


@dataclass(frozen=True)
class Board:
    """The part of a position the action cards look at."""

    followers: tuple[tuple[str, tuple[int, ...]], ...]  # unresolved regions only, counts by COLOURS
    reserve: tuple[int, ...]  # by faction colour
    controlled: tuple[tuple[str, str], ...]  # (faction, region) it controls, homes included
    swappable: tuple[str, ...]  # face-up region cards without a crown token
    last_exchange: NetEffect | None  # the exchange made by the last card played, if it may not be undone

    def counts(self) -> dict[str, dict[str, int]]:
        return {r: dict(zip(COLOURS, c, strict=True)) for r, c in self.followers}


def transfers(picks: Sequence[KidMove]) -> list[tuple[str, str, str]]:
    """The (from, to, colour) moves of a complete Garrison / Ambassador pick list.

    The first ``take`` names region A; further takes in A leave A, a take in
    another region B comes back to A, and ``into`` names an empty B."""
    a = picks[0].region  # type: ignore[attr-defined]
    b = next(p.region for p in picks if p.region != a)  # type: ignore[attr-defined]
    out = []
    for p in picks:
        if isinstance(p, Take):
            out.append((a, b, p.colour) if p.region == a else (b, a, p.colour))
    return out


def net_effect(moves: Iterable[tuple[str, str, str]]) -> NetEffect:
    change: Counter[tuple[str, str]] = Counter()
    for src, dst, colour in moves:
        change[(src, colour)] -= 1
        change[(dst, colour)] += 1
    return tuple(sorted((r, c, n) for (r, c), n in change.items() if n))


def undoes(effect: NetEffect, last: NetEffect | None) -> bool:
    # "Non può ... annullare subito uno scambio fatto dal giocatore precedente":
    # compared by net effect, so an exchange that puts the board back as it
    # was is refused whichever card (Garrison or Ambassador) makes it. An
    # exchange that changed nothing (same colours) leaves nothing to undo.
    # ruling: docs/rulings.md#kid-undo-an-exchange
    return bool(last) and effect == tuple(sorted((r, c, -n) for r, c, n in last))


def _draws(counts: dict[str, int], k: int) -> list[tuple[str, ...]]:
    """Ordered picks of ``k`` (1 or 2) followers out of ``counts``."""
    present = [c for c in COLOURS if counts[c]]
    if k == 1:
        return [(c,) for c in present]
    return [(a, b) for a in present for b in present if a != b or counts[a] >= 2]


def _best(options: list[tuple[Picks, int]], last: NetEffect | None) -> tuple[Picks, ...]:
    """The options that move the most followers and do not undo the last exchange.

    Partial actions: a card must be followed as far as possible, so a
    smaller exchange (one with an empty region) is allowed only when no
    larger one is; an exchange barred by the undo rule is not possible, so
    it does not bar the smaller ones."""
    allowed = options
    if last:
        # An exchange moves followers between its first pick's region and its
        # last's, so its net effect is empty or over exactly those two: only
        # one between the last exchange's regions can undo it (the rest skip
        # working out their net effect; the search lists these very often).
        regions = {r for r, _, _ in last}
        allowed = [(p, n) for p, n in options
                   if {p[0].region, p[-1].region} != regions  # type: ignore[attr-defined]
                   or not undoes(net_effect(transfers(p)), last)]
    if not allowed:
        return ()
    # ruling: docs/rulings.md#kid-partial-actions
    most = max(n for _, n in allowed)
    return tuple(p for p, n in allowed if n == most)


def _garrison(board: Board) -> tuple[Picks, ...]:
    counts = board.counts()
    options: list[tuple[Picks, int]] = []
    for a, here in counts.items():
        for b in sorted(DATA.borders[a]):
            if b not in counts:
                continue
            there = counts[b]
            b_empty = not any(there.values())
            for k in (2, 1):
                for out in _draws(here, k):
                    takes: Picks = tuple(Take(a, c) for c in out)
                    for back in _draws(there, 1):
                        options.append(((*takes, Take(b, back[0])), k + 1))
                    if b_empty:
                        options.append(((*takes, Into(b)), k))
    return _best(options, board.last_exchange)


def _ambassador(board: Board) -> tuple[Picks, ...]:
    counts = board.counts()
    options: list[tuple[Picks, int]] = []
    for r1, here in counts.items():
        for (c1,) in _draws(here, 1):
            for r2, there in counts.items():
                if r2 == r1:
                    continue
                if any(there.values()):
                    options.extend(((Take(r1, c1), Take(r2, c2)), 2) for (c2,) in _draws(there, 1))
                else:
                    options.append(((Take(r1, c1), Into(r2)), 1))
    return _best(options, board.last_exchange)


Menu = dict[Picks, tuple[KidMove, ...]]
"""What may be picked after each partial pick list; a complete pick list is
not a key. An empty menu: the card can do nothing."""


def menu(choices: Iterable[Picks]) -> Menu:
    """The menu of a list of complete pick lists (none begins another)."""
    # A tree of picks, each partial pick list made into a key once, when it
    # first appears (the keys' order): hashing every prefix of every choice
    # was most of the search's cost for Garrison and Ambassador.
    root: dict[KidMove, dict] = {}
    made: list[tuple[Picks, dict[KidMove, dict]]] = [((), root)]
    for c in choices:
        if not c:
            continue
        node = root
        for n, pick in enumerate(c[:-1]):
            child = node.get(pick)
            if child is None:
                child = node[pick] = {}
                made.append((c[: n + 1], child))
            node = child
        node.setdefault(c[-1], {})
    return {k: tuple(v) for k, v in made if v}


def leaves(tree: Menu) -> tuple[Picks, ...]:
    """The complete pick lists of a menu, in menu order."""
    out: list[Picks] = []
    todo: list[Picks] = [()] if tree else []
    while todo:
        made = todo.pop()
        for pick in reversed(tree[made]):
            longer = (*made, pick)
            (todo if longer in tree else out).append(longer)
    return tuple(reversed(out))


def _steps(steps: Sequence[tuple[KidMove, ...]]) -> Menu:
    """A menu of independent steps: each offers the same picks whatever was picked before."""
    tree: Menu = {}
    made: list[Picks] = [()]
    for i, picks in enumerate(steps):
        for m in made:
            tree[m] = picks
        if i < len(steps) - 1:
            made = [(*m, p) for m in made for p in picks]
    return tree


def _crown(board: Board) -> Menu:
    if len(board.swappable) < 2:
        # ruling: docs/rulings.md#kid-crown-with-nothing-to-swap
        return {}  # nothing to swap with: no action, and so no crown token
    swaps = tuple(Swap(r) for r in board.swappable)
    tree: Menu = {(): swaps}
    for a in swaps:
        tree[(a,)] = tuple(b for b in swaps if b != a)
        for b in tree[(a,)]:
            tree[(a, b)] = (Crown(a.region), Crown(b.region))
    return tree


def _settlement(board: Board) -> Menu:
    # One follower per faction still in the reserve; a missing colour is not
    # replaced by another (Insediamenti).
    regions = [r for r, _ in board.followers]
    colours = [c for c, n in zip(DATA.colours, board.reserve, strict=True) if n]
    if not regions:
        return {}
    return _steps([tuple(Place(r, c) for r in regions) for c in colours])


def _faction(board: Board, faction: str) -> Menu:
    colour = DATA.faction(faction).colour
    n = min(2, board.reserve[DATA.colours.index(colour)])
    held = {r for f, r in board.controlled if f == faction}
    # A region qualifies by bordering a region the faction controls; an
    # unresolved home counts as controlled, so it qualifies only through
    # another controlled neighbour (Scozzesi). ruling: docs/rulings.md#kid-faction-card-home
    targets = tuple(Place(r, colour) for r, _ in board.followers if DATA.borders[r] & held)
    if not targets:
        return {}
    return _steps([targets] * n)


# Small caches: a position's menus are asked for a few times in a row (the
# card played, then replays and checks), rarely again later.
@lru_cache(maxsize=64)
def options_menu(card: str, board: Board) -> Menu:
    """The menu of ``card`` on ``board``: every step of every legal way to
    carry it out."""
    if card == "crown":
        return _crown(board)
    if card == "garrison":
        return menu(_garrison(board))
    if card == "ambassador":
        return menu(_ambassador(board))
    if card == "settlement":
        return _settlement(board)
    return _faction(board, card)


@lru_cache(maxsize=32)
def options(card: str, board: Board) -> tuple[Picks, ...]:
    """Every complete, legal way to carry out ``card`` on ``board`` (empty: no action)."""
    if card == "garrison":
        return _garrison(board)
    if card == "ambassador":
        return _ambassador(board)
    return leaves(options_menu(card, board))


def next_picks(choices: Iterable[Picks], made: Picks) -> list[KidMove]:
    """The distinct next picks among ``choices`` that extend ``made``, in order."""
    return list(menu(c for c in choices if c[: len(made)] == made).get(made, ()))
