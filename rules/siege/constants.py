"""Siege's fixed numbers from the rulebook, seats, rows and the Italian
section names quoted as ``IllegalMove.rule``. Card lists and tables are data
(``data/``), not here."""

from __future__ import annotations

GAME_ID = "siege"
ATTACKER, DEFENDER = 0, 1
SIDES = ("attacker", "defender")

#: rows of each side: r0 the moat line, r1 the front row (the defender's
#: walls), r2 the row every played card enters, rc the command / castle row.
ROWS = ("r0", "r1", "r2", "rc")

HAND_LIMIT = 5  # "mai avere in mano più di 5 carte"
SETUP_DRAW = 8  # "Ogni giocatore pesca 8 carte"
SETUP_ACTIONS = 3  # "giocate o scartate 3 carte"
ROW1_LIMIT = 4  # Fila 1: "solo 4 carte"
ROW1_LIMIT_MARSHAL = 5  # "a meno che non sia presente la carta Field Marshal"
GROUP_LIMIT = 3  # "3 è il limite di raggruppamento"
SUPPLY_LIMIT = 2  # "non più di due carte Supply Wagon o Peasant in gioco"
DIE_FACES = 6

SUPPLY = ("supply_wagon", "peasant")  # by seat: each side's food card
LEADER = ("commander", "castle_keep")  # by seat: what loses the game
POUR_CARDS = ("oil", "pitch", "lead")

# Rulebook sections, quoted as the rule a refused move breaks.
R_SETUP = "Preparazione della Partita"
R_TURN = "Sequenza dei Turni"
R_EVENT_PHASE = "Fase degli Eventi"
R_FEED = "Fase di Mantenimento delle Truppe"
R_PLAY = "Fase di Gioco della Carta"
R_ATTACK = "Fase di Attacco"
R_MOVE = "Fase del Movimento"
R_RANGED = "Combattimento a Distanza"
R_MELEE = "Combattimento Corpo-a-Corpo"
R_GROUP = "Truppe unite"
R_SUPPORT = "Azione di Supporto"
R_HAND = "Note, Suggerimenti e Strategie"
R_ROWS = "Schieramento delle Carte"
R_CARDS = "Le Carte"
R_EVENTS = "Il Mazzo delle Carte Evento"
