"""Paths for one moving base around other bases and impassable terrain.

A round base among round bases, with no impassable terrain near, slides
round them analytically (``slides.slide``: straight to the first contact,
round that base to the tangent toward the aim, and so on; a handful of
events a route, no physics); the first pocket between two bases it presses
into is a route of its own too (the steering stops stuck there, and pulled
tight the route that goes on cuts across it).  Every other case is steered
with pymunk as follows.

pymunk does the collision work: every other base is a static shape, each
impassable terrain piece ("impassable", "building") a ring of static
segments, the table edges walls; the moving base is a dynamic body pulled
through a force-limited pivot joint by a kinematic control body (the pymunk
tank example), so obstacles push back and bases slide around each other.
The body is steered at an aim point (``contact_spot``: the free spot in base
contact with the target nearest as the crow flies); pressing head-on into an
obstacle it follows the obstacle's outline, keeping it on one hand (on a
second try the other), until heading for the aim leads away from it (a bug
algorithm).  Shapely then pulls the route tight (the shortest polyline
through the route's own points whose sweep stays clear of every base and
terrain piece) and cuts it at the maximum distance.  The simulation runs at
a fixed time step; the step length follows the clearance to the nearest base
it is not touching, so it never jumps into one.  A space is built once per
mover, start and obstacle positions on an ``Arena`` (``Arena.sim_for``) and
handed out again with a new mover in it (``_Sim.reset``): a solve asks for the
same space for each aim, each pass and each retry of a model, and the route
is the one a new space would steer.

Before any steering, ``find_routes`` tests the straight leg from the start
to the aim (``legs.leg_clear``: a swept circle against circles, analytically;
Shapely only for non-round bases and terrain near the leg): when it is clear
the route is that leg, with no pymunk at all.  A solve asks for the same route
many times (two first passes, improve rounds, coherency repairs), so routes
are remembered on the ``Arena`` by mover, start, aim, stop test and the
obstacles near.  A steered route stops before its first leg that is not clear
(``clear_prefix``), so every route is clear leg by leg.

Inches, origin bottom-left, y up; bases keep their facing (no rotation).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
import pymunk
import shapely
import shapely.affinity
from shapely.geometry import Point, Polygon

from tabletop.board.bases import Base
from tabletop.board.state import Battlefield
from tabletop.geometry.footprints import base_polygon
from tabletop.geometry.legs import leg_clear, obstacle_info
from tabletop.geometry.slides import WALL_RADIUS, slide
from tabletop.geometry.sweeps import (
    XY,
    Points,
    core_of,
    cores_at,
    cut_path,
    outline,
    path_length,
    sweep_core,
    ties,
    xy_of,
)

#: one fixed simulated time step (s); the speed sets the step length (pymunk
#: wants a fixed step: its contact solver carries impulses from step to step)
SIM_DT = 0.01
#: how hard the joint may pull (mass 1): enough to reach the step speed in one
#: step, while contacts, solved as hard constraints, still stop it
JOINT_MAX_FORCE = 2.0e3
#: step length (inches): never more than the gap to the nearest base it is not
#: already touching, and between these
STEP_NEAR = 0.003
STEP_FAR = 0.15
#: ... and at most this while sliding along a base it touches
STEP_SLIDE = 0.1
#: a contact counts as touching when the simulated shapes are apart by no more
#: than this fraction of the margin (so the real gap is under 1.25 margins)
TOUCH_FRACTION = 0.25
#: a pull whose component along the obstacle's tangent is under this fraction
#: is head-on: the base turns along the tangent instead
HEAD_ON = 0.25
#: the base is stuck when it makes less than STUCK_PROGRESS inches in STUCK_STEPS steps
STUCK_STEPS = 25
STUCK_PROGRESS = 0.02
#: the simulated route may be this many times the maximum distance long before
#: Shapely pulls it tight (the steering hugs obstacles, the tight path does not)
SIM_REACH = 1.5
#: the simulated base is this fraction of the tolerance larger all round, so a
#: contact it makes reads as base contact (gap about this, under the tolerance)
MARGIN_FRACTION = 0.5
#: convex polygons for non-round bases in pymunk
POLY_SIMPLIFY = 0.002

#: pymunk's overlap left after one simulated second: 30% of an overlap is
#: pushed out each step
COLLISION_BIAS = 0.7 ** (1.0 / SIM_DT)

#: physics spaces an ``Arena`` keeps for reuse (one per mover, start and
#: obstacle positions; a solve moves one model at a time, so few are live at once)
SIMS_KEPT = 16

#: an analytic slide's arcs are drawn with chords dipping at most this fraction
#: of the margin inside their circles (``slides.slide``): the chords stay clear
ARC_SAG_FRACTION = 0.5

#: contact spots tried round a target base
SPOT_COUNT = 72

TABLE_EDGE = "(table edge)"
#: ``a.all(axis=...)`` of a bool array, without the method's Python wrapper (the same ufunc)
_ALL_ROWS = np.logical_and.reduce
_MOVER = 0b10
_ALL = 0xFFFFFFFF


@dataclass(frozen=True)
class Obstacle:
    """Another base standing still while one model moves."""

    id: str
    base: Base
    x: float
    y: float
    facing_deg: float
    #: the base's radius (inches), read once: routes read it for every obstacle near
    r: float = field(init=False, repr=False, compare=False)
    #: whether the base is round, read once
    is_round: bool = field(init=False, repr=False, compare=False)

    #: ``hash`` of the fields compared, worked out the first time it is asked for
    #: (routes and spaces are remembered by the obstacles near: a key hashes each)
    _hash: int | None = field(init=False, repr=False, compare=False, default=None)

    def __post_init__(self) -> None:
        object.__setattr__(self, "r", self.base.radius)
        object.__setattr__(self, "is_round", self.base.is_round)

    def __hash__(self) -> int:
        h = self._hash
        if h is None:
            h = hash((self.id, self.base, self.x, self.y, self.facing_deg))
            object.__setattr__(self, "_hash", h)
        return h


@dataclass
class Route:
    """A path found for one model: the tight polyline (already cut at the
    maximum distance), whether it reached the goal within that distance, and
    the aim it was steered at."""

    path: list[XY]
    reached: bool
    aim: XY
    side: int
    clearance: _Clearance | _RoundClearance | None = None
    #: every leg of ``path`` was measured clear by ``clearance`` (analytically: a
    #: round clearance), so every point on it is clear: ``clear_at`` need not measure
    legs_clear: bool = False

    def clear_at(self, points: Points) -> np.ndarray:
        """Whether the base standing at each point overlaps no obstacle (each point
        on the path, when its legs are known clear: ``legs_clear``)."""
        if self.clearance is None or self.legs_clear:
            return np.ones(len(points), dtype=bool)
        return self.clearance.clear_at(points)


class Arena:
    """The table and its impassable terrain, shared by every path on one state."""

    def __init__(self, state: Battlefield):
        self.width = state.table.width
        self.depth = state.table.depth
        self.tol = state.rules.tol
        self.margin = max(MARGIN_FRACTION * self.tol, 0.001)
        self.terrain = [(t.id, Polygon(t.polygon)) for t in state.terrain if t.impassable]
        # physics spaces built on this state, by mover and the obstacles round it
        # (``sim_for``): a solve asks for the same space again and again
        self._sims: dict[tuple, _Sim] = {}
        # routes found on this state (``find_routes``), by mover, start, aim and obstacles near
        self.routes: dict[tuple, tuple[Route, ...]] = {}
        # circles of the analytic slides by mover's start (``slides.slide``'s memo)
        self.slides: dict[tuple, tuple] = {}
        # the slide circles and the clearance of a mover at its start among the
        # obstacles near (``_steered_routes``), whatever it aims at
        self.movers: dict[tuple, tuple] = {}
        # ``legs.obstacle_info`` of the obstacles near a mover, by those obstacles
        self.leg_info: dict[NearObstacles, np.ndarray] = {}

    def sim_for(self, base: Base, facing_deg: float, start: XY,
                obstacles: Sequence[Obstacle], reach: float) -> _Sim:
        """The pymunk space for a base moving from ``start`` among ``obstacles``:
        built once per mover, start and obstacle positions on this arena (at most
        ``SIMS_KEPT`` kept, the oldest dropped first), then reused."""
        key = (base, facing_deg, float(start[0]), float(start[1]), reach,
               tuple(obstacles))
        sim = self._sims.get(key)
        if sim is not None:
            sim.reset()
        else:
            sim = _Sim(self, base, facing_deg, start, obstacles, reach)
            if len(self._sims) >= SIMS_KEPT:
                del self._sims[next(iter(self._sims))]
            self._sims[key] = sim
        return sim

    def terrain_near(self, at: XY, reach: float) -> list[tuple[str, Polygon]]:
        if not self.terrain:
            return []
        p = shapely.Point(at)
        return [(tid, poly) for tid, poly in self.terrain if poly.distance(p) <= reach]


def _poly_vertices(base: Base, x: float, y: float, facing_deg: float, grow: float) -> list[XY]:
    """Convex outline of a base standing at (x, y): built round the origin and then
    shifted, so the shape does not depend on where it stands."""
    poly = base_polygon(base, 0.0, 0.0, facing_deg)
    if grow > 0:
        poly = poly.buffer(grow, quad_segs=4, join_style="mitre")
    poly = poly.simplify(POLY_SIMPLIFY).convex_hull
    return [(_snap(cx + x), _snap(cy + y)) for cx, cy in poly.exterior.coords[:-1]]


#: the simulation runs in a frame centred on the mover's start, every coordinate
#: rounded to this many decimals (inches): the same fight anywhere on the table
#: gives the same numbers, so the same route (translation-invariant)
SIM_DECIMALS = 9


def _snap(v: float) -> float:
    return round(float(v), SIM_DECIMALS)


class _Sim:
    """One pymunk space: the obstacles static, the mover dynamic.

    Coordinates inside the space are relative to the mover's start (``SIM_DECIMALS``);
    ``steer`` takes and returns table coordinates."""

    def __init__(self, arena: Arena, base: Base, facing_deg: float, start: XY,
                 obstacles: Sequence[Obstacle], reach: float):
        self.arena = arena
        self.origin = (float(start[0]), float(start[1]))
        ox, oy = self.origin

        def rel(x: float, y: float) -> XY:
            return (_snap(x - ox), _snap(y - oy))

        self.base, self.facing = base, facing_deg
        space = pymunk.Space()
        space.iterations = 20
        space.collision_slop = arena.margin / 5.0
        space.collision_bias = COLLISION_BIAS
        space.damping = 1.0
        self.space = space
        self.touch = TOUCH_FRACTION * arena.margin
        self.shape_id: dict[pymunk.Shape, str] = {}
        static = space.static_body
        shapes: list[pymunk.Shape] = []
        s: pymunk.Shape
        for ob in obstacles:
            x, y = rel(ob.x, ob.y)
            if ob.base.is_round:
                s = pymunk.Circle(static, ob.base.radius, offset=(x, y))
            else:
                s = pymunk.Poly(static, _poly_vertices(ob.base, x, y, ob.facing_deg, 0.0))
            self.shape_id[s] = ob.id
            shapes.append(s)
        for tid, poly in arena.terrain_near(start, reach):
            ring = [rel(x, y) for x, y in poly.exterior.coords]
            for a, b in itertools.pairwise(ring):
                s = pymunk.Segment(static, a, b, 0.0)
                self.shape_id[s] = tid
                shapes.append(s)
        w, d = arena.width, arena.depth
        sx, sy = start
        edges = ((sy, ((-1, -1), (w + 1, -1))), (w - sx, ((w + 1, -1), (w + 1, d + 1))),
                 (d - sy, ((w + 1, d + 1), (-1, d + 1))), (sx, ((-1, d + 1), (-1, -1))))
        for off, (a, b) in edges:
            if off > reach + 2.0 * max(base.along, base.across, 2.0 * base.radius):
                continue                  # out of reach: left out, so it cannot sway the route
            edge = pymunk.Segment(static, rel(*a), rel(*b), 1.0)
            self.shape_id[edge] = TABLE_EDGE
            shapes.append(edge)
        self.shapes_of: dict[str, list[pymunk.Shape]] = {}
        for sh, sid in self.shape_id.items():
            self.shapes_of.setdefault(sid, []).append(sh)
        # the static shapes keep pymunk's defaults: friction 0, elasticity 0
        space.add(*shapes)
        self.joint: pymunk.PivotJoint | None = None
        self.body: pymunk.Body
        self.mover: pymunk.Shape
        self.control: pymunk.Body
        self.reach_r: float
        self.reset()
        self.near_filter = pymunk.ShapeFilter(mask=_ALL ^ _MOVER)

    def reset(self) -> None:
        """Put in a new mover (body, shape, control body and joint), taking out
        the one there was: a route steered after this is steered as in a new
        space (no contact, no impulse carried from an earlier run)."""
        space, base, margin = self.space, self.base, self.arena.margin
        if self.joint is not None:
            space.remove(self.body, self.mover, self.control, self.joint)
        body = pymunk.Body(1.0, float("inf"))
        mover: pymunk.Shape
        if base.is_round:
            mover = pymunk.Circle(body, base.radius + margin)
            self.reach_r = base.radius + margin
        else:
            verts = _poly_vertices(base, 0.0, 0.0, self.facing, margin)
            mover = pymunk.Poly(body, verts)
            self.reach_r = max(math.hypot(*v) for v in verts)
        mover.friction = 0.0
        mover.elasticity = 0.0
        mover.filter = pymunk.ShapeFilter(categories=_MOVER)
        control = pymunk.Body(body_type=pymunk.Body.KINEMATIC)
        joint = pymunk.PivotJoint(control, body, (0, 0), (0, 0))
        joint.max_bias = 0.0          # drive by velocity only
        joint.max_force = JOINT_MAX_FORCE   # force-limited: contacts win
        space.add(body, mover, control, joint)
        self.body, self.mover, self.control, self.joint = body, mover, control, joint

    def _around(self, x: float, y: float) -> tuple[list[tuple[float, float, pymunk.Shape]], float]:
        """Touching contacts [(nx, ny, shape)] (unit normal from the mover into the
        obstacle) and the longest step that cannot push into anything else."""
        touching: list[tuple[float, float, pymunk.Shape]] = []
        if self.base.is_round:
            step = STEP_FAR
            for info in self.space.point_query((x, y), self.reach_r + STEP_FAR, self.near_filter):
                gap = info.distance - self.reach_r
                if gap <= self.touch:
                    touching.append((-info.gradient.x, -info.gradient.y, info.shape))
                else:
                    step = min(step, max(STEP_NEAR, gap - self.touch / 2))
            return touching, (min(step, STEP_SLIDE) if touching else step)

        def collect(arb):
            points = arb.contact_point_set.points
            if not points or min(p.distance for p in points) > self.touch:
                return                        # a speculative contact: not touching yet
            a, b = arb.shapes
            n = arb.normal if a is self.mover else -arb.normal
            touching.append((n.x, n.y, b if a is self.mover else a))

        self.body.each_arbiter(collect)
        step = STEP_SLIDE if touching else STEP_FAR
        for info in self.space.point_query((x, y), self.reach_r + STEP_FAR, self.near_filter):
            if any(info.shape is sh for _, _, sh in touching):
                continue
            step = min(step, max(STEP_NEAR, info.distance - self.reach_r - self.touch / 2))
        return touching, step

    def steer(self, start: XY, aim: XY, goal_ids: set[str], stop: Callable[[XY], bool] | None,
              limit: float, side: int) -> tuple[list[XY], bool, bool]:
        """Run the mover from ``start`` (table coordinates) toward ``aim``.

        Pressing head-on into an obstacle, it follows the obstacle's outline
        (keeping it on the same hand, ``side`` +1 or -1) until heading for the
        aim leads away from it.

        Returns (raw route in table coordinates, reached: touching a goal base
        or ``stop`` true, turned: it followed an obstacle's outline).
        """
        ox, oy = self.origin
        rel_stop = None if stop is None else (lambda p: stop((ox + p[0], oy + p[1])))
        route, reached, turned = self._steer((_snap(start[0] - ox), _snap(start[1] - oy)),
                                             (_snap(aim[0] - ox), _snap(aim[1] - oy)),
                                             goal_ids, rel_stop, limit, side)
        out = [(ox + x, oy + y) for x, y in route]
        out[0] = (float(start[0]), float(start[1]))
        return out, reached, turned

    def _steer(self, start: XY, aim: XY, goal_ids: set[str], stop: Callable[[XY], bool] | None,
               limit: float, side: int) -> tuple[list[XY], bool, bool]:
        body = self.body
        body.position = start
        body.velocity = (0.0, 0.0)
        self.control.velocity = (0.0, 0.0)
        self.space.reindex_shapes_for_body(body)
        route = [xy_of(start)]
        length = 0.0
        turned = False
        follow: str | None = None             # the obstacle being followed
        fnx, fny = 0.0, 0.0                   # its last normal (mover -> obstacle)
        ax, ay = aim
        ids = self.shape_id
        x, y = start
        for _ in range(int(limit / 0.01) + 200):
            if stop is not None and stop((x, y)):
                return route, True, turned
            touching, step = self._around(x, y)
            if any(ids.get(sh) in goal_ids for _, _, sh in touching):
                return route, True, turned
            dx, dy = ax - x, ay - y
            dist = math.hypot(dx, dy)
            if dist < 1e-6:
                return route, stop is None, turned
            dx, dy = dx / dist, dy / dist
            if follow is not None:
                mine = [(nx, ny) for nx, ny, sh in touching if ids[sh] == follow]
                if mine:
                    fnx, fny = mine[0]
                else:                         # round a corner: where the outline is now
                    near = min((sh.point_query((x, y)) for sh in self.shapes_of[follow]),
                               key=lambda q: q.distance)
                    fnx, fny = -near.gradient.x, -near.gradient.y
                if dx * fnx + dy * fny <= 0.0:
                    follow = None             # the way to the aim leads away from it
                else:
                    dx, dy = -fny * side, fnx * side
                    if not mine:              # lost touch round a corner: lean back in
                        dx, dy = dx + 0.5 * fnx, dy + 0.5 * fny
            for nx, ny, sh in touching:
                if follow is not None and ids[sh] == follow:
                    continue
                push = dx * nx + dy * ny
                if push > 0:
                    dx, dy = dx - nx * push, dy - ny * push
                    if math.hypot(dx, dy) < HEAD_ON and follow is None:
                        follow, fnx, fny, turned = ids[sh], nx, ny, True
                        dx, dy = -ny * side, nx * side
            norm = math.hypot(dx, dy)
            if norm < 1e-9:
                return route, False, turned
            speed = step / SIM_DT / norm
            self.control.velocity = (dx * speed, dy * speed)
            self.space.step(SIM_DT)
            x, y = new = xy_of(body.position)
            length += math.dist(route[-1], new)
            route.append(new)
            if length >= limit:
                return route, False, turned
            if len(route) > STUCK_STEPS and math.dist(route[-1 - STUCK_STEPS], new) < STUCK_PROGRESS:
                return route, False, turned
        return route, False, turned


class _Clearance:
    """Shapely test that a straight move of the base stays clear of every obstacle."""

    def __init__(self, arena: Arena, base: Base, facing_deg: float, start: XY,
                 obstacles: Sequence[Obstacle], reach: float, strict: bool = False):
        self.base, self.facing = base, facing_deg
        cores, pads = [], []
        for ob in obstacles:
            c, p = core_of(ob.base, ob.facing_deg, (ob.x, ob.y))
            cores.append(c)
            pads.append(p)
        for _, poly in arena.terrain_near(start, reach):
            cores.append(poly)
            pads.append(0.0)
        self.cores = np.array(cores, dtype=object)
        self.pads = np.array(pads, dtype=float)
        # a base may start a hair into a neighbour it touches, and the simulation
        # may graze one: allow a quarter of the tolerance, and no deeper than the start
        start_gaps = (np.zeros(len(cores)) if strict
                      else self._gaps_of(*core_of(base, facing_deg, start)))
        self.limit = np.minimum(0.0, start_gaps) - arena.tol / 4.0

    def _gaps_of(self, core, pad) -> np.ndarray:
        if not len(self.cores):
            return np.zeros(0)
        return shapely.distance(core, self.cores) - pad - self.pads

    def clear_at(self, points: Points) -> np.ndarray:
        """For each point: the base standing there overlaps nothing (beyond the limit)."""
        if not len(self.cores):
            return np.ones(len(points), dtype=bool)
        cores, pad = cores_at(self.base, self.facing, points)
        g = shapely.distance(cores[:, None], self.cores[None, :]) - pad - self.pads[None, :]
        return _ALL_ROWS(g >= self.limit[None, :], axis=1)

    def clear_from(self, a: XY, points: Points) -> np.ndarray:
        """For each point b: the straight move a -> b stays clear."""
        if not len(self.cores):
            return np.ones(len(points), dtype=bool)
        if self.base.is_round:
            coords = np.array([[a, b] for b in points], dtype=float)
            segs = shapely.linestrings(coords)
            g = shapely.distance(segs[:, None], self.cores[None, :]) - self.base.radius - self.pads
        else:
            rows = []
            for b in points:
                core, pad = sweep_core(self.base, self.facing, [a, b])
                rows.append(self._gaps_of(core, pad))
            g = np.array(rows).reshape(len(points), len(self.cores))
        return _ALL_ROWS(g >= self.limit[None, :], axis=1)


#: a round clearance with more obstacles than this cuts them down to those near
#: the points asked about before measuring (``_RoundClearance._near``)
NEAR_FROM = 8
#: a round clearance asked about more (points x obstacles) than this measures each
#: obstacle against the points near it only (``_RoundClearance._clear_at_sparse``)
SPARSE_FROM = 4000


class _RoundClearance:
    """``_Clearance`` for a round base among round bases, measured analytically
    (centre distance less the radii), with the same limit."""

    def __init__(self, arena: Arena, base: Base, start: XY, obstacles: Sequence[Obstacle],
                 strict: bool = False):
        self.r = base.radius
        self.c = np.array([(ob.x, ob.y, ob.r) for ob in obstacles],
                          dtype=float).reshape(-1, 3)
        g0 = np.zeros(len(self.c)) if strict else \
            np.hypot(self.c[:, 0] - start[0], self.c[:, 1] - start[1]) - self.r - self.c[:, 2]
        self.limit = np.minimum(0.0, g0) - arena.tol / 4.0

    def clear_at(self, points: Points) -> np.ndarray:
        """For each point: the base standing there overlaps nothing (beyond the limit)."""
        xy = np.asarray(points, dtype=float).reshape(-1, 2)
        c, limit = self._near(xy)
        if not len(c) or not len(xy):
            return np.ones(len(xy), dtype=bool)
        if len(xy) * len(c) > SPARSE_FROM:
            return self._clear_at_sparse(xy, c, limit)
        g = np.hypot(xy[:, None, 0] - c[None, :, 0], xy[:, None, 1] - c[None, :, 1]) \
            - self.r - c[None, :, 2]
        return _ALL_ROWS(g >= limit[None, :], axis=1)

    def _clear_at_sparse(self, xy: np.ndarray, c: np.ndarray, limit: np.ndarray) -> np.ndarray:
        """``clear_at`` for many points (a coherency repair's few thousand spots
        against every base near): each obstacle measured only against the points
        whose x lies within the base's radius and its own of its centre (points
        sorted by x, ``searchsorted``).  Every other point is farther than those
        radii from it, so its gap is positive and its limit negative: clear, as
        the full (k, n) matrix would say; the gaps measured are the same numbers."""
        order = np.argsort(xy[:, 0], kind="stable")
        xs = xy[order, 0]
        span = self.r + c[:, 2]
        lo = np.searchsorted(xs, c[:, 0] - span, side="left")
        hi = np.searchsorted(xs, c[:, 0] + span, side="right")
        cnt = np.maximum(hi - lo, 0)
        ok = np.ones(len(xy), dtype=bool)
        if not cnt.any():
            return ok
        # every (obstacle, point) pair within an obstacle's window, at once
        jj = np.arange(len(c)).repeat(cnt)
        pos = np.arange(len(jj)) - (cnt.cumsum() - cnt).repeat(cnt) + lo.repeat(cnt)
        idx = order[pos]
        # ... and, of those, the points whose y lies within the same reach (a hair
        # more): any other is as far in y alone, so its gap is positive, clear
        dy = xy[idx, 1] - c[jj, 1]
        near = np.abs(dy) <= span[jj] + 1e-6
        idx, jj, dy = idx[near], jj[near], dy[near]
        g = np.hypot(xy[idx, 0] - c[jj, 0], dy) - self.r - c[jj, 2]
        ok[idx[g < limit[jj]]] = False
        return ok

    def within(self, points: Points) -> _RoundClearance:
        """The same test for points and legs inside the bounding box of ``points``
        only: the obstacles that cannot touch the base anywhere in it left out
        (``_near``).  A route pulled tight asks many small questions inside its
        own box: it is cut down once, not per question."""
        c, limit = self._near(np.asarray(points, dtype=float).reshape(-1, 2))
        out = object.__new__(_RoundClearance)
        out.r, out.c, out.limit = self.r, c, limit
        return out

    def _near(self, xy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The obstacles (and their limits) that can touch the base standing anywhere
        in the bounding box of ``xy`` (k, 2): those whose edge comes nearer the box
        than the base's radius.  Every other one is clear of every point and leg
        within the box (its gap is positive, its limit negative), so leaving it
        out changes no answer, only the size of the arrays measured."""
        c = self.c
        if len(c) <= NEAR_FROM or not len(xy):
            return c, self.limit
        lo, hi = np.minimum.reduce(xy, axis=0), np.maximum.reduce(xy, axis=0)
        ex = np.maximum(0.0, np.maximum(lo[0] - c[:, 0], c[:, 0] - hi[0]))
        ey = np.maximum(0.0, np.maximum(lo[1] - c[:, 1], c[:, 1] - hi[1]))
        keep = np.hypot(ex, ey) < self.r + c[:, 2]
        if _ALL_ROWS(keep):
            return c, self.limit
        return c[keep], self.limit[keep]

    def clear_from(self, a: XY, points: Points) -> np.ndarray:
        """For each point b: the straight move a -> b stays clear (each obstacle's
        centre to the nearest point of the segment, less the radii)."""
        b = np.asarray(points, dtype=float).reshape(-1, 2)
        ax, ay = float(a[0]), float(a[1])
        if len(self.c) <= NEAR_FROM:
            c, limit = self.c, self.limit     # ``_near`` would keep them all
        else:
            c, limit = self._near(np.concatenate([b, [[ax, ay]]]))
        if not len(c) or not len(b):
            return np.ones(len(b), dtype=bool)
        dx, dy = b[:, 0] - ax, b[:, 1] - ay
        ll = dx * dx + dy * dy
        px = c[None, :, 0] - ax
        py = c[None, :, 1] - ay
        # clipped to [0, 1] (maximum then minimum: np.clip's numbers, but for the sign
        # of a zero, which no gap below can tell)
        t = np.minimum(np.maximum(
            (px * dx[:, None] + py * dy[:, None]) / np.where(ll > 0, ll, 1.0)[:, None], 0.0), 1.0)
        g = np.hypot(px - t * dx[:, None], py - t * dy[:, None]) - self.r - c[None, :, 2]
        return _ALL_ROWS(g >= limit[None, :], axis=1)

    def clear_one(self, a: XY, b: XY) -> bool:
        """``clear_from(a, [b])[0]``, over plain floats obstacle by obstacle: the same
        projection onto the leg; the distance is taken with ``np.hypot`` (numpy's
        number) unless its square already puts the obstacle well clear of the
        limit or well inside it (by a billionth: no rounding reaches that far)."""
        lists = getattr(self, "_lists", None)
        if lists is None:
            lists = self._lists = (self.c.tolist(), self.limit.tolist())
        ax, ay = float(a[0]), float(a[1])
        dx, dy = float(b[0]) - ax, float(b[1]) - ay
        ll = dx * dx + dy * dy
        den = ll if ll > 0 else 1.0
        r = self.r
        for (cx, cy, cr), lim in zip(*lists):
            px, py = cx - ax, cy - ay
            t = (px * dx + py * dy) / den
            t = 0.0 if t < 0.0 else (1.0 if t > 1.0 else t)
            qx, qy = px - t * dx, py - t * dy
            edge = r + cr + lim                   # the gap's limit as a centre distance
            if edge > 1e-6:
                sq = qx * qx + qy * qy
                if sq > edge * edge * (1.0 + 1e-9):
                    continue                      # well clear
                if sq < edge * edge * (1.0 - 1e-9):
                    return False                  # well inside
            if not float(np.hypot(qx, qy)) - r - cr >= lim:
                return False
        return True

    def clear_legs(self, path: Sequence[XY]) -> np.ndarray:
        """For each leg of the polyline ``path``: the straight move along it stays clear."""
        a, b = _legs_of(path)
        c, limit = self._near(np.asarray(path, dtype=float).reshape(-1, 2))
        if not len(c) or not len(a):
            return np.ones(len(a), dtype=bool)
        dx, dy = b[:, 0] - a[:, 0], b[:, 1] - a[:, 1]
        ll = dx * dx + dy * dy
        px = c[None, :, 0] - a[:, None, 0]
        py = c[None, :, 1] - a[:, None, 1]
        # clipped to [0, 1] (maximum then minimum: np.clip's numbers, but for the sign
        # of a zero, which no gap below can tell)
        t = np.minimum(np.maximum(
            (px * dx[:, None] + py * dy[:, None]) / np.where(ll > 0, ll, 1.0)[:, None], 0.0), 1.0)
        g = np.hypot(px - t * dx[:, None], py - t * dy[:, None]) - self.r - c[None, :, 2]
        return _ALL_ROWS(g >= limit[None, :], axis=1)


