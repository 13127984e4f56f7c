"""King & Assassins' secret pick: each level's options are worked out once
while the menu stands on it (a scan of the 220 picks for every citizen, asked
for several times an input), and are the options worked out afresh at every
level, through going down and back up."""

from __future__ import annotations

import pytest

import rules
from pi_app.games.king_and_assassins.adapter import PickMenu
from pi_app.ui.menu import BACK


def test_a_levels_options_are_worked_out_once_and_stay_right(monkeypatch: pytest.MonkeyPatch) -> None:
    state = rules.get("king-and-assassins").new_game(2, 1)
    menu = PickMenu.over(state.legal_moves())
    assert len(menu.moves) == 220  # the case this is about
    worked = [0]
    real = PickMenu.level_options

    def level_options(self: PickMenu) -> list:
        worked[0] += 1
        return real(self)

    monkeypatch.setattr(PickMenu, "level_options", level_options)
    path = []
    for step in range(12):  # down three levels, back up, down another way
        before = worked[0]
        for _ in range(3):
            opts = menu.options()
        assert worked[0] - before <= 1, f"step {step}: worked out {worked[0] - before} times"
        assert opts == real(menu), f"step {step}"
        opts[0] = None  # a caller's list is its own
        assert menu.options() == real(menu)
        if step in (3, 4) and len(menu.stack) > 1:
            menu.back()
            path.append("back")
            continue
        choice = next((i for i, o in enumerate(menu.options()) if o.kind != BACK), None)
        if choice is None or menu.field() is None:
            break
        menu.stack[-1] = (menu.moves, choice + step % 2)
        menu.select()
        path.append(str(menu.picked()))
    assert "back" in path and len(menu.picked()) >= 2, path
