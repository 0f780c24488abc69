"""Coherency for a unit that is moving (core rules 03.03, kept by fight-phase.txt
12.03 and 12.08 "Your unit moves as described in Moving (03)").

``UnitCoherency`` measures how far a set of end positions leaves the unit out
of coherency — for one set, or for many candidate spots of one model at once
(vectorised) — and ``repair_spots`` lists the spots a model could move to
that may bring it back: a grid round its start, and rings round its friends
and its targets at just under coherency and engagement range, with the spots
where those rings cross (a model that must stay engaged with one enemy and
come back within range of a friend).  Every spot is measured from a model's
centre, so the same fight anywhere on the table gets the same spots.
Inches, origin bottom-left, y up.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
import shapely

from tabletop.board.bases import Base
from tabletop.geometry import tolerance as tolmod
from tabletop.geometry.movespec import MoveContext
from tabletop.geometry.paths import Obstacle, ring_crossings, ring_offsets
from tabletop.geometry.sweeps import XY, core_of, cores_at, gap_matrix, tie

#: inches between spots of the grid round a model's start
REPAIR_GRID = 0.2
#: spots round each friend and each target model
REPAIR_RING = 72


class UnitCoherency:
    """Coherency of the moving unit (03.03) from its models' positions.

    ``score`` gives (models out of coherency, shortfall): the shortfall is how
    many inches in all the models out of coherency are short of it (beyond
    the range to their needed neighbour, beyond the spread), so that moves
    that bring the unit nearer to coherency can be told apart.
    """

    def __init__(self, ctx: MoveContext):
        self.ctx = ctx
        self.ids = list(ctx.ids)
        self.n = len(self.ids)
        self.rules = ctx.rules
        self.tol = ctx.tol
        self.round = all(ctx.models[m].base.is_round for m in self.ids)
        self.radius = np.array([ctx.models[m].base.radius for m in self.ids])
        # the last positions measured (``_gaps_of``): their gap matrix, and by model
        # the parts of ``_score_with`` its row and column removed leave (``score_moving``)
        self._last: tuple[tuple, np.ndarray, dict[int, tuple]] | None = None

    # ------------------------------------------------------------ gaps
    def gaps(self, at: list[XY]) -> np.ndarray:
        """Edge-to-edge gaps (n, n) with the models at ``at`` (unit order), inf on the diagonal."""
        ctx = self.ctx
        if self.round:
            xy = np.asarray(at, dtype=float)
            g = np.hypot(xy[:, None, 0] - xy[None, :, 0], xy[:, None, 1] - xy[None, :, 1]) \
                - self.radius[:, None] - self.radius[None, :]
        else:
            parts = [core_of(ctx.models[m].base, ctx.models[m].facing_deg, p)
                     for m, p in zip(self.ids, at)]
            cores, pads = [c for c, _ in parts], [p for _, p in parts]
            g = gap_matrix(cores, pads, cores, pads, self.tol)
        np.fill_diagonal(g, np.inf)
        return g

    def gaps_from(self, i: int, points, at: list[XY]) -> np.ndarray:
        """Gaps (k, n) from model ``i`` standing at each of ``points`` to every
        model at ``at``; inf in column ``i``."""
        ctx = self.ctx
        pts = np.asarray(points, dtype=float).reshape(-1, 2)
        if self.round:
            xy = np.asarray(at, dtype=float)
            h = np.hypot(pts[:, None, 0] - xy[None, :, 0], pts[:, None, 1] - xy[None, :, 1]) \
                - self.radius[i] - self.radius[None, :]
        else:
            m = ctx.models[self.ids[i]]
            cores, pad = cores_at(m.base, m.facing_deg, pts)
            parts = [core_of(ctx.models[o].base, ctx.models[o].facing_deg, p)
                     for o, p in zip(self.ids, at)]
            oc = np.array([c for c, _ in parts], dtype=object)
            op = np.array([p for _, p in parts], dtype=float)
            h = shapely.distance(cores[:, None], oc[None, :]) - pad - op[None, :]
        h[:, i] = np.inf
        return h

    # ------------------------------------------------------------ scores
    def _score(self, g: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(bad (..., n) bool, excess (..., n) inches) for gap matrices (..., n, n)."""
        r, tol = self.rules, self.tol
        if r.coherency_range is None:
            kth = g.min(axis=-1)
            return kth > tol + tolmod.EPS, np.maximum(0.0, kth)
        need = min(r.coherency_needed(self.n), self.n - 1)
        # the need-th smallest gap of each row (a partition finds the same value a sort does)
        kth = np.partition(g, need - 1, axis=-1)[..., need - 1]
        bad = kth > r.coherency_range + tol + tolmod.EPS
        excess = np.maximum(0.0, kth - r.coherency_range)
        if r.coherency_spread is not None:
            finite = np.where(np.isinf(g), 0.0, g)
            far = finite > r.coherency_spread + tol + tolmod.EPS
            bad = bad | far.any(axis=-1)
            excess = excess + np.maximum(0.0, finite - r.coherency_spread).sum(axis=-1)
        return bad, excess

    def score(self, at: list[XY]) -> tuple[set[str], float]:
        """(models out of coherency, shortfall in inches) with the models at ``at``."""
        if self.n < 2:
            return set(), 0.0
        bad, excess = self._score(self._gaps_of(at)[0])
        return {self.ids[k] for k in np.nonzero(bad)[0].tolist()}, float(excess[bad].sum())

    def score_moving(self, i: int, points, at: list[XY]) -> tuple[np.ndarray, np.ndarray]:
        """For model ``i`` moved to each of ``points`` (the others at ``at``):
        (models out of coherency (k,), shortfall (k,) inches).

        Moving one model changes one row and one column of the gap matrix, so
        each other model's row is scored from its sorted gaps to the models
        that stay and its one new gap (O(k n), not a (k, n, n) sort)."""
        k = len(points)
        if self.n < 2 or not k:
            return np.zeros(k, dtype=int), np.zeros(k)
        g, rests = self._gaps_of(at)
        h = self.gaps_from(i, points, at)               # (k, n), inf at column i
        bad_i, excess_i = self._score(h)                # model i's own row, (k,)
        parts = rests.get(i)
        if parts is None:
            rest = np.delete(np.delete(g, i, axis=0), i, axis=1)   # (n-1, n-1): rows j != i
            parts = rests[i] = self._rest_parts(rest)
        x = np.delete(h, i, axis=1)                     # (k, n-1): the new gap of each row j
        bad, excess = self._score_x(parts, x)
        bad_n = bad.sum(axis=1) + bad_i
        short = np.where(bad, excess, 0.0).sum(axis=1) + np.where(bad_i, excess_i, 0.0)
        return bad_n, short

    def cannot_help(self, i: int, at: list[XY], bad: int, short: float) -> bool:
        """Whether no spot for model ``i`` (not out of coherency now) can leave the
        unit with fewer than ``bad`` models out of coherency, or as many and less
        shortfall than ``short`` (inches): every model out of coherency is more
        than the spread (03.03, the range every model must keep to every other)
        from some model other than ``i``, and the spread shortfall of those pairs
        alone is already ``short``.  Moving ``i`` changes only the gaps to ``i``,
        so those models stay out and that shortfall stays; ``score_moving`` would
        find no spot better (the bound saves computing it for every spot)."""
        r = self.rules
        if r.coherency_spread is None or self.n < 2:
            return False
        g, rests = self._gaps_of(at)
        thr = r.coherency_spread + self.tol + tolmod.EPS
        # for these positions, once: who is out now, and each model's count of models
        # farther than the spread (a pair's test: the same booleans as ``sub`` reads)
        got = rests.get(-1)
        if got is None:
            fin_all = np.where(np.isinf(g), 0.0, g)
            over = fin_all > thr
            # each pair's spread shortfall, and each row's sum of them
            excess = np.maximum(0.0, fin_all - r.coherency_spread)
            got = rests[-1] = (np.asarray(self._score(g)[0], dtype=bool), over,
                               over.sum(axis=-1), excess, excess.sum(axis=-1))
        now, over, n_over, excess, row_excess = got
        if now[i] or int(now.sum()) != bad:
            return False
        keep = np.ones(self.n, dtype=bool)
        keep[i] = False
        # far from some model other than i: out whatever i does
        far = (n_over - over[:, i])[keep] > 0
        if int(far[now[keep]].sum()) < bad:
            return False
        # the shortfall of the rows out now, less their pairs with i (O(n), not a
        # submatrix per model; the same sum to the rounding ``tie`` compares at)
        rows = now & keep
        floor = float((row_excess[rows] - excess[rows, i]).sum())
        return tie(floor) >= tie(short)

    def _gaps_of(self, at: list[XY]) -> tuple[np.ndarray, dict[int, tuple]]:
        """``gaps(at)`` and the ``_rest_parts`` by model found for the same positions
        (under -1: what ``cannot_help`` reads of them), remembered for the last
        positions asked about (a coherency round asks about every model's changes
        with the others where they are)."""
        key = tuple((float(p[0]), float(p[1])) for p in at)
        last = getattr(self, "_last", None)     # None too when built without __init__
        if last is None or last[0] != key:
            last = self._last = (key, self.gaps(at), {})
            last[1].setflags(write=False)
        return last[1], last[2]

    def _score_with(self, rest: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``_score`` of rows ``rest`` (m, m-1 gaps to the models that stay) each with one
        more gap ``x`` (k, m): (bad (k, m), excess (k, m))."""
        return self._score_x(self._rest_parts(rest), x)

    def _rest_parts(self, rest: np.ndarray) -> tuple:
        """What ``_score_with`` reads of ``rest`` (the same for every ``x``)."""
        r, tol = self.rules, self.tol
        if r.coherency_range is None:
            return (rest.min(axis=-1)[None, :],)
        need = min(r.coherency_needed(self.n), self.n - 1)
        # the (need-1)-th and need-th smallest of each row: a partition at those two
        # places holds the same values there as a sort
        cols = rest.shape[1]
        kk = [k for k in (need - 2, need - 1) if 0 <= k < cols]
        srt = np.partition(rest, kk, axis=-1) if kk else rest
        below = srt[:, need - 2][None, :] if need >= 2 else np.full((1, rest.shape[0]), -np.inf)
        at_k = srt[:, need - 1][None, :] if need - 1 < rest.shape[1] else \
            np.full((1, rest.shape[0]), np.inf)
        if r.coherency_spread is None:
            return below, at_k, None, None
        thr = r.coherency_spread + tol + tolmod.EPS
        fr = np.where(np.isinf(rest), 0.0, rest)
        return (below, at_k, np.any(fr > thr, axis=-1)[None, :],
                np.maximum(0.0, fr - r.coherency_spread).sum(axis=-1)[None, :])

    def _score_x(self, parts: tuple, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``_score_with`` from ``_rest_parts`` of its rows and the new gaps ``x``."""
        r, tol = self.rules, self.tol
        if r.coherency_range is None:
            kth = np.minimum(parts[0], x)
            return kth > tol + tolmod.EPS, np.maximum(0.0, kth)
        below, at_k, far, over = parts
        kth = np.minimum(at_k, np.maximum(below, x))    # the need-th smallest with x added
        bad = kth > r.coherency_range + tol + tolmod.EPS
        excess = np.maximum(0.0, kth - r.coherency_range)
        if r.coherency_spread is not None:
            thr = r.coherency_spread + tol + tolmod.EPS
            fx = np.where(np.isinf(x), 0.0, x)
            bad = bad | far | (fx > thr)
            excess = excess + over + np.maximum(0.0, fx - r.coherency_spread)
        return bad, excess


@lru_cache(maxsize=16)
def _grid(step: float, reach: float) -> np.ndarray:
    n = int(reach / step)
    ij = np.array([(i, j) for i in range(-n, n + 1) for j in range(-n, n + 1)
                   if 0 < math.hypot(i, j) * step <= reach + 1e-9], dtype=float)
    return ij * step


def repair_spots(ctx: MoveContext, mid: str, at: dict[str, XY], goals: tuple[str, ...],
                 margin: float) -> np.ndarray:
    """Spots (k, 2) where model ``mid`` could end to come back into coherency:
    the grid round its start (``REPAIR_GRID``), rings round each friend (at
    ``at``) at just under coherency range, half of it and base contact, rings
    round each model of its closest target and of ``goals`` at just under
    engagement range and base contact, and where friend and target rings
    cross.  Only spots within the maximum distance of its start (as the crow
    flies) are kept; none is checked for room or clauses.
    """
    m = ctx.models[mid]
    start = np.asarray(ctx.start[mid], dtype=float)
    reach = ctx.spec.max_distance
    r = ctx.rules
    span = reach + 2.0 * m.base.radius
    friends = []
    for f in ctx.ids:
        if f == mid:
            continue
        fm = ctx.models[f]
        x, y = at.get(f, ctx.start[f])
        if math.hypot(x - start[0], y - start[1]) > span + fm.base.radius + (r.coherency_range or 0):
            continue
        friends.append(Obstacle(f, fm.base, x, y, fm.facing_deg))
    # the spots depend on nothing else that changes while a unit moves: remembered
    # on the context by model, friends near and goals
    memo = ctx.repair_memo
    key = (mid, tuple((ob.id, ob.x, ob.y) for ob in friends), goals, margin)
    hit = memo.get(key)
    if hit is not None:
        return hit
    memo[key] = out_pts = _repair_spots(ctx, mid, m, start, friends, goals, margin)
    return out_pts


def _repair_spots(ctx: MoveContext, mid: str, m, start: np.ndarray, friends: list[Obstacle],
                  goals: tuple[str, ...], margin: float) -> np.ndarray:
    """``repair_spots`` once the friends near are known (read-only array)."""
    reach = ctx.spec.max_distance
    r = ctx.rules
    out = [start + _grid(REPAIR_GRID, reach)]
    span = reach + 2.0 * m.base.radius
    coh = r.coherency_range if r.coherency_range is not None else 0.0
    friend_gaps = sorted({max(margin, coh - ctx.tol / 2), max(margin, coh / 2), margin})
    out.extend(_rings(m.base, m.facing_deg, friends, friend_gaps))
    targets = []
    if ctx.objective is None:
        seen = set()
        for u in (ctx.target[mid], *goals):
            if u in seen:
                continue
            seen.add(u)
            by_id = {tm.id: tm for tm in ctx.state.unit(u).models}
            for t in ctx.target_models(u):
                tm = by_id[t]
                if math.hypot(tm.x - start[0], tm.y - start[1]) \
                        <= span + tm.base.radius + r.engagement_range:
                    targets.append(Obstacle(t, tm.base, tm.x, tm.y, tm.facing_deg))
    eng = max(0.0, r.engagement_range)
    target_gaps = sorted({max(margin, eng - ctx.tol / 2), margin})
    out.extend(_rings(m.base, m.facing_deg, targets, target_gaps))
    cross = _crossings(m.base, m.facing_deg, friends, friend_gaps[-1], targets, target_gaps)
    if len(cross):
        out.append(cross)
    pts = np.vstack(out)
    crow = np.hypot(pts[:, 0] - start[0], pts[:, 1] - start[1])
    pts = pts[(crow <= reach) & (crow > ctx.tol)]
    pts.setflags(write=False)
    return pts


def _rings(base: Base, facing_deg: float, others: list[Obstacle],
           gaps: list[float]) -> list[np.ndarray]:
    """The ``ring_offsets`` spots of ``base`` round each of ``others`` at each of
    ``gaps``, other by other, gap by gap, as (k, 2) arrays: a run of others with
    one base and facing gets its rings in one array (each ring read once and
    added to every centre: the same sums as one by one)."""
    out: list[np.ndarray] = []
    k = 0
    while k < len(others):
        ob = others[k]
        j = k + 1
        while j < len(others) and others[j].base is ob.base \
                and others[j].facing_deg == ob.facing_deg:
            j += 1
        offs = np.stack([ring_offsets(base, facing_deg, ob.base, ob.facing_deg, gap, REPAIR_RING)
                         for gap in gaps])                                 # (G, C, 2)
        centres = np.array([(o.x, o.y) for o in others[k:j]], dtype=float)  # (F, 2)
        out.append((offs[None, :, :, :] + centres[:, None, None, :]).reshape(-1, 2))
        k = j
    return out


def _crossings(base: Base, facing_deg: float, friends: list[Obstacle], gap_f: float,
               targets: list[Obstacle], target_gaps: list[float]) -> np.ndarray:
    """``ring_crossings`` of ``base`` at ``gap_f`` off each friend and each of
    ``target_gaps`` off each target, (k, 2) inches, in the order friend, target,
    gap, then the two crossings: the same points as calling it pair by pair.
    Round bases all: every pair at once (numpy, the same circle-circle formula);
    else pair by pair (Shapely)."""
    if not friends or not targets:
        return np.zeros((0, 2))
    if not (base.is_round and all(ob.base.is_round for ob in (*friends, *targets))):
        cross = [p for f in friends for t in targets for gt in target_gaps
                 for p in ring_crossings(base, facing_deg, f, gap_f, t, gt)]
        return np.array(cross, dtype=float).reshape(-1, 2)
    fa = np.array([(ob.x, ob.y, base.radius + ob.base.radius + gap_f) for ob in friends])
    tb = np.array([(ob.x, ob.y, ob.base.radius) for ob in targets])
    gaps = np.asarray(target_gaps, dtype=float)
    ax, ay, ra = (fa[:, i][:, None, None] for i in range(3))          # (F, 1, 1)
    bx, by = tb[:, 0][None, :, None], tb[:, 1][None, :, None]           # (1, T, 1)
    rb = base.radius + tb[:, 2][None, :, None] + gaps[None, None, :]    # (1, T, G)
    ex, ey = bx - ax, by - ay
    d = np.hypot(ex, ey)
    ok = (d != 0) & (d <= ra + rb) & (d >= np.abs(ra - rb))
    dd = np.where(d != 0, d, 1.0)
    along = (ra * ra - rb * rb + d * d) / (2 * dd)
    h = np.sqrt(np.maximum(0.0, ra * ra - along * along))
    ux, uy = ex / dd, ey / dd
    mx, my = ax + along * ux, ay + along * uy
    pts = np.stack([np.stack([mx - h * uy, my + h * ux], axis=-1),
                    np.stack([mx + h * uy, my - h * ux], axis=-1)], axis=-2)  # (F, T, G, 2, 2)
    shape = np.broadcast_shapes(ok.shape, (len(friends), len(targets), len(gaps)))
    keep = np.broadcast_to(ok, shape)
    return pts[keep].reshape(-1, 2)
