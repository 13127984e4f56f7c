"""Every refusal has an English and an Italian sentence, and every sentence
belongs to a refusal the engine can give."""

from __future__ import annotations

import re
from pathlib import Path

from rules import catalogue
from rules.king_is_dead.messages import MESSAGES
from rules.king_is_dead.moves import Into, Play, Take
from tests.rules.king_is_dead.helpers import position, refused

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
