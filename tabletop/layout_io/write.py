"""Map -> layout JSON: a list of a 40kdc-data ``terrain-layout`` and (when the map has
deployment zones) the ``deployment-pattern`` it names.

Map ids that are not entity ids ("A", "B2"), and player ids other than attacker and
defender, ride at the end of the piece's, objective's or zone's ``name`` as a tag
(``carry.tagged``: "layout 1 piece A [A]"), which ``read`` takes back off.

Each terrain piece becomes an area with an inline ``polygon`` footprint written about its
area centroid and ``position`` at that centroid (rotation 0, mirror none: the polygon is
already turned); a ``tall_part`` smaller than the piece becomes a ``feature`` on it (its
walls).  Heights come from the kind by ``EXPORT_HEIGHT_IN`` so that ``read`` gives the same
kinds back for ruins and obstacles.  Points are flipped from the map's y-up frame to the
JSON's y-down one: (x, y) -> (x, depth - y).
"""

from __future__ import annotations

import re
from typing import Any

from tabletop.board.state import Battlefield
from tabletop.errors import TabletopError
from tabletop.layout_io.carry import entity_id, objective_entity_id, tagged
from tabletop.layout_io.place import area_centroid, from_map
from tabletop.layout_io.read import DEFAULT_BOARD_IN

__all__ = ["to_layout_json", "EXPORT_HEIGHT_IN", "WALL_HEIGHT_IN", "EXPORT_DATASLATE"]

#: named default: the height (inches) written for each map terrain kind.  The layout
#: format has heights, not kinds: a ruin is written 3" (a ruin, not tall all over, by
#: ``read.RUIN_MIN_HEIGHT_IN``/``TALL_MIN_HEIGHT_IN``), or 5" when its tall part is the
#: whole piece; an obstacle 2" (a barricade).  Woods, hills, buildings and impassable
#: terrain have no height the format tells apart: they come back as ruins or obstacles.
EXPORT_HEIGHT_IN = {"ruin": 3.0, "woods": 3.0, "building": 5.0, "obstacle": 2.0,
                    "hill": 2.0, "impassable": 2.0}
#: named default: the height (inches) of a wall feature written for a tall part
WALL_HEIGHT_IN = 5.0
#: named default: the ``game_version.dataslate`` written (required by the schema; a map
#: does not know which dataslate its table was set up for)
EXPORT_DATASLATE = "unspecified"

Pt = tuple[float, float]


def _id(text: str, prefix: str) -> str:
    """A kebab-case entity id of ``text`` (``carry.entity_id``)."""
    return entity_id(text, prefix)


#: the name ``layout import`` gives a pattern's bare objective point ("Dawn: objective 2"):
#: such an objective goes back to the pattern as a point (its name comes back the same)
_POINT_NAME = re.compile(r": objective \d+$")


def _r(v: float) -> float | int:
    f = round(float(v), 9) + 0.0
    return int(f) if f.is_integer() else f


def _vec(p: Pt) -> dict[str, Any]:
    return {"x": _r(p[0]), "y": _r(p[1])}


def _local(pts: list[Pt]) -> tuple[Pt, dict[str, Any]]:
    c = area_centroid(pts)
    return c, {"type": "polygon", "points": [_vec((x - c[0], y - c[1])) for x, y in pts]}


def _sides(state: Battlefield) -> dict[str, str]:
    """Map player id -> ``attacker``/``defender``: a player whose id or name says which,
    else the first player with a zone attacks (named default, the map's order)."""
    ids = list(dict.fromkeys(d.player for d in state.deployment))
    if len(ids) > 2:
        raise TabletopError(f"{state.path or 'map'}: deployment zones of {len(ids)} players; "
                            "a deployment pattern has two sides (attacker, defender)")
    names = {p.id: f"{p.id} {p.name or ''}".lower() for p in state.players}
    out: dict[str, str] = {}
    for pid in ids:
        for side in ("attacker", "defender"):
            if side in names.get(pid, "") and side not in out.values():
                out[pid] = side
                break
    for pid in ids:
        if pid not in out:
            out[pid] = next(s for s in ("attacker", "defender") if s not in out.values())
    return out


