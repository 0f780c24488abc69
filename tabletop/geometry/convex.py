"""Oval and rectangular bases as convex polygons: built many at once, measured many at once.

Coordinates are inches, origin bottom-left, y up; facing degrees counter-clockwise
from +x.  ``placed_vertices`` builds the footprints of many non-round bases with numpy,
coordinate for coordinate the polygons ``footprints.base_polygon`` builds one at a time
(the same template, the same rotation and translation arithmetic, so every answer
measured on them equals one measured on ``base_polygon``'s).  ``convex_gaps`` gives the
edge-to-edge distance of many pairs of such polygons at once, without Shapely's
all-segments-against-all-segments loop: two convex polygons are nearest along an edge
of one and the vertex of the other that reaches furthest towards that edge (an edge of
their Minkowski difference), so each edge is measured against that one vertex (and its
two neighbours, against rounding), found by a binary search over the edge directions.
"""

from __future__ import annotations

import math

import numpy as np
import shapely

from tabletop.board.bases import Base
from tabletop.geometry.footprints import OVAL_SEGMENTS

_TEMPLATES: dict[Base, tuple[np.ndarray, bool, np.ndarray, float]] = {}
_TWO_PI = 2.0 * math.pi


def _template(base: Base) -> tuple[np.ndarray, bool, np.ndarray, float]:
    """(closed outline (k + 1, 2) of a non-round ``base`` centred on the origin facing 0
    degrees: ``base_polygon``'s own coordinates; whether it runs counter-clockwise; the
    outward edge normals' angles of its counter-clockwise vertices, radians, increasing;
    its inradius about the centre, the nearest edge line, inches, a hair short).  Kept
    per base (it depends on nothing else)."""
    got = _TEMPLATES.get(base)
    if got is None:
        a, b = base.along / 2.0, base.across / 2.0
        if base.shape == "oval":       # base_polygon's ellipse (its turn by 0 changes nothing)
            t = np.linspace(0.0, 2.0 * math.pi, OVAL_SEGMENTS, endpoint=False)
            v = np.column_stack([a * np.cos(t), b * np.sin(t)])
            outline = np.concatenate([v, v[:1]])
        else:
            outline = shapely.get_coordinates(shapely.box(-a, -b, a, b))
        v = outline[:-1]
        x, y = v[:, 0], v[:, 1]
        ccw = float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y)) >= 0.0
        if not ccw:
            v = v[::-1]
        e = np.roll(v, -1, axis=0) - v
        ang = np.arctan2(-e[:, 0], e[:, 1])
        step = np.mod(np.diff(ang), _TWO_PI)
        un = np.concatenate([ang[:1], ang[0] + np.cumsum(step)])
        inner = float(((v[:, 0] * e[:, 1] - v[:, 1] * e[:, 0]) / np.hypot(e[:, 0], e[:, 1])).min())
        got = _TEMPLATES[base] = (outline, ccw, un, max(0.0, inner - 1e-9))
    return got


def clear_templates() -> None:
    """Forget the kept templates (benchmarks timing a table seen for the first time)."""
    _TEMPLATES.clear()


def placed_outlines(base: Base, xs, ys, facings) -> tuple[np.ndarray, np.ndarray]:
    """(closed outlines (p, k + 1, 2) of ``base`` at each (x, y, facing degrees), the
    rotation of each in radians).  The outlines are the coordinates ``base_polygon``
    gives, bit for bit: its template, rotated about the origin then translated in the
    same floating-point steps as ``shapely.affinity``."""
    t = _template(base)[0]
    cs, sn, th = [], [], []
    for f in facings:
        angle = f * math.pi / 180.0          # as shapely.affinity.rotate
        cos_a, sin_a = math.cos(angle), math.sin(angle)
        cs.append(0.0 if abs(cos_a) < 2.5e-16 else cos_a)
        sn.append(0.0 if abs(sin_a) < 2.5e-16 else sin_a)
        th.append(angle)
    c = np.array(cs)[:, None]
    s = np.array(sn)[:, None]
    tx, ty = t[:, 0][None, :], t[:, 1][None, :]
    out = np.empty((len(cs), len(t), 2))
    out[:, :, 0] = (c * tx + (-s) * ty + 0.0) + np.asarray(xs, dtype=float)[:, None]
    out[:, :, 1] = (s * tx + c * ty + 0.0) + np.asarray(ys, dtype=float)[:, None]
    return out, np.array(th)


