"""English and Italian sentences for every refusal the engine gives, and the
words for the ids their params hold (``WORDS``): a sentence names a card, a
colour or the moves expected in its own language. Regions keep their map names.
"""

from __future__ import annotations

from collections.abc import Iterable

P = "king-is-dead."

CARD_WORDS: dict[str, tuple[str, str]] = {
    "crown": ("Crown", "Corona"),
    "garrison": ("Garrison", "Guarnigione"),
    "ambassador": ("Ambassador", "Ambasciatore"),
    "settlement": ("Settlement", "Insediamento"),
    "scots": ("Scots", "Scozzesi"),
    "welsh": ("Welsh", "Gallesi"),
    "romano-british": ("Romano-British", "Romano-Britannici"),
}
# Singular, as the sentences name one follower ("un Seguace rosso").
COLOUR_WORDS: dict[str, tuple[str, str]] = {
    "blue": ("blue", "blu"),
    "red": ("red", "rosso"),
    "yellow": ("yellow", "giallo"),
    "black": ("black", "nero"),
}
# What each step asks for, by the move types it takes: infinitives, so that
# "Not now: first ..." and "Non ora: prima bisogna ..." both read.
MOVE_WORDS: dict[tuple[str, ...], tuple[str, str]] = {
    ("draw",): ("draw a follower from the bag", "pescare un Seguace dal sacchetto"),
    ("region_card",): ("lay out the next region card", "disporre la prossima Carta Regione"),
    ("pass", "play"): ("play a card or pass", "giocare una carta o passare"),
    ("summon",): ("summon a follower to your court", "convocare un Seguace alla tua corte"),
    ("swap",): ("pick a region card to swap", "scegliere una Carta Regione da scambiare"),
    ("crown",): (
        "put the crown token on one of the two cards swapped",
        "mettere il Gettone Corona su una delle due carte scambiate",
    ),
    ("take", "into"): (
        "take a follower, or name an empty region",
        "prendere un Seguace, o indicare una regione vuota",
    ),
    ("place",): ("place a follower", "collocare un Seguace"),
}


def expected(kinds: Iterable[str]) -> str:
    """The ``expected`` param of ``step.wrong-move``: the move types a step
    takes, as the notation names them."""
    return " / ".join(repr(kind) for kind in kinds)


# Quoted move types cannot clash with the card ids ("crown").
WORDS: dict[str, tuple[str, str]] = {
    **CARD_WORDS,
    **COLOUR_WORDS,
    **{expected(kinds): pair for kinds, pair in MOVE_WORDS.items()},
}

MESSAGES: dict[str, tuple[str, str]] = {
    P + "step.wrong-move": (
        "Not now: first {expected}.",
        "Non ora: prima bisogna {expected}.",
    ),
    P + "setup.not-in-bag": (
        "No {colour} follower is left in the bag.",
        "Nel sacchetto non è rimasto nessun Seguace {colour}.",
    ),
    P + "setup.card-laid": (
        "The {region} region card is already laid out.",
        "La Carta Regione {region} è già stata disposta.",
    ),
    P + "turn.card-used": (
        "You have no {card} card left: each card is played once.",
        "Non hai più la carta {card}: ogni carta si gioca una volta sola.",
    ),
    P + "turn.last-card": (
        "With 3 players the last action card of the game may be played only to win: the {card} card cannot "
        "win now.",
        "In 3 giocatori l'ultima Carta Azione della partita si gioca solo per vincere: la carta {card} ora "
        "non vince.",
    ),
    P + "region.resolved": (
        "{region} is resolved: it can no longer be changed.",
        "{region} è già risolta: non può più essere modificata.",
    ),
    P + "region.no-follower": (
        "There is no {colour} follower in {region}.",
        "In {region} non c'è nessun Seguace {colour}.",
    ),
    P + "crown.card-crowned": (
        "The {region} card has a crown token: it cannot be swapped.",
        "La carta {region} ha un Gettone Corona: non può essere scambiata.",
    ),
    P + "crown.same-card": (
        "Pick two different region cards to swap.",
        "Scegli due Carte Regione diverse da scambiare.",
    ),
    P + "crown.not-swapped": (
        "The crown token goes on one of the two cards just swapped, not on {region}.",
        "Il Gettone Corona va su una delle due carte appena scambiate, non su {region}.",
    ),
    P + "garrison.same-region": (
        "The two followers that leave must both come from {region}.",
        "I due Seguaci che partono devono venire entrambi da {region}.",
    ),
    P + "garrison.not-adjacent": (
        "{region} does not border {other}: Garrison exchanges between bordering regions.",
        "{region} non confina con {other}: la Guarnigione scambia tra regioni confinanti.",
    ),
    P + "ambassador.same-region": (
        "The Ambassador exchanges between two different regions.",
        "L'Ambasciatore scambia tra due regioni diverse.",
    ),
    P + "exchange.not-empty": (
        "{region} is not empty: exchange with one of its followers.",
        "{region} non è vuota: scambia con uno dei suoi Seguaci.",
    ),
    P + "exchange.full-possible": (
        "The card can still be carried out more fully: a partial action is allowed only when it cannot.",
        "La carta può essere eseguita più completamente: l'azione parziale è ammessa solo se non si può.",
    ),
    P + "exchange.undo": (
        "That would undo at once the exchange just made: play another card or wait for a struggle to end.",
        "Annullerebbe subito lo scambio appena fatto: serve prima un'altra carta o la fine di una lotta.",
    ),
    P + "place.colour": (
        "This card places a {expected} follower now, not {colour}.",
        "Questa carta ora colloca un Seguace {expected}, non {colour}.",
    ),
    P + "place.not-bordering": (
        "{region} does not border a region the {faction} control.",
        # The faction named by its card: "dai Gallesi" but "dagli Scozzesi".
        "{region} non confina con una regione controllata dalla fazione della carta ({faction}).",
    ),
    P + "summon.loyalist": (
        "Mordred's loyalists can never be summoned to court.",
        "I Lealisti di Mordred non possono mai essere convocati a corte.",
    ),
    P + "action.not-winning": (
        "The last card of the game must be played to win, and this choice does not win.",
        "L'ultima carta della partita va giocata per vincere, e questa scelta non vince.",
    ),
}
