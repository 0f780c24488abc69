"""Allocating attacks, losing wounds and removing casualties (the standard Making Attacks sequence).

Named defaults (fight-phase.txt cites "Making Attacks (04)" without giving it):

- ``ALLOCATE_WOUNDED_FIRST``: an attack is allocated to a model of the
  target unit that has already lost wounds, if there is one (the one with
  most wounds lost, then the removal order below);
- ``REMOVAL_ORDER``: otherwise to the model the defender would remove first:
  one whose removal leaves the rest of the unit in coherency, then one whose
  removal leaves it one group (03.03 holds for two clumps, but the next
  casualty may then break it), then farthest from the nearest enemy model
  (``tabletop.geometry.removal.removal_order``);
- a model whose wounds lost reach its ``W`` is removed as a casualty at
  once; excess damage is lost; a unit with no models left is destroyed.
"""

from __future__ import annotations

from dataclasses import replace

from tabletop.board.frozen import evolve
from tabletop.board.state import Battlefield, Model, Unit
from tabletop.geometry import Geometry
from tabletop.geometry.removal import removal_order
from tabletop.rules.events import Destroyed, Event, Removed, Wounded
from tabletop.rules.fight_phase.context import carry_geometry, less_of
from tabletop.rules.fight_phase.profiles import characteristic

ALLOCATE_WOUNDED_FIRST = True
REMOVAL_ORDER = "keeps coherency, then one group, then farthest from the enemy"
ATTACKS_RULE = "fight-phase.txt 12.05 (Making Attacks 04, standard sequence)"
#: the attacks of an overrun fight (12.06 "then fights as described in Making Attacks (04)")
OVERRUN_ATTACKS_RULE = "fight-phase.txt 12.06 (Making Attacks 04, standard sequence)"


_ORDER: dict[tuple, tuple[Geometry | None, list[str]]] = {}
_KEPT = 4096


def _removal_order(geo: Geometry, unit_id: str, without: frozenset[str] = frozenset(),
                   placement: tuple | None = None) -> list[str]:
    """``removal_order`` (the unit without the models ``without``), worked out once per
    snapshot, unit and models removed; once per placement of the table's models; and once
    per set of what it reads (``_order_reads``: the unit's models left and each one's
    nearest enemy distance), so tables that differ only farther away share it.
    ``placement`` is the key ``context.geometry`` keeps with a table of ``geo``'s placement
    (terrain, and each model's id, place and facing), or None."""
    key: tuple = (id(geo), unit_id, without)
    hit = _ORDER.get(key)
    if hit is not None and hit[0] is geo:
        return hit[1]
    where = None
    known = None
    if placement is not None:
        if without:
            placement = (placement[0], tuple(e for e in placement[1] if e[0] not in without))
        where = (placement, unit_id)
        known = _ORDER.get(where)
    reads = None
    if known is None:
        reads = _order_reads(geo, unit_id, without)
        known = _ORDER.get(reads)
    order = known[1] if known is not None else removal_order(geo, unit_id, without)
    while len(_ORDER) >= _KEPT:
        _ORDER.pop(next(iter(_ORDER)))
    _ORDER[key] = (geo, order)
    if where is not None:
        _ORDER[where] = (None, order)
    if reads is not None:
        _ORDER[reads] = (None, order)
    return order


def _order_reads(geo: Geometry, unit_id: str, without: frozenset[str]) -> tuple:
    """What ``removal_order(geo, unit_id, without)`` reads (its docstring): the map's
    ``[rules]`` and tolerance, the unit's models left (in order, with base, place and facing:
    their gaps) and each one's distance to its nearest enemy model (the snapshot keeps those).
    Tables that differ farther away - models removed or moved in another fight, the enemy's
    casualties that were no model's nearest - give one key, so the order is worked out once."""
    state = geo.state
    models = tuple((m.id, m.base, m.x, m.y, m.facing_deg)
                   for m in (state.model(mid) for mid in geo.unit_models(unit_id))
                   if m.id not in without)
    return ("reads", geo.rules, geo.tol, unit_id, models,
            tuple([_nearest(geo, m[0])[1] for m in models]))


