"""Every IllegalMove code Artus raises, in English and Italian."""

from __future__ import annotations

from rules import catalogue

# Rulebook sections (Italian rulebook headings) the codes enforce.
R_SETUP = "Preparazione"
R_HAND = "Nuova mano"
R_KNIGHT = "Muovere un Cavaliere"
R_ROYAL = "Muovere un Principe o il Re"
R_RING = "Aggiungere un anello"
R_SCORING = "Le carte punteggio"
R_ADVANCED = "Regole avanzate: Gameplay"
R_PLAY = "Gameplay"

MESSAGES: dict[str, tuple[str, str]] = {
    "artus.phase.draw-due": (
        "{player}: a card must be drawn first from the {pile} pile.",
        "{player}: prima va pescata una carta dal mazzo {pile}.",
    ),
    "artus.phase.no-draw-due": (
        "No card is being drawn now.",
        "Ora non si sta pescando nessuna carta.",
    ),
    "artus.phase.placing": (
        "Knights are still being placed: put a Knight on an empty seat.",
        "Si stanno ancora piazzando i Cavalieri: metti un Cavaliere su un posto vuoto.",
    ),
    "artus.phase.not-placing": (
        "All Knights are already placed.",
        "Tutti i Cavalieri sono già piazzati.",
    ),
    "artus.phase.must-choose-pile": (
        "Choose the pile to draw your next card from.",
        "Scegli il mazzo da cui pescare la prossima carta.",
    ),
    "artus.phase.must-play": (
        "Play a card from your hand first ({left} to play this turn).",
        "Prima gioca una carta dalla mano (ancora {left} in questo turno).",
    ),
    "artus.draw.unknown-pile": (
        "There is no {pile} pile in this game; piles: {piles}.",
        "In questa partita non c'è il mazzo {pile}; mazzi: {piles}.",
    ),
    "artus.draw.pile-empty": (
        "Your {pile} pile is empty: draw from another pile.",
        "Il tuo mazzo {pile} è finito: pesca dall'altro.",
    ),
    "artus.draw.not-in-pile": (
        "Card {card} is not left in the {pile} pile.",
        "La carta {card} non è rimasta nel mazzo {pile}.",
    ),
    "artus.seat.no-seat": (
        "There is no seat {seat}; seats are 0 to {last}.",
        "Non esiste il posto {seat}; i posti vanno da 0 a {last}.",
    ),
    "artus.place.occupied": (
        "Seat {seat} is taken: place your Knight on an empty seat.",
        "Il posto {seat} è occupato: metti il Cavaliere su un posto vuoto.",
    ),
    "artus.card.unknown": (
        "There is no card {card} in Artus.",
        "Non esiste la carta {card} in Artus.",
    ),
    "artus.card.not-in-hand": (
        "Card {card} is not in your hand.",
        "La carta {card} non è nella tua mano.",
    ),
    "artus.card.wrong-action": (
        "Card {card} cannot be used to {do}.",
        "La carta {card} non permette di {do}.",
    ),
    "artus.move.no-figure": (
        "There is no figure on place {seat}.",
        "Non c'è nessuna figura sul posto {seat}.",
    ),
    "artus.move.not-own-knight": (
        "A Knight card moves one of your own Knights; seat {seat} holds none.",
        "Una carta Cavaliere muove un tuo Cavaliere; sul posto {seat} non c'è.",
    ),
    "artus.move.not-royal": (
        "A King card moves a Prince or the King; seat {seat} holds a Knight.",
        "Una carta Re muove un Principe o il Re; sul posto {seat} c'è un Cavaliere.",
    ),
    "artus.move.foreign-knight": (
        "You may only move your own Knights; the Knight on place {seat} is not yours.",
        "Puoi muovere solo i tuoi Cavalieri; quello sul posto {seat} non è tuo.",
    ),
    "artus.move.wrong-colour": (
        "Card {card} moves only {colour} figures; the one on place {seat} is {figure}.",
        "La carta {card} muove solo figure {colour}; quella sul posto {seat} è {figure}.",
    ),
    "artus.move.backwards": (
        "Card {card} moves forwards only; only the both-ways cards move backwards.",
        "La carta {card} muove solo in avanti; solo le carte con le due frecce muovono all'indietro.",
    ),
    "artus.move.out-of-range": (
        "Card {card} moves {lo} to {hi} seats, not {steps}.",
        "La carta {card} muove da {lo} a {hi} posti, non {steps}.",
    ),
    "artus.ring.not-prince": (
        "A ring goes on a Prince; seat {seat} holds none.",
        "Un anello va su un Principe; sul posto {seat} non c'è.",
    ),
    "artus.ring.king": (
        "Never a ring on the King (seat {seat}).",
        "Mai un anello al Re (posto {seat}).",
    ),
    "artus.ring.wrong-colour": (
        "Card {card} adds a ring to a {colour} Prince only; the one on place {seat} is {figure}.",
        "La carta {card} aggiunge un anello solo a un Principe {colour}; quello sul posto {seat} è {figure}.",
    ),
    "artus.score.no-choice": (
        "Card {card} scores without a choice of Knights.",
        "La carta {card} conteggia senza scegliere i Cavalieri.",
    ),
    "artus.score.wrong-count": (
        "Card {card} scores {wanted} Knights, not {got}.",
        "La carta {card} conteggia {wanted} Cavalieri, non {got}.",
    ),
    "artus.score.same-knight": (
        "Name each Knight once (seat {seat} twice).",
        "Indica ogni Cavaliere una volta sola (posto {seat} due volte).",
    ),
    "artus.score.not-own-knight": (
        "Scoring cards score your own Knights; seat {seat} holds none of yours.",
        "Le carte punteggio conteggiano i tuoi Cavalieri; sul posto {seat} non c'è un tuo Cavaliere.",
    ),
    "artus.score.colours": (
        "Score one Knight on green, one on yellow and one on red; these are on {colours}.",
        "Conteggia un Cavaliere sul verde, uno sul giallo e uno sul rosso; questi sono su {colours}.",
    ),
    "artus.score.not-carpet": (
        "Seat {seat} is not a carpet chair.",
        "Il posto {seat} non è una sedia sul tappeto.",
    ),
    "artus.score.not-red": (
        "The Knight on place {seat} is not on a red seat.",
        "Il Cavaliere sul posto {seat} non è su un posto rosso.",
    ),
    "artus.score.can-fulfil": (
        "You can meet card {card}: score your Knights instead of taking {penalty}.",
        "Puoi soddisfare la carta {card}: conteggia i Cavalieri invece di prendere {penalty}.",
    ),
    "artus.score.cannot-fulfil": (
        "You cannot meet card {card}: it costs {penalty} prestige.",
        "Non puoi soddisfare la carta {card}: costa {penalty} punti prestigio.",
    ),
    "artus.play.extra": (
        "That play takes no {field}.",
        "Quella giocata non prevede {field}.",
    ),
}

