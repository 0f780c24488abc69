"""Charge rolls and the odds of making a charge (measurements.csv Charge rows).

fight-phase (40K, measurements.csv "Charge"): the charge roll is 2D6; the
charging unit must end within engagement range of its target, so the charge
is made when the roll is at least the edge-to-edge distance between the
closest models minus the engagement range (named default CHARGE_NEEDS_FIGHT:
"2D6 >= distance - engagement range"; every model moves straight at the
target, so the gap closes by the distance moved).  Targets must be within
12" (CHARGE_DECLARE_RANGE) to declare the charge at all.

rank-and-flank (TOW, measurements.csv "Charge range"): roll 2D6, discard the
lowest, add the Movement characteristic: that is the charge range, and the
charge is made when it reaches the target, i.e. is at least the edge-to-edge
distance to base contact (named default CHARGE_NEEDS_RNF).

The odds are exact: ``enumerate_outcomes`` over the same ``charge_roll``.
"Within" is "not more than", with the map's tolerance: a charge whose path is
7.0" (+/- ``contact_tolerance``) is made on a 7.

Who may declare (``refusal``): a unit already engaged (fight-phase: within
engagement range of an enemy; rank-and-flank: in base contact, i.e. in a
combat), one that is fleeing (rank-and-flank-combat.txt "Fleeing": it runs,
it does not fight or charge), or one a map marks as having advanced or fallen
back (CHARGE_BARRING_STATUS).  A unit marked ``charged`` is still planned: the
flag records a charge already made, and a plan asks "what if it charged".

Named defaults for what a charge path must go round (read in ``blocking_terrain``):

CHARGE_BLOCKING_KINDS = ("impassable", "building")   ([rules] charge_blocking_kinds)
    The whole footprint blocks every charging model.  Woods, obstacles and
    hills are crossed (a charge through them is slowed by other rules, not
    stopped), as players of both games expect.
CHARGE_RUIN_WALLS = "non-infantry"   ([rules] charge_ruin_walls: "non-infantry" | "all" | "none")
    A ruin's walls (its ``tall_part``; the whole footprint when the map gives
    none) stop models that are not infantry-like (a keyword in NOT_INFANTRY)
    and let infantry through, as 40K players treat ruin walls.
CHARGE_LAND_ON_WALLS = False   ([rules] charge_land_on_walls; read in ``landing_terrain``)
    A model the walls let through crosses them but its landing keeps off them:
    players put a model on the floor beside a wall, not balanced on it.
CHARGE_WALLS_MAX_SHARE = 0.5   ([rules] charge_walls_max_share; read in ``has_walls``)
    A ``tall_part`` covering more than this share of its ruin's footprint is a ruin
    tall all over, not walls: the landing stands on its floor.
CHARGE_AVOID_UNDECLARED = True   ([rules] charge_avoid_undeclared; fight-phase)
    A charge path goes round the engagement range of every enemy unit that was
    not declared a target (measurements.csv 40K Charge: a charge may not end
    within it; the 10th-edition charge move also may not pass within it, and the
    11th text in reference/ is silent on the move, so players' reading is kept):
    ``blocking_units`` names those units, ``geometry/charge_paths.py`` grows
    their bases by the engagement range.  False: straight past them, the end
    only warned about (``path_warnings``).

Named default for whom a rank-and-flank unit may declare a charge against
(read in ``target_refusal``):

CHARGE_NEEDS_FRONT_ARC = True   ([rules] charge_needs_front_arc; rank-and-flank)
    rank-and-flank-combat.txt says charges are declared but not against whom; a
    player of that game expects a block to charge only what lies before it: a
    target needs a model whose base centre (arcs.ARC_MODEL_POINT) stands in the
    charger's front arc (the quadrant before its front edge bounded by lines at
    45 degrees from its front corners, ``UnitFormation.arc_of``).  A target
    wholly to the charger's flank or rear is refused, with no odds.
"""

from __future__ import annotations

import math
from fractions import Fraction

from tabletop.rules.dice import Dice, enumerate_outcomes