def _legs_of(path: Sequence[XY]) -> tuple[np.ndarray, np.ndarray]:
    p = np.asarray(path, dtype=float).reshape(-1, 2)
    return p[:-1], p[1:]


def clearance(arena: Arena, base: Base, facing_deg: float, start: XY,
              obstacles: Sequence[Obstacle], reach: float) -> _Clearance | _RoundClearance:
    """The clearance test for a base moving from ``start``: measured analytically
    (``_RoundClearance``) for a round base among round bases with no impassable
    terrain within ``reach``, else with Shapely (``_Clearance``); the same answers."""
    if base.is_round and all(ob.is_round for ob in obstacles) \
            and not arena.terrain_near(start, reach):
        return _RoundClearance(arena, base, start, obstacles)
    return _Clearance(arena, base, facing_deg, start, obstacles, reach)


def pull_tight(route: Sequence[XY], clear: _Clearance | _RoundClearance,
               spacing: float = 0.04) -> list[XY]:
    """The shortest polyline through points of ``route`` whose every straight
    leg stays clear (greedy: from each kept point, the farthest clear one)."""
    return _pull_tight(route, clear, spacing)[0]


def _pull_tight(route: Sequence[XY], clear: _Clearance | _RoundClearance,
                spacing: float = 0.04) -> tuple[list[XY], int | None]:
    """``pull_tight``, and how many of its points lead up to its first leg that is
    not clear (``clear_prefix`` of it), when the greedy pass measured every leg it
    kept (a round clearance: each leg kept is the farthest clear one, or, none
    being clear, the next raw leg, measured not clear); else None."""
    last = xy_of(route[0])
    pts = [last]
    keep, dist = pts.append, math.dist
    for p in itertools.islice(route, 1, len(route) - 1):
        if dist(p, last) >= spacing:
            last = (p[0], p[1])
            keep(last)
    if len(route) > 1:
        pts.append(xy_of(route[-1]))
    if len(pts) <= 2:
        return pts, None
    out = [pts[0]]
    i = 0
    # the last point alone first, often in sight; else every later point in one call
    batch = isinstance(clear, _RoundClearance)
    arr: Sequence[XY] | np.ndarray = pts
    if isinstance(clear, _RoundClearance):
        arr = np.array(pts, dtype=float)    # the same points, made an array once
        clear = clear.within(arr)
    clean: int | None = None
    while i < len(pts) - 1:
        # the last point alone first (plain floats for a round clearance, ``clear_one``):
        # most often it is in sight; else every later point at once
        if clear.clear_one(pts[i], pts[-1]) if isinstance(clear, _RoundClearance) \
                else clear.clear_from(pts[i], pts[-1:])[0]:
            out.append(pts[-1])             # the last point in sight: the farthest clear one
            break
        ok = clear.clear_from(pts[i], arr[i + 1:] if batch else pts[i + 1:])
        hits = ok.nonzero()[0]
        if not len(hits) and clean is None:
            clean = len(out)                # the raw leg kept is not clear: the route stops
        j = i + 1 + (int(hits[-1]) if len(hits) else 0)
        out.append(pts[j])
        i = j
    if not batch:
        return out, None
    return out, len(out) if clean is None else clean


