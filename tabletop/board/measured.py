"""A measured table, written the way an organiser measures it with a tape.

Inches, bottom-left origin, y up (docs/map-format.md).  The forms here are read
*before* the map is validated (``resolve_measured``) and turned into the
plain forms every map has (``polygon``, ``tall_part``, ``at``), so the rest
of the program never sees them:

* **a point from two table edges**: ``{ from = ["left", "top"], at = [10.5, 6] }``
  is 10.5" from the left edge and 6" from the top edge, so (10.5, depth - 6).
  ``at[i]`` goes with ``from[i]``; one edge is left/right, the other
  bottom/top, in either order.  Accepted wherever a terrain corner, an
  objective's ``at`` or a deployment zone's polygon point is written.
* **a terrain piece by two corners** and its depth:
  ``corners = [P1, P2], depth = 6``: P1 -> P2 is one side of a rectangle
  and the piece lies to the *left* as you walk from P1 to P2 (corners
  counter-clockwise, as polygons are written).  Three or more corners are
  the outline itself.
* **a terrain piece by one corner and an angle**:
  ``corner = P1, angle = 30, width = 12, depth = 6``: the first side runs
  ``width`` from P1 at ``angle`` degrees counter-clockwise from the table's
  bottom edge (+x), the piece to its left.
* **where the walls are**: ``tall_along = [0, 8]`` with either form: the
  tall part (walls over 4") is the band of the piece from 0" to 8" along the
  first side, the piece's full depth.  A piece written with ``polygon`` or
  ``rect`` keeps ``tall_part`` in table coordinates.

Edge names are read without regard to case ("Bottom" is "bottom").  Every field a
form needs must be there (a corner without ``angle`` is an error, as one without
``width``).  Every number must be one a tape gives on this table: a distance from an
edge at most the table's side plus ``MEASURED_MARGIN``, a width or depth at most the
table's diagonal plus it, an angle from -360 to 360 degrees, and every point the form
makes within ``MEASURED_MARGIN`` of the table; anything else is one located line
(exit 2 from the command line), never a number the geometry cannot hold.
"""

from __future__ import annotations

import math
from typing import Any, TypeGuard

__all__ = ["resolve_measured", "edge_point", "piece_from_corners", "piece_from_corner_angle",
           "EDGES", "MEASURED_MARGIN"]

#: the table edges a distance may be measured from, and which axis each fixes
EDGES = {"left": "x", "right": "x", "bottom": "y", "top": "y"}

MEASURED_MARGIN = 12.0
"""Named default: how far (inches) a measured point may lie off the table, and what a
measured distance or size may exceed the table by.  A piece may hang a little over an
edge (``check`` warns that it runs off the table), but a corner a foot or more off the
table, or a 600" depth on a 44" table, is a slip of the pen: it is refused where it is
written rather than drawn.  A foot is more than any piece overhangs a real table and far
less than the numbers that break the geometry (1e308, inf)."""

#: a measured angle is degrees within one turn either way
ANGLE_LIMIT = 360.0


class _Bad(ValueError):
    """One problem with a measured form: (place, message)."""

    def __init__(self, place: str, msg: str) -> None:
        super().__init__(msg)
        self.place = place