CHARGE_DECLARE_RANGE = 12.0
CHARGE_NEEDS_FIGHT = "2D6 >= distance - engagement range"
CHARGE_NEEDS_RNF = "Move + highest of 2D6 >= distance"
RULE_FIGHT = "measurements.csv 40K 10th Charge"
RULE_RNF = "measurements.csv TOW 1st Charge range"
RULE_DECLARE = "measurements.csv 40K 10th Charge"
#: the Charge clause each fight-phase preset cites (``rule_for``): the 10th preset its
#: measurements.csv row; the 11th its own edition (reference/ holds no 11th Charge row, so
#: it names the 11th rule and the row its 2" engagement range comes from)
RULE_CHARGE = {
    "10th": "measurements.csv 40K 10th Charge",
    "11th": "40K 11th Charge; engagement range 2\": measurements.csv 40K 11th Engagement Range (03.04)",
}
RULE_FLEE = "rank-and-flank-combat.txt Fleeing"
RULE_FRONT_ARC = "named default charge_needs_front_arc (rank-and-flank-combat.txt is silent)"

CHARGE_BLOCKING_KINDS = ("impassable", "building")
CHARGE_AVOID_UNDECLARED = True
CHARGE_NEEDS_FRONT_ARC = True
CHARGE_RUIN_WALLS = "non-infantry"
RUIN_WALLS_OPTIONS = ("non-infantry", "all", "none")
#: keywords that make a model not infantry-like for ruin walls (CHARGE_RUIN_WALLS)
NOT_INFANTRY = ("vehicle", "monster", "walker", "cavalry", "mounted", "chariot", "bike",
                "war-machine")
#: statuses that bar declaring a charge (fleeing units run; 40K units that advanced or fell back)
CHARGE_BARRING_STATUS = ("fleeing", "advanced", "fell-back")
#: how a barring status reads after "has" ("has fallen back", not "has fell back")
STATUS_DONE = {"advanced": "advanced", "fell-back": "fallen back"}
#: rank-and-flank: a charge may be declared when the target is within Move + this (the
#: highest a D6 can add; the charge range cannot reach further)
RNF_MAX_ADDED = 6


def rule_for(rules) -> str:
    """The Charge clause the preset of ``rules`` (a RulesConfig) cites: rank-and-flank
    RULE_RNF, fight-phase RULE_CHARGE of its edition (10th when unknown)."""
    if getattr(rules, "ruleset", "") == "rank-and-flank":
        return RULE_RNF
    return RULE_CHARGE.get(getattr(rules, "edition", "10th"), RULE_CHARGE["10th"])


def rule_flat(rules) -> str:
    """``rule_for`` as one flat clause (its inner brackets dropped), to sit inside one pair of
    brackets in a sentence."""
    return rule_for(rules).replace(" (", " ").replace(")", "").replace("(", "")


def charge_roll(dice: Dice, ruleset: str, move: float = 0.0, player: str | None = None) -> float:
    """The charge range in inches: 2D6 (fight-phase) or Move + the higher of 2D6 (rank-and-flank)."""
    if ruleset == "rank-and-flank":
        faces = dice.roll(2, purpose="charge roll (2D6, discard the lowest)", rule=RULE_RNF,
                          player=player, modifiers={"Move": int(move) if move == int(move) else move},
                          result=lambda f: move + max(f))
        return move + max(faces)
    faces = dice.roll(2, purpose="charge roll (2D6)", rule=RULE_FIGHT, player=player,
                      result=lambda f: sum(f))
    return float(sum(faces))


def needed(ruleset: str, distance: float, engagement_range: float = 0.0) -> float:
    """How far the charge range must reach (inches)."""
    if ruleset == "rank-and-flank":
        return distance
    return max(0.0, distance - engagement_range)


def charge_odds(ruleset: str, distance: float, *, move: float = 0.0, engagement_range: float = 0.0,
                tol: float = 0.0) -> Fraction:
    """Exact chance the charge roll reaches ``needed(...)`` (with the map tolerance)."""
    need = needed(ruleset, distance, engagement_range)
    dist = enumerate_outcomes(lambda d: charge_roll(d, ruleset, move) >= need - tol)
    return dist.get(True, Fraction(0))