# id of a snapshot -> (it, {model id: (its nearest enemy model, the gap to it)})
_NEAREST: dict[int, tuple[Geometry, dict[str, tuple[str | None, float]]]] = {}


def _nearest(geo: Geometry, model_id: str) -> tuple[str | None, float]:
    """``geo.nearest_enemy(model_id)``, taken from the snapshot ``geo``'s table was made from
    by removing casualties (``context.less_of``) when that one knows it and its nearest enemy
    model is not among those removed: removing models brings no enemy nearer, and the same
    model stands at the same gap, so the nearest (the first in table order of equally near
    ones) and its gap are the same."""
    kept = _NEAREST.get(id(geo))
    if kept is None or kept[0] is not geo:
        while len(_NEAREST) >= _KEPT:
            _NEAREST.pop(next(iter(_NEAREST)))
        kept = _NEAREST[id(geo)] = (geo, {})
    known = kept[1]
    got = known.get(model_id)
    if got is None:
        less = less_of(geo)
        if less is not None:
            parent, removed = less
            was = _NEAREST.get(id(parent))
            if was is not None and was[0] is parent:
                got = was[1].get(model_id)
                if got is not None and (got[0] is None or got[0] in removed):
                    got = None
        if got is None:
            got = geo.nearest_enemy(model_id)
        known[model_id] = got
    return got


def allocate(state: Battlefield, geo: Geometry, unit_id: str) -> str | None:
    """The model of ``unit_id`` the next attack is allocated to, or None when none is left.

    ``geo`` is the snapshot of ``state`` (or of a table with the same models where they
    are: allocation reads wounds lost from ``state``)."""
    if not state.has_unit(unit_id):
        return None
    placement = state.__dict__.get("_geometry_key") \
        if state.__dict__.get("_geometry") is geo else None
    order = _removal_order(geo, unit_id, placement=placement)
    if not order:
        return None
    if ALLOCATE_WOUNDED_FIRST:
        wounded = [m for m in order if state.model(m).wounds_lost > 0]
        if wounded:
            return max(wounded, key=lambda m: (state.model(m).wounds_lost, -order.index(m)))
    return order[0]


def lose_wounds(state: Battlefield, model_id: str, damage: int, by: str,
                rule: str = ATTACKS_RULE) -> tuple[Battlefield, list[Event], Model | None]:
    """Apply ``damage`` to one model; remove it when its wounds lost reach W.

    Returns (the table after, the events, the model removed or None).
    Emits ``wounded`` {model, unit, damage, wounds_lost, wounds_left}; when
    the model dies ``removed`` {model, unit, by} and, for the unit's last
    model, ``destroyed`` {unit, reason}, each citing ``rule`` (the fight type's
    clause).
    """
    m = state.model(model_id)
    w = characteristic(m, "W")
    left = max(0, w - m.wounds_lost)
    lost = min(damage, left)
    now = m.wounds_lost + lost
    events: list[Event] = [Wounded(rule=rule, model=model_id, unit=m.unit_id, damage=damage,
                                   wounds_lost=now, wounds_left=w - now)]
    if now < w:
        return carry_geometry(state, state.with_models([replace(m, wounds_lost=now)])), events, None
    state = carry_geometry(state, state.without_models([model_id]), (model_id,))
    events.append(Removed(rule=rule, model=model_id, unit=m.unit_id, by=by))
    if not state.has_unit(m.unit_id):
        events.append(Destroyed(
            rule=rule, unit=m.unit_id,
            reason=f"its last model was removed as a casualty (attacks by {by})"))
    return state, events, m


#: (snapshot, unit, attacks, damage, by, rule) -> what ``deal_wounds`` did to that unit
_DEALT: dict[tuple, tuple] = {}


