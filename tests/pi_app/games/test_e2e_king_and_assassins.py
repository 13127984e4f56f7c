"""King & Assassins through the simulated table: taps on the simulated pads,
presses on gpiozero mock pins, screens on luma dummy devices. Above all the
secret: no unrevealed assassin may reach the King player's screen, the
shared screen, the lights or the demo's transcript."""

from __future__ import annotations

import dataclasses
import random

import pytest

import rules
from pi_app.games.king_and_assassins.adapter import KingAndAssassinsAdapter
from pi_app.simulated.autoplay import next_input
from pi_app.simulated.demo import Night
from pi_app.ui.menu import BRANCH, CONFIRM
from pi_app.ui.screens import render
from rules.king_and_assassins.moves import Arrest, Attack, Choose, Draw, Eliminate, End, Reveal, Step
from tests.pi_app.ka_play import GAME, escape_chooser, make, pick, play, script, send
from tests.pi_app.table_checks import assert_refused as _assert_refused
from tests.pi_app.table_checks import pin_lit
from tests.rules.king_and_assassins.helpers import scenario

CITIZENS = [f"citizen{i}" for i in range(1, 13)]
pytestmark = pytest.mark.skipif(GAME not in rules.GAMES, reason="King & Assassins engine not registered")

KING_SCREEN, ASSASSIN_SCREEN, SHARED = "seat1.screen", "seat2.screen", "shared.screen"


def text(s, part):
    return s.layouts()[part].text()


def assert_refused(rig, seat, attempt, *, contains):
    _assert_refused(rig, seat, attempt, contains=contains, unchanged=(KING_SCREEN, ASSASSIN_SCREEN, SHARED))


def test_assassins_picked_by_card_taps_confirmed_on_their_screen_only(rig):
    r = rig(2)
    s = r.open(GAME, seed=4)
    assert s.scene.state.to_move() == 1 and pin_lit(r, 1) and not pin_lit(r, 0)
    king_frames = len(r.table.frames(KING_SCREEN))
    assert_refused(r, 0, lambda: r.tap(0, "citizen-card:citizen3"), contains="turn")
    king_frames += 2  # the refusal and its dismissal
    r.tap(1, "citizen-card:citizen2")
    assert "pick 2" in text(s, ASSASSIN_SCREEN)
    assert_refused(r, 1, lambda: r.tap(1, "citizen-card:citizen2"), contains="already picked")
    # ◀ ● ▶ pick the second one from the menu: the citizens not yet picked
    assert s.layouts()[ASSASSIN_SCREEN].big == "Citizen 1"
    for _ in range(5):
        r.press("seat2.right")
    assert s.layouts()[ASSASSIN_SCREEN].big == "Citizen 7"
    r.press("seat2.ok")
    r.tap(1, "citizen-card:citizen11")
    confirm = s.layouts()[ASSASSIN_SCREEN]
    assert confirm.big == "Citizen 2 Citizen 7 Citizen 11" and "confirm" in confirm.text()
    assert s.scene.state.view(None)["step"] == "choose"  # nothing played until ●
    assert_refused(r, 1, lambda: r.tap(1, "citizen-card:citizen4"), contains="Three are picked")
    r.press("seat2.ok")
    assert s.scene.state.view(1)["assassins"] == ["citizen2", "citizen7", "citizen11"]
    assert s.scene.state.view(None)["step"] == "king"
    # Nobody but the Assassin player saw the pick: the King player's screen
    # only changed when the pick was done, and it names nobody.
    assert len(r.table.frames(KING_SCREEN)) == king_frames + 1
    for part in (KING_SCREEN, SHARED):
        assert "C2" not in text(s, part) and "Citizen 2" not in text(s, part)
    said = [rec.text for rec in s.scene.transcript]
    assert "Assassins chosen in secret" in said and not any("C7" in t or "citizen7" in t for t in said)
    # The confirm cannot be undone: the secret is out of the journal's reach.
    r.press("shared.undo")
    assert "Cannot undo" in s.layouts()[SHARED].title


