"""A brute-force search for a simple legal pile-in or consolidation move, for the
hypothesis tests (fight-phase.txt 12.03, 12.08; core rules 03.03 coherency).

"Simple": every model moves in a straight line to a point of a grid round its
start (``STEP`` apart, within the maximum distance) or stays.  Units of one or
two models with round bases only.  The clauses are checked here with plain
numpy and Shapely, independently of the project's validator, to pick
candidates, most models engaged (within range) first; the best few are then put
to ``validate_move``, the judge: the search answers a move only when the
validator finds nothing wrong with it.
"""

from __future__ import annotations

import math

import numpy as np
import shapely
from shapely.geometry import Polygon

from tabletop.geometry.moves import validate_move

STEP = 0.1
CONFIRM = 8


def _grid(start, reach: float) -> np.ndarray:
    n = int(reach / STEP)
    ij = np.array([(i, j) for i in range(-n, n + 1) for j in range(-n, n + 1)
                   if math.hypot(i, j) * STEP <= reach + 1e-9], dtype=float)
    return np.asarray(start, dtype=float) + ij * STEP        # (0, 0) included: stays


def _dist(points: np.ndarray, radius: float, others) -> np.ndarray:
    """Edge gaps (k, len(others)) from a base of ``radius`` at each point to others."""
    if not others:
        return np.full((len(points), 0), np.inf)
    xy = np.array([o.at for o in others], dtype=float)
    rr = np.array([o.base.radius for o in others])
    return np.hypot(points[:, None, 0] - xy[None, :, 0], points[:, None, 1] - xy[None, :, 1]) \
        - radius - rr[None, :]


def _seg_dist(a, b: np.ndarray, others) -> np.ndarray:
    """Distance (k, len(others)) from each segment a -> b[k] to the others' centres."""
    if not others:
        return np.full((len(b), 0), np.inf)
    p = np.array([o.at for o in others], dtype=float)
    a = np.asarray(a, dtype=float)
    d = b - a
    dd = (d * d).sum(axis=1)
    t = np.where(dd[:, None] > 0,
                 ((p[None, :, :] - a) * d[:, None, :]).sum(axis=2) / np.maximum(dd[:, None], 1e-12),
                 0.0)
    t = np.clip(t, 0.0, 1.0)
    q = a + t[:, :, None] * d[:, None, :]
    return np.hypot(q[..., 0] - p[None, :, 0], q[..., 1] - p[None, :, 1])