def clear_prefix(path: Sequence[XY], clear: _Clearance | _RoundClearance) -> list[XY]:
    """The path up to its first leg that is not clear (``clear.clear_from``): the
    steering may press a base into another by more than the allowed graze where
    no clear shortcut exists (``pull_tight`` then keeps the raw leg); the route
    stops before such a leg, so every route is clear leg by leg."""
    out = [xy_of(path[0])]
    if len(path) < 2:
        return out
    ok: Sequence[bool] | np.ndarray
    if isinstance(clear, _RoundClearance):
        ok = clear.clear_legs(path)
    else:
        ok = [bool(clear.clear_from(path[k], [path[k + 1]])[0]) for k in range(len(path) - 1)]
    for k, good in enumerate(ok):
        if not good:
            break
        out.append(xy_of(path[k + 1]))
    return out


def sim_reach(base: Base, max_distance: float) -> float:
    """How far from its start (inches) a route can meet an obstacle."""
    return SIM_REACH * max_distance + 2.0 * base.radius + 1.0


def near_obstacles(base: Base, start: XY, obstacles: Sequence[Obstacle],
                   max_distance: float) -> list[Obstacle]:
    """The obstacles a route from ``start`` can meet."""
    reach = sim_reach(base, max_distance)
    sx, sy = float(start[0]), float(start[1])
    return [ob for ob in obstacles
            if math.hypot(ob.x - sx, ob.y - sy) <= reach + ob.r]