def _num(v: Any) -> TypeGuard[float]:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def edge_point(spec: Any, width: float, depth: float, place: str = "") -> tuple[float, float]:
    """Table coordinates (inches) of a point measured from two table edges.

    ``spec`` is ``{"from": [edge, edge], "at": [d1, d2]}`` (edges ``left``,
    ``right``, ``bottom``, ``top``; distances in inches, ``d[i]`` from
    ``from[i]``), or a plain ``[x, y]`` which is returned as it is.

    Raises
    ------
    ValueError
        (a ``_Bad`` naming ``place``) when the edges are not one of left/right
        and one of bottom/top, or a distance is not a number >= 0.
    """
    if isinstance(spec, (list, tuple)) and len(spec) == 2 and all(_num(v) for v in spec):
        return float(spec[0]), float(spec[1])
    if not isinstance(spec, dict):
        raise _Bad(place, f"a point is [x, y] or {{ from = [\"left\", \"bottom\"], at = [x, y] }}, "
                          f"got {spec!r}")
    extra = sorted(set(spec) - {"from", "at"})
    if extra:
        raise _Bad(place, f"unknown key {extra[0]!r} (a measured point has from and at)")
    edges, at = spec.get("from"), spec.get("at")
    if isinstance(edges, list):
        edges = [e.strip().lower() if isinstance(e, str) else e for e in edges]
    if not (isinstance(edges, list) and len(edges) == 2 and all(e in EDGES for e in edges)
            and {EDGES[e] for e in edges} == {"x", "y"}):
        raise _Bad(place + ".from", "from is two table edges, one of left/right and one of "
                                    f"bottom/top (e.g. [\"left\", \"top\"]), got {edges!r}")
    if not (isinstance(at, list) and len(at) == 2 and all(_num(v) and v >= 0 for v in at)):
        raise _Bad(place + ".at", f"at is two distances in inches (>= 0) from those edges, got {at!r}")
    for edge, d in zip(edges, at):
        side = width if EDGES[edge] == "x" else depth
        if d > side + MEASURED_MARGIN:
            raise _Bad(place + ".at", f"{d:g}\" from the {edge} edge is more than "
                                      f"{MEASURED_MARGIN:g}\" off a {width:g}\" x {depth:g}\" "
                                      f"table (MEASURED_MARGIN)")
    x = y = 0.0
    for edge, d in zip(edges, at):
        if edge == "left":
            x = float(d)
        elif edge == "right":
            x = width - float(d)
        elif edge == "bottom":
            y = float(d)
        else:
            y = depth - float(d)
    return x, y


def _rect_from_side(p1: tuple[float, float], ux: float, uy: float, width: float,
                    depth: float, tall: tuple[float, float] | None
                    ) -> tuple[list[list[float]], list[list[float]] | None]:
    """Rectangle with first side p1 -> p1 + width*u, lying to its left (counter-clockwise)."""
    vx, vy = -uy, ux                     # u turned 90 degrees counter-clockwise: into the piece

    def at(a: float, b: float) -> list[float]:
        return [round(p1[0] + a * ux + b * vx, 9), round(p1[1] + a * uy + b * vy, 9)]

    outline = [at(0, 0), at(width, 0), at(width, depth), at(0, depth)]
    part = None
    if tall is not None:
        a, b = tall
        part = [at(a, 0), at(b, 0), at(b, depth), at(a, depth)]
    return outline, part


def piece_from_corners(p1: tuple[float, float], p2: tuple[float, float], depth: float,
                       tall: tuple[float, float] | None = None
                       ) -> tuple[list[list[float]], list[list[float]] | None]:
    """The outline (and tall part) of a rectangular piece from two adjacent corners.

    P1 -> P2 is a side; the piece runs ``depth`` inches to its left.  ``tall``
    (inches along that side from P1) gives the walls' band.  Returns
    ``(outline, tall_part)``, counter-clockwise ``[[x, y], ...]``.

    Raises
    ------
    ValueError
        The two corners coincide.
    """
    dx, dy = p2[0] - p1[0], p2[1] - p1[1]
    side = math.hypot(dx, dy)
    if side < 1e-9:
        raise ValueError("the two corners are the same point")
    return _rect_from_side(p1, dx / side, dy / side, side, depth, tall)


def piece_from_corner_angle(p1: tuple[float, float], angle_deg: float, width: float,
                            depth: float, tall: tuple[float, float] | None = None
                            ) -> tuple[list[list[float]], list[list[float]] | None]:
    """The outline (and tall part) of a ``width`` x ``depth`` piece from one corner:
    its first side leaves P1 at ``angle_deg`` counter-clockwise from +x, the piece to
    its left.  Returns ``(outline, tall_part)``."""
    t = math.radians(angle_deg)
    return _rect_from_side(p1, math.cos(t), math.sin(t), width, depth, tall)


_PIECE_KEYS = ("corners", "corner", "angle", "width", "depth", "tall_along")


