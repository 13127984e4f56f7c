"""English and Italian sentences for every refusal the engine gives."""

from __future__ import annotations

P = "king-is-dead."

MESSAGES: dict[str, tuple[str, str]] = {
    P + "step.wrong-move": (
        "Not now: the game is waiting for a move of type {expected}.",
        "Non ora: il gioco attende una mossa di tipo {expected}.",
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
        "With 3 players the last action card of the game may be played only to win: {card} cannot win now.",
        "In 3 giocatori l'ultima Carta Azione della partita si gioca solo per vincere: {card} ora non vince.",
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
        "{region} non confina con una regione controllata dai {faction}.",
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