def _arrest_script(seed):
    """Knights walk to the citizens and one arrest is made, then play goes on."""
    rng = random.Random(seed)
    done: list[int] = []

    def chooser(state):
        view = state.view(None)
        if view["arrested"]:
            done.append(1)
            if len(done) > 12:
                return None
        moves = state.legal_moves()
        if view["step"] == "assassin":  # the Assassin player never reveals: public play only
            steps = [m for m in moves if isinstance(m, Step)]
            return rng.choice(steps) if steps and rng.random() < 0.6 else End()
        arrests = [m for m in moves if isinstance(m, Arrest)]
        if arrests and not view["arrested"]:
            return arrests[0]
        steps = [m for m in moves if isinstance(m, Step) and m.piece != "king"]
        return rng.choice(steps) if steps and rng.random() < 0.85 else End()

    return script(seed, ["citizen1", "citizen2", "citizen3"], chooser)


def test_same_public_play_two_hidden_choices_look_the_same_to_the_king_and_the_table(rig):
    seed = next(n for n in range(1, 40) if any(isinstance(m, Arrest) for m in _arrest_script(n)))
    moves = _arrest_script(seed)
    target = next(m.target for m in moves if isinstance(m, Arrest))
    others = [c for c in (f"citizen{i}" for i in range(1, 13)) if c != target]
    hidden = {"guilty": [target, *others[:2]], "innocent": others[-3:]}
    seen = {}
    for name, assassins in hidden.items():
        r = rig(2)
        s = r.open(GAME, seed=seed, new=True)
        pick(r, assassins)
        lights = []
        for move in moves:
            make(r, move)
            lights.append((pin_lit(r, 0), pin_lit(r, 1)))
            if isinstance(move, Arrest):
                # The arrest's secret result: on the Assassin player's screen only.
                verdict = "assassin!" if name == "guilty" else "innocent"
                short = "Citizen " + target.removeprefix("citizen")
                assert s.layouts()[ASSASSIN_SCREEN].big == f"{short} {verdict}"
                assert "assassin!" not in text(s, KING_SCREEN) + text(s, SHARED)
                assert "innocent" not in text(s, KING_SCREEN) + text(s, SHARED)
                # Undo is refused after any arrest, so its answer tells nothing either.
                r.press("shared.undo")
                assert "Cannot undo" in s.layouts()[SHARED].title
        seen[name] = {
            "king": [f.tobytes() for f in r.table.frames(KING_SCREEN)],
            "shared": [f.tobytes() for f in r.table.frames(SHARED)],
            "said": [rec.text for rec in s.scene.transcript if rec.kind != "refused"],
            "lights": lights,
            "public": s.scene.state.view(None),
        }
        r.close()
    guilty, innocent = seen["guilty"], seen["innocent"]
    assert len(guilty["king"]) > 20
    for key in ("king", "shared", "said", "lights", "public"):
        assert guilty[key] == innocent[key], key


def test_scripted_game_to_the_kings_death_with_refusals(rig):
    r = rig(2)
    s = r.open(GAME, seed=11)
    pick(r, ["citizen8", "citizen9", "citizen10"])  # citizen8 starts on J6, above the king
    assert s.scene.state.view(None)["step"] == "king"
    # The King player taps a citizen card, a citizen far from any knight, a
    # tag nobody enrolled, a round card; the Assassin player presses out of turn.
    assert_refused(r, 0, lambda: r.tap(0, "citizen-card:citizen3"), contains="belongs to Assassin")
    assert_refused(r, 0, lambda: r.tap(0, "token:citizen5"), contains="moved by the Assassin player")
    assert_refused(r, 0, lambda: r.tap_uid(0, "04AABBCCDDEEFF"), contains="04AABBCCDDEEFF")
    assert_refused(r, 0, lambda: r.tap(0, "round-card:3"), contains="Round cards are tapped only")
    assert_refused(r, 1, lambda: r.press("seat2.ok"), contains="turn")
    # The king, boxed in by his knights: the engine's reason, with its rule.
    assert_refused(r, 0, lambda: r.tap(0, "token:king"), contains="J9 is taken by Knight 6")
    # Knight 6 steps aside by a tap: its one move, played at once (undo takes it back).
    r.tap(0, "token:knight6")
    assert s.scene.state.view(None)["pieces"]["knight6"]["cell"] == "J8"
    # as a confirm screen would say it: whole words, no compass letter
    assert s.scene.adapter.move_text(Step("knight6", "N").to_json(), "en") == "Knight 6 North ↑"
    for move in (Step("knight6", "N"), Step("knight6", "W"), End()):
        make(r, move)
    # The Assassin player's citizen walks down; a reveal of an innocent card is refused.
    assert_refused(r, 1, lambda: r.tap(1, "citizen-card:citizen4"), contains="not one of")
    assert_refused(r, 1, lambda: r.tap(1, "assassin-token"), contains="No assassin is revealed yet")
    for move in (Step("citizen8", "S"),) * 3 + (End(), End()):
        make(r, move)
    assert s.scene.state.view(None)["step"] == "assassin" and s.scene.state.view(None)["round"] == 2
    r.tap(1, "citizen-card:citizen8")  # reveal by showing the card, then confirm
    assert s.layouts()[ASSASSIN_SCREEN].big == "Reveal Citizen 8"
    r.press("seat2.ok")
    assert "Citizen 8 is an assassin: swap in an assassin token" in text(s, SHARED)
    r.tap(1, "assassin-token")  # the token now on its cell stands for it
    assert {m.to_json().get("piece") for m in s.scene.cursor_for(1).moves} == {"citizen8"}
    make(r, Attack("citizen8"))
    assert "wounds the king (1/2)" in text(s, SHARED)
    make(r, Attack("citizen8"))
    outcome = s.scene.state.outcome()
    assert outcome is not None and outcome.winners == [1] and outcome.reason == "king-killed"
    shared = s.layouts()[SHARED]
    assert shared.title == "GAME OVER" and shared.big == "Assassins win"
    assert "The king is dead" in shared.text()
    assert s.journal.current() is None
    s.scene.flash_until.clear()
    s.tick()
    assert pin_lit(r, 1) and not pin_lit(r, 0)
    assert_refused(r, 0, lambda: r.tap(0, "token:king"), contains="over")


