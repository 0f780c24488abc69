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
Most pairs need less (``odd_gaps``): a polygon against a point (a round base's or an
objective's centre) and two copies of one symmetric base facing one way (a point against
the base doubled) are measured in the template's own frame, every edge's margin at once
(``_frame_gaps``), with no placed outline: ``LazyForm`` builds that only when read.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import shapely

from tabletop.board.bases import Base
from tabletop.geometry.footprints import OVAL_SEGMENTS

_TEMPLATES: dict[Base, tuple[np.ndarray, bool, np.ndarray, float]] = {}
_TWO_PI = 2.0 * math.pi
_OVAL_T = np.linspace(0.0, 2.0 * math.pi, OVAL_SEGMENTS, endpoint=False)
_OVAL_COS, _OVAL_SIN = np.cos(_OVAL_T), np.sin(_OVAL_T)
# the unit circle's angles, cosines and sines ``base_polygon`` builds an oval from: fixed,
# whatever the base


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
            outline = np.empty((OVAL_SEGMENTS + 1, 2))
            outline[:-1, 0] = a * _OVAL_COS
            outline[:-1, 1] = b * _OVAL_SIN
            outline[-1] = outline[0]
        else:
            outline = shapely.get_coordinates(shapely.box(-a, -b, a, b))
        v = outline[:-1]
        x, y = outline[:, 0], outline[:, 1]                 # closed: x[k + 1] follows x[k]
        ccw = float(np.dot(x[:-1], y[1:]) - np.dot(x[1:], y[:-1])) >= 0.0
        if not ccw:
            v = v[::-1]
        e = np.empty_like(v)
        e[:-1] = v[1:] - v[:-1]
        e[-1] = v[0] - v[-1]
        ang = np.arctan2(-e[:, 0], e[:, 1])
        step = np.mod(np.diff(ang), _TWO_PI)
        un = np.empty(len(ang))
        un[0] = ang[0]
        np.cumsum(step, out=un[1:])
        un[1:] += ang[0]
        inner = float(((v[:, 0] * e[:, 1] - v[:, 1] * e[:, 0]) / np.hypot(e[:, 0], e[:, 1])).min())
        got = _TEMPLATES[base] = (outline, ccw, un, max(0.0, inner - 1e-9))
        _keep_frame(un, np.ascontiguousarray(v))
    return got



def clear_templates() -> None:
    """Forget the kept templates (benchmarks timing a table seen for the first time)."""
    _TEMPLATES.clear()
    _FRAMES.clear()
    _REACHES.clear()


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
                ) -> tuple[np.ndarray, np.ndarray, tuple[float, float], float, np.ndarray]:
    """(counter-clockwise vertices (k, 2), their outward edge normals' angles (k,),
    radians, increasing, the centre (x, y), the inradius about it in inches, the
    template's normal angles (k,) before the turn, shared by every form of ``base``) of
    one outline of ``base`` placed at (x, y) (``placed_outlines``): the form
    ``convex_gaps`` measures."""
    _, ccw, un, inner = _template(base)
    v = outline[:-1] if ccw else outline[-2::-1]
    return v, un + theta, (x, y), inner, un


def convex_forms(base: Base, outlines: np.ndarray, thetas: np.ndarray, xs, ys) -> list:
    """``convex_form`` of each of ``placed_outlines``' outlines (p, k + 1, 2) of ``base``,
    at (xs[q], ys[q]) turned by ``thetas[q]`` radians: the template read once."""
    _, ccw, un, inner = _template(base)
    verts = outlines[:, :-1] if ccw else outlines[:, -2::-1]
    angles = un[None, :] + np.asarray(thetas, dtype=float)[:, None]
    return [(verts[q], angles[q], (x, y), inner, un) for q, (x, y) in enumerate(zip(xs, ys))]


