"""What a typical move costs a person (issue 34), counted as the input
benchmark counts it: the fewest taps and presses that make the move on the
reference table's screens (bench.bench_input.cheapest), from a seeded game
played up to a move of the kind asked about."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import rules
from bench import bench_input as b
from pi_app.games import for_game
from pi_app.session.input_map import InputMap
from pi_app.session.presentation import Presentation
from pi_app.session.scene import Scene
from pi_app.store.journal import GameRecord
from pi_app.table import profile as profiles
from rules.core import Move


def scene_at(game_id: str, players: int, seed: int, until: Callable[[Any], bool],
             options: dict[str, Any] | None = None) -> tuple[Scene, InputMap]:
    """A game on the reference table, its moves chosen at random from the
    seed (chance drawn), up to a state ``until`` accepts with a person to move."""
    state = rules.get(game_id).new_game(players, seed, options or {})
    record = GameRecord(0, game_id, players, seed, state.options, False)
    scene = Scene(profiles.load(b.PROFILES["reference"]), record, state, "en")
    imap = InputMap(scene, b.Names(game_id), b.Probe())  # type: ignore[arg-type]
    live = b.Live(scene)
    imap.commit = live  # type: ignore[assignment]
    rng = random.Random(seed)
    for _ in range(500):
        st = scene.state
        if st.is_chance():
            live.play(None, st.sample_chance())
        elif until(st):
            return scene, imap
        else:
            seat = st.to_move()
            live.play(seat, rng.choice(st.legal_moves()))
    raise AssertionError("no such state within 500 moves")


def costs(scene: Scene, imap: InputMap, keep: Callable[[Move], bool]) -> list[int]:
    """The inputs each of the legal moves ``keep`` picks costs now."""
    seat = scene.state.to_move()
    out = []
    for move in scene.state.legal_moves():
        if keep(move):
            path = b.cheapest(scene, imap, seat, move)
            assert path is not None, move
            out.append(len(path))
    return out


def test_an_artus_knight_is_placed_in_a_quarter_of_the_table_then_a_place_in_it():
    """Before: one of up to 28 free places stepped through with ◀ ▶ (13
    inputs for the farthest); now the quarter between two crowns, then the
    place: at most 7."""
    scene, imap = scene_at("artus", 2, 0, lambda st: st.view(None)["phase"] == "place")
    placing = costs(scene, imap, lambda m: m.to_json()["type"] == "place")
    assert len(placing) > 20
    assert max(placing) <= 7
    cursor = scene.cursor_for(scene.state.to_move())
    assert cursor.field() == "seat/group"
    words = scene.adapter.value_label(cursor.field(), cursor.current().value, "en")
    assert words.startswith("Places 0 to 6"), words


def kind(unit: str) -> str:
    return unit.rsplit("-", 1)[0]


def attacking(st: Any) -> bool:
    return st.view(None)["phase"] == "attack" and any(m.to_json()["type"] == "attack"
                                                      for m in st.legal_moves())


def test_a_siege_unit_attacks_by_a_tap_of_its_card():
    """Before: "Attack", then the unit, with ◀ ● (2 to 4 inputs); now the
    unit's card, picked up from its row and tapped, chooses it (1)."""
    scene, imap = scene_at("siege", 2, 1, attacking)
    seat = scene.state.to_move()
    attacks = [m for m in scene.state.legal_moves() if m.to_json()["type"] == "attack"]
    for move in attacks:
        path = b.cheapest(scene, imap, seat, move)
        assert path is not None and path[0][0] == "tap", (move, path)
    kinds = [kind(m.to_json()["unit"]) for m in attacks]
    one = [m for m in attacks if kinds.count(kind(m.to_json()["unit"])) == 1]
    assert one
    # the only unit of its kind: the tap plays it
    assert len(b.cheapest(scene, imap, seat, one[0]) or []) == 1


def test_a_siege_target_is_named_by_a_tap_of_the_other_sides_card():
    """Before: the target stepped to with ◀ ▶, then ● twice (its die
    follows); now the target's card tapped, then ●."""
    def targeting(st: Any) -> bool:
        return any(m.to_json()["type"] == "target" for m in st.legal_moves())
    scene, imap = scene_at("siege", 2, 4, targeting)  # five walls and an Archer to aim at
    seat = scene.state.to_move()
    targets = [m for m in scene.state.legal_moves() if m.to_json()["type"] == "target"]
    kinds = [kind(m.to_json()["target"]) for m in targets]
    alone = [m for m in targets if kinds.count(kind(m.to_json()["target"])) == 1]
    assert alone
    path = b.cheapest(scene, imap, seat, alone[0])
    assert path is not None and len(path) == 2 and path[0][0] == "tap", path


