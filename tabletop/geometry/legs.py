"""Straight legs: whether a base can slide straight from one point to another.

A pile-in or consolidation route (fight-phase.txt 12.03, 12.08) is most often
a straight line: the way to the aim is clear.  ``leg_clear`` answers that
before any steering (``paths.find_routes``), without pymunk:

- a round base against a round obstacle is a swept circle against a circle:
  the leg is clear of it when the distance from the obstacle's centre to the
  segment is at least the two radii less the allowed graze (numpy, over every
  obstacle at once);
- any other pair (ovals, rectangles, impassable terrain) is measured with
  Shapely on the swept footprint (``sweeps.sweep_core``), but only for the
  obstacles whose bounding circle comes within reach of the segment (a numpy
  prefilter: an obstacle whose bounding circle clears the mover's bounding
  circle all along the leg cannot touch it).

The allowed graze is the one every route is judged by (``paths._Clearance``):
a quarter of the tolerance, and no deeper than the base already stands into
that obstacle at its start.  Inches, origin bottom-left, y up.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import shapely

from tabletop.board.bases import Base
from tabletop.geometry.sweeps import XY, core_of, sweep_core

#: the graze a leg may make into an obstacle, as a fraction of the tolerance (the
#: same allowance as a steered route's clearance, ``paths._Clearance``)
GRAZE_FRACTION = 0.25


def bound_radius(base: Base) -> float:
    """Radius (inches) of a circle round the base's centre that holds the whole base."""
    if base.is_round:
        return base.radius
    return math.hypot(base.along, base.across) / 2.0


def segment_distances(a: XY, b: XY, centres: np.ndarray) -> np.ndarray:
    """Distance (inches) from each of ``centres`` (k, 2) to the segment ``a`` -> ``b``
    (to ``a`` when the segment has no length)."""
    c = np.asarray(centres, dtype=float).reshape(-1, 2)
    ax, ay = float(a[0]), float(a[1])
    dx, dy = float(b[0]) - ax, float(b[1]) - ay
    ll = dx * dx + dy * dy
    px, py = c[:, 0] - ax, c[:, 1] - ay
    # clipped to [0, 1] (np.clip's numbers, but for the sign of a zero: the same distances)
    t = np.minimum(np.maximum((px * dx + py * dy) / ll, 0.0), 1.0) if ll > 0 else np.zeros(len(c))
    return np.hypot(px - t * dx, py - t * dy)


def round_leg_gaps(a: XY, b: XY, radius: float, circles: np.ndarray) -> np.ndarray:
    """Edge-to-edge gap (inches, negative: overlap) between a round base of
    ``radius`` swept along ``a`` -> ``b`` and each circle of ``circles``
    (k, 3: x, y, radius): the centre's distance to the segment less both radii."""
    c = np.asarray(circles, dtype=float).reshape(-1, 3)
    return segment_distances(a, b, c[:, :2]) - radius - c[:, 2]


def obstacle_info(obstacles: Sequence) -> np.ndarray:
    """Rows (k, 4) of ``leg_clear``'s obstacles: centre x, y (inches), bounding
    radius (inches), 1.0 for a round base else 0.0."""
    # a round obstacle's bounding radius is its radius (``Obstacle.r``, read once)
    return np.array([(ob.x, ob.y, ob.r, True) if ob.is_round else
                     (ob.x, ob.y, bound_radius(ob.base), False)
                     for ob in obstacles], dtype=float).reshape(-1, 4)


def leg_clear(base: Base, facing_deg: float, start: XY, end: XY,
              obstacles: Sequence, terrain: Sequence, tol: float,
              info: np.ndarray | None = None) -> bool:
    """Whether the base slides straight from ``start`` to ``end`` clear of every
    obstacle and terrain polygon.

    Parameters
    ----------
    base, facing_deg : the moving base (it keeps its facing).
    start, end : centres, inches.
    obstacles : other bases standing still (``paths.Obstacle``: id, base, x, y,
        facing_deg, and its radius ``r`` and ``is_round`` read once).
    terrain : impassable terrain as Shapely polygons.
    tol : the contact tolerance (inches); a leg may graze an obstacle by
        ``GRAZE_FRACTION`` of it, and by as much as the base already overlaps
        that obstacle at ``start``.

    info : ``obstacle_info(obstacles)`` when the caller has it already (a
        mover asks about several legs among the same obstacles).

    The table edge is not looked at (the caller checks the end lies on the
    table, which is convex).
    """
    graze = GRAZE_FRACTION * tol
    if obstacles:
        if info is None:
            info = obstacle_info(obstacles)
        mine = bound_radius(base)
        near = segment_distances(start, end, info[:, :2]) - mine - info[:, 2] < 0.0
        if near.any():
            idx = near.nonzero()[0]
            round_ = info[idx, 3] > 0.5 if base.is_round else np.zeros(len(idx), dtype=bool)
            if round_.any():
                c = info[idx[round_], :3]
                g0 = np.hypot(c[:, 0] - start[0], c[:, 1] - start[1]) - base.radius - c[:, 2]
                g = round_leg_gaps(start, end, base.radius, c)
                if (g < np.minimum(0.0, g0) - graze).any():
                    return False
            others = [obstacles[k] for k in idx[~round_].tolist()]
            if others and not _shapely_clear(base, facing_deg, start, end,
                                             [core_of(ob.base, ob.facing_deg, (ob.x, ob.y))
                                              for ob in others], graze):
                return False
    if terrain:
        mine = bound_radius(base)
        seg = shapely.LineString([start, end]) if start != end else shapely.Point(start)
        polys = [p for p in terrain if shapely.distance(seg, p) < mine]
        if polys and not _shapely_clear(base, facing_deg, start, end,
                                        [(p, 0.0) for p in polys], graze):
            return False
    return True


def _shapely_clear(base: Base, facing_deg: float, start: XY, end: XY,
                   cores: list, graze: float) -> bool:
    """The swept footprint against each (core, pad), measured with Shapely."""
    core_s, pad_s = core_of(base, facing_deg, start)
    sweep, pad = sweep_core(base, facing_deg, [start, end])
    oc = np.array([c for c, _ in cores], dtype=object)
    op = np.array([p for _, p in cores], dtype=float)
    g0 = shapely.distance(core_s, oc) - pad_s - op
    g = shapely.distance(sweep, oc) - pad - op
    return bool((g >= np.minimum(0.0, g0) - graze).all())