def test_round_cards_entered_at_the_table(rig):
    r = rig(2)
    r.profile = dataclasses.replace(r.profile, chance="table")
    s = r.open(GAME, seed=2)
    pick(r, ["citizen1", "citizen5", "citizen12"])
    assert s.scene.state.is_chance()
    assert "Round 1: round card" in text(s, SHARED)
    r.tap(0, "round-card:7")  # the card turned over, tapped on any pad
    assert s.scene.state.view(None)["card"]["id"] == 7
    assert "Round 1: card 7: King 2, Knights 7, Assassins 5" in text(s, SHARED)
    for move in (End(), End()):
        make(r, move)
    assert_refused(r, 1, lambda: r.tap(1, "round-card:7"), contains="round card")
    r.tap(1, "round-card:3")
    assert s.scene.state.view(None)["round"] == 2 and s.scene.state.view(None)["card"]["id"] == 3
    for move in (End(), End()):
        make(r, move)
    # Or entered with the buttons, on the shared screen's menu of the cards left.
    menu = s.layouts()[SHARED]
    assert menu.title == "Round 3: round card" and menu.big.startswith("1: King 1, Knights 6, Assassins 5")
    r.press("seat1.right")
    r.press("seat1.ok")
    r.press("seat2.ok")
    assert s.scene.state.view(None)["round"] == 3 and s.scene.state.view(None)["card"]["id"] == 2


def test_whole_random_game_through_the_table(rig):
    r = rig(2)
    s = r.open(GAME, seed=5)
    rng = random.Random(5)
    pick(r, ["citizen4", "citizen6", "citizen11"])
    inputs = 0
    while s.scene.state.outcome() is None:
        inputs += play(r, rng, count=1)
        public = text(s, KING_SCREEN) + text(s, SHARED)
        assert "Yours" not in public and "assassin!" not in public and "innocent" not in public
    assert inputs > 200
    shared = s.layouts()[SHARED]
    assert shared.title == "GAME OVER" and shared.big in ("King wins", "Assassins win")
    assert r.table.frames(SHARED)[-1].tobytes() == render(shared).tobytes()


def test_demo_transcript_keeps_the_secret(tmp_path):
    report = Night(tmp_path, seed=3).play(GAME, 2)
    assert report.result and report.moves > 50
    lines = (tmp_path / f"{GAME}-2p.transcript.txt").read_text().splitlines()
    assert any("Assassins chosen in secret" in line for line in lines)
    assert not any(line.startswith("  seat 2: tap citizen-card") for line in lines)
    start = next(i for i, line in enumerate(lines) if "Assassins chosen" in line)
    assert all("(secret)" in line for line in lines[1:start] if line.startswith("  seat 2"))
    assert not any("Assassins C" in line or "innocent" in line or "assassin!" in line for line in lines)


