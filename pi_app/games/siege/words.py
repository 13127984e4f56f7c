"""Siege's words at the table, English and Italian: card and role names, the
short card codes a hand is shown with, where a unit lies on the table, and
the table's own refusals. Card names come from the game's data."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pi_app import names as naming
from pi_app.i18n import pick
from rules import catalogue
from rules.core import JSON
from rules.siege.data import CARDS

#: a hand is shown with these, so that eight cards fit the big print
SHORT: dict[str, tuple[str, str]] = {
    "knight": ("Kn", "Cav"), "swordsman": ("Sw", "Spa"), "archer": ("Ar", "Arc"),
    "catapult": ("Cat", "Cat"), "ballista": ("Bal", "Bal"), "battering_ram": ("Ram", "Ari"),
    "siege_tower": ("Twr", "Tor"), "supply_wagon": ("Wag", "Car"), "peasant": ("Pea", "Con"),
    "field_marshal": ("FM", "Mar"), "stonemason": ("Mas", "Cos"), "assassin": ("Asn", "Ass"),
    "traitor": ("Trt", "Tra"), "oil": ("Oil", "Oli"), "pitch": ("Pit", "Cat"),
    "lead": ("Lea", "Pio"), "castle_walls": ("Wal", "Mur"), "moat": ("Moat", "Fos"),
    "commander": ("Cmd", "Com"), "castle_keep": ("Keep", "Mas"),
}
ROW_NAMES: dict[str, tuple[str, str]] = {
    "r0": ("row 0", "fila 0"), "r1": ("row 1", "fila 1"), "r2": ("row 2", "fila 2"),
}
COMMAND_ROW = (("command row", "fila comando"), ("castle row", "fila castello"))
#: the public view's fields the spectator page shows ("rc0", "rc1": each
#: side's last row, as the adapter's page view names it)
VIEW_LABELS: dict[str, tuple[str, str]] = {
    "day": ("Day", "Giorno"),
    "sides": ("Sides", "Schieramenti"),
    "rows": ("Rows", "File"),
    **ROW_NAMES,
    "rc0": COMMAND_ROW[0],  # as the screens name it ("fila comando #1")
    "rc1": COMMAND_ROW[1],
    "hand_size": ("Cards in hand", "Carte in mano"),
    "deck_size": ("Cards in the deck", "Carte nel mazzo"),
    "event_deck_size": ("Cards in the event deck", "Carte nel mazzo Evento"),
    "discards": ("Discards", "Scarti"),
    "towers": ("Siege towers", "Torri d'assedio"),
    "events": ("Events in force", "Eventi in corso"),
    "card": ("Card", "Carta"),
    "seat": ("Played by", "Giocata da"),
    "turns_left": ("Turns left", "Turni rimasti"),
    "feeding_due": ("Troops to feed", "Truppe da nutrire"),
    "attack": ("Attack under way", "Attacco in corso"),
    "units": ("Attackers", "Attaccanti"),
    "target": ("Target", "Bersaglio"),
    "melee": ("Hand to hand", "Corpo a corpo"),
    "support": ("Support", "Supporto"),
    "losses": ("Losses to take", "Perdite da subire"),
    "count": ("Cards", "Carte"),
    "reason": ("Because of", "Causa"),
    "damage": ("Damage", "Danni"),
    "coming": ("Reinforcements on their way", "Rinforzi in arrivo"),
    "troop": ("Troop", "Truppa"),
    "arriving": ("Reinforcements arriving", "Rinforzi che entrano"),
    "row": ("Row", "Fila"),
    "played": ("Entered this turn", "Entrate in questo turno"),
    "used": ("Attacked this turn", "Hanno attaccato in questo turno"),
    "bonus": ("Bonus to the next attack", "Bonus al prossimo attacco"),
}
TYPES: dict[str, tuple[str, str]] = {
    "play": ("Play", "Gioca"), "discard": ("Discard", "Scarta"), "feed": ("Feed", "Nutri"),
    "lose": ("Lose", "Perdi"), "spear": ("Spear of Destiny", "Mano del Destino"),
    "attack": ("Attack with", "Attacca con"),
    "join": ("Join attack", "Unisci"), "target": ("Target", "Bersaglio"),
    "support": ("Support", "Supporto"), "move": ("Move", "Muovi"), "pass": ("Pass", "Passa"),
    "end_phase": ("End phase", "Fine fase"), "die": ("Die", "Dado"), "draw": ("Draw", "Pesca"),
}
#: Walls and Moat in one title line (they must be discarded after setup)
FORTIFICATION: dict[str, tuple[str, str]] = {"castle_walls": ("Walls", "Mura"), "moat": ("Moat", "Fossato")}
#: an Archer's attack: a shot, or hand to hand (the move's "melee")
MELEE: dict[bool, tuple[str, str]] = {False: ("shoots", "tira"), True: ("hand to hand", "corpo a corpo")}
SPEAR: dict[str, tuple[str, str]] = {
    "bonus": ("+1 next attack", "+1 prossimo attacco"),
    "archer": ("Peasant to Archer", "Contadino: Arciere"),
    "swordsman": ("Peasant to Swordsman", "Contadino: Uomo con Spada"),
}
REASONS: dict[str, tuple[str, str]] = {
    "commander_killed": ("the Commander is killed", "il Comandante è ucciso"),
    "keep_taken": ("the Keep is taken", "il Maschio è preso"),
    "siege_lifted": ("the siege is lifted", "l'assedio è tolto"),
}
LOSS_REASONS: dict[str, tuple[str, str]] = {
    "plague": ("Plague", "Piaga"), "floods": ("Floods", "Inondazione"), "starve": ("hunger", "fame"),
}
# The losses a player names since Famine and a lost melee ask which card
# goes (ruling: docs/rulings.md#siege-the-player-chooses).
LOSS_REASONS.update({
    "famine": ("Famine", "Carestia"), "melee": ("hand-to-hand combat", "il corpo a corpo"),
})
TYPES.update({"raze": ("Remove wall", "Togli muro"), "place": ("Place", "Metti")})
#: a phase named by a move type's word where that word is a verb with an object ("Attack with")
PHASES: dict[str, tuple[str, str]] = {"attack": ("Attack", "Attacco")}
#: events in force, as the shared screen names them (short)
EVENT_SHORT: dict[str, tuple[str, str]] = {
    "low_morale": ("Low Morale", "Morale a Terra"), "bad_weather": ("Bad Weather", "Cattivo Tempo"),
    "papal_injunction": ("Papal Injunction", "Intimazione del Papa"), "floods": ("Floods", "Inondazione"),
}
STEP: dict[str, tuple[str, str]] = {
    "setup": ("Setup: play or discard", "Preparazione: gioca o scarta"),
    "play": ("Play a card or end", "Gioca o termina"),
    "event": ("Spear of Destiny", "Mano del Destino"),
    "attack": ("Attack: pick a unit", "Attacco: scegli"),
    "aim": ("Join or pick a target", "Unisci o bersaglio"),
    "support": ("Attacked: support?", "Attaccato: supporto?"),
    "move": ("Move your troops", "Muovi le truppe"),
    "pour": ("Pour on row 0?", "Versa sulla fila 0?"),
}
# The Horn of Joshua's wall, named by the Attacker
# (ruling: docs/rulings.md#siege-the-player-chooses).
STEP.update({"horn": ("Horn: which wall goes?", "Corno: quale muro cade?")})

# The table's own refusals for Siege: a card the hand does not hold.
catalogue.register({
    "table.siege.not-in-hand": (
        "{card} is not in your hand: take a card only when you draw one.",
        "{card} non è nella tua mano: prendi una carta solo quando peschi.",
    ),
    "table.siege.sixth-card": (
        "{card} is not in your hand, which already holds {n} cards: no more. "
        "Take a card only when you draw one.",
        "{card} non è nella tua mano, che ha già {n} carte: non di più. "
        "Prendi una carta solo quando peschi.",
    ),
    "table.siege.feed-first": (
        "Feed your troops first: tap a {food}.",
        "Prima nutri le truppe: tocca un {food}.",
    ),
    "table.siege.lose-first": (
        "First choose the unit lost to {reason} in the menu.",
        "Prima scegli nel menu l'unità persa per {reason}.",
    ),
})


def role(seat: int | None, lang: str, names: Sequence[str] = ()) -> str:
    return naming.display_name("siege", seat, lang, names) if seat in (0, 1) else "-"


def card_name(card: str, lang: str) -> str:
    info = CARDS.get(card)
    if info is None:
        return card
    return info.name if lang == "en" else info.name_it


def short(card: str, lang: str) -> str:
    return pick(SHORT.get(card, (card_name(card, lang),) * 2), lang)


def hand_text(hand: list[str], lang: str) -> str:
    """A hand in whole card names ("Archer, Knight, Supply Wagon"): the
    screen pages what does not fit."""
    return ", ".join(card_name(c, lang) for c in hand)


def card_of(uid: str) -> str:
    return uid.rsplit("-", 1)[0]


def where(uid: str, view: JSON | None, lang: str) -> str:
    """Where a unit lies, as players find it: its row and place from the
    left ("row 1, 2nd"); soldiers in a tower are "in tower"."""
    if view is None:
        return ""
    for side, data in enumerate(view["sides"]):
        for row, units in data["rows"].items():
            if uid in units:
                name = pick(ROW_NAMES.get(row, COMMAND_ROW[side]), lang)
                return f"{name} #{units.index(uid) + 1}"
    for inside in view.get("towers", {}).values():
        if uid in inside:
            return "in tower" if lang == "en" else "nella torre"
    return ""


def side_of(uid: str, view: JSON | None) -> int | None:
    """The seat whose side of the table ``uid`` lies on (a tower's soldiers: the Attacker's)."""
    if view is None:
        return None
    for side, data in enumerate(view["sides"]):
        if any(uid in units for units in data["rows"].values()):
            return side
    return 0 if any(uid in inside for inside in view.get("towers", {}).values()) else None


def whose(seat: int, lang: str, names: Sequence[str] = ()) -> str:
    """A side as an owner, by the name the players gave it: "the Attacker's",
    "Anna's"; "dell'Attaccante", "del Difensore", "di Anna"."""
    return naming.owner("siege", seat, lang, names)


def unit(uid: str, views: list[JSON | None], lang: str, names: Sequence[str] | None = None) -> str:
    """A unit id in words: "Knight (row 1 #2)", from the first view holding
    it; with ``names`` (the players' names) also whose it is: "the
    Defender's Knight (row 1 #2)", "Cavaliere del Difensore (fila 1 #2)"."""
    name = card_name(card_of(uid), lang)
    for view in views:
        place = where(uid, view, lang)
        if place:
            seat = side_of(uid, view) if names is not None else None
            if seat is not None:
                owner = whose(seat, lang, names or ())
                name = f"{owner} {name}" if lang == "en" else f"{name} {owner}"
            return f"{name} ({place})"
    return name


def slot(row: str, at: int, lang: str, into: bool = False) -> str:
    """The place a card takes in a row, counted from the left: "row 2 #3"
    ("to row 2 #3" with ``into``)."""
    text = f"{pick(ROW_NAMES[row], lang)} #{at + 1}"
    return f"{'to' if lang == 'en' else 'in'} {text}" if into else text


def loss_reason(reason: Any, lang: str) -> str:
    return pick(LOSS_REASONS.get(str(reason), (str(reason),) * 2), lang)
