"""Why a move is refused: the most specific rule it breaks.

``SiegeState._check`` accepts exactly the listed moves and asks
:func:`explain` about any other; explain raises the IllegalMove that names
the rule, falling back to ``siege.move.not-now``."""

from __future__ import annotations

from typing import Any, Protocol

from rules.core import IllegalMove, Move, require
from rules.siege import moves as mv
from rules.siege.constants import (
    ATTACKER,
    DEFENDER,
    DIE_FACES,
    GROUP_LIMIT,
    HAND_LIMIT,
    LEADER,
    POUR_CARDS,
    R_ATTACK,
    R_CARDS,
    R_EVENT_PHASE,
    R_EVENTS,
    R_FEED,
    R_GROUP,
    R_HAND,
    R_MELEE,
    R_MOVE,
    R_PLAY,
    R_RANGED,
    R_ROWS,
    R_SETUP,
    R_SUPPORT,
    R_TURN,
    SUPPLY,
    SUPPLY_LIMIT,
)
from rules.siege.data import CARDS


class Position(Protocol):
    """What the checks read of a game of Siege (``SiegeState`` has it all):
    the state uses the checks, so they know it only through this."""

    seat: int
    phase: str
    rows: list[dict[str, list[str]]]
    towers: dict[str, list[str]]
    hands: list[dict[str, int]]
    discards: list[dict[str, int]]
    group: list[str]  # the attack being built
    used: list[str]  # units that attacked this turn
    played: list[str]  # units that entered the table this turn
    losses: dict[str, Any] | None
    arriving: list[dict[str, Any]]

    def legal_moves(self) -> list[Move]: ...

    def locate(self, uid: str) -> tuple[int, str] | None: ...

    def mode(self, uid: str) -> str: ...

    def moat(self) -> str | None: ...

    def walls(self) -> list[str]: ...

    def peasants(self) -> list[str]: ...

    def supplies(self, seat: int) -> list[str]: ...

    def hand_size(self, seat: int) -> int: ...

    def row1_limit(self) -> int: ...

    def has_event(self, seat: int, effects: tuple[str, ...], variant: str | None = None) -> bool: ...

    def sally_blocked(self) -> bool: ...

    def can_brawl(self, uid: str) -> bool: ...

    def entry_slots(self, card: str, target: str | None) -> list[int | None]: ...

    def play_targets(self, card: str, setup: bool) -> list[str | None]: ...

    def must_discard(self) -> list[str]: ...

    def pour_options(self) -> list[Move]: ...

    def _grain_fits(self, setup: bool) -> bool: ...


PHASE_MOVES: dict[str, tuple[type[Move], ...]] = {
    "setup_draw": (mv.Draw,), "draw": (mv.Draw,), "die": (mv.Die,), "attack_die": (mv.Die,),
    "setup": (mv.Play, mv.Discard), "play": (mv.Play, mv.Discard, mv.EndPhase), "feed": (mv.Feed,),
    "lose": (mv.Lose,), "event": (mv.Spear,), "attack": (mv.Attack, mv.EndPhase),
    "aim": (mv.Join, mv.Target), "support": (mv.Support,), "move": (mv.Shift, mv.EndPhase),
    "pour": (mv.Play, mv.Pass), "horn": (mv.Raze,), "arrive": (mv.Place,),
}


def _card(uid: str) -> str:
    return uid.rsplit("-", 1)[0]


def explain(state: Position, move: Move) -> None:
    allowed = PHASE_MOVES.get(state.phase, ())
    kind = move.to_json()["type"]
    if type(move) not in allowed:  # name what the phase takes, so the player knows what to do
        expected = sorted({m.to_json()["type"] for m in state.legal_moves()}) or ["-"]
        raise IllegalMove("siege.phase.wrong", R_TURN, move=kind, phase=state.phase,
                          expected=", ".join(expected))
    handler = _EXPLAIN.get(type(move))
    if handler is not None:
        handler(state, move)
    raise IllegalMove("siege.move.not-now", R_TURN, move=move.to_json(), phase=state.phase)


