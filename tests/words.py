"""What a player must never read, in either language: the faults a native
Italian review and a first-timer found (issue 33), as patterns; used by the
catalogue re-read (tests/rules/test_catalogue_reread.py) and by the screen
checks (tests/pi_app/ui/test_screen_language.py)."""

from __future__ import annotations

import re

# An internal id: snake_case, a component id ("garrison@2", "region:Ratae"), a
# template's unfilled {param}, a Python value ("False, True", "None").
IDS = [r"\b[a-z]+_[a-z_]+\b", r"\w@\d", r"\b(region|follower|card|piece):\w", r"\{\w*\}",
       r"\b(False|True)\b"]

# Words of English a player reads on an Italian screen (ids left untranslated:
# "La carta assassin", "la fase attack", "su hills", "Supply Wagon").
ENGLISH_IN_ITALIAN = (r"\b(the|of|and|your|turn|card|cards|play|pass|attack|phase|hills|forest|mountains|"
                      r"assassin|assassins|knight|knights|king|citizen|wagon|supply|seat|player|wins|"
                      r"Supply Wagon|Player|Round Table)\b")
ITALIAN_IN_ENGLISH = (r"\b(il|della|delle|dei|che|con|nella|sulla|Giocatore|Turno|Regola|carta|"
                      r"carte|Tocca|Conferma|Indietro|Attaccante|Difensore)\b")

# Italian as an Italian player would not say it, each with what to say instead.
ITALIAN = [
    (r"\b[Nn]uova (Cavaliere|Uomo|Ariete|Anello|Arciere|Re\b|Mago|Castello|Seguace)", "agreement: nuovo"),
    (r"\bai Scozzesi", "agreement: agli Scozzesi (but ai Sassoni)"),
    (r"\b(di|a|da|su|per) (Giocatore|Difensore|Attaccante|Re|Assassino)\b", "article: del/al Giocatore"),
    (r"\bVince (Difensore|Attaccante|Giocatore)", "article: Vince il ..."),
    (r"\bVincono (Assassini)", "article: Vincono gli Assassini"),
    (r"[Pp]iazzate prima i vostri", "voi and a plural for one"),
    (r"\bvostr[oaie]\b", "voi: the table says tu"),
    (r"Richiama un Seguace", "the rulebook: convocare a corte"),
    (r"Lancia del Destino", "the card is Mano del Destino"),
    (r"Bando papale|Maltempo|Morale basso", "the cards: Intimazione del Papa, Cattivo Tempo, Morale a Terra"),
    (r"Annullamento annullato", "say: Nessun annullamento"),
    (r"\bN, E, S o W\b|\bW\b", "Ovest is O"),
    (r"\d\.\d+ ?s\b", "decimal comma: 3,7 s"),
    (r"\bcav\.|\bsegn\.|\bP:opp\b|\bCa\d-\d", "a cryptic short form"),
    (r"Tutti gli uomini fuori", "says the opposite"),
    (r"Pensa da ciò che vede", "unidiomatic"),
    (r"\+corona\b", "a cryptic short form: Re e corona"),
    (r"\bTogli (?!muro\b)(?![^(]*\b(dell'|del |dello |di ))[^(]*\(fila", "whose unit: dell'Attaccante"),
    (r"\bVince Mordred: pedoni\b|\bGalles salvo: PV\b", "a verdict that is not a sentence"),
    (r"\d+ PV\b", "a short form: punti vittoria"),
    # the demo transcript's own labels
    (r"^\s*(move|said|chance|refused|outcome|note|undo) \||\| table\b|: (tap|press) ", "a label in English"),
]
ENGLISH = [
    (r"\b1 (action points|points|cards|players|followers|moves)\b", "a plural for one"),
    (r"\bIt is \w+'s turn, not \w+'s\b", "a role without its article"),
    (r"\bchoose one of (False, True|True, False)", "a Python value"),
    (r"\bEnd tum\b|\bwirs\b", "the font at that size"),
    (r"\bpawn \d+\b(?! (left|right))", "a pawn's place without words"),
    (r"\+crown\b", "a cryptic short form: King and crown"),
    (r"\bRemove (?!wall\b)(?![^(]*'s )[^(]*\(row", "whose unit: the Attacker's"),
    (r"\bMordred won: by pawns\b|\bWales held: by VP\b", "a verdict that is not a sentence"),
    (r"\d+ VP\b", "a short form: victory points"),
]


def faults(text: str, lang: str, template: bool = False) -> list[str]:
    """Each fault found in ``text`` (a screen, a refusal, a line) read in
    ``lang``; a ``template``'s {params} are left out of the reading."""
    if template:
        text = re.sub(r"\{[^{}]*\}", "", text)
    found = [f"id {m.group(0)!r}" for pattern in IDS for m in re.finditer(pattern, text)]
    other = ENGLISH_IN_ITALIAN if lang == "it" else ITALIAN_IN_ENGLISH
    found += [f"other language {m.group(0)!r}" for m in re.finditer(other, text)]
    for pattern, why in ITALIAN if lang == "it" else ENGLISH:
        found += [f"{m.group(0)!r}: {why}" for m in re.finditer(pattern, text)]
    return found
