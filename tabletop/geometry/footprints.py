"""Base footprints and exact edge-to-edge distances.

Coordinates are inches, origin bottom-left, y up; facing degrees
counter-clockwise from +x.  Every base has a *core* and a *pad*: a round
base is its centre point padded by its radius, anything else is its polygon
with no pad.  The edge-to-edge gap is ``distance(core_a, core_b) - pad_a -
pad_b``: exact for round-to-round (analytic: centre distance minus radii),
exact for round-to-rectangle and rectangle-to-rectangle, and within 0.0002"
for ovals (a 256-segment polygon inscribed in the ellipse).
"""

from __future__ import annotations

import math

import numpy as np
import shapely
from shapely import affinity
from shapely.geometry import Point, Polygon, box

from tabletop.board.bases import Base

OVAL_SEGMENTS = 256          # error r(1 - cos(pi/256)) < 0.0002" for a 170mm oval
CIRCLE_QUAD_SEGS = 32        # circles drawn/intersected as 128-gons; distances stay analytic


def base_polygon(base: Base, x: float, y: float, facing_deg: float) -> Polygon:
    """The footprint of ``base`` centred on (x, y) facing ``facing_deg``.

    Round bases are 128-gons (use ``core``/``pad`` for exact distances), ovals
    256-gons with the long axis along the facing, rectangles exact with the
    depth along the facing and the frontage across it.
    """
    if base.shape == "round":
        return Point(x, y).buffer(base.radius, quad_segs=CIRCLE_QUAD_SEGS)
    if base.shape == "oval":
        a, b = base.along / 2.0, base.across / 2.0
        t = np.linspace(0.0, 2.0 * math.pi, OVAL_SEGMENTS, endpoint=False)
        poly = Polygon(np.column_stack([a * np.cos(t), b * np.sin(t)]))
    else:
        a, b = base.along / 2.0, base.across / 2.0
        poly = box(-a, -b, a, b)
    poly = affinity.rotate(poly, facing_deg, origin=(0, 0))
    return affinity.translate(poly, x, y)


def reach_polygon(base: Base, x: float, y: float, facing_deg: float, distance: float) -> Polygon:
    """Where the edge of ``base`` at (x, y) can reach by moving ``distance`` inches.

    The footprint grown by ``distance`` (a circle of radius ``radius +
    distance`` for a round base): the dashed reach outline a teaching frame
    draws around a model's start position (fight-phase.txt 12.03: a pile-in
    moves up to 3").  Raises nothing; ``distance`` <= 0 gives the footprint.
    """
    if base.shape == "round":
        return Point(x, y).buffer(base.radius + max(0.0, distance), quad_segs=CIRCLE_QUAD_SEGS)
    poly = base_polygon(base, x, y, facing_deg)
    return poly.buffer(distance, quad_segs=16) if distance > 0 else poly


def core_and_pad(base: Base, x: float, y: float, facing_deg: float):
    """(core geometry, pad in inches) for exact edge-to-edge distances."""
    if base.shape == "round":
        return Point(x, y), base.radius
    return base_polygon(base, x, y, facing_deg), 0.0


FOOTPRINT_CACHE_SIZE = 20_000   # footprints kept between snapshots (cleared when full)
_FOOTPRINTS: dict[tuple, tuple] = {}


def footprint_arrays(models) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(cores, pads, shapes)`` for many models at once, parallel to ``models``.

    The same geometries as ``core_and_pad`` and ``base_polygon`` model by model
    (round bases: centre points, radii in inches, 128-gons), built with one
    vectorised ``shapely.points``/``shapely.buffer`` call for all round bases.
    Footprints are immutable and depend only on (base, x, y, facing), so they
    are kept between snapshots (a fight rebuilds the snapshot after every
    wound with most bases unmoved; ``FOOTPRINT_CACHE_SIZE``).
    """
    keys = [(m.base, m.x, m.y, m.facing_deg) for m in models]
    # read into a local dict first: the window and a --play resolver thread may both build
    # snapshots, and one may clear the shared cache while the other reads it
    found: dict[tuple, tuple] = {}
    for key in keys:
        hit = _FOOTPRINTS.get(key)
        if hit is not None:
            found[key] = hit
    missing = [k for k, key in enumerate(keys) if key not in found]
    if missing:
        if len(_FOOTPRINTS) + len(missing) > FOOTPRINT_CACHE_SIZE:
            _FOOTPRINTS.clear()
        c, p, s = _build_footprints([models[k] for k in missing])
        for j, k in enumerate(missing):
            found[keys[k]] = _FOOTPRINTS[keys[k]] = (c[j], p[j], s[j])
    n = len(models)
    cores = np.empty(n, dtype=object)
    shapes = np.empty(n, dtype=object)
    pads = np.zeros(n, dtype=float)
    for k, key in enumerate(keys):
        cores[k], pads[k], shapes[k] = found[key]
    return cores, pads, shapes


def _build_footprints(models) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``footprint_arrays`` without the cache."""
    n = len(models)
    cores = np.empty(n, dtype=object)
    shapes = np.empty(n, dtype=object)
    pads = np.zeros(n, dtype=float)
    round_idx = [k for k, m in enumerate(models) if m.base.shape == "round"]
    if round_idx:
        points = shapely.points(np.array([[models[k].x, models[k].y] for k in round_idx]))
        radii = np.array([models[k].base.radius for k in round_idx])
        cores[round_idx] = points
        pads[round_idx] = radii
        shapes[round_idx] = shapely.buffer(points, radii, quad_segs=CIRCLE_QUAD_SEGS)
    for k, m in enumerate(models):
        if m.base.shape != "round":
            cores[k] = shapes[k] = base_polygon(m.base, m.x, m.y, m.facing_deg)
    return cores, pads, shapes


def signed_gap(core_a, pad_a: float, core_b, pad_b: float) -> float:
    """Edge-to-edge gap in inches; negative when two round bases (or a round
    base and a polygon) intersect, zero when two polygons touch or intersect."""
    return float(shapely.distance(core_a, core_b)) - pad_a - pad_b


def gaps(cores_a, pads_a, cores_b, pads_b) -> np.ndarray:
    """Vectorised ``signed_gap`` over parallel arrays (shape (n,))."""
    return shapely.distance(cores_a, cores_b) - np.asarray(pads_a) - np.asarray(pads_b)


def shrunk(geom, amount: float):
    """``geom`` shrunk by ``amount`` inches (for the overlap test of polygons)."""
    return geom.buffer(-amount, quad_segs=8) if amount > 0 else geom
