"""Shortest paths for a round base round other round bases (tangents and arcs).

A round base of radius r passes clear of a round base of radius q standing
at c exactly when its centre stays at least r + q (+ a margin) from c: the
obstacle, grown by the mover's radius, is a circle the centre must stay out
of.  The shortest path for a point among disjoint or overlapping circles is
made of straight legs tangent to the circles and arcs along them (a
visibility graph over tangent points); ``shortest_path`` builds that graph
and runs Dijkstra on it.  It is exact: the length it returns is the length
of the geodesic, and the polyline it draws follows each arc on its outside
(every chord touches the circle at most), so the polyline is clear too.

Only the circles that get in the way are looked at (``shortest_path`` adds
the circles the current path crosses, with every circle overlapping them,
and searches again), so a clear way costs one straight leg.

Not wired into the pile-in solver (its round routes are slides, ``slides.py``,
the steering's kind of route round the bases, not shortest paths): used for every
round route there, with the best reachable spot on a grid round the start,
it leaves the bench case 14 of 20 engaged where the pymunk routes give 15 -
exact paths pack the front rank into the pockets straight ahead, and the
rank behind then finds no gap within engagement range.  It waits for a
placement that keeps such gaps.

Inches, origin bottom-left, y up; the search runs in a frame centred on the
start, so the same case anywhere on the table gives the same path.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

XY = tuple[float, float]

#: an arc is drawn as a polyline whose legs turn by at most this (degrees); its
#: legs lie outside the circle and touch it (the length is 0.13% over the arc's)
ARC_STEP_DEG = 8.0
#: the search runs in a frame centred on the start, every coordinate rounded to
#: this many decimals (inches): the same case anywhere on the table, the same path
FRAME_DECIMALS = 9
#: a leg counts as clear of a circle it passes at this much less than the radius
#: (inches; float noise on tangent legs, which touch their circles exactly)
GRAZE = 1e-7


@dataclass(frozen=True)
class CirclePath:
    """A shortest path: its polyline, its exact length (inches), and for each
    vertex the circle it lies on (-1: none; the polyline's outside corners of an
    arc name the arc's circle)."""

    points: list[XY]
    length: float
    on: list[int]
    complete: bool = True


def _seg_clear(ax, ay, bx, by, cx, cy, cr) -> np.ndarray:
    """For each segment (arrays of shape (s,)) whether it stays out of every
    circle (arrays of shape (c,)): shape (s,)."""
    dx, dy = bx - ax, by - ay
    ll = dx * dx + dy * dy
    px = cx[None, :] - ax[:, None]
    py = cy[None, :] - ay[:, None]
    t = np.where(ll[:, None] > 0, (px * dx[:, None] + py * dy[:, None]) / np.where(
        ll > 0, ll, 1.0)[:, None], 0.0)
    t = np.clip(t, 0.0, 1.0)
    qx = px - t * dx[:, None]
    qy = py - t * dy[:, None]
    return ((qx * qx + qy * qy) >= (cr[None, :] - GRAZE) ** 2).all(axis=1)


def _point_tangents(p: XY, c: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where lines from ``p`` touch each circle (both ways): points (2n, 2) and
    their circles (2n,); circles holding ``p`` give none."""
    dx, dy = p[0] - c[:, 0], p[1] - c[:, 1]
    d = np.hypot(dx, dy)
    ok = d > c[:, 2]
    base = np.arctan2(dy, dx)[ok]
    a = np.arccos(np.clip(c[ok, 2] / d[ok], -1.0, 1.0))
    idx = np.nonzero(ok)[0]
    th = np.concatenate([base + a, base - a])
    ii = np.concatenate([idx, idx])
    pts = np.column_stack([c[ii, 0] + c[ii, 2] * np.cos(th), c[ii, 1] + c[ii, 2] * np.sin(th)])
    return pts, ii


def _bitangents(c: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every leg touching two circles (outer two, inner two when apart): start
    points (m, 2), end points (m, 2), first and second circle (m,)."""
    n = len(c)
    i, j = np.triu_indices(n, 1)
    dx, dy = c[j, 0] - c[i, 0], c[j, 1] - c[i, 1]
    d = np.hypot(dx, dy)
    base = np.arctan2(dy, dx)
    a_out, b_out, ia, ib = [], [], [], []
    for sign2 in (1.0, -1.0):                  # 1: outer, -1: inner
        cos = np.where(d > 0, (c[i, 2] - sign2 * c[j, 2]) / np.where(d > 0, d, 1.0), 2.0)
        ok = np.abs(cos) <= 1.0
        al = np.arccos(np.clip(cos, -1.0, 1.0))
        for s in (1.0, -1.0):
            th = (base + s * al)[ok]
            nx, ny = np.cos(th), np.sin(th)
            ci, cj = i[ok], j[ok]
            a_out.append(np.column_stack([c[ci, 0] + c[ci, 2] * nx, c[ci, 1] + c[ci, 2] * ny]))
            b_out.append(np.column_stack([c[cj, 0] + sign2 * c[cj, 2] * nx,
                                          c[cj, 1] + sign2 * c[cj, 2] * ny]))
            ia.append(ci)
            ib.append(cj)
    return (np.concatenate(a_out), np.concatenate(b_out), np.concatenate(ia),
            np.concatenate(ib))


def _free(pts: np.ndarray, own: np.ndarray, c: np.ndarray, box) -> np.ndarray:
    """For each point (on circle ``own``, -1 none): outside every other circle and in the box."""
    if not len(pts):
        return np.zeros(0, dtype=bool)
    ok = np.ones(len(pts), dtype=bool)
    if box is not None:
        x0, y0, x1, y1 = box
        ok &= (pts[:, 0] >= x0 - GRAZE) & (pts[:, 0] <= x1 + GRAZE) \
            & (pts[:, 1] >= y0 - GRAZE) & (pts[:, 1] <= y1 + GRAZE)
    if len(c):
        d2 = (pts[:, None, 0] - c[None, :, 0]) ** 2 + (pts[:, None, 1] - c[None, :, 1]) ** 2
        inside = d2 < (c[None, :, 2] - GRAZE) ** 2
        inside[np.arange(len(pts)), np.maximum(own, 0)] &= own < 0
        ok &= ~inside.any(axis=1)
    return ok


def _blocked_arcs(c: np.ndarray, box) -> list[list[tuple[float, float]]]:
    """For each circle, the angle intervals (centre, half width) of its outline
    that lie inside another circle or outside the box."""
    n = len(c)
    out: list[list[tuple[float, float]]] = [[] for _ in range(n)]
    if n > 1:
        dx = c[None, :, 0] - c[:, None, 0]
        dy = c[None, :, 1] - c[:, None, 1]
        d = np.hypot(dx, dy)
        ri, rj = c[:, None, 2], c[None, :, 2]
        meet = (d < ri + rj) & (d > np.abs(ri - rj)) & ~np.eye(n, dtype=bool)
        cos = np.where(meet, (ri * ri + d * d - rj * rj) / np.where(meet, 2 * ri * d, 1.0), 1.0)
        half = np.arccos(np.clip(cos, -1.0, 1.0))
        cen = np.arctan2(dy, dx)
        for i, j in zip(*np.nonzero(meet)):
            out[i].append((float(cen[i, j]), float(half[i, j])))
    if box is not None:
        x0, y0, x1, y1 = box
        for i in range(n):
            cx, cy, r = c[i]
            for gap, cen_ in ((cx - x0, math.pi), (x1 - cx, 0.0), (cy - y0, -math.pi / 2),
                              (y1 - cy, math.pi / 2)):
                if gap < r:
                    out[i].append((cen_, math.acos(max(-1.0, gap / r)) if r > 0 else math.pi))
    return out


class _Graph:
    """Nodes (start 0, goal 1, tangent points) and clear edges between them."""

    def __init__(self, c: np.ndarray, box):
        self.c = c
        self.box = box
        self.xy: list[XY] = []
        self.on: list[int] = []
        # (to, length, (arc circle or -1, turn +1 counterclockwise / -1))
        self.adj: list[list[tuple[int, float, tuple[int, int]]]] = []
        self.per_circle: dict[int, list[int]] = {}

    def node(self, p: XY, circle: int) -> int:
        self.xy.append(p)
        self.on.append(circle)
        self.adj.append([])
        if circle >= 0:
            self.per_circle.setdefault(circle, []).append(len(self.xy) - 1)
        return len(self.xy) - 1

    def join(self, u: int, v: int, w: float, arc: tuple[int, int]) -> None:
        """An edge both ways; ``arc`` (circle, turn: +1 counterclockwise from u to v)."""
        self.adj[u].append((v, w, arc))
        self.adj[v].append((u, w, (arc[0], -arc[1])))

    def legs(self, a: np.ndarray, ia: np.ndarray, b: np.ndarray, ib: np.ndarray,
             from_node: int | None = None) -> None:
        """Add the clear legs a -> b (a on circle ia, b on ib; -1 none); every a is
        node ``from_node`` when given."""
        if not len(a):
            return
        ok = _free(b, ib, self.c, self.box)
        if from_node is None:
            ok &= _free(a, ia, self.c, self.box)
        k = np.nonzero(ok)[0]
        if not len(k):
            return
        if len(self.c):
            k = k[_seg_clear(a[k, 0], a[k, 1], b[k, 0], b[k, 1],
                             self.c[:, 0], self.c[:, 1], self.c[:, 2])]
        for q in k.tolist():
            pa = (float(a[q, 0]), float(a[q, 1]))
            pb = (float(b[q, 0]), float(b[q, 1]))
            na = from_node if from_node is not None else self.node(pa, int(ia[q]))
            nb = self.node(pb, int(ib[q]))
            self.join(na, nb, math.dist(pa, pb), (-1, 0))

    def arcs(self) -> None:
        """Join the nodes on each circle to their neighbours round it, where the
        arc between them stays out of every other circle and in the box."""
        blocked = _blocked_arcs(self.c, self.box)
        two_pi = 2 * math.pi
        for i, nodes in self.per_circle.items():
            if len(nodes) < 2:
                continue
            cx, cy, r = self.c[i]
            ang = sorted((math.atan2(self.xy[n][1] - cy, self.xy[n][0] - cx), n) for n in nodes)
            for k in range(len(ang)):
                a0, n0 = ang[k]
                a1, n1 = ang[(k + 1) % len(ang)]
                span = (a1 - a0) % two_pi
                if span == 0.0:
                    continue
                if any((cen - a0) % two_pi < span for cen, _ in blocked[i]):
                    continue
                self.join(n0, n1, float(r) * span, (i, 1))

    def dijkstra(self, s: int, g: int, approach: bool = False
                 ) -> list[tuple[int, tuple[int, int]]] | None:
        """[(node, the arc of the edge into it: (circle or -1, turn))] from s to g.
        When g cannot be reached: None, or with ``approach`` the route to the
        reachable node nearest to g (as the crow flies; ties: the shorter route)."""
        dist = {s: 0.0}
        prev: dict[int, tuple[int, tuple[int, int]]] = {}
        heap = [(0.0, s)]
        done = set()
        while heap:
            d, u = heapq.heappop(heap)
            if u in done:
                continue
            done.add(u)
            if u == g:
                break
            for v, w, arc in self.adj[u]:
                nd = d + w
                if nd < dist.get(v, math.inf) - 1e-12:
                    dist[v] = nd
                    prev[v] = (u, arc)
                    heapq.heappush(heap, (nd, v))
        if g not in done:
            if not approach:
                return None
            gx, gy = self.xy[g]
            g = min(done, key=lambda n: (round(math.hypot(self.xy[n][0] - gx, self.xy[n][1] - gy),
                                               FRAME_DECIMALS), round(dist[n], FRAME_DECIMALS), n))
        out = []
        v = g
        while v != s:
            u, arc = prev[v]
            out.append((v, arc))
            v = u
        out.append((s, (-1, 0)))
        return out[::-1]


def _search(start: XY, goal: XY, c: np.ndarray, box, approach: bool = False):
    """Dijkstra over the visibility graph of ``c``: (route, graph) or None
    (``approach``: see ``_Graph.dijkstra``)."""
    gr = _Graph(c, box)
    s = gr.node(start, -1)
    g = gr.node(goal, -1)
    if not len(c) or _seg_clear(np.array([start[0]]), np.array([start[1]]), np.array([goal[0]]),
                                np.array([goal[1]]), c[:, 0], c[:, 1], c[:, 2])[0]:
        gr.join(s, g, math.dist(start, goal), (-1, 0))
        return gr.dijkstra(s, g), gr
    for node, p in ((s, start), (g, goal)):
        pts, ii = _point_tangents(p, c)
        gr.legs(np.repeat(np.array([p], dtype=float), len(pts), axis=0),
                np.full(len(pts), -1), pts, ii, from_node=node)
    if len(c) > 1:
        a, b, ia, ib = _bitangents(c)
        gr.legs(a, ia, b, ib)
    gr.arcs()
    route = gr.dijkstra(s, g, approach)
    if route is None:
        return None
    return route, gr


def _draw(route: list[tuple[int, tuple[int, int]]], gr: _Graph) -> CirclePath:
    pts: list[XY] = [gr.xy[route[0][0]]]
    on = [gr.on[route[0][0]]]
    length = 0.0
    for k in range(1, len(route)):
        u, (v, (arc, turn)) = route[k - 1][0], route[k]
        a, b = gr.xy[u], gr.xy[v]
        if arc < 0:
            length += math.dist(a, b)
        else:
            cx, cy, r = gr.c[arc]
            a0 = math.atan2(a[1] - cy, a[0] - cx)
            a1 = math.atan2(b[1] - cy, b[0] - cx)
            span = ((a1 - a0) * turn) % (2 * math.pi)
            length += r * span
            m = max(1, int(math.ceil(math.degrees(span) / ARC_STEP_DEG)))
            step = span / m
            rr = r / math.cos(step / 2.0)
            for j in range(m):
                t = a0 + turn * (step / 2.0 + j * step)
                pts.append((cx + rr * math.cos(t), cy + rr * math.sin(t)))
                on.append(arc)
        pts.append(b)
        on.append(gr.on[v])
    return CirclePath(pts, length, on)


def shortest_path(start: XY, goal: XY, circles: Sequence[tuple[float, float, float]],
                  box: tuple[float, float, float, float] | None = None,
                  approach: bool = False) -> CirclePath | None:
    """The shortest path for a point from ``start`` to ``goal`` that never enters
    one of ``circles`` [(x, y, radius)] and keeps its corners in ``box``
    (x0, y0, x1, y1), inches.

    A circle that holds the start or the goal (a base that starts, or ends, a
    hair into a neighbour) is shrunk to pass through it, so the path never goes
    deeper into it.  Returns None when no path exists (walled in) - or, with
    ``approach``, the shortest path to the tangent point nearest the goal (as
    the crow flies) that can be reached (``CirclePath.complete`` False).  The
    polyline's legs stay out of every circle (outside corners on arcs); its
    ``length`` is the geodesic's (the polyline is at most 0.13% longer).
    """
    ox, oy = float(start[0]), float(start[1])
    c = np.asarray(circles, dtype=float).reshape(-1, 3).copy()
    c[:, 0] = np.round(c[:, 0] - ox, FRAME_DECIMALS)
    c[:, 1] = np.round(c[:, 1] - oy, FRAME_DECIMALS)
    gx = round(float(goal[0]) - ox, FRAME_DECIMALS)
    gy = round(float(goal[1]) - oy, FRAME_DECIMALS)
    if len(c):
        for px, py in ((0.0, 0.0), (gx, gy)):
            d = np.hypot(c[:, 0] - px, c[:, 1] - py)
            c[:, 2] = np.where(d < c[:, 2], np.maximum(0.0, d - 2 * GRAZE), c[:, 2])
    rbox = None if box is None else (box[0] - ox, box[1] - oy, box[2] - ox, box[3] - oy)
    # circles that touch or overlap one another, grouped (a wall of bases)
    n = len(c)
    if n:
        dd = np.hypot(c[:, None, 0] - c[None, :, 0], c[:, None, 1] - c[None, :, 1])
        touch = dd <= c[:, None, 2] + c[None, :, 2]
    active: set[int] = set()
    path = None
    for _ in range(n + 1):
        idx = sorted(active)
        found = _search((0.0, 0.0), (gx, gy), c[idx], rbox, approach)
        if found is None:
            return None
        route, gr = found
        drawn = _draw(route, gr)
        hit = _crossed(np.array(drawn.points), c, active)
        if not hit:
            end = drawn.points[-1]
            path = CirclePath([(float(x) + ox, float(y) + oy) for x, y in drawn.points],
                              drawn.length, [idx[i] if i >= 0 else -1 for i in drawn.on],
                              bool(end[0] == gx and end[1] == gy))
            break
        grow = set(hit)
        while True:
            more = {int(j) for i in grow for j in np.nonzero(touch[i])[0]} - grow - active
            if not more:
                break
            grow |= more
        active |= grow
    return path


def _crossed(pts: np.ndarray, c: np.ndarray, active: set[int]) -> set[int]:
    """The circles (not in ``active``) that a leg of the polyline enters."""
    if not len(c) or len(pts) < 2:
        return set()
    a, b = pts[:-1], pts[1:]
    dx, dy = b[:, 0] - a[:, 0], b[:, 1] - a[:, 1]
    ll = dx * dx + dy * dy
    px = c[None, :, 0] - a[:, None, 0]
    py = c[None, :, 1] - a[:, None, 1]
    t = np.clip((px * dx[:, None] + py * dy[:, None]) / np.where(ll > 0, ll, 1.0)[:, None], 0, 1)
    qx, qy = px - t * dx[:, None], py - t * dy[:, None]
    into = (qx * qx + qy * qy < (c[None, :, 2] - 1e-6) ** 2).any(axis=0)
    return {int(k) for k in np.nonzero(into)[0]} - active
