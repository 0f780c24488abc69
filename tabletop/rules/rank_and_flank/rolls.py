"""Attack rolls and damage saves (rank-and-flank-combat.txt "Attack roll", "Damage save").

Attack roll: 3+ when the attacker's Skill is higher than the defender's, else
4+; abilities add or subtract (a +1 makes the target one lower), and the
target is never worse than 6+ nor better than 2+.  Some abilities re-roll
misses or 1s; some force the enemy to re-roll its hits.

Damage save, from the attacker's Power against the defender's Defense:
Power 3+ higher 6+, 1-2 higher 5+, equal 4+, Defense 1-2 higher 3+, Defense
3+ higher 2+.  Halberd: never better than 4+.  Poisoned Attacks: the
defender re-rolls saves of 6.

Named default REROLL_ONCE: a die is re-rolled at most once; the attacker's
own re-roll (misses or 1s) comes first, then a forced re-roll of the hits
that were not already re-rolled.

Exact odds use the same code: the chance one attack wounds (``p_wound``) is
worked out by enumerating ``roll_to_hit``/``roll_saves`` with one die; the
phase's chance for a roll group is then how many of its ``n`` attacks wound
(the dice are independent, so that count is binomial: ``engine.counts``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from tabletop.rules.dice import Dice, enumerate_outcomes
from tabletop.rules.rank_and_flank import clauses as C

REROLL_ONCE = True


@dataclass(frozen=True)
class HitSpec:
    """What an attack roll needs: ``target`` (2..6) after ``modifier``; the
    attacker's re-roll (None, "misses" or "ones") and whether the defender
    forces hits to be re-rolled."""

    target: int
    base: int
    modifier: int = 0
    reroll: str | None = None
    forced: bool = False


@dataclass(frozen=True)
class SaveSpec:
    """What a damage save needs: ``target`` after Halberd; Poisoned re-rolls 6s."""

    target: int
    base: int
    halberd: bool = False
    poisoned: bool = False


def hit_target(skill: int, enemy_skill: int) -> int:
    """3 when ``skill`` is higher than ``enemy_skill``, else 4 (Attack roll table)."""
    return 3 if skill > enemy_skill else 4


def hit_spec(skill: int, enemy_skill: int, modifier: int = 0, reroll: str | None = None,
             forced: bool = False) -> HitSpec:
    """The attack roll: base target from Skill, minus ``modifier``, clamped to 2..6."""
    base = hit_target(skill, enemy_skill)
    return HitSpec(min(6, max(2, base - modifier)), base, modifier, reroll, forced)


def save_target(power: int, defense: int) -> int:
    """The damage save table (Power compared with Defense)."""
    d = power - defense
    if d >= 3:
        return 6
    if d >= 1:
        return 5
    if d == 0:
        return 4
    if d >= -2:
        return 3
    return 2


def save_spec(power: int, defense: int, halberd: bool = False, poisoned: bool = False) -> SaveSpec:
    """The damage save; with a Halberd never better than 4+."""
    base = save_target(power, defense)
    return SaveSpec(max(base, 4) if halberd else base, base, halberd, poisoned)


def _count(faces: list[int], target: int) -> int:
    return sum(1 for f in faces if f >= target)


def _reroll(dice: Dice, faces: list[int], idx: list[int], what: str, rule: str,
            player: str | None, target: int) -> None:
    """Re-roll the dice at ``idx`` in place, as one logged roll."""
    if not idx:
        return
    new = dice.roll(len(idx), purpose=what, rule=rule, player=player, target=f"{target}+",
                    result=lambda f: _count(f, target))
    for i, f in zip(idx, new):
        faces[i] = f


def roll_to_hit(dice: Dice, n: int, spec: HitSpec, *, player: str | None = None,
                against: str = "", faces_out: list[int] | None = None) -> int:
    """Roll ``n`` attack rolls; returns the hits after re-rolls (events ``roll``).

    ``faces_out``, when given, receives the final face of every die (for
    rules that look at natural 6s, such as a challenge's Killing Blow).
    """
    if n <= 0:
        return 0
    mods = {"modifier": spec.modifier} if spec.modifier else {}
    what = f"attack roll{': vs ' + against if against else ''}"
    faces = dice.roll(n, purpose=what, rule=C.ATTACK_ROLL, player=player, modifiers=mods,
                      target=f"{spec.target}+", result=lambda f: _count(f, spec.target))
    rerolled: set[int] = set()
    if spec.reroll in ("misses", "ones"):
        idx = [i for i, f in enumerate(faces)
               if (f < spec.target if spec.reroll == "misses" else f == 1)]
        _reroll(dice, faces, idx, f"{what}, re-roll {spec.reroll}", C.ATTACK_ROLL, player, spec.target)
        rerolled.update(idx)
    if spec.forced:
        idx = [i for i, f in enumerate(faces)
               if f >= spec.target and not (REROLL_ONCE and i in rerolled)]
        _reroll(dice, faces, idx, f"{what}, hits re-rolled (forced)", C.ATTACK_ROLL, player,
                spec.target)
    if faces_out is not None:
        faces_out.extend(faces)
    return _count(faces, spec.target)


def roll_saves(dice: Dice, n: int, spec: SaveSpec, *, player: str | None = None,
               against: str = "") -> int:
    """Roll ``n`` damage saves; returns the failed saves (events ``roll``)."""
    if n <= 0:
        return 0
    halberd = spec.target != spec.base
    mods = {"halberd (never better than 4+)": spec.target - spec.base} if halberd else {}
    what = f"damage save{': vs ' + against if against else ''}"
    faces = dice.roll(n, purpose=what, rule=C.HALBERD if halberd else C.DAMAGE_SAVE, player=player,
                      modifiers=mods, target=f"{spec.target}+",
                      result=lambda f: _count(f, spec.target))
    if spec.poisoned:
        idx = [i for i, f in enumerate(faces) if f == 6]
        _reroll(dice, faces, idx, f"{what}, poisoned: re-roll 6s", C.POISONED, player, spec.target)
    return n - _count(faces, spec.target)


@cache
def p_hit(spec: HitSpec) -> Fraction:
    """Exact chance one attack roll hits (``roll_to_hit`` with one die, enumerated)."""
    dist = enumerate_outcomes(lambda d: roll_to_hit(d, 1, spec))
    return dist.get(1, Fraction(0))


@cache
def p_unsaved(spec: SaveSpec) -> Fraction:
    """Exact chance one damage save fails (``roll_saves`` with one die, enumerated)."""
    dist = enumerate_outcomes(lambda d: roll_saves(d, 1, spec))
    return dist.get(1, Fraction(0))


def p_wound(hit: HitSpec, save: SaveSpec) -> Fraction:
    """Exact chance one attack hits and its damage save fails."""
    return p_hit(hit) * p_unsaved(save)


def strike(dice: Dice, n: int, hit: HitSpec, save: SaveSpec, *, attacker: str | None,
           defender: str | None, label: str = "") -> tuple[int | None, int]:
    """``n`` attacks: (hits, failed saves); every die is rolled and logged.  The failed
    saves are ``counts.successes(n, p_wound(hit, save))`` distributed (each die goes on
    alone), which is what the phase's chance lists (``phase``)."""
    if n <= 0:
        return 0, 0
    hits = roll_to_hit(dice, n, hit, player=attacker, against=label)
    return hits, roll_saves(dice, hits, save, player=defender, against=label)