def near_of(base: Base, start: XY, obstacles: Sequence[Obstacle],
            max_distance: float) -> NearObstacles:
    """``near_obstacles`` as a ``NearObstacles`` (for ``find_routes``' ``near``)."""
    return NearObstacles(near_obstacles(base, start, obstacles, max_distance))


def ring_offsets(base: Base, facing_deg: float, other: Base, other_facing_deg: float,
                 gap: float, count: int = SPOT_COUNT) -> np.ndarray:
    """Offsets (count, 2) from another base's centre of the centres where ``base``
    stands ``gap`` inches off its edge, evenly round it, the first due east of it.

    The ring is the Minkowski sum of the two footprints grown by ``gap`` (exact
    for round bases: a circle).  Offsets, not points, so the same ring results
    wherever the other base stands (translation-invariant).  Remembered (the
    same few rings are asked for round every friend and target of a unit); the
    array is read-only."""
    return _ring_offsets(base, facing_deg, other, other_facing_deg, float(gap), int(count))


@lru_cache(maxsize=1024)
def _ring_offsets(base: Base, facing_deg: float, other: Base, other_facing_deg: float,
                  gap: float, count: int) -> np.ndarray:
    out = _make_ring_offsets(base, facing_deg, other, other_facing_deg, gap, count)
    out.setflags(write=False)
    return out


