"""Paths for one moving base around other bases and impassable terrain.

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
it is not touching, so it never jumps into one.

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
from tabletop.geometry.footprints import base_polygon
from tabletop.geometry.sweeps import (
    XY,
    core_of,
    cores_at,
    cut_path,
    outline,
    path_length,
    sweep_core,
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

#: contact spots tried round a target base
SPOT_COUNT = 72

TABLE_EDGE = "(table edge)"
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
    clearance: _Clearance | None = None

    def clear_at(self, points: Sequence[XY]) -> np.ndarray:
        """Whether the base standing at each point overlaps no obstacle."""
        if self.clearance is None:
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
        space.collision_bias = COLLISION_BIAS
        space.damping = 1.0
        self.space = space
        self.touch = TOUCH_FRACTION * arena.margin
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
            edge = pymunk.Segment(static, a, b, 1.0)
            self.shape_id[edge] = TABLE_EDGE
            shapes.append(edge)
        self.shapes_of: dict[str, list[pymunk.Shape]] = {}
        for sh, sid in self.shape_id.items():
            self.shapes_of.setdefault(sid, []).append(sh)
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
        joint.max_force = JOINT_MAX_FORCE   # force-limited: contacts win
        space.add(body, mover, control, joint)
        self.body, self.mover, self.control = body, mover, control
        self.near_filter = pymunk.ShapeFilter(mask=_ALL ^ _MOVER)

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
        """Run the mover from ``start`` toward ``aim``.

        Pressing head-on into an obstacle, it follows the obstacle's outline
        (keeping it on the same hand, ``side`` +1 or -1) until heading for the
        aim leads away from it.

        Returns (raw route, reached: touching a goal base or ``stop`` true,
        turned: it followed an obstacle's outline).
        """
        body = self.body
        body.position = start
        body.velocity = (0.0, 0.0)
        self.control.velocity = (0.0, 0.0)
        self.space.reindex_shapes_for_body(body)
        route = [tuple(start)]
        length = 0.0
        turned = False
        follow: str | None = None             # the obstacle being followed
        fnx, fny = 0.0, 0.0                   # its last normal (mover -> obstacle)
        ax, ay = aim
        ids = self.shape_id
        for _ in range(int(limit / 0.01) + 200):
            x, y = body.position
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

    def __init__(self, arena: Arena, base: Base, facing_deg: float, start: XY,
                 obstacles: Sequence[Obstacle], reach: float):
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
        start_gaps = self._gaps_of(*core_of(base, facing_deg, start))
        self.limit = np.minimum(0.0, start_gaps) - arena.tol / 4.0

    def _gaps_of(self, core, pad) -> np.ndarray:
        if not len(self.cores):
            return np.zeros(0)
        return shapely.distance(core, self.cores) - pad - self.pads

    def clear_at(self, points: Sequence[XY]) -> np.ndarray:
        """For each point: the base standing there overlaps nothing (beyond the limit)."""
        if not len(self.cores):
            return np.ones(len(points), dtype=bool)
        cores, pad = cores_at(self.base, self.facing, points)
        g = shapely.distance(cores[:, None], self.cores[None, :]) - pad - self.pads[None, :]
        return (g >= self.limit[None, :]).all(axis=1)

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


def sim_reach(base: Base, max_distance: float) -> float:
    """How far from its start (inches) a route can meet an obstacle."""
    return SIM_REACH * max_distance + 2.0 * base.radius + 1.0


def near_obstacles(base: Base, start: XY, obstacles: Sequence[Obstacle],
                   max_distance: float) -> list[Obstacle]:
    """The obstacles a route from ``start`` can meet."""
    reach = sim_reach(base, max_distance)
    return [ob for ob in obstacles
            if math.hypot(ob.x - start[0], ob.y - start[1]) <= reach + ob.base.radius]


def contact_spot(arena: Arena, base: Base, facing_deg: float, start: XY, target: Obstacle,
                 obstacles: Sequence[Obstacle], max_distance: float) -> XY | None:
    """The free spot in base contact with ``target`` nearest to ``start`` (as the crow flies).

    The ring of centres touching the target (``SPOT_COUNT`` points, ``margin``
    off its edge) is the Minkowski sum of the two footprints; a spot is free
    when the base standing there overlaps no other base or impassable terrain
    and stays on the table.  None when no spot is free.
    """
    gap = base.radius + target.base.radius + arena.margin
    if base.is_round and target.base.is_round:
        t = np.linspace(0.0, 2.0 * math.pi, SPOT_COUNT, endpoint=False)
        pts = np.column_stack([target.x + gap * np.cos(t), target.y + gap * np.sin(t)])
    else:
        a = (outline(target.base, target.facing_deg) if not target.base.is_round
             else np.array(base_polygon(target.base, 0, 0, 0).exterior.coords)) \
            + np.array([target.x, target.y])
        b = -(outline(base, facing_deg) if not base.is_round
              else np.array(base_polygon(base, 0, 0, 0).exterior.coords))
        ring = shapely.MultiPoint((a[:, None, :] + b[None, :, :]).reshape(-1, 2)).convex_hull
        ring = ring.buffer(arena.margin, quad_segs=4).exterior
        pts = np.array([ring.interpolate(f, normalized=True).coords[0]
                        for f in np.linspace(0.0, 1.0, SPOT_COUNT, endpoint=False)])
    pts = pts[np.hypot(pts[:, 0] - start[0], pts[:, 1] - start[1])
              <= max_distance + gap + 2.0 * base.radius]
    pts = pts[free_at(arena, base, facing_deg, start, obstacles, pts)] if len(pts) else pts
    if not len(pts):
        return None
    k = int(np.argmin(np.hypot(pts[:, 0] - start[0], pts[:, 1] - start[1])))
    return (float(pts[k, 0]), float(pts[k, 1]))


def free_at(arena: Arena, base: Base, facing_deg: float, start: XY,
            obstacles: Sequence[Obstacle], points: Sequence[XY]) -> np.ndarray:
    """For each point: the base standing there is on the table and overlaps no
    obstacle or impassable terrain (beyond a quarter of the tolerance)."""
    xy = np.asarray(points, dtype=float).reshape(-1, 2)
    if not len(xy):
        return np.zeros(0, dtype=bool)
    inset = base.radius if base.is_round else max(base.along, base.across) / 2.0
    on = ((xy[:, 0] >= inset) & (xy[:, 0] <= arena.width - inset)
          & (xy[:, 1] >= inset) & (xy[:, 1] <= arena.depth - inset))
    far = float(np.hypot(xy[:, 0] - start[0], xy[:, 1] - start[1]).max())
    clear = _Clearance(arena, base, facing_deg, start, obstacles, far + 2.0 * base.radius + 1.0)
    return on & clear.clear_at([tuple(p) for p in xy])


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
    reach = sim_reach(base, max_distance)
    near = near_obstacles(base, start, obstacles, max_distance)
    sim = _Sim(arena, base, facing_deg, start, near, reach)
    out: list[Route] = []
    for side in (1, -1):
        raw, reached, turned = sim.steer(start, aim, goal_ids, stop, SIM_REACH * max_distance, side)
        clear = _Clearance(arena, base, facing_deg, start, near, reach)
        tight = pull_tight(raw, clear)
        full = path_length(tight)
        path = cut_path(tight, max_distance) if full > max_distance else tight
        out.append(Route(path, reached and full <= max_distance + 1e-9, tuple(aim), side, clear))
        if out[-1].reached or not turned:
            break
    return out

