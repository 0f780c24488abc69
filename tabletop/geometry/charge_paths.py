"""Shortest charge paths round bases and terrain (visibility graph + Dijkstra).

A charging model is moved by its centre.  Every obstacle (another model's
base, a blocking terrain shape) is grown by the charger's radius, so the
centre must stay out of the grown shapes; overlapping grown shapes are merged.
The shortest way from the start to a goal region is then a polyline whose
corners are convex corners of the grown shapes (a visibility graph), found
with Dijkstra (``heapq``).  A grown circle is a polygon whose chords lie
outside the true circle (radius divided by cos of half a segment's angle,
``QUAD_SEGS`` segments a quarter), so a path never cuts a base; its length is
at most 0.5% over the true geodesic round a base, exact along straight legs.

Enemy units that were not declared targets may be kept off by their
engagement range (``arena_shapes`` ``keep_off``): their bases are grown by it
first, so a path never passes within it.

Only obstacles that get in the way are added (the path's legs that cross a
grown shape add it, and the search runs again), so a clear charge costs one
straight leg.  Candidate shapes come from one ``STRtree``.

A goal is a region the centre must reach: a disc (round charger, round
target: centre distance at most r + R + range, exact) or a polygon (other
bases, grown with Shapely).  The path ends where it first enters the goal.

The table's edges bound every path: ``arena_for`` adds a frame round the
table (a band ``TABLE_FRAME`` inches wide outside it), grown like any other
obstacle, so a centre stays at least the charger's radius inside each edge and
no path leaves the table (a base may not be moved off the table).

Inches, origin bottom-left, y up.  Non-round chargers are treated as their
bounding circle (``Base.radius``, half the longer extent): a little cautious.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.polygon import orient
from shapely.ops import nearest_points, unary_union

__all__ = ["QUAD_SEGS", "TABLE_FRAME", "table_frame", "Goal", "ChargePath", "ChargeArena", "grown_circle_radius",
           "arena_for", "arena_shapes", "goals_for", "END_MARGIN", "end_shrink"]

XY = tuple[float, float]

#: segments per quarter circle of a grown base (32 a circle)
QUAD_SEGS = 8
#: a leg may touch a grown shape's boundary: the shapes are shrunk this much (inches) for the test
GRAZE = 1e-6
#: width (inches) of the band round the table that stands for "off the table" (any width
#: wider than the largest base would do: the band only has to hold the grown edge)
TABLE_FRAME = 10.0
#: passes of "add the shapes the path crosses and search again" before giving up
MAX_PASSES = 40
#: a declared target's bases are obstacles too (a path may end against a target model,
#: never pass through one), shrunk by the chord allowance of the grown circle plus this
#: margin (inches), so the spots in base contact with them stay just outside their grown
#: shapes (``arena_shapes`` ``ends``); the overlap this allows is far below the tolerance
END_MARGIN = 1e-3


def grown_circle_radius(radius: float) -> float:
    """The buffer distance whose ``QUAD_SEGS`` polygon holds a circle of ``radius`` (inches)."""
    return radius / math.cos(math.pi / (4 * QUAD_SEGS))


@dataclass(frozen=True)
class Goal:
    """A region the charger's centre must reach: ``disc`` (cx, cy, radius) or ``shape`` (a
    Shapely polygon); ``label`` names it (the target model's id)."""

    label: str
    disc: tuple[float, float, float] | None = None
    shape: Polygon | None = None

    def contains(self, p: XY, tol: float = 0.0) -> bool:
        if self.disc is not None:
            cx, cy, rad = self.disc
            return math.hypot(p[0] - cx, p[1] - cy) <= rad + tol
        assert self.shape is not None
        return bool(self.shape.distance(Point(p)) <= tol)

    def entry(self, a: XY, b: XY) -> float:
        """How far along the leg a-b it first enters this goal (inches; inf if it never does)."""
        if self.contains(a):
            return 0.0
        if self.disc is not None:
            cx, cy, rad = self.disc
            dx, dy = b[0] - a[0], b[1] - a[1]
            L = math.hypot(dx, dy)
            if L == 0:
                return math.inf
            ux, uy = dx / L, dy / L
            fx, fy = a[0] - cx, a[1] - cy
            bq = fx * ux + fy * uy
            disc = bq * bq - (fx * fx + fy * fy - rad * rad)
            if disc < 0:
                return math.inf
            t = -bq - math.sqrt(disc)
            return t if 0 <= t <= L + 1e-9 else math.inf
        assert self.shape is not None
        hit = LineString([a, b]).intersection(self.shape)
        if hit.is_empty:
            return math.inf
        leg = LineString([a, b])
        return min(leg.project(Point(c)) for g in getattr(hit, "geoms", [hit])
                   for c in g.coords) if not hit.is_empty else math.inf

    def closest(self, p: XY) -> tuple[XY, float]:
        """The goal's closest point to ``p`` and the distance to it (0 inside)."""
        if self.disc is not None:
            cx, cy, rad = self.disc
            d = math.hypot(p[0] - cx, p[1] - cy)
            if d <= rad:
                return p, 0.0
            k = rad / d
            return (cx + (p[0] - cx) * k, cy + (p[1] - cy) * k), d - rad
        assert self.shape is not None
        if self.shape.contains(Point(p)):
            return p, 0.0
        q = nearest_points(self.shape, Point(p))[0]
        return (q.x, q.y), math.hypot(q.x - p[0], q.y - p[1])


@dataclass(frozen=True)
class ChargePath:
    """A charge path: ``points`` from the start to where it enters the goal, its ``length``
    (inches), the goal it reaches (``goal``, a label), and ``found`` (False: walled off)."""

    points: tuple[XY, ...]
    length: float
    goal: str | None
    found: bool = True


def _convex_corners(poly: Polygon) -> list[tuple[XY, XY, XY]]:
    """The corners of ``poly`` that stick out into free space (left turns once oriented),
    each as (corner, previous vertex, next vertex) along its ring."""
    out: list[tuple[XY, XY, XY]] = []
    poly = orient(poly, 1.0)
    for ring in [poly.exterior, *poly.interiors]:
        pts = np.asarray(ring.coords)[:-1]
        n = len(pts)
        if n < 3:
            continue
        prev = np.roll(pts, 1, axis=0)
        nxt = np.roll(pts, -1, axis=0)
        cross = ((pts[:, 0] - prev[:, 0]) * (nxt[:, 1] - pts[:, 1])
                 - (pts[:, 1] - prev[:, 1]) * (nxt[:, 0] - pts[:, 0]))
        keep = cross > 1e-12
        out.extend(((x, y), (a, b), (c2, d2)) for (x, y), (a, b), (c2, d2)
                   in zip(pts[keep].tolist(), prev[keep].tolist(), nxt[keep].tolist()))
    return out


def _on_ring(corners: list[tuple[XY, XY, XY]], hull: Polygon) -> list[tuple[XY, XY, XY]]:
    """The ``corners`` that lie on ``hull``'s boundary (one vectorised distance query)."""
    if not corners:
        return []
    pts = shapely.points(np.asarray([c[0] for c in corners], dtype=float))
    near = shapely.distance(hull.exterior, pts) < 1e-9
    return [c for c, ok in zip(corners, near) if ok]


def tangent_mask(at: np.ndarray, prev: np.ndarray, nxt: np.ndarray, to: np.ndarray) -> np.ndarray:
    """Whether legs from corners ``at`` (with ring neighbours ``prev``, ``nxt``) towards
    ``to`` leave the corner tangentially (both neighbours on one side of the leg): only such
    legs can be part of a shortest path.  Rows with NaN neighbours (the start) pass."""
    d = to - at
    a = d[..., 0] * (prev[..., 1] - at[..., 1]) - d[..., 1] * (prev[..., 0] - at[..., 0])
    b = d[..., 0] * (nxt[..., 1] - at[..., 1]) - d[..., 1] * (nxt[..., 0] - at[..., 0])
    ok = a * b >= -1e-12
    return ok | np.isnan(prev[..., 0])


class ChargeArena:
    """The grown obstacles one charger must go round, built once, asked many times.

    Parameters
    ----------
    shapes : the obstacles as they stand on the table (bases, blocking terrain), Shapely
        polygons, inches.
    grow : the charger's radius (inches); each shape is grown by it (circles: see
        ``grown_circle_radius``).

    Attributes read by ``geometry.reach_field`` too: ``parts`` (the merged grown
    obstacles), ``corners`` (each part's convex corners, as (corner, previous,
    next) points) and ``shrunk`` (each part shrunk by ``GRAZE``, prepared: a point
    inside it is inside the obstacle).
    """

    def __init__(self, shapes: Sequence[Polygon], grow: float):
        for _ in self._build(shapes, grow):
            pass

    @classmethod
    def pieces(cls, shapes: Sequence[Polygon], grow: float) -> Generator[int, None, ChargeArena]:
        """The arena built in pieces (a generator whose value is the arena): yields the work
        of each piece, the vertices made or looked at, so a window can build it across
        frames; the arena is the one ``ChargeArena(shapes, grow)`` builds."""
        arena = cls.__new__(cls)
        yield from arena._build(shapes, grow)
        return arena

    def _build(self, shapes: Sequence[Polygon], grow: float) -> Iterator[int]:
        grown = []
        for s in shapes:
            if not s.is_empty:
                grown.append(s.buffer(grown_circle_radius(grow), quad_segs=QUAD_SEGS))
                yield len(grown[-1].exterior.coords)
        merged = unary_union(grown) if grown else Polygon()
        yield sum(len(g.exterior.coords) for g in grown)
        parts = list(getattr(merged, "geoms", [merged])) if not merged.is_empty else []
        self.parts: list[Polygon] = [p for p in parts if isinstance(p, Polygon) and not p.is_empty]
        self.tree = shapely.STRtree(self.parts) if self.parts else None
        self.corners, self._hulls, self._hull_corners, self.shrunk = [], [], [], []
        for p in self.parts:
            self.corners.append(_convex_corners(p))
            self._hulls.append(p.convex_hull)
            self._hull_corners.append(_on_ring(self.corners[-1], self._hulls[-1]))
            self.shrunk.append(p.buffer(-GRAZE))
            shapely.prepare(self.shrunk[-1])
            yield 4 * shapely.get_num_coordinates(p)

    def blocked(self, p: XY) -> int | None:
        """The index of the grown shape that holds point ``p`` well inside, else None."""
        if self.tree is None:
            return None
        for i in self.tree.query(Point(p), predicate="intersects"):
            if self.shrunk[int(i)].contains(Point(p)):
                return int(i)
        return None

    def _crossed(self, a: XY, b: XY, active: Iterable[int]) -> set[int]:
        """The grown shapes (not among ``active``'s exclusions) the leg a-b passes through."""
        if self.tree is None:
            return set()
        leg = LineString([a, b]) if a != b else Point(a)
        return {int(i) for i in self.tree.query(leg, predicate="intersects")
                if int(i) in active and self.shrunk[int(i)].intersects(leg)}

    def shortest(self, start: XY, goals: Sequence[Goal], *, ignore: Iterable[int] = (),
                 tol: float = 0.0) -> ChargePath:
        """The shortest path from ``start`` to the nearest of ``goals``.

        ``ignore`` lists grown shapes to pass through (the shape the start stands in).
        The arena keeps each answer (the planner and the landing ask the same paths).
        Returns a ``ChargePath`` with ``found=False`` (length inf) when every goal is walled off.
        """
        key = (tuple(start), tuple((g.label, g.disc, None if g.shape is None else g.shape.wkb)
                                   for g in goals), tuple(sorted(ignore)), tol)
        memo = self.__dict__.setdefault("_memo", {})
        if key not in memo:
            memo[key] = self._shortest(start, goals, ignore, tol)
        return memo[key]

    def _shortest(self, start: XY, goals: Sequence[Goal], ignore: Iterable[int],
                  tol: float) -> ChargePath:
        ignored = set(ignore)
        start_in = self.blocked(start)
        if start_in is not None:
            ignored.add(start_in)
        allowed = set(range(len(self.parts))) - ignored
        for g in goals:
            if g.contains(start, tol):
                return ChargePath((start,), 0.0, g.label)
        used: set[int] = set()
        for _ in range(MAX_PASSES):
            path = self._search(start, goals, used)
            if path is None:
                return ChargePath((start,), math.inf, None, found=False)
            hit: set[int] = set()
            for a, b in zip(path.points, path.points[1:]):
                hit |= self._crossed(a, b, allowed) - used
            if not hit:
                return path
            used |= hit
        return ChargePath((start,), math.inf, None, found=False)

    def _search(self, start: XY, goals: Sequence[Goal], used: set[int]) -> ChargePath | None:
        """A* over the visibility graph of ``used`` shapes' corners (Euclidean distance to
        the nearest goal is the admissible heuristic; it never overestimates)."""
        nan = (math.nan, math.nan)
        trip: list[tuple[XY, XY, XY]] = [(start, nan, nan)]
        for i in sorted(used):
            trip.extend(self._useful_corners(i, start, goals, used))
        nodes: list[XY] = [t[0] for t in trip]
        pts = np.asarray(nodes)
        prv = np.asarray([t[1] for t in trip])
        nxt = np.asarray([t[2] for t in trip])
        n = len(nodes)
        block = unary_union([self.shrunk[i] for i in sorted(used)]) if used else None
        if block is not None:
            shapely.prepare(block)

        def visible(a: np.ndarray, targets: np.ndarray) -> np.ndarray:
            if block is None or len(targets) == 0:
                return np.ones(len(targets), dtype=bool)
            lines = shapely.linestrings(np.stack([np.broadcast_to(a, targets.shape), targets], axis=1))
            return ~shapely.intersects(block, lines)

        h = np.asarray([min(g.closest(nodes[k])[1] for g in goals) for k in range(n)])
        dist = np.full(n, math.inf)
        prev = [-1] * n
        dist[0] = 0.0
        done = np.zeros(n, dtype=bool)
        heap = [(float(h[0]), 0.0, 0)]
        best_total, best_node, best_end = math.inf, -1, (start, "")
        while heap:
            f, d, k = heapq.heappop(heap)
            if done[k] or d > dist[k]:
                continue
            if f >= best_total:
                break
            done[k] = True
            for g in sorted(goals, key=lambda g: g.closest(nodes[k])[1]):
                q, gd = g.closest(nodes[k])
                if d + gd >= best_total:
                    break
                if (gd == 0 or tangent_mask(pts[k], prv[k], nxt[k], np.asarray(q))) and \
                        visible(pts[k], np.asarray([q]))[0]:
                    best_total, best_node, best_end = d + gd, k, (q, g.label)
                    break
            todo = np.nonzero(~done)[0]
            gaps = np.hypot(pts[todo, 0] - pts[k, 0], pts[todo, 1] - pts[k, 1])
            ends = h[todo] == 0       # corners inside a goal: the leg ends where it enters
            keep = ((d + gaps < dist[todo]) & (d + gaps + h[todo] < best_total)
                    & tangent_mask(pts[k], prv[k], nxt[k], pts[todo])
                    & (ends | tangent_mask(pts[todo], prv[todo], nxt[todo], pts[k])))
            todo, gaps = todo[keep], gaps[keep]
            if len(todo) == 0:
                continue
            ok = visible(pts[k], pts[todo])
            for j in todo[ok & ends[keep]]:
                for g in goals:
                    e = g.entry(nodes[k], nodes[int(j)])
                    if d + e < best_total:
                        a, b = pts[k], pts[int(j)]
                        L = float(np.hypot(*(b - a)))
                        q = tuple(a + (b - a) * (e / L)) if L > 0 else nodes[k]
                        best_total, best_node, best_end = d + e, k, ((float(q[0]), float(q[1])), g.label)
            ok &= ~ends[keep]
            for j, g in zip(todo[ok], gaps[ok]):
                nd = d + float(g)
                if nd < dist[j]:
                    dist[j] = nd
                    prev[j] = k
                    heapq.heappush(heap, (nd + float(h[j]), nd, int(j)))
        if best_node < 0:
            return None
        chain = []
        k = best_node
        while k >= 0:
            chain.append(nodes[k])
            k = prev[k]
        chain.reverse()
        if best_end[0] != nodes[best_node]:
            chain.append(best_end[0])
        return ChargePath(tuple(chain), best_total, best_end[1])

    def _useful_corners(self, i: int, start: XY, goals: Sequence[Goal], used: set[int]
                        ) -> list[tuple[XY, XY, XY]]:
        """Corners of grown shape ``i`` a shortest path may bend at: those on its convex hull,
        or all its convex corners when the start or a goal lies in its hull or its hull meets
        another shape's (a path may then have to enter a pocket)."""
        hull = self._hulls[i]
        inside = hull.contains(Point(start)) or any(
            (g.disc is not None and hull.distance(Point(g.disc[:2])) <= g.disc[2])
            or (g.shape is not None and hull.intersects(g.shape)) for g in goals)
        if inside or any(j != i and hull.intersects(self._hulls[j]) for j in used):
            return self.corners[i]
        return self._hull_corners[i]

    def distances_from(self, starts: Sequence[XY], points: np.ndarray, limit: float) -> np.ndarray:
        """Shortest path length (inches) from the nearest of ``starts`` to each of ``points``
        ((N, 2) array), round every grown shape; ``inf`` past ``limit`` or walled off.

        Dijkstra over every convex corner within ``limit`` of a start, then each point takes the
        best visible corner (or start) within the remaining reach (``distance_pieces`` run to
        its end, all points in one chunk).
        """
        points = np.asarray(points, dtype=float).reshape(-1, 2)
        out = np.full(len(points), math.inf)
        for _ in self.distance_pieces(starts, [points], limit, [out]):
            pass
        return out

    def distance_pieces(self, starts: Sequence[XY], chunks: Sequence[np.ndarray], limit: float,
                        outs: Sequence[np.ndarray]) -> Iterator[tuple[int, int | None]]:
        """``distances_from`` in pieces, for a window that draws between them (no thread).

        ``chunks`` are (n_i, 2) arrays of points (inches), ``outs`` the (n_i,) float arrays
        their path lengths go into (filled with ``inf`` first; a chunk's array is final when
        the generator says so).  Yields ``(work, chunk)`` after each corner the Dijkstra
        settles (``chunk`` None) and after each corner tried against a chunk's points, then
        ``(0, i)`` when chunk ``i`` is done: ``work`` counts the leg tests made (candidates
        looked at, plus each leg tried against each blocking shape), so a caller can stop
        after a counted amount of work, never a clock.  The lengths are those
        ``distances_from`` gives, whatever the pieces.
        """
        starts = list(starts)
        corners: list[tuple[XY, XY, XY]] = []
        shapes: list[int] = []
        if self.tree is not None:
            box = shapely.box(min(s[0] for s in starts) - limit, min(s[1] for s in starts) - limit,
                              max(s[0] for s in starts) + limit, max(s[1] for s in starts) + limit)
            shapes = [int(i) for i in self.tree.query(box)]
            live = [np.asarray(c, dtype=float).reshape(-1, 2) for c in chunks if len(c)]
            if live:
                every = np.vstack(live)
                lo, hi = every.min(axis=0), every.max(axis=0)
            sxy = np.asarray(starts, dtype=float).reshape(-1, 2)
            for i in shapes:
                got = self.corners[i]
                if live and got:
                    # a corner helps only if start -> corner -> the points' box fits the reach
                    # (a lower bound of any path through it): an ellipse round the search
                    at = np.asarray([c[0] for c in got], dtype=float)
                    to_start = np.min(np.hypot(at[:, None, 0] - sxy[None, :, 0],
                                               at[:, None, 1] - sxy[None, :, 1]), axis=1)
                    dx = np.maximum(np.maximum(lo[0] - at[:, 0], 0.0), at[:, 0] - hi[0])
                    dy = np.maximum(np.maximum(lo[1] - at[:, 1], 0.0), at[:, 1] - hi[1])
                    keep = to_start + np.hypot(dx, dy) <= limit
                    got = [c for c, k in zip(got, keep) if k]
                corners.extend(got)
        blockers = [self.shrunk[i] for i in shapes if self.blocked_all(starts, i) is False]
        nan = (math.nan, math.nan)
        nodes = np.asarray(starts + [c[0] for c in corners], dtype=float).reshape(-1, 2)
        prv = np.asarray([nan] * len(starts) + [c[1] for c in corners], dtype=float).reshape(-1, 2)
        nxt = np.asarray([nan] * len(starts) + [c[2] for c in corners], dtype=float).reshape(-1, 2)
        ns = len(starts)
        nb = max(1, len(blockers))

        def clear(a: np.ndarray, bs: np.ndarray) -> np.ndarray:
            if not blockers or len(bs) == 0:
                return np.ones(len(bs), dtype=bool)
            lines = shapely.linestrings(np.stack([np.broadcast_to(a, bs.shape), bs], axis=1))
            ok = np.ones(len(bs), dtype=bool)
            for s in blockers:
                ok &= ~shapely.intersects(s, lines)
            return ok

        dist = np.full(len(nodes), math.inf)
        dist[:ns] = 0.0
        heap = [(0.0, k) for k in range(ns)]
        done = np.zeros(len(nodes), dtype=bool)
        while heap:
            d, k = heapq.heappop(heap)
            if done[k] or d > dist[k]:
                continue
            done[k] = True
            todo = np.nonzero(~done)[0]
            if len(todo) == 0:
                break
            looked = len(todo)
            gaps = np.hypot(nodes[todo, 0] - nodes[k, 0], nodes[todo, 1] - nodes[k, 1])
            near = ((d + gaps <= limit) & (d + gaps < dist[todo])
                    & tangent_mask(nodes[k], prv[k], nxt[k], nodes[todo])
                    & tangent_mask(nodes[todo], prv[todo], nxt[todo], nodes[k]))
            todo, gaps = todo[near], gaps[near]
            ok = clear(nodes[k], nodes[todo])
            for j, g in zip(todo[ok], gaps[ok]):
                if d + g < dist[j]:
                    dist[j] = d + g
                    heapq.heappush(heap, (d + g, int(j)))
            yield looked + len(todo) * nb, None
        order = [int(k) for k in np.argsort(dist) if np.isfinite(dist[k])]
        for i, (points, out) in enumerate(zip(chunks, outs)):
            points = np.asarray(points, dtype=float).reshape(-1, 2)
            out[:] = math.inf
            if len(points):
                lo, hi = points.min(axis=0), points.max(axis=0)
            for k in order if len(points) else ():
                # the chunk's bounding box is farther than the reach left: no point can gain
                dx = max(lo[0] - nodes[k, 0], 0.0, nodes[k, 0] - hi[0])
                dy = max(lo[1] - nodes[k, 1], 0.0, nodes[k, 1] - hi[1])
                if dist[k] + math.hypot(dx, dy) > limit:
                    continue
                gaps = np.hypot(points[:, 0] - nodes[k, 0], points[:, 1] - nodes[k, 1])
                cand = np.nonzero((dist[k] + gaps < out) & (dist[k] + gaps <= limit)
                                  & tangent_mask(nodes[k], prv[k], nxt[k], points))[0]
                if len(cand):
                    ok = clear(nodes[k], points[cand])
                    out[cand[ok]] = dist[k] + gaps[cand[ok]]
                yield len(points) + len(cand) * nb, None
            yield 0, i

    def blocked_all(self, starts: Sequence[XY], i: int) -> bool:
        """Whether grown shape ``i`` holds one of ``starts`` (then it is passed through)."""
        return any(self.shrunk[i].contains(Point(s)) for s in starts)


def charger_radius(model) -> float:
    """The radius (inches) a charging model is grown by: its base's radius (half the longer
    extent for an oval or rectangle, its bounding circle)."""
    return model.base.radius


def table_frame(width: float, depth: float) -> Polygon:
    """The band ``TABLE_FRAME`` inches wide round a ``width`` x ``depth`` table (inches): a
    polygon whose hole is the table, so growing it keeps a centre inside the edges."""
    outer = shapely.box(-TABLE_FRAME, -TABLE_FRAME, width + TABLE_FRAME, depth + TABLE_FRAME)
    return Polygon(outer.exterior.coords, [shapely.box(0.0, 0.0, width, depth).exterior.coords])


def end_shrink(grow: float) -> float:
    """How much (inches) a declared target's base is shrunk before it is grown by a charger
    of radius ``grow`` (inches): the grown circle's chord allowance plus ``END_MARGIN``, so
    the grown shape lies inside the circle of base contact round the target."""
    return grown_circle_radius(grow) - grow + END_MARGIN


def arena_shapes(state, skip_units: Iterable[str], terrain: Sequence[Sequence[XY]],
                 keep_off: Iterable[str] = (), reach: float = 0.0, ends: Iterable[str] = (),
                 shrink: float = 0.0) -> list[Polygon]:
    """The shapes an arena is grown from (``arena_for``): the bases of every unit not in
    ``skip_units``, the ``terrain`` polygons and the table's frame, inches.  The bases of
    the units in ``keep_off`` are grown by ``reach`` first (the engagement range, inches:
    a charge path keeps out of it, ``rules/charge.py`` CHARGE_AVOID_UNDECLARED), with the
    same chord allowance as the charger's radius (``grown_circle_radius``).  The bases of
    the units in ``ends`` (the declared targets) are shrunk by ``shrink`` inches
    (``end_shrink``): a path may end in base contact with them, never pass through them."""
    from tabletop.geometry.footprints import base_polygon
    skip = set(skip_units)
    wide = set(keep_off) if reach > 0 else set()
    end = set(ends)
    shapes: list[Polygon] = []
    for u in state.units:
        if u.id in skip:
            continue
        for m in u.models:
            base = base_polygon(m.base, m.x, m.y, m.facing_deg)
            if u.id in wide:
                base = base.buffer(grown_circle_radius(reach), quad_segs=QUAD_SEGS)
            elif u.id in end and shrink > 0:
                base = base.buffer(-shrink, quad_segs=QUAD_SEGS)
            shapes.append(base)
    for poly in terrain:
        shapes.append(Polygon(poly))
    shapes.append(table_frame(state.table.width, state.table.depth))
    return shapes


def arena_for(state, model, skip_units: Iterable[str], terrain: Sequence[Sequence[XY]],
              keep_off: Iterable[str] = (), reach: float = 0.0,
              ends: Iterable[str] = ()) -> ChargeArena:
    """The obstacles ``model``'s charge goes round: every base on the table but those of
    ``skip_units`` (its own unit), those of ``keep_off`` grown by ``reach`` inches (enemy
    units not declared: their engagement range), those of ``ends`` (the declared targets:
    a path ends against one of their models and passes through none, ``end_shrink``), the
    ``terrain`` polygons the rules say block it (``rules.charge.blocking_terrain``), and
    the table's edges (``table_frame``: a path never leaves the table)."""
    r = charger_radius(model)
    return ChargeArena(arena_shapes(state, skip_units, terrain, keep_off, reach, ends,
                                    end_shrink(r)), r)


def goals_for(model, targets: Sequence, reach: float) -> list[Goal]:
    """Where ``model``'s centre is within ``reach`` inches (edge to edge) of each of the
    ``targets`` (models): discs for two round bases (exact); otherwise the target's base
    swept by the charger's base at its present facing (their Minkowski sum, the convex hull
    of every vertex of one minus every vertex of the other; bases are convex), grown by
    ``reach``: exact for a charger that keeps its facing."""
    from tabletop.geometry.footprints import base_polygon
    r = charger_radius(model)
    own = np.asarray(base_polygon(model.base, 0.0, 0.0, model.facing_deg).exterior.coords)
    out = []
    for t in targets:
        if model.base.is_round and t.base.is_round:
            out.append(Goal(t.id, disc=(t.x, t.y, r + t.base.radius + reach)))
        else:
            theirs = np.asarray(base_polygon(t.base, t.x, t.y, t.facing_deg).exterior.coords)
            sums = (theirs[:, None, :] - own[None, :, :]).reshape(-1, 2)
            shape = shapely.MultiPoint(sums).convex_hull
            if reach > 0:
                shape = shape.buffer(reach, quad_segs=32)
            out.append(Goal(t.id, shape=shape))
    return out
