"""The table's own words in English and Italian (the games' words live in
their adapters, the rule messages in rules.catalogue), and the table's own
refusals (``table.*`` codes), registered in rules.catalogue when ``pi_app``
is imported (pi_app/__init__.py), so that any module of the daemon that
holds one can say it."""

from __future__ import annotations

from typing import Any

from rules import catalogue
from rules.catalogue import LANGS

_TEXT: dict[str, tuple[str, str]] = {
    "your-turn": ("Your turn", "Tocca a te"),
    "waiting-for": ("Waiting: {seat}", "Attendi: {seat}"),
    "turn-of": ("Turn: {seat}", "Turno: {seat}"),
    "refused": ("REFUSED", "RIFIUTATO"),
    # Holding ● (pi_app.session.input_map.InputMap.on_held): the short forms of the screens spelled out.
    "legend": ("SHORT FORMS", "ABBREVIAZIONI"),
    "legend-none": ("Nothing is shortened in this game.", "In questo gioco nulla è abbreviato."),
    "rule": ("Rule: {rule}", "Regola: {rule}"),
    "confirm": ("confirm", "conferma"),
    "back": ("back", "indietro"),
    "unknown-tag": ("UNKNOWN TAG", "TAG SCONOSCIUTO"),
    # Said mid-game to a player, who can only act at the table: no shell commands here.
    "unknown-tag-detail": ("The table does not know this tag ({uid}). Tap the card or piece "
                           "you meant. If it is a new card or piece, play on without it and give "
                           "it to the host after the game, to be added to the table.",
                           "Il tavolo non conosce questo tag ({uid}). Tocca la carta o il pezzo "
                           "giusto. Se è una carta o un pezzo nuovo, continua senza e dallo "
                           "all'organizzatore a fine partita, che lo aggiungerà al tavolo."),
    # Named in words (the tag's own id stays in the transcript): a player
    # holding another box's card knows it at once.
    "tag-not-in-game": ("This is {component} of {game}: it is not used in this game.",
                        "Questo è {component} di {game}: non si usa in questa partita."),
    "tag-not-for-players": ("{component} is not used in a game of {players} players.",
                            "{component} non si usa in una partita a {players} giocatori."),
    "chance": ("Chance", "Caso"),
    "chance-choose": ("Enter the result", "Inserisci il risultato"),
    "game-over": ("GAME OVER", "FINE PARTITA"),
    "winner": ("Winner: {seats}", "Vince: {seats}"),
    "winners": ("Winners: {seats}", "Vincono: {seats}"),
    "no-winner": ("No winner", "Nessun vincitore"),
    "undo-ask": ("UNDO?", "ANNULLA?"),
    "undo-confirm": ("UNDO again: yes / other: no", "ANNULLA ancora: sì / altro: no"),
    "undo-done": ("Undone: {move}", "Annullata: {move}"),
    "undo-none": ("Nothing to undo", "Niente da annullare"),
    "undo-barrier": ("Cannot undo past {what}", "Non si annulla oltre {what}"),
    "undo-barrier-chance": ("a chance step", "un evento casuale"),
    "undo-barrier-secret": ("a revealed secret", "un segreto rivelato"),
    "undo-cancelled": ("Undo cancelled", "Nessun annullamento"),
    "reader-fault": ("{reader} not answering", "{reader} non risponde"),
    "reader-back": ("{reader} answers again", "{reader} risponde di nuovo"),
    "setup": ("Set up the table", "Prepara il tavolo"),
    "pass-hint": ("tap a card or use < o >", "tocca una carta o < o >"),
    "started": ("New game: {game}", "Nuova partita: {game}"),
    "resumed": ("Resumed: {moves} moves", "Ripresa: {moves} mosse"),
    "score": ("Score", "Punti"),
    "internal-error": ("Fault: see the log", "Guasto: vedi il log"),
    "journal-unsaved": ("journal not saved: {reason}, retrying", "partita non salvata: {reason}, riprovo"),
    "journal-full": ("disk full", "disco pieno"),
    "journal-io": ("disk error", "errore del disco"),
    "journal-readonly": ("disk read-only", "disco in sola lettura"),
    "move-unsaved": ("Move not saved", "Mossa non salvata"),
    "move-unsaved-why": ("The journal refused it: {reason}. The game is as before.",
                         "Il giornale l'ha rifiutata: {reason}. La partita è come prima."),
    "journal-fix-full": ("Free space on the SD card.", "Libera spazio sulla scheda SD."),
    "journal-fix-readonly": ("Make the SD card writable again.", "Rendi di nuovo scrivibile la scheda SD."),
    "journal-fix-io": ("The SD card may be failing: replace it.",
                      "La scheda SD può essere guasta: sostituiscila."),
    "unsaved-retrying": ("Trying again every second: the move counts once saved.",
                         "Riprovo ogni secondo: la mossa vale appena salvata."),
    "unsaved-hold": ("Hold ● to play on unsaved.", "Tieni premuto ● per giocare senza salvare."),
    "unsaved-chosen": ("Playing on unsaved", "Si gioca senza salvare"),
    "game-unsaved": ("Game not saved yet", "Partita non ancora salvata"),
    "undo-unsaved": ("No undo until saved", "Niente annulla finché non è salvata"),
    "undo-failed": ("Undo failed: {reason}", "Annulla fallito: {reason}"),
    # tablekeeper replay --lang: a log told in words
    "replay-table": ("Table", "Tavolo"),
    "replay-refused": ("{move}: refused. {why}", "{move}: rifiutata. {why}"),
    "replay-not-over": ("The game is not over; to move: {seat}.",
                        "La partita non è finita; di turno: {seat}."),
}

