"""Ruleset settings a map may override in ``[rules]`` (docs/map-format.md).

The fight-phase presets: ``"11th"`` (the default; engagement range 2" per
core rules 03.04, coherency 2" of one other model and every model within 9"
of every other, 03.03; 12.04 eligibility and selection order as written) and
``"10th"`` (engagement range 1", two others within 2" in units of 7+, no
spread; only engaged-now units stay eligible, the player whose turn it is
not selects first).  Rank-and-flank engages by base contact and
keeps coherency by formation.  Distances are inches.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

RULESETS = ("fight-phase", "rank-and-flank")
EDITIONS = ("11th", "10th")
CHALLENGE_OPTIONS = {"fight-phase": ("gambit",), "rank-and-flank": ("character",)}

# the scripted [[decisions]] choice names each ruleset asks for (a typo is a map error)
GAMBIT_CHOICES = ("issue_challenge", "accept_challenge", "disgrace", "gambit", "feint", "weapon",
                   "prolong", "withdraw")
DECISION_CHOICES: dict[str, tuple[str, ...]] = {
    "fight-phase": ("pile_in", "consolidate", "fight", "fight_type", "attack_target",
                    "pile_in_targets", "consolidation_targets") + GAMBIT_CHOICES,
    "rank-and-flank": ("commander_target", "issue_challenge", "accept_challenge", "disgrace"),
}

#: named default (fight-phase.txt 12.03, 12.08 "one or more"): how many target selections the
#: default policy tries, nearest first, before it says a pile-in or engaging consolidation has
#: no legal move (``rules/fight_phase/targets.py``).  7 is every selection of up to three
#: candidate units (3 singles, 3 pairs, 1 three); each try is one run of the move solver.
TARGET_SELECTIONS_TRIED = 7

#: named default (no rule text: an organiser's judgement): how far (inches) a measured table's
#: terrain piece, objective or deployment zone may stand from the published layout and still be
#: "in place" (``tabletop compare``, ``check --layout``); 0.5" is about what a tape laid along a
#: 60" table and a hand placing a ruin get right.  Read from the published map's ``[rules]``.
LAYOUT_TOLERANCE = 0.5

#: named default, as LAYOUT_TOLERANCE for turns (degrees): 5 degrees moves the far end of a 12"
#: ruin about 1" (12 x sin 5 deg = 1.05"), which a player sees by eye.
LAYOUT_TURN_TOLERANCE = 5.0

#: named defaults of ``tabletop roster`` (no rule text: how a player sets out a list):
#: ROSTER_FRONTAGE files in a rank-and-flank block (five wide is the common regiment
#: frontage); ROSTER_MODEL_GAP inches between the bases of a 40K unit's cluster (room for
#: fingers, well inside the 2" of coherency); ROSTER_UNIT_GAP inches kept between units.
ROSTER_FRONTAGE = 5
ROSTER_MODEL_GAP = 0.5
ROSTER_UNIT_GAP = 1.0
#: ROSTER_MIN_MODEL_GAP: the closest (inches) ``tabletop roster`` packs a 40K unit's bases when
#: its grid at ROSTER_MODEL_GAP would break the "all within 9\"" of coherency (a 30-model
#: unit): a tenth of an inch, bases as near as hands place them without touching
ROSTER_MIN_MODEL_GAP = 0.1

#: named default: two terrain pieces sharing more than this area (square inches) overlap, a
#: layout warning of ``check`` (``geometry/layout_checks.py``); less is pieces touching or
#: drawn a hair apart on a 1" grid, which an organiser means as flush
TERRAIN_OVERLAP_AREA = 0.01

# the value of engagement_range / coherency_range that means "base contact" / "formation"
CONTACT = "contact"
FORMATION = "formation"


@dataclass(frozen=True)
class RulesConfig:
    """Resolved settings for one map.

    Attributes (inches unless stated)
    ----------
    ruleset : "fight-phase" | "rank-and-flank"
    edition : "11th" | "10th" (fight-phase preset; ignored by rank-and-flank)
    contact_tolerance : gap that still counts as base contact; also the one
        tolerance every "within", "closer" and "in base contact" comparison uses.
    engagement_range : edge-to-edge distance that counts as engaged; 0.0 means
        base contact (rank-and-flank).
    coherency_range : None means "formation" (rank-and-flank: each model in
        base contact with another of its unit).
    coherency_neighbours, coherency_neighbours_7plus : how many other models
        each model needs within coherency_range (units of 1-6 / 7+ models).
    coherency_spread : every model within this of every other, or None (off).
    pile_in_distance, pile_in_target_range, consolidate_distance : 12.03, 12.08.
    objective_range : from the marker's edge.
    challenges : None | "gambit" | "character".
    target_selections_tried : fight-phase named default ``TARGET_SELECTIONS_TRIED``:
        how many target selections the default policy tries for a pile-in or
        consolidation move before it reports no legal move (``targets.py``).
    rank_min_models : rank-and-flank named default: how many models make a
        rank that counts for the rank bonus and break tests.
    engaged_at_step_start_keeps_eligible : fight-phase named default
        (``ENGAGED_AT_STEP_START_KEEPS_ELIGIBLE``): whether a unit engaged when
        the Fight step began stays eligible to fight after its enemies are gone
        (12.04).
    fight_order_first : fight-phase named default (``FIGHT_ORDER_FIRST``):
        "active" (12.04 as written) or "non-active" (10th-edition order): who
        selects first when a step of the 12.04 sequence begins.
    charge_arc_tie : rank-and-flank named default: when a charger's front
        rank stands as much in two arcs of its target, "roll" (a D6) or
        "front-edge centre" (the arc of the middle of its front edge);
        ``rules/rank_and_flank/charge_arc.py`` CHARGE_ARC_TIE.
    close_up : rank-and-flank named default: how an enemy moves back into
        base contact after casualties, "flush" (square in, then slid along
        the side to lie flush) or "square" (square in only);
        ``geometry/close_up.py`` CLOSE_UP.
    disgraced_hit_roll : fight-phase named default (``challenges = "gambit"``):
        how a Disgraced model's halved Weapon Skill reaches its fight-phase
        hit roll, which the weapon gives as a roll needed.  ``"halved-ws"``
        (default): the roll needed is read as WS 7 - roll, halved rounding up
        and read back (3+ -> WS 4 -> 2 -> 5+); ``"unchanged"``: the hit roll
        is left alone (halved WS only in challenges).  See
        ``rules.fight_phase.profiles.DISGRACED_HIT_ROLL``.
    gambit_attacks : fight-phase named default (``challenges = "gambit"``):
        where a duellist's Attacks come from.  ``"profile"`` (default): the
        model's Attacks characteristic, as gambit-challenge.txt reads it, a
        weapon's "+1"/"x2" modifying it and its plain number used only when
        the profile has none; ``"weapon"``: a weapon's plain number replaces
        the profile's, as the fight phase reads weapons.  See
        ``rules.challenges.duellist.ATTACKS_FROM``.
    devastating_wounds : fight-phase named default, how a Devastating Wounds
        Critical Wound deals its damage: "no-save" (11th preset: no save of
        any kind, damage to the allocated model, excess lost, as the later
        10th-edition wording players now play) or "mortal" (10th preset: the
        damage becomes mortal wounds that spill over to the next model).
    roll_modifier_cap : fight-phase named default: all modifiers to one hit
        roll (or one wound roll) add up to at most +cap and at least -cap.
    layout_tolerance, layout_turn_tolerance : named defaults ``LAYOUT_TOLERANCE``
        (inches) and ``LAYOUT_TURN_TOLERANCE`` (degrees): how far a measured piece,
        objective or zone may be off the published layout and still be in place
        (``geometry/layout_compare.py``; the published map's values apply).
    charge_blocking_kinds : named default (``rules/charge.py`` CHARGE_BLOCKING_KINDS):
        terrain kinds whose whole footprint a charge path must go round.
    charge_landing_roll : named default (``rules/charge_plan.py`` LANDING_ROLL): the roll
        the charge plan's preview landing assumes, "median" or "needed".
    charge_ruin_walls : named default (``rules/charge.py`` CHARGE_RUIN_WALLS): whom a
        ruin's walls stop on a charge: "non-infantry", "all" or "none".
    charge_needs_front_arc : rank-and-flank named default (``rules/charge.py``
        CHARGE_NEEDS_FRONT_ARC): a charge may be declared only against a target with a
        model in the charger's front arc.
    charge_avoid_undeclared : fight-phase named default (``rules/charge.py``
        CHARGE_AVOID_UNDECLARED): a charge path goes round the engagement range of enemy
        units that were not declared targets.
    charge_land_on_walls : named default (``rules/charge.py`` CHARGE_LAND_ON_WALLS): a
        charging model may end its move standing on a ruin's walls (``tall_part``).
    extra_statuses : status words a map may write besides ``board/statuses.py``
        KNOWN_STATUSES (named default: none); any other word is refused at load.
    charge_landing_turn : fight-phase named default (``rules/charge_plan.py`` LANDING_TURN):
        a charging model whose base is not round may turn as it moves (no pivot cost).
    charge_walls_max_share : named default (``rules/charge.py`` CHARGE_WALLS_MAX_SHARE): a
        ruin's ``tall_part`` covering more of its footprint (area share) is tall all over,
        not walls: a charge landing may stand on its floor.
    charge_landing_aim : fight-phase named default (``rules/charge_plan.py`` LANDING_AIM):
        where the charge preview lands a model that cannot reach base contact, "engage"
        (within engagement range if it can, else nearest the targets) or "path".
    pile_in_prefers_engaged : fight-phase named default (``geometry/solver.py``
        PASS_PREFERS_ENGAGED): of the solver's two first passes of a pile-in or consolidation,
        the one with more models engaged is kept before the one with fewer models out of
        coherency (12.03 asks coherency only "if possible"; the coherency step runs after).
    roster_frontage, roster_model_gap, roster_unit_gap : named defaults ``ROSTER_FRONTAGE``
        (files), ``ROSTER_MODEL_GAP`` and ``ROSTER_UNIT_GAP`` (inches): how ``tabletop roster``
        lays units out (``tabletop/roster/layout.py``, ``geometry/deploy_area.py``).
    terrain_overlap_area : named default ``TERRAIN_OVERLAP_AREA`` (square inches): the
        shared area above which two terrain pieces overlap (a ``check`` layout warning).
    roster_min_model_gap : named default ``ROSTER_MIN_MODEL_GAP`` (inches): the tightest
        gap a large 40K unit is packed at to keep every model within ``coherency_spread``.
    written : the keys the map file set, kept so saving writes only those.
    """

    ruleset: str = "fight-phase"
    edition: str = "11th"
    contact_tolerance: float = 0.02
    engagement_range: float = 2.0
    coherency_range: float | None = 2.0
    coherency_neighbours: int = 1
    coherency_neighbours_7plus: int = 1
    coherency_spread: float | None = 9.0
    pile_in_distance: float = 3.0
    pile_in_target_range: float = 5.0
    consolidate_distance: float = 3.0
    objective_range: float = 3.0
    challenges: str | None = None
    target_selections_tried: int = TARGET_SELECTIONS_TRIED
    rank_min_models: int = 5
    engaged_at_step_start_keeps_eligible: bool = True
    fight_order_first: str = "active"
    charge_arc_tie: str = "roll"
    close_up: str = "flush"
    disgraced_hit_roll: str = "halved-ws"
    gambit_attacks: str = "profile"
    devastating_wounds: str = "no-save"
    roll_modifier_cap: int = 1
    layout_tolerance: float = LAYOUT_TOLERANCE
    layout_turn_tolerance: float = LAYOUT_TURN_TOLERANCE
    charge_blocking_kinds: tuple[str, ...] = ("impassable", "building")
    charge_ruin_walls: str = "non-infantry"
    charge_landing_roll: str = "median"
    charge_needs_front_arc: bool = True
    charge_avoid_undeclared: bool = True
    charge_land_on_walls: bool = False
    charge_walls_max_share: float = 0.5
    extra_statuses: tuple[str, ...] = ()
    charge_landing_aim: str = "engage"
    charge_landing_turn: bool = True
    pile_in_prefers_engaged: bool = True
    roster_frontage: int = ROSTER_FRONTAGE
    roster_model_gap: float = ROSTER_MODEL_GAP
    roster_unit_gap: float = ROSTER_UNIT_GAP
    roster_min_model_gap: float = ROSTER_MIN_MODEL_GAP
    terrain_overlap_area: float = TERRAIN_OVERLAP_AREA
    written: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @property
    def tol(self) -> float:
        """The one comparison tolerance (``contact_tolerance``), inches."""
        return self.contact_tolerance

    @property
    def engages_by_contact(self) -> bool:
        return self.engagement_range <= 0.0

    def coherency_needed(self, unit_size: int) -> int:
        """Other models each model needs within ``coherency_range`` (03.03)."""
        return self.coherency_neighbours_7plus if unit_size >= 7 else self.coherency_neighbours


# Named default, per preset: does "it was engaged at the start of this step" (fight-phase.txt
# 12.04) keep a unit eligible to fight once every enemy it was engaged with is destroyed?
# "11th": yes, as the text says (its own overrun example, 12.06, is such a unit).  "10th":
# no; there only being engaged now (or having charged) makes a unit eligible, which is how
# players of that edition resolve it.  Read in rules/fight_phase/eligibility.py.
ENGAGED_AT_STEP_START_KEEPS_ELIGIBLE = {"11th": True, "10th": False}

# Named default, per preset: who selects first when a step of the 12.04 sequence begins.
# "active": the text's order (Fights First starts with the player whose turn it is; Remaining
# Combats with the player who moved the sequence onto it).  "non-active": the 10th-edition
# order, where the player whose turn it is not selects first in both steps.  Read in
# rules/fight_phase/sequence.py.
FIGHT_ORDERS = ("active", "non-active")
FIGHT_ORDER_FIRST = {"11th": "active", "10th": "non-active"}

PRESETS: dict[tuple[str, str], dict[str, Any]] = {
    ("fight-phase", "11th"): dict(
        engagement_range=2.0, coherency_range=2.0, coherency_neighbours=1,
        coherency_neighbours_7plus=1, coherency_spread=9.0,
        engaged_at_step_start_keeps_eligible=ENGAGED_AT_STEP_START_KEEPS_ELIGIBLE["11th"],
        fight_order_first=FIGHT_ORDER_FIRST["11th"], devastating_wounds="no-save",
        roll_modifier_cap=1,
    ),
    ("fight-phase", "10th"): dict(
        engagement_range=1.0, coherency_range=2.0, coherency_neighbours=1,
        coherency_neighbours_7plus=2, coherency_spread=None,
        engaged_at_step_start_keeps_eligible=ENGAGED_AT_STEP_START_KEEPS_ELIGIBLE["10th"],
        fight_order_first=FIGHT_ORDER_FIRST["10th"], devastating_wounds="mortal",
        roll_modifier_cap=1,
    ),
    ("rank-and-flank", "11th"): dict(
        engagement_range=0.0, coherency_range=None, coherency_neighbours=1,
        coherency_neighbours_7plus=1, coherency_spread=None,
    ),
}
PRESETS[("rank-and-flank", "10th")] = PRESETS[("rank-and-flank", "11th")]

OVERRIDABLE = tuple(
    f.name for f in fields(RulesConfig) if f.name not in ("ruleset", "written")
)


def make_config(ruleset: str, overrides: dict[str, Any] | None = None) -> RulesConfig:
    """Build the resolved settings for ``ruleset`` with the map's ``[rules]``.

    ``engagement_range = "contact"`` and ``coherency_range = "formation"`` are
    accepted as written in docs/map-format.md's table; ``coherency_spread = "off"``
    (or ``false``) turns the spread off.

    Raises
    ------
    ValueError
        For an unknown ruleset, edition or ``fight_order_first`` (message shows the input).
    """
    overrides = dict(overrides or {})
    if ruleset not in RULESETS:
        raise ValueError(f"unknown ruleset {ruleset!r}: use one of {', '.join(RULESETS)}")
    edition = overrides.get("edition", "11th")
    if edition not in EDITIONS:
        raise ValueError(f"unknown edition {edition!r}: use \"11th\" or \"10th\"")
    order = overrides.get("fight_order_first")
    if order is not None and order not in FIGHT_ORDERS:
        raise ValueError(f"unknown fight_order_first {order!r}: use \"active\" or \"non-active\"")
    values: dict[str, Any] = dict(PRESETS[(ruleset, edition)])
    for key, value in overrides.items():
        if key == "engagement_range" and value == CONTACT:
            value = 0.0
        elif key == "coherency_range" and value == FORMATION:
            value = None
        elif key == "coherency_spread" and value in ("off", False):
            value = None
        elif key in ("charge_blocking_kinds", "extra_statuses"):
            value = tuple(value)
        values[key] = value
    values["edition"] = edition
    return replace(RulesConfig(ruleset=ruleset), **values, written=overrides)
