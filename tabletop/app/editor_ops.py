"""The table editor's changes to a map: each takes a ``Battlefield`` and returns a new one.

Table coordinates are inches, origin bottom-left, y up, angles counter-clockwise.  A
terrain piece is moved by its centre (its outline's area centroid), turned about it, and
its ``tall_part`` (walls) goes with it; an edited piece is written as a ``polygon`` (its
``rect``, if it had one, is dropped).  Mirroring the table (``mirror_table``) gives each
piece, objective and zone a twin turned 180 degrees about the table's centre, as the
tournament layouts are drawn (``maps/ca-layout-*``: A and A2); ``flip_table`` reflects
the whole table left to right, units too.  Plain arithmetic: the editor
asks nothing of Shapely (``twin_overlaps`` asks the geometry layer's layout check).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

from tabletop.board.bases import parse_base
from tabletop.board.state import Battlefield, Deployment, Objective, Terrain
from tabletop.board.templates import TEMPLATES, clean, placed
from tabletop.geometry.layout_checks import models_on_solid, terrain_overlaps
from tabletop.layout_io.place import area_centroid

__all__ = ["EDGES", "OBJECTIVE_MARKER", "FREE_POLYGON_KIND", "centre_of", "contains", "free_id",
           "add_piece", "add_polygon", "move_piece", "turn_piece", "mirror_piece",
           "mirror_table", "flip_table", "edge_distance", "add_objective", "add_zone",
           "remove", "piece_angle", "extent", "twin_overlaps"]

Pt = tuple[float, float]

EDGES = ("left", "right", "bottom", "top")

OBJECTIVE_MARKER = "40mm"
"""Named default: an objective dropped in the editor is a 40mm marker (the map format's
default marker); its range is the map's ``objective_range``."""

FREE_POLYGON_KIND = "obstacle"
"""Named default: the kind a free polygon is drawn as (``k`` cycles the kinds); an area
of the table that is neither a ruin nor a building is most often a low obstacle."""

TWIN_TOL_IN = 0.01
"""Named default: a piece whose twin (turned 180 degrees about the table centre) would
lie within this of itself or of another piece of its kind (inches, every vertex), or an
objective whose twin would lie within this of an objective, has its twin already and is
not doubled by ``M``."""


def _r(v: float) -> float:
    return clean(v)


def centre_of(poly: tuple[Pt, ...] | list[Pt]) -> Pt:
    """The area centroid of a ring, inches; the vertex mean when it has no area (the one
    shoelace the layout files use, ``layout_io.place.area_centroid``)."""
    return area_centroid(list(poly))


def contains(poly: tuple[Pt, ...], x: float, y: float) -> bool:
    """Whether (x, y) lies inside the ring ``poly`` (even-odd rule)."""
    inside = False
    n = len(poly)
    for i in range(n):
        x0, y0 = poly[i]
        x1, y1 = poly[(i + 1) % n]
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def extent(poly: tuple[Pt, ...]) -> tuple[float, float, float, float]:
    """(min x, min y, max x, max y) of a ring, inches."""
    xs, ys = [p[0] for p in poly], [p[1] for p in poly]
    return min(xs), min(ys), max(xs), max(ys)


def _taken(state: Battlefield) -> set[str]:
    return ({u.id for u in state.units} | {t.id for t in state.terrain}
            | {o.id for o in state.objectives})


def free_id(state: Battlefield, prefix: str) -> str:
    """``prefix-1``, ``prefix-2``, ... the first not used by a unit, piece or objective."""
    taken = _taken(state)
    n = 1
    while f"{prefix}-{n}" in taken:
        n += 1
    return f"{prefix}-{n}"


def piece_angle(t: Terrain) -> float:
    """The way a piece is turned, degrees in [0, 180): its ``rect`` angle when it has one,
    else the direction of its first side (templates are written with the first side along
    their width)."""
    if t.rect is not None:
        return float(t.rect.get("angle", 0.0)) % 180.0
    (x0, y0), (x1, y1) = t.polygon[0], t.polygon[1]
    return round(math.degrees(math.atan2(y1 - y0, x1 - x0)), 6) % 180.0