def _make_ring_offsets(base: Base, facing_deg: float, other: Base, other_facing_deg: float,
                       gap: float, count: int) -> np.ndarray:
    if base.is_round and other.is_round:
        t = np.linspace(0.0, 2.0 * math.pi, count, endpoint=False)
        r = base.radius + other.radius + gap
        return np.column_stack([r * np.cos(t), r * np.sin(t)])
    ring = ring_line(base, facing_deg, other, other_facing_deg, gap)
    pts = np.array([ring.interpolate(f, normalized=True).coords[0]
                    for f in np.linspace(0.0, 1.0, count, endpoint=False)])
    return pts


@lru_cache(maxsize=512)
def ring_line(base: Base, facing_deg: float, other: Base, other_facing_deg: float,
              gap: float) -> shapely.LinearRing:
    """The ring of ``ring_offsets`` as a closed line round the origin."""
    if base.is_round and other.is_round:
        return Point(0.0, 0.0).buffer(base.radius + other.radius + gap, quad_segs=64).exterior
    a = (outline(other, other_facing_deg) if not other.is_round
         else np.array(base_polygon(other, 0, 0, 0).exterior.coords))
    b = -(outline(base, facing_deg) if not base.is_round
          else np.array(base_polygon(base, 0, 0, 0).exterior.coords))
    hull = shapely.MultiPoint((a[:, None, :] + b[None, :, :]).reshape(-1, 2)).convex_hull
    return hull.buffer(gap, quad_segs=8).exterior if gap > 0 else hull.exterior


