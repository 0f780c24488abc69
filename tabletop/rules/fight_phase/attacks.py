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
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tabletop.geometry import Geometry
from tabletop.rules.fight_phase.casualties import ATTACKS_RULE, allocate, lose_wounds
from tabletop.rules.fight_phase.abilities import (
    CRITICAL_HIT,
    CRITICAL_WOUND,
    LANCE_BONUS,
    capped,
    feel_no_pain,
    keyword_key,
)
from tabletop.rules.fight_phase.profiles import (
    Amount,
    DiceExpr,
    Weapon,
    characteristic,
    invulnerable,
    melee_weapon,
)

if TYPE_CHECKING:
    from tabletop.rules.fight_phase.context import PhaseContext

WHICH_MODELS_FIGHT = ("within engagement range of an enemy model, or in base contact with a "
                      "friendly model of its unit that is in base contact with an enemy model")
ATTACK_TARGET = "the enemy unit the most fighting models can attack, then file order"
WOUND_TOUGHNESS = "the highest T among the target unit's models"


def which_models_fight(geo: Geometry, unit_id: str) -> dict[str, list[str]]:
    """``{model id: [enemy unit ids it may attack]}`` for the models of ``unit_id`` that fight.

    Unit ids in file order; models that cannot fight are left out
    (``WHICH_MODELS_FIGHT``).
    """
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


