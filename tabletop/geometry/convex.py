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
from tabletop.geometry.footprints import base_polygon

_TEMPLATES: dict[Base, tuple[np.ndarray, bool, np.ndarray]] = {}
_TWO_PI = 2.0 * math.pi


def _template(base: Base) -> tuple[np.ndarray, bool, np.ndarray]:
    """(closed outline (k + 1, 2) of a non-round ``base`` centred on the origin facing 0
    degrees: ``base_polygon``'s own coordinates; whether it runs counter-clockwise; the
    outward edge normals' angles of its counter-clockwise vertices, radians, increasing).
    Kept per base (it depends on nothing else)."""
    got = _TEMPLATES.get(base)
    if got is None:
        outline = shapely.get_coordinates(base_polygon(base, 0.0, 0.0, 0.0))
        v = outline[:-1]
        x, y = v[:, 0], v[:, 1]
        ccw = float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y)) >= 0.0
        if not ccw:
            v = v[::-1]
        e = np.roll(v, -1, axis=0) - v
        ang = np.arctan2(-e[:, 0], e[:, 1])
        step = np.mod(np.diff(ang), _TWO_PI)
        un = np.concatenate([ang[:1], ang[0] + np.cumsum(step)])
        got = _TEMPLATES[base] = (outline, ccw, un)
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
        c, s = math.cos(angle), math.sin(angle)
        cs.append(0.0 if abs(c) < 2.5e-16 else c)
        sn.append(0.0 if abs(s) < 2.5e-16 else s)
        th.append(angle)
    c = np.array(cs)[:, None]
    s = np.array(sn)[:, None]
    tx, ty = t[:, 0][None, :], t[:, 1][None, :]
    out = np.empty((len(cs), len(t), 2))
    out[:, :, 0] = (c * tx + (-s) * ty + 0.0) + np.asarray(xs, dtype=float)[:, None]
    out[:, :, 1] = (s * tx + c * ty + 0.0) + np.asarray(ys, dtype=float)[:, None]
    return out, np.array(th)


def convex_form(base: Base, outline: np.ndarray, theta: float) -> tuple[np.ndarray, np.ndarray]:
    """(counter-clockwise vertices (k, 2), their outward edge normals' angles (k,),
    radians, increasing) of one placed outline of ``base`` (``placed_outlines``): the
    form ``convex_gaps`` measures."""
    _, ccw, un = _template(base)
    v = outline[:-1] if ccw else outline[-2::-1]
    return v, un + theta


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
    t = base + np.mod(target - base, _TWO_PI)
    off = (np.arange(P, dtype=float) * 16.0 * math.pi)[:, None]
    flat = (un_b + off).ravel()
    k = np.searchsorted(flat, (t + off).ravel(), side="right").reshape(target.shape) - 1
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


def _one_way(va, ua, vb, ub) -> tuple[np.ndarray, np.ndarray]:
    """Each polygon of ``va`` (P, n, 2) measured by its edges against ``vb``: (the largest
    margin by which an edge's line has the whole other polygon beyond it, inches, (P,);
    the least distance from the furthest-reaching vertices (each with its neighbours)
    to the edge of that margin and its two neighbours, (P,)).  A margin read off a
    neighbour of the true furthest vertex (angles rounded) is short by a rounding error
    at most; the distance is exact either way (every vertex measured is one of the
    other polygon's, so none reads nearer than the polygons are)."""
    P, n, _ = va.shape
    m = vb.shape[1]
    r = np.arange(P)[:, None]
    k = np.mod(_support(ub, ua + math.pi) + 1, m)                # (P, n) furthest vertex
    ax, ay = va[:, :, 0], va[:, :, 1]
    nxt = np.roll(va, -1, axis=1)
    nx, ny = nxt[:, :, 1] - ay, ax - nxt[:, :, 0]                 # outward normals
    margin = ((vb[r, k, 0] - ax) * nx + (vb[r, k, 1] - ay) * ny) / np.sqrt(nx * nx + ny * ny)
    best = np.argmax(margin, axis=1)
    e = np.mod(best[:, None] + _ROUND, n)                         # (P, 3) edges
    e2 = np.mod(e + 1, n)
    c = np.mod(k[r, e][:, :, None] + _ROUND, m)                    # (P, 3, 3) vertices
    rr = np.arange(P)[:, None, None]
    d = _point_segment(vb[rr, c, 0], vb[rr, c, 1], ax[r, e][:, :, None], ay[r, e][:, :, None],
                       va[r, e2, 0][:, :, None], va[r, e2, 1][:, :, None])
    return margin[np.arange(P), best], d.reshape(P, -1).min(axis=1)


def convex_gaps(va: np.ndarray, ua: np.ndarray, vb: np.ndarray, ub: np.ndarray) -> np.ndarray:
    """Edge-to-edge distances (P,) in inches of P pairs of convex polygons: ``va`` (P, n,
    2), ``vb`` (P, m, 2) counter-clockwise vertices, ``ua``, ``ub`` their edge normals'
    angles (``convex_form``); 0 when a pair touches or overlaps, as ``shapely.distance``
    reads it.

    The two are apart exactly when some edge's line has the whole other polygon beyond
    it (by a margin > 0); then they are nearest along an edge of their Minkowski
    difference: an edge of one and the vertex of the other reaching furthest across it.
    The edge of the largest margin is that edge or meets it at the nearest vertex, so
    only the edges round it are measured, against their furthest-reaching vertices."""
    if not len(va):
        return np.zeros(0)
    sep_a, d_a = _one_way(va, ua, vb, ub)
    sep_b, d_b = _one_way(vb, ub, va, ua)
    apart = np.maximum(sep_a, sep_b) > 0.0
    return np.where(apart, np.minimum(d_a, d_b), 0.0)