def to_layout_json(state: Battlefield) -> list[dict[str, Any]]:
    """The map's terrain, objectives and deployment zones as layout JSON entities.

    Returns ``[terrain_layout]`` or ``[terrain_layout, deployment_pattern]`` (plain
    dicts, y-down inches).  Objectives go into the pattern as points, or, when they have a
    range or a name of their own (not the ``Pattern: objective N`` an import gives a point),
    or the map has no zones, onto objective pieces of the layout (``terrain: false``,
    ``objective.control_range_inches``), so an import gives both back.

    Raises
    ------
    TabletopError
        Deployment zones of more than two players.
    """
    depth = state.table.depth
    base = _id(state.name, "map")
    edition = state.rules.edition
    version = {"edition": edition, "dataslate": EXPORT_DATASLATE}
    pieces: list[dict[str, Any]] = []
    used: set[str] = set()
    for t in state.terrain:
        pid = _id(t.id, "t")
        while pid in used:
            pid += "-2"
        used.add(pid)
        pts = [from_map(p, depth) for p in t.polygon]
        c, fp = _local(pts)
        whole = t.tall_part is not None and _same_ring(t.tall_part, t.polygon)
        height = WALL_HEIGHT_IN if whole else EXPORT_HEIGHT_IN.get(t.kind, 3.0)
        piece: dict[str, Any] = {"id": pid}
        name = tagged(t.name, t.id, pid)     # the map id rides in the name ("... [A]")
        if name:
            piece["name"] = name
        piece.update({"piece_type": "area", "footprint": fp, "position": _vec(c),
                      "height_inches": _r(height)})
        pieces.append(piece)
        if t.tall_part is not None and not whole:
            wpts = [from_map(p, depth) for p in t.tall_part]
            wc, wfp = _local(wpts)
            pieces.append({"id": f"{pid}-walls", "name": f"{t.name or t.id} walls"[:128],
                           "piece_type": "feature", "parent_area_id": pid, "footprint": wfp,
                           "position": _vec((wc[0] - c[0], wc[1] - c[1])),
                           "height_inches": _r(WALL_HEIGHT_IN)})
            used.add(f"{pid}-walls")
    layout: dict[str, Any] = {"id": base, "name": state.name[:128], "source": "tabletop"}
    if state.source:
        layout["description"] = state.source
    if state.deployment:
        layout["deployment_pattern_id"] = f"{base}-deployment"
    if (state.table.width, state.table.depth) != DEFAULT_BOARD_IN:
        layout["board"] = {"width": _r(state.table.width), "height": _r(state.table.depth)}
    objectives = []
    for o in state.objectives:
        if state.deployment and o.range is None and (o.name is None or _POINT_NAME.search(o.name)):
            objectives.append(_vec(from_map(o.at, depth)))     # a bare point of the pattern
            continue
        # a named objective, or one with its own range, is an objective piece: the
        # pattern's objectives are bare points and would lose both
        oid = objective_entity_id(o.id)
        side = _r(o.marker.across)
        piece = {"id": oid, "name": tagged(o.name or o.id, o.id, oid),
                 "piece_type": "area", "terrain": False,
                 "footprint": {"type": "rectangle", "width": side, "height": side},
                 "position": _vec(from_map(o.at, depth)), "is_objective": True}
        if o.range is not None:
            piece["objective"] = {"control_range_inches": _r(o.range)}
        pieces.append(piece)
    layout["pieces"] = pieces
    layout["game_version"] = version
    out = [layout]
    if state.deployment:
        sides = _sides(state)
        zones = []
        for d in state.deployment:
            pts = [from_map(p, depth) for p in d.polygon]
            x0 = min(p[0] for p in pts)
            y0 = min(p[1] for p in pts)
            zone: dict[str, Any] = {"player": sides[d.player]}
            name = tagged(d.name, d.player, sides[d.player])    # the map player id, "... [orks]"
            if name:
                zone["name"] = name
            zone["shape"] = {"type": "polygon", "points": [_vec((x - x0, y - y0)) for x, y in pts]}
            zone["position"] = _vec((x0, y0))
            zones.append(zone)
        out.append({"id": f"{base}-deployment", "name": f"{state.name} deployment"[:128],
                    "source": "tabletop", "zones": zones, "objectives": objectives,
                    "recommended_terrain_layout_ids": [base], "game_version": version})
    return out


def _same_ring(a: Any, b: Any) -> bool:
    return len(a) == len(b) and all(
        abs(p[0] - q[0]) < 1e-9 and abs(p[1] - q[1]) < 1e-9 for p, q in zip(a, b))
