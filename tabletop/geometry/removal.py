"""Which model of a unit to remove as a casualty so the rest stay in coherency.

Coordinates are inches, origin bottom-left, y up.  The rules ask
``removal_order(geo, unit_id)`` for the order in which the defending player
would remove models (the fight-phase named default in
``tabletop.rules.fight_phase.casualties``): first the models whose removal
leaves the rest of the unit in coherency (03.03 as the map's ``[rules]``
set it), farthest from the nearest enemy model first; then the others, in
the same order.  Edge-to-edge gaps come from the snapshot, so the one
tolerance applies.
"""

from __future__ import annotations

import math

import numpy as np

from tabletop.geometry import tolerance as tolmod
from tabletop.geometry.snapshot import Geometry


def coherent_subset(geo: Geometry, gaps: np.ndarray, keep: list[int]) -> bool:
    """Whether the models at indices ``keep`` of ``gaps`` hold coherency on their own.

    ``gaps`` is the unit's edge-to-edge gap matrix (inches).  Fight-phase
    coherency (03.03): each model within ``coherency_range`` of
    ``coherency_needed(len(keep))`` others, and every pair within
    ``coherency_spread`` when that is set.  Rank-and-flank (``coherency_range``
    None): each model in base contact with another.  One model (or none) is
    always coherent.
    """
    n = len(keep)
    if n < 2:
        return True
    r = geo.rules
    sub = gaps[np.ix_(keep, keep)]
    off = ~np.eye(n, dtype=bool)
    if r.coherency_range is None:
        near = (tolmod.in_contact(sub, geo.tol) & off).sum(axis=1)
        return bool((near >= 1).all())
    need = r.coherency_needed(n)
    near = (tolmod.within(sub, r.coherency_range, geo.tol) & off).sum(axis=1)
    if (near < need).any():
        return False
    spread_ok = r.coherency_spread is None or bool(
        tolmod.within(sub[off], r.coherency_spread, geo.tol).all())
    return spread_ok


def connected_subset(geo: Geometry, gaps: np.ndarray, keep: list[int]) -> bool:
    """Whether the models at indices ``keep`` form one group: each reaches every other
    through models within ``coherency_range`` (in base contact, for rank-and-flank) of the
    next.  A unit split into two groups each in coherency can still hold 03.03, but the
    next casualty from either group may break it, so the removal order keeps one group
    where it can (``removal_order``)."""
    n = len(keep)
    if n < 2:
        return True
    r = geo.rules
    sub = gaps[np.ix_(keep, keep)]
    near = (tolmod.in_contact(sub, geo.tol) if r.coherency_range is None
            else tolmod.within(sub, r.coherency_range, geo.tol))
    seen = {0}
    todo = [0]
    while todo:
        i = todo.pop()
        for k in np.flatnonzero(near[i]):
            j = int(k)
            if j not in seen:
                seen.add(j)
                todo.append(j)
    return len(seen) == n


def removal_order(geo: Geometry, unit_id: str, without: frozenset[str] = frozenset()
                  ) -> list[str]:
    """Models of ``unit_id`` in the order a casualty should be removed.

    ``without``: model ids of the unit already removed from the table ``geo`` shows (no
    other model moved); the order is that of the table without them, as the snapshot
    of that table would give it (it reads only the gaps between the unit's models and
    each one's nearest enemy model, which removing models of the unit leaves alone).

    Returns
    -------
    list of model ids
        Models whose removal leaves the rest in coherency first, then the
        others; within the first, those whose removal leaves one group
        (``connected_subset``) first; within each group the model farthest (edge to edge) from its
        nearest enemy model first (distances compared in steps of the map's
        tolerance), ties broken by the later model id.  Empty
        for a unit with no models on the table.
    """
    ids, gaps = geo.unit_gaps(unit_id, without)
    if not ids:
        return []
    everyone = list(range(len(ids)))
    scored = []
    for k, mid in enumerate(ids):
        rest = [j for j in everyone if j != k]
        keeps = coherent_subset(geo, gaps, rest)
        whole = keeps and connected_subset(geo, gaps, rest)
        _, d = geo.nearest_enemy(mid)
        # distances within the one tolerance count as equal (bases all touching read 0.0002")
        far = math.floor(d / geo.tol) if math.isfinite(d) and geo.tol > 0 else d
        scored.append((0 if keeps else 1, 0 if whole else 1, -far, -k, mid))
    scored.sort()
    return [s[4] for s in scored]
