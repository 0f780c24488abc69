"""Checks on the shapes a map draws: terrain, deployment zones, objectives.

``shape_problems`` finds shapes that cannot be measured (a terrain outline
that crosses itself, a tall part outside its piece): the map is invalid, so
loading it through the command line fails with these lines (exit status 2).
``layout_warnings`` finds what an organiser should look at but that still
measures (terrain or objectives off the table).  Inches, bottom-left origin.
"""

from __future__ import annotations

import numpy as np
import shapely
from shapely.geometry import Point, Polygon, box
from shapely.validation import explain_validity

from tabletop.board.state import Battlefield

FAR_OFF_TABLES = 10.0
"""Named default: a point of a plain shape (polygon, rect, objective) further off the
table than this many times the table's longer side cannot be a piece of this table (1e308
is a slip, not a position): the map is refused with one line rather than drawn.  Points a
little off the table stay warnings (``layout_warnings``).  Measured forms have the tighter
``board.measured.MEASURED_MARGIN``."""


def _far(state: Battlefield, pts) -> tuple[float, float] | None:
    """The first point of ``pts`` too far off the table to draw (``FAR_OFF_TABLES``)."""
    w, d = state.table.width, state.table.depth
    far = FAR_OFF_TABLES * max(w, d)
    for x, y in pts:
        if not (-far <= x <= w + far and -far <= y <= d + far):
            return x, y
    return None


def _explain(poly: Polygon) -> str:
    why = explain_validity(poly)
    if why.startswith("Self-intersection"):
        return "the outline crosses itself" + why[len("Self-intersection"):].replace("[", " at (").replace("]", ")")
    return why[:1].lower() + why[1:]


def _on_one_line(pts) -> bool:
    """Every point lies on the line through the first and the furthest from it."""
    x0, y0 = pts[0]
    far = max(pts, key=lambda p: (p[0] - x0) ** 2 + (p[1] - y0) ** 2)
    dx, dy = far[0] - x0, far[1] - y0
    n = (dx * dx + dy * dy) ** 0.5
    return n > 0 and all(abs((x - x0) * dy - (y - y0) * dx) / n < 1e-9 for x, y in pts)


def shape_problems(state: Battlefield) -> list[str]:
    """One line per unusable shape: ``file: terrain[2].polygon: the outline crosses itself at (x y)``."""
    path = state.path or "<map>"
    out: list[str] = []
    tol = state.rules.tol
    far_text = (f"lies more than {FAR_OFF_TABLES:g} table lengths off the "
                f"{state.table.width:g}\" x {state.table.depth:g}\" table (FAR_OFF_TABLES)")
    for i, t in enumerate(state.terrain):
        where = "rect" if t.rect is not None else "polygon"
        p = _far(state, list(t.polygon) + list(t.tall_part or ()))
        if p is not None:
            out.append(f"{path}: terrain[{i}].{where}: the point ({p[0]:.4g}, {p[1]:.4g}) {far_text}")
            continue
        poly = Polygon(t.polygon)
        if _on_one_line(t.polygon):
            out.append(f"{path}: terrain[{i}].{where}: the corners lie on one line: the outline "
                       f"has no area")
            continue
        if not poly.is_valid:
            out.append(f"{path}: terrain[{i}].{where}: {_explain(poly)}")
            continue
        if poly.area <= 0:
            out.append(f"{path}: terrain[{i}].{where}: the outline has no area")
            continue
        if t.tall_part:
            tall = Polygon(t.tall_part)
            if not tall.is_valid:
                out.append(f"{path}: terrain[{i}].tall_part: {_explain(tall)}")
            elif not poly.buffer(tol).contains(tall):
                out.append(f"{path}: terrain[{i}].tall_part: lies outside the piece's outline")
    for i, o in enumerate(state.objectives):
        p = _far(state, [o.at])
        if p is not None:
            out.append(f"{path}: objectives[{i}].at: the point ({p[0]:.4g}, {p[1]:.4g}) {far_text}")
    for i, d in enumerate(state.deployment):
        p = _far(state, d.polygon)
        if p is not None:
            out.append(f"{path}: deployment[{i}].polygon: the point ({p[0]:.4g}, {p[1]:.4g}) "
                       f"{far_text}")
            continue
        poly = Polygon(d.polygon)
        if not poly.is_valid:
            out.append(f"{path}: deployment[{i}].polygon: {_explain(poly)}")
    return out