def deal_wounds(state: Battlefield, geo: Geometry, unit_id: str, n: int, damage: int, by: str,
                rule: str = ATTACKS_RULE) -> tuple[Battlefield, list[Event], list[str],
                                                   list[Model]]:
    """``n`` attacks of ``damage`` each (a number; no Feel No Pain to roll) allocated to
    ``unit_id`` and dealt one after another: the same as ``n`` rounds of ``allocate`` then
    ``lose_wounds``, made in one go.

    ``geo`` is the snapshot of ``state`` (or of a table with the same models where they
    are).  Each attack goes to the model ``allocate`` names on the table as the attacks
    before it left it (``ALLOCATE_WOUNDED_FIRST``, ``REMOVAL_ORDER``: the removal order of
    the unit without the models already removed, ``removal.removal_order``'s
    ``without``); dealing stops when the unit is destroyed.  Returns (the table after,
    the events ``lose_wounds`` would emit in the same order, the model each dealt attack
    went to, the models removed as they stood before their last wound).  The table after
    carries its geometry snapshot (``carry_geometry``).  What the attacks do to a unit
    depends only on the snapshot and the unit, so it is worked out once per (snapshot,
    unit, ``n``, ``damage``, ``by``, ``rule``).
    """
    if not state.has_unit(unit_id):
        return state, [], [], []
    unit = state.unit(unit_id)
    key = (id(geo), id(unit), n, damage, by, rule)
    hit = _DEALT.get(key)
    if hit is None or hit[0] is not geo or hit[1] is not unit:
        placement = state.__dict__.get("_geometry_key") \
            if state.__dict__.get("_geometry") is geo else None
        hit = (geo, unit) + _deal(geo, unit, n, damage, by, rule, placement)
        if len(_DEALT) >= _KEPT:
            _DEALT.pop(next(iter(_DEALT)))
        _DEALT[key] = hit
    _, _, after_unit, events, went, dead = hit
    if after_unit is unit:
        return state, list(events), list(went), list(dead)
    units = tuple(after_unit if u is unit else u for u in state.units
                  if u is not unit or after_unit is not None)
    after = carry_geometry(state, evolve(state, units=units), tuple(m.id for m in dead))
    return after, list(events), list(went), list(dead)


def _deal(geo: Geometry, unit: Unit, n: int, damage: int, by: str, rule: str,
          placement: tuple | None) -> tuple[Unit | None, tuple[Event, ...], tuple[str, ...],
                                            tuple[Model, ...]]:
    """``deal_wounds`` on the unit itself: (the unit after, or None when destroyed; the
    events; the model each attack went to; the models removed)."""
    unit_id = unit.id
    events: list[Event] = []
    went: list[str] = []
    dead: list[Model] = []
    models = {m.id: m for m in unit.models}
    lost = {mid: m.wounds_lost for mid, m in models.items()}
    gone: list[str] = []
    for _ in range(n):
        order = _removal_order(geo, unit_id, frozenset(gone), placement)
        if not order:
            break
        target = order[0]
        if ALLOCATE_WOUNDED_FIRST:
            wounded = [m for m in order if lost[m] > 0]
            if wounded:
                target = max(wounded, key=lambda m: (lost[m], -order.index(m)))
        m = models[target]
        if lost[target] != m.wounds_lost:       # as the table before this attack has it
            m = replace(m, wounds_lost=lost[target])
        w = characteristic(m, "W")
        now = lost[target] + min(damage, max(0, w - lost[target]))
        lost[target] = now
        went.append(target)
        events.append(Wounded(rule=rule, model=target, unit=unit_id, damage=damage,
                              wounds_lost=now, wounds_left=w - now))
        if now >= w:
            gone.append(target)
            dead.append(m)
            events.append(Removed(rule=rule, model=target, unit=unit_id, by=by))
            if len(gone) == len(models):
                events.append(Destroyed(
                    rule=rule, unit=unit_id,
                    reason=f"its last model was removed as a casualty (attacks by {by})"))
    after: Unit | None = unit
    if len(gone) == len(models):
        after = None
    elif any(lost[mid] != m.wounds_lost for mid, m in models.items()):
        out = set(gone)
        after = evolve(unit, models=tuple(
            m if lost[m.id] == m.wounds_lost else replace(m, wounds_lost=lost[m.id])
            for m in unit.models if m.id not in out))
    return after, tuple(events), tuple(went), tuple(dead)