# The table's own refusals, in the same catalogue as the engines' so that an
# IllegalMove from either reads the same way on a seat's screen.
catalogue.register({
    "table.not-your-turn": ("Turn: {to_move}, not {seat}. Wait for your turn.",
                            "Turno: {to_move}, non {seat}. Aspetta il tuo turno."),
    "table.not-your-piece": ("That piece belongs to {owner}, not to {seat}.",
                             "Quel pezzo appartiene a un altro giocatore: {owner}."),
    "table.not-now": ("{what} cannot be used now.", "{what} non si può usare ora."),
    "table.chance-pending": ("Wait: the table must first enter {what}.",
                             "Attendi: prima il tavolo deve inserire {what}."),
    "table.draw-own-pad": ("Wait: {drawer} draws; the card drawn is tapped on {drawer}'s own pad.",
                           "Attendi: pesca {drawer}; la carta pescata si tocca sul lettore di {drawer}."),
    "table.game-over": ("The game is over.", "La partita è finita."),
    "table.tap-conflict": ("{what} does not go with {chosen}, picked before: tap another, or go back "
                           "(◀ to 'back', ●) to pick again.",
                           "{what} non va con {chosen}, scelto prima: tocca altro, o torna indietro "
                           "(◀ fino a 'indietro', ●) per scegliere di nuovo."),
    "table.not-this-seat": ("That is not for {seat}.", "Non è per {seat}."),
    "table.computer-not-this": ("Not this one: the computer's move is on the shared screen.",
                                "Non questo: la mossa del computer è sullo schermo comune."),
})
# A table that could not start, on every screen that answers (pi_app.table.startup).
_TEXT.update({
    "startup.not-ready": ("TABLE NOT READY", "TAVOLO NON PRONTO"),
    "startup.retry": ("Trying again in {seconds} s", "Nuovo tentativo tra {seconds} s"),
})


def t(key: str, lang: str, **params: Any) -> str:
    pair = _TEXT[key]
    text = pair[LANGS.index(lang) if lang in LANGS else 0]
    return text.format(**params) if params else text


def pick(pair: tuple[str, str] | str, lang: str) -> str:
    """One language out of an (english, italian) pair; a plain str is both."""
    if isinstance(pair, str):
        return pair
    return pair[LANGS.index(lang) if lang in LANGS else 0]