def _die(state: Position, move: mv.Die) -> None:
    require(1 <= move.value <= DIE_FACES, "siege.die.value", R_EVENT_PHASE, value=move.value)


def _draw(state: Position, move: mv.Draw) -> None:
    raise IllegalMove("siege.draw.not-in-deck", R_EVENT_PHASE, card=move.card)


def _in_hand(state: Position, seat: int, card: str) -> None:
    require(state.hands[seat].get(card, 0) > 0, "siege.hand.missing", R_PLAY, card=card)


def _play(state: Position, move: mv.Play) -> None:
    pour = state.phase == "pour"
    seat = DEFENDER if pour else state.seat
    card, target = move.card, move.target
    if pour:
        require(card in POUR_CARDS, "siege.pour.only-pour", R_CARDS)
    _in_hand(state, seat, card)
    _no_dead_card(state, card)
    setup = state.phase == "setup"
    kind = CARDS[card].kind if card in CARDS else ""
    if setup and seat == DEFENDER:
        require(card in ("castle_walls", "moat"), "siege.play.setup-defender", R_SETUP)
    if kind == "fortification":
        require(setup, "siege.play.setup-only", R_CARDS, card=card)
        require(card != "moat" or state.moat() is None, "siege.play.moat-present", R_CARDS)
    if kind == "supply":
        require(card == SUPPLY[seat], "siege.play.not-playable", R_CARDS, card=card)
        require(len(state.supplies(seat)) < SUPPLY_LIMIT, "siege.play.supply-limit", R_CARDS,
                limit=SUPPLY_LIMIT)
    targets = state.play_targets(card, setup) if not pour else [t.target for t in state.pour_options()]
    if targets == [None] or kind in ("troop", "war_machine", "supply", "modifier", "fortification"):
        require(target is None, "siege.play.unexpected-target", R_CARDS, card=card)
    if target in targets and state.entry_slots(card, target) != [None]:
        _slot(state, move.at, seat, "r2")
    else:
        require(move.at is None, "siege.row.unexpected-slot", R_ROWS)
    if kind in ("leader", "event") or (card in POUR_CARDS and (seat != DEFENDER or setup)):
        raise IllegalMove("siege.play.not-playable", R_CARDS, card=card)
    require(target is not None, "siege.play.no-target", R_CARDS, card=card)
    if card == "traitor" and target == "grain":
        require(bool(state.discards[seat].get(SUPPLY[seat])), "siege.play.no-grain", R_CARDS)
        # The limit of 5 is stated in the setup, step 4 ("Durante il gioco non si potranno mai
        # avere in mano più di 5 carte"), not only in the notes.
        require(state._grain_fits(setup), "siege.hand.full", R_SETUP, limit=HAND_LIMIT)
    if card == "traitor" and target in state.supplies(1 - seat):
        require(len(state.supplies(seat)) < SUPPLY_LIMIT, "siege.play.supply-limit", R_CARDS,
                limit=SUPPLY_LIMIT)
    if card in POUR_CARDS:
        require(target in state.rows[ATTACKER]["r0"], "siege.pour.not-row0", R_CARDS, target=target)
    raise IllegalMove("siege.play.bad-target", R_CARDS, card=card, target=target)


def _slot(state: Position, at: int | None, seat: int, row: str) -> None:
    """A card entering row 1 or 2 takes the place its player names."""
    most = len(state.rows[seat][row])
    require(at is not None, "siege.row.name-slot", R_ROWS, row=row[-1], most=most)
    require(at is not None and 0 <= at <= most, "siege.row.bad-slot", R_ROWS, row=row[-1], most=most, at=at)


def _no_dead_card(state: Position, card: str | None) -> None:
    """A Walls or Moat card in the Defender's hand must be his turn's
    discard before anything else (see ``Position.must_discard``)."""
    dead = state.must_discard()
    require(not dead or card in dead, "siege.play.discard-first", R_CARDS, card=dead[0] if dead else "")