def test_an_artus_figure_menu_starts_on_the_knight_moved_last_where_it_now_stands():
    """Before: the menu remembered the place the Knight left (empty now) and
    started on the first Knight; now it starts on the Knight moved last."""
    scene, _ = scene_at("artus", 2, 0, lambda st: st.view(None)["phase"] == "play")
    seat = scene.state.to_move()
    mine = sorted({m.to_json()["seat"] for m in scene.state.legal_moves()
                   if m.to_json().get("do") == "move"})
    assert len(mine) > 1
    moved = next(m for m in scene.state.legal_moves()
                 if m.to_json().get("do") == "move" and m.to_json()["seat"] == mine[-1])
    data = moved.to_json()
    same_card = [m for m in scene.state.legal_moves() if m.to_json().get("card") == data["card"]]
    b.Live(scene).play(seat, moved)
    prefer = scene.seats[seat].memory.prefer("seat", tuple(same_card))
    assert prefer[0] == (data["seat"] + data["steps"]) % 28


def test_a_mordred_row_is_declared_by_the_press_that_picks_it():
    """Before: the row picked with ◀ ▶ ●, then ● again on a screen repeating
    it (the dice follow, drawn at once: undo cannot take the row back), 2 to
    4 inputs; now the row's option says "● confirm" and its ● declares: the
    row the menu starts on costs 1."""
    scene, imap = scene_at("mordred", 3, 0, lambda st: st.view(None)["phase"] == "declare")
    declaring = costs(scene, imap, lambda m: m.to_json()["type"] == "declare")
    assert len(declaring) > 1
    assert min(declaring) == 1
    assert max(declaring) <= 1 + len(declaring) // 2
    seat = scene.state.to_move()
    layout = Presentation(scene, {}, {}).menu_layout(scene.cursor_for(seat), "")
    assert layout.lines[0].startswith("● confirm"), layout.lines


def test_an_artus_pile_is_drawn_from_by_the_press_that_picks_it():
    """Before: the pile picked, then ● again (the draw shows a card: it
    cannot be taken back), 2 or 3 inputs; now the pile's ● draws: 1 or 2."""
    scene, imap = scene_at("artus", 2, 0, lambda st: st.view(None)["phase"] == "draw")
    drawing = costs(scene, imap, lambda m: m.to_json()["type"] == "draw")
    assert len(drawing) > 1
    assert sorted(drawing) == [1, *[2] * (len(drawing) - 1)]


def test_a_mordred_man_that_calls_for_a_die_is_placed_by_the_press_that_picks_it():
    """Before: the space, then ● again on a confirm screen (Mordred's die
    follows, drawn at once); now the space's ● places the man, and only such
    a space says "● confirm" (a man undo takes back needed no confirm)."""
    def attacking(st: Any) -> bool:
        if st.view(None)["phase"] != "place":
            return False
        adapter = for_game("mordred", st.players)
        moves = st.legal_moves()
        return any(adapter.confirms(st, m) for m in moves) and not all(adapter.confirms(st, m) for m in moves)
    scene, imap = scene_at("mordred", 3, 0, attacking)
    seat = scene.state.to_move()
    cursor = scene.cursor_for(seat)
    shown = Presentation(scene, {}, {})
    seen: dict[bool, str] = {}
    for _ in cursor.options():
        move = cursor.single(cursor.current())
        assert move is not None
        seen[scene.adapter.confirms(scene.state, move)] = shown.menu_layout(cursor, "").lines[0]
        cursor.step(1)
    assert seen[True].startswith("● confirm") and not seen[False].startswith("●"), seen
    dice = [m for m in scene.state.legal_moves() if scene.adapter.confirms(scene.state, m)]
    for move in dice:
        path = b.cheapest(scene, imap, seat, move)
        assert path is not None and path[-1][1].endswith(".ok")
        assert ("press", f"{scene.seats[seat].name}.ok", "") not in path[:-1], path  # one ●, the last


def test_an_artus_distance_either_way_reads_as_a_dial_from_one_forward():
    """Before: 1 to 5 forward, then 1 to 5 back, so one place back was the
    farthest from the start (5 presses); now ◀ from "1 forward" is "1 back",
    ◀ again "2 back", and ▶ goes on forward."""
    def either_way(st: Any) -> bool:
        return st.view(None)["phase"] == "play" and any(
            m.to_json().get("card", "").endswith("-both") and m.to_json().get("do") == "move"
            for m in st.legal_moves())
    scene, _ = scene_at("artus", 2, 0, either_way)
    seat = scene.state.to_move()
    scene.seats[seat].memory.chosen.clear()  # no last choice: the level starts on its first
    cursor = scene.cursor_for(seat)
    one = next(m.to_json() for m in cursor.moves if m.to_json().get("card", "").endswith("-both"))
    cursor.narrow([m for m in cursor.moves
                   if m.to_json().get("card") == one["card"] and m.to_json().get("seat") == one["seat"]])
    assert cursor.field() == "steps"

    def words() -> str:
        return scene.adapter.value_label("steps", cursor.current().value, "en")
    assert words() == "1 forward"
    cursor.step(-1)
    assert words() == "1 back"
    cursor.step(-1)
    assert words() == "2 back"
    cursor.step(3)
    assert words() == "2 forward"