def test_three_arrests_and_the_last_assassin_announced_to_all(rig):
    assassins = ["citizen7", "citizen8", "citizen11"]  # start on H6, J6, D9
    walks = [Step("citizen8", "S")] * 2 + [Step("citizen7", "S")] * 2 + [Step("citizen11", "E")] * 3

    def chooser(state):
        view = state.view(None)
        moves = state.legal_moves()
        if view["step"] == "assassin":  # walks the assassins up to the knights
            return walks.pop(0) if walks and walks[0] in moves else End()
        arrests = [m for m in moves if isinstance(m, Arrest) and m.target in assassins]
        return arrests[0] if arrests else End()

    moves = script(8, assassins, chooser)
    assert sum(isinstance(m, Arrest) for m in moves) == 3
    r = rig(2)
    s = r.open(GAME, seed=8)
    pick(r, assassins)
    first = True
    for move in moves:
        if isinstance(move, Arrest) and first:
            # The target chosen by tapping its token, the knight from the menu.
            first = False
            r.tap(0, f"token:{move.target}")
            assert {m.to_json()["type"] for m in s.scene.cursor_for(0).moves} == {"arrest"}
        make(r, move)
        if isinstance(move, Arrest) and s.scene.state.outcome() is None:
            short = "Citizen " + move.target.removeprefix("citizen")
            assert s.layouts()[ASSASSIN_SCREEN].big == f"{short} assassin!"
            assert short not in s.layouts()[ASSASSIN_SCREEN].lines[0]  # gone from "A: ..."
            assert "assassin" not in (text(s, KING_SCREEN) + text(s, SHARED)).lower()
    outcome = s.scene.state.outcome()
    assert outcome is not None and outcome.reason == "assassins-gone" and outcome.winners == [0]
    last = next(m for m in reversed(moves) if isinstance(m, Arrest))
    said = [rec for rec in s.scene.transcript if rec.kind == "said"][-1].text
    assert f"Citizen {last.target.removeprefix('citizen')} was the last assassin!" in said
    assert s.layouts()[SHARED].big == "King wins"
    assert f"Last: Citizen {last.target.removeprefix('citizen')}" in text(s, SHARED)
    assert "All 3 assassins gone" in text(s, KING_SCREEN)


def test_side_b_start_and_an_italian_table(rig):
    r = rig(2)
    s = r.open(GAME, seed=3, options={"side": "B"}, lang="it")
    assert s.layouts()[ASSASSIN_SCREEN].title == "Scegli 3 assassini"
    pick(r, ["citizen1", "citizen2", "citizen3"])
    assert s.scene.state.view(None)["step"] == "start"  # the King player's start comes after the pick
    king = s.layouts()[KING_SCREEN]
    assert king.title == "Partenza del re" and king.big == "B10" and king.image is not None
    r.press("seat1.right")
    r.press("seat1.ok")
    r.press("seat1.ok")
    assert s.scene.state.view(None)["pieces"]["king"]["cell"] == "I10"
    assert "Re su I10" in text(s, SHARED)
    play(r, random.Random(3), count=30)
    assert "PA" in text(s, SHARED)


def test_scripted_game_to_the_kings_escape(rig):
    moves = script(3, ["citizen1", "citizen2", "citizen3"], escape_chooser())
    r = rig(2)
    s = r.open(GAME, seed=3)
    pick(r, ["citizen1", "citizen2", "citizen3"])
    for move in moves:
        make(r, move)
    outcome = s.scene.state.outcome()
    assert outcome is not None and outcome.reason == "king-escaped" and outcome.winners == [0]
    said = [rec.text for rec in s.scene.transcript if rec.kind == "said"][-1]
    gate = s.scene.state.view(None)["gates"]
    assert any(f"The king escapes by {g['cell']}!" in said for g in gate)
    shared = s.layouts()[SHARED]
    assert shared.big == "King wins" and "The king escaped" in shared.text()
    s.scene.flash_until.clear()
    s.tick()
    assert pin_lit(r, 0) and not pin_lit(r, 1)


