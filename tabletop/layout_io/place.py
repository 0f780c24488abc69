"""Centre-anchored placement of a footprint (40kdc-data terrain-layout ``position``,
``rotation_degrees``, ``mirror``), in plain arithmetic (no Shapely: this package sits
beside ``board``).

Frame: inches, y-down, as the layout JSON.  A footprint's vertices are taken about its
polygon area centroid, mirrored (``horizontal`` negates x, ``vertical`` negates y), turned
clockwise on the y-down page by ``rotation_degrees`` ((x, y) -> (x cos a - y sin a,
x sin a + y cos a)), then moved to ``position``.  ``to_map`` flips a y-down point onto a
map's y-up frame.
"""

from __future__ import annotations

import math

from tabletop.layout_io.schema import Polygon, Rectangle, RightTriangle

__all__ = ["footprint_vertices", "area_centroid", "orient", "place", "to_map", "from_map",
           "convex_hull"]

Pt = tuple[float, float]


def footprint_vertices(fp: Rectangle | RightTriangle | Polygon) -> list[Pt]:
    """The footprint's vertices in its own local frame (y-down inches)."""
    if isinstance(fp, Rectangle):
        return [(0.0, 0.0), (fp.width, 0.0), (fp.width, fp.height), (0.0, fp.height)]
    if isinstance(fp, RightTriangle):
        return [(0.0, 0.0), (fp.width, 0.0), (0.0, fp.height)]
    return [(p.x, p.y) for p in fp.points]


def area_centroid(pts: list[Pt]) -> Pt:
    """The polygon area centroid (shoelace); the vertex mean for a zero-area polygon.

    ``pts`` is a closed ring written without its repeated first point, in inches."""
    a = cx = cy = 0.0
    n = len(pts)
    for i in range(n):
        x0, y0 = pts[i]
        x1, y1 = pts[(i + 1) % n]
        cross = x0 * y1 - x1 * y0
        a += cross
        cx += (x0 + x1) * cross
        cy += (y0 + y1) * cross
    if abs(a) < 1e-12:
        return (sum(p[0] for p in pts) / n, sum(p[1] for p in pts) / n)
    return (cx / (3.0 * a), cy / (3.0 * a))


def orient(v: Pt, rotation_deg: float, mirror: str) -> Pt:
    """Mirror then turn ``v`` (an offset from the centroid, y-down inches)."""
    x, y = v
    if mirror == "horizontal":
        x = -x
    elif mirror == "vertical":
        y = -y
    if rotation_deg:
        a = math.radians(rotation_deg)
        c, s = math.cos(a), math.sin(a)
        x, y = c * x - s * y, s * x + c * y
    return (x, y)


def place(local: list[Pt], position: Pt, rotation_deg: float = 0.0, mirror: str = "none") -> list[Pt]:
    """The footprint ``local`` placed with its area centroid at ``position`` (y-down)."""
    cx, cy = area_centroid(local)
    out = []
    for x, y in local:
        ox, oy = orient((x - cx, y - cy), rotation_deg, mirror)
        out.append((position[0] + ox, position[1] + oy))
    return out


def to_map(p: Pt, depth: float) -> list[float]:
    """A y-down layout point as a y-up map point ``[x, y]`` (inches), rounded to 1e-9"
    (the centroid arithmetic leaves 1e-14 noise that would otherwise be written out)."""
    return [_clean(p[0]), _clean(depth - p[1])]


def _clean(v: float) -> float:
    r = round(float(v), 9)
    return 0.0 if r == 0 else r


def from_map(p: Pt, depth: float) -> Pt:
    """A y-up map point as a y-down layout point."""
    return (float(p[0]), depth - float(p[1]))


def convex_hull(pts: list[Pt]) -> list[Pt]:
    """The convex hull of ``pts`` (monotone chain), counter-clockwise in the points' frame."""
    s = sorted(set(pts))
    if len(s) < 3:
        return s

    def cross(o: Pt, a: Pt, b: Pt) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[Pt] = []
    for p in s:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[Pt] = []
    for p in reversed(s):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]
