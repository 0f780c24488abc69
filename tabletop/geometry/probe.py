"""Point queries for the interactive tools: what is under the cursor, where a ruler
snaps, whether a dragged base may be dropped.

Coordinates are inches, origin bottom-left, y up.  Everything reads a
``Geometry`` snapshot (its STRtree, cores and pads) and uses the same exact
edge-to-edge gaps and the same one tolerance as the snapshot, so the ruler
and the drop test agree with ``tabletop measure`` and ``tabletop check``.
"""

from __future__ import annotations

import math

import shapely
from shapely.geometry import Point
from shapely.ops import nearest_points

from tabletop.board.state import Battlefield
from tabletop.geometry import tolerance as tolmod
from tabletop.geometry.footprints import base_polygon, core_and_pad, shrunk
from tabletop.geometry.snapshot import Geometry, snapshot

XY = tuple[float, float]
End = str | XY          # a model id, or a table point (x, y) in inches


def models_at(geo: Geometry, x: float, y: float, slop: float = 0.0) -> list[str]:
    """Model ids whose base lies within ``slop`` inches of the point (x, y), nearest first.

    A point inside a base has distance 0; ties (stacked bases) go to the
    base whose centre is nearer.  ``slop`` lets a click a few pixels off a
    base's edge still pick it (the caller converts pixels to inches).

    Returns
    -------
    list[str]
        Model ids, possibly empty.
    """
    if not geo.ids:
        return []
    p = Point(x, y)
    hits = geo.tree.query(p, predicate="dwithin", distance=slop + 1e-9)
    scored = []
    for j in hits.tolist():
        gap = max(0.0, float(shapely.distance(geo.cores[j], p)) - geo.pads[j])
        if gap <= slop + 1e-9:
            cx, cy = geo.centres[j]
            scored.append((gap, math.hypot(cx - x, cy - y), geo.ids[j]))
    return [mid for _, _, mid in sorted(scored)]


def _end_parts(geo: Geometry, end: End):
    if isinstance(end, str):
        i = geo.index_of(end)
        return geo.cores[i], float(geo.pads[i]), (float(geo.centres[i][0]), float(geo.centres[i][1]))
    x, y = float(end[0]), float(end[1])
    return Point(x, y), 0.0, (x, y)


def closest_points(geo: Geometry, a: End, b: End) -> tuple[XY, XY, float]:
    """The ruler between two ends: the closest points of their footprints and the length.

    Parameters
    ----------
    geo : Geometry
    a, b : str or (x, y)
        A model id (the ruler snaps to that base's edge) or a table point, inches.

    Returns
    -------
    (pa, pb, length)
        ``pa`` on ``a``'s edge (or the point itself), ``pb`` on ``b``'s, and the
        edge-to-edge length in inches (>= 0).  For two model ids ``length``
        equals ``geo.distance(a, b)`` exactly (round bases analytically).  When
        the ends touch or overlap the two points coincide and the length is 0.

    Raises
    ------
    UnknownIdError
        When a model id names no model.
    """
    ca, pad_a, cen_a = _end_parts(geo, a)
    cb, pad_b, cen_b = _end_parts(geo, b)
    if isinstance(a, str) and isinstance(b, str):
        length = geo.distance(a, b)
    else:
        length = max(0.0, float(shapely.distance(ca, cb)) - pad_a - pad_b)
    qa, qb = nearest_points(ca, cb)
    qa, qb = (qa.x, qa.y), (qb.x, qb.y)
    dx, dy = qb[0] - qa[0], qb[1] - qa[1]
    d = math.hypot(dx, dy)
    if d < 1e-12:
        # cores coincide or intersect: use the centre line for the direction
        dx, dy = cen_b[0] - cen_a[0], cen_b[1] - cen_a[1]
        d = math.hypot(dx, dy)
    ux, uy = (dx / d, dy / d) if d > 1e-12 else (1.0, 0.0)
    pa = (qa[0] + ux * pad_a, qa[1] + uy * pad_a)
    pb = (qb[0] - ux * pad_b, qb[1] - uy * pad_b)
    if length <= 0.0:
        mid = ((pa[0] + pb[0]) / 2.0, (pa[1] + pb[1]) / 2.0)
        pa = pb = mid
    return pa, pb, length


def overlaps_at(state: Battlefield, model_id: str, x: float, y: float,
                geo: Geometry | None = None) -> list[str]:
    """Models the base of ``model_id`` would overlap if its centre stood at (x, y).

    The same test as ``Geometry.overlaps`` (intersecting by more than the
    map's tolerance; polygons shrunk by half of it each), so a drop this
    refuses is one ``tabletop check`` would report.

    Parameters
    ----------
    state : Battlefield
        The state the model is in (its facing and base are kept).
    model_id : str
    x, y : float
        The candidate centre, inches.
    geo : Geometry, optional
        ``snapshot(state)`` when the caller already has it.

    Returns
    -------
    list[str]
        Model ids, sorted; the model itself is never listed.

    Raises
    ------
    KeyError
        When ``model_id`` names no model in ``state``.
    """
    geo = geo if geo is not None else snapshot(state)
    m = state.model(model_id)
    tol = state.rules.tol
    core, pad = core_and_pad(m.base, x, y, m.facing_deg)
    shape = base_polygon(m.base, x, y, m.facing_deg)
    out = []
    for j in geo.tree.query(shape, predicate="dwithin", distance=tol + 1e-6).tolist():
        other = geo.ids[j]
        if other == model_id:
            continue
        g = float(shapely.distance(core, geo.cores[j])) - pad - geo.pads[j]
        if tolmod.overlapping(g, tol) or (
                g <= 0 and pad == 0 and geo.pads[j] == 0
                and shrunk(core, tol / 2.0).intersects(shrunk(geo.cores[j], tol / 2.0))):
            out.append(other)
    return sorted(out)
