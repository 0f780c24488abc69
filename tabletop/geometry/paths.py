"""Paths for one moving base around other bases and impassable terrain.

pymunk does the collision work: every other base is a static shape, each
impassable terrain piece ("impassable", "building") a ring of static
segments, the table edges walls; the moving base is a dynamic body pulled
through a force-limited pivot joint by a kinematic control body (the pymunk
tank example), so obstacles push back and bases slide around each other.
The body is steered at an aim point; when it presses head-on into an
obstacle it turns along the obstacle's tangent, to one side and then the
other.  Shapely then pulls the route tight (the shortest polyline through the
route's own points whose sweep stays clear of every base and terrain piece)
and cuts it at the maximum distance.

Inches, origin bottom-left, y up; bases keep their facing (no rotation).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pymunk
import shapely
from shapely.geometry import Polygon

from tabletop.board.bases import Base
from tabletop.board.state import Battlefield
from tabletop.geometry.footprints import base_polygon, core_and_pad
from tabletop.geometry.sweeps import XY, cut_path, path_length, sweep_core

#: the simulated base moves this many inches per simulated second
SIM_SPEED = 1.0
#: step length (inches) near an obstacle and in the open
STEP_NEAR = 0.02
STEP_FAR = 0.12
#: an obstacle within this of the base's edge counts as near (inches)
NEAR_CLEARANCE = 0.3
#: a pull whose component along the obstacle's tangent is under this fraction
#: is head-on: the base turns along the tangent instead
HEAD_ON = 0.25
#: the base is stuck when it makes less than STUCK_PROGRESS inches in STUCK_STEPS steps
STUCK_STEPS = 25
STUCK_PROGRESS = 0.02
#: the simulated route may be this many times the maximum distance long before
#: Shapely pulls it tight (the steering hugs obstacles, the tight path does not)
SIM_REACH = 2.0
#: the simulated base is this fraction of the tolerance larger all round, so a
#: contact it makes reads as base contact (gap about this, under the tolerance)
MARGIN_FRACTION = 0.5
#: convex polygons for non-round bases in pymunk
POLY_SIMPLIFY = 0.002

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


@dataclass
class Route:
    """A path found for one model: the tight polyline (already cut at the
    maximum distance), whether it reached the goal within that distance, and
    the aim it was steered at."""

    path: list[XY]
    reached: bool
    aim: XY
    side: int


class Arena:
    """The table and its impassable terrain, shared by every path on one state."""

    def __init__(self, state: Battlefield):
        self.width = state.table.width
        self.depth = state.table.depth
        self.tol = state.rules.tol
        self.margin = max(MARGIN_FRACTION * self.tol, 0.001)
        self.terrain = [(t.id, Polygon(t.polygon)) for t in state.terrain if t.impassable]

    def terrain_near(self, at: XY, reach: float) -> list[tuple[str, Polygon]]:
        p = shapely.Point(at)
        return [(tid, poly) for tid, poly in self.terrain if poly.distance(p) <= reach]


def _poly_vertices(base: Base, x: float, y: float, facing_deg: float, grow: float) -> list[XY]:
    poly = base_polygon(base, x, y, facing_deg)
    if grow > 0:
        poly = poly.buffer(grow, quad_segs=4, join_style="mitre")
    poly = poly.simplify(POLY_SIMPLIFY).convex_hull
    return [tuple(c) for c in poly.exterior.coords[:-1]]


class _Sim:
    """One pymunk space: the obstacles static, the mover dynamic."""

    def __init__(self, arena: Arena, base: Base, facing_deg: float, start: XY,
                 obstacles: Sequence[Obstacle], reach: float):
        self.arena = arena
        self.base, self.facing = base, facing_deg
        space = pymunk.Space()
        space.iterations = 20
        space.collision_slop = arena.margin / 5.0
        space.damping = 1.0
        self.space = space
        self.shape_id: dict[pymunk.Shape, str] = {}
        static = space.static_body
        shapes = []
        for ob in obstacles:
            if ob.base.is_round:
                s = pymunk.Circle(static, ob.base.radius, offset=(ob.x, ob.y))
            else:
                s = pymunk.Poly(static, _poly_vertices(ob.base, ob.x, ob.y, ob.facing_deg, 0.0))
            self.shape_id[s] = ob.id
            shapes.append(s)
        for tid, poly in arena.terrain_near(start, reach):
            ring = list(poly.exterior.coords)
            for a, b in itertools.pairwise(ring):
                s = pymunk.Segment(static, a, b, 0.0)
                self.shape_id[s] = tid
                shapes.append(s)
        w, d = arena.width, arena.depth
        for a, b in (((-1, -1), (w + 1, -1)), ((w + 1, -1), (w + 1, d + 1)),
                     ((w + 1, d + 1), (-1, d + 1)), ((-1, d + 1), (-1, -1))):
            shapes.append(pymunk.Segment(static, a, b, 1.0))
        for s in shapes:
            s.friction = 0.0
            s.elasticity = 0.0
        space.add(*shapes)
        body = pymunk.Body(1.0, float("inf"))
        if base.is_round:
            mover = pymunk.Circle(body, base.radius + arena.margin)
            self.reach_r = base.radius + arena.margin
        else:
            verts = _poly_vertices(base, 0.0, 0.0, facing_deg, arena.margin)
            mover = pymunk.Poly(body, verts)
            self.reach_r = max(math.hypot(*v) for v in verts)
        mover.friction = 0.0
        mover.elasticity = 0.0
        mover.filter = pymunk.ShapeFilter(categories=_MOVER)
        control = pymunk.Body(body_type=pymunk.Body.KINEMATIC)
        joint = pymunk.PivotJoint(control, body, (0, 0), (0, 0))
        joint.max_bias = 0.0          # drive by velocity only
        joint.max_force = 50.0        # force-limited: contacts win
        space.add(body, mover, control, joint)
        self.body, self.mover, self.control = body, mover, control
        self.near_filter = pymunk.ShapeFilter(mask=_ALL ^ _MOVER)

    def steer(self, start: XY, aim: XY, goal_ids: set[str], stop: Callable[[XY], bool] | None,
              limit: float, side: int) -> tuple[list[XY], bool, bool]:
        """Run the mover from ``start`` toward ``aim``.

        Returns (raw route, reached: touching a goal base or ``stop`` true,
        turned: it pressed head-on into something and turned along it).
        """
        body = self.body
        body.position = start
        body.velocity = (0.0, 0.0)
        self.control.velocity = (0.0, 0.0)
        self.space.reindex_shapes_for_body(body)
        route = [tuple(start)]
        length = 0.0
        turned = False
        aim_v = pymunk.Vec2d(*aim)
        max_steps = int(limit / STEP_NEAR) + 50
        for _ in range(max_steps):
            pos = body.position
            if stop is not None and stop((pos.x, pos.y)):
                return route, True, turned
            contacts: list[tuple[pymunk.Vec2d, str | None]] = []

            def collect(arb, out=contacts):
                a, b = arb.shapes
                n = arb.normal if a is self.mover else -arb.normal
                out.append((n, self.shape_id.get(b if a is self.mover else a)))

            body.each_arbiter(collect)
            if any(sid in goal_ids for _, sid in contacts):
                return route, True, turned
            to_aim = aim_v - pos
            if to_aim.length < 1e-6:
                return route, stop is None, turned
            d = to_aim.normalized()
            for n, _ in contacts:
                push = d.dot(n)
                if push > 0:
                    d = d - n * push
                    if d.length < HEAD_ON:
                        d = pymunk.Vec2d(-n.y, n.x) * side
                        turned = True
            if d.length < 1e-9:
                return route, False, turned
            d = d.normalized()
            near = self.space.point_query(pos, self.reach_r + NEAR_CLEARANCE, self.near_filter)
            step = STEP_NEAR if near else STEP_FAR
            self.control.velocity = d * SIM_SPEED
            self.space.step(step / SIM_SPEED)
            new = (body.position.x, body.position.y)
            length += math.dist(route[-1], new)
            route.append(new)
            if length >= limit:
                return route, False, turned
            if len(route) > STUCK_STEPS and math.dist(route[-1 - STUCK_STEPS], new) < STUCK_PROGRESS:
                return route, False, turned
        return route, False, turned


class _Clearance:
    """Shapely test that a straight move of the base stays clear of every obstacle."""

    def __init__(self, arena: Arena, base: Base, facing_deg: float, start: XY, end: XY,
                 obstacles: Sequence[Obstacle], reach: float):
        self.base, self.facing = base, facing_deg
        cores, pads = [], []
        for ob in obstacles:
            c, p = core_and_pad(ob.base, ob.x, ob.y, ob.facing_deg)
            cores.append(c)
            pads.append(p)
        for _, poly in arena.terrain_near(start, reach):
            cores.append(poly)
            pads.append(0.0)
        self.cores = np.array(cores, dtype=object)
        self.pads = np.array(pads, dtype=float)
        # a base may start (or be stopped) a hair into a neighbour it touches:
        # never demand more clearance than the route's own ends have
        ends = [self._gaps_of(*core_and_pad(base, *p, facing_deg)) for p in (start, end)]
        self.limit = np.minimum(0.0, np.minimum(*ends)) - 1e-9 if len(cores) else np.zeros(0)

    def _gaps_of(self, core, pad) -> np.ndarray:
        if not len(self.cores):
            return np.zeros(0)
        return shapely.distance(core, self.cores) - pad - self.pads

    def clear_from(self, a: XY, points: Sequence[XY]) -> np.ndarray:
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
        return (g >= self.limit[None, :]).all(axis=1)


def pull_tight(route: Sequence[XY], clearance: _Clearance, spacing: float = 0.04) -> list[XY]:
    """The shortest polyline through points of ``route`` whose every straight
    leg stays clear (greedy: from each kept point, the farthest clear one)."""
    pts = [tuple(route[0])]
    for p in route[1:-1]:
        if math.dist(p, pts[-1]) >= spacing:
            pts.append(tuple(p))
    if len(route) > 1:
        pts.append(tuple(route[-1]))
    if len(pts) <= 2:
        return pts
    out = [pts[0]]
    i = 0
    while i < len(pts) - 1:
        clear = clearance.clear_from(pts[i], pts[i + 1:])
        hits = np.nonzero(clear)[0]
        j = i + 1 + (int(hits[-1]) if len(hits) else 0)
        out.append(pts[j])
        i = j
    return out


def find_routes(arena: Arena, base: Base, facing_deg: float, start: XY,
                obstacles: Sequence[Obstacle], aim: XY, goal_ids: set[str],
                max_distance: float, stop: Callable[[XY], bool] | None = None) -> list[Route]:
    """Routes for one model from ``start`` toward ``aim``, at most ``max_distance`` long.

    Parameters
    ----------
    obstacles : every other base, where it stands while this model moves.
    aim : the point steered at (a target model's centre, an objective's centre).
    goal_ids : obstacle ids whose touch ends the route (reached).
    stop : optional test on the centre that ends the route (reached).

    Returns
    -------
    list of Route
        One per side tried (a second only when the first turned head-on along
        an obstacle and did not reach the goal), each pulled tight and cut.
    """
    reach = SIM_REACH * max_distance + 2.0 * base.radius + 1.0
    near = [ob for ob in obstacles
            if math.hypot(ob.x - start[0], ob.y - start[1]) <= reach + ob.base.radius]
    sim = _Sim(arena, base, facing_deg, start, near, reach)
    out: list[Route] = []
    for side in (1, -1):
        raw, reached, turned = sim.steer(start, aim, goal_ids, stop, SIM_REACH * max_distance, side)
        clear = _Clearance(arena, base, facing_deg, start, raw[-1], near, reach)
        tight = pull_tight(raw, clear)
        full = path_length(tight)
        path = cut_path(tight, max_distance) if full > max_distance else tight
        out.append(Route(path, reached and full <= max_distance + 1e-9, tuple(aim), side))
        if out[-1].reached or not turned:
            break
    return out