def simple_legal_move(state, geo, spec):
    """Positions ``{model id: (x, y)}`` of a simple move ``validate_move`` finds
    legal, or None when none is found (or the case is not a small one)."""
    unit = state.unit(spec.unit)
    models = list(unit.models)
    if len(models) > 2 or not all(m.base.is_round for m in state.models()):
        return None
    r = state.rules
    tol = r.tol
    er = r.engagement_range
    enemies = [m for m in state.models() if state.unit(m.unit_id).player != unit.player]
    others = [m for m in state.models() if m.unit_id != unit.id]
    rocks = [Polygon(t.polygon) for t in state.terrain if t.impassable]
    objective = state.objective(spec.targets[0]) if spec.kind == "objective" else None
    per = []
    for m in models:
        pts = _grid(m.at, spec.max_distance)
        rad = m.base.radius
        moved = np.hypot(pts[:, 0] - m.x, pts[:, 1] - m.y) > tol
        ok = (pts[:, 0] >= rad - tol) & (pts[:, 0] <= state.table.width - rad + tol) \
            & (pts[:, 1] >= rad - tol) & (pts[:, 1] <= state.table.depth - rad + tol)
        ok &= (_dist(pts, rad, others) >= -tol).all(axis=1) | ~moved
        start_gap = _dist(np.array([m.at]), rad, others)[0]
        crosses = _seg_dist(m.at, pts, others) - rad - np.array([o.base.radius for o in others])
        ok &= ((crosses >= -tol) | (start_gap < -tol)[None, :]).all(axis=1) | ~moved
        if rocks and moved.any():
            lines = shapely.linestrings([[m.at, tuple(p)] for p in pts])
            for rock in rocks:
                ok &= (shapely.distance(lines, rock) >= rad - tol) | ~moved
        in_contact = (_dist(np.array([m.at]), rad, enemies) <= tol).any()
        if spec.kind in ("pile_in", "ongoing") and in_contact:
            ok &= ~moved
        if objective is not None:
            orng = state.objective_range(objective)
            d0 = math.dist(m.at, objective.at) - rad - objective.marker.radius
            d = np.hypot(pts[:, 0] - objective.at[0], pts[:, 1] - objective.at[1]) - rad \
                - objective.marker.radius
            achieved = d <= orng + tol
            ok &= achieved | (d < d0 - tol) | ~moved
        else:
            target = min(spec.targets, key=lambda u: geo.distance(m.id, u))
            tm = [e for e in enemies if e.unit_id == target]
            d0 = geo.distance(m.id, target)
            d = np.maximum(0.0, _dist(pts, rad, tm).min(axis=1))
            achieved = d <= er + tol
            ok &= (d < d0 - tol) | (d <= tol) & (d0 <= tol) | ~moved
            if spec.kind in ("pile_in", "ongoing"):
                for u in {geo.unit_of[geo.index_of(e)] for e in geo.engaged_models(m.id)}:
                    um = [e for e in enemies if e.unit_id == u]
                    ok &= _dist(pts, rad, um).min(axis=1) <= er + tol
        keep = np.nonzero(ok)[0]
        eng = {u: (_dist(pts[keep], rad, [e for e in enemies if e.unit_id == u]).min(axis=1)
                   <= er + tol) for u in {e.unit_id for e in enemies}}
        per.append((m, pts[keep], achieved[keep], eng, moved[keep]))

    def unit_ok(engaged_by_unit, in_range):
        if spec.kind == "pile_in":
            return np.any([v for v in engaged_by_unit.values()], axis=0)
        if spec.kind == "engaging":
            return np.all([engaged_by_unit[u] for u in spec.targets], axis=0)
        if spec.kind == "objective":
            return in_range
        return np.ones_like(in_range, dtype=bool)

    if len(per) == 1:
        m, pts, ach, eng, _ = per[0]
        good = unit_ok(eng, ach)
        combos = [({m.id: tuple(map(float, pts[k]))}, int(ach[k])) for k in np.nonzero(good)[0]]
    else:
        (ma, pa, aa, ea, va), (mb, pb, ab, eb, vb) = per
        gap = np.hypot(pa[:, None, 0] - pb[None, :, 0], pa[:, None, 1] - pb[None, :, 1]) \
            - ma.base.radius - mb.base.radius
        good = (gap >= -tol) & (gap <= (r.coherency_range or 0.0) + tol)
        engaged = {u: ea[u][:, None] | eb[u][None, :] for u in ea}
        good &= unit_ok(engaged, aa[:, None] | ab[None, :])
        # a path may not cross the other model where it stands when this one moves
        # (either order): a -> then b, or b -> then a
        sa = _seg_dist(ma.at, pa, [mb])[:, 0] - ma.base.radius - mb.base.radius
        sb = _seg_dist(mb.at, pb, [ma])[:, 0] - ma.base.radius - mb.base.radius
        good &= ((sa >= -tol) | ~va)[:, None] & ((sb >= -tol) | ~vb)[None, :]
        score = aa[:, None].astype(int) + ab[None, :].astype(int)
        idx = np.argwhere(good)
        if len(idx) > 20000:
            idx = idx[np.argsort(-score[idx[:, 0], idx[:, 1]], kind="stable")[:20000]]
        combos = [({ma.id: tuple(map(float, pa[i])), mb.id: tuple(map(float, pb[j]))},
                   int(score[i, j]))
                  for i, j in idx]
    combos.sort(key=lambda c: -c[1])
    for positions, _ in combos[:CONFIRM]:
        moved = {k: v for k, v in positions.items() if math.dist(v, state.model(k).at) > tol}
        if not validate_move(state, geo, spec, moved):
            return moved
    return None