class LazyForm:
    """A ``convex_form`` of ``base`` placed at (x, y) facing ``facing`` degrees whose
    placed outline is built only when first read: read as the form's 5-tuple (``f[0]``
    the counter-clockwise vertices, ``f[1]`` the normal angles, ``f[2]`` the centre,
    ``f[3]`` the inradius, ``f[4]`` the template's normal angles), the very values
    ``convex_form`` gives.  Measuring in the template's frame (``odd_gaps``,
    ``point_distances``) needs only the turn, the centre and the template, so a table
    whose ovals are measured that way builds no outline at all."""

    __slots__ = ("base", "x", "y", "facing", "theta", "a0", "inner", "un", "ccw", "_outline",
                 "_angles")

    def __init__(self, base: Base, x: float, y: float, facing: float, theta: float,
                 template: tuple | None = None):
        _, ccw, un, inner = template or _template(base)
        self.base, self.x, self.y, self.facing, self.theta = base, x, y, facing, theta
        self.un, self.inner, self.ccw = un, inner, ccw
        self.a0 = float(un[0] + theta)         # the first normal angle, as ``f[1][0]``
        self._outline: np.ndarray | None = None
        self._angles: np.ndarray | None = None

    @property
    def outline(self) -> np.ndarray:
        """The closed outline (k + 1, 2), inches: ``placed_outlines``' (``base_polygon``'s
        coordinates, bit for bit)."""
        if self._outline is None:
            self._outline = placed_outlines(self.base, [self.x], [self.y], [self.facing])[0][0]
        return self._outline

    def __len__(self) -> int:
        return 5

    def __getitem__(self, k: int):
        if k == 0:
            o = self.outline
            return o[:-1] if self.ccw else o[-2::-1]
        if k == 1:
            if self._angles is None:
                self._angles = self.un + self.theta
            return self._angles
        if k == 2:
            return (self.x, self.y)
        if k == 3:
            return self.inner
        if k == 4:
            return self.un
        raise IndexError(k)


def lazy_forms(base: Base, xs, ys, facings) -> list[LazyForm]:
    """``LazyForm``s of ``base`` at each (x, y, facing degrees), turned as
    ``placed_outlines`` turns them."""
    t = _template(base)
    return [LazyForm(base, x, y, f, f * math.pi / 180.0, t) for x, y, f in zip(xs, ys, facings)]


def _a0(f) -> float:
    """A form's first normal angle (``f[1][0]``), radians, without building a lazy form's
    angles."""
    return f.a0 if type(f) is LazyForm else float(f[1][0])


def template_reach(base: Base) -> float:
    """The circumradius of a non-round ``base``'s outline about its centre, inches, from
    its template, with 2e-9 to spare: no less than the distance from a placed outline's
    centre to its farthest vertex (``reaches``) whatever the turn and place (they differ
    by rounding only).  Kept per base with the template."""
    got = _REACHES.get(base)
    if got is None:
        t = _template(base)[0]
        got = _REACHES[base] = float(np.sqrt((t * t).sum(axis=1).max())) + 2e-9
    return got


_REACHES: dict[Base, float] = {}


def reaches(outlines: np.ndarray, xs, ys) -> np.ndarray:
    """Circumradius of each outline (p, k, 2) about its centre, inches, 1e-9 more (as
    ``near_pairs.reach_of``)."""
    dx = outlines[:, :, 0] - np.asarray(xs, dtype=float)[:, None]
    dy = outlines[:, :, 1] - np.asarray(ys, dtype=float)[:, None]
    return np.sqrt((dx * dx + dy * dy).max(axis=1)) + 1e-9


class _Side(NamedTuple):
    """P convex polygons of one vertex count m for ``convex_gaps``: the vertices of
    polygon p are ``v[rows[p]]`` ((m, 2), inches; ``v`` stacked once, read through
    ``rows`` so that a selection copies no vertices); the normal angle of edge 0,
    ``a0`` (P,), radians; their templates' normal angles less that of edge 0, ``rel``
    (U, m) (each from 0, increasing, under 2 pi), ``tid`` (P,) the row of ``rel`` of each
    polygon and ``flat`` the rows of ``rel`` laid end to end 4 pi apart (one sorted array
    to search); centres ``c`` (P, 2) and inradii ``r`` (P,), inches."""

    v: np.ndarray
    rows: np.ndarray
    a0: np.ndarray
    rel: np.ndarray
    tid: np.ndarray
    flat: np.ndarray
    c: np.ndarray
    r: np.ndarray

    def take(self, rows: np.ndarray) -> _Side:
        return self._replace(rows=self.rows[rows], a0=self.a0[rows], tid=self.tid[rows],
                             c=self.c[rows], r=self.r[rows])

    def angles(self, idx: np.ndarray) -> np.ndarray:
        """Outward normal angles (radians) of edges ``idx`` (P, W)."""
        if len(self.rel) == 1:                  # one template: no row to pick
            return self.rel[0][idx] + self.a0[:, None]
        return self.rel[self.tid[:, None], idx] + self.a0[:, None]


