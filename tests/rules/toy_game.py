"""A tiny game on the rules core, for testing the core and the conformance
suite themselves: each seat is dealt a secret token value (chance), then seats
take 1 or 2 stones in turn; whoever takes the last stone scores their token.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from rules import catalogue
from rules.core import CHANCE, JSON, Event, Game, IllegalMove, Move, Option, Outcome, State, require

catalogue.register(
    {
        "toy.take.too-many": ("Take 1 or 2 stones, not {n}.", "Prendi 1 o 2 pietre, non {n}."),
        "toy.take.pile": ("Only {left} stones are left.", "Restano solo {left} pietre."),
        "toy.turn.not-yours": ("It is seat {seat}'s turn.", "Tocca al posto {seat}."),
        "toy.deal.not-now": ("No token is being dealt now.", "Nessun gettone da distribuire ora."),
    }
)


@dataclass(frozen=True)
class Deal(Move):
    value: int

    def to_json(self) -> JSON:
        return {"type": "deal", "value": self.value}


@dataclass(frozen=True)
class Take(Move):
    seat: int
    n: int

    def to_json(self) -> JSON:
        return {"type": "take", "seat": self.seat, "n": self.n}


class ToyState(State):
    game_id = "toy"

    def __init__(self, players: int, seed: int, options: dict[str, Any]) -> None:
        super().__init__(players, seed, options)
        self.tokens: list[int] = []
        self.pile = options["stones"]
        self.turn = 0
        self.winner: int | None = None

    def _to_move(self) -> int | None:
        if len(self.tokens) < self.players:
            return CHANCE
        return None if self.winner is not None else self.turn

    def _legal_moves(self) -> list[Move]:
        if self._to_move() == CHANCE:
            return [Deal(v) for v in (1, 2, 3)]
        return [Take(self.turn, n) for n in (1, 2) if n <= self.pile]

    def _check(self, move: Move) -> None:
        if isinstance(move, Deal):
            require(self._to_move() == CHANCE and move.value in (1, 2, 3), "toy.deal.not-now", "Preparazione")
            return
        if not isinstance(move, Take):
            raise IllegalMove("core.wrong-game", "", kind=type(move).__name__)
        require(self._to_move() != CHANCE, "toy.deal.not-now", "Preparazione")
        require(move.seat == self.turn, "toy.turn.not-yours", "Turno", seat=self.turn)
        require(move.n in (1, 2), "toy.take.too-many", "Turno", n=move.n)
        require(move.n <= self.pile, "toy.take.pile", "Turno", left=self.pile)

    def _apply(self, move: Move) -> list[Event]:
        if isinstance(move, Deal):
            self.tokens.append(move.value)
            return [Event("dealt", {"seat": len(self.tokens) - 1, "value": move.value},
                          audience=(len(self.tokens) - 1,))]
        assert isinstance(move, Take)
        self.pile -= move.n
        if self.pile == 0:
            self.winner = move.seat
        else:
            self.turn = (self.turn + 1) % self.players
        return [Event("took", {"seat": move.seat, "n": move.n})]

    def _view(self, seat: int | None) -> JSON:
        view: JSON = {"pile": self.pile, "turn": self.turn, "dealt": len(self.tokens)}
        if seat is not None and seat < len(self.tokens):
            view["token"] = self.tokens[seat]
        if self.winner is not None:
            view["tokens"] = self.tokens
        return view

    def _outcome(self) -> Outcome | None:
        if self.winner is None:
            return None
        scores = {s: (self.tokens[s] if s == self.winner else 0) for s in range(self.players)}
        return Outcome([self.winner], scores, "took the last stone")

    def _to_json(self) -> JSON:
        return {"tokens": self.tokens, "pile": self.pile, "turn": self.turn, "winner": self.winner}

    def perturb_secrets(self, seat: int, rng: random.Random) -> State | None:
        if seat >= len(self.tokens) or self.winner is not None:
            return None
        other = self.copy()
        assert isinstance(other, ToyState)
        other.tokens[seat] = rng.choice([v for v in (1, 2, 3) if v != self.tokens[seat]])
        return other

    def sample_unseen(self, seat: int, rng: random.Random) -> State:
        other = self._unseen_copy()
        assert isinstance(other, ToyState)
        if self.winner is None:
            other.tokens = [t if s == seat else rng.choice((1, 2, 3)) for s, t in enumerate(self.tokens)]
        return other


class ToyGame(Game):
    id = "toy"
    name = "Toy stones"
    player_counts = (2, 3)
    options = (Option("stones", (5, 7), 7, "stones on the pile"),)
    max_moves = 20

    def _new_game(self, players: int, seed: int, options: dict[str, Any]) -> State:
        return ToyState(players, seed, options)

    def move_from_json(self, data: Any) -> Move:
        if not isinstance(data, dict) or not isinstance(data.get("type"), str):
            raise ValueError(f"a toy move is an object with a type, not {data!r}")
        fields = {"deal": {"type", "value"}, "take": {"type", "seat", "n"}}.get(data["type"])
        if fields is None or set(data) != fields:
            raise ValueError(f"malformed toy move {data!r}")
        if not all(isinstance(data[k], int) and not isinstance(data[k], bool) for k in fields - {"type"}):
            raise ValueError(f"toy move fields must be integers: {data!r}")
        if data["type"] == "deal":
            return Deal(data["value"])
        return Take(data["seat"], data["n"])


GAME = ToyGame()
