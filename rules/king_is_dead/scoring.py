"""Who takes a region when its struggle ends, whether the game ends, and who
wins: by control, by invasion and (Mordred variant) by the loyalists, with
the rulebook's tie-breaks (Lotte per il Potere, Vincere la Partita).

Pure functions of the final position, so the 3-player last-card rule can ask
"would this win?" of a position that is only imagined.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.king_is_dead.data import DATA, LOYALIST

Court = Mapping[str, int]
COLOUR_FACTION = {f.colour: f.id for f in DATA.factions}
SAXONS = "saxons"
LOYALISTS = "loyalists"


def region_winner(counts: Mapping[str, int]) -> str:
    """Who takes a region whose struggle ends: the colour with the most
    followers; on a tie, or with nobody there, the Saxons. Loyalists count
    like any faction (La Variante Mordred)."""
    # One pass, no lists: the 3-player last card asks this very often.
    most, leader, tied = 0, None, False
    for colour, n in counts.items():
        if n > most:
            most, leader, tied = n, colour, False
        elif n == most and n:
            tied = True
    if leader is None or tied:
        return SAXONS
    return LOYALISTS if leader == LOYALIST else COLOUR_FACTION[leader]


def ending(winner: str, saxons: int, resolved: int) -> str | None:
    """Whether the game ends after a struggle, and how: the loyalists' win
    and the 4th Saxon token end it at once; else the last struggle does."""
    if winner == LOYALISTS:
        return "loyalists"
    if saxons >= DATA.counts["saxon_tokens"]:
        return "invasion"
    if resolved == len(DATA.regions):
        return "control"
    return None


def winners(
    reason: str,
    control: Mapping[str, str | None],
    resolved: Sequence[str],
    courts: Sequence[Court],
    last_play: Sequence[int],
) -> tuple[list[int], dict[str, Any]]:
    """The winning seats (with partners) and how they were decided."""
    if reason == "invasion":
        return by_invasion(courts, last_play)
    return by_control(control, resolved, courts, last_play, loyalists=reason == "loyalists")


def team_of(seat: int, players: int) -> int | None:
    """4 players: partners sit opposite, so seats 0+2 and 1+3."""
    return seat % 2 if players == 4 else None


def sets(court: Court) -> int:
    """Complete sets: one follower of every faction."""
    return min(court.get(c, 0) for c in DATA.colours)


def faction_ranking(control: Mapping[str, str | None], resolved: Sequence[str]) -> list[str]:
    """Factions holding at least one region, most regions first; a tie goes to
    the faction that won a power struggle most recently."""
    latest: dict[str, int] = {}
    count: dict[str, int] = {}
    factions = DATA.faction_ids
    for i, region in enumerate(resolved):
        owner = control[region]
        if owner in factions:
            count[owner] = count.get(owner, 0) + 1
            latest[owner] = i
    return sorted(count, key=lambda f: (count[f], latest[f]), reverse=True)


def _most(seats: list[int], score: Mapping[int, int]) -> list[int]:
    best = max(score[s] for s in seats)
    return [s for s in seats if score[s] == best]


def _with_partners(seats: list[int], players: int) -> list[int]:
    if players != 4:
        return sorted(seats)
    teams = {team_of(s, players) for s in seats}
    return [s for s in range(players) if team_of(s, players) in teams]


def _last_player_loses(seats: list[int], last_play: Sequence[int]) -> list[int]:
    # "Il giocatore in parità che ha giocato una carta azione per ultimo
    # perde": with three or more tied, the rule is applied again to those
    # left, so the tied player whose last card is oldest wins. Players who
    # never played a card cannot be split and share the win.
    # ruling: docs/rulings.md#kid-ties
    oldest = min(last_play[s] for s in seats)
    return [s for s in seats if last_play[s] == oldest]


def _last_player_wins(seats: list[int], last_play: Sequence[int]) -> list[int]:
    newest = max(last_play[s] for s in seats)
    return [s for s in seats if last_play[s] == newest]


def scores(courts: Sequence[Court]) -> dict[int, dict[str, int]]:
    return {
        seat: {
            **{c: court.get(c, 0) for c in DATA.colours},
            "sets": sets(court),
            "total": sum(court.values()),
        }
        for seat, court in enumerate(courts)
    }


def by_control(
    control: Mapping[str, str | None],
    resolved: Sequence[str],
    courts: Sequence[Court],
    last_play: Sequence[int],
    loyalists: bool = False,
) -> tuple[list[int], dict[str, Any]]:
    """The end by control (all struggles fought) or, with ``loyalists``, the
    Mordred end: the same ruler, with the variant's exceptions."""
    return by_ranking(faction_ranking(control, resolved), courts, last_play, loyalists)


