"""Contact slots round the target units, assigned to the moving models all at once.

Pile-in (fight-phase.txt 12.03) and ongoing or engaging consolidation (12.08):
each moved model must end "engaged with [its closest target] if possible", and
the solver aims for base contact.  Taking the nearest free contact spot one
model at a time packs badly (a model touching one enemy model squarely blocks
the gap beside it, where a base would touch two); here every model's contact
spot is chosen together:

1. slots: spots in base contact with a model of a target unit (``SLOT_RING``
   round each, and the exact spots touching two target models at once), free
   of every base that does not move, on the table, reachable as the crow flies
   and keeping the model's own clauses (``MoveContext.ok_at``).  They are
   packed greedily, spots touching most target models first, then those
   nearest a moving model: a set of slots no two of which overlap;
2. assignment: models to slots, as many as can be, least total distance as the
   crow flies (``min_cost_assignment``, the Hungarian method).

The slots are measured from the target models' centres and ordered by rounded
distances (``TIE_DECIMALS``), so the same fight anywhere on the table gets the
same slots.  Models with different bases get slots in separate rounds, each
round's slots standing in the way of the next.  Inches, origin bottom-left, y up.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely

from tabletop.geometry.movespec import MoveContext
from tabletop.geometry.paths import Arena, Obstacle, free_at, ring_crossings, ring_offsets
from tabletop.geometry.sweeps import XY, cores_at, tie, ties

#: contact spots tried round each target model
SLOT_RING = 72
#: assignment cost of leaving a model without a slot (more than any sum of distances)
NO_SLOT = 1.0e4


@dataclass(frozen=True)
class Slot:
    """A spot in base contact with one or more target models."""

    xy: XY
    touches: tuple[str, ...]      # the target models it touches, the one it aims at first

    @property
    def aim(self) -> str:
        return self.touches[0]


def min_cost_assignment(cost: np.ndarray) -> list[int]:
    """The column for each row that minimises the total cost (Hungarian method).

    ``cost`` has shape (rows, cols) with rows <= cols, finite.  O(rows^2 cols);
    ties go the same way every time (rows and columns in order).  The costs
    are read as Python floats (one ``tolist``): the same numbers, read faster
    than numpy scalars one by one.
    """
    n, m = cost.shape
    if n > m:
        raise ValueError("more rows than columns")
    inf = float("inf")
    rows = np.asarray(cost, dtype=float).tolist()
    u = [0.0] * (n + 1)
    v = [0.0] * (m + 1)
    p = [0] * (m + 1)          # p[j]: the row (1-based) holding column j
    way = [0] * (m + 1)
    for i in range(1, n + 1):
        p[0] = i
        j0 = 0
        minv = [inf] * (m + 1)
        used = [False] * (m + 1)
        while True:
            used[j0] = True
            i0, delta, j1 = p[j0], inf, 0
            row, ui = rows[i0 - 1], u[i0]
            for j in range(1, m + 1):
                if not used[j]:
                    cur = row[j - 1] - ui - v[j]
                    if cur < minv[j]:
                        minv[j], way[j] = cur, j0
                    if minv[j] < delta:
                        delta, j1 = minv[j], j
            for j in range(m + 1):
                if used[j]:
                    u[p[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
    out = [-1] * n
    for j in range(1, m + 1):
        if p[j]:
            out[p[j] - 1] = j - 1
    return out


def assign_slots(ctx: MoveContext, arena: Arena, movers: list[str],
                 static: list[Obstacle]) -> dict[str, Slot]:
    """A contact slot for as many of ``movers`` as can have one.

    Parameters
    ----------
    movers : model ids that may move (in the order moves are made).
    static : every base that does not move (other units, the unit's models
        that stay), where it stands.

    Returns
    -------
    {model id: Slot}
        Models left out get no slot (they move toward their target as usual).
    """
    if ctx.objective is not None or not movers:
        return {}
    groups: dict[tuple, list[str]] = {}
    for mid in movers:
        m = ctx.models[mid]
        groups.setdefault((m.base, m.facing_deg), []).append(mid)
    out: dict[str, Slot] = {}
    taken: list[Obstacle] = []
    for (base, facing), group in groups.items():
        slots = _pack(ctx, arena, base, facing, group, [*static, *taken])
        if not slots:
            continue
        cost = np.full((len(group), len(slots) + len(group)), NO_SLOT)
        table = _slot_table(ctx, slots)
        for i, mid in enumerate(group):
            feasible, crow = _feasible(ctx, mid, slots, table)
            cost[i, :len(slots)] = np.where(feasible, ties(crow), NO_SLOT * 10.0)
        for i, j in enumerate(min_cost_assignment(cost)):
            if j < len(slots) and cost[i, j] < NO_SLOT:
                out[group[i]] = slots[j]
                taken.append(Obstacle(f"(slot {group[i]})", base, *slots[j].xy, facing))
    return out


def _feasible(ctx: MoveContext, mid: str, slots: list[Slot],
              table: tuple[np.ndarray, dict[str, np.ndarray]] | None = None
              ) -> tuple[np.ndarray, np.ndarray]:
    """For each slot: whether ``mid`` may take it, and the distance to it as the crow flies.

    ``table``: ``_slot_table(ctx, slots)``, when the caller asks about the same
    slots for several models (read once, not per model)."""
    xy, aims_in = table if table is not None else _slot_table(ctx, slots)
    start = ctx.start[mid]
    crow = np.hypot(xy[:, 0] - start[0], xy[:, 1] - start[1])
    ok = (crow <= ctx.spec.max_distance) & aims_in[ctx.target[mid]]
    if ok.any():
        idx = np.nonzero(ok)[0]
        ok[idx] &= ctx.ok_at(mid, xy[idx])
    return ok, crow


def _slot_table(ctx: MoveContext, slots: list[Slot]) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """The slots' centres (k, 2) and, by target unit, whether each aims at one of its models."""
    xy = np.array([s.xy for s in slots], dtype=float).reshape(-1, 2)
    aims_in = {}
    for u in set(ctx.target.values()):
        mine = set(ctx.target_models(u))
        aims_in[u] = np.array([s.aim in mine for s in slots], dtype=bool)
    return xy, aims_in