def ring_crossings(base: Base, facing_deg: float, a: Obstacle, gap_a: float,
                   b: Obstacle, gap_b: float) -> list[XY]:
    """Centres where ``base`` stands ``gap_a`` off the edge of ``a`` and ``gap_b``
    off the edge of ``b`` at once (where their rings cross; exact for round bases)."""
    if base.is_round and a.base.is_round and b.base.is_round:
        ra = base.radius + a.base.radius + gap_a
        rb = base.radius + b.base.radius + gap_b
        d = math.hypot(b.x - a.x, b.y - a.y)
        if d == 0 or d > ra + rb or d < abs(ra - rb):
            return []
        along = (ra * ra - rb * rb + d * d) / (2 * d)
        h = math.sqrt(max(0.0, ra * ra - along * along))
        ux, uy = (b.x - a.x) / d, (b.y - a.y) / d
        mx, my = a.x + along * ux, a.y + along * uy
        return [(mx - h * uy, my + h * ux), (mx + h * uy, my - h * ux)]
    la = shapely.affinity.translate(ring_line(base, facing_deg, a.base, a.facing_deg, gap_a),
                                    a.x, a.y)
    lb = shapely.affinity.translate(ring_line(base, facing_deg, b.base, b.facing_deg, gap_b),
                                    b.x, b.y)
    cross = la.intersection(lb)
    return [(float(p.x), float(p.y)) for p in getattr(cross, "geoms", [cross])
            if p.geom_type == "Point"]


def contact_spot(arena: Arena, base: Base, facing_deg: float, start: XY, target: Obstacle,
                 obstacles: Sequence[Obstacle], max_distance: float) -> XY | None:
    """The free spot in base contact with ``target`` nearest to ``start`` (as the crow flies).

    The ring of centres touching the target (``SPOT_COUNT`` points, ``margin``
    off its edge; ``ring_offsets``); a spot is free when the base standing there
    overlaps no other base or impassable terrain and stays on the table.  Ties
    (``TIE_DECIMALS``) go to the first round the ring.  None when no spot is free.
    """
    gap = base.radius + target.base.radius + arena.margin
    pts = ring_offsets(base, facing_deg, target.base, target.facing_deg, arena.margin) \
        + np.array([target.x, target.y])
    pts = pts[np.hypot(pts[:, 0] - start[0], pts[:, 1] - start[1])
              <= max_distance + gap + 2.0 * base.radius]
    pts = pts[free_at(arena, base, facing_deg, start, obstacles, pts)] if len(pts) else pts
    if not len(pts):
        return None
    k = int(ties(np.hypot(pts[:, 0] - start[0], pts[:, 1] - start[1])).argmin())
    return (float(pts[k, 0]), float(pts[k, 1]))