def _discard(state: Position, move: mv.Discard) -> None:
    _in_hand(state, state.seat, move.card)
    _no_dead_card(state, move.card)


def _feed(state: Position, move: mv.Feed) -> None:
    require(move.card == SUPPLY[state.seat], "siege.feed.not-food", R_FEED, card=move.card)
    _in_hand(state, state.seat, move.card)


def _end(state: Position, move: mv.EndPhase) -> None:
    if state.phase == "play":
        _no_dead_card(state, None)
        require(state.hand_size(state.seat) <= HAND_LIMIT, "siege.hand.full", R_SETUP, limit=HAND_LIMIT)


def _lose(state: Position, move: mv.Lose) -> None:
    reason = state.losses["reason"] if state.losses else ""
    if move.card is not None:
        require(reason == "floods", "siege.lose.hand-not-allowed", R_EVENTS)
        require(move.card == SUPPLY[state.seat], "siege.feed.not-food", R_EVENTS, card=move.card)
        _in_hand(state, state.seat, move.card)
    raise IllegalMove("siege.lose.bad-unit", R_EVENTS, unit=move.unit or move.card, reason=reason)


def _spear(state: Position, move: mv.Spear) -> None:
    require(move.choice in ("bonus", "archer", "swordsman"), "siege.spear.bad-choice", R_EVENTS,
            choice=move.choice)
    if move.choice == "bonus":
        require(move.unit is None, "siege.spear.unexpected-unit", R_EVENTS)
        require(move.at is None, "siege.row.unexpected-slot", R_ROWS)
    require(bool(state.peasants()), "siege.spear.no-peasant", R_EVENTS)
    require(move.unit in state.peasants(), "siege.spear.name-peasant", R_EVENTS, unit=move.unit or "-")
    _slot(state, move.at, DEFENDER, "r2")


def _place(state: Position, move: mv.Place) -> None:
    entry = state.arriving[0]
    _slot(state, move.at, entry["seat"], entry["row"])


def _raze(state: Position, move: mv.Raze) -> None:
    raise IllegalMove("siege.horn.not-wall", R_EVENTS, unit=move.unit)


def _own_unit(state: Position, uid: str) -> None:
    where = state.locate(uid)
    require(where is not None, "siege.unit.unknown", R_ROWS, unit=uid)
    require(where is not None and where[0] == state.seat, "siege.attack.not-yours", R_ATTACK, unit=uid)
    require(uid not in state.used, "siege.attack.used", R_ATTACK, unit=uid)


def _why_no_target(state: Position, uid: str, mode: str = "") -> None:
    mode = mode or state.mode(uid)
    where = state.locate(uid)
    row = where[1] if where else ""
    require(mode != "none", "siege.attack.cannot", R_ATTACK, unit=uid)
    if mode == "ram":
        require(row == "r0", "siege.attack.ram-not-row0", R_CARDS)
    if mode == "melee" and state.seat == ATTACKER:
        if row in state.towers:
            require(not state.moat(), "siege.attack.tower-delay", R_CARDS)
        require(row in ("r1", *state.towers), "siege.attack.not-front", R_MELEE, unit=uid)
        require(not state.walls(), "siege.attack.walls", R_MELEE)
        require(not state.moat(), "siege.attack.moat", R_CARDS)
    if mode == "melee" and state.seat == DEFENDER:
        require(row == "r2", "siege.attack.not-front", R_MELEE, unit=uid)
        require(not state.sally_blocked(), "siege.attack.sally-blocked", R_CARDS)
    raise IllegalMove("siege.attack.no-target", R_ATTACK, unit=uid)


def _attack(state: Position, move: mv.Attack) -> None:
    _own_unit(state, move.unit)
    if move.melee:
        require(state.can_brawl(move.unit), "siege.attack.melee-not-archer", R_MELEE, unit=move.unit)
    _why_no_target(state, move.unit, "melee" if move.melee else "")


