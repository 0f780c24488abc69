"""Polylines and swept footprints for moves (fight-phase.txt 12.03, 12.08).

A move's path is a polyline of base centres in inches (origin bottom-left,
y up).  A base keeps its facing while it moves, so the area it sweeps along
one straight segment is the convex hull of its footprint at the two ends
(footprints are convex); a round base's sweep is the segment padded by its
radius, which keeps the edge-to-edge gaps exact (``footprints.py``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry import LineString, Point
from shapely.ops import unary_union

from tabletop.board.bases import Base
from tabletop.geometry.footprints import base_polygon, shrunk

XY = tuple[float, float]
#: points (inches) given either as (x, y) pairs or as an (n, 2) numpy array
Points = Sequence[XY] | npt.NDArray[Any]


def xy_of(p: Sequence[float] | npt.NDArray[Any]) -> XY:
    """The point ``p`` (an (x, y) pair, a pymunk ``Vec2d`` or a length-2 array, inches)
    as a plain ``(x, y)`` tuple; the same as ``tuple(p)``, typed as a pair."""
    return (p[0], p[1])

#: distances that decide an order or a choice are rounded to this many decimals
#: (inches) first, and ties go to the first in a fixed order (unit order, id): a
#: difference in the last bits of a float, which depends on where on the table a
#: fight stands, never decides (moves are translation-invariant)
TIE_DECIMALS = 6


def tie(v) -> float:
    """``v`` (inches) rounded for comparing (``TIE_DECIMALS``)."""
    return round(float(v), TIE_DECIMALS)


def ties(a) -> np.ndarray:
    """An array of inches rounded for comparing (``TIE_DECIMALS``)."""
    return np.asarray(a, dtype=float).round(TIE_DECIMALS)   # np.round's call, without its wrapper


def path_length(path: Sequence[XY]) -> float:
    """Sum of the segment lengths of a polyline, inches."""
    return float(sum(math.dist(path[k], path[k + 1]) for k in range(len(path) - 1)))


def cut_path(path: Sequence[XY], limit: float) -> list[XY]:
    """The prefix of ``path`` that is ``limit`` inches long (the whole path when shorter)."""
    out = [xy_of(path[0])]
    left = limit
    for k in range(len(path) - 1):
        a, b = path[k], path[k + 1]
        seg = math.dist(a, b)
        if seg <= left:
            out.append(xy_of(b))
            left -= seg
            continue
        t = left / seg if seg > 0 else 0.0
        out.append((a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t))
        break
    return out


def samples(path: Sequence[XY], step: float) -> list[tuple[float, XY, int]]:
    """Points along ``path`` every ``step`` inches and at every vertex.

    Returns ``[(arc length, point, index of the segment it lies on), ...]`` in
    order, starting with the first vertex and ending with the last.
    """
    out: list[tuple[float, XY, int]] = [(0.0, xy_of(path[0]), 0)]
    s = 0.0
    for k in range(len(path) - 1):
        a, b = path[k], path[k + 1]
        seg = math.dist(a, b)
        n = max(1, math.ceil(tie(seg / step)))     # a float hair over a whole step is not a step more
        for i in range(1, n + 1):
            t = i / n
            out.append((s + seg * t, (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t), k))
        s += seg
    return out


def prefix_to(path: Sequence[XY], k: int, point: XY) -> list[XY]:
    """The path up to ``point``, which lies on segment ``k``."""
    out = [xy_of(p) for p in path[:k + 1]]
    if math.dist(out[-1], point) > 1e-12:
        out.append(xy_of(point))
    return out


#: moves measure non-round bases on their outline simplified to within this
#: (inches; the snapshot's exact outlines judge the end positions)
OUTLINE_SIMPLIFY = 0.001


@lru_cache(maxsize=256)
def outline(base: Base, facing_deg: float) -> np.ndarray:
    """Vertices (k, 2) of a non-round base's outline centred on the origin,
    simplified to within ``OUTLINE_SIMPLIFY`` (closed: the first vertex repeated)."""
    poly = base_polygon(base, 0.0, 0.0, facing_deg).simplify(OUTLINE_SIMPLIFY)
    return np.asarray(poly.exterior.coords, dtype=float)


def sweep_core(base: Base, facing_deg: float, path: Sequence[XY]):
    """(core, pad) of the area a base sweeps along ``path``.

    Round: the polyline (a point when it does not move) padded by the radius.
    Other shapes: the union of the hulls of the footprint at the ends of each
    segment, pad 0.
    """
    pts = [xy_of(p) for p in path]
    if base.is_round:
        if len(pts) < 2 or path_length(pts) == 0.0:
            return Point(pts[0]), base.radius
        return LineString(pts), base.radius
    ring = outline(base, facing_deg)[:-1]
    if len(pts) == 1:
        return shapely.polygons(ring + np.asarray(pts[0])), 0.0
    hulls = [shapely.multipoints(np.vstack([ring + np.asarray(pts[k]), ring + np.asarray(pts[k + 1])]))
             .convex_hull for k in range(len(pts) - 1)]
    return (hulls[0] if len(hulls) == 1 else unary_union(hulls)), 0.0


def cores_at(base: Base, facing_deg: float, points: Points):
    """(array of cores, pad) of the base placed at each of ``points``."""
    xy = np.asarray(points, dtype=float).reshape(-1, 2)
    if base.is_round:
        return shapely.points(xy), base.radius
    ring = outline(base, facing_deg)
    return shapely.polygons(ring[None, :, :] + xy[:, None, :]), 0.0


def core_of(base: Base, facing_deg: float, at: XY):
    """(core, pad) of one base at ``at``."""
    if base.is_round:
        return Point(at), base.radius
    return shapely.polygons(outline(base, facing_deg) + np.asarray(at, dtype=float)), 0.0


def overlap_gap(core_a, pad_a: float, core_b, pad_b: float, tol: float) -> float:
    """Signed edge-to-edge gap, inches, made honest for two polygons.

    Two polygons that intersect read a distance of 0; they count as
    overlapping (gap ``-2 * tol`` is returned) when they still intersect once
    each is shrunk by ``tol / 2``, the test the snapshot uses.
    """
    g = float(shapely.distance(core_a, core_b)) - pad_a - pad_b
    if (g <= 0.0 and pad_a == 0.0 and pad_b == 0.0
            and shrunk(core_a, tol / 2.0).intersects(shrunk(core_b, tol / 2.0))):
        return -2.0 * tol
    return g


def gap_matrix(cores_a, pads_a, cores_b, pads_b, tol: float) -> np.ndarray:
    """``overlap_gap`` for every pair: shape (len a, len b), inches."""
    ca = np.asarray(cores_a, dtype=object)
    cb = np.asarray(cores_b, dtype=object)
    pa = np.asarray(pads_a, dtype=float)
    pb = np.asarray(pads_b, dtype=float)
    g = shapely.distance(ca[:, None], cb[None, :]) - pa[:, None] - pb[None, :]
    for i, j in zip(*np.nonzero((g <= 0.0) & (pa[:, None] == 0.0) & (pb[None, :] == 0.0))):
        g[i, j] = overlap_gap(ca[i], 0.0, cb[j], 0.0, tol)
    return g