def roll_amount(ctx: PhaseContext, amount: Amount, purpose: str, player: str,
                rule: str = ATTACKS_RULE) -> int:
    """A number as is; a dice expression rolled and logged (D3 = a D6 halved, rounding up)."""
    if isinstance(amount, int):
        return amount
    assert isinstance(amount, DiceExpr)
    if amount.sides == 6:
        faces = ctx.dice.roll(amount.n, 6, purpose=f"{purpose} ({amount})", rule=rule,
                              player=player, result=lambda f: sum(f) + amount.plus)
        return sum(faces) + amount.plus
    faces = ctx.dice.faces(amount.n, 6)
    value = sum((f + 1) // 2 for f in faces) + amount.plus
    ctx.dice.record(f"{purpose} ({amount}, a D6 halved rounding up)", faces, rule=rule,
                    player=player, result=value)
    return value


def _toughness(ctx: PhaseContext, unit_id: str) -> int:
    return max(characteristic(m, "T") for m in ctx.state.unit(unit_id).models)


def resolve_attacks(ctx: PhaseContext, unit_id: str, rule: str = ATTACKS_RULE) -> None:
    """``unit_id`` makes its attacks (``WHICH_MODELS_FIGHT`` .. ``DAMAGE``).

    Emits ``no_attacks`` when no model can fight, ``roll`` events, ``no_save``,
    ``mortal_wounds``, ``wounded``, ``removed``, ``destroyed`` and one
    ``attacks_resolved`` per target and weapon {unit, target, weapon, models,
    attacks, hits, wounds, unsaved, removed, critical_hits, extra_hits,
    auto_wounds, critical_wounds, mortal_wounds, fnp_ignored} (``hits``
    counts Sustained Hits' extra hits, ``wounds`` Lethal Hits' automatic
    ones), each citing ``rule``: ``ATTACKS_RULE`` (12.05, a normal fight)
    or ``OVERRUN_ATTACKS_RULE`` (12.06, an overrun fight).  Changes
    ``ctx.state`` (wounds lost, casualties removed).
    """
    player = ctx.state.unit(unit_id).player
    fighters = which_models_fight(ctx.geo, unit_id)
    if not fighters:
        ctx.log.emit("no_attacks", rule, unit=unit_id, player=player,
                     reason="no model is within engagement range of an enemy model or in base "
                            "contact with a model of its unit that touches one")
        return
    order = {u.id: k for k, u in enumerate(ctx.state.units)}
    targets = sorted({t for ts in fighters.values() for t in ts}, key=lambda u: order[u])
    count = {t: sum(t in ts for ts in fighters.values()) for t in targets}
    default = max(targets, key=lambda t: (count[t], -order[t]))
    preferred = ctx.decisions.choose(player, "attack_target", targets, default=default,
                                     rule=rule, context={"unit": unit_id})
    groups: dict[tuple[str, tuple], tuple[Weapon, list[str]]] = {}
    for m, ts in fighters.items():
        target = preferred if preferred in ts else ts[0]
        weapon = melee_weapon(ctx.state, ctx.state.model(m))
        if weapon is None:
            ctx.log.emit("no_attacks", rule, unit=unit_id, model=m, player=player,
                         reason="the model has no melee weapon (no weapon with a WS)")
            continue
        groups.setdefault((target, weapon.key), (weapon, []))[1].append(m)
    keys = sorted(groups, key=lambda k: (k[0] != preferred, order[k[0]]))
    for key in keys:
        weapon, models = groups[key]
        _attack_with(ctx, unit_id, player, key[0], weapon, models, rule)


def _success(face: int, need: int, mod: int, critical_at: int) -> bool:
    """A critical (unmodified ``critical_at``+) always succeeds, an unmodified 1 always fails."""
    if face >= critical_at:
        return True
    if face == 1:
        return False
    return face + mod >= need


def _roll_test(ctx: PhaseContext, n: int, purpose: str, need: int, mods: tuple[int, dict],
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

    faces = ctx.dice.roll(n, purpose=purpose, rule=rule, player=player, target=need,
                          modifiers=logged, result=ok)
    if reroll is None:
        return faces
    again = [k for k, x in enumerate(faces) if not _success(x, need, mod, critical_at)
             and (reroll == "failed" or x == 1)]
    if again:
        kind, _, detail = purpose.partition(": ")
        new = ctx.dice.roll(len(again), rule=rule, player=player,
                            purpose=f"{kind.removesuffix(' roll')} re-roll ({reroll}): {detail}",
                            target=need, modifiers=logged, result=ok)
        for k, x in zip(again, new):
            faces[k] = x
    return faces


def _has_keyword(ctx: PhaseContext, unit_id: str, word: str) -> bool:
    unit = ctx.state.unit(unit_id)
    words = list(unit.keywords) + [k for m in unit.models for k in m.keywords]
    return any(keyword_key(k) == word for k in words)


def _suffer(ctx: PhaseContext, model_id: str, damage: int, by: str, defender: str,
            rule: str, summary: dict[str, Any]) -> bool:
    """``damage`` to one model after its Feel No Pain (``FNP_DICE``); True when it is removed."""
    model = ctx.state.model(model_id)
    fnp = feel_no_pain(model)
    if fnp is not None and damage > 0:
        faces = ctx.dice.roll(damage, purpose=f"feel no pain: {model_id}", rule=rule,
                              player=defender, target=fnp,
                              result=lambda f: f"{sum(x >= fnp for x in f)} ignored")
        ignored = sum(x >= fnp for x in faces)
        summary["fnp_ignored"] += ignored
        damage -= ignored
        if damage == 0:
            return False
    return lose_wounds(ctx, model_id, damage, by=by, rule=rule)


def _attack_with(ctx: PhaseContext, unit_id: str, player: str, target: str, weapon: Weapon,
                 models: list[str], rule: str) -> None:
    ab = weapon.abilities
    cap = ctx.state.rules.roll_modifier_cap
    summary: dict[str, Any] = {"unit": unit_id, "player": player, "target": target,
                               "weapon": weapon.name, "models": models, "attacks": 0, "hits": 0,
                               "wounds": 0, "unsaved": 0, "removed": [], "critical_hits": 0,
                               "extra_hits": 0, "auto_wounds": 0, "critical_wounds": 0,
                               "mortal_wounds": 0, "fnp_ignored": 0}
    if not ctx.alive(target):
        ctx.log.emit("attacks_resolved", rule, **summary,
                     note=f"{target} was destroyed before these attacks: they are lost")
        return
    defender = ctx.state.unit(target).player
    n = sum(roll_amount(ctx, weapon.A, f"attacks of {m}'s {weapon.name}", player, rule)
            for m in models)
    summary["attacks"] = n
    # hit roll: Critical Hit on an unmodified 6 (CRITICAL_HIT), modifiers capped
    hit_mods = capped({f"{ab.hit_modifier:+d} to hit": ab.hit_modifier}, cap)
    faces = _roll_test(ctx, n, f"hit roll: {unit_id} {weapon.name} x{n} at {target}", weapon.WS,
                       hit_mods, CRITICAL_HIT, ab.reroll_hits, player, rule)
    crits = sum(x >= CRITICAL_HIT for x in faces)
    hits = sum(_success(x, weapon.WS, hit_mods[0], CRITICAL_HIT) for x in faces)
    extra = 0
    if crits and ab.sustained_hits:
        extra = sum(roll_amount(ctx, ab.sustained_hits, f"sustained hits of a critical hit "
                                f"({weapon.name})", player, rule) for _ in range(crits)) \
            if isinstance(ab.sustained_hits, DiceExpr) else crits * ab.sustained_hits
    auto = crits if ab.lethal_hits else 0       # Lethal Hits: wounds without a wound roll
    summary.update(hits=hits + extra, critical_hits=crits, extra_hits=extra, auto_wounds=auto)
    # wound roll: Critical Wound on an unmodified 6, or X+ of an Anti-KEYWORD the target has
    toughness = _toughness(ctx, target)
    need = wound_target(weapon.S, toughness)
    critical_at = min([CRITICAL_WOUND] + [x for word, x in ab.anti
                                          if _has_keyword(ctx, target, word)])
    lance = LANCE_BONUS if ab.lance and ctx.state.unit(unit_id).charged else 0
    wound_mods = capped({"Lance": lance, f"{ab.wound_modifier:+d} to wound": ab.wound_modifier},
                        cap)
    rolled = hits + extra - auto
    faces = _roll_test(ctx, rolled, f"wound roll: S{weapon.S} against T{toughness}", need,
                       wound_mods, critical_at, ab.reroll_wounds, player, rule)
    wounded = [x for x in faces if _success(x, need, wound_mods[0], critical_at)]
    critical_wounds = sum(x >= critical_at for x in wounded)
    devastating = critical_wounds if ab.devastating_wounds else 0
    summary.update(wounds=auto + len(wounded), critical_wounds=critical_wounds)
    # saves: ordinary wounds first, Devastating Wounds after them (no save of any kind)
    mortal = 0
    for k in range(auto + len(wounded)):
        is_devastating = k >= auto + len(wounded) - devastating
        model_id = allocate(ctx, target)
        if model_id is None:
            summary["note"] = f"{target} was destroyed: the remaining wounds are lost"
            break
        model = ctx.state.model(model_id)
        if is_devastating:
            if ctx.state.rules.devastating_wounds == "mortal":
                mortal += roll_amount(ctx, weapon.D, f"mortal wounds of {weapon.name} "
                                      f"(devastating wounds)", player, rule)
                summary["unsaved"] += 1
                continue
            ctx.log.emit("no_save", rule, model=model_id, player=defender, needed=None,
                         reason="Devastating Wounds: a critical wound allows no save of any kind")
            saved = False
        else:
            saved = _save(ctx, model_id, model, weapon, defender, rule)
        if saved:
            continue
        summary["unsaved"] += 1
        damage = roll_amount(ctx, weapon.D, f"damage of {weapon.name} to {model_id}", player,
                             rule)
        if _suffer(ctx, model_id, damage, unit_id, defender, rule, summary):
            summary["removed"].append(model_id)
    if mortal:
        _mortal_wounds(ctx, unit_id, target, mortal, defender, rule, summary)
    ctx.log.emit("attacks_resolved", rule, **summary)


def _save(ctx: PhaseContext, model_id: str, model: Any, weapon: Weapon, defender: str,
          rule: str) -> bool:
    """The saving throw against one wound (``SAVE_ROLL``); True when saved."""
    sv_need, kind = save_needed(characteristic(model, "Sv"), weapon.AP, invulnerable(model))
    mods = {"AP": weapon.AP} if kind == "armour" and weapon.AP else {}
    if sv_need > 6:
        ctx.log.emit("no_save", rule, model=model_id, player=defender, needed=sv_need,
                     reason=f"Sv {characteristic(model, 'Sv')}+ with AP {weapon.AP} needs "
                            f"{sv_need}+: no save is possible")
        return False
    face = ctx.dice.roll(1, purpose=f"{kind} save: {model_id}", rule=rule,
                         player=defender, target=sv_need, modifiers=mods,
                         result=lambda f: "saved" if succeeds(f[0], sv_need, False)
                         else "failed")[0]
    return succeeds(face, sv_need, six_always=False)


def _mortal_wounds(ctx: PhaseContext, unit_id: str, target: str, amount: int, defender: str,
                   rule: str, summary: dict[str, Any]) -> None:
    """``amount`` mortal wounds on ``target``, model after model (``devastating_wounds = "mortal"``).

    Each goes to the model ``allocate`` picks, as many as it has wounds left
    (after Feel No Pain), the rest to the next model; with no model left the
    rest are lost.
    """
    summary["mortal_wounds"] = amount
    ctx.log.emit("mortal_wounds", rule, unit=unit_id, target=target, player=defender,
                 amount=amount, reason="Devastating Wounds: critical wounds' damage as mortal "
                                       "wounds, which spill over to the next model")
    while amount > 0:
        model_id = allocate(ctx, target)
        if model_id is None:
            summary["note"] = f"{target} was destroyed: the remaining mortal wounds are lost"
            return
        model = ctx.state.model(model_id)
        points = min(amount, characteristic(model, "W") - model.wounds_lost)
        amount -= points
        if _suffer(ctx, model_id, points, unit_id, defender, rule, summary):
            summary["removed"].append(model_id)