# ---------------------------------------------------------------- adding
def add_piece(state: Battlefield, key: str, centre: Pt, angle_deg: float = 0.0) -> tuple[Battlefield, str]:
    """A template piece (``board.templates.TEMPLATES[key]``) with its centre at ``centre``.

    Raises
    ------
    KeyError
        No template of that key.
    """
    tpl = TEMPLATES[key]
    tid = free_id(state, tpl.kind if tpl.kind != "obstacle" else key.split("-")[0])
    walls = tpl.wall_part()
    piece = Terrain(tid, tpl.kind, placed(tpl.outline(), centre, angle_deg), name=tpl.name,
                    tall_part=placed(walls, centre, angle_deg) if walls else None)
    return replace(state, terrain=state.terrain + (piece,)), tid


def add_polygon(state: Battlefield, points: list[Pt], kind: str = FREE_POLYGON_KIND) -> tuple[Battlefield, str]:
    """A free polygon of ``kind`` through ``points`` (table inches, 3 or more), made
    counter-clockwise.

    Raises
    ------
    ValueError
        Fewer than 3 points, an outline that crosses itself, or no area enclosed.
    """
    pts = [(_r(x), _r(y)) for x, y in points]
    if len(pts) < 3:
        raise ValueError("a polygon needs 3 points or more")
    area = sum(pts[i][0] * pts[(i + 1) % len(pts)][1] - pts[(i + 1) % len(pts)][0] * pts[i][1]
               for i in range(len(pts))) / 2
    if _crosses_itself(pts):
        raise ValueError("the outline crosses itself")
    if abs(area) < 1e-6:
        raise ValueError("the points enclose no area")
    if area < 0:
        pts.reverse()
    tid = free_id(state, "area")
    return replace(state, terrain=state.terrain + (Terrain(tid, kind, tuple(pts), name="free polygon"),)), tid


def _segments_meet(a: Pt, b: Pt, c: Pt, d: Pt) -> bool:
    """Whether the closed segments ab and cd share a point (orientation tests)."""
    def orient(p, q, r):
        v = (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
        return 0 if abs(v) < 1e-12 else (1 if v > 0 else -1)

    def on(p, q, r):        # r on segment pq, given collinear
        return min(p[0], q[0]) <= r[0] <= max(p[0], q[0]) and min(p[1], q[1]) <= r[1] <= max(p[1], q[1])
    o1, o2, o3, o4 = orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b)
    if o1 != o2 and o3 != o4:
        return True
    return ((o1 == 0 and on(a, b, c)) or (o2 == 0 and on(a, b, d))
            or (o3 == 0 and on(c, d, a)) or (o4 == 0 and on(c, d, b)))


def _crosses_itself(pts: list[Pt]) -> bool:
    """Whether two sides of the ring ``pts`` that are not neighbours meet (a bow-tie).
    Neighbouring sides share their corner only; all points on one line is not a
    crossing (it encloses no area, said as such)."""
    n = len(pts)
    if n < 4:
        return False
    for i in range(n):
        for j in range(i + 2, n):
            if i == 0 and j == n - 1:
                continue        # neighbours round the ring
            if _segments_meet(pts[i], pts[(i + 1) % n], pts[j], pts[(j + 1) % n]):
                a = sum(pts[k][0] * pts[(k + 1) % n][1] - pts[(k + 1) % n][0] * pts[k][1] for k in range(n))
                if all(abs((pts[k][0] - pts[0][0]) * (pts[1][1] - pts[0][1])
                           - (pts[k][1] - pts[0][1]) * (pts[1][0] - pts[0][0])) < 1e-9 for k in range(n)) \
                        and abs(a) < 1e-9:
                    return False        # collinear: no area, said as such
                return True
    return False


