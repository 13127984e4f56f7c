"""The spectator page's own words, in the table's two languages (the games'
words come from their adapters, as on the table's screens)."""

from __future__ import annotations

from typing import Any

from pi_app.i18n import pick

_TEXT: dict[str, tuple[str, str]] = {
    "title": ("Tablekeeper", "Tablekeeper"),
    "tonight": ("Tonight", "Stasera"),
    "game-n": ("game {n}", "partita {n}"),
    "players": ("{n} players", "{n} giocatori"),
    "turn-of": ("Turn: {seat}", "Turno: {seat}"),
    "chance-turn": ("The table draws or rolls", "Il tavolo pesca o tira i dadi"),
    "game-over": ("Game over", "Partita finita"),
    "abandoned": ("Abandoned: another game was started", "Abbandonata: è iniziata un'altra partita"),
    "in-progress": ("in progress", "in corso"),
    "finished": ("finished", "finita"),
    "told": ("The table was told", "Al tavolo è stato detto"),
    "nothing-told": ("Nothing yet: the game has just begun.", "Ancora niente: la partita è appena iniziata."),
    "scores": ("Scores", "Punteggi"),
    "no-running-score": ("This game keeps no score during play: it is decided at the end.",
                         "Questo gioco non tiene un punteggio durante la partita: si decide alla fine."),
    "board": ("The table", "Il tavolo"),
    "seats": ("Players", "Giocatori"),
    "player": ("Player", "Giocatore"),
    "moves": ("Moves so far", "Mosse finora"),
    "no-moves": ("No move yet.", "Nessuna mossa ancora."),
    "chance": ("The table", "Il tavolo"),  # who draws and rolls, as the transcript says
    "drew-secret": ("{seat} drew a card (hidden until the game is over)",
                    "{seat} ha pescato una carta (nascosta fino alla fine della partita)"),
    "chose-secret": ("{seat} made a secret choice (hidden until the game is over)",
                     "{seat} ha fatto una scelta segreta (nascosta fino alla fine della partita)"),
    "report": ("Report of this game", "Resoconto di questa partita"),
    "night-report": ("Report of the night", "Resoconto della serata"),
    "download": ("Download the game's log (JSONL, as `tablekeeper journal export` writes it)",
                 "Scarica il registro della partita (JSONL, come lo scrive `tablekeeper journal export`)"),
    "games-tonight": ("Games tonight", "Partite di stasera"),
    "earlier": ("Earlier nights", "Serate precedenti"),
    "table-rule": ("Playing at the table (whose turn, which pad, which piece)",
                   "Il gioco al tavolo (di chi è il turno, quale lettore, quale pezzo)"),
    "more-games": ("{n} more earlier games", "Altre {n} partite precedenti"),
    "no-games": ("No game in the journal yet: the page will show one as soon as it starts.",
                 "Ancora nessuna partita nel registro: la pagina la mostrerà appena inizia."),
    "no-journal": ("No journal yet at the table: it is written when the first game starts.",
                   "Il tavolo non ha ancora un registro: viene scritto quando inizia la prima partita."),
    "problem": ("The journal cannot be read right now: {fault}. The page shows what it read before and "
                "tries again every second.",
                "Il registro non si può leggere ora: {fault}. La pagina mostra quanto letto prima e "
                "riprova ogni secondo."),
    "busy": ("the table's journal is locked by a write in progress",
             "il registro del tavolo è bloccato da una scrittura in corso"),
    "game-problem": ("This game cannot be replayed from the journal: {fault}.",
                     "Questa partita non si può ripercorrere dal registro: {fault}."),
    "live-note": ("The page follows the game by itself.", "La pagina segue la partita da sola."),
    "plot-title": ("{score} over the game", "{score} nel corso della partita"),
    "move-axis": ("move", "mossa"),
    "times": ("Time per turn", "Tempo per turno"),
    "times-head": ("player|turns|average|longest|total", "giocatore|turni|media|il più lungo|totale"),
    "no-times": ("No turn timed yet.", "Nessun turno cronometrato ancora."),
    "refusals": ("Refused moves by rule", "Mosse rifiutate per regola"),
    "refusals-head": ("rule|refused", "regola|rifiutate"),
    "most-broken": ("The rule broken most: {rule} ({n} times)",
                    "La regola infranta più spesso: {rule} ({n} volte)"),
    "no-refusals": ("No move was refused.", "Nessuna mossa rifiutata."),
    "refusals-not-kept": ("This journal was written before the table kept its refusals, so they cannot be "
                          "counted here.",
                          "Questo registro è stato scritto prima che il tavolo conservasse i rifiuti: "
                          "qui non si possono contare."),
    "refusals-later": ("The refused moves are shown once the game is over.",
                       "Le mosse rifiutate si vedono a partita finita."),
    "refusals-some": ("Counted over the {n} games that are over.", "Contate sulle {n} partite finite."),
    "outcome": ("Outcome", "Esito"),
    "night-head": ("game|players|moves|time|result", "partita|giocatori|mosse|tempo|esito"),
    "night-total": ("{games} games, {moves} moves, {time} of play.",
                    "{games} partite, {moves} mosse, {time} di gioco."),
    "not-found": ("There is no such page here.", "Questa pagina non esiste."),
    "no-game": ("The journal holds no game {n}.", "Il registro non contiene la partita {n}."),
    "back-home": ("The game in progress is at /.", "La partita in corso è in /."),
    "seconds": ("{s} s", "{s} s"),
    "minutes": ("{m} min {s:02d} s", "{m} min {s:02d} s"),
    "hours": ("{h} h {m:02d} min", "{h} h {m:02d} min"),
    "yes": ("yes", "sì"),
    "no": ("no", "no"),
    "address": ("Follow the game at {url}", "Segui la partita su {url}"),
}


def w(key: str, lang: str, **params: Any) -> str:
    return pick(_TEXT[key], lang).format(**params)


def duration(seconds: float, lang: str) -> str:
    if seconds < 10:  # a quick turn (or a simulated one) still shows
        tenths = f"{max(0.0, seconds):.1f}"
        return w("seconds", lang, s=tenths if lang == "en" else tenths.replace(".", ","))  # 3,7 s
    s = round(seconds)
    if s < 60:
        return w("seconds", lang, s=s)
    if s < 3600:
        return w("minutes", lang, m=s // 60, s=s % 60)
    return w("hours", lang, h=s // 3600, m=s % 3600 // 60)