@pytest.mark.parametrize(("lang", "boxed", "spent", "innocent"), [
    ("en", "J9 is taken by Knight 6.", "Action points needed: 1; left for the King: 0.",
     "Citizen 4 is not one of your three assassins."),
    ("it", "J9 è già occupato: c'è Cavaliere 6.", "Punti azione necessari: 1; rimasti per il re: 0.",
     "Cittadino 4 non è uno dei tuoi tre assassini."),
])
def test_engine_refusals_in_the_tables_words(lang, boxed, spent, innocent):
    """A tap refused for an engine reason names the pieces as the screens do and
    the points in the table's language, never the notation's ``knight6``."""
    adapter = KingAndAssassinsAdapter(2, lang)
    state = rules.get(GAME).new_game(2, 1, {"side": "A"})
    for move in (Choose(("citizen1", "citizen2", "citizen3")), Draw(1)):
        state.apply(move)

    def refused(seat, comp):
        moves = state.legal_moves()
        assert adapter.tap(state, seat, adapter.component(comp), moves, None) == []
        return adapter.refusal(state, seat, adapter.component(comp), moves).message(lang)

    assert refused(0, "token:king") == boxed
    for move in (Step("knight6", "N"), Step("king", "N")):
        state.apply(move)
    assert refused(0, "token:king") == spent
    state.apply(End())
    assert Reveal("citizen4") not in state.legal_moves()
    assert refused(1, "citizen-card:citizen4") == innocent


def test_a_token_tap_opens_the_same_menu_for_an_assassin_and_an_innocent():
    """Tapping a hidden assassin's token offers what any citizen's offers (no
    reveal: that is the citizen card's job), so the presses that follow, seen
    at the table or in a transcript, cannot tell the two apart."""
    adapter = KingAndAssassinsAdapter(2, "en")
    seen = []
    for chosen in (("citizen1", "citizen2", "citizen3"), ("citizen4", "citizen5", "citizen6")):
        state = rules.get(GAME).new_game(2, 1, {"side": "A"})
        for move in (Choose(chosen), Draw(1), End()):
            state.apply(move)
        moves = state.legal_moves()
        assert Reveal(chosen[0]) in moves
        taps = [adapter.tap(state, 1, adapter.component(f"token:{c}"), moves, None) for c in CITIZENS]
        seen.append([[m.to_json() for m in found] for found in taps])
    assert seen[0] == seen[1] and all(seen[0])


def test_the_assassin_players_menu_is_shaped_by_public_facts_only():
    """Over random games, the Assassin player's menu (every move, in order: the
    options and the presses to reach each) is the same for any assassins the
    public facts allow; the reveals come last, one per citizen who may be one."""
    adapter = KingAndAssassinsAdapter(2, "en")
    compared = 0
    for seed in range(8):
        rng = random.Random(seed)
        state = rules.get(GAME).new_game(2, seed, {"side": "AB"[seed % 2]})
        while state.to_move() is not None:
            if state.to_move() == 1 and state.view(None)["step"] == "assassin":
                mine = [m.to_json() for m in adapter.menu(state, 1).moves]
                assert set(state.legal_moves()) <= set(adapter.menu(state, 1).moves)
                twin = state.perturb_secrets(1, rng)
                if twin is not None:
                    assert [m.to_json() for m in adapter.menu(twin, 1).moves] == mine
                    compared += 1
            state.apply(state.sample_chance() if state.is_chance() else rng.choice(state.legal_moves()))
    assert compared > 100


def test_a_reveal_from_the_menu_of_an_innocent_is_refused_on_the_assassin_players_screen(rig):
    r = rig(2)
    s = r.open(GAME, seed=4)
    pick(r, ["citizen2", "citizen7", "citizen11"])
    make(r, End())
    reveals = [m.piece for m in s.scene.cursor_for(1).moves if isinstance(m, Reveal)]
    assert reveals == CITIZENS  # every citizen offered, not only the three
    wrong = Reveal("citizen1")
    for _ in range(30):  # ◀ ● ▶ to the confirm of the wrong reveal
        opt = s.scene.cursor_for(1).current()
        if opt.kind == CONFIRM and opt.moves[0] == wrong:
            break
        send(r, next_input(s, 1, wrong, taps=False))
    assert_refused(r, 1, lambda: r.press("seat2.ok"), contains="not one of your three assassins")
    make(r, Reveal("citizen7"), taps=False)
    assert "Citizen 7 is an assassin" in text(s, SHARED)


