"""Every refusal has an English and an Italian sentence, and every sentence
belongs to a refusal the engine can give; each names cards, colours and
moves in its own language."""

from __future__ import annotations

import random
import re
from functools import cache
from pathlib import Path

import pytest

from rules import catalogue
from rules.core import IllegalMove
from rules.king_is_dead import GAME
from rules.king_is_dead.data import DATA
from rules.king_is_dead.messages import MESSAGES, MOVE_WORDS, WORDS, P, expected
from rules.king_is_dead.moves import (
    MOVE_TYPES,
    Crown,
    Draw,
    Into,
    KidMove,
    Pass,
    Place,
    Play,
    RegionCard,
    Summon,
    Swap,
    Take,
)
from tests.rules.king_is_dead.helpers import apply_all, position, refused

SOURCE = Path(__file__).parents[3] / "rules" / "king_is_dead" / "refusals.py"


def test_every_message_is_registered_in_both_languages() -> None:
    for code, (en, it) in MESSAGES.items():
        assert code.startswith("king-is-dead.") and catalogue.has(code)
        assert en.strip() and it.strip() and en != it


def test_the_codes_raised_and_the_codes_catalogued_are_the_same() -> None:
    text = SOURCE.read_text()
    raised = {"king-is-dead." + c for c in re.findall(r'P \+ "([a-z.-]+)"', text)}
    assert raised == set(MESSAGES)


def test_a_refusal_reads_as_a_sentence_with_its_rule() -> None:
    state = position(3, regions={"Deva": {"blue": 2}, "Ratae": {"red": 1}})
    state.apply(Play("ambassador"))
    state.apply(Take("Deva", "blue"))
    exc = refused(state, Into("Ratae"), "king-is-dead.exchange.not-empty")
    assert exc.rule == "Ambasciatore"
    assert exc.message() == "Ratae is not empty: exchange with one of its followers."
    assert exc.message("it") == "Ratae non è vuota: scambia con uno dei suoi Seguaci."
    assert exc.to_json()["params"] == {"region": "Ratae"}


# -- names in sentences ------------------------------------------------------------

CARD_IDS = ("crown", "garrison", "ambassador", "settlement", "scots", "welsh", "romano-british")
COLOUR_IDS = ("blue", "red", "yellow", "black")
ENGLISH_IDS = re.compile(r"\b(" + "|".join([*CARD_IDS, *COLOUR_IDS, *MOVE_TYPES]) + r")\b")


def _candidates() -> list[KidMove]:
    """Every move the notation can write, legal or not."""
    regions, colours = DATA.regions, COLOUR_IDS
    return [
        Pass(),
        *(Draw(c) for c in colours[:3]),
        *(Play(c) for c in CARD_IDS),
        *(cls(r) for cls in (RegionCard, Swap, Crown, Into) for r in regions),
        *(cls(r, c) for cls in (Take, Place, Summon) for r in regions for c in colours),
    ]


@cache
def _refusals_in_random_games() -> tuple[IllegalMove, ...]:
    out = []
    candidates = _candidates()
    for game in range(12):
        rng = random.Random(game)
        state = GAME.new_game(2 + game % 3, game, {"mordred": game % 2 == 1})
        while state.to_move() is not None:
            legal = state.legal_moves()
            for move in rng.sample(candidates, 12):
                if move not in legal:
                    with pytest.raises(IllegalMove) as info:
                        state.check(move)
                    out.append(info.value)
            state.apply(rng.choice(legal))
    return tuple(out)


def test_italian_sentences_name_cards_colours_and_moves_in_italian() -> None:
    refusals = _refusals_in_random_games()
    # Every code whose sentence takes a param was given, with realistic
    # params; the two that random games rarely reach are written out below.
    with_params = {code for code, (en, _) in MESSAGES.items() if "{" in en}
    assert with_params - {exc.code for exc in refusals} <= {P + "setup.not-in-bag", P + "turn.last-card"}
    for exc in refusals:
        it, en = exc.message("it"), exc.message("en")
        assert not ENGLISH_IDS.search(it), (exc.code, exc.params, it)
        assert "{" not in it + en and not re.search(r"'[a-z_]+'", en), (exc.code, en)
        # The params themselves stay ids, which the table reads.
        assert all(v in (*DATA.regions, *WORDS) for v in exc.params.values()), exc.params


def test_every_step_names_what_it_expects_in_both_languages() -> None:
    wrong = [exc for exc in _refusals_in_random_games() if exc.code == P + "step.wrong-move"]
    seen = {exc.params["expected"] for exc in wrong}
    assert seen == {expected(kinds) for kinds in MOVE_WORDS}


def test_a_few_sentences_word_for_word() -> None:
    state = position(2, regions={}, reserve={})
    apply_all(state, Play("garrison"))
    state.seat = 0
    exc = refused(state, Play("garrison"), P + "turn.card-used")
    assert exc.params == {"card": "garrison"}
    assert exc.message() == "You have no Garrison card left: each card is played once."
    assert exc.message("it") == "Non hai più la carta Guarnigione: ogni carta si gioca una volta sola."

    state = GAME.new_game(2, seed=0)
    state.bag = {"blue": 5, "red": 1, "yellow": 0}
    exc = refused(state, Draw("yellow"), P + "setup.not-in-bag")
    assert exc.message("it") == "Nel sacchetto non è rimasto nessun Seguace giallo."
    assert catalogue.text(P + "turn.last-card", {"card": "welsh"}, "it") == (
        "In 3 giocatori l'ultima Carta Azione della partita si gioca solo per vincere: "
        "la carta Gallesi ora non vince."
    )

    state = position(3, regions={"Deva": {"red": 1}}, reserve={"red": 3, "yellow": 2})
    state.apply(Play("settlement"))
    exc = refused(state, Place("Deva", "yellow"), P + "place.colour")
    assert exc.params == {"expected": "red", "colour": "yellow"}
    assert exc.message("it") == "Questa carta ora colloca un Seguace rosso, non giallo."
    exc = refused(state, Summon("Deva", "red"), P + "step.wrong-move")
    assert exc.params == {"expected": "'place'"}
    assert exc.message() == "Not now: first place a follower."
    assert exc.message("it") == "Non ora: prima bisogna collocare un Seguace."

    state = position(3, regions={}, reserve={"blue": 5})
    state.apply(Play("scots"))
    exc = refused(state, Place("Caledonia", "blue"), P + "place.not-bordering")
    assert exc.message() == "Caledonia does not border a region the Scots control."
    assert exc.message("it") == (
        "Caledonia non confina con una regione controllata dalla fazione della carta (Scozzesi)."
    )
