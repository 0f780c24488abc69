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
           "REFERENCE_DEPLOYMENTS", "placed", "edge_zone", "corner_zone", "WALL_FORMS",
           "WALLED_KINDS", "rect_frame", "wall_form", "wall_form_of"]

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


WALL_FORMS = ("L", "whole", "long", "short", "none")
"""The wall forms ``w`` cycles on a piece, as the published layouts write their tall parts
(``maps/ca-layout-*``): ``L`` (a band along one long and one short side, the templates'),
``whole`` (the whole footprint tall: layout 1's B and D), ``long`` / ``short`` (a band
``RUIN_WALL_THICKNESS_IN`` thick along the whole first long / short side), ``none``.  A
``block`` (the full depth over a typed length from the first end: layout 1's C, 8" of
12") and a partial band (``long 8``) take a length, so they are typed (``W``)."""

WALLED_KINDS = ("ruin", "building")
"""Named default: the kinds of piece that keep walls (a ``tall_part``).  The published
layouts give walls to ruins only; a building is tall all over.  A piece turned to any
other kind (an obstacle, woods, a hill) loses its walls: none of the published layouts
has a low piece with a tall part."""


def rect_frame(poly) -> tuple[Pt, Pt, Pt, float, float] | None:
    """A rectangle's own frame: (first corner, unit vector along its first long side, unit
    vector into the piece across it, long side, short side), inches; None when ``poly`` is
    not a rectangle (4 corners, right angles within 1e-3 of the sides' product)."""
    if len(poly) != 4:
        return None
    p: list[Pt] = [(float(q[0]), float(q[1])) for q in poly]
    sides = [(p[(i + 1) % 4][0] - p[i][0], p[(i + 1) % 4][1] - p[i][1]) for i in range(4)]
    lens = [math.hypot(*v) for v in sides]
    if min(lens) < 1e-9:
        return None
    for i in range(4):
        a, b = sides[i], sides[(i + 1) % 4]
        if abs(a[0] * b[0] + a[1] * b[1]) > 1e-3 * lens[i] * lens[(i + 1) % 4]:
            return None
    i = 0 if lens[0] >= lens[1] - 1e-9 else 1
    p0, p1, p3 = p[i], p[(i + 1) % 4], p[(i - 1) % 4]
    long_, short = math.hypot(p1[0] - p0[0], p1[1] - p0[1]), math.hypot(p3[0] - p0[0], p3[1] - p0[1])
    u = ((p1[0] - p0[0]) / long_, (p1[1] - p0[1]) / long_)
    v = ((p3[0] - p0[0]) / short, (p3[1] - p0[1]) / short)
    return p0, u, v, long_, short


def wall_form(poly, form: str, length: float | None = None) -> tuple[Pt, ...] | None:
    """The tall part of the piece ``poly`` (table inches) in wall form ``form``: one of
    ``WALL_FORMS``, or ``block`` (the full depth, ``length`` inches along the long side
    from its first end), ``long`` / ``short`` with a ``length`` (a band that long from the
    first corner).  ``whole`` and ``none`` fit any outline; the others need a rectangle.

    Raises
    ------
    ValueError
        An unknown form, a form that needs a rectangle on another outline, or a length not
        in (0, the side's length].
    """
    if form == "none":
        return None
    if form == "whole":
        return tuple((_clean(x), _clean(y)) for x, y in poly)
    fr = rect_frame(poly)
    if fr is None:
        raise ValueError("only a rectangle takes that wall form (whole or none fit any piece)")
    p0, u, v, L, S = fr
    t = min(RUIN_WALL_THICKNESS_IN, S, L)
    side = {"L": L, "long": L, "block": L, "short": S}.get(form)
    if side is None:
        raise ValueError(f"wall form {form!r}: give block, long or short and a length")
    if length is None:
        if form == "block":
            raise ValueError("a wall block needs its length along the long side")
        length = side
    if not (math.isfinite(length) and 0 < length <= side + 1e-9):
        raise ValueError(f"a {form} wall is more than 0 and at most {side:g}\" long")
    if form == "L":
        local = [(0, 0), (L, 0), (L, t), (t, t), (t, S), (0, S)]
    elif form == "long":
        local = [(0, 0), (length, 0), (length, t), (0, t)]
    elif form == "short":
        local = [(0, 0), (t, 0), (t, length), (0, length)]
    else:
        local = [(0, 0), (length, 0), (length, S), (0, S)]
    return tuple((_clean(p0[0] + a * u[0] + b * v[0]), _clean(p0[1] + a * u[1] + b * v[1]))
                 for a, b in local)


def wall_form_of(poly, tall) -> str | None:
    """Which of ``WALL_FORMS`` the tall part ``tall`` of ``poly`` is (same corners within
    0.01"), or None (another form, e.g. a block)."""
    def same(a, b):
        return (a is None) == (b is None) and (a is None or len(a) == len(b) and all(
            any(math.hypot(p[0] - q[0], p[1] - q[1]) <= 0.01 for q in b) for p in a))
    for f in WALL_FORMS:
        try:
            if same(wall_form(poly, f), tall):
                return f
        except ValueError:
            continue
    return None


NOISE_IN = 3e-6
"""Named default: a placed coordinate within this (inches) of a thousandth of an inch is
that thousandth: turning a piece four times by 15 degrees leaves 27.999999 where the
organiser means 28 (and -0 is 0).  Far below the contact tolerance (0.02"), far above
the float noise of a few turns (rounding to 1e-6 each turn), and small enough not to bend
a turned piece (47.571997, a 45-degree corner, stays)."""


def clean(v: float) -> float:
    """``v`` (inches) rounded to ``PLACED_DECIMALS``, snapped to the nearest thousandth
    when within ``NOISE_IN`` of it, and never -0."""
    r = round(v, PLACED_DECIMALS)
    k = round(r, 3)
    if abs(r - k) <= NOISE_IN:
        r = k
    return 0.0 if r == 0 else r


_clean = clean


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