def test_an_assassin_token_stands_for_the_revealed_assassins_for_both_players():
    adapter = KingAndAssassinsAdapter(2, "en")
    token = adapter.component("assassin-token")
    assert token is not None and token.count == 3
    pieces = {"king": "J10", "knight1": "D4", "citizen1": "E4", "citizen4": "C4", "citizen2": "H6"}
    state = scenario(pieces, revealed=("citizen1", "citizen2"))
    # The King player: the one revealed assassin next to a knight, as the target.
    assert adapter.tap(state, 0, token, state.legal_moves(), None) == [Eliminate("knight1", "citizen1")]
    state = scenario({**pieces, "knight1": "A4"}, revealed=("citizen1", "citizen2"))
    assert adapter.tap(state, 0, token, state.legal_moves(), None) == []
    assert "Citizen 1 is moved by the Assassin player" in adapter.refusal(
        state, 0, token, state.legal_moves()).message("en")
    # The Assassin player: the moves of every revealed assassin, never a citizen's.
    state = scenario(pieces, revealed=("citizen1", "citizen2"), turn="assassin")
    found = adapter.tap(state, 1, token, adapter.menu(state, 1).moves, None)
    assert {m.to_json()["piece"] for m in found} == {"citizen1", "citizen2"}


def test_the_reveal_menu_lists_only_citizens_not_arrested():
    """An arrested citizen is off the board: the Assassin player's menu does
    not offer to reveal him (an arrested assassin's own card still may)."""
    adapter = KingAndAssassinsAdapter(2, "en")
    pieces = {"king": "J10", "knight1": "D4", "citizen4": "E4", "citizen5": "H6", "citizen1": "B2"}
    state = scenario(pieces, card=1)
    state.apply(Arrest("knight1", "citizen4"))
    state.apply(End())
    reveals = [m.piece for m in adapter.menu(state, 1).moves if isinstance(m, Reveal)]
    assert "citizen4" not in reveals and {"citizen1", "citizen5"} <= set(reveals)


def test_after_a_refused_reveal_the_cursor_moves_off_it(rig):
    """● on an innocent's reveal is refused; the menu then stands on another
    citizen, so the next ● does not ask for the same refusal."""
    r = rig(2)
    s = r.open(GAME, seed=4)
    pick(r, ["citizen2", "citizen7", "citizen11"])
    make(r, End())
    wrong = Reveal("citizen1")
    for _ in range(30):  # ◀ ● ▶ to the confirm of the wrong reveal
        opt = s.scene.cursor_for(1).current()
        if opt.kind == CONFIRM and opt.moves[0] == wrong:
            break
        send(r, next_input(s, 1, wrong, taps=False))
    assert_refused(r, 1, lambda: r.press("seat2.ok"), contains="not one of your three assassins")
    opt = s.scene.cursor_for(1).current()
    assert opt.kind == BRANCH and wrong not in opt.moves
    assert s.layouts()[ASSASSIN_SCREEN].big == "Citizen 2"
    r.press("seat2.ok")  # the next ●: Citizen 2's reveal to confirm, no refusal
    assert s.scene.seats[1].notice is None and s.scene.cursor_for(1).current().moves == (Reveal("citizen2"),)


def test_a_boxed_in_king_is_listed_as_unable_to_move(rig):
    """The King boxed in by his knights stays in the King player's list of
    pieces, saying that he cannot move; ● on him says why."""
    r = rig(2)
    s = r.open(GAME, seed=11)
    pick(r, ["citizen8", "citizen9", "citizen10"])
    assert not any(isinstance(m, Step) and m.piece == "king" for m in s.scene.state.legal_moves())
    for _ in range(20):  # to the list of pieces that may step
        cursor = s.scene.cursor_for(0)
        if cursor.field() == "piece":
            break
        opt = cursor.current()
        r.press("seat1.ok" if opt.kind == BRANCH and all(isinstance(m, Step) for m in opt.moves)
                else "seat1.right")
    shown = []
    for _ in range(len(s.scene.cursor_for(0).options())):
        shown.append(s.layouts()[KING_SCREEN].big)
        if shown[-1] == "The King cannot move":
            break
        r.press("seat1.right")
    assert shown[-1] == "The King cannot move", shown
    assert_refused(r, 0, lambda: r.press("seat1.ok"), contains="J9 is taken by Knight 6")