def convex_form(base: Base, outline: np.ndarray, theta: float, x: float, y: float
                ) -> tuple[np.ndarray, np.ndarray, tuple[float, float], float]:
    """(counter-clockwise vertices (k, 2), their outward edge normals' angles (k,),
    radians, increasing, the centre (x, y), the inradius about it in inches) of one
    outline of ``base`` placed at (x, y) (``placed_outlines``): the form
    ``convex_gaps`` measures."""
    _, ccw, un, inner = _template(base)
    v = outline[:-1] if ccw else outline[-2::-1]
    return v, un + theta, (x, y), inner


def convex_forms(base: Base, outlines: np.ndarray, thetas: np.ndarray, xs, ys) -> list:
    """``convex_form`` of each of ``placed_outlines``' outlines (p, k + 1, 2) of ``base``,
    at (xs[q], ys[q]) turned by ``thetas[q]`` radians: the template read once."""
    _, ccw, un, inner = _template(base)
    verts = outlines[:, :-1] if ccw else outlines[:, -2::-1]
    angles = un[None, :] + np.asarray(thetas, dtype=float)[:, None]
    return [(verts[q], angles[q], (x, y), inner) for q, (x, y) in enumerate(zip(xs, ys))]


def reaches(outlines: np.ndarray, xs, ys) -> np.ndarray:
    """Circumradius of each outline (p, k, 2) about its centre, inches, 1e-9 more (as
    ``near_pairs.reach_of``)."""
    dx = outlines[:, :, 0] - np.asarray(xs, dtype=float)[:, None]
    dy = outlines[:, :, 1] - np.asarray(ys, dtype=float)[:, None]
    return np.sqrt((dx * dx + dy * dy).max(axis=1)) + 1e-9


def _support(un_b: np.ndarray, target: np.ndarray) -> np.ndarray:
    """For each polygon p and angle ``target[p, i]``: the index k of polygon p's edge
    whose normal angle is the last at or below it (cyclically), so that vertex k + 1
    reaches furthest in that direction (to rounding: its neighbours are measured too)."""
    P, m = un_b.shape
    base = un_b[:, :1]
    off = (np.arange(P, dtype=float) * 4.0 * math.pi)[:, None]      # rows kept apart
    flat = (un_b - base + off).ravel()
    t = np.mod(target - base, _TWO_PI) + off
    k = np.searchsorted(flat, t.ravel(), side="right").reshape(target.shape) - 1
    return k - (np.arange(P) * m)[:, None]


def _point_segment(px, py, ax, ay, bx, by) -> np.ndarray:
    """Distance of points to segments (broadcasting arrays, inches), the way GEOS
    measures a point against a segment."""
    dx, dy = bx - ax, by - ay
    len2 = dx * dx + dy * dy
    with np.errstate(divide="ignore", invalid="ignore"):
        r = ((px - ax) * dx + (py - ay) * dy) / len2
        s = ((ay - py) * dx - (ax - px) * dy) / len2
    perp = np.abs(s) * np.sqrt(len2)
    to_a = np.sqrt((px - ax) ** 2 + (py - ay) ** 2)
    to_b = np.sqrt((px - bx) ** 2 + (py - by) ** 2)
    return np.where((len2 == 0) | (r <= 0), to_a, np.where(r >= 1, to_b, perp))


_ROUND = np.array([-1, 0, 1])   # an index and its two neighbours, against rounding