def free_at(arena: Arena, base: Base, facing_deg: float, start: XY,
            obstacles: Sequence[Obstacle], points: Points,
            strict: bool = False) -> np.ndarray:
    """For each point: the base standing there is on the table and overlaps no
    obstacle or impassable terrain (beyond a quarter of the tolerance; unless
    ``strict``, no deeper than where it stands at ``start``)."""
    xy = np.asarray(points, dtype=float).reshape(-1, 2)
    if not len(xy):
        return np.zeros(0, dtype=bool)
    inset = base.radius if base.is_round else max(base.along, base.across) / 2.0
    on = ((xy[:, 0] >= inset) & (xy[:, 0] <= arena.width - inset)
          & (xy[:, 1] >= inset) & (xy[:, 1] <= arena.depth - inset))
    far = float(np.hypot(xy[:, 0] - start[0], xy[:, 1] - start[1]).max())
    if base.is_round and all(ob.is_round for ob in obstacles) \
            and not arena.terrain_near(start, far + 2.0 * base.radius + 1.0):
        rc = _RoundClearance(arena, base, start, obstacles, strict=strict)
        return on & rc.clear_at(xy)
    clear = _Clearance(arena, base, facing_deg, start, obstacles, far + 2.0 * base.radius + 1.0,
                       strict=strict)
    return on & clear.clear_at(xy)


def clear_of(base: Base, facing_deg: float, points: Points,
             obstacles: Sequence[Obstacle], tol: float) -> np.ndarray:
    """For each point: the base standing there overlaps none of ``obstacles``
    (beyond a quarter of the tolerance); the table and terrain are not looked at."""
    if not len(points):
        return np.zeros(0, dtype=bool)
    if not obstacles:
        return np.ones(len(points), dtype=bool)
    if base.is_round and all(ob.is_round for ob in obstacles):
        xy = np.asarray(points, dtype=float).reshape(-1, 2)
        c = np.array([(ob.x, ob.y, ob.r) for ob in obstacles], dtype=float)
        g = np.hypot(xy[:, None, 0] - c[None, :, 0], xy[:, None, 1] - c[None, :, 1]) \
            - base.radius - c[None, :, 2]
        return _ALL_ROWS(g >= -tol / 4.0, axis=1)
    parts = [core_of(ob.base, ob.facing_deg, (ob.x, ob.y)) for ob in obstacles]
    oc = np.array([c for c, _ in parts], dtype=object)
    op = np.array([p for _, p in parts], dtype=float)
    cores, pad = cores_at(base, facing_deg, points)
    g = shapely.distance(cores[:, None], oc[None, :]) - pad - op[None, :]
    return _ALL_ROWS(g >= -tol / 4.0, axis=1)


def straight_clear(arena: Arena, base: Base, facing_deg: float, start: XY,
                   obstacles: Sequence[Obstacle], end: XY) -> bool:
    """Whether the straight move ``start`` -> ``end`` stays on the table and clear of
    every obstacle and impassable terrain (the table is convex: both ends on it
    keep the whole sweep on it)."""
    if base.is_round and not arena.terrain and all(ob.is_round for ob in obstacles):
        # ``free_at`` and ``clearance`` would both build this round clearance: built once
        # (``clear_one``: ``clear_from``'s answer for one leg)
        rc = _RoundClearance(arena, base, start, obstacles)
        return (on_table(arena, base, (float(end[0]), float(end[1])))
                and bool(rc.clear_at([end])[0]) and rc.clear_one(start, end))
    if not free_at(arena, base, facing_deg, start, obstacles, [end])[0]:
        return False
    reach = math.dist(start, end) + 2.0 * base.radius + 1.0
    return bool(clearance(arena, base, facing_deg, start, obstacles, reach)
                .clear_from(start, [end])[0])


def on_table(arena: Arena, base: Base, at: XY) -> bool:
    """Whether the base standing at ``at`` lies wholly on the table (the inset of
    ``free_at``: the radius, or half the longer extent)."""
    inset = base.radius if base.is_round else max(base.along, base.across) / 2.0
    return inset <= at[0] <= arena.width - inset and inset <= at[1] <= arena.depth - inset


#: a straight leg with a ``stop`` test is walked at most this far apart (inches)
#: to find where the test first holds, then refined by halving ``STOP_HALVINGS`` times
STOP_SAMPLE = 0.05
STOP_HALVINGS = 12


def straight_route(start: XY, aim: XY, max_distance: float, limit: float,
                   stop: Callable[[XY], bool] | None = None) -> Route:
    """The route of a base sliding straight from ``start`` to ``aim`` (the way
    already known to be clear, ``legs.leg_clear``), cut at ``max_distance``.

    With ``stop``, the route ends where the test first holds along the leg
    (walked ``STOP_SAMPLE`` apart, then halved down) and is reached there; it
    is looked for no farther than ``limit`` inches.  Without, the route ends
    at the aim and is reached when the aim is within ``max_distance``: what
    the steering gives on a clear way (``_Sim.steer``), without pymunk.
    """
    start = (float(start[0]), float(start[1]))
    aim = (float(aim[0]), float(aim[1]))
    full = math.dist(start, aim)
    reached = True
    end = aim
    if stop is not None:
        if stop(start):
            return Route([start], True, aim, 1, None)
        span = min(full, limit)
        n = max(1, math.ceil(span / STOP_SAMPLE))

        def at(s: float) -> XY:
            t = s / full if full > 0 else 0.0
            return (start[0] + (aim[0] - start[0]) * t, start[1] + (aim[1] - start[1]) * t)
        lo, hi = 0.0, None
        for k in range(1, n + 1):
            s = span * k / n
            if stop(at(s)):
                hi = s
                break
            lo = s
        if hi is None:
            reached = False
            end = at(span)
        else:
            for _ in range(STOP_HALVINGS):
                mid = (lo + hi) / 2.0
                if stop(at(mid)):
                    hi = mid
                else:
                    lo = mid
            end = at(hi)
    path = [start, end]
    length = math.dist(start, end)
    if length > max_distance:
        path = cut_path(path, max_distance)
        reached = False
    return Route(path, reached, aim, 1, None)