def _side(forms: list) -> _Side:
    """The ``_Side`` of ``convex_form``s of one vertex count."""
    rows: dict[int, int] = {}
    tid = np.array([rows.setdefault(id(f[4]), len(rows)) for f in forms], dtype=np.intp)
    firsts: dict[int, np.ndarray] = {}
    for f in forms:
        firsts.setdefault(id(f[4]), f[4])
    rel = np.stack([un - un[0] for un in firsts.values()])
    flat = (rel + (np.arange(len(rel), dtype=float) * (2.0 * _TWO_PI))[:, None]).ravel()
    return _Side(np.stack([f[0] for f in forms]), np.arange(len(forms)),
                 np.array([_a0(f) for f in forms]),
                 rel, tid, flat, np.array([f[2] for f in forms], dtype=float).reshape(-1, 2),
                 np.array([f[3] for f in forms], dtype=float))


def _support(s: _Side, target: np.ndarray) -> np.ndarray:
    """For each polygon p of ``s`` and angle ``target[p, i]``: the index k of polygon p's
    edge whose normal angle is the last at or below it (cyclically), so that vertex k + 1
    reaches furthest in that direction (to rounding: its neighbours are measured too)."""
    t = np.mod(target - s.a0[:, None], _TWO_PI)
    if len(s.rel) == 1:                         # one template: its row alone
        k = s.flat.searchsorted(t, side="right")
        k -= 1
        return k
    t += (s.tid * (2.0 * _TWO_PI))[:, None]
    k = s.flat.searchsorted(t, side="right")
    return k - (s.tid * s.rel.shape[1] + 1)[:, None]


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


def _margins(a: _Side, b: _Side, idx: np.ndarray) -> np.ndarray:
    """Margins (P, W), inches, by which the lines of edges ``idx`` (P, W) of the polygons
    of ``a`` have the polygons of ``b`` beyond them (negative: some of it is not), read
    at the vertex of ``b`` reaching furthest across each."""
    va, vb = a.v, b.v
    r, q = a.rows[:, None], b.rows[:, None]
    n, m = va.shape[1], vb.shape[1]
    k = _support(b, a.angles(idx) + math.pi) + 1
    k[k >= m] -= m
    nid = idx + 1
    nid[nid >= n] -= n
    ax, ay = va[r, idx, 0], va[r, idx, 1]
    nx, ny = va[r, nid, 1] - ay, ax - va[r, nid, 0]                   # outward normals
    return ((vb[q, k, 0] - ax) * nx + (vb[q, k, 1] - ay) * ny) / np.sqrt(nx * nx + ny * ny)


def _window_best(a: _Side, b: _Side) -> tuple[np.ndarray, np.ndarray]:
    """(largest margin (P,), its edge (P,)) over every edge of ``a``'s polygons facing the
    other polygon: an edge whose outward normal makes an angle with the line of centres
    whose cosine is at most (inradius + inradius) / centre distance cannot have the other
    polygon beyond it.  -inf where none can."""
    P, n = len(a.rows), a.v.shape[1]
    dx, dy = b.c[:, 0] - a.c[:, 0], b.c[:, 1] - a.c[:, 1]
    with np.errstate(divide="ignore", invalid="ignore"):
        kappa = (a.r + b.r) / np.sqrt(dx * dx + dy * dy)
    can = kappa < 1.0
    half = np.arccos(np.where(can, kappa, 1.0))[:, None]
    phi = np.arctan2(dy, dx)[:, None]
    start = _support(a, phi - half)[:, 0]
    end = _support(a, phi + half)[:, 0]
    width = int(np.mod(end - start, n).max()) + 3
    if width >= n:
        idx = np.broadcast_to(np.arange(n), (P, n)).copy()
    else:
        idx = np.mod(start[:, None] - 1 + np.arange(width), n)       # (P, W) edges read
    margin = _margins(a, b, idx)
    margin[~can] = -np.inf
    best = np.argmax(margin, axis=1)
    rows = np.arange(P)
    return margin[rows, best], idx[rows, best]


