"""Where one model may end its pile-in or consolidation move: its legal region.

fight-phase.txt 12.03 (pile-in) and 12.08 (consolidation, every mode), read
the way ``movespec`` and ``validator`` read them.  ``legal_region(state,
model_id, spec)`` returns the set of centres (a Shapely geometry, inches,
origin bottom-left, y up) where the model may end when it moves and the rest
of the table stands as ``state`` has it:

- ``reachable``: within the maximum distance along a path that passes round
  every other base and impassable terrain and stays on the table; ending on
  no base; ending closer to its closest target (objective mode: closer, or
  within range of the objective); pile-in and ongoing consolidation: still
  engaged with every enemy unit it started engaged with;
- ``engaged``: the part of ``reachable`` where it also ends engaged with its
  closest target (objective mode: within range of the objective) - the
  "if possible" of the clauses.  When it is not empty the clause asks for it,
  so ``legal`` is ``engaged`` then, else ``reachable``;
- a model in base contact with an enemy model (pile-in, ongoing
  consolidation) cannot be moved: both are its own spot.

Clauses about the unit as a whole (the unit engaged after a pile-in, engaged
with every selected unit, within range of the objective, coherency) depend on
where the other models end, so the region does not hold them; the validator
names them when a move is judged.

How it is built (no grid): the model's footprint ``M`` is slid round every
obstacle, so an obstacle becomes the set of centres where ``M`` would overlap
it - for two round bases a disc of radius r + q, else the convex hull of the
two outlines' vertex differences (a Minkowski sum; impassable terrain is cut
into triangles first, so every piece is convex).  The shortest path of a
point among convex pieces bends only at their corners, so Dijkstra over the
corners (edges that are clear and tangent at both ends) gives each corner's
path length g; the reachable set is the union, over corners with g below the
maximum distance d, of the disc of radius d - g about the corner less the
pieces' shadows seen from it.  "Closer" and "engaged" are discs (or grown
outlines) about the target's models.

Accuracy (named defaults below): round obstacles are drawn as polygons that
*enclose* their circle (``OBSTACLE_QUAD_SEGS``) and shrunk by
``OBSTACLE_SLACK`` x tolerance, reach and range discs as polygons *inside*
their circle (``DISC_QUAD_SEGS``), so every point of ``reachable`` is legal
(with a clear path, ``path_to``) and the region falls short of the exact one
by at most s + (r + q) (1 / cos(pi / 4n) - 1) + d (1 - cos(pi / 4m)) inches
(s the slack, n, m the segment counts): 0.01 + 0.012 + 0.004" for two 60mm
bases, a 3" move and the 0.02" tolerance.  The sampled tests allow 0.03".
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field

import numpy as np
import shapely
from shapely.geometry import MultiPoint, Point, Polygon, box
from shapely.geometry.base import BaseGeometry

from tabletop.board.state import Battlefield
from tabletop.errors import IllegalMoveError, UnknownIdError
from tabletop.geometry import tolerance as tolmod
from tabletop.geometry.movespec import MoveContext, MoveSpec
from tabletop.geometry.snapshot import Geometry, snapshot
from tabletop.geometry.sweeps import outline

__all__ = ["Region", "legal_region", "OBSTACLE_QUAD_SEGS", "DISC_QUAD_SEGS", "OBSTACLE_SLACK",
           "REGION_OTHERS"]

XY = tuple[float, float]

#: named default: segments per quarter circle of a round obstacle's polygon (it
#: encloses the circle, so a path along it is clear; 8 keeps a region to ~0.1 s)
OBSTACLE_QUAD_SEGS = 8
#: named default: segments per quarter circle of a reach or range disc (inside it)
DISC_QUAD_SEGS = 16
#: named default: obstacles are grown to overlap depth this fraction of the
#: contact tolerance (the validator allows the whole tolerance), so polygon
#: corners never take a path past what the validator accepts
OBSTACLE_SLACK = 0.5
#: named default: the moves the rules leave to the player's order (Moving 03: one
#: model at a time) - the region of one model treats every other model as standing
#: where ``state`` puts it (the window passes the step's end positions)
REGION_OTHERS = "where the state puts them"

_EPS = 1e-9
#: how far a shadow is drawn out (a multiple of the disc it cuts)
_FAR = 1000.0


@dataclass(frozen=True)
class Region:
    """Where one model may end its move (module docstring).

    Attributes
    ----------
    model : str
        The model id.
    spec : MoveSpec
        The move.
    start : (x, y)
        Its centre before the move, inches.
    reachable : shapely geometry
        Centres (inches) where it may end, every clause of the model's own but
        "engaged if possible".
    engaged : shapely geometry
        The part of ``reachable`` where it ends engaged with its closest target
        (in base contact where engagement is base contact; objective mode:
        within range of the objective).
    fixed : bool
        In base contact with an enemy model: it cannot be moved (12.03, 12.08 ongoing).
    target : str or None
        Its closest target (unit or objective id).
    """

    model: str
    spec: MoveSpec
    start: XY
    reachable: BaseGeometry
    engaged: BaseGeometry
    fixed: bool = False
    target: str | None = None
    _graph: _Graph | None = field(default=None, repr=False, compare=False)

    @property
    def legal(self) -> BaseGeometry:
        """``engaged`` when it is not empty (the clause prefers it), else ``reachable``."""
        return self.engaged if not self.engaged.is_empty else self.reachable

    def contains(self, point: XY) -> bool:
        """Whether ``point`` (inches) lies in ``legal`` (its boundary included)."""
        if self.fixed:
            return math.dist(point, self.start) <= _EPS
        return bool(self.legal.covers(Point(point)))

    def path_to(self, point: XY) -> list[XY] | None:
        """The shortest clear path (polyline of centres, inches) from the start to
        ``point`` round the obstacles, or None when no path within the maximum
        distance reaches it (or the model cannot move)."""
        if self.fixed or self._graph is None:
            return None
        return self._graph.path_to(point, self.spec.max_distance)


# --------------------------------------------------------------- shapes
def _mover_outline(model) -> np.ndarray:
    """Vertices of the mover's footprint about its centre (inches)."""
    return np.asarray(outline(model.base, model.facing_deg), dtype=float)


