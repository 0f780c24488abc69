"""The wound pool and casualties (rank-and-flank-combat.txt "Damage save", "Commanders in combat").

Wounds are pooled across a unit; a model is removed each time the pool
reaches its Wounds.  A commander only takes wounds from an enemy commander,
or once its retinue is gone: wounds left after the last retinue model dies
carry over to it.

Named defaults
--------------
CASUALTY_ORDER = "rear rank first, ends inwards"
    Rank-and-file are removed from the rear rank first, from the ends of the
    rank inwards (right end first), so the rear rank stays centred and the
    ranks and frontage the geometry reads change as models die
    (``UnitFormation.casualty_order``).  A model already carrying wounds
    (``wounds_lost``) is removed first.
DUEL_OVERKILL = "lost"
    Wounds beyond what kills a commander in a duel count for the combat
    score but do not pass to its retinue.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tabletop.board.state import Battlefield
from tabletop.geometry.ranks import UnitFormation
from tabletop.rules.rank_and_flank import profiles as P

CASUALTY_ORDER = "rear rank first, ends inwards"
DUEL_OVERKILL = "lost"


@dataclass
class Casualties:
    """What a unit's wound pool did: ``removed`` model ids in order,
    ``wounded`` {model id: wounds_lost after}, ``carried`` wounds that passed
    to a commander, ``wasted`` wounds with nobody left to take them."""

    unit: str
    removed: list[str] = field(default_factory=list)
    wounded: dict[str, int] = field(default_factory=dict)
    carried: int = 0
    wasted: int = 0


def _wounds_left(state: Battlefield, mid: str, wounded: dict[str, int]) -> int:
    m = state.model(mid)
    return P.model_stat(m, "Wounds") - wounded.get(mid, m.wounds_lost)


def _take(state: Battlefield, mid: str, pool: int, cas: Casualties) -> int:
    left = _wounds_left(state, mid, cas.wounded)
    if pool >= left:
        cas.removed.append(mid)
        cas.wounded.pop(mid, None)
        return pool - left
    cas.wounded[mid] = cas.wounded.get(mid, state.model(mid).wounds_lost) + pool
    return 0


def allocate(state: Battlefield, form: UnitFormation, alive: set[str], pool: int,
             duel_wounds: dict[str, int] | None = None,
             cas: Casualties | None = None) -> Casualties:
    """Apply ``pool`` wounds to the unit's rank-and-file, then its commanders,
    and ``duel_wounds`` {commander id: wounds} straight to commanders.

    ``alive`` is the set of the unit's models still standing (updated in
    place as models are removed).
    """
    cas = cas or Casualties(form.unit)
    for cid, w in (duel_wounds or {}).items():
        if cid in alive and w > 0:
            rest = _take(state, cid, w, cas)
            if cid in cas.removed:
                alive.discard(cid)
            cas.wasted += rest
    if pool <= 0:
        return cas
    order = form.casualty_order(alive)
    hurt = [m for m in order if state.model(m).wounds_lost > 0 or m in cas.wounded]
    order = hurt + [m for m in order if m not in hurt]
    for mid in order:
        if pool <= 0:
            break
        pool = _take(state, mid, pool, cas)
        if mid in cas.removed:
            alive.discard(mid)
    if pool > 0:
        for cid in [m for m in form.commanders if m in alive]:
            cas.carried += pool
            pool = _take(state, cid, pool, cas)
            if cid in cas.removed:
                alive.discard(cid)
            if pool <= 0:
                break
    cas.wasted += max(0, pool)
    return cas