def roll_needed(ruleset: str, path_length: float, *, move: float = 0.0,
                tol: float = 0.0) -> int | None:
    """The smallest roll that makes a charge whose models must move ``path_length`` inches.

    fight-phase: the 2D6 total (2..12); rank-and-flank: the higher of the 2D6 (1..6) added
    to ``move``.  "Within" is "not more than" with ``tol``: a 7.0" path needs a 7, and so
    does a 7.01" one with the default 0.02" tolerance.  None when no roll reaches.
    """
    if ruleset == "rank-and-flank":
        lo, hi, base = 1, 6, move
    else:
        lo, hi, base = 2, 12, 0.0
    need = max(lo, math.ceil(path_length - tol - base - 1e-9))
    return need if need <= hi else None


def roll_odds(ruleset: str, path_length: float, *, move: float = 0.0, tol: float = 0.0) -> Fraction:
    """Exact chance the charge roll reaches ``path_length`` inches (``tol`` as in ``roll_needed``)."""
    dist = enumerate_outcomes(lambda d: charge_roll(d, ruleset, move) >= path_length - tol - 1e-9)
    return dist.get(True, Fraction(0))


def max_reach(ruleset: str, move: float = 0.0) -> float:
    """The longest charge the dice allow (inches): 12 (2D6) or Move + 6."""
    return move + RNF_MAX_ADDED if ruleset == "rank-and-flank" else 12.0


def is_infantry_like(keywords) -> bool:
    """A model whose keywords name none of NOT_INFANTRY (ruin walls let it through)."""
    return not any(k.lower() in NOT_INFANTRY for k in keywords)


#: Named default ([rules] charge_land_on_walls): whether a charging model may end its move
#: standing on a ruin's walls (its ``tall_part``).  The charge text is silent; a player
#: places a model on the floor beside a wall, not balanced on it, so a model the walls let
#: through (``charge_ruin_walls``) crosses them but its landing keeps off them.
CHARGE_LAND_ON_WALLS = False


#: Named default ([rules] charge_walls_max_share): a ruin's ``tall_part`` is a wall a charging
#: model keeps off (CHARGE_LAND_ON_WALLS) only while it covers at most this share of the
#: ruin's footprint (by area).  The charge text is silent; a ``tall_part`` that covers more
#: is a ruin tall all over (its storeys stand over the whole footprint, as the published
#: layouts draw many ruins), and a player stands a model on its ground floor, as the path
#: length already let it cross: keeping off the whole footprint would refuse every landing
#: the distance allowed.  A thin L of walls (``RUIN_WALL_THICKNESS_IN``) is far below it.
CHARGE_WALLS_MAX_SHARE = 0.5


def polygon_area(points) -> float:
    """Area (square inches) of the simple polygon ``points`` ([(x, y), ...], inches; the
    shoelace formula, any winding)."""
    pts = [(float(p[0]), float(p[1])) for p in points]
    return abs(sum(a[0] * b[1] - b[0] * a[1]
                   for a, b in zip(pts, pts[1:] + pts[:1]))) / 2.0


def has_walls(rules, terrain) -> bool:
    """Whether ruin ``terrain``'s ``tall_part`` is a wall to keep a landing off: it has one
    and it covers at most ``[rules] charge_walls_max_share`` (CHARGE_WALLS_MAX_SHARE) of
    the footprint's area; a ruin tall all over has only a floor to stand on."""
    if terrain.kind != "ruin" or not terrain.tall_part:
        return False
    share = getattr(rules, "charge_walls_max_share", CHARGE_WALLS_MAX_SHARE)
    whole = polygon_area(terrain.polygon)
    return whole <= 0.0 or polygon_area(terrain.tall_part) <= share * whole + 1e-9


def landing_terrain(state, model) -> list[tuple[str, tuple]]:
    """The terrain shapes a charging ``model``'s base may not end on: ``blocking_terrain``
    and, unless ``[rules] charge_land_on_walls`` (CHARGE_LAND_ON_WALLS), every ruin's walls
    (its ``tall_part`` when ``has_walls``: a ruin with none, or tall all over, has no wall
    shape to keep off, and a model the path lets cross it may end on its floor)."""
    out = blocking_terrain(state, model)
    if getattr(state.rules, "charge_land_on_walls", CHARGE_LAND_ON_WALLS):
        return out
    have = {(tid, tuple(p)) for tid, p in out}
    for t in state.terrain:
        if has_walls(state.rules, t) and (t.id, tuple(t.tall_part)) not in have:
            out.append((t.id, t.tall_part))
    return out