def words() -> dict[str, tuple[str, str]]:
    """The ids a sentence's params hold, in each language: every card as the
    screens name it, the piles, the colours and what a card lets one do."""
    from rules.artus.data import DATA

    colours = {"silver": ("silver", "d'argento"), "bronze": ("bronze", "di bronzo")}
    out = {"knight": ("Knight", "dei Cavalieri"), "king": ("King", "dei Re"),
           "scoring": ("Scoring", "del Punteggio"),
           "move": ("move a figure", "muovere una figura"), "ring": ("add a ring", "aggiungere un anello"),
           "score": ("score", "contare il punteggio"), **colours}
    for cid, card in DATA.cards.items():
        span = f"{card.lo}-{card.hi}"
        way = (" either way", " avanti o indietro") if card.both_ways else ("", "")
        en, it = colours.get(card.colour or "", ("", ""))
        if card.action == "knight":
            out[cid] = (f"Knight {span}{way[0]}", f"Cavaliere {span}{way[1]}")
        elif card.action == "royal":
            out[cid] = (f"King {span}{way[0]} {en}".strip(), f"Re {span}{way[1]} {it}".strip())
        elif card.action == "ring":
            out[cid] = (f"Ring {en}".strip(), f"Anello {it}".strip())
        elif card.action == "choice":
            out[cid] = ("Choice card", "Carta a scelta")
        else:
            out[cid] = ("Scoring card", "Carta punteggio")
    return out


catalogue.register(MESSAGES, words=words())