def test_an_artus_play_the_draw_follows_is_confirmed_by_the_press_that_picks_it():
    """Before: a card's last choice (a distance, a Prince to ring), then ●
    again on a screen repeating the play, where the draw follows at once (one
    pile left: undo cannot take the play back); now that last option reads
    as the whole play with "● confirm", and its ● plays it."""
    adapter = for_game("artus", 2)

    def drawing_next(st: Any) -> bool:
        return st.view(None)["phase"] == "play" and any(
            m.to_json().get("do") in ("move", "ring") and adapter.confirms(st, m) for m in st.legal_moves())
    scene, imap = scene_at("artus", 2, 0, drawing_next)
    seat = scene.state.to_move()
    plays = [m for m in scene.state.legal_moves()
             if m.to_json().get("do") in ("move", "ring") and scene.adapter.confirms(scene.state, m)]
    shown = Presentation(scene, {}, {})
    for move in plays[:6]:
        path = b.cheapest(scene, imap, seat, move)
        assert path is not None
        if path[-1][0] == "tap":
            continue  # the card's tap is the whole play
        start = b.snapshot(scene, seat)
        live, imap.commit = imap.commit, b.Probe()
        for inp in path[:-1]:
            b.send(imap, inp)
        cursor = scene.cursor_for(seat)
        assert cursor.current().kind == "branch", (move, path)  # no screen of its own repeats the play
        layout = shown.menu_layout(cursor, scene.adapter.step_title(scene.state, "en"))
        assert layout.lines[0].startswith("● confirm"), layout.lines
        assert layout.big == scene.adapter.move_text(move.to_json(), "en")
        imap.commit = live
        b.restore(scene, seat, start)


def artus_moving(st: Any) -> bool:
    """Artus's play, with a card that moves either of two figures either of two distances."""
    if st.view(None)["phase"] != "play":
        return False
    moving = [m.to_json() for m in st.legal_moves() if m.to_json().get("do") == "move"]
    return any(len({d["seat"] for d in moving if d["card"] == c}) > 1
               and len({d["steps"] for d in moving if d["card"] == c}) > 1
               for c in {d["card"] for d in moving})


def figure_of(scene: Scene, seat: int, move: Move) -> Any:
    """The Prince's or Knight's tag whose tap names the figure ``move`` moves."""
    return next(c for c in scene.adapter.components()
                if c.kind in ("prince", "knight") and scene.adapter.tap(scene.state, seat, c, [move], None))


def test_an_artus_figure_moves_by_its_card_its_distance_and_its_tap():
    """Before: the card, the figure, then the distance stepped to and ● to
    pick it, 3 inputs and the steps; now a card that moves a figure asks the
    distance first, and the figure's tap moves it that far (the tap is both
    the figure's choice and the distance's ●): 2 inputs and the steps."""
    scene, imap = scene_at("artus", 2, 0, artus_moving)
    seat = scene.state.to_move()
    name = scene.seats[seat].name
    moving = [m for m in scene.state.legal_moves() if m.to_json().get("do") == "move"]
    card = next(c for c in sorted({m.to_json()["card"] for m in moving})
                if len({m.to_json()["seat"] for m in moving if m.to_json()["card"] == c}) > 1)
    probe = imap.commit = b.Probe()  # type: ignore[assignment]
    b.send(imap, ("tap", f"{name}.pad", f"{card}@{seat + 1}"))
    cursor = scene.cursor_for(seat)
    assert cursor.field() == "steps", cursor.field()  # the distance before the figure
    layout = Presentation(scene, {}, {}).menu_layout(cursor, "")
    assert layout.lines[0].startswith("Distance, or tap the figure"), layout.lines
    cursor.step(1)
    steps = cursor.current().value
    ours = [m for m in moving if m.to_json()["card"] == card and m.to_json()["steps"] == steps]
    assert len(ours) > 1  # the distance alone does not make the move
    for target in ours:
        b.send(imap, ("tap", f"{name}.pad", figure_of(scene, seat, target).id))
        assert probe.played == target  # that figure, the distance shown
        probe.played = None
    scene.seats[seat].cursor = None  # the menu from its start again
    for target in ours:
        path = b.cheapest(scene, imap, seat, target)
        assert path is not None and len(path) <= 3, path  # the card, a step at most, the figure
        assert path[-1] == ("tap", f"{name}.pad", figure_of(scene, seat, target).id), path


def test_an_artus_figure_tapped_first_still_leaves_only_its_moves():
    """The tap that begins a move still names the figure (its card and
    distance then chosen): only at the distance level does a tap end it."""
    scene, imap = scene_at("artus", 2, 0, artus_moving)
    seat = scene.state.to_move()
    move = next(m for m in scene.state.legal_moves() if m.to_json().get("do") == "move")
    probe = imap.commit = b.Probe()  # type: ignore[assignment]
    b.send(imap, ("tap", f"{scene.seats[seat].name}.pad", figure_of(scene, seat, move).id))
    cursor = scene.cursor_for(seat)
    assert probe.played is None and len(cursor.moves) > 1
    assert {m.to_json()["seat"] for m in cursor.moves} == {move.to_json()["seat"]}
