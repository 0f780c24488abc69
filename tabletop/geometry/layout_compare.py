"""A measured table against its published layout: every terrain piece, objective and
deployment zone, how far it moved and turned, and whether its walls face the right way.

Inches, bottom-left origin, y up; turns in degrees counter-clockwise.

*Matching*: an item of the measured table is paired with the published item of the
same id (a deployment zone's id is its player); what is left is paired by nearest
shape (the Hausdorff distance between outlines, greedy: the closest pair first) among
items of the same sort (terrain of the same kind), no further apart than
``layout_match_range``.  Published items left over are *missing*, measured ones *extra*.

*Offset* is how far the centre (area centroid; an objective's marker centre) moved.
*Turn* is the rotation that takes the published outline onto the measured one: the
turn of the outline's longest side, which is known only up to the shape's symmetry (a
rectangle looks the same turned 180 degrees); where the piece has a tall part (its
walls, ``tall_part``) the direction from the piece's centre to its walls settles which
of those turns it is, so a ruin turned round has a turn of 180 and ``walls`` "turned".
*Shape* is what is left after moving the published outline by that offset and turn:
the Hausdorff distance to the measured outline (a different piece, or a mis-measured
corner).  *Edges*: an organiser tapes a zone's or a piece's edges, above all a zone's
deployment line, so each edge is judged too: the Hausdorff distance between the outlines
once the turn is taken out (two rectangles sharing three edges are the fourth edge's
offset apart) is the edge offset, and when it is over the tolerance and more than the whole
move explains, the edge is named ("the edge facing the centre is 1.00\" out (19.00\" from the
right edge, published 18.00\")"): a zone 1" too wide moves its centre only 0.5".
An item is in place when offset, edges and shape are within ``layout_tolerance``
and the turn within ``layout_turn_tolerance`` (the published map's ``[rules]``), its
terrain kind is the published one, and its walls are as published: there (a piece
published with walls measured without them is off, and the other way round), as long
along the piece's long side (``tall_along``) and covering the same part of it once moved
back, all within ``layout_tolerance``.  Which way the walls face is told as a compass
point of the table (north = the top edge, y up): "walls face south, published west".

*Swapped ids*: two (or more) pieces matched by id that are both off, where each one's
outline is in place on the other's published piece, are paired the other way round and
counted in place (matched "by shape"), with the hint "ids swapped? B matches published
C": the table is right, the labels are not.

The measured table's size is compared too (``table_ok``): a 61" x 44" table against a
published 60" x 44" is reported, and the layout is then not in place.  With
``terrain_only`` the objectives and deployment zones are not compared (a table measured
for its terrain alone).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import shapely
from shapely import affinity
from shapely.geometry import Point, Polygon

from tabletop.board.state import Battlefield

__all__ = ["Item", "ItemDiff", "LayoutDiff", "Edge", "compare_layouts", "items_of", "compass",
           "furthest_edge", "LAYOUT_MATCH_RANGE", "SQUARE_SIDES", "EDGE_STEP", "EDGE_EXPLAINED"]

LAYOUT_MATCH_RANGE = 6.0
"""Named default: two items of different ids are the same piece only if their outlines
are no more than this apart (inches, Hausdorff); further apart, the published one is
missing and the measured one extra.  Half a large ruin's length (12"): a piece moved
further than that is better reported as not there."""

SQUARE_SIDES = 0.02
"""A piece whose sides differ by less than this share (2%) is square: it looks the same
turned 90 degrees, so its outline tells its turn only up to 90."""

EDGE_STEP = 0.25
"""Points this far apart (inches) along both outlines find where they stand furthest
apart (the Hausdorff distance itself is Shapely's, exact)."""

WALLS_SEEN = 0.05
"""A tall part whose centre is nearer than this (inches) to the piece's centre does not
say which way the piece faces (a ruin whose walls fill its footprint)."""


@dataclass(frozen=True)
class Item:
    """One thing on a table to compare: ``sort`` "terrain" | "objective" | "deployment"."""

    sort: str
    id: str
    kind: str                       # terrain kind; "objective"; "deployment"
    outline: Polygon                # an objective: its marker's disc
    centre: tuple[float, float]
    tall: Polygon | None = None     # terrain walls (``tall_part``)


@dataclass(frozen=True)
class ItemDiff:
    """How one measured item stands against the published one (inches, degrees)."""

    sort: str
    id: str                          # the measured item's id
    published_id: str
    matched_by: str                  # "id" | "shape"
    offset: float
    shift: tuple[float, float]
    turn_deg: float                  # (-180, 180]
    walls: str                       # "none" (no tall part to tell), "same", "turned"
    shape: float                     # outline left over after the offset and turn
    published_centre: tuple[float, float]
    measured_centre: tuple[float, float]
    ok: bool
    off: tuple[str, ...] = field(default=())    # why it is not in place, short phrases
    # where to draw its arrow (published -> measured): the walls' centres when the walls are
    # turned, the centres when it moved, else the corner the turn moved furthest
    arrow: tuple[tuple[float, float], tuple[float, float]] = ((0.0, 0.0), (0.0, 0.0))
    kind: str = ""                   # the measured item's kind; published_kind the layout's
    published_kind: str = ""
    outline_distance: float = 0.0    # Hausdorff between the outlines as they stand (inches)
    walls_length: float | None = None            # walls' extent along the long side (inches)
    published_walls_length: float | None = None
    walls_face: str | None = None                # compass point the walls face, e.g. "south"
    published_walls_face: str | None = None
    hint: str = ""                   # e.g. "ids swapped? B matches published C"
    edge_offset: float = 0.0         # the furthest any edge stands from the published one (inches)
    edge: str = ""                   # which published edge that is: "west", "facing the centre"
    edge_from: tuple[float, float] | None = None    # its offset from the nearer parallel table
    # edge (inches): (measured, published), when the edge runs along the table's sides
    edge_line: tuple[tuple[float, float], tuple[float, float]] | None = None   # published edge
    edge_arrow: tuple[tuple[float, float], tuple[float, float]] | None = None  # -> measured edge


@dataclass(frozen=True)
class LayoutDiff:
    tolerance: float
    turn_tolerance: float
    items: tuple[ItemDiff, ...]
    missing: tuple[Item, ...]        # published, not on the measured table
    extra: tuple[Item, ...]          # measured, not in the published layout
    table: tuple[float, float] = (0.0, 0.0)             # measured width, depth (inches)
    published_table: tuple[float, float] = (0.0, 0.0)
    terrain_only: bool = False

    @property
    def off(self) -> tuple[ItemDiff, ...]:
        return tuple(d for d in self.items if not d.ok)

    @property
    def table_ok(self) -> bool:
        """The measured table's width and depth are the published ones within the tolerance."""
        return all(abs(a - b) <= self.tolerance + 1e-9
                   for a, b in zip(self.table, self.published_table))

    @property
    def table_text(self) -> str | None:
        """``table 61" x 44", published 60" x 44"`` when the sizes differ, else None."""
        if self.table_ok:
            return None
        (w, d), (pw, pd) = self.table, self.published_table
        return f"table {w:g}\" x {d:g}\", published {pw:g}\" x {pd:g}\""

    @property
    def in_place(self) -> bool:
        return not self.off and not self.missing and not self.extra and self.table_ok


def items_of(state: Battlefield) -> list[Item]:
    """Every terrain piece, objective (as its marker's disc) and deployment zone of ``state``."""
    out: list[Item] = []
    for t in state.terrain:
        poly = Polygon(t.polygon)
        if not poly.is_valid or poly.area <= 0:
            continue
        tall = Polygon(t.tall_part) if t.tall_part else None
        c = poly.centroid
        out.append(Item("terrain", t.id, t.kind, poly, (c.x, c.y),
                        tall if tall is not None and tall.is_valid else None))
    for o in state.objectives:
        disc = Point(o.at).buffer(o.marker.radius, quad_segs=16)
        out.append(Item("objective", o.id, "objective", disc, (o.at[0], o.at[1])))
    seen: dict[str, int] = {}
    for z in state.deployment:
        poly = Polygon(z.polygon)
        if not poly.is_valid:
            continue
        seen[z.player] = seen.get(z.player, 0) + 1
        zid = z.player if seen[z.player] == 1 else f"{z.player}#{seen[z.player]}"
        c = poly.centroid
        out.append(Item("deployment", zid, "deployment", poly, (c.x, c.y)))
    return out


def _sides(poly: Polygon) -> list[tuple[float, float]]:
    rect = poly.minimum_rotated_rectangle
    xs, ys = rect.exterior.coords.xy
    return [(xs[k + 1] - xs[k], ys[k + 1] - ys[k]) for k in range(4)]


def _axis_deg(poly: Polygon) -> tuple[float, float]:
    """(angle of the longest side of the outline's smallest rectangle, symmetry period):
    period 180 for an oblong, 90 for a square."""
    sides = _sides(poly)
    long = max(sides, key=lambda v: math.hypot(*v))
    short = min(sides, key=lambda v: math.hypot(*v))
    lo, ls = math.hypot(*long), math.hypot(*short)
    period = 90.0 if lo <= 0 or (lo - ls) / lo < SQUARE_SIDES else 180.0
    return math.degrees(math.atan2(long[1], long[0])), period


def _wrap(deg: float, period: float = 360.0) -> float:
    """``deg`` in (-period/2, period/2]."""
    t = (deg + period / 2) % period - period / 2
    return period / 2 if t == -period / 2 else t


def _walls_dir(item: Item) -> float | None:
    if item.tall is None:
        return None
    c = item.tall.centroid
    dx, dy = c.x - item.centre[0], c.y - item.centre[1]
    if math.hypot(dx, dy) < WALLS_SEEN:
        return None
    return math.degrees(math.atan2(dy, dx))


def _turn(pub: Item, got: Item) -> tuple[float, str]:
    """(turn in degrees, walls "none" | "same" | "turned") taking ``pub`` onto ``got``."""
    if pub.sort == "objective":
        return 0.0, "none"
    a, period = _axis_deg(pub.outline)
    b, _ = _axis_deg(got.outline)
    turn = _wrap(b - a, period)
    wp, wg = _walls_dir(pub), _walls_dir(got)
    if wp is None or wg is None:
        return turn, "none"
    seen = _wrap(wg - wp)
    # of the turns the outline allows (turn + k * period), the one the walls agree with
    best = min((_wrap(turn + k * period) for k in range(int(360 / period))),
               key=lambda t: abs(_wrap(t - seen)))
    # the walls are turned when the outline alone would have looked in place (or nearer) by a
    # turn of its symmetry: the piece stands the other way round
    return best, ("same" if abs(_wrap(best - turn)) < 1e-6 else "turned")


_COMPASS = ("east", "north-east", "north", "north-west", "west", "south-west", "south",
            "south-east")


def compass(deg: float) -> str:
    """The nearest of eight compass points of the table for a direction ``deg`` degrees
    counter-clockwise from +x: north is the top edge (y up), east the right edge."""
    return _COMPASS[round((deg % 360.0) / 45.0) % 8]


def _long_axis(poly: Polygon) -> tuple[float, float]:
    """Unit vector along the longest side of the outline's smallest rectangle."""
    long = max(_sides(poly), key=lambda v: math.hypot(*v))
    n = math.hypot(*long) or 1.0
    return long[0] / n, long[1] / n


def _walls_length(item: Item) -> float | None:
    """How far the walls (tall part) reach along the piece's long side, inches: a measured
    ``tall_along = [0, 8]`` on a 12" ruin is 8"."""
    if item.tall is None:
        return None
    ux, uy = _long_axis(item.outline)
    along = [x * ux + y * uy for x, y in item.tall.exterior.coords]
    return max(along) - min(along)


def _walls_off(pub: Item, got: Item, turn: float, dx: float, dy: float, tol: float
               ) -> list[str]:
    """Why the walls are not as published (besides facing): missing, extra, another length,
    or standing elsewhere on the piece once moved back (Hausdorff, inches)."""
    if pub.tall is None and got.tall is None:
        return []
    if got.tall is None:
        return [f"no walls measured (published {_walls_length(pub):.2f}\" along)"]
    if pub.tall is None:
        return ["walls measured, none published"]
    lg, lp = _walls_length(got), _walls_length(pub)
    assert lg is not None and lp is not None      # both have walls (tall is not None above)
    if abs(lg - lp) > tol:
        return [f"walls {lg:.2f}\" long, published {lp:.2f}\""]
    back = affinity.translate(affinity.rotate(pub.tall, turn, origin=pub.centre), dx, dy)
    elsewhere = back.hausdorff_distance(got.tall)
    return [f"walls stand {elsewhere:.2f}\" from where published"] if elsewhere > tol else []


EDGE_EXPLAINED = 0.01
"""An edge out by no more than the item's whole move plus this (inches) is told by the move
("moved 1.00\"") alone; further out, the edge is told too: the piece or zone is a different
size or shape, not just somewhere else."""


@dataclass(frozen=True)
class Edge:
    """The published edge that stands furthest from the measured outline.

    ``distance`` is the Hausdorff distance between the outlines (inches); ``name`` the
    published edge's outward compass point ("west") or "facing the centre" (a deployment
    zone's edge towards the middle of the table: its deployment line); ``line`` the
    published edge's end points; ``arrow`` from that edge's middle to where the measured
    edge stands, square to it; ``from_table`` (measured, published) inches from the nearer
    table edge parallel to it, with ``table_edge`` naming that table edge ("right"), when
    the edge runs along the table's sides (else None and "")."""

    distance: float
    name: str
    line: tuple[tuple[float, float], tuple[float, float]]
    arrow: tuple[tuple[float, float], tuple[float, float]]
    from_table: tuple[float, float] | None = None
    table_edge: str = ""

    @property
    def text(self) -> str:
        """``the edge facing the centre is 1.00" out (19.00" from the right edge, published
        18.00")``."""
        name = "the edge facing the centre" if self.name == "facing the centre" \
            else f"the {self.name} edge"
        where = ""
        if self.from_table is not None:
            got, pub = self.from_table
            where = (f" ({got:.2f}\" from the {self.table_edge} edge, "
                     f"published {pub:.2f}\")")
        return f"{name} is {self.distance:.2f}\" out{where}"


def _sample(ring, step: float) -> list[tuple[float, float]]:
    return [(x, y) for x, y in shapely.segmentize(ring, step).coords]


def furthest_edge(published: Polygon, measured: Polygon,
                  table: tuple[float, float] | None = None, zone: bool = False) -> Edge:
    """Which edge of ``published`` stands furthest from ``measured``, and how far.

    The distance is the Hausdorff distance between the outlines (inches, Shapely's): two
    rectangles sharing three edges are that far apart by the fourth edge's offset.  Where
    the outlines are furthest apart is found on points ``EDGE_STEP`` apart along both; the
    published edge there (the one the gap runs most square to) is named by its outward
    compass point, or, for a deployment zone (``zone``) on a table of ``table`` (width,
    depth, inches), "facing the centre" when it faces within 45 degrees of the table's
    centre.  An edge running along the table's sides is also measured from the nearer
    parallel table edge.  Never raises for valid polygons; identical outlines give a
    distance of 0 and an empty name."""
    dist = float(shapely.hausdorff_distance(published, measured))
    pub = shapely.geometry.polygon.orient(published, 1.0)       # counter-clockwise
    if dist < 1e-9:
        c = pub.centroid
        return Edge(0.0, "", ((c.x, c.y), (c.x, c.y)), ((c.x, c.y), (c.x, c.y)))
    pb, gb = pub.exterior, measured.exterior
    pa, ga = _sample(pb, EDGE_STEP), _sample(gb, EDGE_STEP)
    dp = shapely.distance(shapely.points(pa), gb)
    dg = shapely.distance(shapely.points(ga), pb)
    ip, ig = int(dp.argmax()), int(dg.argmax())
    if dp[ip] >= dg[ig]:
        px, py = pa[ip]
    else:
        pp = pb.interpolate(pb.project(Point(ga[ig])))
        px, py = pp.x, pp.y
    # of the published sides through that point, the one whose square line meets the
    # measured outline furthest away: the edge that moved (not its neighbour at a corner)
    reach = dist * 2 + EDGE_STEP
    coords = list(pb.coords)
    best, best_out = None, -1.0
    for (ax, ay), (bx, by) in zip(coords, coords[1:]):
        n = math.hypot(bx - ax, by - ay)
        if n <= 0:
            continue
        seg = shapely.geometry.LineString([(ax, ay), (bx, by)])
        if seg.distance(Point(px, py)) > 1e-6:
            continue
        nx, ny = (by - ay) / n, -(bx - ax) / n              # outward (counter-clockwise ring)
        ray = shapely.geometry.LineString([(px - nx * reach, py - ny * reach),
                                           (px + nx * reach, py + ny * reach)])
        hits = [g for g in getattr(ray.intersection(measured.exterior), "geoms",
                                   [ray.intersection(measured.exterior)])
                if not g.is_empty]
        pts = [c for g in hits for c in g.coords]
        out = min(((cx - px) * nx + (cy - py) * ny for cx, cy in pts), key=abs, default=0.0)
        if best is None or abs(out) > best_out + 1e-9:
            best, best_out, best_signed = ((ax, ay), (bx, by), nx, ny), abs(out), out
    assert best is not None                                 # the point lies on a side
    a, b, nx, ny = best
    out = best_signed
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    arrow = ((mx, my), (mx + nx * out, my + ny * out))
    name = compass(math.degrees(math.atan2(ny, nx)))
    from_table, table_edge = None, ""
    if table is not None:
        w, d = table
        if zone:
            cx, cy = w / 2 - mx, d / 2 - my
            if math.hypot(cx, cy) > 0 and (cx * nx + cy * ny) / math.hypot(cx, cy) > math.cos(
                    math.radians(45)):
                name = "facing the centre"
        if abs(a[0] - b[0]) < 1e-9:                       # runs up and down the table
            x_pub, x_got = a[0], a[0] + nx * out
            from_table, table_edge = ((x_got, x_pub), "left") if x_pub <= w - x_pub \
                else ((w - x_got, w - x_pub), "right")
        elif abs(a[1] - b[1]) < 1e-9:                     # runs across
            y_pub, y_got = a[1], a[1] + ny * out
            from_table, table_edge = ((y_got, y_pub), "bottom") if y_pub <= d - y_pub \
                else ((d - y_got, d - y_pub), "top")
    return Edge(dist, name, (a, b), arrow, from_table, table_edge)


def _diff(pub: Item, got: Item, by: str, tol: float, turn_tol: float,
          table: tuple[float, float] | None = None) -> ItemDiff:
    dx, dy = got.centre[0] - pub.centre[0], got.centre[1] - pub.centre[1]
    offset = math.hypot(dx, dy)
    turn, walls = _turn(pub, got)
    turn = turn + 0.0 if abs(turn) >= 5e-3 else 0.0         # never "-0.0 deg"
    moved = affinity.translate(affinity.rotate(pub.outline, turn, origin=pub.centre), dx, dy)
    shape = moved.hausdorff_distance(got.outline)
    off = []
    if got.kind != pub.kind:
        off.append(f"kind {got.kind}, published {pub.kind}")
    if offset > tol:
        off.append(f"moved {offset:.2f}\"")
    if abs(turn) > turn_tol:
        off.append(f"turned {turn:+.0f} deg")
    wp, wg = _walls_dir(pub), _walls_dir(got)
    face_g = compass(wg) if wg is not None else None
    face_p = compass(wp) if wp is not None else None
    if walls == "turned":
        off.append("walls on the wrong side")
    if wp is not None and wg is not None and abs(_wrap(wg - wp)) > turn_tol:
        off.append(f"walls face {face_g}, published {face_p}")
    # each edge judged where it stands, once the turn (told on its own) is taken out
    turned = affinity.rotate(pub.outline, turn, origin=pub.centre) if turn else pub.outline
    edge = furthest_edge(turned, got.outline, table, zone=pub.sort == "deployment")
    edge_told = (pub.sort != "objective" and edge.distance > tol
                 and edge.distance > offset + EDGE_EXPLAINED)
    if edge_told:
        off.append(edge.text)
    if shape > tol and not edge_told:
        # (an edge already told says more: "outline differs by 1.00"" beside "the edge ...
        # is 2.00" out" read as a contradiction)
        off.append(f"outline differs by {shape:.2f}\"")
    if pub.sort == "terrain":
        off += _walls_off(pub, got, turn, dx, dy, tol)
    return ItemDiff(pub.sort, got.id, pub.id, by, offset, (dx, dy), turn, walls, shape,
                    pub.centre, got.centre, not off, tuple(off),
                    _arrow(pub, got, turn, walls, offset > tol),
                    kind=got.kind, published_kind=pub.kind,
                    outline_distance=pub.outline.hausdorff_distance(got.outline),
                    walls_length=_walls_length(got), published_walls_length=_walls_length(pub),
                    walls_face=face_g, published_walls_face=face_p,
                    edge_offset=edge.distance, edge=edge.name, edge_from=edge.from_table,
                    edge_line=edge.line, edge_arrow=edge.arrow)


def _arrow(pub: Item, got: Item, turn: float, walls: str, moved: bool
           ) -> tuple[tuple[float, float], tuple[float, float]]:
    if walls == "turned" and pub.tall is not None and got.tall is not None:
        a, b = pub.tall.centroid, got.tall.centroid
        return (a.x, a.y), (b.x, b.y)
    if moved or pub.sort == "objective":
        return pub.centre, got.centre
    t = math.radians(turn)
    cx, cy = pub.centre
    dx, dy = got.centre[0] - cx, got.centre[1] - cy
    best = (pub.centre, got.centre)
    far = -1.0
    for x, y in list(pub.outline.exterior.coords)[:-1]:
        nx = cx + (x - cx) * math.cos(t) - (y - cy) * math.sin(t) + dx
        ny = cy + (x - cx) * math.sin(t) + (y - cy) * math.cos(t) + dy
        if math.hypot(nx - x, ny - y) > far:
            far, best = math.hypot(nx - x, ny - y), ((x, y), (nx, ny))
    return best


def _matchable(a: Item, b: Item) -> bool:
    return a.sort == b.sort and a.kind == b.kind


def _unswap(pubs: list[Item], gots: list[Item], pairs: dict[int, tuple[int, str]],
            tol: float, turn_tol: float) -> dict[int, str]:
    """Re-pair pieces whose ids were swapped: among the id-matched items that are off, a
    measured item whose outline is in place on another off item's published piece points
    at it; every closed cycle of such pointers (B -> C -> B) is paired round the cycle.
    Changes ``pairs``; returns the hint for each re-paired published index."""
    off = [i for i, (j, by) in pairs.items()
           if by == "id" and not _diff(pubs[i], gots[j], by, tol, turn_tol).ok]
    points: dict[int, int] = {}        # published i (its measured item) -> published k it fits
    for i in off:
        g = gots[pairs[i][0]]
        fits = [k for k in off if k != i and _matchable(pubs[k], g)
                and _diff(pubs[k], g, "shape", tol, turn_tol).ok]
        if fits:
            points[i] = min(fits, key=lambda k: math.dist(pubs[k].centre, g.centre))
    hints: dict[int, str] = {}
    done: set[int] = set()
    for start in points:
        cycle, i = [], start
        while i in points and i not in done and i not in cycle:
            cycle.append(i)
            i = points[i]
        if i != start or len(cycle) < 2:
            continue
        new = {points[i]: pairs[i][0] for i in cycle}
        for k, j in new.items():
            pairs[k] = (j, "shape")
            hints[k] = f"ids swapped? {gots[j].id} matches published {pubs[k].id}"
        done.update(cycle)
    return hints


def compare_layouts(measured: Battlefield, published: Battlefield, *,
                    tolerance: float | None = None, turn_tolerance: float | None = None,
                    match_range: float = LAYOUT_MATCH_RANGE,
                    terrain_only: bool = False) -> LayoutDiff:
    """Compare every terrain piece, objective and deployment zone of a measured table
    with the published layout.

    Parameters
    ----------
    measured, published : Battlefield
        The table as measured, and the published layout (its ``[rules]``
        ``layout_tolerance`` / ``layout_turn_tolerance`` are the defaults).
    tolerance : float, optional
        Inches an item's centre (and its outline and walls, once moved back) may be off.
    turn_tolerance : float, optional
        Degrees an item may be turned.
    match_range : float
        Inches (Hausdorff) within which items of different ids pair by shape.
    terrain_only : bool
        Compare the terrain alone (objectives and deployment zones are left out).

    Returns
    -------
    LayoutDiff
        ``items`` in the published layout's order (terrain, objectives, zones),
        ``missing`` and ``extra`` items, both tables' sizes.
    """
    tol = published.rules.layout_tolerance if tolerance is None else tolerance
    turn_tol = (published.rules.layout_turn_tolerance if turn_tolerance is None
                else turn_tolerance)
    pubs, gots = items_of(published), items_of(measured)
    if terrain_only:
        pubs = [p for p in pubs if p.sort == "terrain"]
        gots = [g for g in gots if g.sort == "terrain"]
    pairs: dict[int, tuple[int, str]] = {}
    by_key = {(g.sort, g.id): j for j, g in enumerate(gots)}
    for i, p in enumerate(pubs):
        j = by_key.get((p.sort, p.id))
        if j is not None:
            pairs[i] = (j, "id")
    hints = _unswap(pubs, gots, pairs, tol, turn_tol)
    used = {j for j, _ in pairs.values()}
    costs = sorted((p.outline.hausdorff_distance(g.outline), i, j)
                   for i, p in enumerate(pubs) if i not in pairs
                   for j, g in enumerate(gots) if j not in used and _matchable(p, g))
    for cost, i, j in costs:                 # greedy: the nearest pair first
        if cost > match_range:
            break
        if i in pairs or j in used:
            continue
        pairs[i] = (j, "shape")
        used.add(j)
    diffs = []
    for i in range(len(pubs)):
        if i in pairs:
            d = _diff(pubs[i], gots[pairs[i][0]], pairs[i][1], tol, turn_tol,
                      (published.table.width, published.table.depth))
            if i in hints:
                d = replace(d, hint=hints[i])
            diffs.append(d)
    missing = tuple(p for i, p in enumerate(pubs) if i not in pairs)
    extra = tuple(g for j, g in enumerate(gots) if j not in used)
    return LayoutDiff(tol, turn_tol, tuple(diffs), missing, extra,
                      (measured.table.width, measured.table.depth),
                      (published.table.width, published.table.depth), terrain_only)
