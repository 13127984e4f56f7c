"""Artus's words at the table, in English and Italian: card names (long for
menus, short for hands), figures, piles, players, and the table's refusals.

Players are named as in every game (pi_app.names: "Player 1"), so that
"seat" always means one of the 28 seats of the round table, as in the
rulebook and the engine.
"""

from __future__ import annotations

from collections.abc import Sequence

from pi_app import names as naming
from rules import catalogue
from rules.artus import messages as msg
from rules.artus.data import DATA, Card

EN, IT = 0, 1

COLOURS: dict[str, tuple[str, str]] = {"silver": ("silver", "argento"), "bronze": ("bronze", "bronzo")}
PILES: dict[str, tuple[str, str]] = {
    "knight": ("Knight", "Cavaliere"),
    "king": ("King", "Re"),
    "scoring": ("Scoring", "Punteggio"),
}
MODES: dict[str, tuple[str, str]] = {"beginner": ("Beginner game", "Regole per principianti"),
                                     "advanced": ("Advanced game", "Regole avanzate")}
#: the public view's fields the spectator page shows, in the rulebook's words
#: (punti prestigio, tessere punteggio); where the figures stand is the
#: round table's, which the page does not draw
VIEW_LABELS: dict[str, tuple[str, str]] = {
    "mode": ("Rules", "Regole"),
    "round": ("Round", "Round"),
    "rounds": ("Rounds in all", "Round in tutto"),
    "turn": ("Turn", "Turno"),
    "scores": ("Prestige points", "Punti prestigio"),
    "tiles": ("Point tiles (50)", "Tessere punteggio (50)"),
    "hand_sizes": ("Cards in hand", "Carte in mano"),
    "piles": ("Cards left in the piles", "Carte rimaste nei mazzi"),
    "played": ("Cards played", "Carte giocate"),
}
DOS: dict[str, tuple[str, str]] = {
    "move": ("Move a figure", "Muovi figura"),
    "ring": ("Add a ring", "Aggiungi anello"),
    "score": ("Score", "Conteggia"),
    "penalty": ("Penalty", "Penalità"),
}
EFFECTS: dict[str, tuple[tuple[str, str], tuple[str, str]]] = {
    # effect -> ((long en, long it), (short en, short it))
    "all": (("Score all", "Conteggia tutti"), ("S:all", "P:tutti")),
    "all-opposite": (("Score all, reversed", "Tutti, opposto"), ("S:rev", "P:opposto")),
    "green-yellow-red": (("Score green-yellow-red", "Verde-giallo-rosso"), ("S:GYR", "P:VGR")),
    "carpet": (("Score the carpet", "Conteggia tappeto"), ("S:carp", "P:tapp")),
    "three-red": (("Score three red", "Tre rossi"), ("S:3red", "P:3ros")),
}


def lang_index(lang: str) -> int:
    return IT if lang == "it" else EN


def player(p: int, lang: str, names: Sequence[str] = ()) -> str:
    return naming.display_name("artus", p, lang, names)


def player_short(p: int, lang: str) -> str:
    """For the row of every player's prestige only (pi_app.names)."""
    return naming.short_name("artus", p, lang)


def owner(p: int, lang: str, names: Sequence[str] = ()) -> str:
    """Whose: "Player 1's", "del Giocatore 1" (pi_app.names.owner)."""
    return naming.owner("artus", p, lang, names)


def _range(card: Card, i: int = 0, short: bool = False) -> str:
    """A card's move: "1-5", and in words whether it goes either way ("±1-5" said nothing)."""
    if short:
        return f"{'±' if card.both_ways else ''}{card.lo}-{card.hi}"
    return f"{card.lo}-{card.hi}" + ((" either way", " avanti o indietro")[i] if card.both_ways else "")