COARSE_EDGES = 32
"""``convex_gaps``: a polygon of at least twice this many edges (an oval) is first read
at this many edges evenly spread, then round the best of them; a search the
separation's shape proves right (see ``_best_edges``) or that falls back to every edge
facing the other polygon.  Not a rule: any value gives the same gaps."""


def _margins(va, ua, vb, ub, idx) -> np.ndarray:
    """Margins (P, W), inches, by which the lines of edges ``idx`` (P, W) of polygons
    ``va`` have the polygons ``vb`` beyond them (negative: some of it is not), read at
    the vertex of ``vb`` reaching furthest across each."""
    r = np.arange(len(va))[:, None]
    n, m = va.shape[1], vb.shape[1]
    k = _support(ub, ua[r, idx] + math.pi) + 1
    k[k >= m] -= m
    nid = idx + 1
    nid[nid >= n] -= n
    ax, ay = va[r, idx, 0], va[r, idx, 1]
    nx, ny = va[r, nid, 1] - ay, ax - va[r, nid, 0]                   # outward normals
    return ((vb[r, k, 0] - ax) * nx + (vb[r, k, 1] - ay) * ny) / np.sqrt(nx * nx + ny * ny)


def _window_best(va, ua, ca, ra, vb, ub, cb, rb) -> tuple[np.ndarray, np.ndarray]:
    """(largest margin (P,), its edge (P,)) over every edge of ``va`` facing the other
    polygon: an edge whose outward normal makes an angle with the line of centres
    (``ca`` to ``cb``) whose cosine is at most (inradius ``ra`` + inradius ``rb``) /
    centre distance cannot have the other polygon beyond it.  -inf where none can."""
    P, n, _ = va.shape
    dx, dy = cb[:, 0] - ca[:, 0], cb[:, 1] - ca[:, 1]
    with np.errstate(divide="ignore", invalid="ignore"):
        kappa = (ra + rb) / np.sqrt(dx * dx + dy * dy)
    can = kappa < 1.0
    half = np.arccos(np.where(can, kappa, 1.0))[:, None]
    phi = np.arctan2(dy, dx)[:, None]
    start = _support(ua, phi - half)[:, 0]
    end = _support(ua, phi + half)[:, 0]
    width = int(np.mod(end - start, n).max()) + 3
    if width >= n:
        idx = np.broadcast_to(np.arange(n), (P, n)).copy()
    else:
        idx = np.mod(start[:, None] - 1 + np.arange(width), n)       # (P, W) edges read
    margin = _margins(va, ua, vb, ub, idx)
    margin[~can] = -np.inf
    best = np.argmax(margin, axis=1)
    rows = np.arange(P)
    return margin[rows, best], idx[rows, best]


def _best_edges(va, ua, ca, ra, vb, ub, cb, rb) -> tuple[np.ndarray, np.ndarray]:
    """(largest margin (P,), its edge (P,)) over the edges of ``va`` against ``vb``.

    For a polygon of many edges: the margin at ``COARSE_EDGES`` edges evenly spread,
    then at the edges round the best of them, out to one past its neighbours.  Where
    the margin is positive its superlevel sets are runs of consecutive edges (the
    normals of the lines that separate one convex set from another grown by that much
    form one arc), so a positive best that beats both ends of the run read is the best
    of all edges; any other polygon is read again by ``_window_best``."""
    P, n, _ = va.shape
    if n < 2 * COARSE_EDGES:
        return _window_best(va, ua, ca, ra, vb, ub, cb, rb)
    rows = np.arange(P)
    step = n // COARSE_EDGES
    coarse = np.broadcast_to(np.arange(0, n, step), (P, len(range(0, n, step))))
    top = coarse[rows, np.argmax(_margins(va, ua, vb, ub, coarse), axis=1)]
    idx = np.mod(top[:, None] + np.arange(-step - 1, step + 2), n)
    margin = _margins(va, ua, vb, ub, idx)
    w = np.argmax(margin, axis=1)
    got, edge = margin[rows, w], idx[rows, w]
    sure = ((got > 0.0) & (w > 0) & (w < idx.shape[1] - 1)
            & (got > margin[:, 0] + 1e-12) & (got > margin[:, -1] + 1e-12))
    redo = np.nonzero(~sure)[0]
    if len(redo):
        got[redo], edge[redo] = _window_best(va[redo], ua[redo], ca[redo], ra[redo],
                                             vb[redo], ub[redo], cb[redo], rb[redo])
    return got, edge