def _grown_base(model, other, slack: float) -> Polygon:
    """Centres where ``model`` would overlap ``other`` by more than ``slack`` (convex)."""
    if model.base.is_round and other.base.is_round:
        r = model.base.radius + other.base.radius - slack
        n = 4 * OBSTACLE_QUAD_SEGS
        return Point(other.at).buffer(r / math.cos(math.pi / n), quad_segs=OBSTACLE_QUAD_SEGS)
    ours = -_mover_outline(model) if not model.base.is_round else None
    theirs = np.asarray(outline(other.base, other.facing_deg), dtype=float) + np.asarray(other.at)
    if ours is None:            # round mover, shaped obstacle
        return Polygon(theirs).buffer(model.base.radius - slack, quad_segs=OBSTACLE_QUAD_SEGS)
    if other.base.is_round:     # shaped mover, round obstacle
        return MultiPoint(ours + np.asarray(other.at)).convex_hull.buffer(
            other.base.radius - slack, quad_segs=OBSTACLE_QUAD_SEGS)
    pts = (theirs[:, None, :] + ours[None, :, :]).reshape(-1, 2)
    return MultiPoint(pts).convex_hull.buffer(-slack, join_style="mitre")


def _grown_terrain(model, poly: Polygon, slack: float) -> list[Polygon]:
    """Convex pieces: centres where ``model`` would overlap impassable ``poly``."""
    tris = shapely.constrained_delaunay_triangles(poly)
    out = []
    for tri in getattr(tris, "geoms", [tris]):
        if tri.is_empty or tri.area <= 0:
            continue
        if model.base.is_round:
            out.append(tri.buffer(model.base.radius - slack, quad_segs=OBSTACLE_QUAD_SEGS))
        else:
            ours = -_mover_outline(model)
            pts = (np.asarray(tri.exterior.coords)[:-1, None, :] + ours[None, :, :]).reshape(-1, 2)
            out.append(MultiPoint(pts).convex_hull.buffer(-slack, join_style="mitre"))
    return out


