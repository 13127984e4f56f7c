"""The 3-player last card's rule, worked out from who takes each region.

Once the game's last card is played nobody holds a card, so every struggle
left ends on passes (docs/rulings.md#kid-three-players-last-card). Without
the Mordred variant that forced ending reads the board only through who
takes each open region, in card order: whether a way of playing the card,
then a summon, wins is decided by those takers and the colour the summon
adds to the court. What decides such an ending (``decided``, from who takes
each region in the order they end) and whether the seat wins it
(``verdicts``, from the courts and the last plays) are each worked out once
and shared by every way of playing the card and by later positions: the
seat's turns after a pass change neither the courts nor the last plays.

``KingIsDeadState`` asks this of the position as it is, at the turn (may
the card be played?) and while the card is played (which ways win?), in
place of copying the state for every way of playing the card and every
summon after it, which was most of the computer's search at three players.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache
from itertools import combinations, combinations_with_replacement, product
from operator import itemgetter
from typing import Any

from rules.king_is_dead import actions
from rules.king_is_dead.actions import COLOURS, Board, Picks
from rules.king_is_dead.data import DATA
from rules.king_is_dead.scoring import SAXONS, by_invasion, by_ranking, ending, region_winner, winners

Counts = Mapping[str, int]
FACTIONS = frozenset(DATA.faction_ids)
_INDEX = {c: i for i, c in enumerate(COLOURS)}
_BY_COLOUR = itemgetter(*COLOURS)  # a region's followers by COLOURS, in one call
SAXON_TOKENS = DATA.counts["saxon_tokens"]
_FACTION_COLOUR = {f.id: f.colour for f in DATA.factions}
#: Per open region, from its followers alone: who takes it, the colours a
#: summon from it may take without changing that, and (who takes it then,
#: colour) for the summons that change it.
Region = tuple[str, tuple[str, ...], tuple[tuple[str, str], ...]]


@lru_cache(maxsize=4096)
def decided(owners: tuple[str, ...]) -> tuple[str, ...] | None:
    """What decides a forced ending's winners besides the courts, from who
    takes each region in the order the struggles end (those already ended
    first): ("invasion",) at the 4th Saxon region (the sets alone), else
    ("control", the first two factions by regions held, the most recently
    won first on a tie), all that ``scoring.by_control`` reads of the
    regions without the Mordred variant. None: an ending this does not know
    (worked out in full). Few sequences come back in every position."""
    count: dict[str, int] = {}
    latest: dict[str, int] = {}
    saxons = 0
    for i, owner in enumerate(owners):
        if owner == SAXONS:
            saxons += 1
            if saxons >= SAXON_TOKENS:
                return ("invasion",)
        elif owner in FACTIONS:
            count[owner] = count.get(owner, 0) + 1
            latest[owner] = i
        else:
            return None
    if len(owners) != len(DATA.regions):
        return None
    return ("control", *sorted(count, key=lambda f: (count[f], latest[f]), reverse=True)[:2])


@lru_cache(maxsize=128)
def verdicts(context: tuple[Any, ...]) -> dict[tuple[Any, str | None], bool]:
    """Whether the seat wins, by (what decides the ending, the colour it
    summoned), in one context (the seat, the courts, the last plays: see
    ``LastCard``), the most recent kept; the seat's turns after a pass share
    it, as nothing is played or summoned between them."""
    return {}


def forced_winners(
    order: Sequence[str],
    takers: Sequence[str],
    control: Mapping[str, str | None],
    resolved: Sequence[str],
    courts: Sequence[Counts],
    last_play: Sequence[int],
) -> list[int]:
    """The winners when the open regions ``order`` end in that order, taken
    by ``takers`` (no Mordred variant: no loyalists join meanwhile)."""
    control = dict(control)
    resolved = list(resolved)
    saxons = sum(1 for owner in control.values() if owner == SAXONS)
    ended = None
    for region, taker in zip(order, takers, strict=True):
        control[region] = taker
        resolved.append(region)
        saxons += taker == SAXONS
        ended = ending(taker, saxons, len(resolved))
        if ended:
            break
    assert ended is not None
    return winners(ended, control, resolved, courts, last_play)[0]


@lru_cache(maxsize=4096)
def _region(numbers: tuple[int, ...]) -> Region:
    """The ``Region`` of a region with these followers (by ``COLOURS``): the
    same few counts come back in every way of playing a card."""
    counts = dict(zip(COLOURS, numbers, strict=True))
    taker = region_winner(counts)
    drops = [(c, region_winner({**counts, c: counts[c] - 1})) for c in DATA.colours if counts[c]]
    return (taker, tuple(c for c, after in drops if after == taker),
            tuple((after, c) for c, after in drops if after != taker))


def _ruler(ranking: Sequence[str], courts: Sequence[Counts], last_play: Sequence[int], seat: int,
           colour: str | None) -> list[int]:
    """``scoring.by_ranking``'s ruler without the Mordred variant, ``seat``
    having summoned a follower of ``colour`` (None: nobody): the most
    followers of the first faction's colour, then of the second's among those
    tied, then the tied player whose last card is oldest. Without its lists
    and details: each new court the last card meets asks it."""
    tied: Sequence[int] = range(len(courts))
    for faction in ranking[:2]:
        c = _FACTION_COLOUR[faction]
        counts = {s: courts[s].get(c, 0) + (s == seat and c == colour) for s in tied}
        best = max(counts.values())
        tied = [s for s in tied if counts[s] == best]
        if len(tied) == 1:
            return list(tied)
    oldest = min(last_play[s] for s in tied)
    return [s for s in tied if last_play[s] == oldest]


def way_key(card: str, picks: Picks) -> Any:
    """What the last card's rule reads of a way of playing ``card``, its
    effect on the board (as ``KingIsDeadState._perform``): the two region
    cards the Crown swaps; the net change an exchange makes; the followers
    placed. Ways with the same effect (the same followers in another order,
    the same swap) have one key."""
    if card == "crown":
        # Which card gets the crown token changes nothing once no card is left to play.
        return frozenset(p.region for p in picks[:2])  # type: ignore[attr-defined]
    if card in ("garrison", "ambassador"):
        return actions.exchange_effect(picks) if picks else ()
    if card == "settlement":  # one follower of each colour, in the menu's order of colours
        return tuple((p.region, p.colour) for p in picks)  # type: ignore[attr-defined]
    return tuple(sorted((p.region, p.colour) for p in picks))  # type: ignore[attr-defined]


def effects(card: str, board: Board) -> Iterator[Any]:
    """The ``way_key`` of every way of playing ``card`` on ``board`` (that
    the card can do something there: ``actions.options_menu``), some more
    than once, without listing the ways where their effects are known: the
    Crown swaps two of the region cards it may swap; Settlement and the
    faction cards place one follower at each step, each step's picks the same
    whatever was picked before. Garrison's and Ambassador's are read from
    their ways (the partial-action and undo rules)."""
    if card == "crown":
        for a, b in combinations(board.swappable, 2):
            yield frozenset((a, b))
        return
    if card in ("garrison", "ambassador"):
        for picks in actions.options(card, board):
            yield way_key(card, picks)
        return
    tree = actions.options_menu(card, board)
    steps: list[tuple[tuple[str, str], ...]] = []  # each step's (region, colour) placed
    made: Picks = ()
    while made in tree:
        steps.append(tuple((p.region, p.colour) for p in tree[made]))  # type: ignore[attr-defined]
        made = (*made, tree[made][0])
    if card == "settlement":
        yield from product(*steps)  # one colour a step, in ``way_key``'s order
    elif all(step == steps[0] for step in steps):  # a faction card: its colour, twice in one step's regions
        yield from combinations_with_replacement(sorted(steps[0]), len(steps))
    else:
        for placed in product(*steps):
            yield tuple(sorted(placed))


class LastCard:
    """The last card's rule in one position (the card played, its picks to
    come), without the Mordred variant: ``picks_win(card, picks)``, and
    ``way_wins`` remembering each way's answer by its effect."""

    def __init__(
        self,
        seat: int,
        cards: Sequence[str],
        regions: Mapping[str, Counts],
        control: Mapping[str, str | None],
        resolved: Sequence[str],
        courts: Sequence[Counts],
        last_play: Sequence[int],
    ) -> None:
        self.seat = seat
        self.order = tuple(r for r in cards if control[r] is None)
        self.numbers = {r: _BY_COLOUR(regions[r]) for r in self.order}
        self.regions = tuple(_region(self.numbers[r]) for r in self.order)  # in card order
        self.takers = tuple(taker for taker, _, _ in self.regions)
        self.control = dict(control)
        self.resolved = tuple(resolved)
        #: who took each region already ended, in that order: the forced ending goes on from them
        self.before = tuple(control[r] for r in resolved)
        self.courts = tuple(dict(c) for c in courts)
        self.last_play = tuple(last_play)
        self.verdicts = verdicts((seat, tuple(c[colour] for c in courts for colour in DATA.colours),
                                  self.last_play))
        self.ways: dict[Any, bool] = {}  # way_key -> whether it wins
        #: Per takers (in card order): what decides the ending, and whether a
        #: summon that changes a region's taker wins, by the region's index
        #: (its followers as in this position) or (index, its summons that
        #: change it). Ways of playing the card often leave every taker as it
        #: was, or come back to takers another way made.
        self.by_takers: dict[tuple[str, ...], tuple[tuple[str, ...] | None, dict[Any, bool]]] = {}
        #: Per colour, the regions (indices) a summon of it leaves with their taker.
        same_at: dict[str, set[int]] = {}
        for i, (_, colours, _) in enumerate(self.regions):
            for c in colours:
                same_at.setdefault(c, set()).add(i)
        self.same_at = same_at

    def way_wins(self, card: str, picks: Picks) -> bool:
        """``picks_win``, worked out once per effect (``way_key``)."""
        key = way_key(card, picks)
        won = self.ways.get(key)
        if won is None:
            won = self.ways[key] = self._effect_wins(card, key)
        return won

    def effect_wins(self, card: str, key: Any) -> bool:
        """``way_wins`` of the ways whose ``way_key`` is ``key``."""
        won = self.ways.get(key)
        if won is None:
            won = self.ways[key] = self._effect_wins(card, key)
        return won

    def picks_win(self, card: str, picks: Picks) -> bool:
        """Whether some summon after carrying out ``card`` with ``picks``
        (none: the card does nothing; ``[None]`` when nobody is left to
        summon) makes the seat a winner of the forced ending."""
        return self._effect_wins(card, way_key(card, picks))

    def _effect_wins(self, card: str, effect: Any) -> bool:
        """``picks_win`` of the ways whose effect is ``effect`` (``way_key``)."""
        order, regions, takers = self.order, self.regions, self.takers
        touched: set[int] = set()  # the regions (indices) the effect changes
        if effect and card == "crown":  # two region cards change places; no follower moves
            i, j = (order.index(r) for r in effect)
            swapped, moved, taken = list(order), list(regions), list(takers)
            swapped[i], swapped[j] = swapped[j], swapped[i]
            moved[i], moved[j] = moved[j], moved[i]
            taken[i], taken[j] = taken[j], taken[i]
            order, regions, takers = tuple(swapped), tuple(moved), tuple(taken)
            touched = {i, j}
        elif effect:
            changes = effect if card in ("garrison", "ambassador") else [(r, c, 1) for r, c in effect]
            numbers: dict[str, list[int]] = {}
            for region, colour, n in changes:
                if region not in numbers:
                    numbers[region] = list(self.numbers[region])
                numbers[region][_INDEX[colour]] += n
            moved, taken = list(regions), list(takers)
            for region, counts in numbers.items():
                k = order.index(region)
                moved[k] = _region(tuple(counts))
                taken[k] = moved[k][0]
                touched.add(k)
            regions, takers = tuple(moved), tuple(taken)
        found = self.by_takers.get(takers)
        if found is None:
            found = self.by_takers[takers] = (decided(self.before + takers), {})
        how, changing = found
        known = self.verdicts  # looked up once: the search asks this very often
        # A summon that leaves its region's taker as it was is decided by its
        # colour alone: those first, once per colour.
        if touched:
            same = [c for c, at in self.same_at.items() if not at <= touched]
            same += [c for k in touched for c in regions[k][1]]
        else:
            same = list(self.same_at)
        for colour in same:
            won = known.get((how, colour))
            if won or (won is None and self._verdict(how, order, takers, colour)):
                return True
        summoned = bool(same)
        for i, (_, _, changed) in enumerate(regions):
            if changed:
                summoned = True
                key = (i, changed) if i in touched else i
                won = changing.get(key)
                if won is None:
                    won, sure = self._changed_wins(order, takers, i, changed)
                    if sure:
                        changing[key] = won
                if won:
                    return True
        return False if summoned else self._wins(order, takers, None)  # nobody to summon

    def _changed_wins(self, order: tuple[str, ...], takers: tuple[str, ...], i: int,
                      changed: tuple[tuple[str, str], ...]) -> tuple[bool, bool]:
        """Whether a summon from region ``i`` that changes its taker (``changed``:
        who takes it then, the colour) wins; and whether that holds whatever the
        order of the open regions (it is read only by an ending ``decided``
        does not know)."""
        known = self.verdicts
        head, tail = self.before + takers[:i], takers[i + 1:]
        sure = True
        for taker, colour in changed:
            how = decided((*head, taker, *tail))
            sure = sure and how is not None
            won = known.get((how, colour))
            if won is None:
                won = self._verdict(how, order, (*takers[:i], taker, *tail), colour)
            if won:
                return True, sure
        return False, sure

    def summon_wins(self, region: str | None, colour: str | None) -> bool:
        """Whether summoning a follower of ``colour`` from ``region`` (None:
        nobody to summon) makes the seat a winner of the forced ending."""
        if region is None or colour is None:
            return self._wins(self.order, self.takers, None)
        i = self.order.index(region)
        taker = dict((c, after) for after, c in self.regions[i][2]).get(colour, self.takers[i])
        takers = self.takers if taker == self.takers[i] else (*self.takers[:i], taker, *self.takers[i + 1:])
        return self._wins(self.order, takers, colour)

    def _wins(self, order: tuple[str, ...], takers: tuple[str, ...], colour: str | None) -> bool:
        """Whether the seat wins the forced ending with these takers, having
        summoned a follower of ``colour`` (None: nobody to summon)."""
        return self._verdict(decided(self.before + takers), order, takers, colour)

    def _verdict(self, how: tuple[str, ...] | None, order: tuple[str, ...], takers: tuple[str, ...],
                 colour: str | None) -> bool:
        """``_wins`` once ``decided`` has said ``how`` the ending is decided."""
        if how is not None:
            won = self.verdicts.get((how, colour))
            if won is not None:
                return won
            if how[0] == "control" and len(self.courts) == 3:  # no partners: the ruler wins alone
                won = self.verdicts[how, colour] = self.seat in _ruler(how[1:], self.courts, self.last_play,
                                                                       self.seat, colour)
                return won
        courts = [dict(c) for c in self.courts]
        if colour is not None:
            courts[self.seat][colour] += 1
        if how is None:
            return self.seat in forced_winners(order, takers, self.control, self.resolved, courts,
                                               self.last_play)
        # the winners from what decides them, as ``scoring.winners`` reads it
        won = self.seat in (by_invasion(courts, self.last_play) if how[0] == "invasion"
                            else by_ranking(how[1:], courts, self.last_play))[0]
        self.verdicts[how, colour] = won
        return won
