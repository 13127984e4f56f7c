"""What the shared screen tells the Siege table after a move: the public
events in short sentences (a drawn card into a hand is only counted), at
most two lines, so the events in force and the day still show below them.
When there is more to say, a player's echo of what they did themselves
(played, discarded, fed, declared an attack) gives way to the news."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from pi_app.games.siege import words as w
from pi_app.i18n import pick
from rules.core import JSON, Event
from rules.siege.data import CARDS

#: where a played card goes, by its kind
ROW_OF_KIND = {"troop": "r2", "war_machine": "r2", "supply": "rc", "modifier": "rc"}
MOST_LINES = 2


#: events that only echo what the acting player did with their own hands
ECHO = ("played", "discarded", "fed", "attack", "moved")


def said(events: Sequence[Event], views: list[JSON | None], lang: str,
         names: Sequence[str] = ()) -> list[tuple[str, str]]:
    """(event type, sentence) pairs. ``views``: the public view after the
    moves, then before (a destroyed unit is found where it was); ``names``:
    the players' names given at the lobby."""
    en = lang == "en"
    pairs: list[tuple[str, str]] = []
    draws: Counter[int] = Counter()
    for ev in events:
        if ev.audience is not None:
            continue
        out: list[str] = []
        p = dict(ev.params)
        who = w.role(p.get("seat"), lang, names)
        kind = ev.type
        if kind == "turn":
            out.append(f"Day {p['day']}: {who}" if en else f"Giorno {p['day']}: {who}")
        elif kind == "drew":
            draws[p["seat"]] += 1
        elif kind == "event_drawn":
            card = w.card_name(p["card"], lang)
            out.append(f"{who} event: {card}" if en else f"Evento {who}: {card}")
        elif kind == "die" and p.get("for") == "die":
            out.append(f"Event die {p['value']}" if en else f"Dado evento {p['value']}")
        elif kind == "played" and p["card"] == "traitor" and p.get("target") not in (None, "grain"):
            # Not an echo: a card changes hands at the table, so it is news.
            kind = "taken"
            aim = w.unit(p["target"], views[::-1], lang)
            other = w.role(1 - p["seat"], lang, names) if p.get("seat") in (0, 1) else "-"
            place = w.where(p["target"], views[0], lang)
            out.append(f"Traitor: {other}, give {aim} to {who}, {place}" if en
                       else f"Traditore: {other}, dai {aim} a {who}, {place}")
        elif kind == "played":
            out.append(_played(p, views, lang, names))
        elif kind == "discarded":
            card = w.card_name(p["card"], lang)
            out.append(f"{who} discards {card}" if en else f"{who} scarta {card}")
        elif kind == "fed":
            out.append(f"{who} feeds the troops" if en else f"{who} nutre le truppe")
        elif kind == "starving":
            out.append(f"{who} has no food: lose a unit" if en else f"{who} senza cibo: perdi un'unità")
        elif kind == "destroyed":
            lost = w.unit(p["unit"], views[::-1], lang, names)  # whose: either side loses units
            out.append(f"Remove {lost}" if en else f"Togli {lost}")
        elif kind == "attack":
            units = ", ".join(w.unit(u, views[::-1], lang) for u in p["units"])
            target = w.unit(p["target"], views[::-1], lang, names)
            out.append(f"{units} attacks {target}" if en else f"{units} attacca {target}")
        elif kind == "shot":
            mod = f"{p['modifier']:+d}" if p["modifier"] else ""
            hit = ("hit" if en else "colpito") if p["hit"] else ("miss" if en else "mancato")
            out.append(f"Roll {p['roll']}{mod}, need {p['need']}: {hit}" if en
                       else f"Dado {p['roll']}{mod}, serve {p['need']}: {hit}")
        elif kind == "melee":
            out.append(f"Hand to hand: attack {p['attack']} against defence {p['defence']}" if en
                       else f"Corpo a corpo: attacco {p['attack']} contro difesa {p['defence']}")
        elif kind == "moved":
            unit = w.unit(p["unit"], views[1:], lang)
            to = (w.where(p["unit"], views[0], lang) or pick(w.ROW_NAMES[p["to"]], lang)
                  if p["to"] in w.ROW_NAMES else w.unit(p["to"], views, lang))
            out.append(f"Move {unit} to {to}" if en else f"Sposta {unit} in {to}")
        elif kind == "arrived":
            card = w.card_name(w.card_of(p["unit"]), lang)
            place = w.where(p["unit"], views[0], lang) or pick(w.ROW_NAMES["r2"], lang)
            out.append(f"{card} arrives in {place}" if en else f"{card} arriva in {place}")
        elif kind == "converted":
            card = w.card_name(w.card_of(p["to"]), lang)
            place = w.where(p["to"], views[0], lang)
            out.append(f"A Peasant becomes {card}, {place}" if en
                       else f"Un Contadino diventa {card}, {place}")
        elif kind == "game_over":
            reason = pick(w.REASONS.get(p.get("reason", ""), (str(p.get("reason")),) * 2), lang)
            out.append(f"Game over: {reason}" if en else f"Fine partita: {reason}")
        pairs.extend((kind, text) for text in out)
    for seat, n in draws.items():
        who = w.role(seat, lang, names)
        if n == 1:
            pairs.append(("drew", f"{who} draws a card" if en else f"{who} pesca una carta"))
        else:
            pairs.append(("drew", f"{who} draws {n} cards" if en else f"{who} pesca {n} carte"))
    return pairs


def at_most_two(said: list[tuple[str, str]]) -> list[str]:
    """The last line stays the big one; echoes give way, the die gives way
    to the card it drew, the day to a feeding reminder; the rest is joined."""
    kinds = {kind for kind, _ in said}
    drop = set()
    if len(said) > MOST_LINES:
        drop.update(ECHO)
    if kinds & {"drew", "event_drawn"}:
        drop.add("die")
    if "feed" in kinds:
        drop.add("turn")
    kept = [text for kind, text in said[:-1] if kind not in drop] + [text for _, text in said[-1:]]
    if len(kept) > MOST_LINES:
        return ["; ".join(kept[:-1]), kept[-1]]
    return kept


def _played(p: dict, views: list[JSON | None], lang: str, names: Sequence[str] = ()) -> str:
    en = lang == "en"
    who = w.role(p.get("seat"), lang, names)
    card = p["card"]
    name = w.card_name(card, lang)
    target = p.get("target")
    if target == "grain":
        return f"{who}: Traitor takes back food" if en else f"{who}: Traditore riprende cibo"
    if target:
        aim = w.unit(target, views[::-1], lang, names)
        return f"{who}: {name} on {aim}" if en else f"{who}: {name} su {aim}"
    info = CARDS.get(card)
    kind = info.kind if info else ""
    row = ROW_OF_KIND.get(kind) or ("r0" if card == "moat" else "r1" if kind == "fortification" else "")
    if not row:
        return f"{who} plays {name}" if en else f"{who} gioca {name}"
    seat = p.get("seat")
    place = (pick(w.ROW_NAMES[row], lang) if row in w.ROW_NAMES
             else pick(w.COMMAND_ROW[seat if seat in (0, 1) else 0], lang))
    if row == "r2" and p.get("unit"):  # the place the player named, as the table must lay it
        place = w.where(p["unit"], views[0], lang) or place
    return f"{who}: {name} to {place}" if en else f"{who}: {name} in {place}"
