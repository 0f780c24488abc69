"""Focus, Strike and Glory Steps of a gambit challenge: the dice code.

The rows of ``gambit_rows.py`` read these functions: the dice code
(``focus_dice``, ``make_attacks``) is what their chances' ``draw`` rolls,
the targets (``hit_target``, ``wound_target``, ``save_target``) are what
their exact count distributions are built from, so there is one copy of the
rules.  gambit-challenge.txt:

Step 3 (Focus): D6 (more dice for some gambits, keeping the highest or the
lowest) + Initiative with the weapon's modifier (its Combat Initiative: 1
for a model a status reduces to it, ``Duellist.combat_initiative``), -1 Heavy, -1 per wound
lost, +X Duellist's Edge (X), +1 Light, + outside support, + Guard Up's
banked bonus.  Highest total takes the Challenge Advantage; ties: both
re-roll until one is higher.  Named default ``TEST_THE_FOE_KEEPS``: Test the
Foe drops every positive modifier but the Initiative (it is the roll's base,
not a bonus).

Step 4 (Strike): the advantage holder attacks first with +1 attack; then the
other, if not removed.  The text names the tests ("Hit Tests => Wound Tests
=> Saving Throws ... => Apply the damage") but leaves out their tables;
named defaults, the standard game's melee tables:

``HIT_TABLE`` (attacker's WS against the defender's WS)::

    attacker WS higher                          3+
    equal or lower, defender WS at most double  4+
    defender WS more than double the attacker's 5+

``WOUND_TABLE`` (Strength against Toughness)::

    S >= T+2: 2+   S = T+1: 3+   S = T: 4+   S = T-1: 5+
    S = T-2 or T-3: 6+            S <= T-4: cannot wound

Saves: ``duellist.py`` (AP worsens the armour save; the better of armour and
invulnerable is used; a roll of 1 always fails).  Damage: each unsaved wound
removes D wounds; a model removed takes no more.  Named default
``STRIKE_ORDER`` for a round's characteristics: base (Disgraced halved),
then the two gambits in precedence order (``gambits.py``), then the
Challenge Advantage's +1 attack (not for Test the Foe), then the single
attack of Guard Up and Withdraw ("whatever its Attacks characteristic").
``FLURRY_DAMAGE_ALL``: Flurry of Blows sets the Damage of all the model's
hits that step to 1.

Step 5 (Glory): ``glory``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tabletop.rules.challenges.duellist import Duellist, Weapon
from tabletop.rules.challenges.gambits import Gambit

RULE_FOCUS = "gambit-challenge.txt Step 3 (Focus)"
RULE_STRIKE = "gambit-challenge.txt Step 4 (Strike)"
RULE_GLORY = "gambit-challenge.txt Step 5 (Glory)"

TEST_THE_FOE_KEEPS = ("Initiative",)
STRIKE_ORDER = ("base", "gambits by precedence", "Challenge Advantage", "single attack")
FLURRY_DAMAGE_ALL = True


def hit_target(ws_attacker: int, ws_defender: int) -> int:
    """D6 score needed to hit (named default ``HIT_TABLE`` in the module doc)."""
    if ws_attacker > ws_defender:
        return 3
    if ws_defender > 2 * ws_attacker:
        return 5
    return 4


def wound_target(strength: int, toughness: int) -> int | None:
    """D6 score needed to wound, or None when it cannot (``WOUND_TABLE``)."""
    d = strength - toughness
    if d >= 2:
        return 2
    if d == 1:
        return 3
    if d == 0:
        return 4
    if d == -1:
        return 5
    if d >= -3:
        return 6
    return None


def save_target(defender: Duellist, ap: int) -> int | None:
    """The D6 score that saves (after AP), or None when no save is possible."""
    targets = []
    if defender.sv is not None:
        targets.append(defender.sv + abs(ap))
    if defender.inv is not None:
        targets.append(defender.inv)
    targets = [t for t in targets if t <= 6]
    return max(2, min(targets)) if targets else None


# ------------------------------------------------------------------ Focus
def focus_modifiers(d: Duellist, weapon: Weapon, g: Gambit, support: int,
                    banked: int = 0) -> tuple[dict[str, int], list[str]]:
    """The Focus Roll's modifiers ``{name: value}`` and the names dropped by the gambit.

    ``support``: the outside support bonus counted from the table;
    ``banked``: Guard Up's bonus from enemy misses last Strike Step.
    ``"outside support"`` is always among the modifiers, 0 when there is none
    or a gambit drops it (then it is named in the dropped list), so every
    Focus Roll shows what the table gave.  ``"Initiative"`` is the model's
    Combat Initiative: Initiative plus the weapon's modifier, or
    ``d.combat_initiative`` (1) when a status sets it.
    """
    # the Combat Initiative: 1 under a status (gambit-challenge.txt, Disgraced), weapon modifier included
    ci = d.combat_initiative if d.combat_initiative is not None else d.i + weapon.initiative_mod
    mods: dict[str, int] = {"Initiative": ci}
    if d.heavy:
        mods["Heavy"] = -1
    if d.wounds_lost > 0:
        mods["wounds lost"] = -min(d.wounds_lost, d.w)
    edge = d.edge + weapon.edge
    if edge:
        mods["Duellist's Edge"] = edge
    if d.light:
        mods["Light"] = 1
    mods["outside support"] = support
    if banked:
        mods["Guard Up"] = banked
    dropped = []
    if g.no_outside_support and support:
        dropped.append("outside support")
        mods["outside support"] = 0
    if g.no_bonus:
        for k in [k for k, v in mods.items() if v > 0 and k not in TEST_THE_FOE_KEEPS]:
            dropped.append(k)
            if k == "outside support":
                mods[k] = 0
            else:
                del mods[k]
    return mods, dropped


def focus_dice(dice, g: Gambit, *, purpose: str = "Focus Roll", player: str | None = None,
               modifiers: dict[str, int] | None = None, log: bool = True) -> tuple[list[int], int]:
    """Roll the Focus dice for gambit ``g``: (faces, the kept face)."""
    faces = dice.faces(g.focus_dice, 6)
    if g.focus_keep == "highest":
        kept = max(faces)
    elif g.focus_keep == "lowest":
        kept = min(faces)
    else:
        kept = faces[0]
    if log:
        total = kept + sum((modifiers or {}).values())
        dice.record(purpose, faces, rule=RULE_FOCUS, player=player, modifiers=modifiers,
                    target=None, result=total)
    return faces, kept


# ------------------------------------------------------------------ Strike profiles
@dataclass(frozen=True)
class StrikeProfile:
    """What a duellist strikes with this Strike Step (after gambits and advantage)."""

    player: str
    ws: int
    attacks: int
    strength: int
    ap: int
    damage: int
    notes: tuple[str, ...] = ()


def strike_profiles(sides: dict[str, tuple[Duellist, Weapon, Gambit]], advantage: str,
                    precedence: str, flurry: dict[str, int] | None = None,
                    support: dict[str, int] | None = None) -> dict[str, StrikeProfile]:
    """Each side's Strike Step characteristics (``STRIKE_ORDER``).

    ``flurry``: the D3 rolled for Flurry of Blows, by player; ``support``:
    the outside support each side would have had (Grandstand's attack bonus).
    """
    flurry = flurry or {}
    support = support or {}
    cur: dict[str, dict[str, Any]] = {}
    for p, (d, wp, _g) in sides.items():
        cur[p] = {"ws": d.ws, "attacks": d.attacks_with(wp), "strength": d.strength_with(wp),
                      "ap": wp.ap, "damage": wp.damage, "notes": []}
    players = list(sides)
    order = [p for p in players if p != precedence] + [precedence]
    for p in order:
        d, wp, g = sides[p]
        enemy = next(q for q in players if q != p)
        c = cur[p]
        if g.ws_bonus:
            c["ws"] += g.ws_bonus
            c["notes"].append(f"{g.name}: WS +{g.ws_bonus}")
        if g.attacks_d3:
            c["attacks"] += flurry.get(p, 0)
            c["notes"].append(f"{g.name}: A +{flurry.get(p, 0)} (D3), Damage 1")
        if g.attacks_from_support and support.get(p):
            c["attacks"] += support[p]
            c["notes"].append(f"{g.name}: A +{support[p]} (outside support)")
        if g.strength_bonus or g.damage_bonus:
            c["strength"] += g.strength_bonus
            c["damage"] += g.damage_bonus
            c["notes"].append(f"{g.name}: S +{g.strength_bonus}, D +{g.damage_bonus}")
        if g.single_attack:
            c["attacks"] = min(c["attacks"], 1)
            c["notes"].append(f"{g.name}: a single attack")
        if g.taunt:
            e = cur[enemy]
            for key, label in (("ws", "WS"), ("attacks", "A")):
                if c[key] > e[key]:
                    c[key] = e[key]
                elif c[key] == e[key]:
                    c[key] = max(0, c[key] - 1)
                c["notes"].append(f"{g.name}: {label} {c[key]}")
    for p in players:
        d, wp, g = sides[p]
        c = cur[p]
        if p == advantage and not g.no_bonus:
            c["attacks"] += 1
            c["notes"].append("Challenge Advantage: +1 attack")
        if g.single_attack:
            c["attacks"] = min(c["attacks"], 1)
        if g.damage_set is not None and FLURRY_DAMAGE_ALL:
            c["damage"] = g.damage_set
    return {p: StrikeProfile(p, c["ws"], c["attacks"], c["strength"], c["ap"], c["damage"],
                             tuple(c["notes"])) for p, c in cur.items()}


# ------------------------------------------------------------------ attacks
@dataclass
class Blows:
    """What one side's attacks did: hits, wounds, unsaved, wounds removed, misses."""

    attacks: int = 0
    hits: int = 0
    wounds: int = 0
    unsaved: int = 0
    damage: int = 0            # wounds removed from the defender (capped at what it had)
    inflicted: int = 0         # every wound inflicted, uncapped (Damage of each unsaved wound)
    misses: int = 0
    removed: bool = False


def make_attacks(dice, prof: StrikeProfile, defender_ws: int, defender: Duellist,
                 wounds_left: int, *, log: bool = True) -> Blows:
    """Resolve ``prof``'s attacks on ``defender``: Hit Tests, Wound Tests, saves, damage.

    Dice are rolled as players do, a batch per test: all hit dice, then a
    wound die per hit, then a save per wound.  ``wounds_left`` is what the
    defender has; the returned ``damage`` never exceeds it.
    """
    b = Blows(attacks=prof.attacks)
    if prof.attacks <= 0:
        return b
    ht = hit_target(prof.ws, defender_ws)
    faces = dice.faces(prof.attacks, 6)
    b.hits = sum(1 for f in faces if f >= ht)
    b.misses = prof.attacks - b.hits
    if log:
        dice.record("Hit Test", faces, rule=RULE_STRIKE, player=prof.player,
                    modifiers={"WS": prof.ws, "enemy WS": defender_ws}, target=ht, result=b.hits)
    if not b.hits:
        return b
    wt = wound_target(prof.strength, defender.t)
    if wt is None:
        if log:
            dice.record("Wound Test", [], rule=RULE_STRIKE, player=prof.player,
                        modifiers={"S": prof.strength, "T": defender.t}, target="cannot wound", result=0)
        return b
    faces = dice.faces(b.hits, 6)
    b.wounds = sum(1 for f in faces if f >= wt)
    if log:
        dice.record("Wound Test", faces, rule=RULE_STRIKE, player=prof.player,
                    modifiers={"S": prof.strength, "T": defender.t}, target=wt, result=b.wounds)
    if not b.wounds:
        return b
    st = save_target(defender, prof.ap)
    if st is None:
        b.unsaved = b.wounds
    else:
        faces = dice.faces(b.wounds, 6)
        saved = sum(1 for f in faces if f != 1 and f >= st)
        b.unsaved = b.wounds - saved
        if log:
            dice.record("Saving Throw", faces, rule=RULE_STRIKE, player=defender.player,
                        modifiers={"Sv": defender.sv or 0, "AP": prof.ap}, target=st, result=saved)
    left = wounds_left
    for _ in range(b.unsaved):
        b.inflicted += prof.damage
        take = min(prof.damage, left)
        b.damage += take
        left -= take
    b.removed = left <= 0 < wounds_left
    return b


# ------------------------------------------------------------------ Glory
@dataclass(frozen=True)
class Glory:
    """The Glory Step: ``winner`` (a player or None for a draw), ``points``, why."""

    winner: str | None
    points: int
    reason: str
    withdrawn: str | None = None


def glory(duellists: dict[str, Duellist], removed: list[str], wounds_caused: dict[str, int],
          taunts: dict[str, int], withdrawn: str | None = None) -> Glory:
    """Who wins the challenge and the combat resolution points they score.

    ``duellists``: by player (base Wounds, Paragon/Command); ``removed``:
    players whose model was removed as a casualty; ``wounds_caused``: Wounds
    each player's model caused the other to lose over the whole challenge;
    ``taunts``: times each player chose Taunt and Bait in this challenge
    (+1 point each if they win); ``withdrawn``: a player who ended the
    challenge with Withdraw (no points for either side).
    """
    if withdrawn is not None:
        return Glory(None, 0, f"{withdrawn} withdrew: no combat resolution points", withdrawn)
    players = list(duellists)
    if len(removed) >= 2:
        return Glory(None, 0, "both models removed: a draw")
    if len(removed) == 1:
        loser = removed[0]
        winner = next(p for p in players if p != loser)
        d = duellists[loser]
        pts = d.w + (1 if (d.paragon or d.command) else 0)
        why = f"base Wounds {d.w} of the model removed"
        if d.paragon or d.command:
            why += " +1 (Paragon or Command)"
        if taunts.get(winner):
            pts += taunts[winner]
            why += f" +{taunts[winner]} (Taunt and Bait)"
        return Glory(winner, pts, why)
    a, b = players
    if wounds_caused.get(a, 0) == wounds_caused.get(b, 0):
        return Glory(None, 0, "no model removed and the same Wounds lost: a draw")
    winner = a if wounds_caused.get(a, 0) > wounds_caused.get(b, 0) else b
    pts = wounds_caused[winner]
    why = f"{pts} Wounds removed"
    if taunts.get(winner):
        pts += taunts[winner]
        why += f" +{taunts[winner]} (Taunt and Bait)"
    return Glory(winner, pts, why)
