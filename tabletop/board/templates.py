"""Terrain templates and reference deployments for the table editor (``tabletop edit``).

Coordinates are inches.  A template is drawn in its own frame: centred on (0, 0), its
``width`` along local x, its ``depth`` along local y (y up, as maps are).  ``placed`` mirrors
it (local x -> -x), turns it counter-clockwise and moves its centre to a table point.

The footprints are the common tournament ones (issue 12): ruins 12x6, 10x5, 8x4 and 6x4,
a 2x6 barricade.  A ruin's walls (its ``tall_part``, as the maps' ``[[terrain]]`` write
them) are an L: a band ``RUIN_WALL_THICKNESS_IN`` thick along the whole of one long side
(local -y) and the whole of one short side (local -x), the way the ruins sold for those
footprints stand; mirroring a piece puts the short wall at the other end.

Nothing here imports Shapely or pygame: plain arithmetic.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["TEMPLATES", "TEMPLATE_ORDER", "Template", "RUIN_WALL_THICKNESS_IN",
           "REFERENCE_DEPLOYMENTS", "placed", "edge_zone", "corner_zone"]

Pt = tuple[float, float]

RUIN_WALL_THICKNESS_IN = 1.0
"""Named default: how thick (inches) a ruin template's L of walls is drawn.  The rules
measure nothing through a wall's thickness (a map's ``tall_part`` only says where the tall
walls stand, for drawing, ``compare`` and ``charge_ruin_walls``); 1" is the footprint of a
plastic ruin wall with its base, so the L reads as walls on the board."""

PLACED_DECIMALS = 6
"""Named default: placed vertices are rounded to 1e-6" (a 45-degree turn is irrational;
a millionth of an inch is far below the contact tolerance of 0.02")."""


@dataclass(frozen=True)
class Template:
    """One footprint: ``kind`` as a map writes it, ``width`` x ``depth`` inches, whether
    it has an L of walls."""

    key: str
    name: str
    kind: str
    width: float
    depth: float
    walls: bool

    def outline(self) -> list[Pt]:
        """The footprint, counter-clockwise, centred on (0, 0) (local frame, inches)."""
        w, d = self.width / 2, self.depth / 2
        return [(-w, -d), (w, -d), (w, d), (-w, d)]

    def wall_part(self) -> list[Pt] | None:
        """The L of walls (local frame): along the -y long side and the -x short side,
        ``RUIN_WALL_THICKNESS_IN`` thick; None for a piece without walls."""
        if not self.walls:
            return None
        w, d, t = self.width / 2, self.depth / 2, RUIN_WALL_THICKNESS_IN
        return [(-w, -d), (w, -d), (w, -d + t), (-w + t, -d + t), (-w + t, d), (-w, d)]


TEMPLATES: dict[str, Template] = {t.key: t for t in (
    Template("ruin-12x6", "ruin 12x6", "ruin", 12.0, 6.0, True),
    Template("ruin-10x5", "ruin 10x5", "ruin", 10.0, 5.0, True),
    Template("ruin-8x4", "ruin 8x4", "ruin", 8.0, 4.0, True),
    Template("ruin-6x4", "ruin 6x4", "ruin", 6.0, 4.0, True),
    Template("barricade-2x6", "barricade 2x6", "obstacle", 6.0, 2.0, False),
)}
TEMPLATE_ORDER = tuple(TEMPLATES)


def placed(local: list[Pt], centre: Pt, angle_deg: float = 0.0, mirrored: bool = False) -> tuple[Pt, ...]:
    """``local`` points (a template's frame) mirrored (x -> -x) when ``mirrored``, turned
    ``angle_deg`` counter-clockwise about (0, 0), then moved so (0, 0) lands on ``centre``
    (table inches).  A mirrored ring is reversed so it stays counter-clockwise."""
    a = math.radians(angle_deg)
    c, s = math.cos(a), math.sin(a)
    pts = [(-x, y) for x, y in local] if mirrored else list(local)
    if mirrored:
        pts.reverse()
    out = []
    for x, y in pts:
        out.append((_clean(centre[0] + x * c - y * s), _clean(centre[1] + x * s + y * c)))
    return tuple(out)


def _clean(v: float) -> float:
    r = round(v, PLACED_DECIMALS)
    return 0.0 if r == 0 else r


#: reference deployments (``reference/deployment-maps-ca-2025-26.csv``, the maps whose zones
#: are rectangles along table edges): name -> ((edge, depth inches) of the first player's
#: zone, the same of the second's), the map's y-up frame (the diagram's top edge is the
#: map's top edge).  ``edge_zone`` builds them for any table size.
REFERENCE_DEPLOYMENTS: dict[str, tuple[tuple[str, float], tuple[str, float]]] = {
    "Hammer and Anvil": (("left", 18.0), ("right", 18.0)),
    "Dawn of War": (("bottom", 12.0), ("top", 12.0)),
}


def edge_zone(edge: str, depth: float, width: float, table_depth: float) -> tuple[Pt, ...]:
    """A zone ``depth`` inches deep along ``edge`` (left | right | bottom | top) of a
    ``width`` x ``table_depth`` table, counter-clockwise.

    Raises
    ------
    ValueError
        ``edge`` is not one of the four.
    """
    boxes = {"left": (0.0, 0.0, depth, table_depth),
             "right": (width - depth, 0.0, width, table_depth),
             "bottom": (0.0, 0.0, width, depth),
             "top": (0.0, table_depth - depth, width, table_depth)}
    if edge not in boxes:
        raise ValueError(f"edge {edge!r}: give left, right, bottom or top")
    return corner_zone(boxes[edge][:2], boxes[edge][2:])


def corner_zone(a: Pt, b: Pt) -> tuple[Pt, ...]:
    """The rectangle with opposite corners ``a`` and ``b``, counter-clockwise."""
    x0, x1 = sorted((a[0], b[0]))
    y0, y1 = sorted((a[1], b[1]))
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
