"""The King is Dead at the table (placeholder until its adapter lands)."""

from __future__ import annotations

from pi_app.adapters.base import TableAdapter


class KingIsDeadAdapter(TableAdapter):
    game_id = "king-is-dead"


ADAPTER = KingIsDeadAdapter