def add_objective(state: Battlefield, at: Pt) -> tuple[Battlefield, str]:
    """An objective marker (``OBJECTIVE_MARKER``) centred at ``at``."""
    oid = free_id(state, "obj")
    o = Objective(oid, (_r(at[0]), _r(at[1])), parse_base(OBJECTIVE_MARKER))
    return replace(state, objectives=state.objectives + (o,)), oid


def add_zone(state: Battlefield, player: str, polygon: tuple[Pt, ...], name: str | None = None) -> Battlefield:
    """A deployment zone of ``player``."""
    z = Deployment(player, tuple((_r(x), _r(y)) for x, y in polygon), name)
    return replace(state, deployment=state.deployment + (z,))


def remove(state: Battlefield, item: str) -> Battlefield:
    """Without the piece or objective ``item``, or the zone ``zone:k`` (k from 0)."""
    if item.startswith("zone:"):
        k = int(item.split(":", 1)[1])
        return replace(state, deployment=state.deployment[:k] + state.deployment[k + 1:])
    return replace(state, terrain=tuple(t for t in state.terrain if t.id != item),
                   objectives=tuple(o for o in state.objectives if o.id != item))


# ---------------------------------------------------------------- moving a piece
def _map_piece(state: Battlefield, tid: str, fn: Callable[[Pt], Pt], reverse: bool = False) -> Battlefield:
    def ring(pts):
        out = tuple((_r(p[0]), _r(p[1])) for p in (fn(q) for q in pts))
        return tuple(reversed(out)) if reverse else out
    terrain = tuple(replace(t, polygon=ring(t.polygon), rect=None,
                            tall_part=ring(t.tall_part) if t.tall_part else None)
                    if t.id == tid else t for t in state.terrain)
    return replace(state, terrain=terrain)


def move_piece(state: Battlefield, item: str, dx: float, dy: float) -> Battlefield:
    """The piece, objective or zone ``item`` moved by (dx, dy) inches."""
    if item.startswith("zone:"):
        k = int(item.split(":", 1)[1])
        z = state.deployment[k]
        z2 = replace(z, polygon=tuple((_r(x + dx), _r(y + dy)) for x, y in z.polygon))
        return replace(state, deployment=state.deployment[:k] + (z2,) + state.deployment[k + 1:])
    if any(o.id == item for o in state.objectives):
        return replace(state, objectives=tuple(
            replace(o, at=(_r(o.at[0] + dx), _r(o.at[1] + dy))) if o.id == item else o
            for o in state.objectives))
    return _map_piece(state, item, lambda p: (p[0] + dx, p[1] + dy))


def turn_piece(state: Battlefield, tid: str, delta_deg: float) -> Battlefield:
    """The piece turned ``delta_deg`` counter-clockwise about its centre."""
    cx, cy = centre_of(state.terrain_piece(tid).polygon)
    a = math.radians(delta_deg)
    c, s = math.cos(a), math.sin(a)
    return _map_piece(state, tid, lambda p: (cx + (p[0] - cx) * c - (p[1] - cy) * s,
                                             cy + (p[0] - cx) * s + (p[1] - cy) * c))


def mirror_piece(state: Battlefield, tid: str) -> Battlefield:
    """The piece mirrored in its own short axis (the line through its centre across its
    first side): a ruin's short wall goes to the other end, its long wall stays."""
    t = state.terrain_piece(tid)
    cx, cy = centre_of(t.polygon)
    a = math.radians(piece_angle(t))
    ux, uy = math.cos(a), math.sin(a)          # along the first side: this is negated

    def fn(p: Pt) -> Pt:
        vx, vy = p[0] - cx, p[1] - cy
        along = vx * ux + vy * uy
        return (cx + vx - 2 * along * ux, cy + vy - 2 * along * uy)
    return _map_piece(state, tid, fn, reverse=True)


