"""Making attacks: the standard sequence fight-phase.txt cites as "Making Attacks (04)".

The text says a unit "fights as described in Making Attacks (04)" (12.05,
12.06) without giving section 04, so this module uses the standard attack
sequence, each step a named default:

``WHICH_MODELS_FIGHT``
    A model fights if it is within engagement range of an enemy model, or in
    base contact with a friendly model of its unit that is itself in base
    contact with an enemy model (reference/measurements.csv "Which models
    fight"); it may attack the enemy units those models belong to.
``ATTACK_TARGET``
    All attacks go at one enemy unit, chosen through Decisions (choice
    ``attack_target``; default the unit the most fighting models can
    attack, then file order); a model that cannot attack it attacks the
    first unit (file order) it can.
``MELEE_WEAPON`` (profiles.py)
    Each model attacks with its first weapon that has a WS.
``HIT_ROLL``
    A attacks per model (a number or dice); one D6 per attack, a hit on a
    roll of at least WS after modifiers; an unmodified 1 always fails, an
    unmodified 6 is a Critical Hit and always hits.
``WOUND_ROLL``
    One D6 per hit against the target unit's Toughness (its highest T):
    S >= 2T needs 2+, S > T 3+, S == T 4+, S <= T/2 6+, otherwise (S < T) 5+;
    an unmodified 1 always fails, an unmodified 6 (or the X+ of an
    Anti-KEYWORD X+ against that keyword) is a Critical Wound and always
    wounds.
``SAVE_ROLL``
    Each wound is allocated (casualties.py) and saved on one D6: the
    modified save needed is Sv - AP, AP written 0/-1/-2 (so Sv 3 against
    AP -1 needs 4+); an invulnerable save (``Inv``) ignores AP and is used
    when it needs less; an unmodified 1 always fails; a save needing more
    than 6 is not rolled (``no_save`` event).
``FAST_SAVES``
    When every model of the target unit makes the same save against the
    weapon (the same roll needed, armour or invulnerable), the saves of the
    wounds still to allocate are rolled together, as players do: a saved
    wound changes nothing, so only how many fail matters, and the failed ones
    are then allocated and dealt one at a time (``casualties.py``).  A unit
    with mixed saves rolls one save per allocated wound.
``DEAL_TOGETHER``
    The failed saves rolled together are then dealt in one step when the
    weapon's damage is a number and no model of the target unit has a Feel
    No Pain: with nothing rolled between them, allocation (``casualties.py``)
    fixes where each goes, so N failed saves of damage D leave one table
    (``casualties.deal_wounds``), with the same events, in the same order, as
    dealing them one at a time.  The odds walk then makes one state where it
    made one per failed save.
``CHAINED_ROLLS``
    When nothing reads the counts between the hit, wound and save rolls (no Lethal
    Hits, Sustained Hits or Devastating Wounds, and the target saves alike, as
    ``FAST_SAVES``), the three are one chance of how many saves fail: the odds walk
    weighs each number of failed saves once, not every number of hits and wounds
    on the way.  When resolving, the dice are still rolled and logged as ever: the
    hit roll, the wound roll on its hits, the saves of its wounds.
``DAMAGE``
    Each unsaved wound deals D (a number or dice) to the allocated model,
    less what its Feel No Pain ignores; damage beyond its remaining wounds
    is lost.

Weapon abilities (a weapon's ``rules``: Lethal Hits, Sustained Hits X,
Devastating Wounds, Anti-KEYWORD X+, Twin-linked, re-rolls, Lance, +/-N to
hit or wound) and the +1/-1 cap on modifiers are read as ``abilities.py``
describes; re-rolls of failed dice are logged as their own rolls, Feel No
Pain dice too.  Wounds from Devastating Wounds are resolved after the
weapon's other wounds, as ``[rules] devastating_wounds`` says ("no-save" or
"mortal", then a ``mortal_wounds`` event).

Every roll goes through ``Dice`` with purpose, modifiers, target, result
and player, so the CLI prints each as it happens.

On the rules engine (``tabletop.rules.engine``) the attacks are one row's
work (``AttackJob`` in the phase's memo, advanced by ``advance``) that waits
on one ``Chance`` per stage of each weapon group, whose outcome is what the
rules read: the attacks made (when A is dice), the hit roll as (hits,
critical hits), Sustained Hits' extra hits (when dice), the wound roll as
(wounds, critical wounds), then per allocated wound its save (saved or
not), its damage (when dice) and its Feel No Pain (points ignored).  Each
chance's distribution is worked out per die, re-rolls included
(``roll_dist``), and its ``draw`` rolls the individual dice in the order
and with the log lines the attack sequence has always had.  Allocation and
casualty removal are geometry, not chance.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb, lcm
from typing import Any

from tabletop.board.frozen import evolve
from tabletop.board.state import Battlefield
from tabletop.geometry import Geometry
from tabletop.rules.engine import counts
from tabletop.rules.engine.pending import Chance, Drawn, Question, detail_of, outcome_of
from tabletop.rules.events import AttacksResolved, Event, MortalWounds, NoAttacks, NoSave
from tabletop.rules.fight_phase.abilities import (
    CRITICAL_HIT,
    CRITICAL_WOUND,
    LANCE_BONUS,
    capped,
    feel_no_pain,
    keyword_key,
)
from tabletop.rules.fight_phase.casualties import ATTACKS_RULE, allocate, deal_wounds, lose_wounds
from tabletop.rules.fight_phase.context import geometry, placed_geometry
from tabletop.rules.fight_phase.profiles import (
    Amount,
    DiceExpr,
    Weapon,
    characteristic,
    invulnerable,
    melee_weapon,
)

WHICH_MODELS_FIGHT = ("within engagement range of an enemy model, or in base contact with a "
                      "friendly model of its unit that is in base contact with an enemy model")
ATTACK_TARGET = "the enemy unit the most fighting models can attack, then file order"
WOUND_TOUGHNESS = "the highest T among the target unit's models"


_FIGHTERS: dict[tuple[int, str], tuple[Geometry, dict[str, list[str]]]] = {}


def which_models_fight(geo: Geometry, unit_id: str) -> dict[str, list[str]]:
    """``{model id: [enemy unit ids it may attack]}`` for the models of ``unit_id`` that fight.

    Unit ids in file order; models that cannot fight are left out
    (``WHICH_MODELS_FIGHT``).  It reads only the snapshot, so it is worked out once per
    snapshot and unit (a fresh copy is returned).
    """
    hit = _FIGHTERS.get((id(geo), unit_id))
    if hit is not None and hit[0] is geo:
        return {m: list(ts) for m, ts in hit[1].items()}
    out = _which_models_fight(geo, unit_id)
    if len(_FIGHTERS) >= 4096:
        _FIGHTERS.pop(next(iter(_FIGHTERS)))
    _FIGHTERS[(id(geo), unit_id)] = (geo, {m: list(ts) for m, ts in out.items()})
    return out


def _which_models_fight(geo: Geometry, unit_id: str) -> dict[str, list[str]]:
    order = {u.id: k for k, u in enumerate(geo.state.units)}
    out: dict[str, list[str]] = {}
    for m in geo.unit_models(unit_id):
        units = {e.rsplit("/", 1)[0] for e in geo.engaged_models(m)}
        for f in geo.contacts_of(m, enemies=False):
            if f.rsplit("/", 1)[0] == unit_id:
                units.update(e.rsplit("/", 1)[0] for e in geo.contacts_of(f, enemies=True))
        if units:
            out[m] = sorted(units, key=lambda u: order[u])
    return out


def wound_target(strength: int, toughness: int) -> int:
    """The wound roll needed (``WOUND_ROLL``): 2+ .. 6+."""
    if strength >= 2 * toughness:
        return 2
    if strength > toughness:
        return 3
    if strength == toughness:
        return 4
    if 2 * strength <= toughness:
        return 6
    return 5


def succeeds(face: int, need: int, six_always: bool = True) -> bool:
    """An unmodified 1 always fails; a 6 always succeeds when ``six_always``."""
    if face == 1:
        return False
    if six_always and face == 6:
        return True
    return face >= need


def save_needed(sv: int, ap: int, inv: int | None) -> tuple[int, str]:
    """(roll needed, "armour" | "invulnerable") for a save against ``ap`` (0 or negative)."""
    armour = sv - ap
    if inv is not None and inv < armour:
        return inv, "invulnerable"
    return armour, "armour"




def roll_amount(dice: Any, amount: Amount, purpose: str, player: str,
                rule: str = ATTACKS_RULE) -> int:
    """A number as is; a dice expression rolled with ``dice`` and logged (D3 = a D6 halved,
    rounding up)."""
    if isinstance(amount, int):
        return amount
    assert isinstance(amount, DiceExpr)
    if amount.sides == 6:
        faces = dice.roll(amount.n, 6, purpose=f"{purpose} ({amount})", rule=rule,
                          player=player, result=lambda f: sum(f) + amount.plus)
        return sum(faces) + amount.plus
    faces = dice.faces(amount.n, 6)
    value = sum((f + 1) // 2 for f in faces) + amount.plus
    dice.record(f"{purpose} ({amount}, a D6 halved rounding up)", faces, rule=rule,
                player=player, result=value)
    return value


#: the faces of one die as ``roll_amount`` reads it: a D6, or a D3 as a D6 halved rounding up
_FACES = {6: (1, 2, 3, 4, 5, 6), 3: (1, 1, 2, 2, 3, 3)}


@lru_cache(maxsize=256)
def amount_dist(amount: Amount) -> counts.Dist:
    """The exact distribution of an amount (a number, or dice as ``roll_amount`` reads them)."""
    if isinstance(amount, int):
        return ((amount, Fraction(1)),)
    return tuple((v + amount.plus, w) for v, w in counts.faces_sum(amount.n, _FACES[amount.sides]))


def amounts_dist(amounts: tuple[Amount, ...]) -> counts.Dist:
    """The distribution of the sum of independent ``amounts``.

    Numbers add up and dice of one kind are pooled (two ``D6+1`` are ``2D6+2``), so the
    sum is counted once in whole numbers (``counts.faces_sum``), never convolved per model.
    """
    fixed = 0
    dice: dict[int, int] = {}
    for a in amounts:
        if isinstance(a, int):
            fixed += a
        else:
            fixed += a.plus
            dice[a.sides] = dice.get(a.sides, 0) + a.n
    dist: counts.Dist = ((fixed, Fraction(1)),)
    for sides in sorted(dice):
        dist = counts.convolve(dist, amount_dist(DiceExpr(dice[sides], sides)))
    return dist


def _toughness(state: Battlefield, unit_id: str) -> int:
    return max(characteristic(m, "T") for m in state.unit(unit_id).models)


def _success(face: int, need: int, mod: int, critical_at: int) -> bool:
    """A critical (unmodified ``critical_at``+) always succeeds, an unmodified 1 always fails."""
    if face >= critical_at:
        return True
    if face == 1:
        return False
    return face + mod >= need


def _rerolled(face: int, need: int, mod: int, critical_at: int, reroll: str | None) -> bool:
    """``REROLL_WHICH``: only failed dice are re-rolled (all of them, or only the 1s)."""
    return reroll is not None and not _success(face, need, mod, critical_at) and (
        reroll == "failed" or face == 1)


@lru_cache(maxsize=4096)
def roll_dist(n: int, need: int, mod: int, critical_at: int, reroll: str | None) -> counts.Dist:
    """The exact distribution of (successes, criticals) of a hit or wound roll of ``n`` dice
    (``_roll_test``): each die succeeds as ``_success`` says, is critical on an unmodified
    ``critical_at``+, and a failed die is re-rolled once as ``reroll`` says."""
    once = {"c": Fraction(0), "h": Fraction(0), "f": Fraction(0)}
    for face in range(1, 7):
        cat = "c" if face >= critical_at else "h" if _success(face, need, mod, critical_at) else "f"
        once[cat] += Fraction(1, 6)
    final = {"c": Fraction(0), "h": Fraction(0), "f": Fraction(0)}
    for face in range(1, 7):
        if _rerolled(face, need, mod, critical_at, reroll):
            for cat in final:
                final[cat] += Fraction(1, 6) * once[cat]
        else:
            cat = "c" if face >= critical_at else "h" if _success(face, need, mod, critical_at) \
                else "f"
            final[cat] += Fraction(1, 6)
    pc, ph, pf = final["c"], final["h"], final["f"]
    # in whole numbers over one denominator (a die's chances are sixths or thirty-sixths):
    # C(n, c) C(n - c, h) A^c B^h F^(n-c-h) / D^n, the powers built up once, each weight
    # made a Fraction once (the same Fractions as multiplying Fractions term by term)
    d = lcm(pc.denominator, ph.denominator, pf.denominator)
    a, b, f = (int(x * d) for x in (pc, ph, pf))
    pa, pb, pf_ = [1], [1], [1]
    for _ in range(n):
        pa.append(pa[-1] * a)
        pb.append(pb[-1] * b)
        pf_.append(pf_[-1] * f)
    total = d ** n
    out: dict[tuple[int, int], Fraction] = {}
    for c in range(n + 1):
        nc = comb(n, c) * pa[c]
        if not nc:
            continue
        for h in range(n - c + 1):
            num = nc * comb(n - c, h) * pb[h] * pf_[n - c - h]
            if num:
                out[(c + h, c)] = Fraction(num, total)
    return tuple(sorted(out.items()))


def _roll_test(dice: Any, n: int, purpose: str, need: int, mods: tuple[int, dict],
               critical_at: int, reroll: str | None, player: str, rule: str) -> list[int]:
    """``n`` dice for a hit or wound roll, then one re-roll of the failed dice (or the 1s).

    Both rolls are logged (the re-roll as ``"<kind> re-roll: ..."``); returns
    the final faces, unmodified.  ``REROLL_WHICH``: only failed dice are
    re-rolled.
    """
    if not n:
        return []
    mod, logged = mods

    def ok(f: list[int]) -> int:
        return sum(_success(x, need, mod, critical_at) for x in f)

    faces = dice.roll(n, purpose=purpose, rule=rule, player=player, target=need,
                      modifiers=logged, result=ok)
    if reroll is None:
        return faces
    again = [k for k, x in enumerate(faces) if _rerolled(x, need, mod, critical_at, reroll)]
    if again:
        kind, _, detail = purpose.partition(": ")
        new = dice.roll(len(again), rule=rule, player=player,
                        purpose=f"{kind.removesuffix(' roll')} re-roll ({reroll}): {detail}",
                        target=need, modifiers=logged, result=ok)
        for k, x in zip(again, new):
            faces[k] = x
    return faces


def _has_keyword(state: Battlefield, unit_id: str, word: str) -> bool:
    unit = state.unit(unit_id)
    words = list(unit.keywords) + [k for m in unit.models for k in m.keywords]
    return any(keyword_key(k) == word for k in words)


def _save_spec(model: Any, weapon: Weapon) -> tuple[int, str, dict[str, int]]:
    """(roll needed, "armour" | "invulnerable", modifiers as logged) of a save (``SAVE_ROLL``)."""
    sv_need, kind = save_needed(characteristic(model, "Sv"), weapon.AP, invulnerable(model))
    mods = {"AP": weapon.AP} if kind == "armour" and weapon.AP else {}
    return sv_need, kind, mods


def _wound_spec(state: Battlefield, job: AttackJob, g: Group) -> tuple[int, tuple[int, dict],
                                                                      int, str]:
    """(roll needed, capped modifiers, critical wound at, purpose) of ``g``'s wound roll
    (``WOUND_ROLL``)."""
    w, ab = g.weapon, g.weapon.abilities
    toughness = _toughness(state, g.target)
    need = wound_target(w.S, toughness)
    critical_at = min([CRITICAL_WOUND] + [x for word, x in ab.anti
                                          if _has_keyword(state, g.target, word)])
    lance = LANCE_BONUS if ab.lance and state.unit(job.unit).charged else 0
    mods = capped({"Lance": lance, f"{ab.wound_modifier:+d} to wound": ab.wound_modifier},
                  state.rules.roll_modifier_cap)
    return need, mods, critical_at, f"wound roll: S{w.S} against T{toughness}"


@lru_cache(maxsize=4096)
def chain_dist(n: int, hit: tuple[int, int, int, str | None], wound: tuple[int, int, int, str | None],
               p_fail: Fraction) -> counts.Dist:
    """The exact distribution of failed saves from ``n`` attacks (``CHAINED_ROLLS``), the hit
    roll ``hit`` = (need, modifier, critical at, re-roll), the wound roll ``wound`` on its
    hits, each wound's save failing with ``p_fail``.  Every attack goes its own way (its own
    hit die and re-roll, then its wound die, then its save), so the failed saves are a
    binomial count of ``n`` attacks, each failing a save with P(hit) P(wound) ``p_fail``."""
    def p_one(spec: tuple[int, int, int, str | None]) -> Fraction:
        return sum((p for (k, _), p in roll_dist(1, *spec) if k), Fraction(0))
    return counts.successes(n, p_one(hit) * p_one(wound) * p_fail)


def _chain(state: Battlefield, job: AttackJob, g: Group, n: int, hit_mods: tuple[int, dict],
           hit_purpose_: str) -> Chance | None:
    """The hit, wound and save rolls of ``g`` as one chance of how many saves fail
    (``CHAINED_ROLLS``), or None when something reads the counts between them."""
    w, ab = g.weapon, g.weapon.abilities
    if ab.lethal_hits or ab.sustained_hits or ab.devastating_wounds:
        return None
    if not state.has_unit(g.target) or not _same_save(state, g.target, w):
        return None
    first = state.unit(g.target).models[0]
    sv_need, kind, sv_mods = _save_spec(first, w)
    if sv_need > 6:
        return None
    need, mods, critical_at, purpose = _wound_spec(state, job, g)
    player, rule, target, defender = job.player, job.rule, g.target, g.defender

    def failed_of(faces: list[int]) -> int:
        return sum(not succeeds(f, sv_need, six_always=False) for f in faces)

    def draw(dice: Any) -> Any:
        faces = _roll_test(dice, n, hit_purpose_, w.WS, hit_mods, CRITICAL_HIT, ab.reroll_hits,
                           player, rule)
        hits = sum(_success(x, w.WS, hit_mods[0], CRITICAL_HIT) for x in faces)
        crits = sum(x >= CRITICAL_HIT for x in faces)
        wfaces = _roll_test(dice, hits, purpose, need, mods, critical_at, ab.reroll_wounds,
                            player, rule)
        wounded = [x for x in wfaces if _success(x, need, mods[0], critical_at)]
        failed = 0
        if len(wounded) == 1:          # one wound: allocated and saved on its own, as ever
            model_id = allocate(state, placed_geometry(state), target)
            face = dice.roll(1, purpose=f"{kind} save: {model_id}", rule=rule, player=defender,
                             target=sv_need, modifiers=sv_mods,
                             result=lambda f: "saved" if succeeds(f[0], sv_need, False)
                             else "failed")[0]
            failed = int(not succeeds(face, sv_need, six_always=False))
        elif wounded:
            sfaces = dice.roll(len(wounded), purpose=f"{kind} saves: {len(wounded)} wounds on "
                               f"{target}", rule=rule, player=defender, target=sv_need,
                               modifiers=sv_mods, result=lambda f: f"{failed_of(f)} failed")
            failed = failed_of(sfaces)
        return Drawn(failed, (hits, crits, len(wounded), sum(x >= critical_at for x in wounded)))
    p_fail = Fraction(sum(not succeeds(f, sv_need, six_always=False) for f in range(1, 7)), 6)
    dist = chain_dist(n, (w.WS, hit_mods[0], CRITICAL_HIT, ab.reroll_hits),
                      (need, mods[0], critical_at, ab.reroll_wounds), p_fail)
    return _chance(f"failed saves of {job.unit}'s {w.name}", rule, dist, player, draw)


@lru_cache(maxsize=1024)
def _read(dist: counts.Dist, read_crits: bool) -> counts.Dist:
    """A roll's (successes, criticals) distribution as the rules read it: the criticals
    only when an ability reads them (else 0), so the odds walk does not tell apart rolls
    that fight on alike."""
    return dist if read_crits else counts.mapped(dist, lambda v: (v[0], 0))


def _counted(successes: int, crits: int, read_crits: bool) -> Any:
    """What a drawn roll answers: the outcome as ``_read`` lists it, and the criticals the
    dice showed (for the ``attacks_resolved`` summary) when the outcome leaves them out."""
    return (successes, crits) if read_crits else Drawn((successes, 0), crits)


def _crits(answer: Any, listed: int) -> int:
    """The criticals a roll showed: the drawn dice's when known, else the listed outcome's."""
    shown = detail_of(answer)
    return listed if shown is None else shown


def _same_save(state: Battlefield, unit_id: str, weapon: Weapon) -> bool:
    """Whether every model of ``unit_id`` makes the same save against ``weapon`` (``FAST_SAVES``)."""
    specs = {(n, k, tuple(sorted(m.items())))
             for n, k, m in (_save_spec(x, weapon) for x in state.unit(unit_id).models)}
    return len(specs) == 1


def _saves_chance(target: str, n: int, need: int, kind: str, mods: dict[str, int],
                  defender: str, rule: str) -> Chance:
    """The saves of ``n`` wounds rolled together (``FAST_SAVES``): the chance of how many fail."""
    def failed(faces: list[int]) -> int:
        return sum(not succeeds(f, need, six_always=False) for f in faces)

    def draw_saves(dice: Any) -> int:
        faces = dice.roll(n, purpose=f"{kind} saves: {n} wounds on {target}", rule=rule,
                          player=defender, target=need, modifiers=mods,
                          result=lambda f: f"{failed(f)} failed")
        return failed(faces)
    p_fail = Fraction(sum(not succeeds(f, need, six_always=False) for f in range(1, 7)), 6)
    return _chance(f"{kind} saves: {target}", rule, counts.successes(n, p_fail), defender,
                   draw_saves)


def hit_purpose(unit_id: str, weapon: Weapon, n: int, target: str, models: tuple[str, ...]) -> str:
    """The hit roll's log line; says why the roll needed is not the weapon's own (a Disgraced
    model, ``profiles.DISGRACED_HIT_ROLL``)."""
    text = f"hit roll: {unit_id} {weapon.name} x{n} at {target}"
    if weapon.written_WS is not None and weapon.written_WS != weapon.WS:
        who = ", ".join(models)
        text += (f" (needs {weapon.WS}+, not the written {weapon.written_WS}+: {who} "
                 f"{'is' if len(models) == 1 else 'are'} Disgraced, WS halved; "
                 f"[rules] disgraced_hit_roll = halved-ws)")
    return text


# ---------------------------------------------------------------- the attacks as a job
@dataclass(frozen=True)
class Group:
    """One weapon group's attacks under way: its target, weapon and models, the stage it is at
    and what it has counted so far (the ``attacks_resolved`` summary's fields)."""

    target: str
    weapon: Weapon
    models: tuple[str, ...]
    stage: str = "start"
    defender: str = ""
    attacks: int = 0
    hits: int = 0
    crits: int = 0
    extra: int = 0
    auto: int = 0
    wounded: int = 0
    critical_wounds: int = 0
    devastating: int = 0
    k: int = 0                      # the wound being allocated
    unsaved: int = 0
    mortal: int = 0                 # mortal wounds (devastating_wounds = "mortal") to deal
    mortal_left: int = 0
    model: str | None = None        # the model the wound (or mortal wounds) went to
    damage: int = 0
    after_fnp: str = "alloc"        # where to go after the damage is dealt
    removed: tuple[str, ...] = ()
    fnp_ignored: int = 0
    note: str | None = None
    batch: int = 0                  # wounds whose saves are rolled together (``FAST_SAVES``) ...
    queued: int = 0                 # ... and how many of them failed, still to be dealt

    def ahead(self) -> tuple[Any, ...]:
        """What the rest of the group's attacks read, for merging equal states in the odds
        walk: the stage, target, weapon and models, and of the counts only those a later
        stage still reads (the hits and critical hits until the wound roll, the wounds to
        allocate and the wound under way after it).  The ``attacks_resolved`` summary's
        other counts are left out: two histories that differ only in them fight on alike."""
        head = (self.stage, self.target, self.weapon, self.models, self.defender)
        if self.stage in ("start", "attacks"):
            return head
        if self.stage in ("hit", "hits"):
            return head + (self.attacks,)
        if self.stage == "sustained":
            ab = self.weapon.abilities
            return head + (self.hits, self.crits if ab.lethal_hits or ab.sustained_hits else 0)
        if self.stage == "extra":
            return head + (self.hits, self.auto)
        if self.stage == "wound":
            return head + (self.hits + self.extra - self.auto, self.auto)
        if self.stage == "wounds":
            return head + (self.auto,)
        return head + (self.auto + self.wounded - self.k, self.devastating, self.mortal,
                       self.mortal_left, self.model, self.damage, self.after_fnp, self.batch,
                       self.queued)

    def summary(self, unit_id: str, player: str) -> dict[str, Any]:
        out: dict[str, Any] = {
            "unit": unit_id, "player": player, "target": self.target, "weapon": self.weapon.name,
            "models": list(self.models), "attacks": self.attacks, "hits": self.hits + self.extra,
            "wounds": self.auto + self.wounded, "unsaved": self.unsaved,
            "removed": list(self.removed), "critical_hits": self.crits,
            "extra_hits": self.extra, "auto_wounds": self.auto,
            "critical_wounds": self.critical_wounds, "mortal_wounds": self.mortal,
            "fnp_ignored": self.fnp_ignored}
        if self.note is not None:
            out["note"] = self.note
        return out


@dataclass(frozen=True)
class AttackJob:
    """``unit`` makes its attacks (``resolve_attacks``'s steps), then the phase goes on at
    ``then``.  ``groups`` are the weapon groups still to attack (the first under way);
    ``asked`` is False until the ``attack_target`` question is answered."""

    unit: str
    player: str
    rule: str
    then: str
    asked: bool = False
    groups: tuple[Group, ...] = ()


def start(unit_id: str, player: str, rule: str, then: str) -> AttackJob:
    """The attacks of ``unit_id`` (``rule``: ``ATTACKS_RULE`` or ``OVERRUN_ATTACKS_RULE``)."""
    return AttackJob(unit_id, player, rule, then)


Step = tuple[Any, ...]   # what ``advance`` returns: ("goto", row) | ("wait", pending) | ("more",)


def target_question(state: Battlefield, job: AttackJob) -> tuple[Question | None, list[Event]]:
    """The ``attack_target`` question (``ATTACK_TARGET``), or None with a ``no_attacks`` event
    when no model of the unit can fight."""
    fighters = which_models_fight(geometry(state), job.unit)
    if not fighters:
        return None, [NoAttacks(rule=job.rule, **{
            "unit": job.unit, "player": job.player,
            "reason": "no model is within engagement range of an enemy model or in base "
                      "contact with a model of its unit that touches one"})]
    order = {u.id: k for k, u in enumerate(state.units)}
    targets = sorted({t for ts in fighters.values() for t in ts}, key=lambda u: order[u])
    count = {t: sum(t in ts for ts in fighters.values()) for t in targets}
    default = max(targets, key=lambda t: (count[t], -order[t]))
    return Question(job.player, "attack_target", tuple(targets), default, job.rule,
                    (("unit", job.unit),)), []


def groups_for(state: Battlefield, job: AttackJob, preferred: str) -> tuple[tuple[Group, ...], list[Event]]:
    """The weapon groups (``MELEE_WEAPON``; attacks at ``preferred`` first, then file order)."""
    fighters = which_models_fight(geometry(state), job.unit)
    order = {u.id: k for k, u in enumerate(state.units)}
    events: list[Event] = []
    groups: dict[tuple[str, tuple], tuple[Weapon, list[str]]] = {}
    for m, ts in fighters.items():
        target = preferred if preferred in ts else ts[0]
        weapon = melee_weapon(state, state.model(m))
        if weapon is None:
            events.append(NoAttacks(rule=job.rule, **{
                "unit": job.unit, "model": m, "player": job.player,
                "reason": "the model has no melee weapon (no weapon with a WS)"}))
            continue
        groups.setdefault((target, weapon.key), (weapon, []))[1].append(m)
    keys = sorted(groups, key=lambda k: (k[0] != preferred, order[k[0]]))
    return tuple(Group(k[0], groups[k][0], tuple(groups[k][1])) for k in keys), events


def _chance(purpose: str, rule: str, outcomes: counts.Dist, player: str | None,
            draw: Any) -> Chance:
    return Chance(purpose, rule, tuple(outcomes), player, draw)


def advance(state: Battlefield, job: AttackJob) -> tuple[Battlefield, AttackJob, list[Event],
                                                          Chance | None, list[Any]]:
    """Work the attacks on until a chance is needed or every group is done.

    Returns (table, job, events, the chance to wait for or None when the attacks are over,
    models removed).
    """
    events: list[Event] = []
    dead: list[Any] = []
    groups = job.groups                 # the job is made once, when the attacks stop
    while groups:
        g = groups[0]
        state, g, ch = _step(state, job, g, events, dead)
        if ch is not None:
            return state, evolve(job, groups=(g,) + groups[1:]), events, ch, dead
        groups = groups[1:] if g.stage == "over" else (g,) + groups[1:]
    return state, evolve(job, groups=()) if job.groups else job, events, None, dead


def _step(state: Battlefield, job: AttackJob, g: Group, events: list[Event], dead: list[Any]
          ) -> tuple[Battlefield, Group, Chance | None]:
    """One stage of a group: the group after it, and the chance it waits for (or None)."""
    w, ab, rule, player = g.weapon, g.weapon.abilities, job.rule, job.player
    cap = state.rules.roll_modifier_cap
    if g.stage == "start":
        if not state.has_unit(g.target):
            events.append(AttacksResolved(rule=rule, **{
                **g.summary(job.unit, player),
                "note": f"{g.target} was destroyed before these attacks: they are lost"}))
            return state, evolve(g, stage="over"), None
        g = evolve(g, defender=state.unit(g.target).player)
        amounts = tuple(w.A for _ in g.models)
        if all(isinstance(a, int) for a in amounts):
            return state, evolve(g, stage="hit", attacks=sum(amounts)), None  # type: ignore[arg-type]

        def draw_attacks(dice: Any) -> int:
            return sum(roll_amount(dice, w.A, f"attacks of {m}'s {w.name}", player, rule)
                       for m in g.models)
        return state, evolve(g, stage="attacks"), _chance(
            f"attacks of {job.unit}'s {w.name}", rule, amounts_dist(amounts), player, draw_attacks)
    if g.stage == "hit":
        n = g.attacks
        if n == 0:
            return state, evolve(g, stage="sustained"), None
        hit_mods = capped({f"{ab.hit_modifier:+d} to hit": ab.hit_modifier}, cap)
        purpose = hit_purpose(job.unit, w, n, g.target, g.models)

        chained = _chain(state, job, g, n, hit_mods, purpose)
        if chained is not None:
            return state, evolve(g, stage="chain"), chained
        read_crits = bool(ab.lethal_hits or ab.sustained_hits)

        def draw_hits(dice: Any) -> Any:
            faces = _roll_test(dice, n, purpose, w.WS, hit_mods, CRITICAL_HIT, ab.reroll_hits,
                               player, rule)
            hits = sum(_success(x, w.WS, hit_mods[0], CRITICAL_HIT) for x in faces)
            return _counted(hits, sum(x >= CRITICAL_HIT for x in faces), read_crits)
        return state, evolve(g, stage="hits"), _chance(
            purpose, rule, _read(roll_dist(n, w.WS, hit_mods[0], CRITICAL_HIT, ab.reroll_hits),
                                 read_crits), player, draw_hits)
    if g.stage == "sustained":
        auto = g.crits if ab.lethal_hits else 0      # Lethal Hits: wounds without a wound roll
        g = evolve(g, auto=auto, stage="wound")
        if not (g.crits and ab.sustained_hits):
            return state, g, None
        if not isinstance(ab.sustained_hits, DiceExpr):
            return state, evolve(g, extra=g.crits * ab.sustained_hits), None
        crits, amount = g.crits, ab.sustained_hits

        def draw_extra(dice: Any) -> int:
            return sum(roll_amount(dice, amount, f"sustained hits of a critical hit ({w.name})",
                                   player, rule) for _ in range(crits))
        return state, evolve(g, stage="extra"), _chance(
            f"sustained hits ({w.name})", rule, amounts_dist((amount,) * crits), player,
            draw_extra)
    if g.stage == "wound":
        need, mods, critical_at, purpose = _wound_spec(state, job, g)
        rolled = g.hits + g.extra - g.auto
        if rolled <= 0:
            return state, evolve(g, stage="alloc"), None

        read_crits = bool(ab.devastating_wounds)

        def draw_wounds(dice: Any) -> Any:
            faces = _roll_test(dice, rolled, purpose, need, mods, critical_at, ab.reroll_wounds,
                               player, rule)
            wounded = [x for x in faces if _success(x, need, mods[0], critical_at)]
            return _counted(len(wounded), sum(x >= critical_at for x in wounded), read_crits)
        return state, evolve(g, stage="wounds"), _chance(
            purpose, rule, _read(roll_dist(rolled, need, mods[0], critical_at, ab.reroll_wounds),
                                 read_crits), player, draw_wounds)
    if g.stage == "alloc":
        total = g.auto + g.wounded
        if g.k >= total:
            return state, evolve(g, stage="finish"), None
        if g.queued and isinstance(w.D, int) and _no_feel_no_pain(state, g.target):
            return (*_deal_queued(state, job, g, w.D, events, dead), None)   # DEAL_TOGETHER
        model_id = allocate(state, placed_geometry(state), g.target)
        if model_id is None:
            return state, evolve(g, stage="finish",
                                  note=f"{g.target} was destroyed: the remaining wounds are lost"), None
        model = state.model(model_id)
        g = evolve(g, model=model_id)
        if g.k >= total - g.devastating:
            if state.rules.devastating_wounds == "mortal":
                if isinstance(w.D, int):
                    return state, evolve(g, mortal=g.mortal + w.D, unsaved=g.unsaved + 1,
                                          k=g.k + 1), None

                def draw_mortal(dice: Any) -> int:
                    return roll_amount(dice, w.D, f"mortal wounds of {w.name} (devastating wounds)",
                                       player, rule)
                return state, evolve(g, stage="mortal_amount"), _chance(
                    f"mortal wounds of {w.name}", rule, amount_dist(w.D), player, draw_mortal)
            events.append(NoSave(rule=rule, model=model_id, player=g.defender, needed=None,
                                 reason="Devastating Wounds: a critical wound allows no save of any kind"))
            return state, evolve(g, stage="damage", unsaved=g.unsaved + 1), None
        if g.queued:                    # a failed save of the ones rolled together
            return state, evolve(g, stage="damage", unsaved=g.unsaved + 1, queued=g.queued - 1), None
        sv_need, kind, sv_mods = _save_spec(model, w)
        batch = total - g.devastating - g.k
        if sv_need <= 6 and batch > 1 and _same_save(state, g.target, w):
            return state, evolve(g, stage="saves", batch=batch), _saves_chance(
                g.target, batch, sv_need, kind, sv_mods, g.defender, rule)
        if sv_need > 6:
            events.append(NoSave(rule=rule, model=model_id, player=g.defender, needed=sv_need,
                                 reason=f"Sv {characteristic(model, 'Sv')}+ with AP {w.AP} needs "
                                        f"{sv_need}+: no save is possible"))
            return state, evolve(g, stage="damage", unsaved=g.unsaved + 1), None
        defender = g.defender

        def draw_save(dice: Any) -> bool:
            face = dice.roll(1, purpose=f"{kind} save: {model_id}", rule=rule, player=defender,
                             target=sv_need, modifiers=sv_mods,
                             result=lambda f: "saved" if succeeds(f[0], sv_need, False)
                             else "failed")[0]
            return succeeds(face, sv_need, six_always=False)
        p = Fraction(sum(succeeds(f, sv_need, False) for f in range(1, 7)), 6)
        outcomes = tuple((v, q) for v, q in ((False, 1 - p), (True, p)) if q)
        return state, evolve(g, stage="save"), _chance(
            f"{kind} save: {model_id}", rule, outcomes, defender, draw_save)
    if g.stage == "damage":
        g = evolve(g, after_fnp="alloc")
        if isinstance(w.D, int):
            return state, evolve(g, stage="fnp", damage=w.D), None
        model_id = g.model

        def draw_damage(dice: Any) -> int:
            return roll_amount(dice, w.D, f"damage of {w.name} to {model_id}", player, rule)
        return state, evolve(g, stage="damage_roll"), _chance(
            f"damage of {w.name}", rule, amount_dist(w.D), player, draw_damage)
    if g.stage == "fnp":
        model_id, damage = g.model, g.damage
        assert model_id is not None
        fnp = feel_no_pain(state.model(model_id))
        if fnp is not None and damage > 0:
            defender = g.defender

            def draw_fnp(dice: Any) -> int:
                faces = dice.roll(damage, purpose=f"feel no pain: {model_id}", rule=rule,
                                  player=defender, target=fnp,
                                  result=lambda f: f"{sum(x >= fnp for x in f)} ignored")
                return sum(x >= fnp for x in faces)
            return state, evolve(g, stage="fnp_roll"), _chance(
                f"feel no pain: {model_id}", rule, counts.successes(damage, Fraction(7 - fnp, 6)),
                defender, draw_fnp)
        state, g = _suffer(state, job, g, events, dead)
        return state, g, None
    if g.stage == "fnp_done":           # Feel No Pain rolled: what it did not ignore is lost
        if g.damage == 0:
            return state, evolve(g, stage=g.after_fnp, k=g.k + (g.after_fnp == "alloc")), None
        state, g = _suffer(state, job, g, events, dead)
        return state, g, None
    if g.stage == "finish":
        if not g.mortal:
            return state, evolve(g, stage="done"), None
        events.append(MortalWounds(rule=rule, unit=job.unit, target=g.target, player=g.defender,
                                   amount=g.mortal,
                                   reason="Devastating Wounds: critical wounds' damage as mortal wounds, which "
                                          "spill over to the next model"))
        return state, evolve(g, stage="mortal", mortal_left=g.mortal), None
    if g.stage == "mortal":
        if g.mortal_left <= 0:
            return state, evolve(g, stage="done"), None
        model_id = allocate(state, placed_geometry(state), g.target)
        if model_id is None:
            return state, evolve(
                g, stage="done",
                note=f"{g.target} was destroyed: the remaining mortal wounds are lost"), None
        model = state.model(model_id)
        points = min(g.mortal_left, characteristic(model, "W") - model.wounds_lost)
        return state, evolve(g, stage="fnp", model=model_id, damage=points,
                              mortal_left=g.mortal_left - points, after_fnp="mortal"), None
    if g.stage == "done":
        events.append(AttacksResolved(rule=rule, **g.summary(job.unit, player)))
        return state, evolve(g, stage="over"), None
    raise AssertionError(f"attack stage {g.stage!r} waits for a chance")


def _no_feel_no_pain(state: Battlefield, unit_id: str) -> bool:
    """Whether no model of ``unit_id`` (on the table) has a Feel No Pain; kept with the
    ``Unit`` (frozen)."""
    if not state.has_unit(unit_id):
        return True
    unit = state.unit(unit_id)
    got = unit.__dict__.get("_no_fnp")
    if got is None:
        got = all(feel_no_pain(m) is None for m in unit.models)
        object.__setattr__(unit, "_no_fnp", got)
    return got


def _deal_queued(state: Battlefield, job: AttackJob, g: Group, damage: int, events: list[Event],
                 dead: list[Any]) -> tuple[Battlefield, Group]:
    """The group's queued failed saves dealt in one go (``DEAL_TOGETHER``): the table and
    group as dealing them one at a time (``damage``, ``fnp``, ``_suffer``) leave them."""
    state, evs, went, removed = deal_wounds(state, placed_geometry(state), g.target, g.queued,
                                            damage, by=job.unit, rule=job.rule)
    events.extend(evs)
    dead.extend((m, g.defender) for m in removed)
    n = len(went)
    if not n:
        return state, evolve(g, stage="finish",
                             note=f"{g.target} was destroyed: the remaining wounds are lost")
    return state, evolve(g, stage="alloc", model=went[-1], damage=damage, after_fnp="alloc",
                         unsaved=g.unsaved + n, queued=g.queued - n, k=g.k + n,
                         removed=g.removed + tuple(m.id for m in removed))


def _suffer(state: Battlefield, job: AttackJob, g: Group, events: list[Event],
            dead: list[Any]) -> tuple[Battlefield, Group]:
    """The group's current damage to its model (``DAMAGE``); the group moves on."""
    nxt = g.after_fnp
    k = g.k + 1 if nxt == "alloc" else g.k
    assert g.model is not None
    state, evs, removed = lose_wounds(state, g.model, g.damage, by=job.unit, rule=job.rule)
    events.extend(evs)
    if removed is not None:
        dead.append((removed, g.defender))
        g = evolve(g, removed=g.removed + (g.model,))
    return state, evolve(g, stage=nxt, k=k)


def answer(job: AttackJob, value: Any) -> AttackJob:
    """The job with the chance of its first group answered by ``value``."""
    g = job.groups[0]
    w = g.weapon
    if g.stage == "attacks":
        g = evolve(g, stage="hit", attacks=value)
    elif g.stage == "hits":
        hits, crits = outcome_of(value)
        g = evolve(g, stage="sustained", hits=hits, crits=_crits(value, crits))
    elif g.stage == "extra":
        g = evolve(g, stage="wound", extra=value)
    elif g.stage == "wounds":
        wounded, crits = outcome_of(value)
        g = evolve(g, stage="alloc", wounded=wounded, critical_wounds=_crits(value, crits),
                   devastating=crits if w.abilities.devastating_wounds else 0)
    elif g.stage == "mortal_amount":
        g = evolve(g, stage="alloc", mortal=g.mortal + value, unsaved=g.unsaved + 1, k=g.k + 1)
    elif g.stage == "chain":          # value: failed saves; the drawn dice: (hits, crits, wounds, crit wounds)
        failed = outcome_of(value)
        shown = detail_of(value)
        if shown is None:
            g = evolve(g, stage="alloc", wounded=failed, queued=failed)
        else:
            hits, crits, wounded, crit_wounds = shown
            g = evolve(g, stage="alloc", hits=hits, crits=crits, wounded=wounded,
                       critical_wounds=crit_wounds, k=wounded - failed, queued=failed)
    elif g.stage == "saves":          # value: how many of the batch failed
        g = evolve(g, stage="alloc", k=g.k + g.batch - value, queued=value, batch=0)
    elif g.stage == "save":
        g = evolve(g, stage="alloc", k=g.k + 1) if value else evolve(
            g, stage="damage", unsaved=g.unsaved + 1)
    elif g.stage == "damage_roll":
        g = evolve(g, stage="fnp", damage=value, after_fnp="alloc")
    elif g.stage == "fnp_roll":
        g = evolve(g, stage="fnp_done", damage=g.damage - value, fnp_ignored=g.fnp_ignored + value)
    else:
        raise AssertionError(f"attack stage {g.stage!r} has no chance")
    return evolve(job, groups=(g,) + job.groups[1:])
