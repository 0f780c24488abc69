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
from shapely.ops import nearest_points

from tabletop.board.config import LAYOUT_TOLERANCE
from tabletop.board.state import Battlefield

GAP_REPORT_RANGE = 6.0
"""Named default: gaps wider than this (inches) are open ground and not listed."""

DEVIATION_TOLERANCE = LAYOUT_TOLERANCE
"""Named default (``board.config.LAYOUT_TOLERANCE``): a piece within this (inches,
Hausdorff) of the published layout is in place."""

MM_PER_INCH = 25.4

COMMON_BASES: tuple[tuple[str, float, float], ...] = (
    ("25mm", 25, 25), ("32mm", 32, 32), ("40mm", 40, 40), ("50mm", 50, 50), ("60mm", 60, 60),
    ("100mm", 100, 100), ("75x42mm oval", 75, 42), ("90x52mm oval", 90, 52),
    ("105x70mm oval", 105, 70), ("170x109mm oval", 170, 109))
"""Named default: the common bases a gap is tried with (name, long and narrow side in mm),
the round sizes most infantry, characters and monsters stand on and the ovals of bikes,
cavalry and vehicles.  An oval passes a gap when its narrow side fits: it goes through
turned lengthwise, as a player steers a bike between two ruins."""


@dataclass(frozen=True)
class Gap:
    a: str
    b: str            # a terrain id, or "left edge" / "bottom edge" / "right edge" / "top edge"
    width: float      # inches, edge to edge
    # the two nearest points, on a and on b (inches): where the gap is narrowest
    ends: tuple[tuple[float, float], tuple[float, float]] | None = None

    @property
    def bases(self) -> tuple[str, ...]:
        """The ``COMMON_BASES`` that pass this gap (their narrow side fits)."""
        return bases_through(self.width)


def bases_through(width: float) -> tuple[str, ...]:
    """Names of the ``COMMON_BASES`` whose narrow side (mm / 25.4 = inches) is at most
    ``width`` inches: a 2.0" gap passes 50mm (1.97") but not 60mm (2.36")."""
    return tuple(name for name, _, narrow in COMMON_BASES if narrow / MM_PER_INCH <= width + 1e-9)


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
    """Gaps narrower than ``within`` (inches) between terrain pieces and to the table edges,
    narrowest first (pieces that touch or overlap are not gaps and are left out); each
    with its two nearest points (``ends``) and the common bases that pass (``bases``)."""
    pieces = [(t.id, Polygon(t.polygon)) for t in state.terrain if Polygon(t.polygon).is_valid]
    out: list[Gap] = []
    for i, (a, pa) in enumerate(pieces):
        for b, pb in pieces[i + 1:]:
            g = pa.distance(pb)
            if 0 < g <= within:
                out.append(Gap(a, b, g, _ends(pa, pb)))
        for name, edge in _edges(state):
            g = pa.distance(edge)
            if 0 < g <= within:
                out.append(Gap(a, name, g, _ends(pa, edge)))
    return sorted(out, key=lambda g: (g.width, g.a, g.b))


def _ends(a, b) -> tuple[tuple[float, float], tuple[float, float]]:
    pa, pb = nearest_points(a, b)
    return (pa.x, pa.y), (pb.x, pb.y)


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