def edge_distance(state: Battlefield, item: str, edge: str, distance: float) -> Battlefield:
    """The item moved square to ``edge`` so its nearest extent is ``distance`` inches from
    it ("left 6": its leftmost point 6" from the left edge); an objective's extent is its
    centre.

    Raises
    ------
    ValueError
        ``edge`` is not left, right, bottom or top.
    """
    if edge not in EDGES:
        raise ValueError(f"edge {edge!r}: give left, right, bottom or top")
    W, D = state.table.width, state.table.depth
    if item.startswith("zone:"):
        poly = state.deployment[int(item.split(":", 1)[1])].polygon
    elif any(o.id == item for o in state.objectives):
        poly = (state.objective(item).at,)
    else:
        poly = state.terrain_piece(item).polygon
    x0, y0, x1, y1 = extent(poly)
    dx = dy = 0.0
    if edge == "left":
        dx = distance - x0
    elif edge == "right":
        dx = (W - distance) - x1
    elif edge == "bottom":
        dy = distance - y0
    else:
        dy = (D - distance) - y1
    return move_piece(state, item, dx, dy)


# ---------------------------------------------------------------- the whole table
def _twin_id(tid: str, taken: set[str]) -> str:
    """``B`` -> ``B2`` as the shipped layouts name twins; an id ending in a digit
    (``ruin-1``) -> ``ruin-1-twin``; then ``-twin2``, ... while taken."""
    first = f"{tid}-twin" if tid[-1:].isdigit() else f"{tid}2"
    out, n = first, 2
    while out in taken:
        out, n = f"{tid}-twin{n}", n + 1
    return out


def _same_ring(a: tuple[Pt, ...], b: tuple[Pt, ...]) -> bool:
    return len(a) == len(b) and all(
        any(math.hypot(p[0] - q[0], p[1] - q[1]) <= TWIN_TOL_IN for q in b) for p in a)


def mirror_table(state: Battlefield) -> Battlefield:
    """Every terrain piece, objective and zone gets a twin turned 180 degrees about the
    table's centre, (x, y) -> (width - x, depth - y), unless it has one already: a piece
    whose image is a piece of the same kind (every vertex within ``TWIN_TOL_IN``; itself
    when it is centred and symmetric), an objective whose image is an objective, is not
    twinned, so ``M`` on a table mirrored before (or half mirrored) twins only what is new.  A twin's id is the id with ``2`` (``B`` ->
    ``B2``); a zone's twin goes to the other player (the tournament layouts' point
    symmetry: each side's half is the other's turned round) unless that player has a
    zone already."""
    W, D = state.table.width, state.table.depth

    def rot(p: Pt) -> Pt:
        return (_r(W - p[0]), _r(D - p[1]))
    taken = _taken(state)
    terrain = list(state.terrain)
    for t in state.terrain:
        poly = tuple(rot(p) for p in t.polygon)
        if any(u.kind == t.kind and _same_ring(u.polygon, poly) for u in state.terrain):
            continue        # its own twin, or twinned already (a table mirrored before)
        tid = _twin_id(t.id, taken)
        taken.add(tid)
        terrain.append(Terrain(tid, t.kind, poly, name=t.name,
                               tall_part=tuple(rot(p) for p in t.tall_part) if t.tall_part else None))
    objectives = list(state.objectives)
    for o in state.objectives:
        at = rot(o.at)
        if any(math.hypot(at[0] - q.at[0], at[1] - q.at[1]) <= TWIN_TOL_IN for q in state.objectives):
            continue        # on the centre, or twinned already
        oid = _twin_id(o.id, taken)
        taken.add(oid)
        objectives.append(replace(o, id=oid, at=at))
    zones = list(state.deployment)
    players = [p.id for p in state.players]
    zoned = {z.player for z in state.deployment}
    for z in state.deployment:
        other = next((p for p in players if p != z.player), z.player)
        if other in zoned:
            continue        # both sides have their zones already
        zones.append(Deployment(other, tuple(rot(p) for p in z.polygon),
                                f"{z.name} (twin)" if z.name else None))
    return replace(state, terrain=tuple(terrain), objectives=tuple(objectives), deployment=tuple(zones))


