"""Allocating attacks, losing wounds and removing casualties (the standard Making Attacks sequence).

Named defaults (fight-phase.txt cites "Making Attacks (04)" without giving it):

- ``ALLOCATE_WOUNDED_FIRST``: an attack is allocated to a model of the
  target unit that has already lost wounds, if there is one (the one with
  most wounds lost, then the removal order below);
- ``REMOVAL_ORDER``: otherwise to the model the defender would remove first:
  one whose removal leaves the rest of the unit in coherency, farthest from
  the nearest enemy model (``tabletop.geometry.removal.removal_order``);
- a model whose wounds lost reach its ``W`` is removed as a casualty at
  once; excess damage is lost; a unit with no models left is destroyed.
"""

from __future__ import annotations

from dataclasses import replace

from tabletop.board.state import Battlefield, Model
from tabletop.geometry import Geometry
from tabletop.geometry.removal import removal_order
from tabletop.rules.events import Destroyed, Event, Removed, Wounded
from tabletop.rules.fight_phase.context import carry_geometry
from tabletop.rules.fight_phase.profiles import characteristic

ALLOCATE_WOUNDED_FIRST = True
REMOVAL_ORDER = "keeps coherency, then farthest from the enemy"
ATTACKS_RULE = "fight-phase.txt 12.05 (Making Attacks 04, standard sequence)"
#: the attacks of an overrun fight (12.06 "then fights as described in Making Attacks (04)")
OVERRUN_ATTACKS_RULE = "fight-phase.txt 12.06 (Making Attacks 04, standard sequence)"


_ORDER: dict[tuple[int, str], tuple[Geometry, list[str]]] = {}


def _removal_order(geo: Geometry, unit_id: str) -> list[str]:
    """``removal_order``, worked out once per snapshot and unit (it reads only positions)."""
    hit = _ORDER.get((id(geo), unit_id))
    if hit is not None and hit[0] is geo:
        return hit[1]
    order = removal_order(geo, unit_id)
    if len(_ORDER) >= 4096:
        _ORDER.pop(next(iter(_ORDER)))
    _ORDER[(id(geo), unit_id)] = (geo, order)
    return order


def allocate(state: Battlefield, geo: Geometry, unit_id: str) -> str | None:
    """The model of ``unit_id`` the next attack is allocated to, or None when none is left.

    ``geo`` is the snapshot of ``state`` (or of a table with the same models where they
    are: allocation reads wounds lost from ``state``)."""
    if not state.has_unit(unit_id):
        return None
    order = _removal_order(geo, unit_id)
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
    events = [Wounded(rule=rule, **{"model": model_id, "unit": m.unit_id, "damage": damage,
                                      "wounds_lost": now, "wounds_left": w - now})]
    if now < w:
        return carry_geometry(state, state.with_models([replace(m, wounds_lost=now)])), events, None
    state = carry_geometry(state, state.without_models([model_id]), (model_id,))
    events.append(Removed(rule=rule, **{"model": model_id, "unit": m.unit_id, "by": by}))
    if not state.has_unit(m.unit_id):
        events.append(Destroyed(rule=rule, **{
            "unit": m.unit_id,
            "reason": f"its last model was removed as a casualty (attacks by {by})"}))
    return state, events, m
