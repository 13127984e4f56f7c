"""Every refusal Mordred can give, in English and Italian."""

from __future__ import annotations

from rules import catalogue

# Rulebook sections (Italian), named in each IllegalMove.
RULE_TURN = "Iniziare a Giocare"
RULE_DECLARE = "1 Dichiarare una Riga e Lanciare i due Dadi"
RULE_PLACE = "3 Piazzare gli Uomini di Mordred"
RULE_SPEND = "4 Spendere i Propri Soldi"

MESSAGES: dict[str, tuple[str, str]] = {
    "mordred.move.foreign": (
        "That is not a Mordred move ({kind}).",
        "Questa non è una mossa di Mordred ({kind}).",
    ),
    "mordred.chance.pending": (
        "Roll first: the {expected} must be rolled before anything else.",
        "Prima tirate: serve il lancio ({expected}) prima di ogni altra cosa.",
    ),
    "mordred.chance.wrong_kind": (
        "Now the {expected} is due, not that roll.",
        "Ora serve il lancio ({expected}), non quello.",
    ),
    "mordred.chance.not_due": (
        "No dice are due now; to move: {player}.",
        "Ora non si tirano dadi; di turno: {player}.",
    ),
    "mordred.roll.bad_value": (
        "Dice show 1 to 6, not {dice}.",
        "I dadi vanno da 1 a 6, non {dice}.",
    ),
    "mordred.die.bad_value": (
        "A die shows 1 to 6, not {value}.",
        "Un dado va da 1 a 6, non {value}.",
    ),
    "mordred.turn.declare_first": (
        "Declare a row (A, B or C) before anything else this turn.",
        "Dichiarate una riga (A, B o C) prima di ogni altra cosa in questo turno.",
    ),
    "mordred.declare.bad_row": (
        "There is no row {row}: declare A, B or C.",
        "Non esiste la riga {row}: dichiarate A, B o C.",
    ),
    "mordred.declare.already": (
        "The row is declared once, before the roll.",
        "La riga si dichiara una volta sola, prima del lancio.",
    ),
    "mordred.place.men_first": (
        "First place the Mordred men you took ({count} left), then spend.",
        "Prima piazza gli uomini di Mordred che hai preso (ne restano {count}), poi spendi.",
    ),
    "mordred.place.none_left": (
        "You have no Mordred men left to place.",
        "Non hai più uomini di Mordred da piazzare.",
    ),
    "mordred.place.unknown_space": (
        "There is no space called {space} on the map.",
        "Sulla mappa non c'è uno spazio chiamato {space}.",
    ),
    "mordred.place.occupied": (
        "{space} already holds a Mordred man: one man per space.",
        "{space} contiene già un uomo di Mordred: un solo uomo per spazio.",
    ),
    "mordred.place.not_adjacent": (
        "{space} is not joined by a road to a space with a Mordred man.",
        "{space} non è collegato da una strada a uno spazio con un uomo di Mordred.",
    ),
    "mordred.place.own_piece": (
        "Mordred's men may attack other players' pieces, not yours ({space}).",
        "Gli uomini di Mordred possono attaccare i pezzi degli altri giocatori, non i tuoi ({space}).",
    ),
    "mordred.build.unknown_space": (
        "There is no space called {space} on the map.",
        "Sulla mappa non c'è uno spazio chiamato {space}.",
    ),
    "mordred.build.unknown_building": (
        "There is no building called {building}.",
        "Non esiste un edificio chiamato {building}.",
    ),
    "mordred.build.mordred_there": (
        "A Mordred man stands on {space}: drive him out first.",
        "Su {space} c'è un uomo di Mordred: prima scacciatelo.",
    ),
    "mordred.build.occupied": (
        "{space} already holds another player's piece.",
        "{space} contiene già il pezzo di un altro giocatore.",
    ),
    "mordred.build.same_piece": (
        "Your {building} already stands on {space}.",
        "Su {space} c'è già il tuo {building}.",
    ),
    "mordred.build.terrain": (
        "A {building} cannot be built on {terrain} ({space}).",
        "Non si può costruire {building} in {terrain} ({space}).",
    ),
    "mordred.build.none_left": (
        "You have no {building} left to build.",
        "Non ti resta nessun {building} da costruire.",
    ),
    "mordred.build.first_on_border": (
        "The first building of the game goes on a black-framed space, not {space}.",
        "Il primo edificio della partita va in uno spazio con la cornice nera, non in {space}.",
    ),
    "mordred.build.not_reachable": (
        "{space} is neither black-framed nor next to any player's piece.",
        "{space} non ha la cornice nera e non è adiacente al pezzo di nessun giocatore.",
    ),
    "mordred.build.cannot_afford": (
        "A {building} on {space} costs £{cost}; you have £{money}.",
        "{building} su {space} costa {cost}£; hai {money}£.",
    ),
    "mordred.attack.unknown_space": (
        "There is no space called {space} on the map.",
        "Sulla mappa non c'è uno spazio chiamato {space}.",
    ),
    "mordred.attack.not_your_piece": (
        "You have no piece on {space} to attack from.",
        "Non hai un pezzo su {space} da cui attaccare.",
    ),
    "mordred.attack.no_man": (
        "There is no Mordred man on {space}.",
        "Su {space} non c'è un uomo di Mordred.",
    ),
    "mordred.attack.not_adjacent": (
        "{space} is not next to your piece on {origin}.",
        "{space} non è adiacente al tuo pezzo su {origin}.",
    ),
    "mordred.attack.cannot_afford": (
        "An attack costs £{cost}; you have £{money}.",
        "Un attacco costa {cost}£; hai {money}£.",
    ),
}

#: the ids a sentence's params hold, in each language (the rulebook's names)
WORDS: dict[str, tuple[str, str]] = {
    "village": ("Village", "Villaggio"), "town": ("Town", "Città"),
    "small_castle": ("Small Castle", "Castello Piccolo"), "large_castle": ("Large Castle", "Castello Grande"),
    "hills": ("hills", "collina"), "forest": ("forest", "foresta"),
}

catalogue.register(MESSAGES, words=WORDS)