def _best_edges(a: _Side, b: _Side) -> tuple[np.ndarray, np.ndarray]:
    """(largest margin (P,), its edge (P,)) over the edges of ``a``'s polygons against
    ``b``'s.

    For a polygon of many edges: the margin at ``COARSE_EDGES`` edges evenly spread,
    then at the edges round the best of them, out to one past its neighbours.  Where
    the margin is positive its superlevel sets are runs of consecutive edges (the
    normals of the lines that separate one convex set from another grown by that much
    form one arc), so a positive best that beats both ends of the run read is the best
    of all edges; any other polygon is read again by ``_window_best``."""
    P, n = len(a.rows), a.v.shape[1]
    if n < 2 * COARSE_EDGES:
        return _window_best(a, b)
    rows = np.arange(P)
    step = n // COARSE_EDGES
    coarse = np.broadcast_to(np.arange(0, n, step), (P, len(range(0, n, step))))
    top = coarse[rows, np.argmax(_margins(a, b, coarse), axis=1)]
    idx = np.mod(top[:, None] + np.arange(-step - 1, step + 2), n)
    margin = _margins(a, b, idx)
    w = np.argmax(margin, axis=1)
    got, edge = margin[rows, w], idx[rows, w]
    sure = ((got > 0.0) & (w > 0) & (w < idx.shape[1] - 1)
            & (got > margin[:, 0] + 1e-12) & (got > margin[:, -1] + 1e-12))
    redo = np.nonzero(~sure)[0]
    if len(redo):
        got[redo], edge[redo] = _window_best(a.take(redo), b.take(redo))
    return got, edge


def _one_way(a: _Side, b: _Side) -> tuple[np.ndarray, np.ndarray]:
    """Each polygon of ``a`` (P of them, n vertices) measured by its edges against ``b``'s:
    (the largest margin by which an edge's line has the whole other polygon beyond it,
    inches, (P,), -inf when no edge can; the least distance from the furthest-reaching
    vertices, each with its neighbours, to the edge of that margin and its two
    neighbours, (P,)).  A margin read off a neighbour of the true furthest vertex
    (angles rounded) is short by a rounding error at most; the distance is exact either
    way (every vertex measured is the other polygon's, so none reads nearer than they
    are)."""
    va, vb = a.v, b.v
    P, n, m = len(a.rows), va.shape[1], vb.shape[1]
    r = a.rows[:, None]
    best_margin, best = _best_edges(a, b)
    e = np.mod(best[:, None] + _ROUND, n)                              # (P, 3) edges
    e2 = np.mod(e + 1, n)
    ke = np.mod(_support(b, a.angles(e) + math.pi) + 1, m)
    c = np.mod(ke[:, :, None] + _ROUND, m)                            # (P, 3, 3) vertices
    rr = b.rows[:, None, None]
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
    if len(forms_a[0][0]) == len(forms_b[0][0]):       # both ways in one computation
        a = _side(list(forms_a) + list(forms_b))
        b = a.take(np.concatenate([np.arange(P, 2 * P), np.arange(P)]))
        sep, d = _one_way(a, b)
        sep_a, sep_b, d_a, d_b = sep[:P], sep[P:], d[:P], d[P:]
    else:
        a, b = _side(list(forms_a)), _side(list(forms_b))
        sep_a, d_a = _one_way(a, b)
        sep_b, d_b = _one_way(b, a)
    apart = np.maximum(sep_a, sep_b) > 0.0
    return np.where(apart, np.minimum(d_a, d_b), 0.0)


def _both_ways(a: _Side, b: _Side, ra: np.ndarray, rb: np.ndarray) -> np.ndarray:
    """``convex_gaps`` of the pairs (row ``ra[k]`` of ``a``, row ``rb[k]`` of ``b``)."""
    P = len(ra)
    if a is b:                                          # both ways in one computation
        sep, d = _one_way(a.take(np.concatenate([ra, rb])), a.take(np.concatenate([rb, ra])))
        sep_a, sep_b, d_a, d_b = sep[:P], sep[P:], d[:P], d[P:]
    else:
        pa, pb = a.take(ra), b.take(rb)
        sep_a, d_a = _one_way(pa, pb)
        sep_b, d_b = _one_way(pb, pa)
    apart = np.maximum(sep_a, sep_b) > 0.0
    return np.where(apart, np.minimum(d_a, d_b), 0.0)


