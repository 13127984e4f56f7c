"""The words of King & Assassins at the table, English and Italian: labels,
the table's own refusals, moves and events in words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pi_app.games.base import seat_name
from pi_app.i18n import pick
from rules import catalogue
from rules.core import JSON, Event
from rules.king_and_assassins.data import ROUND_CARDS

Pair = tuple[str, str]
RULE_SETUP = "Setup del gioco"
RULE_TURN = "Il gioco"
#: the table's own refusal codes start with this
CODE = "king-and-assassins.table."

catalogue.register({
    CODE + "already-picked": (
        "{piece} is already picked; tap another citizen card.",
        "{piece} è già scelto; tocca un'altra carta Cittadino."),
    CODE + "three-picked": (
        "Three are picked: press ● to confirm, or go back to change one.",
        "Tre sono scelti: premi ● per confermare, o torna indietro per cambiarne uno."),
    CODE + "card-not-now": (
        "Citizen cards are tapped to pick the assassins or to reveal one, not now.",
        "Le carte Cittadino si toccano per scegliere gli assassini o per rivelarne uno, non ora."),
    CODE + "round-card-not-now": (
        "Round cards are tapped only when the next one is turned over.",
        "Le carte Round si toccano solo quando si scopre la prossima."),
    CODE + "citizen-not-yours": (
        "{piece} is moved by the Assassin player; tap it as a target only next to one of your knights.",
        "{piece} lo muove il giocatore Assassino; toccalo come bersaglio solo accanto a un tuo cavaliere."),
    CODE + "not-a-target": (
        "{piece} is not a target now; choose one in the menu.",
        "{piece} non è un bersaglio ora; scegline uno nel menu."),
    CODE + "no-assassin-yet": (
        "No assassin is revealed yet: assassin tokens go on the board as citizens are revealed.",
        "Nessun assassino è ancora rivelato: i segnalini Assassino vanno sulla plancia "
        "quando un cittadino è rivelato."),
    CODE + "piece-idle": ("{piece} can do nothing now.", "{piece} non può fare nulla ora."),
})

PIECE_WORDS: dict[str, Pair] = {"king": ("King", "Re"), "knight": ("Knight", "Cavaliere"),
                                "citizen": ("Citizen", "Cittadino")}
TYPE_LABELS: dict[str, Pair] = {
    "move": ("Move", "Muovi"),
    "arrest": ("Arrest", "Cattura"),
    "eliminate": ("Eliminate", "Elimina"),
    "attack": ("Attack king", "Attacca il re"),
    "reveal": ("Reveal", "Rivela"),
    "end": ("End turn", "Fine turno"),
    "start": ("King's start", "Partenza del re"),
    "choose": ("Choose", "Scegli"),
    "draw": ("Round card", "Carta Round"),
}
DIR_LABELS: dict[str, Pair] = {"N": ("North ↑", "Nord ↑"), "E": ("East →", "Est →"),
                               "S": ("South ↓", "Sud ↓"), "W": ("West ←", "Ovest ←")}
FIELD_LABELS: dict[str, Pair] = {
    "type": ("Action", "Azione"),
    "piece": ("Piece", "Segnalino"),
    "dir": ("Direction", "Direzione"),
    "target": ("Target", "Bersaglio"),
    "cell": ("Start", "Partenza"),
    "card": ("Round card", "Carta Round"),
}
#: the public view's fields the spectator page shows beside the drawn city
#: (the rulebook's words: Punti Azione, manette, cristallo rosso)
VIEW_LABELS: dict[str, Pair] = {
    "side": ("Board side", "Lato della plancia"),
    "round": ("Round", "Round"),
    "cards_left": ("Round cards left", "Carte Round rimaste"),
    "card": ("Round card", "Carta Round"),
    "id": ("Card", "Carta"),
    "ap": ("Action Points left", "Punti Azione rimasti"),
    "king": ("King", "Re"),
    "knights": ("Knights", "Cavalieri"),
    "assassins": ("Assassin player", "Giocatore Assassino"),
    "handcuffs": ("Handcuffs", "Manette"),
    "red_crystal": ("Red crystal", "Cristallo rosso"),
    "wounds": ("King's wounds", "Ferite del Re"),
    "arrested": ("Arrested", "Catturati"),
    "arrested_assassins": ("Assassins arrested", "Assassini catturati"),
    "eliminated": ("Eliminated", "Eliminati"),
    "knights_lost": ("Knights lost", "Cavalieri persi"),
}
REASONS: dict[str, Pair] = {
    "king-escaped": ("The king escaped", "Il re è fuggito"),
    "assassins-gone": ("All 3 assassins gone", "Tutti e 3 gli assassini fuori"),
    "king-killed": ("The king is dead", "Il re è morto"),
    "deck-exhausted": ("Last round played", "Ultimo round giocato"),
}
#: The points a refusal says are short, as the sentence needs them ("left for the knights",
#: "ne restano 0 per i cavalieri").
POOL_WORDS: dict[str, Pair] = {"king": ("king", "il re"), "knights": ("knights", "i cavalieri"),
                               "assassins": ("Assassin player", "il giocatore Assassino")}
ACTION_WORDS: dict[str, Pair] = {"move": ("", ""), "climb": (" (climb)", " (sale)"),
                                 "descend": (" (descend)", " (scende)")}


def say(pair: Pair, lang: str) -> str:
    return pick(pair, lang)


def piece_name(name: str, lang: str) -> str:
    """``knight3`` -> "Knight 3"; ``citizen5`` -> "Citizen 5": whole words
    even beside the board, where the screen pages what does not fit."""
    for kind, pair in PIECE_WORDS.items():
        if name.startswith(kind):
            number = name[len(kind):]
            return f"{say(pair, lang)} {number}".strip()
    return name


def refusal_params(params: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """An engine refusal's params in the table's words: pieces as their tokens
    are named on the screens, the pool of points in the table's language (the
    engine's params are the notation's names, for logs and replay)."""
    out = dict(params)
    for key in ("piece", "target", "occupant", "pushed"):
        if isinstance(out.get(key), str):
            out[key] = piece_name(out[key], lang)
    if out.get("pool") in POOL_WORDS:
        out["pool"] = say(POOL_WORDS[out["pool"]], lang)
    return out


def card_text(card: int, lang: str) -> str:
    """A round card's action points, in words: "7: King 2, Knights 7,
    Assassins 5, handcuffs"."""
    c = ROUND_CARDS[card]
    if lang == "en":
        cuffs = ", handcuffs" if c.handcuffs else ""
        return f"{card}: King {c.king}, Knights {c.knights}, Assassins {c.assassins}{cuffs}"
    cuffs = ", manette" if c.handcuffs else ""
    return f"{card}: Re {c.king}, Cavalieri {c.knights}, Assassini {c.assassins}{cuffs}"