def _terrain(t: dict[str, Any], where: str, w: float, d: float) -> dict[str, Any]:
    if not any(k in t for k in _PIECE_KEYS):
        return t
    out = {k: v for k, v in t.items() if k not in _PIECE_KEYS}
    if ("polygon" in t or "rect" in t) and not any(k in t for k in _PIECE_KEYS[:-1]):
        form = "polygon" if "polygon" in t else "rect"
        raise _Bad(where + ".tall_along", f"tall_along goes with corners or corner (measured "
                                          f"along the first side); with {form}, give the walls "
                                          f"as tall_part (table coordinates)")
    if "polygon" in t or "rect" in t:
        raise _Bad(where, "give one of polygon, rect, corners or corner (a measured piece)")
    tall = t.get("tall_along")
    if tall is not None:
        if not (isinstance(tall, list) and len(tall) == 2 and all(_num(v) for v in tall)
                and 0 <= tall[0] < tall[1]):
            raise _Bad(where + ".tall_along", f"tall_along is [from, to] inches along the first "
                                              f"side (0 <= from < to), got {tall!r}")
        if "tall_part" in t:
            raise _Bad(where + ".tall_along", "give tall_along or tall_part, not both")
        tall = (float(tall[0]), float(tall[1]))

    limit = math.hypot(w, d) + MEASURED_MARGIN

    def size(key: str) -> float:
        v = t.get(key)
        if v is None:
            raise _Bad(f"{where}.{key}", f"missing: {key} is the piece's {key} in inches (> 0)")
        if not (_num(v) and v > 0):
            raise _Bad(f"{where}.{key}", f"{key} is the piece's {key} in inches (> 0), got {v!r}")
        if v > limit:
            raise _Bad(f"{where}.{key}", f"{key} {v:g}\" is longer than the {w:g}\" x {d:g}\" "
                                         f"table's diagonal plus {MEASURED_MARGIN:g}\" "
                                         f"(MEASURED_MARGIN)")
        return float(v)

    def on_table(pts, key: str) -> None:
        for x, y in pts:
            if not (-MEASURED_MARGIN <= x <= w + MEASURED_MARGIN
                    and -MEASURED_MARGIN <= y <= d + MEASURED_MARGIN):
                raise _Bad(f"{where}.{key}", f"the piece reaches ({x:.4g}, {y:.4g}), more than "
                                             f"{MEASURED_MARGIN:g}\" off the {w:g}\" x {d:g}\" "
                                             f"table (MEASURED_MARGIN)")

    if "corners" in t:
        for k in ("corner", "angle", "width"):
            if k in t:
                raise _Bad(f"{where}.{k}", "with corners = [...] give depth only (the first "
                                           "side is corner 1 to corner 2)")
        cs = t["corners"]
        if not isinstance(cs, list) or len(cs) < 2:
            raise _Bad(where + ".corners", "corners is two corners (with depth) or three or more "
                                           "(the outline)")
        pts = [edge_point(c, w, d, f"{where}.corners[{i}]") for i, c in enumerate(cs)]
        on_table(pts, "corners")
        if len(pts) == 2:
            depth = size("depth")
            try:
                outline, part = piece_from_corners(pts[0], pts[1], depth, tall)
            except ValueError as exc:
                raise _Bad(where + ".corners", str(exc)) from None
            if part is not None and tall is not None and tall[1] > math.dist(*pts) + 1e-9:
                raise _Bad(where + ".tall_along", "runs past the second corner")
            on_table(outline, "depth")
        else:
            if "depth" in t or tall is not None:
                raise _Bad(where + ".corners", "three or more corners are the outline: leave out "
                                               "depth and tall_along")
            if _collinear(pts):
                raise _Bad(where + ".corners", f"the {len(pts)} corners lie on one line: the "
                                               f"outline has no area")
            outline, part = [[p[0], p[1]] for p in pts], None
    else:
        if "corner" not in t:
            raise _Bad(where, "a measured piece needs corners = [...] or corner = ... with angle, "
                              "width and depth")
        p1 = edge_point(t["corner"], w, d, f"{where}.corner")
        on_table([p1], "corner")
        angle = t.get("angle")
        if angle is None:
            raise _Bad(where + ".angle", "missing: angle is degrees counter-clockwise from the "
                                         "bottom edge (0 runs along it)")
        if not (_num(angle) and abs(angle) <= ANGLE_LIMIT):
            raise _Bad(where + ".angle", f"angle is degrees counter-clockwise from the bottom "
                                         f"edge, -{ANGLE_LIMIT:g} to {ANGLE_LIMIT:g}, got {angle!r}")
        width = size("width")
        if tall is not None and tall[1] > width + 1e-9:
            raise _Bad(where + ".tall_along", "runs past the piece's width")
        depth = size("depth")
        outline, part = piece_from_corner_angle(p1, float(angle), width, depth, tall)
        on_table(outline[:2], "width")
        on_table(outline, "depth")
    out["polygon"] = outline
    if part is not None:
        out["tall_part"] = part
    return out


