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
"""

from __future__ import annotations

from fractions import Fraction

from tabletop.rules.dice import Dice, enumerate_outcomes

CHARGE_DECLARE_RANGE = 12.0
CHARGE_NEEDS_FIGHT = "2D6 >= distance - engagement range"
CHARGE_NEEDS_RNF = "Move + highest of 2D6 >= distance"
RULE_FIGHT = "measurements.csv 40K 10th Charge"
RULE_RNF = "measurements.csv TOW 1st Charge range"


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