def _zone(model, targets, grow: float) -> BaseGeometry:
    """Centres where ``model`` is within ``grow`` inches (edge to edge) of one of
    ``targets`` ((x, y, base, facing_deg) or (x, y, radius) markers): discs for
    round pairs, grown outlines else; polygons inside their curves."""
    parts = []
    for t in targets:
        if len(t) == 3:          # an objective marker: a disc of radius t[2]
            x, y, q = t
            if model.base.is_round:
                parts.append(Point(x, y).buffer(max(0.0, model.base.radius + q + grow),
                                                quad_segs=DISC_QUAD_SEGS))
            else:
                hull = MultiPoint(-_mover_outline(model) + np.array([x, y])).convex_hull
                parts.append(hull.buffer(q + grow, quad_segs=DISC_QUAD_SEGS))
            continue
        x, y, base, facing = t
        if model.base.is_round and base.is_round:
            parts.append(Point(x, y).buffer(max(0.0, model.base.radius + base.radius + grow),
                                            quad_segs=DISC_QUAD_SEGS))
            continue
        theirs = np.asarray(outline(base, facing), dtype=float) + np.array([x, y])
        if model.base.is_round:
            parts.append(Polygon(theirs).buffer(model.base.radius + grow, quad_segs=DISC_QUAD_SEGS))
            continue
        ours = -_mover_outline(model)
        hull = MultiPoint((theirs[:, None, :] + ours[None, :, :]).reshape(-1, 2)).convex_hull
        if base.is_round:
            hull = MultiPoint(ours + np.array([x, y])).convex_hull.buffer(base.radius,
                                                                         quad_segs=DISC_QUAD_SEGS)
        parts.append(hull.buffer(grow, quad_segs=DISC_QUAD_SEGS) if grow else hull)
    return shapely.union_all(parts) if parts else Polygon()


def _shadow(v: np.ndarray, piece: Polygon) -> Polygon:
    """Points hidden from ``v`` behind the convex ``piece`` (the piece included),
    drawn out to ``_FAR`` inches."""
    pts = np.asarray(piece.exterior.coords)[:-1]
    d = pts - v
    n = np.hypot(d[:, 0], d[:, 1])
    keep = n > _EPS
    far = v + d[keep] / n[keep, None] * _FAR
    return MultiPoint(np.vstack([pts, far])).convex_hull


