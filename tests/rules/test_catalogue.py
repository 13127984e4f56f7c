"""The catalogue's words: ids in params, names in sentences, per language."""

from __future__ import annotations

import pytest

from rules import catalogue
from rules.core import IllegalMove

CARDS = {"garrison": ("Garrison", "Guarnigione"), "crown": ("Crown", "Corona")}
catalogue.register(
    {
        "test-catalogue.card-used": (
            "You have no {card} card left ({n}).",
            "Non hai più la carta {card} ({n}).",
        )
    },
    words=CARDS,
)
catalogue.register({"test-catalogue.plain": ("No {card} here.", "Niente {card} qui.")})


def test_a_param_that_is_a_registered_word_is_named_in_each_language() -> None:
    exc = IllegalMove("test-catalogue.card-used", "", card="garrison", n=2)
    assert exc.message() == "You have no Garrison card left (2)."
    assert exc.message("it") == "Non hai più la carta Guarnigione (2)."
    assert exc.params == {"card": "garrison", "n": 2}  # the params stay ids
    assert exc.to_json()["params"] == {"card": "garrison", "n": 2}


def test_values_that_are_not_words_are_left_as_they_are() -> None:
    assert catalogue.text("test-catalogue.card-used", {"card": "joker", "n": 1}, "it") == (
        "Non hai più la carta joker (1)."
    )


def test_words_belong_to_the_codes_registered_with_them() -> None:
    # Another game's code with the same id in its params does not borrow them.
    assert catalogue.text("test-catalogue.plain", {"card": "crown"}, "it") == "Niente crown qui."


def test_registering_again_without_words_drops_them() -> None:
    catalogue.register({"test-catalogue.again": ("The {card}.", "La {card}.")}, words=CARDS)
    assert catalogue.text("test-catalogue.again", {"card": "crown"}, "it") == "La Corona."
    catalogue.register({"test-catalogue.again": ("The {card}.", "La {card}.")})
    assert catalogue.text("test-catalogue.again", {"card": "crown"}, "it") == "La crown."


def test_a_word_must_have_both_languages() -> None:
    with pytest.raises(ValueError, match="'crown' must be"):
        catalogue.register({"test-catalogue.bad": ("x", "y")}, words={"crown": ("Crown",)})  # type: ignore[dict-item]
    assert not catalogue.has("test-catalogue.bad")
