"""Pairs of bases near each other and their exact edge-to-edge gaps, for the snapshot.

Coordinates are inches, origin bottom-left, y up.  A base is given as arrays
parallel to the models: ``centres`` (n, 2), ``pads`` (n,) (a round base's radius,
0 for a polygon), ``is_round`` (n,) and ``polys`` (n,) (the footprint polygon of
a non-round base, None for a round one), as ``footprints.core_and_pad`` describes
them.  Round-to-round gaps are analytic (centre distance minus the radii, computed
as GEOS computes a point-to-point distance, so they equal ``shapely.distance`` to
the last bit); a pair of two polygons goes to ``convex.convex_gaps`` when their
convex forms are given (the same distance as Shapely's, numpy over all such pairs at
once), any other pair with a polygon in it to ``shapely.distance``.

Candidate pairs come from a numpy cell grid over the bases' centres (cells as wide as
the search distance plus the widest circumcircle; a few far bigger bases are paired by
a sweep along x instead), then the circumcircles' gap: within the distance, the pair
is measured exactly.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable

import numpy as np
import shapely

from tabletop.geometry import convex
from tabletop.geometry import tolerance as tolmod
from tabletop.geometry.footprints import shrunk

_EMPTY = np.zeros(0, dtype=np.intp)


def boxes_of(centres: np.ndarray, pads: np.ndarray, is_round: np.ndarray,
             polys: np.ndarray) -> np.ndarray:
    """Bounding boxes, shape (4, n): rows ``xmin, ymin, xmax, ymax`` in inches (a row per
    coordinate, so gathering many pairs' boxes reads contiguous rows): analytic for round
    bases (centre plus or minus the radius), ``shapely.bounds`` for polygons."""
    b = np.empty((4, len(pads)), dtype=float)
    b[0] = centres[:, 0] - pads
    b[1] = centres[:, 1] - pads
    b[2] = centres[:, 0] + pads
    b[3] = centres[:, 1] + pads
    poly = np.nonzero(~is_round)[0]
    if len(poly):
        b[:, poly] = shapely.bounds(polys[poly]).reshape(-1, 4).T
    return b


def boxes_within(boxes: np.ndarray, i, j, distance: float) -> np.ndarray:
    """Whether box ``i`` grown by ``distance`` inches intersects box ``j`` (``boxes`` as
    ``boxes_of`` gives them; ``i``, ``j`` index arrays that broadcast); touching counts."""
    x0, y0, x1, y1 = boxes
    return ((x0[i] - distance <= x1[j]) & (x1[i] + distance >= x0[j])
            & (y0[i] - distance <= y1[j]) & (y1[i] + distance >= y0[j]))


def _expand(lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For ranges [lo[k], hi[k]): (k repeated, every position in its range)."""
    cnt = np.maximum(hi - lo, 0)
    total = int(cnt.sum())
    if total == 0:
        return _EMPTY, _EMPTY
    rows = np.arange(len(lo)).repeat(cnt)
    first = cnt.cumsum() - cnt
    pos = np.arange(total) - (first - lo).repeat(cnt)
    return rows, pos


class _Scratch(threading.local):
    """Work arrays for ``circle_pairs``, kept between calls (one set per thread, grown to
    the most candidate pairs seen, never shrunk).  A 1,000-model table has some 8,500
    candidate pairs: a dozen arrays of them allocated afresh and freed at every snapshot
    (some 900 KB) made the C library hand the memory back to the system and fault it in
    again each time (about 150 page faults, a tenth of the snapshot's time or more);
    written in place into these, they are not.  Not a rule: the same pairs either way."""

    size = 0

    def arrays(self, total: int) -> tuple[np.ndarray, list[np.ndarray], list[np.ndarray]]:
        """(0, 1, ..., total - 1; four int arrays; three float arrays), each ``total``
        long: views of the kept arrays, valid until the next call on this thread."""
        if total > self.size or self.size == 0:
            # (the first call on a thread makes them even when it asks for none: a table
            # with no candidate pairs would otherwise find no arrays)
            size = max(total, 2 * self.size, 4096)
            self.count = np.arange(size, dtype=np.intp)
            self.ints = [np.empty(size, dtype=np.intp) for _ in range(4)]
            self.floats = [np.empty(size) for _ in range(3)]
            self.size = size
        return (self.count[:total], [a[:total] for a in self.ints],
                [f[:total] for f in self.floats])


_SCRATCH = _Scratch()


def _expand_into(lo: np.ndarray, hi: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray, list[np.ndarray], list[np.ndarray]]:
    """``_expand`` written into ``_SCRATCH``: (range of each slot, its position, the two
    int and three float scratch arrays left free), all as long as the ranges hold in all."""
    cnt = np.subtract(hi, lo)
    np.maximum(cnt, 0, out=cnt)
    total = int(cnt.sum())
    count, (rows, pos, i2, i3), floats = _SCRATCH.arrays(total)
    if total == 0:
        return rows, pos, [i2, i3], floats
    first = cnt.cumsum()
    first -= cnt
    ks = cnt.nonzero()[0]                     # the ranges that hold something
    at = first[ks]
    # each range's index, then each slot's offset from lo, stepped at the range's first
    # slot and summed along
    rows[:] = 0
    rows[at[0]] = ks[0]
    rows[at[1:]] = ks[1:] - ks[:-1]
    rows.cumsum(out=rows)
    off = at - lo[ks]
    pos[:] = 0
    pos[at[0]] = off[0]
    pos[at[1:]] = off[1:] - off[:-1]
    pos.cumsum(out=pos)
    np.subtract(count, pos, out=pos)
    return rows, pos, [i2, i3], floats


GRID_BIG_FACTOR = 2.0
"""``circle_pairs``: a base whose circumradius is more than this many times the smallest
one (an oval among round bases) is paired through a sweep along x instead of sizing the
grid's cells, which are as wide as the widest base in the grid needs.  Not a rule: any
value gives the same pairs."""

GRID_MAX_BIG = 64
"""``circle_pairs``: above this many such big bases they all go in the grid.  Not a
rule: any value gives the same pairs."""


def _cell_pairs(x: np.ndarray, y: np.ndarray, cell: float
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[np.ndarray], list[np.ndarray]]:
    """Every pair of points (positions into ``x``, ``y``, finite) in the same or
    neighbouring cells of a square grid at least ``cell`` inches wide, each pair once, in
    no set order.  A sparse table gets wider cells, so there are never many more cells
    than points.  Returns (a, s, order, two int and three float arrays as long, free):
    pair k is points ``a[k]`` and ``order[s[k]]`` (``s`` a place in the points sorted by
    cell, ``order`` that sort: read the second point's values from arrays sorted the same
    way and map only the pairs kept); all but ``order`` ``_SCRATCH`` arrays, valid until
    its next use on this thread."""
    n = len(x)
    x0, y0 = float(x.min()), float(y.min())
    span = max(float(x.max()) - x0, float(y.max()) - y0)
    cell = max(cell, span / (2.0 * math.sqrt(n) + 64.0))
    gx = ((x - x0) / cell).astype(np.intp)
    gy = ((y - y0) / cell).astype(np.intp) + 1
    ny = int(gy.max()) + 2                     # gy - 1 and gy + 1 stay inside a column
    key = gx * ny + gy
    ncell = (int(gx.max()) + 2) * ny           # a column past the last: key + ny + 1 fits
    order = key.argsort(kind="stable")
    count = np.bincount(key, minlength=ncell)
    end = count.cumsum()                       # cell c holds sorted [end[c] - count[c], end[c])
    rank = np.empty(n, dtype=np.intp)
    rank[order] = np.arange(n)
    # the cell itself (the points after this one in it) and the next cell up (keys k and
    # k + 1: one run of the sorted points), then the three cells of the next column
    # (keys k + ny - 1 to k + ny + 1: one run): each pair of cells once.  The two runs
    # of point k are ranges 2k and 2k + 1, so a range's point is its index halved.
    lo = np.empty(2 * n, dtype=np.intp)
    hi = np.empty(2 * n, dtype=np.intp)
    np.add(rank, 1, out=lo[0::2])
    lo[1::2] = end[key + ny - 2]
    hi[0::2] = end[key + 1]
    hi[1::2] = end[key + ny + 1]
    rows, pos, ints, floats = _expand_into(lo, hi)
    np.right_shift(rows, 1, out=rows)
    return rows, pos, order, ints, floats


def strip_pairs(qx: np.ndarray, width: np.ndarray | float, x: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray]:
    """(query, point) for every point (index into ``x``, inches) whose x is within
    ``width`` inches of query ``qx[q]``'s, by one sort of the points along x.  Pairs come
    query by query, in no set order within a query."""
    order = x.argsort(kind="stable")
    sx = x[order]
    lo = np.searchsorted(sx, qx - width, side="left")
    hi = np.searchsorted(sx, qx + width, side="right")
    q, pos = _expand(lo, hi)
    return q, order[pos]


def circle_pairs(centres: np.ndarray, reach: np.ndarray, limit: float
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every pair ``i < j`` of bases whose circumcircles (centre ``centres`` (n, 2),
    radius ``reach`` (n,), inches) come within ``limit`` inches, with that circle gap
    ``g = |c_i - c_j| - reach[i] - reach[j]`` (the exact gap of two round bases, computed
    as ``pair_gaps`` computes it, bit for bit).  Returns (i, j, g), in no set order.

    Candidates come from a cell grid over the centres (cells ``limit`` plus the widest
    circumcircle across), except that a few bases far bigger than the others
    (``GRID_BIG_FACTOR``, ``GRID_MAX_BIG``) are paired through a sweep along x."""
    n = len(reach)
    if n < 2:
        return _EMPTY, _EMPTY, np.zeros(0)
    x = np.ascontiguousarray(centres[:, 0])
    y = np.ascontiguousarray(centres[:, 1])
    ok = np.isfinite(x) & np.isfinite(y)       # a base at no finite place is near nothing
    big = ok & (reach > GRID_BIG_FACTOR * float(reach.min()))
    nbig = int(big.sum())
    if nbig > GRID_MAX_BIG:
        big[:] = False
        nbig = 0
    parts_i, parts_j, parts_g = [_EMPTY], [_EMPTY], [np.zeros(0)]
    inner = (ok & ~big).nonzero()[0]
    if len(inner) > 1:
        cell = max(limit + 2.0 * float(reach[inner].max()), 1e-6)
        whole = len(inner) == n
        xi, yi, ri = (x, y, reach) if whole else (x[inner], y[inner], reach[inner])
        a, s, order, (c, d), (f0, f1, f2) = _cell_pairs(xi, yi, cell)
        xs, ys, rs = xi[order], yi[order], ri[order]
        # the centre distance of every candidate (the second point read from the arrays
        # sorted by cell), written in place: no array as long as the candidates is
        # allocated but the mask; only the pairs it keeps are mapped to model indices
        np.take(xi, a, out=f0, mode="clip")
        np.subtract(f0, np.take(xs, s, out=f1, mode="clip"), out=f0)
        np.multiply(f0, f0, out=f0)
        np.take(yi, a, out=f1, mode="clip")
        np.subtract(f1, np.take(ys, s, out=f2, mode="clip"), out=f1)
        np.multiply(f1, f1, out=f1)
        np.add(f0, f1, out=f0)
        np.sqrt(f0, out=f0)
        np.take(ri, a, out=f1, mode="clip")
        np.add(f1, np.take(rs, s, out=f2, mode="clip"), out=f1)
        np.subtract(f0, f1, out=f1)
        keep = (f1 <= limit + 1e-9).nonzero()[0]       # no pair within ``limit`` is lost
        a, b, dist = a[keep], order[s[keep]], f0[keep]
        # the circle gap as pair_gaps reads it (i < j; positions in ``inner`` keep the
        # models' order), bit for bit: |c_i - c_j| - reach[i] - reach[j]
        i, j = np.minimum(a, b), np.maximum(a, b)
        if not whole:
            i, j = inner[i], inner[j]
        g = dist - reach[i] - reach[j]
        keep = g <= limit
        parts_i.append(i[keep])
        parts_j.append(j[keep])
        parts_g.append(g[keep])
    if nbig:
        bi = np.nonzero(big)[0]
        a, b = strip_pairs(x[bi], limit + reach[bi] + float(reach.max()) + 1e-9,
                           np.where(ok, x, np.inf))
        a = bi[a]
        keep = (a != b) & (~big[b] | (b > a))             # two big bases paired once
        a, b = a[keep], b[keep]
        i, j = np.minimum(a, b), np.maximum(a, b)
        dx = x[i] - x[j]
        dy = y[i] - y[j]
        g = np.sqrt(dx * dx + dy * dy) - reach[i] - reach[j]
        keep = g <= limit
        parts_i.append(i[keep])
        parts_j.append(j[keep])
        parts_g.append(g[keep])
    if len(parts_i) == 2:
        return parts_i[1], parts_j[1], parts_g[1]
    return np.concatenate(parts_i), np.concatenate(parts_j), np.concatenate(parts_g)


def circle_pairs_of(rows: np.ndarray, centres: np.ndarray, reach: np.ndarray, limit: float
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``circle_pairs`` restricted to the pairs with a base of ``rows`` (distinct indices)
    in them, each such pair once: every row tested against every base directly."""
    n = len(reach)
    if not len(rows) or n < 2:
        return _EMPTY, _EMPTY, np.zeros(0)
    x = np.ascontiguousarray(centres[:, 0])
    y = np.ascontiguousarray(centres[:, 1])
    dx = x[rows][:, None] - x[None, :]
    dy = y[rows][:, None] - y[None, :]
    near = np.sqrt(dx * dx + dy * dy) - reach[rows][:, None] - reach[None, :] <= limit + 1e-9
    near[:, rows] &= rows[:, None] < rows[None, :]          # two rows paired once
    near[np.arange(len(rows)), rows] = False
    r, c = np.nonzero(near)
    a, b = rows[r], c
    i, j = np.minimum(a, b), np.maximum(a, b)
    dx = x[i] - x[j]
    dy = y[i] - y[j]
    g = np.sqrt(dx * dx + dy * dy) - reach[i] - reach[j]
    keep = g <= limit
    return i[keep], j[keep], g[keep]


def pair_gaps(i: np.ndarray, j: np.ndarray, centres: np.ndarray, pads: np.ndarray,
              is_round: np.ndarray, polys: np.ndarray | Callable[[], np.ndarray] | None,
              forms: np.ndarray | None = None
              ) -> np.ndarray:
    """Signed edge-to-edge gaps (inches) of the pairs ``(i[k], j[k])``: negative when round
    bases intersect, 0 when two polygons touch or intersect (``footprints.signed_gap``).

    ``forms``: for each polygon its convex form (``convex.convex_form``: vertices and
    edge normal angles; None for a round base); when given, every pair with a polygon
    in it is measured by ``convex.odd_gaps``, numpy over all of them at once (a polygon
    and a round base: the polygon's distance to the centre, as ``shapely.distance``
    reads it, less the radius; two polygons: ``convex.convex_gaps``' gap), instead of
    Shapely's every-segment-against-every-segment distance.  ``polys``: the footprint
    polygons (None for round bases), or a function giving them, called only without
    ``forms`` when a pair has a polygon in it (then ``shapely.distance`` measures it)."""
    g = np.empty(len(i), dtype=float)
    if not len(i):
        return g
    rr = is_round[i] & is_round[j]
    a, b = i[rr], j[rr]
    x, y = centres.T                      # strided columns: 1-D gathers are fast
    dx = x[a] - x[b]
    dy = y[a] - y[b]
    g[rr] = np.sqrt(dx * dx + dy * dy) - pads[a] - pads[b]
    other = np.nonzero(~rr)[0]
    if forms is not None and len(other):
        # a polygon and a round base: the polygon's distance to the centre, less the
        # radius; two polygons: their gap (``convex.odd_gaps``, numpy, no Shapely)
        a, b = i[other], j[other]
        g[other] = convex.odd_gaps(forms, a, b, centres, is_round) - pads[a] - pads[b]
        other = other[:0]
    if len(other):
        if callable(polys):
            polys = polys()
        if polys is None:
            raise ValueError("pair_gaps needs the polygons to measure a polygon and a round base")
        a, b = i[other], j[other]
        g[other] = (shapely.distance(core_array(a, centres, is_round, polys),
                                     core_array(b, centres, is_round, polys))
                    - pads[a] - pads[b])
    return g


def reach_of(x: float, y: float, poly) -> float:
    """The circumradius of a polygon about (x, y): its farthest vertex, inches (1e-9 more,
    so bounds made with it hold through rounding)."""
    c = shapely.get_coordinates(poly)
    return float(np.sqrt(((c[:, 0] - x) ** 2 + (c[:, 1] - y) ** 2).max())) + 1e-9


def gaps_over(i: np.ndarray, j: np.ndarray, limit: float, centres: np.ndarray,
              pads: np.ndarray, reach: np.ndarray, is_round: np.ndarray,
              polys: np.ndarray | Callable[[], np.ndarray] | None,
              forms: np.ndarray | None = None) -> np.ndarray:
    """Whether the gap of each pair ``(i[k], j[k])`` is more than ``limit`` inches: the same
    answer as ``pair_gaps(...) > limit``, measuring a pair with a polygon in it only when
    its centre distance (no less than the gap: a base holds its centre) and that distance
    less both circumradii ``reach`` (no more than the gap) leave it open."""
    out = np.zeros(len(i), dtype=bool)
    if not len(i):
        return out
    x, y = centres.T
    dx = x[i] - x[j]
    dy = y[i] - y[j]
    cd = np.sqrt(dx * dx + dy * dy)
    rr = is_round[i] & is_round[j]
    out[rr] = cd[rr] - pads[i[rr]] - pads[j[rr]] > limit
    out[~rr] = cd[~rr] - reach[i[~rr]] - reach[j[~rr]] > limit
    open_ = np.nonzero(~rr & ~out & (cd > limit))[0]
    if len(open_):
        out[open_] = pair_gaps(i[open_], j[open_], centres, pads, is_round, polys,
                               forms) > limit
    return out


def core_array(idx: np.ndarray, centres: np.ndarray, is_round: np.ndarray,
               polys: np.ndarray) -> np.ndarray:
    """The cores (object array) of bases ``idx``: centre points of round bases, polygons
    of the others."""
    out = polys[idx].copy()
    r = is_round[idx]
    if r.any():
        out[r] = shapely.points(centres[idx[r]])
    return out


def overlap_flags(i: np.ndarray, j: np.ndarray, g: np.ndarray, pads: np.ndarray,
                  polys: np.ndarray | Callable[[], np.ndarray], tol: float) -> np.ndarray:
    """Which pairs overlap: intersecting by more than ``tol`` (``tolerance.overlapping``),
    or, for two polygons whose gap reads 0, still intersecting once each is shrunk by
    ``tol / 2`` (``polys``: the footprint polygons, or a function giving them, called
    only when such a pair is found)."""
    ov = g < -tol - tolmod.EPS
    check = (~ov & (g <= 0) & (pads[i] == 0) & (pads[j] == 0)).nonzero()[0]
    if not len(check):
        return ov
    if callable(polys):
        polys = polys()
    half = tol / 2.0
    for k in check.tolist():
        if polys[i[k]] is None or polys[j[k]] is None:
            continue                # a round base of no size: its shrunk point is empty
        ov[k] = shrunk(polys[i[k]], half).intersects(shrunk(polys[j[k]], half))
    return ov
