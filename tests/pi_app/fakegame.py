"""A tiny game on the rules.core interface, to test the table without any
real engine: a dice roll (chance) sets the pile, players play their number
cards (each once) to take tokens, place a marker, peek at a secret or pass."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pi_app.games.base import Component, TableAdapter
from rules import catalogue
from rules.core import CHANCE, Event, Game, IllegalMove, Move, Outcome, State

GAME_ID = "fake-tokens"
CARDS = {"one": 1, "two": 2, "three": 3}
REGIONS = ("north", "south")
COLOURS = ("red", "blue")

catalogue.register({
    "fake.card.used": ("Card {card} is already used.", "La carta {card} è già usata."),
    "fake.card.too-big": ("Card {card} takes more than the pile holds.", "La carta {card} è troppo grande."),
})


@dataclass(frozen=True)
class FakeMove(Move):
    data: tuple[tuple[str, Any], ...]

    def to_json(self) -> dict[str, Any]:
        return dict(self.data)


def mv(**fields: Any) -> FakeMove:
    return FakeMove(tuple(fields.items()))


class FakeState(State):
    game_id = GAME_ID

    def __init__(self, players: int, seed: int, options: dict[str, Any]) -> None:
        super().__init__(players, seed, options)
        self.pile: int | None = None
        self.turn = 0
        self.used: list[list[str]] = [[] for _ in range(players)]
        self.scores = [0] * players
        self.markers: list[tuple[str, str]] = []
        self.moves_made = 0

    def _to_move(self) -> int | None:
        if self.pile is None:
            return CHANCE
        if self.pile <= 0 or self.moves_made >= 12:
            return None
        return self.turn

    def _legal_moves(self) -> list[Move]:
        if self.pile is None:
            return [mv(type="roll", value=v) for v in (4, 5, 6)]
        out: list[Move] = [mv(type="pass")]
        out += [mv(type="play", card=c) for c, v in CARDS.items()
                if c not in self.used[self.turn] and v <= self.pile]
        out += [mv(type="place", region=r, colour=c) for r in REGIONS for c in COLOURS]
        out.append(mv(type="peek"))
        return out

    def _check(self, move: Move) -> None:
        data = move.to_json()
        if data.get("type") == "play" and data.get("card") in CARDS and self.pile is not None:
            card = data["card"]
            if card in self.used[self.turn]:
                raise IllegalMove("fake.card.used", "Cards", card=card)
            if CARDS[card] > self.pile:
                raise IllegalMove("fake.card.too-big", "Cards", card=card)
        super()._check(move)

    def _apply(self, move: Move) -> list[Event]:
        data = move.to_json()
        kind = data["type"]
        if kind == "roll":
            self.pile = data["value"]
            return [Event("rolled", {"value": data["value"]})]
        seat = self.turn
        events: list[Event] = []
        if kind == "play":
            self.used[seat].append(data["card"])
            self.pile -= CARDS[data["card"]]
            self.scores[seat] += CARDS[data["card"]]
            events.append(Event("took", {"seat": seat, "tokens": CARDS[data["card"]]}))
        elif kind == "place":
            self.markers.append((data["region"], data["colour"]))
            events.append(Event("placed", {"region": data["region"], "colour": data["colour"]}))
        elif kind == "peek":
            events.append(Event("peeked", {"pile": self.pile}, audience=(seat,)))
        else:
            events.append(Event("passed", {"seat": seat}))
        self.moves_made += 1
        self.turn = (self.turn + 1) % self.players
        return events

    def _view(self, seat: int | None) -> dict[str, Any]:
        out: dict[str, Any] = {"pile": self.pile, "scores": list(self.scores), "turn": self.turn}
        if seat is not None:
            out["used"] = list(self.used[seat])
        return out

    def _outcome(self) -> Outcome | None:
        if self._to_move() is not None:
            return None
        best = max(self.scores)
        return Outcome([i for i, s in enumerate(self.scores) if s == best],
                       dict(enumerate(self.scores)), "pile empty" if self.pile == 0 else "move limit")

    def _to_json(self) -> dict[str, Any]:
        return {"pile": self.pile, "turn": self.turn, "used": self.used, "scores": self.scores,
                "markers": self.markers, "moves_made": self.moves_made}


class FakeGame(Game):
    id = GAME_ID
    name = "Fake Tokens"
    player_counts = (2, 3, 4)

    def _new_game(self, players: int, seed: int, options: dict[str, Any]) -> State:
        return FakeState(players, seed, options)

    def move_from_json(self, data: Any) -> Move:
        if not isinstance(data, dict) or "type" not in data:
            raise ValueError(f"not a fake-tokens move: {data!r}")
        order = ("type", "value", "card", "region", "colour")
        return mv(**{k: data[k] for k in order if k in data})


class FakeAdapter(TableAdapter):
    """A game's own adapter: its cards are tagged, one set per seat."""

    game_id = GAME_ID
    turn_rule = "Turns"
    zone_field = "region"

    def components(self) -> list[Component]:
        out = [Component(f"{c}@{s + 1}", "card", c, s, (f"card {c}", f"carta {c}"))
               for s in range(self.players) for c in CARDS]
        out += [Component(f"cube:{c}", "cube", c, None, (f"{c} cube", f"cubo {c}")) for c in COLOURS]
        return out

    def probe(self, state: State, seat: int, comp: Component) -> Move | None:
        return mv(type="play", card=comp.value) if comp.kind == "card" else None