def _one_way(va, ua, ca, ra, vb, ub, cb, rb) -> tuple[np.ndarray, np.ndarray]:
    """Each polygon of ``va`` (P, n, 2) measured by its edges against ``vb``: (the largest
    margin by which an edge's line has the whole other polygon beyond it, inches, (P,),
    -inf when no edge can; the least distance from the furthest-reaching vertices, each
    with its neighbours, to the edge of that margin and its two neighbours, (P,)).
    A margin read off a neighbour of the true furthest vertex (angles rounded) is short
    by a rounding error at most; the distance is exact either way (every vertex
    measured is the other polygon's, so none reads nearer than they are)."""
    P, n, _ = va.shape
    m = vb.shape[1]
    r = np.arange(P)[:, None]
    best_margin, best = _best_edges(va, ua, ca, ra, vb, ub, cb, rb)
    e = np.mod(best[:, None] + _ROUND, n)                              # (P, 3) edges
    e2 = np.mod(e + 1, n)
    ke = np.mod(_support(ub, ua[r, e] + math.pi) + 1, m)
    c = np.mod(ke[:, :, None] + _ROUND, m)                            # (P, 3, 3) vertices
    rr = np.arange(P)[:, None, None]
    d = _point_segment(vb[rr, c, 0], vb[rr, c, 1], va[r, e, 0][:, :, None],
                       va[r, e, 1][:, :, None], va[r, e2, 0][:, :, None],
                       va[r, e2, 1][:, :, None])
    return best_margin, d.reshape(P, -1).min(axis=1)


def convex_gaps(forms_a: list, forms_b: list) -> np.ndarray:
    """Edge-to-edge distances (P,) in inches of P pairs of convex polygons, each given
    by its ``convex_form`` (the polygons of ``forms_a`` with the same vertex count, and
    those of ``forms_b``); 0 when a pair touches or overlaps, as ``shapely.distance``
    reads it.

    The two are apart exactly when some edge's line has the whole other polygon beyond
    it (by a margin > 0); then they are nearest along an edge of their Minkowski
    difference: an edge of one and the vertex of the other reaching furthest across it.
    The edge of the largest margin is that edge or meets it at the nearest vertex, so
    only the edges round it are measured, against their furthest-reaching vertices."""
    P = len(forms_a)
    if not P:
        return np.zeros(0)
    def table(forms: list) -> tuple:
        k = len(forms)
        return (np.stack([f[0] for f in forms]), np.stack([f[1] for f in forms]),
                np.array([f[2] for f in forms], dtype=float).reshape(k, 2),
                np.array([f[3] for f in forms], dtype=float))

    if len(forms_a[0][0]) == len(forms_b[0][0]):       # both ways in one computation
        both = list(forms_a) + list(forms_b)
        sep, d = _one_way(*table(both), *table(both[P:] + both[:P]))
        sep_a, sep_b, d_a, d_b = sep[:P], sep[P:], d[:P], d[P:]
    else:
        a, b = table(forms_a), table(forms_b)
        sep_a, d_a = _one_way(*a, *b)
        sep_b, d_b = _one_way(*b, *a)
    apart = np.maximum(sep_a, sep_b) > 0.0
    return np.where(apart, np.minimum(d_a, d_b), 0.0)
