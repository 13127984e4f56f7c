"""What each action card can do on a given board: every complete way of
carrying it out, as the sequence of small picks a player makes.

Pure functions over a hashable :class:`Board`, cached: a card's options are
worked out once per position, and each step of the menu is the set of next
picks among the options that match the picks made so far. The partial-action
rule ("follow the card as far as possible", Azioni Parziali) and the
no-immediate-undo rule of Garrison and Ambassador live here, in one place.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from rules.king_is_dead.data import DATA, LOYALIST
from rules.king_is_dead.moves import CROWNS, INTOS, PLACES, SWAPS, TAKES, KidMove, Take

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
    change: dict[tuple[str, str], int] = {}  # a plain dict: a Counter cost twice as much here
    for src, dst, colour in moves:
        change[src, colour] = change.get((src, colour), 0) - 1
        change[dst, colour] = change.get((dst, colour), 0) + 1
    return tuple(sorted((r, c, n) for (r, c), n in change.items() if n))


@lru_cache(maxsize=8192)
def exchange_effect(picks: Picks) -> NetEffect:
    """``net_effect(transfers(picks))`` of a complete Garrison / Ambassador
    pick list: the 3-player last card and the undo rule ask it of the same
    few hundred ways in position after position."""
    return net_effect(transfers(picks))


def undoes(effect: NetEffect, last: NetEffect | None) -> bool:
    # "Non può ... annullare subito uno scambio fatto dal giocatore precedente":
    # compared by net effect, so an exchange that puts the board back as it
    # was is refused whichever card (Garrison or Ambassador) makes it. An
    # exchange that changed nothing (same colours) leaves nothing to undo.
    # ruling: docs/rulings.md#kid-undo-an-exchange
    return bool(last) and effect == tuple(sorted((r, c, -n) for r, c, n in last))


def _best(options: list[tuple[Picks, int]], last: NetEffect | None) -> tuple[Picks, ...]:
    """The options that move the most followers and do not undo the last exchange.

    Partial actions: a card must be followed as far as possible, so a
    smaller exchange (one with an empty region) is allowed only when no
    larger one is; an exchange barred by the undo rule is not possible, so
    it does not bar the smaller ones."""
    by_size: dict[int, list[Picks]] = {}
    for picks, size in options:
        by_size.setdefault(size, []).append(picks)
    return _largest(by_size, last)


def _largest(by_size: dict[int, list[Picks]], last: NetEffect | None) -> tuple[Picks, ...]:
    """``_best`` of options listed by how many followers they move (each
    list in the options' order): those of the largest size with one allowed."""
    # ruling: docs/rulings.md#kid-partial-actions
    undo = _undo_pair(last)
    for size in sorted(by_size, reverse=True):
        allowed = by_size[size]
        if undo:
            allowed = [p for p in allowed if {p[0].region, p[-1].region} != undo  # type: ignore[attr-defined]
                       or not undoes(exchange_effect(p), last)]
        if allowed:
            return tuple(allowed)
    return ()


def _undo_pair(last: NetEffect | None) -> set[str]:
    """The two regions between which an exchange may undo ``last`` (none
    when nothing is to be undone). An exchange moves followers between its
    first pick's region and its last's, so its net effect is empty or over
    exactly those two: only one between the last exchange's regions can undo
    it (the rest skip working out their net effect; the search lists these
    very often)."""
    return {r for r, _, _ in last} if last else set()


def _allowed(exchanges: Sequence[Picks], last: NetEffect | None) -> Sequence[Picks]:
    """``exchanges`` between one pair of regions, without those that undo ``last``."""
    if not last:
        return list(exchanges)
    back = tuple(sorted((r, c, -n) for r, c, n in last))  # as ``undoes``, worked out once
    return [p for p in exchanges if exchange_effect(p) != back]


#: Each region's neighbours in name order (the order Garrison lists them in).
_NEIGHBOURS: dict[str, tuple[str, ...]] = {r: tuple(sorted(DATA.borders[r])) for r in DATA.regions}


# Small caches: a region's followers, and a pair of neighbours', come back
# in many positions of a search where the whole board does not.
@lru_cache(maxsize=4096)
def _region_takes(region: str, numbers: tuple[int, ...]) -> tuple[tuple[Picks, ...], tuple[Picks, ...]]:
    """As pick lists, each colour in ``region`` (with these followers, by
    ``COLOURS``) taken once, and each ordered pair of followers there (two
    of a colour when there are two)."""
    present = [c for c, n in zip(COLOURS, numbers, strict=True) if n]
    many = {c for c, n in zip(COLOURS, numbers, strict=True) if n >= 2}
    one = tuple((TAKES[region, c],) for c in present)
    two = tuple((TAKES[region, a], TAKES[region, b]) for a in present for b in present if a != b or a in many)
    return one, two


def _takes(board: Board) -> tuple[dict[str, tuple[Picks, ...]], dict[str, tuple[Picks, ...]]]:
    """Per open region, as pick lists: each colour there taken once, and
    each ordered pair of followers there; worked out once per region, not
    once per neighbour."""
    one: dict[str, tuple[Picks, ...]] = {}
    two: dict[str, tuple[Picks, ...]] = {}
    for r, numbers in board.followers:
        one[r], two[r] = _region_takes(r, numbers)
    return one, two


@lru_cache(maxsize=4096)
def _garrison_pair(a: str, here: tuple[int, ...], b: str,
                   there: tuple[int, ...]) -> tuple[tuple[Picks, ...], ...]:
    """Garrison's exchanges from region ``a`` with its neighbour ``b`` (their
    followers ``here`` and ``there``), by how many followers they move: 3,
    2 and 1."""
    one, two = _region_takes(a, here)
    backs = _region_takes(b, there)[0]  # empty: nobody there, so the exchange goes into it
    by_size: dict[int, list[Picks]] = {3: [], 2: [], 1: []}
    for k, outs in ((2, two), (1, one)):
        for takes in outs:
            if backs:
                by_size[k + 1] += [takes + back for back in backs]
            else:
                by_size[k].append((*takes, INTOS[b]))
    return tuple(by_size[3]), tuple(by_size[2]), tuple(by_size[1])


def _garrison(board: Board) -> tuple[Picks, ...]:
    followers = dict(board.followers)
    last = board.last_exchange
    undo = _undo_pair(last)  # the undo rule asked of one pair of neighbours only
    by_size: dict[int, list[Picks]] = {3: [], 2: [], 1: []}
    for a, here in board.followers:
        for b in _NEIGHBOURS[a]:
            there = followers.get(b)
            if there is not None:
                pair = _garrison_pair(a, here, b, there)
                if undo and undo == {a, b}:
                    pair = tuple(_allowed(ways, last) for ways in pair)
                three, two, one = pair
                by_size[3] += three
                by_size[2] += two
                by_size[1] += one
    return _largest(by_size, None)


def _ambassador(board: Board) -> tuple[Picks, ...]:
    one, _ = _takes(board)
    last = board.last_exchange
    undo = _undo_pair(last)  # the undo rule asked of one pair of regions only
    by_size: dict[int, list[Picks]] = {2: [], 1: []}
    for r1, _ in board.followers:
        for take in one[r1]:
            for r2, _ in board.followers:
                if r2 == r1:
                    continue
                backs = one[r2]  # empty: nobody there, so the exchange goes into it
                ways = [take + back for back in backs] if backs else [(*take, INTOS[r2])]
                by_size[2 if backs else 1] += _allowed(ways, last) if undo and undo == {r1, r2} else ways
    return _largest(by_size, None)


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


class Steps(Mapping[Picks, tuple[KidMove, ...]]):
    """The menu of a list of complete pick lists (as ``menu``), each step
    worked out when it is first asked for: a player, or the search's random
    game, walks one path through a Garrison's or an Ambassador's hundreds of
    ways, so building the whole tree was most of the cost of playing one.

    With ``keep``, the menu of the choices it keeps (as ``menu(c for c in
    choices if keep(c))``), each asked only until a step's pick is known to
    have one: the 3-player last card keeps the ways that win."""

    def __init__(self, choices: tuple[Picks, ...], keep: Callable[[Picks], bool] | None = None) -> None:
        self._choices = choices
        self._keep = keep
        self._kept: dict[Picks, bool] = {}
        # Partial pick list -> (the choices that begin with it, the next picks).
        self._steps: dict[Picks, tuple[list[Picks], tuple[KidMove, ...]]] = {}

    def _keeps(self, choice: Picks) -> bool:
        if self._keep is None:
            return True
        kept = self._kept.get(choice)
        if kept is None:
            kept = self._kept[choice] = self._keep(choice)
        return kept

    def _step(self, made: Picks) -> tuple[list[Picks], tuple[KidMove, ...]]:
        # The choices are made of the prebuilt moves (moves.py), one object
        # for each move, so a step's picks are told apart by identity: a
        # move's own equality and hash, a frozen dataclass's, were most of the
        # cost of walking a Garrison's or an Ambassador's hundreds of ways.
        found = self._steps.get(made)
        if found is None:
            k = len(made)
            if k == 0:
                group = [c for c in self._choices if c]
            else:
                before, offered = self._step(made[:-1])
                last = _among(made[-1], offered)
                group = [c for c in before if c[k - 1] is last] if last is not None else []
            if self._keep is None:
                picks = tuple({id(c[k]): c[k] for c in group if len(c) > k}.values())
            else:  # in order of each pick's first kept choice; a pick once found asks no more
                found_picks: dict[int, KidMove] = {}
                for c in group:
                    if len(c) > k and id(c[k]) not in found_picks and self._keeps(c):
                        found_picks[id(c[k])] = c[k]
                picks = tuple(found_picks.values())
            found = self._steps[made] = (group, picks)
        return found

    def get(self, made: Picks, default: Any = None) -> Any:  # type: ignore[override]
        picks = self._step(made)[1] if isinstance(made, tuple) else ()
        return picks or default

    def __getitem__(self, made: Picks) -> tuple[KidMove, ...]:
        picks = self.get(made)
        if picks is None:
            raise KeyError(made)
        return picks

    def __contains__(self, made: object) -> bool:
        return isinstance(made, tuple) and bool(self._step(made)[1])

    def __bool__(self) -> bool:
        return any(c and self._keeps(c) for c in self._choices)

    def __iter__(self) -> Iterator[Picks]:
        return iter(self._whole())  # every key, in ``menu``'s order: not on the search's way

    def __len__(self) -> int:
        return len(self._whole())

    def _whole(self) -> Menu:
        return menu(c for c in self._choices if c and self._keeps(c))


class Exchanges(Steps):
    """The menu of Garrison's or Ambassador's ways on one board (as
    ``Steps(options(card, board))``), worked out from the board's followers
    without listing the ways: the first picks (a follower taken from a
    region) from which regions can exchange, and each first pick's ways only
    when it is picked. A player, or the search's random game, walks one path
    through the hundreds of ways, so listing them all was most of the cost of
    playing either card. The whole list is made only if asked for (``len``,
    iterating the keys)."""

    def __init__(self, card: str, board: Board, firsts: tuple[KidMove, ...],
                 ways: Callable[[KidMove], list[Picks]]) -> None:
        self._card = card
        self._board = board
        self._firsts = firsts
        self._ways = ways  # a first pick's ways, in the order ``options`` lists them
        self._keep = None
        self._kept = {}
        self._steps = {}

    @property
    def _choices(self) -> tuple[Picks, ...]:  # type: ignore[override]
        return options(self._card, self._board)

    def _step(self, made: Picks) -> tuple[list[Picks], tuple[KidMove, ...]]:
        if len(made) > 1:
            return super()._step(made)  # among the first pick's ways, as ``Steps``
        found = self._steps.get(made)
        if found is None:
            if not made:
                found = ([], self._firsts)  # the first step's ways are never read: only its picks
            else:
                first = _among(made[0], self._firsts)
                group = self._ways(first) if first is not None else []
                found = (group, tuple({id(c[1]): c[1] for c in group if len(c) > 1}.values()))
            self._steps[made] = found
        return found

    def __bool__(self) -> bool:
        return bool(self._firsts)


def _garrison_steps(board: Board) -> Exchanges:
    """``Exchanges`` of Garrison: ``_garrison``'s ways, a pair of neighbours
    (in its order) at a time. A pair's ways at a size are made from its two
    regions' takes (as ``_garrison_pair``); the pair an exchange may undo has
    its ways listed and filtered, as ``_garrison`` does."""
    followers = dict(board.followers)
    last = board.last_exchange
    undo = _undo_pair(last)
    # (a, b, the pair's ways by size 3, 2, 1 when listed (the undo pair), a's followers, its largest size)
    pairs: list[tuple[str, str, tuple[tuple[Picks, ...], ...] | None, int, int]] = []
    best = 0
    for a, here in board.followers:
        n_here = sum(here)
        if not n_here:
            continue  # nothing to take: no way starts here
        for b in _NEIGHBOURS[a]:
            there = followers.get(b)
            if there is None:
                continue
            if undo and undo == {a, b}:
                # Filtered down to its largest size with an allowed way only: the
                # size played is at least that, so its smaller ways are never asked.
                by_size: list[tuple[Picks, ...]] = [(), (), ()]
                size = 0
                for i, ways in enumerate(_garrison_pair(a, here, b, there)):
                    by_size[i] = tuple(_allowed(ways, last))
                    if by_size[i]:
                        size = 3 - i
                        break
                pairs.append((a, b, (by_size[0], by_size[1], by_size[2]), n_here, size))
            else:
                # Two taken and one back; else one and one back, or two into an
                # empty region; else one into it (``_garrison_pair``'s sizes).
                size = (3 if n_here >= 2 else 2) if any(there) else (2 if n_here >= 2 else 1)
                pairs.append((a, b, None, n_here, size))
            best = max(best, size)
    if not best:
        return Exchanges("garrison", board, (), lambda first: [])

    def pair_ways(a: str, b: str, listed: tuple[tuple[Picks, ...], ...] | None, n_here: int) -> list[Picks]:
        """The pair's ways of size ``best`` (none when it has none of that size)."""
        if listed is not None:
            return list(listed[3 - best])
        one, two = _region_takes(a, followers[a])
        backs = _region_takes(b, followers[b])[0]
        if backs:
            outs = two if best == 3 else one if best == 2 else ()
            return [takes + back for takes in outs for back in backs]
        outs = two if best == 2 else one if best == 1 else ()
        return [(*takes, INTOS[b]) for takes in outs]

    def has_size(b: str, listed: tuple[tuple[Picks, ...], ...] | None, n_here: int) -> bool:
        if listed is not None:
            return bool(listed[3 - best])
        if any(followers[b]):
            return best == 2 or (best == 3 and n_here >= 2)
        return best == 1 or (best == 2 and n_here >= 2)

    firsts: dict[int, KidMove] = {}
    done = ""  # a region whose every take is already a first pick
    for a, b, listed, n_here, _ in pairs:
        if a != done and has_size(b, listed, n_here):
            if listed is None:
                # A region with two or more followers pairs each colour there with
                # another, so the ways of any size begin with each of its takes.
                starts = [takes[0] for takes in _region_takes(a, followers[a])[0]]
                done = a
            else:
                starts = [way[0] for way in listed[3 - best]]
            for pick in starts:
                firsts.setdefault(id(pick), pick)

    def ways(first: KidMove) -> list[Picks]:
        region = first.region  # type: ignore[attr-defined]
        out: list[Picks] = []
        for a, b, listed, n_here, _ in pairs:
            if a == region and has_size(b, listed, n_here):
                out += [way for way in pair_ways(a, b, listed, n_here) if way[0] is first]
        return out

    return Exchanges("garrison", board, tuple(firsts.values()), ways)


def _ambassador_steps(board: Board) -> Exchanges:
    """``Exchanges`` of Ambassador: ``_ambassador``'s ways, a first pick's
    with each other region in its order; a way between the regions an
    exchange may undo is asked of the undo rule, as ``_ambassador`` does."""
    one, _ = _takes(board)
    last = board.last_exchange
    undo = _undo_pair(last)
    regions = [r for r, _ in board.followers]
    full = sum(1 for r in regions if one[r])

    def with_region(take: Picks, r1: str, r2: str, size: int) -> list[Picks]:
        """The ways of ``take`` (from ``r1``) with ``r2`` of ``size``."""
        backs = one[r2]
        ways = [take + back for back in backs] if size == 2 else [] if backs else [(*take, INTOS[r2])]
        return _allowed(ways, last) if ways and undo and undo == {r1, r2} else ways  # type: ignore[return-value]

    grouped: dict[tuple[int, int], list[Picks]] = {}  # asked for the first step, then for the second

    def group(take: Picks, r1: str, size: int) -> list[Picks]:
        found = grouped.get((id(take[0]), size))
        if found is None:
            found = grouped[id(take[0]), size] = [
                way for r2 in regions if r2 != r1 for way in with_region(take, r1, r2, size)]
        return found

    def starts(r1: str, size: int) -> list[KidMove]:
        """The takes from ``r1`` that begin a way of ``size``."""
        if undo and r1 in undo:
            return [take[0] for take in one[r1] if group(take, r1, size)]
        others = full - 1 if size == 2 else len(regions) - full  # the other full, or the empty, regions
        return [take[0] for take in one[r1]] if others else []

    best, firsts = 0, ()
    for size in (2, 1):
        found = tuple(pick for r1 in regions if one[r1] for pick in starts(r1, size))
        if found:
            best, firsts = size, found
            break

    def ways(first: KidMove) -> list[Picks]:
        return group((first,), first.region, best)  # type: ignore[attr-defined]

    return Exchanges("ambassador", board, firsts, ways)


def _among(pick: KidMove, offered: tuple[KidMove, ...]) -> KidMove | None:
    """The object in ``offered`` that is ``pick`` (the menu's own, or an
    equal one made elsewhere, e.g. read from a player's move), or None."""
    for p in offered:
        if p is pick:
            return p
    return next((p for p in offered if p == pick), None)


def leaves(tree: Mapping[Picks, tuple[KidMove, ...]]) -> tuple[Picks, ...]:
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


@lru_cache(maxsize=64)
def _crown(swappable: tuple[str, ...]) -> Menu:
    """The Crown's menu, which reads only the region cards it may swap: few
    distinct, as they change only when a struggle ends or a crown is placed."""
    if len(swappable) < 2:
        # ruling: docs/rulings.md#kid-crown-with-nothing-to-swap
        return {}  # nothing to swap with: no action, and so no crown token
    swaps = tuple(SWAPS[r] for r in swappable)
    tree: Menu = {(): swaps}
    for a in swaps:
        tree[(a,)] = tuple(b for b in swaps if b != a)
        for b in tree[(a,)]:
            tree[(a, b)] = (CROWNS[a.region], CROWNS[b.region])
    return tree


def _settlement(board: Board) -> Menu:
    # One follower per faction still in the reserve; a missing colour is not
    # replaced by another (Insediamenti).
    regions = [r for r, _ in board.followers]
    colours = [c for c, n in zip(DATA.colours, board.reserve, strict=True) if n]
    if not regions:
        return {}
    return _steps([tuple(PLACES[r, c] for r in regions) for c in colours])


def _faction(board: Board, faction: str) -> Menu:
    colour = DATA.faction(faction).colour
    n = min(2, board.reserve[DATA.colours.index(colour)])
    held = {r for f, r in board.controlled if f == faction}
    # A region qualifies by bordering a region the faction controls; an
    # unresolved home counts as controlled, so it qualifies only through
    # another controlled neighbour (Scozzesi). ruling: docs/rulings.md#kid-faction-card-home
    targets = tuple(PLACES[r, colour] for r, _ in board.followers if DATA.borders[r] & held)
    if not targets:
        return {}
    return _steps([targets] * n)


# Small caches: a position's menus are asked for a few times in a row (the
# card played, then replays and checks), rarely again later.
@lru_cache(maxsize=64)
def options_menu(card: str, board: Board) -> Mapping[Picks, tuple[KidMove, ...]]:
    """The menu of ``card`` on ``board``: every step of every legal way to
    carry it out."""
    if card == "crown":
        return _crown(board.swappable)
    if card == "garrison":
        return _garrison_steps(board)
    if card == "ambassador":
        return _ambassador_steps(board)
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