def find_routes(arena: Arena, base: Base, facing_deg: float, start: XY,
                obstacles: Sequence[Obstacle], aim: XY, goal_ids: set[str],
                max_distance: float, stop: Callable[[XY], bool] | None = None,
                stop_key: Hashable | None = None,
                near: NearObstacles | None = None) -> list[Route]:
    """Routes for one model from ``start`` toward ``aim``, at most ``max_distance`` long.

    Parameters
    ----------
    obstacles : every other base, where it stands while this model moves.
    aim : the point steered at (a target model's centre, an objective's centre).
    goal_ids : obstacle ids whose touch ends the route (reached).
    stop : optional test on the centre that ends the route (reached).
    stop_key : a hashable naming ``stop`` (the same key, the same test): with
        it, or without ``stop``, the answer is remembered on the arena by
        mover, start, aim and the obstacles near (``Arena.routes``), so a solve
        asking again (the two first passes, the improve rounds, coherency
        repairs) gets it without routing again.
    near : ``near_of(base, start, obstacles, max_distance)`` when the caller has
        it already (``obstacles`` are then not looked through again).

    Returns
    -------
    list of Route
        When the straight leg from ``start`` to ``aim`` is clear (``legs.leg_clear``)
        and ends on the table: that leg alone (``straight_route``), no steering.
        Else one per side steered (a second only when the first turned head-on
        along an obstacle and did not reach the goal), each pulled tight and cut.
    """
    reach = sim_reach(base, max_distance)
    near_key = near if near is not None else near_of(base, start, obstacles, max_distance)
    near_obs = near_key.obstacles
    key = None
    if stop is None or stop_key is not None:
        key = (base, facing_deg, float(start[0]), float(start[1]), float(aim[0]),
               float(aim[1]), frozenset(goal_ids), max_distance, stop_key, near_key)
        hit = arena.routes.get(key)
        if hit is not None:
            return list(hit)
    terrain = [poly for _, poly in arena.terrain_near(start, reach)]
    if on_table(arena, base, aim):
        info = arena.leg_info.get(near_key)
        if info is None:
            info = arena.leg_info[near_key] = obstacle_info(near_obs)
        straight = leg_clear(base, facing_deg, start, aim, near_obs, terrain, arena.tol, info)
    else:
        straight = False
    if straight:
        out = [straight_route(start, aim, max_distance, SIM_REACH * max_distance, stop)]
    else:
        out = _steered_routes(arena, base, facing_deg, start, near_obs, aim, goal_ids,
                              max_distance, stop, reach, near_key)
    if key is not None:
        arena.routes[key] = tuple(out)
    return out


def _steered_routes(arena: Arena, base: Base, facing_deg: float, start: XY,
                    near: Sequence[Obstacle], aim: XY, goal_ids: set[str],
                    max_distance: float, stop: Callable[[XY], bool] | None,
                    reach: float, near_key: NearObstacles | None = None) -> list[Route]:
    """``find_routes`` when the straight leg is blocked: a round base among round
    bases, with no impassable terrain near, slides round them analytically
    (``slides.slide``); any other case is steered with pymunk (``_Sim.steer``)."""
    circles = None
    # the circles and the clearance depend on the mover, its start and the obstacles
    # near, not on the aim: made once per mover and start (``Arena.movers``)
    mover_key = (base, facing_deg, float(start[0]), float(start[1]), frozenset(goal_ids),
                 reach, near_key if near_key is not None else NearObstacles(near))
    made = arena.movers.get(mover_key)
    if made is None:
        if base.is_round and all(ob.is_round for ob in near) \
                and not arena.terrain_near(start, reach):
            made = (*_slide_circles(arena, base, start, near, goal_ids, reach),
                    clearance(arena, base, facing_deg, start, near, reach))
        else:
            made = (None, None, clearance(arena, base, facing_deg, start, near, reach))
        arena.movers[mover_key] = made
    circles, goal, clear = made
    if circles is None:
        sim = arena.sim_for(base, facing_deg, start, near, reach)
    out: list[Route] = []
    handoff: dict = {}
    for side in (1, -1):
        wedge = None
        if circles is not None:
            raw, reached, turned, wedge = slide(start, aim, circles, goal, stop,
                                                SIM_REACH * max_distance, side, HEAD_ON,
                                                SIM_DECIMALS, ARC_SAG_FRACTION * arena.margin,
                                                arena.slides, handoff)
        else:
            raw, reached, turned = sim.steer(start, aim, goal_ids, stop,
                                             SIM_REACH * max_distance, side)
        if wedge is not None and wedge < len(raw) and (side == 1 or not any(
                r.path[-1] == xy_of(raw[wedge - 1]) for r in out)):
            out.append(_tight_route(raw[:wedge], False, aim, side, clear, max_distance))
        out.append(_tight_route(raw, reached, aim, side, clear, max_distance))
        if out[-1].reached or not turned:
            break
    return out


class NearObstacles:
    """The obstacles near a mover (``obstacles``, a tuple, in order), also a
    dictionary key: equal when the obstacles are (``Obstacle`` equality, in
    order), hashed once (a route's keys read it several times)."""

    __slots__ = ("obstacles", "_hash")

    def __init__(self, obstacles: Sequence[Obstacle]):
        self.obstacles = tuple(obstacles)
        self._hash = hash(self.obstacles)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NearObstacles) and (
            self is other or (self._hash == other._hash and self.obstacles == other.obstacles))


def _tight_route(raw: list[XY], reached: bool, aim: XY, side: int,
                 clear: _Clearance | _RoundClearance, max_distance: float) -> Route:
    """A raw route pulled tight, stopped before its first leg that is not clear,
    cut at the maximum distance."""
    # a round clearance is cut down to the route's box inside ``_pull_tight`` (on the
    # points it keeps, whose box holds every leg it measures); it never reads ``near``
    near = clear
    tight, n_clean = _pull_tight(raw, near)
    clean = clear_prefix(tight, near) if n_clean is None else tight[:n_clean]
    reached = reached and len(clean) == len(tight)
    full = path_length(clean)
    path = cut_path(clean, max_distance) if full > max_distance else clean
    # a round clearance measures a leg by the nearest point of it to each obstacle:
    # every leg of ``clean`` (and of its cut) is clear, so is every point on them
    return Route(path, reached and full <= max_distance + 1e-9, xy_of(aim), side, clear,
                 isinstance(clear, _RoundClearance))


def _slide_circles(arena: Arena, base: Base, start: XY, near: Sequence[Obstacle],
                   goal_ids: set[str], reach: float) -> tuple[np.ndarray, np.ndarray]:
    """The circles a round base's centre slides round (``slides.slide``): each
    obstacle grown by the mover's radius and the margin (a goal base by the
    touch distance more, ``TOUCH_FRACTION``), and the table edges the steering
    would meet (``_Sim``: those within reach) as ``slides.WALL_RADIUS`` circles
    touching the line the centre may not cross.  Shapes (n, 3) and (n,)."""
    grow = base.radius + arena.margin
    touch = TOUCH_FRACTION * arena.margin
    rows = [(ob.x, ob.y, ob.r + grow + (touch if ob.id in goal_ids else 0.0))
            for ob in near]
    goal = [ob.id in goal_ids for ob in near]
    w, d = arena.width, arena.depth
    sx, sy = float(start[0]), float(start[1])
    big = WALL_RADIUS
    walls = ((sy, (sx, grow - big)), (w - sx, (w - grow + big, sy)),
             (d - sy, (sx, d - grow + big)), (sx, (grow - big, sy)))
    for off, (cx, cy) in walls:
        if off > reach + 2.0 * max(base.along, base.across, 2.0 * base.radius):
            continue                  # as ``_Sim``: out of reach, left out
        rows.append((cx, cy, big))
        goal.append(False)
    return np.array(rows, dtype=float).reshape(-1, 3), np.array(goal, dtype=bool)