def _pack(ctx: MoveContext, arena: Arena, base, facing: float, group: list[str],
          standing: list[Obstacle]) -> list[Slot]:
    """Non-overlapping contact slots for bases like ``base`` that some of ``group`` may take."""
    units = []
    for mid in group:
        if ctx.target[mid] not in units:
            units.append(ctx.target[mid])
    by_id = {ob.id: ob for ob in standing}
    targets = [by_id[t] for u in units for t in ctx.target_models(u) if t in by_id]
    gap = arena.margin
    # the spots: a ring round each target model (in order), then where two rings
    # cross (pair by pair, ``itertools.combinations`` order); who each touches
    rings = [ring_offsets(base, facing, t.base, t.facing_deg, gap, SLOT_RING) + (t.x, t.y)
             for t in targets]
    touches: list[tuple[str, ...]] = [(t.id,) for t, ring in zip(targets, rings)
                                      for _ in range(len(ring))]
    crossings: list[XY] = []
    reach = 2.0 * base.radius + 2.0 * gap
    if len(targets) > 1:
        # pairs far apart by a clear margin are left out at once (numpy); the rest
        # are measured as before (``math.hypot``), so the same pairs cross
        txy = np.array([(t.x, t.y) for t in targets], dtype=float)
        tr = np.array([t.base.radius for t in targets], dtype=float)
        ia, ib = np.triu_indices(len(targets), 1)          # combinations order
        d = np.hypot(txy[ia, 0] - txy[ib, 0], txy[ia, 1] - txy[ib, 1])
        maybe = d <= tr[ia] + tr[ib] + reach + 1e-6
        for i, j in zip(ia[maybe].tolist(), ib[maybe].tolist()):
            a, b = targets[i], targets[j]
            if math.hypot(a.x - b.x, a.y - b.y) > a.base.radius + b.base.radius + reach + 1e-9:
                continue
            for p in ring_crossings(base, facing, a, gap, b, gap):
                crossings.append(p)
                touches.append((a.id, b.id))
    parts = [*rings, *([np.array(crossings, dtype=float)] if crossings else [])]
    if not parts:
        return []
    xy = np.vstack(parts).reshape(-1, 2)
    if not len(xy):
        return []
    starts = np.array([ctx.start[m] for m in group], dtype=float)
    crow = np.hypot(xy[:, None, 0] - starts[None, :, 0], xy[:, None, 1] - starts[None, :, 1])
    near = crow.min(axis=1) <= ctx.spec.max_distance
    keep = np.nonzero(near)[0]
    if not len(keep):
        return []
    free = free_at(arena, base, facing, tuple(xy[keep[0]].tolist()), standing, xy[keep],
                   strict=True)
    keep = keep[free]
    cands = [Slot((x, y), touches[k]) for k, (x, y) in zip(keep.tolist(), xy[keep].tolist())]
    if not cands:
        return []
    anyone = np.zeros(len(cands), dtype=bool)
    table = _slot_table(ctx, cands)
    for mid in group:
        anyone |= _feasible(ctx, mid, cands, table)[0]
    cands = [c for c, ok in zip(cands, anyone) if ok]
    if not cands:
        return []
    near_d = _nearest_start(cands, [ctx.start[m] for m in group])
    order = sorted(range(len(cands)), key=lambda k: (-len(cands[k].touches), near_d[k], k))
    if base.is_round:
        return _pack_round(cands, order, base.radius, ctx.tol)
    chosen: list[Slot] = []
    for k in order:
        c = cands[k]
        if chosen:
            cores, pad = cores_at(base, facing, [c.xy])
            others, _ = cores_at(base, facing, [s.xy for s in chosen])
            g = shapely.distance(cores[0], others) - 2.0 * pad
            if (g < -ctx.tol / 4.0).any():
                continue
        chosen.append(c)
    return chosen


