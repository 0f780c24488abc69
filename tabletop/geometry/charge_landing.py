"""Where a charging unit's models would end (the plan's preview landing).

Two ways, one per kind of unit:

- ``land_models`` (fight-phase, loose models): each model, the closest first,
  moves along its shortest charge path (``charge_paths``) at most ``budget``
  inches; it takes the nearest free spot in base contact with a target model
  it can reach within the budget, else the point where its path enters
  engagement range, else as far along its path as the budget goes.  A spot is
  free when its base overlaps no base left standing, no model already placed
  and no blocking terrain by more than the tolerance.
- ``land_block`` (rank-and-flank): the charger moves as one block and ends
  with its front edge flush against the ``side`` of the target, facing it (it
  wheels to align, "closing the door"), its front centre opposite the point
  of that side nearest its own front centre.

Inches, origin bottom-left, y up; facing degrees counter-clockwise from +x.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import shapely
from shapely.geometry import Point, Polygon

from tabletop.geometry.charge_paths import ChargeArena, Goal, goals_for
from tabletop.geometry.footprints import base_polygon

__all__ = ["RING_SPOTS", "land_models", "land_block", "point_along"]

XY = tuple[float, float]

#: spots tried round each target model, in base contact (evenly spaced)
RING_SPOTS = 36
#: step (inches) back along a path while looking for a free spot
STEP_BACK = 0.1


def point_along(points: Sequence[XY], length: float) -> XY:
    """The point ``length`` inches along the polyline ``points`` (its end if shorter)."""
    left = max(0.0, length)
    for a, b in zip(points, points[1:]):
        seg = math.hypot(b[0] - a[0], b[1] - a[1])
        if seg >= left and seg > 0:
            k = left / seg
            return (a[0] + (b[0] - a[0]) * k, a[1] + (b[1] - a[1]) * k)
        left -= seg
    return points[-1]


class _Room:
    """Bases and terrain a landing base may not overlap (by more than ``tol``)."""

    def __init__(self, shapes: list[Polygon], tol: float):
        self.shapes = list(shapes)
        self.tol = tol
        self._tree = shapely.STRtree(self.shapes) if self.shapes else None

    def add(self, shape: Polygon) -> None:
        self.shapes.append(shape)
        self._tree = shapely.STRtree(self.shapes)

    def free(self, shape: Polygon) -> bool:
        if self._tree is None:
            return True
        core = shape.buffer(-self.tol)
        return not any(core.intersects(self.shapes[int(i)]) for i in self._tree.query(core))


def land_models(state, unit_id: str, targets: Sequence[str], budget: float, reach: float,
                arena_of: Callable[[object], ChargeArena], terrain: Sequence[Sequence[XY]],
                tol: float) -> tuple[dict[str, XY], dict[str, tuple[XY, ...]]]:
    """Landing spots of ``unit_id``'s models charging ``targets`` with ``budget`` inches.

    ``reach`` is the engagement range (inches, edge to edge); ``arena_of(model)`` gives the
    model's ``ChargeArena``; ``terrain`` the polygons that block it (for the free test).
    Returns ``({model id: (x, y)}, {model id: path points})``; a model that finds no free
    spot stays where it is.
    """
    unit = state.unit(unit_id)
    target_models = [m for t in targets for m in state.unit(t).models]
    fixed = [base_polygon(m.base, m.x, m.y, m.facing_deg) for u in state.units
             if u.id != unit_id for m in u.models]
    room = _Room(fixed + [Polygon(p) for p in terrain], tol)
    order = []
    for m in unit.models:
        arena = arena_of(m)
        path = arena.shortest(m.at, goals_for(m, target_models, reach), tol=tol)
        order.append((path.length, m.id, m, arena, path))
    order.sort(key=lambda o: (o[0], o[1]))
    spots: dict[str, XY] = {}
    paths: dict[str, tuple[XY, ...]] = {}
    for length, mid, m, arena, path in order:
        got = None
        if path.found and length <= budget + tol:
            got = _contact_spot(m, target_models, arena, budget, room, tol)
            if got is None:
                got = _back_along(m, path.points, length, room)
        elif path.found:
            got = _back_along(m, path.points, budget, room)
        if got is None:
            got = (m.at, (m.at,))
        spots[mid], paths[mid] = got
        room.add(base_polygon(m.base, got[0][0], got[0][1], m.facing_deg))
    return spots, paths


def _contact_spot(m, target_models, arena: ChargeArena, budget: float, room: _Room, tol: float):
    r = m.base.radius
    cands = []
    for t in target_models:
        if m.base.is_round and t.base.is_round:
            rad = r + t.base.radius + tol / 2.0
            for k in range(RING_SPOTS):
                a = 2.0 * math.pi * k / RING_SPOTS
                p = (t.x + rad * math.cos(a), t.y + rad * math.sin(a))
                cands.append((math.hypot(p[0] - m.x, p[1] - m.y), p))
        else:
            ring = base_polygon(t.base, t.x, t.y, t.facing_deg).buffer(r + tol / 2.0).exterior
            for k in range(RING_SPOTS):
                q = ring.interpolate(k / RING_SPOTS, normalized=True)
                cands.append((math.hypot(q.x - m.x, q.y - m.y), (q.x, q.y)))
    cands.sort()
    free = [(d, p) for d, p in cands if d <= budget + tol
            and room.free(base_polygon(m.base, p[0], p[1], m.facing_deg))]
    if not free:
        return None
    import numpy as np
    lengths = arena.distances_from([m.at], np.asarray([p for _, p in free]), budget + tol)
    for (d, p), length in zip(free, lengths):
        if length <= budget + tol:
            path = arena.shortest(m.at, [Goal("spot", disc=(p[0], p[1], 0.0))], tol=1e-9)
            return p, path.points
    return None


def _back_along(m, points: Sequence[XY], length: float, room: _Room):
    s = length
    while s >= 0.0:
        p = point_along(points, s)
        if room.free(base_polygon(m.base, p[0], p[1], m.facing_deg)):
            return p, _cut(points, s)
        s -= STEP_BACK
    return None


def _cut(points: Sequence[XY], length: float) -> tuple[XY, ...]:
    out = [points[0]]
    left = length
    for a, b in zip(points, points[1:]):
        seg = math.hypot(b[0] - a[0], b[1] - a[1])
        if seg >= left:
            out.append(point_along([a, b], left))
            return tuple(out)
        out.append(b)
        left -= seg
    return tuple(out)


def land_block(geo, charger: str, target: str, side: str, tol: float) -> tuple[dict[str, XY], float]:
    """Rank-and-flank landing: ``charger``'s models moved as one block flush against ``side``
    of ``target`` (front edge on that edge, ``tol / 2`` off it, facing in).

    Returns ``({model id: (x, y)}, new facing in degrees)``.
    """
    fc = geo.formation(charger)
    ft = geo.formation(target)
    (ax, ay), (bx, by) = ft.edges()[side]
    nx, ny = ft.outward(side)
    fx, fy = fc.front_centre
    ex, ey = bx - ax, by - ay
    span = math.hypot(ex, ey)
    ux, uy = ex / span, ey / span
    half = fc.width / 2.0
    along = (fx - ax) * ux + (fy - ay) * uy
    lo, hi = min(half, span / 2.0), max(span - half, span / 2.0)
    along = min(max(along, lo), hi)
    sx, sy = ax + ux * along + nx * tol / 2.0, ay + uy * along + ny * tol / 2.0
    facing = math.degrees(math.atan2(-ny, -nx)) % 360.0
    fwd = (-nx, -ny)
    right = (fwd[1], -fwd[0])
    mid_b = (fc.left + fc.right_b) / 2.0
    out: dict[str, XY] = {}
    for mid in fc.models():
        m = geo.model(mid)
        a, b = fc.to_local(m.x, m.y)
        da, db = a - fc.front, b - mid_b
        out[mid] = (sx + da * fwd[0] + db * right[0], sy + da * fwd[1] + db * right[1])
    return out, facing


def free_of(shapes: Sequence[Polygon], p: XY) -> bool:
    """Whether point ``p`` lies outside every shape (helper for tests)."""
    return not any(s.contains(Point(p)) for s in shapes)