# --------------------------------------------------------------- paths
class _Graph:
    """Corners of the grown obstacles, their path length from the start, and
    what the region needs to find a path to any point."""

    def __init__(self, start: XY, pieces: list[Polygon], free_box: Polygon, reach: float):
        self.start = np.asarray(start, dtype=float)
        self.pieces = pieces
        self.box = free_box
        self.blocked = shapely.union_all(pieces) if pieces else Polygon()
        self.inner = self.blocked.buffer(-1e-7) if pieces else Polygon()
        shapely.prepare(self.inner)
        nodes, prev, nxt = [tuple(start)], [None], [None]
        for piece in pieces:
            c = np.asarray(piece.exterior.coords)[:-1]
            for k in range(len(c)):
                nodes.append(tuple(c[k]))
                prev.append(c[k - 1])
                nxt.append(c[(k + 1) % len(c)])
        xy = np.asarray(nodes, dtype=float)
        near = np.hypot(*(xy - self.start).T) <= reach + _EPS
        inside = (shapely.contains_xy(self.inner, xy[:, 0], xy[:, 1]) if pieces
                  else np.zeros(len(xy), bool))
        inbox = shapely.intersects_xy(free_box, xy[:, 0], xy[:, 1])
        keep = near & ~inside & inbox
        keep[0] = True
        idx = np.flatnonzero(keep)
        self.xy = xy[idx]
        self.prev = [prev[i] for i in idx]
        self.next = [nxt[i] for i in idx]
        self.g, self.pred = self._dijkstra(reach)

    def _tangent(self, k: int, other: np.ndarray) -> np.ndarray:
        """Whether lines from ``other`` points to node ``k`` touch its piece there
        (both neighbouring corners on one side): only such legs can be on a
        shortest path."""
        if self.prev[k] is None:
            return np.ones(len(other), dtype=bool)
        p = self.xy[k]
        d = p - other
        a = self.prev[k] - p
        b = self.next[k] - p
        ca = d[:, 0] * a[1] - d[:, 1] * a[0]
        cb = d[:, 0] * b[1] - d[:, 1] * b[0]
        return ca * cb >= -1e-12

    def clear(self, a: np.ndarray, bs: np.ndarray) -> np.ndarray:
        """Whether the segment from ``a`` to each of ``bs`` misses every piece's inside."""
        if len(bs) == 0:
            return np.zeros(0, dtype=bool)
        lines = shapely.linestrings(np.stack([np.broadcast_to(a, bs.shape), bs], axis=1))
        if self.inner.is_empty:
            return np.ones(len(bs), dtype=bool)
        return ~shapely.intersects(self.inner, lines)

    def _dijkstra(self, reach: float) -> tuple[np.ndarray, np.ndarray]:
        n = len(self.xy)
        g = np.full(n, np.inf)
        pred = np.full(n, -1)
        g[0] = 0.0
        heap = [(0.0, 0)]
        done = np.zeros(n, dtype=bool)
        while heap:
            gu, u = heapq.heappop(heap)
            if done[u] or gu > reach:
                continue
            done[u] = True
            others = np.flatnonzero(~done)
            if len(others) == 0:
                break
            d = np.hypot(*(self.xy[others] - self.xy[u]).T)
            ok = gu + d <= reach + _EPS
            if u != 0:
                ok &= self._tangent(u, self.xy[others]) if ok.any() else ok
            cand = others[ok]
            if len(cand) == 0:
                continue
            tang = np.array([self._tangent(int(k), self.xy[u][None, :])[0] for k in cand])
            cand = cand[tang]
            vis = self.clear(self.xy[u], self.xy[cand])
            for k in cand[vis]:
                nd = gu + math.dist(self.xy[u], self.xy[k])
                if nd < g[k] - 1e-12:
                    g[k], pred[k] = nd, u
                    heapq.heappush(heap, (nd, int(k)))
        return g, pred

    def region(self, reach: float) -> BaseGeometry:
        """The centres within ``reach`` of the start along a clear path."""
        parts = []
        for k in np.flatnonzero(self.g < reach - _EPS):
            v = self.xy[k]
            rho = reach - self.g[k]
            disc = Point(v).buffer(rho, quad_segs=DISC_QUAD_SEGS)
            shadows = [_shadow(v, p) for p in self.pieces if p.distance(Point(v)) < rho]
            parts.append(disc.difference(shapely.union_all(shadows)) if shadows else disc)
        if not parts:
            return Polygon()
        return shapely.union_all(parts).intersection(self.box)

    def path_to(self, point: XY, reach: float) -> list[XY] | None:
        p = np.asarray(point, dtype=float)
        if not self.box.covers(Point(p)) or (not self.inner.is_empty
                                             and self.inner.contains(Point(p))):
            return None
        fin = np.flatnonzero(np.isfinite(self.g))
        d = np.hypot(*(self.xy[fin] - p).T)
        order = np.argsort(self.g[fin] + d)
        for j in order:
            k = int(fin[j])
            if self.g[k] + d[j] > reach + 1e-7:
                return None
            if self.clear(self.xy[k], p[None, :])[0]:
                path: list[XY] = [(float(p[0]), float(p[1]))]
                while k >= 0:
                    path.append((float(self.xy[k][0]), float(self.xy[k][1])))
                    k = int(self.pred[k])
                path.reverse()
                if math.dist(path[-1], path[-2]) <= _EPS:
                    path.pop()
                return path if len(path) > 1 else [path[0], path[0]]
        return None