def move_words(move: JSON, lang: str, short: bool) -> str:
    """A move in words: ``short`` for a confirm screen beside the board
    (about 60 px), else for the transcript."""
    kind = move.get("type", "")
    en = lang == "en"
    piece = piece_name(str(move.get("piece", "")), lang)
    target = piece_name(str(move.get("target", "")), lang)
    if kind == "choose":  # only on the Assassin player's confirm screen; see record_text
        return " ".join(piece_name(c, lang) for c in move.get("citizens", []))
    d = move.get("dir", "")
    # the whole word, on the confirm screen too ("Knight 6 North ↑"): a
    # compass letter is a code the player would have to be told
    way = say(DIR_LABELS.get(d, ("", "")), lang)
    card, cell = move.get("card"), move.get("cell")
    texts = {
        "start": (f"King {cell}" if short else f"King starts on {cell}") if en
        else (f"Re {cell}" if short else f"Re parte da {cell}"),
        "draw": f"Round card {card}" if en else f"Carta Round {card}",
        "move": f"{piece} {way}",
        "arrest": f"{piece} arrests {target}" if en else f"{piece} cattura {target}",
        "eliminate": f"{piece} eliminates {target}" if en else f"{piece} elimina {target}",
        "attack": (f"{piece} attacks" if short else f"{piece} attacks the king") if en
        else (f"{piece} attacca" if short else f"{piece} attacca il re"),
        "reveal": f"Reveal {piece}" if en else f"Rivela {piece}",
        "end": say(TYPE_LABELS["end"], lang),
    }
    return texts.get(kind, kind)


def event_lines(events: Sequence[Event], lang: str, names: Sequence[str] = ()) -> list[str]:
    """What the table must do and know after these events: the public ones
    only; a secret event is told on its seat's screen by that seat's view."""
    en = lang == "en"
    out: list[str] = []
    for ev in events:
        if ev.audience is not None:
            continue  # secret: told on the Assassin player's screen by its own view
        p = dict(ev.params)
        kind = ev.type
        piece = piece_name(str(p.get("piece", "")), lang)
        target = piece_name(str(p.get("target", "")), lang)
        if kind == "assassins_chosen":
            out.append("The Assassin player has chosen" if en else "Il giocatore Assassino ha scelto")
        elif kind == "king_placed":
            out.append(f"King on {p['cell']}, knights beside" if en
                       else f"Re su {p['cell']}, cavalieri accanto")
        elif kind == "round_card":
            out.append(f"Round {p['round']}: card {card_text(p['card']['id'], lang)}" if en
                       else f"Round {p['round']}: carta {card_text(p['card']['id'], lang)}")
        elif kind == "moved":
            how = say(ACTION_WORDS.get(p["action"], ("", "")), lang)
            line = f"{piece} {p['from']}→{p['to']}{how}"
            for push in p.get("pushed", []):
                line += f", {piece_name(push['piece'], lang)} {push['from']}→{push['to']}"
            out.append(line)
        elif kind == "king_escaped":
            out.append(f"The king escapes by {p['gate']}!" if en else f"Il re fugge da {p['gate']}!")
        elif kind == "arrested":
            out.append(f"{piece} arrests {target} ({p['cell']})" if en
                       else f"{piece} cattura {target} ({p['cell']})")
        elif kind == "arrested_assassin":  # public only when it was the last one
            out.append(f"{target} was the last assassin!" if en else f"{target} era l'ultimo assassino!")
        elif kind == "eliminated":
            out.append(f"{piece} eliminates {target} ({p['cell']})" if en
                       else f"{piece} elimina {target} ({p['cell']})")
        elif kind == "king_wounded":
            out.append(f"{piece} wounds the king ({p['wounds']}/2)" if en
                       else f"{piece} ferisce il re ({p['wounds']}/2)")
        elif kind == "revealed":
            if p.get("arrested"):
                out.append(f"Arrested {piece} was an assassin" if en
                           else f"{piece} catturato era un assassino")
            else:
                # Turno del Giocatore Assassino: the citizen token is swapped for an assassin token.
                out.append(f"{piece} is an assassin: swap in an assassin token" if en
                           else f"{piece} è un assassino: sostituiscilo con un segnalino Assassino")
        elif kind == "turn_ended":
            out.append(f"{seat_name(p['seat'], lang, 'king-and-assassins', names)} ends the turn" if en
                       else f"{seat_name(p['seat'], lang, 'king-and-assassins', names)} finisce il turno")
        elif kind == "game_over":
            out.append(say(REASONS.get(p["reason"], (p["reason"], p["reason"])), lang))
    return out
