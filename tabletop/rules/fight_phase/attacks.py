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
    roll of at least WS; an unmodified 1 always fails, a 6 always hits.
``WOUND_ROLL``
    One D6 per hit against the target unit's Toughness (its highest T):
    S >= 2T needs 2+, S > T 3+, S == T 4+, S <= T/2 6+, otherwise (S < T) 5+;
    an unmodified 1 always fails, a 6 always wounds.
``SAVE_ROLL``
    Each wound is allocated (casualties.py) and saved on one D6: the
    modified save needed is Sv - AP, AP written 0/-1/-2 (so Sv 3 against
    AP -1 needs 4+); an invulnerable save (``Inv``) ignores AP and is used
    when it needs less; an unmodified 1 always fails; a save needing more
    than 6 is not rolled (``no_save`` event).
``DAMAGE``
    Each unsaved wound deals D (a number or dice) to the allocated model;
    damage beyond its remaining wounds is lost.

Every roll goes through ``Dice`` with purpose, modifiers, target, result
and player, so the CLI prints each as it happens.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tabletop.geometry import Geometry
from tabletop.rules.fight_phase.casualties import ATTACKS_RULE, allocate, lose_wounds
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

    Emits ``no_attacks`` when no model can fight, ``roll`` events, ``wounded``,
    ``removed``, ``destroyed`` and one ``attacks_resolved`` per target and
    weapon {unit, target, weapon, models, attacks, hits, wounds, unsaved,
    removed}, each citing ``rule``: ``ATTACKS_RULE`` (12.05, a normal fight)
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


def _attack_with(ctx: PhaseContext, unit_id: str, player: str, target: str, weapon: Weapon,
                 models: list[str], rule: str) -> None:
    summary: dict[str, Any] = {"unit": unit_id, "player": player, "target": target,
                               "weapon": weapon.name, "models": models, "attacks": 0, "hits": 0,
                               "wounds": 0, "unsaved": 0, "removed": []}
    if not ctx.alive(target):
        ctx.log.emit("attacks_resolved", rule, **summary,
                     note=f"{target} was destroyed before these attacks: they are lost")
        return
    defender = ctx.state.unit(target).player
    n = sum(roll_amount(ctx, weapon.A, f"attacks of {m}'s {weapon.name}", player, rule)
            for m in models)
    summary["attacks"] = n
    faces = ctx.dice.roll(n, purpose=f"hit roll: {unit_id} {weapon.name} x{n} at {target}",
                          rule=rule, player=player, target=weapon.WS, modifiers={},
                          result=lambda f: sum(succeeds(x, weapon.WS) for x in f)) if n else []
    hits = sum(succeeds(x, weapon.WS) for x in faces)
    summary["hits"] = hits
    need = wound_target(weapon.S, _toughness(ctx, target))
    faces = ctx.dice.roll(hits, purpose=f"wound roll: S{weapon.S} against T{_toughness(ctx, target)}",
                          rule=rule, player=player, target=need, modifiers={},
                          result=lambda f: sum(succeeds(x, need) for x in f)) if hits else []
    wounds = sum(succeeds(x, need) for x in faces)
    summary["wounds"] = wounds
    for _ in range(wounds):
        model_id = allocate(ctx, target)
        if model_id is None:
            summary["note"] = f"{target} was destroyed: the remaining wounds are lost"
            break
        model = ctx.state.model(model_id)
        sv_need, kind = save_needed(characteristic(model, "Sv"), weapon.AP, invulnerable(model))
        mods = {"AP": weapon.AP} if kind == "armour" and weapon.AP else {}
        if sv_need > 6:
            ctx.log.emit("no_save", rule, model=model_id, player=defender, needed=sv_need,
                         reason=f"Sv {characteristic(model, 'Sv')}+ with AP {weapon.AP} needs "
                                f"{sv_need}+: no save is possible")
            saved = False
        else:
            face = ctx.dice.roll(1, purpose=f"{kind} save: {model_id}", rule=rule,
                                 player=defender, target=sv_need, modifiers=mods,
                                 result=lambda f, need=sv_need: "saved" if succeeds(f[0], need, False)
                                 else "failed")[0]
            saved = succeeds(face, sv_need, six_always=False)
        if saved:
            continue
        summary["unsaved"] += 1
        damage = roll_amount(ctx, weapon.D, f"damage of {weapon.name} to {model_id}", player,
                             rule)
        if lose_wounds(ctx, model_id, damage, by=unit_id, rule=rule):
            summary["removed"].append(model_id)
    ctx.log.emit("attacks_resolved", rule, **summary)