def _pack_round(cands: list[Slot], order: list[int], radius: float, tol: float) -> list[Slot]:
    """``_pack``'s greedy choice for round bases: in ``order``, each candidate that
    overlaps no slot chosen before it (by more than a quarter of the tolerance).
    Each slot chosen marks every candidate it overlaps at once, the centre
    distance measured as Shapely measures two points (sqrt(dx^2 + dy^2), the
    same number), so the same slots as testing candidate by candidate."""
    xy = np.array([c.xy for c in cands], dtype=float).reshape(-1, 2)
    blocked = np.zeros(len(cands), dtype=bool)
    chosen: list[Slot] = []
    for k in order:
        if blocked[k]:
            continue
        chosen.append(cands[k])
        dx = xy[:, 0] - xy[k, 0]
        dy = xy[:, 1] - xy[k, 1]
        blocked |= np.sqrt(dx * dx + dy * dy) - 2.0 * radius < -tol / 4.0
    return chosen


def _nearest_start(cands: list[Slot], starts: list[XY]) -> list[float]:
    """For each slot: ``tie`` of the distance (``math.dist``) to the nearest of
    ``starts``.  numpy finds, for each slot, the starts within a nanoinch of the
    nearest (``np.hypot``, which may differ from ``math.dist`` in the last bit);
    only those are measured with ``math.dist``: the same minimum as measuring
    every start."""
    xy = np.array([c.xy for c in cands], dtype=float).reshape(-1, 2)
    st = np.array(starts, dtype=float).reshape(-1, 2)
    d = np.hypot(xy[:, None, 0] - st[None, :, 0], xy[:, None, 1] - st[None, :, 1])
    close = d <= d.min(axis=1, keepdims=True) + 1e-9
    out = []
    for k, row in enumerate(close.tolist()):
        p = cands[k].xy
        out.append(tie(min(math.dist(p, starts[j]) for j, near in enumerate(row) if near)))
    return out