def piece_overlaps(state: Battlefield, tid: str) -> list[tuple[str, float]]:
    """``(other piece, square inches shared)`` for each piece of ``state`` that terrain piece
    ``tid`` overlaps by more than ``[rules] terrain_overlap_area`` - the same test ``check``
    warns with (``geometry.layout_checks.terrain_overlaps``), in map order.  Empty when
    ``tid`` is clear (or is no terrain piece)."""
    out = [(b if a == tid else a, area) for a, b, area in terrain_overlaps(state) if tid in (a, b)]
    order = [t.id for t in state.terrain]
    return sorted(out, key=lambda p: order.index(p[0]))


def models_under(state: Battlefield, tid: str) -> list[str]:
    """Model ids whose bases stand on terrain piece ``tid``'s walls or, for a barricade or
    building, its footprint (``geometry.layout_checks.models_on_solid``)."""
    return models_on_solid(state, tid)


def twin_overlaps(before: Battlefield, after: Battlefield) -> list[tuple[str, str]]:
    """``(twin, piece)`` for each piece ``mirror_table`` added to ``before`` (giving
    ``after``) that overlaps another piece (more than ``[rules] terrain_overlap_area`` square
    inches shared, ``geometry.layout_checks.terrain_overlaps``, the pairs ``check`` warns
    of), in the order the twins were added: ``M`` says so at once."""
    new = {t.id for t in after.terrain} - {t.id for t in before.terrain}
    out = []
    for a, b, _ in terrain_overlaps(after):
        if b in new:
            out.append((b, a))
        elif a in new:
            out.append((a, b))
    order = [t.id for t in after.terrain]
    return sorted(out, key=lambda p: (order.index(p[0]), order.index(p[1])))


def flip_table(state: Battlefield) -> Battlefield:
    """The whole table reflected left to right, (x, y) -> (width - x, y): terrain,
    objectives, zones and the units on it (each player's army stays in its zone, which
    flips with it); each ring is reversed to stay counter-clockwise."""
    W = state.table.width

    def ring(pts):
        return tuple(reversed([(_r(W - x), _r(y)) for x, y in pts]))
    terrain = tuple(replace(t, polygon=ring(t.polygon), rect=None,
                            tall_part=ring(t.tall_part) if t.tall_part else None)
                    for t in state.terrain)
    objectives = tuple(replace(o, at=(_r(W - o.at[0]), o.at[1])) for o in state.objectives)
    zones = tuple(replace(z, polygon=ring(z.polygon)) for z in state.deployment)
    units = tuple(_flip_unit(u, W) for u in state.units)
    return replace(state, terrain=terrain, objectives=objectives, deployment=zones, units=units)


def _flip_facing(deg: float) -> float:
    """A facing reflected left to right: 0 (east) <-> 180 (west), 90 stays."""
    return (180.0 - deg) % 360.0


def _flip_unit(u, W: float):
    """The unit reflected left to right with the table: each model's centre (x, y) ->
    (W - x, y) and its facing mirrored (an oval base is its mirror image); a rank-and-
    flank formation (front centre, facing and the layout it made) goes with it."""
    models = tuple(replace(m, x=_r(W - m.x), facing_deg=_flip_facing(m.facing_deg)) for m in u.models)
    f = u.formation
    if f is not None:
        f = replace(f, front_centre=(_r(W - f.front_centre[0]), f.front_centre[1]),
                    facing=_flip_facing(f.facing))
    layout = None if u.formation_layout is None else tuple(
        (_r(W - x), y, _flip_facing(a)) for x, y, a in u.formation_layout)
    return replace(u, models=models, formation=f, formation_layout=layout,
                   facing_deg=None if u.facing_deg is None else _flip_facing(u.facing_deg))
