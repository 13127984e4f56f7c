"""Every refusal code of King & Assassins in English and Italian."""

from __future__ import annotations

_P = "king-and-assassins."

MESSAGES: dict[str, tuple[str, str]] = {
    _P + "setup.choose-first": (
        "First the Assassin player secretly chooses the three assassins.",
        "Prima il giocatore Assassino sceglie in segreto i tre assassini.",
    ),
    _P + "setup.already-chosen": (
        "The assassins have already been chosen.",
        "Gli assassini sono già stati scelti.",
    ),
    _P + "setup.choose-three": (
        "Choose exactly three citizens, not {count}.",
        "Scegli esattamente tre cittadini, non {count}.",
    ),
    _P + "setup.unknown-citizen": (
        "{piece} is not one of the twelve citizens.",
        "{piece} non è uno dei dodici cittadini.",
    ),
    _P + "setup.citizen-twice": (
        "Choose three different citizens.",
        "Scegli tre cittadini diversi.",
    ),
    _P + "setup.start-first": (
        "First the King player places the king on one of the start spaces.",
        "Prima il giocatore Re piazza il re su uno degli spazi di partenza.",
    ),
    _P + "setup.no-start-now": (
        "The king's start space is not chosen now.",
        "Lo spazio di partenza del re non si sceglie ora.",
    ),
    _P + "setup.not-a-start": (
        "{cell} is not a start space for the king; choose {starts}.",
        "{cell} non è uno spazio di partenza del re; scegli {starts}.",
    ),
    _P + "round.draw-first": (
        "First turn over the next round card.",
        "Prima scopri la prossima carta Round.",
    ),
    _P + "round.no-draw-now": (
        "No round card is turned over now.",
        "Ora non si scopre una carta Round.",
    ),
    _P + "round.card-not-in-deck": (
        "Round card {card} is not in the deck.",
        "La carta Round {card} non è nel mazzo.",
    ),
    _P + "turn.kings-turn": (
        "It is the King player's turn: no {action} now.",
        "È il turno del giocatore Re: niente {action} ora.",
    ),
    _P + "turn.assassins-turn": (
        "It is the Assassin player's turn: no {action} now.",
        "È il turno del giocatore Assassino: niente {action} ora.",
    ),
    _P + "move.unknown": (
        "That is not a King & Assassins move ({move}).",
        "Questa non è una mossa di King & Assassins ({move}).",
    ),
    _P + "piece.unknown": (
        "There is no piece called {piece}.",
        "Non esiste un segnalino chiamato {piece}.",
    ),
    _P + "piece.not-yours": (
        "{piece} belongs to the other player.",
        "{piece} appartiene all'altro giocatore.",
    ),
    _P + "piece.cannot-do-that": (
        "{piece} cannot take that action.",
        "{piece} non può compiere questa azione.",
    ),
    _P + "piece.not-on-board": (
        "{piece} is no longer on the board.",
        "{piece} non è più sulla plancia.",
    ),
    _P + "move.bad-direction": (
        "{dir} is not a direction: pieces move north, east, south or west, never diagonally.",
        "{dir} non è una direzione: i segnalini si muovono a nord, est, sud o ovest, mai in diagonale.",
    ),
    _P + "move.off-board": (
        "{piece} cannot move {dir}: that leaves the board.",
        "{piece} non può muoversi verso {dir}: uscirebbe dalla plancia.",
    ),
    _P + "move.occupied": (
        "{cell} is taken by {occupant}.",
        "{cell} è già occupato: c'è {occupant}.",
    ),
    _P + "king.street-only": (
        "The king moves on streets only; {cell} is a roof.",
        "Il re si muove solo sulle strade; {cell} è un tetto.",
    ),
    _P + "ap.not-enough": (
        "Action points needed: {need}; left for the {pool}: {left}.",
        "Punti azione necessari: {need}; rimasti per {pool}: {left}.",
    ),
    _P + "push.off-board": (
        "The push would put {pushed} off the board.",
        "La spinta porterebbe {pushed} fuori dalla plancia.",
    ),
    _P + "push.street-to-roof": (
        "The push would put {pushed} from a street onto the roof {cell}.",
        "La spinta porterebbe {pushed} da una strada al tetto {cell}.",
    ),
    _P + "push.into-knight": (
        "The push would put {pushed} onto a knight at {cell}.",
        "La spinta porterebbe {pushed} su un cavaliere in {cell}.",
    ),
    _P + "push.into-king": (
        "The push would put {pushed} onto the king at {cell}.",
        "La spinta porterebbe {pushed} sul re in {cell}.",
    ),
    _P + "target.unknown": (
        "There is no piece called {target}.",
        "Non esiste un segnalino chiamato {target}.",
    ),
    _P + "target.wrong-kind": (
        "{target} cannot be the target of that action.",
        "{target} non può essere il bersaglio di questa azione.",
    ),
    _P + "target.not-on-board": (
        "{target} is no longer on the board.",
        "{target} non è più sulla plancia.",
    ),
    _P + "target.not-adjacent": (
        "{target} is not next to {piece} (never diagonally).",
        "{target} non è accanto a {piece} (mai in diagonale).",
    ),
    _P + "target.on-roof": (
        "{piece} is on a street and cannot reach {target} on a roof.",
        "{piece} è su una strada e non può raggiungere {target} su un tetto.",
    ),
    _P + "arrest.no-handcuffs": (
        "This round card has no handcuffs: no arrests this round.",
        "Questa carta Round non ha le manette: niente catture in questo round.",
    ),
    _P + "arrest.one-per-turn": (
        "Only one citizen may be arrested per turn.",
        "Si può catturare un solo cittadino per turno.",
    ),
    _P + "arrest.revealed": (
        "{target} is a revealed assassin: eliminate it instead.",
        "{target} è un assassino rivelato: eliminalo invece.",
    ),
    _P + "eliminate.not-revealed": (
        "{target} has not been revealed as an assassin: only arrest is possible.",
        "{target} non è stato rivelato come assassino: è possibile solo catturarlo.",
    ),
    _P + "eliminate.two-per-turn": (
        "At most two knights may be eliminated per turn.",
        "Non si possono eliminare più di due cavalieri per turno.",
    ),
    _P + "assassin.not-revealed": (
        "{piece} is not a revealed assassin: reveal it first.",
        "{piece} non è un assassino rivelato: prima rivelalo.",
    ),
    _P + "attack.not-adjacent": (
        "{piece} is not next to the king.",
        "{piece} non è accanto al re.",
    ),
    _P + "reveal.not-citizen": (
        "Only citizens can be revealed as assassins, not {piece}.",
        "Solo i cittadini possono essere rivelati come assassini, non {piece}.",
    ),
    _P + "reveal.already": (
        "{piece} has already been revealed.",
        "{piece} è già stato rivelato.",
    ),
    _P + "reveal.not-assassin": (
        "{piece} is not one of your three assassins.",
        "{piece} non è uno dei tuoi tre assassini.",
    ),
}


#: the ids a sentence's params hold, in each language: pieces by the names
#: the screens give them, the four directions, the three pools of points
WORDS: dict[str, tuple[str, str]] = {
    "king": ("King", "il Re"),
    **{f"knight{n}": (f"Knight {n}", f"Cavaliere {n}") for n in range(1, 10)},
    **{f"citizen{n}": (f"Citizen {n}", f"Cittadino {n}") for n in range(1, 13)},
    "N": ("north", "nord"), "E": ("east", "est"), "S": ("south", "sud"), "W": ("west", "ovest"),
    "knights": ("Knights", "i Cavalieri"), "assassins": ("Assassins", "gli Assassini"),
}