# --------------------------------------------------------------- the region
def legal_region(state: Battlefield, model_id: str, spec: MoveSpec,
                 geo: Geometry | None = None) -> Region:
    """Where ``model_id`` may end ``spec``'s move, every other model standing as in ``state``.

    Parameters
    ----------
    state : Battlefield
        The table with the model at its start; the other models where they
        stand while it moves (``REGION_OTHERS``: the window passes the step's
        end positions of the rest of its unit).
    model_id : str
        A model of ``spec.unit``.
    spec : MoveSpec
        The move (kind, unit, targets, maximum distance in inches, clause):
        fight-phase.txt 12.03 pile-in or 12.08 consolidation.
    geo : Geometry, optional
        ``snapshot(state)``, when the caller has it.

    Returns
    -------
    Region
        ``reachable`` / ``engaged`` polygons of centres in inches (module
        docstring), ``path_to`` for a clear path to a point in them.

    Raises
    ------
    UnknownIdError
        ``model_id`` is not a model of ``spec.unit``, or the spec names an
        unknown unit, target or objective.
    IllegalMoveError
        The spec itself is broken (no target, a target that is no enemy, an
        unknown kind): the message names the clause.
    """
    geo = geo if geo is not None else snapshot(state)
    ctx = MoveContext(state, geo, spec)
    if model_id not in ctx.ids:
        raise UnknownIdError(f"{model_id} is not a model of unit {spec.unit}")
    if ctx.problems:
        raise IllegalMoveError(ctx.problems[0].message)
    model = ctx.models[model_id]
    start = ctx.start[model_id]
    tol = ctx.tol
    target = ctx.target.get(model_id)
    goal = _goal_zone(ctx, model)
    if model_id in ctx.fixed:
        spot = Point(start)
        return Region(model_id, spec, start, spot, spot if goal.covers(spot) else Polygon(),
                      True, target)
    d = spec.max_distance
    slack = OBSTACLE_SLACK * tol
    near = Point(start).buffer(d + 1.0)
    pieces: list[Polygon] = []
    for u in state.units:
        for o in u.models:
            if o.id == model_id:
                continue
            piece = _grown_base(model, o, slack)
            if piece.distance(Point(start)) <= d and not piece.contains(Point(start)):
                pieces.append(piece)
    for t in state.terrain:
        if t.impassable and Polygon(t.polygon).distance(Point(start)) <= d + 2 * _radius(model):
            for piece in _grown_terrain(model, Polygon(t.polygon), slack):
                if piece.intersects(near) and not piece.contains(Point(start)):
                    pieces.append(piece)
    ol = _mover_outline(model)
    table = state.table
    free_box = box(-ol[:, 0].min(), -ol[:, 1].min(), table.width - ol[:, 0].max(),
                   table.depth - ol[:, 1].max())
    graph = _Graph(start, pieces, free_box, d)
    reach = graph.region(d)
    reachable = reach.intersection(_closer_zone(ctx, model_id, model))
    if spec.kind in ("pile_in", "ongoing"):
        for unit_id in sorted(ctx.start_engaged[model_id]):
            reachable = reachable.intersection(_engaged_zone(ctx, model, unit_id))
    engaged = reachable.intersection(goal)
    return Region(model_id, spec, start, reachable, engaged, False, target, graph)


def _radius(model) -> float:
    ol = _mover_outline(model)
    return float(np.hypot(ol[:, 0], ol[:, 1]).max())


def _unit_parts(ctx: MoveContext, unit_id: str) -> list[tuple]:
    return [(m.x, m.y, m.base, m.facing_deg) for m in ctx.state.unit(unit_id).models]


def _range(ctx: MoveContext) -> float:
    return 0.0 if ctx.rules.engages_by_contact else ctx.rules.engagement_range


def _engaged_zone(ctx: MoveContext, model, unit_id: str) -> BaseGeometry:
    """Centres where ``model`` is engaged with ``unit_id`` (engagement range, or contact)."""
    return _zone(model, _unit_parts(ctx, unit_id), _range(ctx) + ctx.tol)


def _goal_zone(ctx: MoveContext, model) -> BaseGeometry:
    """The "if possible" goal: engaged with its closest target, or within range of
    the objective (objective consolidation)."""
    if ctx.objective is not None:
        o = ctx.objective
        return _zone(model, [(o.at[0], o.at[1], o.marker.radius)],
                     ctx.state.objective_range(o) + ctx.tol)
    return _engaged_zone(ctx, model, ctx.target[model.id])


def _closer_zone(ctx: MoveContext, model_id: str, model) -> BaseGeometry:
    """Centres where ``model`` ends closer to its closest target than it started
    (``tolerance.closer``); objective mode adds "within range" (12.08)."""
    d0 = ctx.start_dist[model_id]
    tol = ctx.tol
    grow = d0 - tol - 2 * tolmod.EPS if d0 > tol + tolmod.EPS else d0
    if ctx.objective is not None:
        o = ctx.objective
        marker = [(o.at[0], o.at[1], o.marker.radius)]
        closer = _zone(model, marker, grow)
        return closer.union(_zone(model, marker, ctx.state.objective_range(o) + tol))
    return _zone(model, _unit_parts(ctx, ctx.target[model_id]), grow)
