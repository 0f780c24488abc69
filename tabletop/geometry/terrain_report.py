"""Terrain for the organiser: the gaps between pieces, and how far a measured
table deviates from the published layout.

Inches, bottom-left origin, y up.  A *gap* is the shortest edge-to-edge
distance between two terrain pieces, or between a piece and a table edge
(where models must pass).  *Deviation* compares each piece with the piece of
the same id in a reference map: the Hausdorff distance between the outlines
(the furthest any part of the outline strays), the shift of the centre and
the turn of the longest side.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from shapely.geometry import LineString, Polygon

from tabletop.board.state import Battlefield

GAP_REPORT_RANGE = 6.0
"""Named default: gaps wider than this (inches) are open ground and not listed."""

DEVIATION_TOLERANCE = 0.5
"""Named default: a piece within this (inches, Hausdorff) of the published layout is in place."""


@dataclass(frozen=True)
class Gap:
    a: str
    b: str            # a terrain id, or "left edge" / "bottom edge" / "right edge" / "top edge"
    width: float      # inches, edge to edge


@dataclass(frozen=True)
class Deviation:
    id: str
    hausdorff: float          # inches: the furthest any part of the outline strays
    shift: tuple[float, float]  # inches: centre moved by (dx, dy)
    turn_deg: float           # degrees the longest side turned (-90..90)

    @property
    def shift_length(self) -> float:
        return math.hypot(*self.shift)


def _edges(state: Battlefield) -> list[tuple[str, LineString]]:
    w, d = state.table.width, state.table.depth
    return [("left edge", LineString([(0, 0), (0, d)])), ("bottom edge", LineString([(0, 0), (w, 0)])),
            ("right edge", LineString([(w, 0), (w, d)])), ("top edge", LineString([(0, d), (w, d)]))]


def terrain_gaps(state: Battlefield, within: float = GAP_REPORT_RANGE) -> list[Gap]:
    """Gaps narrower than ``within`` between terrain pieces and to the table edges,
    narrowest first (pieces that touch or overlap are not gaps and are left out)."""
    pieces = [(t.id, Polygon(t.polygon)) for t in state.terrain if Polygon(t.polygon).is_valid]
    out: list[Gap] = []
    for i, (a, pa) in enumerate(pieces):
        for b, pb in pieces[i + 1:]:
            g = pa.distance(pb)
            if 0 < g <= within:
                out.append(Gap(a, b, g))
        for name, edge in _edges(state):
            g = pa.distance(edge)
            if 0 < g <= within:
                out.append(Gap(a, name, g))
    return sorted(out, key=lambda g: (g.width, g.a, g.b))


def widest_base(state: Battlefield) -> tuple[str | None, float]:
    """The model whose base is widest (its longest extent, inches)."""
    best, size = None, 0.0
    for m in state.models():
        s = max(m.base.along, m.base.across)
        if s > size:
            best, size = m.id, s
    return best, size


def _long_side_angle(poly: Polygon) -> float:
    rect = poly.minimum_rotated_rectangle
    xs, ys = rect.exterior.coords.xy
    sides = [((xs[k + 1] - xs[k]), (ys[k + 1] - ys[k])) for k in range(4)]
    dx, dy = max(sides, key=lambda v: math.hypot(*v))
    return math.degrees(math.atan2(dy, dx))


def _turn(a: float, b: float) -> float:
    t = (b - a + 90.0) % 180.0 - 90.0
    return t


def layout_deviation(state: Battlefield, reference: Battlefield) -> tuple[list[Deviation], list[str], list[str]]:
    """Compare ``state``'s terrain with ``reference``'s, piece by piece (matched by id).

    Returns
    -------
    (deviations, missing, extra)
        ``deviations`` for every piece in both, largest first; ``missing``
        reference ids not on the measured table; ``extra`` ids only on it.
    """
    ref = {t.id: Polygon(t.polygon) for t in reference.terrain}
    got = {t.id: Polygon(t.polygon) for t in state.terrain}
    out = []
    for tid in sorted(set(ref) & set(got)):
        a, b = ref[tid], got[tid]
        ca, cb = a.centroid, b.centroid
        out.append(Deviation(tid, a.hausdorff_distance(b), (cb.x - ca.x, cb.y - ca.y),
                             _turn(_long_side_angle(a), _long_side_angle(b))))
    out.sort(key=lambda d: -d.hausdorff)
    return out, sorted(set(ref) - set(got)), sorted(set(got) - set(ref))