def card_name(cid: str, lang: str, short: bool = False) -> str:
    """``knight-3-6`` -> "Knight 3-6" (short "Kn3-6"); unknown ids as they are."""
    card = DATA.cards.get(cid)
    i = lang_index(lang)
    if card is None:
        return cid
    colour = COLOURS.get(card.colour or "", ("", ""))[i]
    if card.action == "knight":
        return (("Kn", "Ca")[i] if short else ("Knight ", "Cavaliere ")[i]) + _range(card, i, short)
    # Italian says the colour as a material: "Anello d'argento", "Re 1-7 di bronzo"
    named = (colour if i == EN else _of(colour)) if colour else ""
    if card.action == "royal":
        tail = (colour[0] if short else f" {named}") if colour else ""
        return (("Kg", "Re")[i] if short else ("King ", "Re ")[i]) + _range(card, i, short) + tail
    if card.action == "ring":
        if short:
            return ("Ring", "An")[i] + (f"-{colour[0]}" if colour else "")
        return ("Ring", "Anello")[i] + (f" {named}" if colour else "")
    if card.action == "choice":
        return ("Choice", "Scelta")[i] if short else ("Choice card", "Carta a scelta")[i]
    long, brief = EFFECTS[card.effect or "all"]
    return brief[i] if short else long[i]


def figure_name(params: dict, lang: str, short: bool = False, names: Sequence[str] = ()) -> str:
    """A figure named by an engine event's label (``figure``, ``colour``,
    ``owner``): "Player 2's knight", "the silver prince", "the bronze King";
    ``short``: without the article, in whole words all the same."""
    i = lang_index(lang)
    kind = params.get("figure")
    if kind == "knight":
        whose = owner(int(params.get("owner") or 0), lang, names)
        return (f"{whose} knight", f"{'' if short else 'il '}cavaliere {whose}")[i]
    colour = params.get("colour", "")
    c = COLOURS.get(colour, (colour, colour))[i]
    if kind == "king":
        return (f"{'' if short else 'the '}{c} King", f"{'' if short else 'il '}Re {_of(c)}")[i]
    return (f"{'' if short else 'the '}{c} prince", f"{'' if short else 'il '}principe {_of(c)}")[i]


def _of(colour: str) -> str:
    return "d'argento" if colour == "argento" else f"di {colour}"


def on(figure: str) -> str:
    """Italian "su" before a figure named with its article: "sul principe", "sul Re"."""
    return f"sul {figure[3:]}" if figure.startswith("il ") else f"su {figure}"


def figure_on(figure: str | None, king: bool, lang: str, names: Sequence[str] = ()) -> str:
    """A figure code from a view (``k1``, ``silver``) in words, without an article."""
    if figure is None:
        return ("empty", "vuoto")[lang_index(lang)]
    if figure.startswith("k"):
        return figure_name({"figure": "knight", "owner": int(figure[1:])}, lang, short=True, names=names)
    return figure_name({"figure": "king" if king else "prince", "colour": figure}, lang, short=True)


def marker(p: int, down: bool, lang: str, short: bool = False, names: Sequence[str] = ()) -> str:
    """The scoring marker of a player whose prestige crossed 0."""
    whose = owner(p, lang, names)
    if lang == "it":
        if short:
            return f"segnalino {whose} {'coricato' if down else 'in piedi'}"
        return f"segnalino {whose} {'coricato' if down else 'di nuovo in piedi'}"
    if short:
        return f"{whose} marker {'on its side' if down else 'up'}"
    return f"lay {whose} marker on its side" if down else f"stand {whose} marker up"


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n) if n else "±0"


# Refusals only the table can give (a tap of a card or a figure), in the
# same catalogue as the engine's so they read alike on a seat's screen.
catalogue.register({
    "table.artus.card-played": ("{card} was already played: tap a card in your hand.",
                                "{card} è già stata giocata: tocca una carta della tua mano."),
    "table.artus.card-in-pile": ("{card} is not in your hand (still in its pile): tap a card you hold.",
                                 "{card} non è in mano (è nel mazzo): tocca una carta che hai."),
    "table.artus.figure-not-now": ("No move now takes the {figure}: pick a card first, or use the menu.",
                                   "Nessuna mossa ora usa {figure}: scegli prima una carta, o usa il menu."),
})
RULE_PLAY = msg.R_PLAY
RULE_SETUP = msg.R_SETUP
RULE_HAND = msg.R_HAND