def _collinear(pts: list[tuple[float, float]]) -> bool:
    """Every point lies on the line through the first and the one furthest from it (within
    1e-9"): the outline they make has no area (a bow tie, whose signed area is also 0, is not
    on one line; the map check says it crosses itself)."""
    x0, y0 = pts[0]
    far = max(pts, key=lambda p: math.dist(p, pts[0]))
    n = math.dist(far, pts[0])
    dx, dy = far[0] - x0, far[1] - y0
    return n > 0 and all(abs((x - x0) * dy - (y - y0) * dx) / n < 1e-9 for x, y in pts)


def _stand_in(key: str, item: dict[str, Any]) -> dict[str, Any]:
    """A bad measured item with plain stand-in shapes, so the map check reports the item's
    other fields (and the rest of the file) without a second line for the same mistake."""
    item = {k: v for k, v in item.items() if k not in _PIECE_KEYS + ("tall_part",)}
    if key == "objectives":
        item["at"] = [0.0, 0.0]
    else:
        item.pop("rect", None)
        item["polygon"] = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]
    return item


def resolve_measured(data: dict[str, Any], path: str = "<map>") -> tuple[dict[str, Any], list[str]]:
    """Turn every measured form in a map read from TOML into the plain forms.

    Returns ``(data, problems)``: a new dict (the input is not changed) and one
    line per bad measured form, ``file: terrain[2].corners[0].from: ...``.  The
    table's ``[map] width, depth`` (inches) place points measured from the
    right and top edges; when they are missing or bad the data is returned as
    it is (the map check reports the size).
    """
    meta = data.get("map")
    w = meta.get("width") if isinstance(meta, dict) else None
    d = meta.get("depth") if isinstance(meta, dict) else None
    if not (_num(w) and _num(d)):
        return data, []
    out = dict(data)
    problems: list[str] = []

    def each(key: str, fix) -> None:
        items = data.get(key)
        if not isinstance(items, list):
            return
        new = []
        for i, item in enumerate(items):
            if isinstance(item, dict):
                try:
                    item = fix(item, f"{key}[{i}]")
                except _Bad as bad:
                    problems.append(f"{path}: {bad.place}: {bad}")
                    item = _stand_in(key, item)     # reported once, here, not again by the schema
            new.append(item)
        out[key] = new

    def objective(o: dict[str, Any], where: str) -> dict[str, Any]:
        if isinstance(o.get("at"), dict):
            o = dict(o)
            o["at"] = list(edge_point(o["at"], w, d, where + ".at"))
        return o

    def zone(z: dict[str, Any], where: str) -> dict[str, Any]:
        poly = z.get("polygon")
        if isinstance(poly, list) and any(isinstance(p, dict) for p in poly):
            z = dict(z)
            z["polygon"] = [list(edge_point(p, w, d, f"{where}.polygon[{i}]"))
                            if isinstance(p, dict) else p for i, p in enumerate(poly)]
        return z

    def terrain(t: dict[str, Any], where: str) -> dict[str, Any]:
        poly = t.get("polygon")
        if isinstance(poly, list) and any(isinstance(p, dict) for p in poly):
            t = dict(t)
            t["polygon"] = [list(edge_point(p, w, d, f"{where}.polygon[{i}]"))
                            if isinstance(p, dict) else p for i, p in enumerate(poly)]
        return _terrain(t, where, float(w), float(d))

    each("terrain", terrain)
    each("objectives", objective)
    each("deployment", zone)
    return out, problems
