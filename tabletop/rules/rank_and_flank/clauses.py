"""Stable names for the clauses of rank-and-flank-combat.txt (the text has no numbers).

Each name is ``"rank-and-flank-combat.txt <Heading>"`` or, for one bullet or
row under a heading, ``"rank-and-flank-combat.txt <Heading>/<Bullet>"``.
Events and docstrings cite these.
"""

TEXT = "rank-and-flank-combat.txt"

ENGAGEMENTS = f"{TEXT} Engagements"
WHO_ATTACKS = f"{TEXT} Who attacks"
FRONT = f"{WHO_ATTACKS}/Front"
FLANK = f"{WHO_ATTACKS}/Flank"
REAR = f"{WHO_ATTACKS}/Rear"
ONCE_AND_CORNERS = f"{WHO_ATTACKS}/Once per round, corners"
SPEAR_AND_SHIELD = f"{WHO_ATTACKS}/Spear and Shield"
ZERO_ATTACKS = f"{WHO_ATTACKS}/0 Attacks"
LANCE = f"{WHO_ATTACKS}/Lance Cavalry"
SIMULTANEOUS = f"{ENGAGEMENTS}/Attack"
LOCKED = f"{ENGAGEMENTS}/Locked in combat"
ATTACK_ROLL = f"{TEXT} Attack roll"
DAMAGE_SAVE = f"{TEXT} Damage save"
HALBERD = f"{DAMAGE_SAVE}/Halberd"
POISONED = f"{DAMAGE_SAVE}/Poisoned Attacks"
LETHAL = f"{DAMAGE_SAVE}/Lethal Strikes"
WOUNDS = f"{DAMAGE_SAVE}/Wounds pooled"
COMMANDERS = f"{TEXT} Commanders in combat"
DUEL = f"{COMMANDERS}/Duel"
CARRY_OVER = f"{COMMANDERS}/Carry over"
MOUNTED = f"{COMMANDERS}/Monster or chariot"
COMBAT_SCORE = f"{TEXT} Combat score"
DISRUPTED = f"{COMBAT_SCORE}/Disrupted"
BREAK_TESTS = f"{TEXT} Break tests"
CRUMBLE = f"{BREAK_TESTS}/Crumble"
FLEEING = f"{TEXT} Fleeing"
NOT_AWAY = f"{FLEEING}/Doesn't get away"
TURN_TO_FACE = f"{FLEEING}/Turn to face"
CHARGE_BONUSES = f"{TEXT} Charge bonuses"
