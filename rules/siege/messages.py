"""Every code Siege refuses a move with, in English and Italian."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "siege.phase.wrong": (
        "You cannot {move} now; you can: {expected}.",
        "Ora non puoi {move}; puoi: {expected}.",
    ),
    "siege.move.not-now": ("That move is not possible now.", "Questa mossa non è possibile ora."),
    "siege.die.value": ("A die shows 1 to 6, not {value}.", "Un dado mostra da 1 a 6, non {value}."),
    "siege.draw.not-in-deck": (
        "There is no {card} left in that deck.",
        "In quel mazzo non c'è più nessuna carta {card}.",
    ),
    "siege.hand.missing": (
        "There is no {card} in that hand: choose a card it holds.",
        "Nella mano non c'è nessuna carta {card}: scegli una carta che contiene.",
    ),
    "siege.hand.full": (
        "A hand holds at most {limit} cards: play or discard one.",
        "In mano non si possono avere più di {limit} carte: giocane o scartane una.",
    ),
    "siege.play.setup-defender": (
        "At setup the Defender may only play Castle Walls and Moat.",
        "Durante la preparazione il difensore può giocare solo Mura del Castello e Fossato.",
    ),
    "siege.play.setup-only": (
        "{card} can only be played at setup: discard it.",
        "{card} si può giocare solo durante la preparazione: va scartata.",
    ),
    "siege.play.discard-first": (
        "{card} cannot be played after setup and must be discarded: discard it now, as this turn's card.",
        "{card} non si può giocare dopo la preparazione e va scartata: scartala ora, come carta del turno.",
    ),
    "siege.play.moat-present": ("There is already a Moat.", "C'è già un Fossato."),
    "siege.play.supply-limit": (
        "At most {limit} food cards may be on the table.",
        "Sul tavolo non possono esserci più di {limit} carte di cibo.",
    ),
    "siege.play.not-playable": ("{card} cannot be played.", "La carta {card} non si può giocare."),
    "siege.play.unexpected-target": ("{card} takes no target.", "La carta {card} non ha bersaglio."),
    "siege.play.no-target": ("{card} needs a target.", "La carta {card} richiede un bersaglio."),
    "siege.play.bad-target": (
        "{target} is not a target for {card}.",
        "{target} non è un bersaglio valido per la carta {card}.",
    ),
    "siege.play.no-grain": (
        "There is no food card in your discards.",
        "Non c'è nessuna carta di cibo tra i tuoi scarti.",
    ),
    "siege.pour.not-row0": (
        "Oil, Pitch and Lead strike only cards in row 0, not {target}.",
        "Olio, Catrame e Piombo colpiscono solo le carte nella Fila 0, non {target}.",
    ),
    "siege.pour.only-pour": (
        "Only Oil, Pitch or Lead may be played now.",
        "Ora si possono giocare solo Olio, Catrame o Piombo.",
    ),
    "siege.feed.not-food": ("{card} is not food.", "{card} non è una carta di cibo."),
    "siege.lose.bad-unit": (
        "{unit} cannot be lost to {reason}.",
        "{unit} non può essere perso per {reason}.",
    ),
    "siege.lose.hand-not-allowed": (
        "Only Floods let you give up a food card from the hand.",
        "Solo l'Inondazione permette di scartare una carta di cibo dalla mano.",
    ),
    "siege.spear.bad-choice": (
        "Spear of Destiny: choose bonus, archer or swordsman, not {choice}.",
        "Mano del Destino: scegli bonus, arciere o uomo con spada, non {choice}.",
    ),
    "siege.spear.no-peasant": (
        "There is no Peasant on the table to convert.",
        "Sul tavolo non c'è nessun Contadino da convertire.",
    ),
    "siege.unit.unknown": (
        "There is no card {unit} on the table.",
        "Sul tavolo non c'è nessuna carta {unit}.",
    ),
    "siege.attack.not-yours": ("{unit} is not yours.", "{unit} non è tua."),
    "siege.attack.used": (
        "{unit} has already attacked this turn.",
        "{unit} ha già attaccato in questo turno.",
    ),
    "siege.attack.cannot": ("{unit} cannot attack.", "{unit} non può attaccare."),
    "siege.attack.walls": (
        "Melee only once no section of the walls is left.",
        "Il corpo-a-corpo è possibile solo quando non resta nessuna sezione di muro.",
    ),
    "siege.attack.moat": (
        "The Moat holds the troops back until it is filled.",
        "Il Fossato tiene a bada le truppe fino a che non viene chiuso.",
    ),
    "siege.attack.tower-delay": (
        "Soldiers in a Siege Tower wait a day more while the Moat is there.",
        "Con il Fossato i soldati nella Torre d'Assedio devono attendere un giorno.",
    ),
    "siege.attack.sally-blocked": (
        "No sally while a Battering Ram stands at the walls.",
        "Nessuna sortita finché un Ariete è vicino alle mura.",
    ),
    "siege.attack.not-front": (
        "{unit} is not where it can fight.",
        "{unit} non si trova in una posizione da cui combattere.",
    ),
    "siege.attack.ram-not-row0": (
        "A Battering Ram attacks only from row 0.",
        "L'Ariete attacca solo dalla Fila 0.",
    ),
    "siege.attack.melee-not-archer": (
        "Only an Archer chooses between shooting and hand to hand: attack with {unit} without choosing.",
        "Solo un Arciere sceglie tra tiro e corpo a corpo: attacca con {unit} senza scegliere.",
    ),
    "siege.attack.no-target": ("{unit} has nothing to attack.", "{unit} non ha nulla da attaccare."),
    "siege.attack.group-full": (
        "At most {limit} troops group together.",
        "Si possono unire al massimo {limit} truppe.",
    ),
    "siege.attack.machine-group": ("War machines never group.", "Le Macchine da Guerra non possono unirsi."),
    "siege.attack.group-mixed": (
        "Only troops of the same kind group: {unit} is not a {card}.",
        "Si uniscono solo truppe dello stesso tipo: {unit} non è {card}.",
    ),
    "siege.attack.no-common-target": (
        "{unit} cannot reach what the group can attack.",
        "{unit} non può raggiungere ciò che il gruppo può attaccare.",
    ),
    "siege.attack.own-unit": ("{target} is your own card.", "{target} è una tua carta."),
    "siege.attack.machine-leader": (
        "A war machine never kills the Commander nor takes the Keep.",
        "Una Macchina da Guerra non può mai uccidere il Comandante o prendere il Maschio del Castello.",
    ),
    "siege.attack.leader-protected": (
        "{target} is still protected.",
        "{target} è ancora protetto.",
    ),
    "siege.attack.ram-cover": (
        "A Battering Ram is hit from afar only by Catapults, and only in row 0.",
        "Un Ariete può essere colpito a distanza solo dalle Catapulte, e solo nella Fila 0.",
    ),
    "siege.attack.out-of-range": (
        "{unit} cannot reach {target} (N/A in the table).",
        "{unit} non può raggiungere {target} (N/A nella tabella).",
    ),
    "siege.attack.bad-target": ("{target} cannot be attacked now.", "{target} non può essere attaccato ora."),
    "siege.support.not-adjacent": (
        "{unit} is not next to the card under attack.",
        "{unit} non è adiacente alla carta attaccata.",
    ),
    "siege.support.not-troop": (
        "Only a troop (not a war machine) may support.",
        "Solo una truppa (non una Macchina da Guerra) può difendere.",
    ),
    "siege.move.forbidden": (
        "No movement this turn (Floods).",
        "Nessun movimento in questo turno (Inondazione).",
    ),
    "siege.move.row-full": (
        "Row 1 holds at most {limit} cards.",
        "La Fila 1 può contenere al massimo {limit} carte.",
    ),
    "siege.move.not-played": (
        "Only troops played this turn move into row 1.",
        "Nella Fila 1 si spostano solo le truppe giocate in questo turno.",
    ),
    "siege.move.not-machine": (
        "Only a Battering Ram or a Siege Tower moves into row 0.",
        "Nella Fila 0 si spostano solo l'Ariete e la Torre d'Assedio.",
    ),
    "siege.move.moat": (
        "A Battering Ram cannot reach the walls across the Moat.",
        "L'Ariete non può raggiungere le mura finché c'è il Fossato.",
    ),
    "siege.move.mounted": (
        "Mounted troops cannot use a Siege Tower.",
        "Le truppe a cavallo non possono usare la Torre d'Assedio.",
    ),
    "siege.move.tower-full": ("That Siege Tower is full.", "Quella Torre d'Assedio è piena."),
    "siege.move.not-row1": (
        "{unit} must stand in row 1 to move there.",
        "{unit} deve trovarsi nella Fila 1 per spostarsi lì.",
    ),
    "siege.move.bad": ("{unit} cannot move to {to}.", "{unit} non può spostarsi in {to}."),
}

# The choices a card or a loss leaves to a player
# (docs/rulings.md#siege-the-player-chooses).
MESSAGES.update({
    "siege.spear.name-peasant": (
        "Spear of Destiny: name the Peasant on your table that converts, not {unit}.",
        "Mano del Destino: indica il Contadino sul tuo tavolo da convertire, non {unit}.",
    ),
    "siege.spear.unexpected-unit": (
        "Spear of Destiny: the +1 names no card.",
        "Mano del Destino: il +1 non indica nessuna carta.",
    ),
    "siege.horn.not-wall": (
        "Horn of Joshua: {unit} is not a Castle Walls section on the table; name one that is.",
        "Corno di Joshua: {unit} non è una sezione delle Mura del Castello sul tavolo; indicane una.",
    ),
})

# Where in a row a card goes is its player's to say
# (docs/rulings.md#siege-place-in-the-row).
MESSAGES.update({
    "siege.row.name-slot": (
        "Say where in row {row} the card goes: a place from 0 (leftmost) to {most} (rightmost).",
        "Indica dove va la carta nella fila {row}: un posto da 0 (a sinistra) a {most} (a destra).",
    ),
    "siege.row.bad-slot": (
        "Row {row} has places 0 to {most}, not {at}.",
        "La fila {row} ha i posti da 0 a {most}, non {at}.",
    ),
    "siege.row.unexpected-slot": (
        "Only a troop or war machine entering row 1 or row 2 takes a place in the row.",
        "Solo una truppa o una Macchina da Guerra che entra nella fila 1 o 2 prende un posto nella fila.",
    ),
})


def words() -> dict[str, tuple[str, str]]:
    """The ids a sentence's params hold, in each language: every card by its
    name (a unit on the table, "archer-3", too), the moves as what a player
    does, and what a unit is lost to."""
    from rules.siege.data import CARDS

    out = {cid: (card.name, card.name_it) for cid, card in CARDS.items()}
    out.update({
        "die": ("enter the die", "inserire il dado"), "draw": ("draw", "pescare"),
        "play": ("play a card", "giocare una carta"), "discard": ("discard", "scartare"),
        "feed": ("feed the troops", "nutrire le truppe"),
        "lose": ("choose a unit lost", "scegliere l'unità persa"),
        "spear": ("choose for the Spear", "scegliere per la Mano del Destino"),
        "place": ("place a unit", "piazzare un'unità"), "raze": ("raze", "radere al suolo"),
        "attack": ("attack", "attaccare"), "join": ("join the attack", "unirti all'attacco"),
        "target": ("choose a target", "scegliere un bersaglio"), "support": ("support", "sostenere"),
        "move": ("move", "spostare"), "pass": ("pass", "passare"),
        "end_phase": ("end the phase", "finire la fase"), "grain": ("Grain", "Grano"),
        "melee": ("hand-to-hand combat", "il corpo a corpo"), "starve": ("starvation", "la fame"),
    })
    return out