def gaps_of_pairs(forms: np.ndarray, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """``convex_gaps`` of the pairs (``forms[i[k]]``, ``forms[j[k]]``) (``forms``: an
    object array of ``convex_form``s, any vertex counts), inches (P,): each polygon
    stacked once, the pairs grouped by their two vertex counts, one numpy computation
    per group."""
    g = np.empty(len(i))
    if not len(i):
        return g
    fi, fj = forms[i].tolist(), forms[j].tolist()
    twin = np.fromiter(map(_are_twins, fi, fj), bool, len(i))
    if twin.any():
        # two copies of one symmetric base facing one way (a squad's bases): a point
        # against the base doubled (``twin_gaps``); the others as below
        at = np.flatnonzero(twin)
        g[at] = twin_gaps([fi[k] for k in at.tolist()], [fj[k] for k in at.tolist()])
        rest = np.flatnonzero(~twin)
        if len(rest):
            g[rest] = _general_gaps(forms, i[rest], j[rest])
        return g
    return _general_gaps(forms, i, j)


def _general_gaps(forms: np.ndarray, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """``gaps_of_pairs`` by ``convex_gaps``' search (any two convex forms)."""
    g = np.empty(len(i))
    seen = np.zeros(len(forms), dtype=bool)
    seen[i] = True
    seen[j] = True
    used = np.flatnonzero(seen)                         # the polygons in some pair
    counts = np.array([len(f[0]) for f in forms[used].tolist()], dtype=np.intp)
    sizes = sorted(set(counts.tolist()))
    if len(sizes) == 1:
        row = np.cumsum(seen) - 1                       # each used polygon's row
        s = _side(forms[used].tolist())
        return _both_ways(s, s, row[i], row[j])
    at_used = np.empty(len(forms), dtype=np.intp)       # index into ``used``
    at_used[used] = np.arange(len(used))
    inv_i, inv_j = at_used[i], at_used[j]
    row = np.empty(len(used), dtype=np.intp)           # each used polygon's row in its side
    sides = {}
    for size in sizes:
        members = np.nonzero(counts == size)[0]
        row[members] = np.arange(len(members))
        sides[size] = _side(forms[used[members]].tolist())
    ci, cj = counts[inv_i], counts[inv_j]
    ri, rj = row[inv_i], row[inv_j]
    key = ci * (max(sizes) + 1) + cj
    for k in np.unique(key).tolist():
        at = np.nonzero(key == k)[0]
        g[at] = _both_ways(sides[int(ci[at[0]])], sides[int(cj[at[0]])], ri[at], rj[at])
    return g






class _Frame(NamedTuple):
    """A template as ``point_distances`` and ``twin_gaps`` read it, in its own frame
    (centred on the origin, facing 0): its normal angles ``un`` (k,), radians (the array
    every form of the template shares), their cosines ``nx`` and sines ``ny`` (k,), its
    counter-clockwise vertices ``v`` (k, 2) and each edge line's offset from the centre
    along its normal ``h`` (k,), inches; ``twin``: whether it is centrally symmetric (an
    oval or a rectangle), so that two copies facing the same way are measured as a point
    against it doubled.  ``ax``, ``ay`` (edge starts), ``ex``, ``ey`` (edge vectors) and
    ``l2`` (squared lengths, 1 for an edge of no length) run k + 2 long, edge k - 1
    first and edge 0 last again, so that edges e - 1, e, e + 1 are entries e to e + 2."""

    un: np.ndarray
    nx: np.ndarray
    ny: np.ndarray
    v: np.ndarray
    h: np.ndarray
    twin: bool
    ax: np.ndarray
    ay: np.ndarray
    ex: np.ndarray
    ey: np.ndarray
    l2: np.ndarray


_FRAMES: dict[int, _Frame] = {}
_FRAMES_KEPT = 256


def _keep_frame(un: np.ndarray, v: np.ndarray) -> _Frame:
    """Build and keep the ``_Frame`` of the template of normal angles ``un`` and
    counter-clockwise vertices ``v`` (k, 2), inches, about its centre."""
    nx, ny = np.cos(un), np.sin(un)
    k = len(v)
    scale = float(np.abs(v).max())
    twin = bool(k % 2 == 0 and np.abs(v[: k // 2] + v[k // 2:]).max() <= 1e-12 * max(scale, 1.0))
    ring = np.concatenate([v[-1:], v, v[:2]])           # vertices k - 1, 0, ..., k - 1, 0, 1
    e = ring[1:] - ring[:-1]                             # edges k - 1, 0, ..., k - 1, 0
    l2 = (e * e).sum(axis=1)
    l2[l2 == 0.0] = 1.0                                  # an edge of no length: its start
    if len(_FRAMES) >= _FRAMES_KEPT:
        _FRAMES.clear()
    got = _FRAMES[id(un)] = _Frame(un, nx, ny, v, v[:, 0] * nx + v[:, 1] * ny, twin,
                                   ring[:-1, 0], ring[:-1, 1], e[:, 0], e[:, 1], l2)
    return got


def _frame(form: tuple) -> _Frame:
    """The ``_Frame`` of the template a ``convex_form`` was placed from: the one kept when
    the template was built, else read back off the form (turned back and moved to the
    origin: the same to rounding)."""
    un = form[4]
    got = _FRAMES.get(id(un))
    if got is None or got.un is not un:
        v = form[0]
        th = _a0(form) - float(un[0])
        c, s = math.cos(th), math.sin(th)
        dx, dy = v[:, 0] - form[2][0], v[:, 1] - form[2][1]
        got = _keep_frame(un, np.stack([c * dx + s * dy, c * dy - s * dx], axis=1))
    return got


_THREE = np.arange(3)


def _frame_gaps(qx: np.ndarray, qy: np.ndarray, f: _Frame) -> np.ndarray:
    """Distances (P,) in inches from points (``qx``, ``qy``) (P,) in the frame of template
    ``f`` to it, 0 inside or on it.

    A point outside a convex polygon is nearest to it on the edge whose line it is
    furthest beyond (the largest margin), or at an end of it: at an edge's inner point
    that edge's margin is the distance and no other line has the point further beyond
    it; at a vertex the point lies in the vertex's cone of normals, where the margin of
    every other edge is at most one of the two at the vertex.  So every edge's margin is
    read at once, and the edge of the largest and its two neighbours (against rounding)
    are measured (the nearest point of each, its projection held to the edge); a point
    no edge has beyond it (largest margin <= 0) is inside."""
    m = np.multiply.outer(qx, f.nx)
    m += np.multiply.outer(qy, f.ny)
    m -= f.h
    e = m.argmax(axis=1)[:, None] + _THREE              # entries of edges e - 1, e, e + 1
    outside = m.max(axis=1) > 0.0
    px, py = qx[:, None], qy[:, None]
    wx = px - f.ax[e]
    wy = py - f.ay[e]
    ex, ey = f.ex[e], f.ey[e]
    t = (wx * ex + wy * ey) / f.l2[e]
    np.clip(t, 0.0, 1.0, out=t)
    wx -= t * ex
    wy -= t * ey
    d = np.hypot(wx, wy).min(axis=1)
    return np.where(outside, d, 0.0)


def _frame_distances(forms: np.ndarray, anchor: np.ndarray, dx: np.ndarray, dy: np.ndarray,
                     grow: np.ndarray | float = 1.0) -> np.ndarray:
    """Distances (P,) in inches from points (``dx[k]``, ``dy[k]``) (inches, from the centre
    of polygon ``forms[anchor[k]]``, table axes) to that polygon's template turned as it
    is and scaled by ``grow[k]`` (1: the polygon itself; 2: the template doubled,
    ``twin_gaps``), 0 for a point inside or on it: each point turned back into the
    template's frame and scaled down by ``grow`` (a power of two: exactly), measured
    there (``_frame_gaps``), the distance scaled back.  ``shapely.distance``'s answer to
    rounding (the template's frame moves the coordinates by an ulp or so).  Numpy over
    every point of one template at once."""
    out = np.empty(len(anchor))
    if not len(anchor):
        return out
    fs = forms[anchor].tolist()
    scaled = np.ndim(grow) > 0
    groups: dict[int, list[int]] = {}
    for k, f in enumerate(fs):
        groups.setdefault(id(f[4]), []).append(k)
    for ks in groups.values():
        whole = len(ks) == len(fs)
        at = slice(None) if whole else np.array(ks, dtype=np.intp)
        fr = _frame(fs[ks[0]])
        th = np.array([_a0(fs[k]) for k in ks]) - fr.un[0]
        c, s = np.cos(th), np.sin(th)
        px, py = dx[at], dy[at]
        qx, qy = c * px + s * py, c * py - s * px
        if scaled:
            gk = np.asarray(grow, dtype=float)[at]
            out[at] = _frame_gaps(qx / gk, qy / gk, fr) * gk
        elif grow != 1.0:
            out[at] = _frame_gaps(qx / grow, qy / grow, fr) * grow
        else:
            out[at] = _frame_gaps(qx, qy, fr)
    return out


def point_distances(forms: np.ndarray, idx: np.ndarray, px: np.ndarray, py: np.ndarray
                    ) -> np.ndarray:
    """Distances (P,) in inches from points (``px[k]``, ``py[k]``) to the convex polygons
    ``forms[idx[k]]`` (``forms``: an object array of ``convex_form``s), 0 for a point
    inside or on the outline, as ``shapely.distance`` reads a polygon and a point (to
    rounding): measured in each polygon's template frame (``_frame_distances``), so a
    polygon beside an objective's centre or a round base needs no Shapely geometry."""
    idx = np.asarray(idx, dtype=np.intp)
    if not len(idx):
        return np.empty(0)
    cen = np.array([f[2] for f in forms[idx].tolist()], dtype=float).reshape(-1, 2)
    return _frame_distances(forms, idx, np.asarray(px, dtype=float) - cen[:, 0],
                            np.asarray(py, dtype=float) - cen[:, 1])


def twin_gaps(forms_a: list, forms_b: list) -> np.ndarray:
    """Edge-to-edge distances (P,) in inches of pairs of polygons placed from one centrally
    symmetric template (``_Frame.twin``) facing the same way (``convex_form``s of equal
    normal angles), 0 when they touch or overlap: ``convex_gaps``' answer, to rounding.

    Two such polygons A = a + P and B = b + P are apart by the distance from the origin
    to B - A = (b - a) + (P - P), and P - P is P doubled when P is centrally symmetric
    (P = -P, and a convex set plus itself is itself doubled): so the gap is the distance
    from a - b to the template doubled, turned as they are (``_frame_distances``)."""
    P = len(forms_a)
    if not P:
        return np.empty(0)
    fa = np.empty(P, dtype=object)
    for k, f in enumerate(forms_a):
        fa[k] = f
    ca = np.array([f[2] for f in forms_a], dtype=float)
    cb = np.array([f[2] for f in forms_b], dtype=float)
    return _frame_distances(fa, np.arange(P), ca[:, 0] - cb[:, 0], ca[:, 1] - cb[:, 1], 2.0)


def odd_gaps(forms: np.ndarray, a: np.ndarray, b: np.ndarray, centres: np.ndarray,
             is_round: np.ndarray) -> np.ndarray:
    """Distances (P,) in inches of pairs (``a[k]``, ``b[k]``) with a polygon in them
    (``forms``: each base's ``convex_form``, None for a round one; ``centres`` (n, 2),
    inches): a polygon and a round base, the polygon's distance to the round base's
    centre (its radius is for the caller to take off); two polygons, their gap
    (``gaps_of_pairs``).  The pairs of a polygon and a round base and of twin polygons
    (``twin_gaps``) are measured together, one numpy computation per template
    (``_frame_distances``); other pairs of polygons by ``convex_gaps``' search."""
    P = len(a)
    out = np.empty(P)
    if not P:
        return out
    ra, rb = is_round[a], is_round[b]
    pp = (~ra & ~rb).nonzero()[0]
    simple = ~(~ra & ~rb)
    general = pp[:0]
    if len(pp):
        twin = np.fromiter(map(_are_twins, forms[a[pp]].tolist(), forms[b[pp]].tolist()),
                           bool, len(pp))
        simple[pp[twin]] = True
        general = pp[~twin]
    rows = simple.nonzero()[0]
    if len(rows):
        ar, br, rbr = a[rows], b[rows], rb[rows]
        # from the anchor polygon's centre to the point: the round base's centre, or for
        # twins the other's centre reflected (a - b, against the base doubled)
        sign = np.where(rbr, -1.0, 1.0)
        dx = sign * (centres[ar, 0] - centres[br, 0])
        dy = sign * (centres[ar, 1] - centres[br, 1])
        anchor = np.where(ra[rows], br, ar)
        grow = np.where(ra[rows] | rbr, 1.0, 2.0)
        out[rows] = _frame_distances(forms, anchor, dx, dy, grow)
    if len(general):
        out[general] = _general_gaps(forms, a[general], b[general])
    return out


def _are_twins(fa: tuple, fb: tuple) -> bool:
    """Whether two ``convex_form``s are one centrally symmetric template facing one way."""
    return fa[4] is fb[4] and _a0(fa) == _a0(fb) and _frame(fa).twin