def terrain_overlaps(state: Battlefield) -> list[tuple[str, str, float]]:
    """Pairs of terrain pieces that overlap: ``(id_a, id_b, area)``, ids in map order, area
    in square inches, for each pair sharing more than ``[rules] terrain_overlap_area``
    (named default ``TERRAIN_OVERLAP_AREA``, 0.01 sq in: pieces that only touch share none).
    Pieces whose outline cannot be measured are skipped (``shape_problems`` names them)."""
    limit = state.rules.terrain_overlap_area
    polys = [(t.id, Polygon(t.polygon)) for t in state.terrain]
    polys = [(i, p) for i, p in polys if p.is_valid and p.area > 0]
    if not polys:
        return []
    shapes = np.array([p for _, p in polys], dtype=object)
    # the pairs that meet, from one STRtree query, in map order (as the every-pair loop had them)
    a, b = shapely.STRtree(shapes).query(shapes, predicate="intersects")
    pairs = sorted((k, m) for k, m in zip(a.tolist(), b.tolist()) if k < m)
    out: list[tuple[str, str, float]] = []
    for k, m in pairs:
        area = shapes[k].intersection(shapes[m]).area
        if area > limit:
            out.append((polys[k][0], polys[m][0], area))
    return out


#: terrain kinds no model may stand in: a base on such a piece's footprint is misplaced
SOLID_KINDS = ("obstacle", "impassable", "building")


def models_on_solid(state: Battlefield, tid: str) -> list[str]:
    """Ids of the models (map order) whose base overlaps the solid part of terrain piece
    ``tid``: its walls (``tall_part``) for a ruin or other piece with walls, its whole
    footprint for a kind in ``SOLID_KINDS`` (a barricade, a building); a model on a ruin's
    open floor is where models stand and is not listed.  Bases measured by the geometry
    snapshot's exact footprints; overlaps of no more than the map tolerance do not count.
    Empty when ``tid`` is no terrain piece or has no solid part."""
    from tabletop.geometry import snapshot
    piece = next((t for t in state.terrain if t.id == tid), None)
    if piece is None:
        return []
    ring = piece.polygon if piece.kind in SOLID_KINDS else piece.tall_part
    if not ring:
        return []
    solid = Polygon(ring)
    if not solid.is_valid or solid.area <= 0:
        return []
    solid = solid.buffer(-state.rules.tol)
    if solid.is_empty:
        return []
    geo = snapshot(state)
    return [m.id for u in state.units for m in u.models
            if geo.footprint(m.id).intersects(solid)]


def layout_warnings(state: Battlefield) -> list[str]:
    """Things on the map an organiser should fix: terrain, zones or objectives off the
    table, terrain pieces that overlap (``terrain_overlaps``)."""
    table = box(0, 0, state.table.width, state.table.depth)
    grown = table.buffer(state.rules.tol, join_style="mitre")
    out: list[str] = []
    for t in state.terrain:
        poly = Polygon(t.polygon)
        if not poly.is_valid:
            continue
        if not poly.intersects(table):
            out.append(f"terrain {t.id} lies wholly off the table")
        elif not grown.contains(poly):
            out.append(f"terrain {t.id} runs off the table edge")
    for a, b, area in terrain_overlaps(state):
        out.append(f"terrain {a} and {b} overlap ({area:.2f} sq in)")
    for o in state.objectives:
        if not grown.contains(Point(o.at).buffer(o.marker.radius, quad_segs=16)):
            out.append(f"objective {o.id} at ({o.at[0]:g}, {o.at[1]:g}) is not on the table")
    for d in state.deployment:
        poly = Polygon(d.polygon)
        if poly.is_valid and not grown.contains(poly):
            out.append(f"{d.player}'s deployment zone runs off the table")
    return out
