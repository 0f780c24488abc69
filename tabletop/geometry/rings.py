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

from collections.abc import Iterable
from functools import lru_cache

from shapely.geometry import MultiPolygon, Polygon
from shapely.ops import unary_union

from tabletop.board.bases import Base
from tabletop.board.state import Model
from tabletop.geometry.footprints import reach_polygon

__all__ = ["RING_CACHE_SIZE", "grown_base", "grown_models", "ring_outlines"]

RING_CACHE_SIZE = 4096      # grown outlines (one model at one distance) kept


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
        Every point within ``distance`` of the base's edge (round: a 128-gon of
        radius ``radius + distance``; oval and rectangle: the shape's buffer).
    """
    return reach_polygon(base, x, y, facing_deg, distance)


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