def by_ranking(
    ranking: Sequence[str],
    courts: Sequence[Court],
    last_play: Sequence[int],
    loyalists: bool = False,
) -> tuple[list[int], dict[str, Any]]:
    """``by_control`` from the factions' ranking, all it reads of the regions
    (without ``loyalists``, only the first two factions of it)."""
    players = len(courts)
    ranking = list(ranking)
    tied = list(range(players))
    used: list[str] = []
    for faction in ranking[:2]:
        # The first faction decides; on a tie, the second faction by regions
        # decides among the tied players. The rulebook stops at the second.
        colour = DATA.faction(faction).colour
        tied = _most(tied, {s: courts[s].get(colour, 0) for s in tied})
        used.append(faction)
        if len(tied) == 1:
            break
    detail: dict[str, Any] = {"ranking": ranking, "decided_by": list(used)}
    if len(tied) > 1 and loyalists and len(ranking) < 2:
        # Mordred variant, first exception: too few struggles fought to name
        # a faction (or a second one to break the tie): the factions unite
        # and the most followers at court wins. We read "o che si aggiudica
        # lo spareggio" as the missing second faction, the only tie-break
        # that can be missing. ruling: docs/rulings.md#kid-loyalists-with-no-faction
        tied = _most(tied, {s: sum(courts[s].values()) for s in tied})
        detail["decided_by"].append("total followers")
    if len(tied) > 1 and loyalists:
        # Second exception, "Se c'è ancora parità, il giocatore che ha
        # giocato per ultimo una Carta Azione vince": it stands where the
        # control ending says "Se c'è ancora un pareggio, ... per ultimo
        # perde", so it replaces that last tie-break in every loyalist
        # ending, after the factions or after the total followers alike.
        tied = _last_player_wins(tied, last_play)
        detail["decided_by"].append("last card played wins")
    elif len(tied) > 1:
        tied = _last_player_loses(tied, last_play)
        detail["decided_by"].append("last card played loses")
    detail["ruler"] = tied
    return _with_partners(tied, players), detail


def by_invasion(courts: Sequence[Court], last_play: Sequence[int]) -> tuple[list[int], dict[str, Any]]:
    """Four Saxon tokens: most complete sets wins (4 players: each team pools
    its followers); a tie goes to the tied player who played a card last."""
    players = len(courts)
    if players == 4:
        pooled = {t: {c: sum(courts[s].get(c, 0) for s in (t, t + 2)) for c in DATA.colours} for t in (0, 1)}
        team_sets = {t: sets(pooled[t]) for t in (0, 1)}
        team_play = {t: max(last_play[t], last_play[t + 2]) for t in (0, 1)}
        best = _most([0, 1], team_sets)
        detail: dict[str, Any] = {"team_sets": {str(t): team_sets[t] for t in (0, 1)}, "decided_by": ["sets"]}
        if len(best) > 1:
            best = _last_player_wins(best, [team_play[0], team_play[1]])
            detail["decided_by"].append("last card played wins")
        return _with_partners(best, players), detail
    tied = _most(list(range(players)), {s: sets(courts[s]) for s in range(players)})
    detail = {"decided_by": ["sets"]}
    if len(tied) > 1:
        tied = _last_player_wins(tied, last_play)
        detail["decided_by"].append("last card played wins")
    return sorted(tied), detail