def blocking_terrain(state, model) -> list[tuple[str, tuple]]:
    """The terrain shapes a charge by ``model`` must go round: ``[(terrain id, polygon)]``.

    Reads ``[rules] charge_blocking_kinds`` (CHARGE_BLOCKING_KINDS) and
    ``charge_ruin_walls`` (CHARGE_RUIN_WALLS); see the module docstring.
    """
    rules = state.rules
    kinds = getattr(rules, "charge_blocking_kinds", CHARGE_BLOCKING_KINDS)
    walls = getattr(rules, "charge_ruin_walls", CHARGE_RUIN_WALLS)
    out = []
    for t in state.terrain:
        if t.kind in kinds:
            out.append((t.id, t.polygon))
        elif t.kind == "ruin" and (walls == "all" or (walls == "non-infantry"
                                                      and not is_infantry_like(model.keywords))):
            out.append((t.id, t.tall_part or t.polygon))
    return out


def refusal(state, geo, unit_id: str) -> str | None:
    """Why ``unit_id`` may not declare a charge, or None when it may.

    Reasons: engaged with an enemy (fight-phase: within engagement range; rank-and-flank:
    in base contact), or a status in CHARGE_BARRING_STATUS (matched whatever its case).
    """
    unit = state.unit(unit_id)
    status = {s.lower() for s in unit.status}     # a map may write "Advanced" or "advanced"
    for m in unit.models:
        status |= {s.lower() for s in m.status}
    if "fleeing" in status:
        return f"{unit_id} is fleeing: a fleeing unit runs and may not declare a charge ({RULE_FLEE})"
    for s in CHARGE_BARRING_STATUS:
        if s in status:
            return (f"{unit_id} has {STATUS_DONE.get(s, s.replace('-', ' '))} this turn: "
                    f"it may not declare a charge")
    if geo.unit_engaged(unit_id):
        foes = ", ".join(geo.engaged_units(unit_id))
        how = ("in base contact with" if state.ruleset == "rank-and-flank"
               else "within engagement range of")
        return (f"{unit_id} is already {how} {foes}: an engaged unit may not declare a charge "
                f"({RULE_RNF if state.ruleset == 'rank-and-flank' else rule_for(state.rules)})")
    return None


def target_refusal(state, geo, unit_id: str, target_id: str) -> str | None:
    """Why ``unit_id`` may not declare a charge against ``target_id``, or None when it may.

    rank-and-flank with ``[rules] charge_needs_front_arc`` (CHARGE_NEEDS_FRONT_ARC): the
    target needs a model whose base centre stands in the charger's front arc
    (``UnitFormation.arc_of`` of the charger); else the reason names the arc its models
    stand in.  fight-phase: always None (its 12" declare range is checked with the path).
    """
    if state.ruleset != "rank-and-flank":
        return None
    if not getattr(state.rules, "charge_needs_front_arc", CHARGE_NEEDS_FRONT_ARC):
        return None
    form = geo.formation(unit_id)
    arcs = {form.arc_of(geo.model(m).x, geo.model(m).y) for m in geo.unit_models(target_id)}
    if "front" in arcs:
        return None
    where = " and ".join(sorted(("flank" if a in ("left", "right") else a) for a in arcs))
    where = " and ".join(dict.fromkeys(where.split(" and ")))
    return (f"{target_id} is not in {unit_id}'s front arc (it stands to its {where}): "
            f"a unit may declare a charge only against a target before it ({RULE_FRONT_ARC})")


def blocking_units(state, unit_id: str, targets) -> list[str]:
    """The enemy units whose engagement range a charge by ``unit_id`` on ``targets`` must go
    round (fight-phase, ``[rules] charge_avoid_undeclared``, CHARGE_AVOID_UNDECLARED): every
    enemy unit not in ``targets``; [] when the option is off or in rank-and-flank."""
    if state.ruleset == "rank-and-flank":
        return []
    if not getattr(state.rules, "charge_avoid_undeclared", CHARGE_AVOID_UNDECLARED):
        return []
    me = state.unit(unit_id).player
    return [u.id for u in state.units if u.player != me and u.id not in set(targets)]
