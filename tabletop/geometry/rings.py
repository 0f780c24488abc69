"""Range rings: a base's outline grown by a distance (the window's ``g`` rings).

Coordinates are inches, origin bottom-left, y up; facing degrees
counter-clockwise from +x.  A ring at distance ``d`` is every point within
``d`` inches of the base's edge: the footprint buffered by ``d``.  For a
round base that is a circle of radius ``r + d``; for an oval or a rectangle
it is the oval or rectangle grown on every side (rounded at the corners),
not a circle round the centre, so a measurement edge to edge from the base
reads true whatever its shape.  A unit's ring is the union of its models'.

Grown outlines are kept by (base, position, facing, distance)
(``RING_CACHE_SIZE``): the window asks for the same ring every frame.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import lru_cache

import numpy as np
from shapely import affinity
from shapely.geometry import MultiPolygon, Point, Polygon
from shapely.ops import unary_union

from tabletop.board.bases import Base
from tabletop.board.state import Model
from tabletop.geometry.footprints import base_polygon

__all__ = ["RING_CACHE_SIZE", "RING_TOLERANCE_IN", "quad_segs", "grown_base", "grown_models", "ring_outlines"]

RING_CACHE_SIZE = 4096      # grown outlines (one model at one distance) kept
RING_TOLERANCE_IN = 0.001   # the drawn curve is within this of the true one (DESIGN: under 0.001")


def quad_segs(radius: float) -> int:
    """Segments per quarter circle so that a ``radius``-inch arc drawn as chords stays within
    ``RING_TOLERANCE_IN`` of the arc: a chord of angle t misses it by r(1 - cos(t/2)),
    about r t^2 / 8."""
    if radius <= 0:
        return 1
    step = math.sqrt(8.0 * RING_TOLERANCE_IN / radius)
    return max(8, math.ceil((math.pi / 2) / step))


@lru_cache(maxsize=RING_CACHE_SIZE)
def grown_base(base: Base, x: float, y: float, facing_deg: float, distance: float) -> Polygon:
    """The footprint of ``base`` at (x, y) facing ``facing_deg`` grown by ``distance``.

    Parameters
    ----------
    base : Base
    x, y : float
        Centre, inches.
    facing_deg : float
        Degrees counter-clockwise from +x (an oval's long axis, a rectangle's depth).
    distance : float
        Inches; 0 (or less) gives the footprint itself.

    Returns
    -------
    shapely Polygon
        Every point within ``distance`` of the base's edge (round: a circle of radius
        ``radius + distance``; oval and rectangle: the shape's buffer), its arcs
        within ``RING_TOLERANCE_IN`` of true.
    """
    d = max(0.0, distance)
    if base.shape == "round":
        r = base.radius + d
        return Point(x, y).buffer(r, quad_segs=quad_segs(r))
    if base.shape == "oval" and d > 0:
        return _grown_oval(base.along / 2.0, base.across / 2.0, x, y, facing_deg, d)
    poly = base_polygon(base, x, y, facing_deg)
    return poly.buffer(d, quad_segs=quad_segs(d)) if d > 0 else poly


def _grown_oval(a: float, b: float, x: float, y: float, facing_deg: float, d: float) -> Polygon:
    """The ellipse with half-axes ``a`` (along the facing) and ``b`` grown by ``d``, exactly:
    the point of the ellipse whose outward normal points at angle psi, (a^2 cos psi,
    b^2 sin psi) / sqrt(a^2 cos^2 psi + b^2 sin^2 psi), moved ``d`` along that normal,
    for psi in even steps (a buffer of the 256-gon would cut each of its corners by
    d (1 - cos(half its turn)): 0.003" at 12" round a 90x52mm oval)."""
    q = quad_segs(max(a * a / b, b * b / a) + d)     # the sharpest bend: the ellipse's largest radius of curvature
    psi = np.linspace(0.0, 2.0 * math.pi, 4 * q, endpoint=False)
    c, s_ = np.cos(psi), np.sin(psi)
    norm = np.sqrt((a * c) ** 2 + (b * s_) ** 2)
    px = a * a * c / norm + d * c
    py = b * b * s_ / norm + d * s_
    poly = Polygon(np.column_stack([px, py]))
    poly = affinity.rotate(poly, facing_deg, origin=(0, 0))
    return affinity.translate(poly, x, y)


@lru_cache(maxsize=RING_CACHE_SIZE)
def _union(keys: tuple[tuple[Base, float, float, float], ...], distance: float):
    return unary_union([grown_base(b, x, y, f, distance) for b, x, y, f in keys])


def grown_models(models: Iterable[Model], distance: float) -> Polygon | MultiPolygon:
    """The union of ``models``' bases each grown by ``distance`` inches (a unit's ring).

    A MultiPolygon when the grown bases do not meet.  Raises ValueError for no models.
    """
    keys = tuple((m.base, float(m.x), float(m.y), float(m.facing_deg)) for m in models)
    if not keys:
        raise ValueError("a ring needs at least one model")
    return _union(keys, float(distance))


def ring_outlines(shape: Polygon | MultiPolygon) -> list[list[tuple[float, float]]]:
    """The closed outlines of a ring as lists of (x, y) inches: each part's exterior
    and any holes (a ring round a unit spread in a circle encloses a hole only when
    its grown bases close round empty table)."""
    parts = list(shape.geoms) if isinstance(shape, MultiPolygon) else [shape]
    out: list[list[tuple[float, float]]] = []
    for p in parts:
        out.append([(float(x), float(y)) for x, y in p.exterior.coords])
        out.extend([(float(x), float(y)) for x, y in r.coords] for r in p.interiors)
    return out
