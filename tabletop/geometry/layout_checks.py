"""Checks on the shapes a map draws: terrain, deployment zones, objectives.

``shape_problems`` finds shapes that cannot be measured (a terrain outline
that crosses itself, a tall part outside its piece): the map is invalid, so
loading it through the command line fails with these lines (exit status 2).
``layout_warnings`` finds what an organiser should look at but that still
measures (terrain or objectives off the table).  Inches, bottom-left origin.
"""

from __future__ import annotations

from shapely.geometry import Point, Polygon, box
from shapely.validation import explain_validity

from tabletop.board.state import Battlefield


def _explain(poly: Polygon) -> str:
    why = explain_validity(poly)
    if why.startswith("Self-intersection"):
        return "the outline crosses itself" + why[len("Self-intersection"):].replace("[", " at (").replace("]", ")")
    return why[:1].lower() + why[1:]


def shape_problems(state: Battlefield) -> list[str]:
    """One line per unusable shape: ``file: terrain[2].polygon: the outline crosses itself at (x y)``."""
    path = state.path or "<map>"
    out: list[str] = []
    tol = state.rules.tol
    for i, t in enumerate(state.terrain):
        poly = Polygon(t.polygon)
        where = "rect" if t.rect is not None else "polygon"
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
    for i, d in enumerate(state.deployment):
        poly = Polygon(d.polygon)
        if not poly.is_valid:
            out.append(f"{path}: deployment[{i}].polygon: {_explain(poly)}")
    return out


def layout_warnings(state: Battlefield) -> list[str]:
    """Things on the map an organiser should fix: terrain, zones or objectives off the table."""
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
    for o in state.objectives:
        if not grown.contains(Point(o.at).buffer(o.marker.radius, quad_segs=16)):
            out.append(f"objective {o.id} at ({o.at[0]:g}, {o.at[1]:g}) is not on the table")
    for d in state.deployment:
        poly = Polygon(d.polygon)
        if poly.is_valid and not grown.contains(poly):
            out.append(f"{d.player}'s deployment zone runs off the table")
    return out