def _join(state: Position, move: mv.Join) -> None:
    first = _card(state.group[0])
    require(len(state.group) < GROUP_LIMIT, "siege.attack.group-full", R_GROUP, limit=GROUP_LIMIT)
    require(CARDS[first].kind == "troop", "siege.attack.machine-group", R_GROUP)
    _own_unit(state, move.unit)
    require(_card(move.unit) == first and move.unit not in state.group, "siege.attack.group-mixed", R_GROUP,
            unit=move.unit, card=first)
    raise IllegalMove("siege.attack.no-common-target", R_GROUP, unit=move.unit)


def _target(state: Position, move: mv.Target) -> None:
    target, first = move.target, state.group[0]
    where = state.locate(target)
    require(where is not None, "siege.unit.unknown", R_ROWS, unit=target)
    require(where is not None and where[0] != state.seat, "siege.attack.own-unit", R_ATTACK, target=target)
    mode = state.mode(first)
    if _card(target) in LEADER:
        require(mode == "melee", "siege.attack.machine-leader", R_HAND)
        raise IllegalMove("siege.attack.leader-protected", R_CARDS, target=target)
    if mode == "ranged":
        if _card(target) == "battering_ram":
            require(_card(first) == "catapult" and where is not None and where[1] == "r0",
                    "siege.attack.ram-cover", R_CARDS)
        raise IllegalMove("siege.attack.out-of-range", R_RANGED, unit=first, target=target)
    raise IllegalMove("siege.attack.bad-target", R_ATTACK, target=target)


def _support(state: Position, move: mv.Support) -> None:
    uid = move.unit or ""
    require(state.locate(uid) is not None, "siege.unit.unknown", R_ROWS, unit=uid)
    require(CARDS[_card(uid)].kind == "troop", "siege.support.not-troop", R_SUPPORT)
    raise IllegalMove("siege.support.not-adjacent", R_SUPPORT, unit=uid)


def _shift(state: Position, move: mv.Shift) -> None:
    uid, to = move.unit, move.to
    where = state.locate(uid)
    require(where is not None, "siege.unit.unknown", R_ROWS, unit=uid)
    require(where is not None and where[0] == state.seat, "siege.attack.not-yours", R_MOVE, unit=uid)
    require(not state.has_event(state.seat, ("floods",)), "siege.move.forbidden", R_EVENTS)
    card = CARDS[_card(uid)]
    if to == "r1":
        require(uid in state.played, "siege.move.not-played", R_MOVE)
        require(len(state.rows[state.seat]["r1"]) < state.row1_limit(), "siege.move.row-full", R_ROWS,
                limit=state.row1_limit())
        _slot(state, move.at, state.seat, "r1")
    elif to == "r0":
        require(move.at is None, "siege.row.unexpected-slot", R_ROWS)
        require(card.id in ("battering_ram", "siege_tower"), "siege.move.not-machine", R_MOVE)
        require(where is not None and where[1] == "r1", "siege.move.not-row1", R_MOVE, unit=uid)
        require(card.id != "battering_ram" or state.moat() is None, "siege.move.moat", R_CARDS)
    elif to in state.towers:
        require(move.at is None, "siege.row.unexpected-slot", R_ROWS)
        require(not card.mounted, "siege.move.mounted", R_CARDS)
        require(where is not None and where[1] == "r1", "siege.move.not-row1", R_MOVE, unit=uid)
        require(len(state.towers[to]) < CARDS["siege_tower"].capacity, "siege.move.tower-full", R_CARDS)
    raise IllegalMove("siege.move.bad", R_MOVE, unit=uid, to=to)


_EXPLAIN = {
    mv.Die: _die, mv.Draw: _draw, mv.Play: _play, mv.Discard: _discard, mv.Feed: _feed,
    mv.EndPhase: _end, mv.Lose: _lose, mv.Spear: _spear, mv.Attack: _attack, mv.Join: _join,
    mv.Target: _target, mv.Support: _support, mv.Shift: _shift, mv.Raze: _raze, mv.Place: _place,
}
