"""Turning a rank-and-flank unit to face an enemy on its flank or rear, keeping base contact.

rank-and-flank-combat.txt Fleeing: "A unit still in contact with a single
enemy on its flank or rear turns to face it, ready for the next round."  A
player turns the unit so that its new front meets that enemy; it never walks
out of the fight by turning.

How (``face_turn``): the unit pivots as one block (``ranks.turn_to_face``:
its ranks and files, and so its rank bonus, are kept), its new front edge
laid on the line of the edge the enemy touches; then it slides along that
line so the new front is centred on the *contact stretch* (the part of that
edge the enemy's bases touch).  If that spot is not free (other bases,
impassable terrain, the table edge) it tries spots further along the line,
nearest first, as long as the new front still covers TURN_KEEP of the
contact stretch.  ``FaceTurn.options`` yields the spots in that order with
what blocks each; the rules keep the first free one whose snapshot still
shows the enemy on the unit's front, or leave the unit as it is.

Named defaults
--------------
TURN_LINE = "the line of the touched edge"
    The new front edge lies on the line of the edge the enemy touches (flush
    with the enemy's bases when they touch along an edge).
TURN_CENTRE = "the contact stretch"
    The new front is centred on the stretch of that edge the enemy touches.
TURN_KEEP = half a base
    Any spot tried keeps the new front over at least half the unit's base
    width of the contact stretch (all of it when the stretch is shorter), so
    the enemy stays in base contact along the new front, not at a corner.
TURN_SLIDE_STEP = 0.1
    Spots along the line are tried 0.1" apart.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from shapely.geometry import Polygon

from tabletop.geometry.footprints import base_polygon, shrunk
from tabletop.geometry.ranks import FLANKS, Placed, Point, turn_to_face

if TYPE_CHECKING:  # pragma: no cover
    from tabletop.geometry.snapshot import Geometry

TURN_LINE = "the line of the touched edge"
TURN_CENTRE = "the contact stretch"
TURN_KEEP = "half a base"
TURN_SLIDE_STEP = 0.1


@dataclass(frozen=True)
class FaceTurn:
    """How ``unit`` may turn to face ``enemy`` on its ``side``.

    ``facing_deg`` the unit's facing after the turn; ``axis`` the table
    direction along the touched edge (the unit's forward for a flank, its
    right for the rear); ``stretch`` (lo, hi) the contact stretch along
    ``axis`` measured from the unit's centre (inches); ``width`` the unit's
    frontage (inches); ``keep`` how much of the stretch the new front must
    cover (inches).  A ``slide`` is where the new front's middle lies along
    ``axis`` from the unit's centre (inches).
    """

    unit: str
    enemy: str
    side: str
    facing_deg: float
    axis: Point
    stretch: tuple[float, float]
    width: float
    keep: float

    @property
    def centred(self) -> float:
        """The slide that centres the new front on the contact stretch (TURN_CENTRE)."""
        return (self.stretch[0] + self.stretch[1]) / 2.0

    def covers(self, slide: float) -> float:
        """How much of the contact stretch the new front covers at ``slide`` (inches)."""
        lo, hi = self.stretch
        return min(hi, slide + self.width / 2.0) - max(lo, slide - self.width / 2.0)

    def slides(self) -> Iterator[float]:
        """Slides to try, nearest the centred one first (TURN_SLIDE_STEP apart), while
        the new front covers ``keep`` of the stretch (TURN_KEEP)."""
        c = self.centred
        yield c
        k = 1
        while True:
            any_ok = False
            for s in (c + k * TURN_SLIDE_STEP, c - k * TURN_SLIDE_STEP):
                if self.covers(s) >= self.keep - 1e-9:
                    any_ok = True
                    yield s
            if not any_ok:
                return
            k += 1

    def positions(self, geo: Geometry, slide: float) -> Placed:
        """``{model id: (x, y, facing)}`` with the new front's middle at ``slide``."""
        return turn_to_face(geo, self.unit, self.side, slide)

    def options(self, geo: Geometry) -> Iterator[tuple[float, Placed, list[str]]]:
        """``(slide, positions, problems)`` for every slide in order; ``problems``
        (``placement_problems``) is empty when the spot is free."""
        for s in self.slides():
            pos = self.positions(geo, s)
            yield s, pos, placement_problems(geo, self.unit, pos)


def contact_stretch_along(geo: Geometry, unit_id: str, enemy_unit: str, side: str,
                          axis: Point) -> tuple[float, float]:
    """(lo, hi): where ``enemy_unit``'s bases touch ``unit_id``'s ``side``, along
    ``axis`` from the unit's centre (inches).  Built from each touching pair's
    shared outline (``Geometry.contact_stretch``; a corner contact gives a point)."""
    form = geo.formation(unit_id)
    ox, oy = form.origin
    sides = geo.sides(unit_id)
    pairs = [c for c in sides.contacts if c.enemy_unit == enemy_unit and c.side == side]
    pairs = pairs or [c for c in sides.contacts if c.enemy_unit == enemy_unit]
    ts: list[float] = []
    for c in pairs:
        pts = geo.contact_stretch(c.model, c.enemy) or (geo.contact_point(c.model, c.enemy),)
        ts += [(x - ox) * axis[0] + (y - oy) * axis[1] for x, y in pts]
    if not ts:
        raise ValueError(f"{enemy_unit} does not touch {unit_id}")
    return min(ts), max(ts)


def face_turn(geo: Geometry, unit_id: str, enemy_unit: str) -> FaceTurn:
    """How ``unit_id`` turns to face ``enemy_unit``, which touches its flank or rear
    (see the module docstring).

    Raises
    ------
    ValueError
        When the enemy does not touch the unit, or touches its front.
    """
    form = geo.formation(unit_id)
    side = geo.sides(unit_id).enemy_sides.get(enemy_unit)
    if side is None or side == "front":
        raise ValueError(f"{enemy_unit} is not on the flank or rear of {unit_id}")
    axis = form.forward if side in FLANKS else form.right
    lo, hi = contact_stretch_along(geo, unit_id, enemy_unit, side, axis)
    keep = min(hi - lo, form.base_across / 2.0)
    return FaceTurn(unit_id, enemy_unit, side, form.side_facing_deg(side), axis, (lo, hi),
                    form.width, keep)


def placement_problems(geo: Geometry, unit_id: str, positions: Placed) -> list[str]:
    """Why the unit's models cannot stand at ``positions`` {id: (x, y, facing)}:
    one line per base of another unit overlapped, per impassable terrain piece
    entered, and one if any base is past a table edge (all by more than the
    tolerance).  Empty when the spot is free."""
    own = set(geo.unit_models(unit_id))
    tol = geo.tol
    w, d = geo.state.table.width, geo.state.table.depth
    blocks = [(t.id, t.kind, Polygon(t.polygon)) for t in geo.state.terrain if t.impassable]
    hit_bases: list[str] = []
    hit_terrain: list[str] = []
    off = False
    for mid, (x, y, f) in positions.items():
        p = base_polygon(geo.model(mid).base, x, y, f)
        minx, miny, maxx, maxy = p.bounds
        off = off or minx < -tol or miny < -tol or maxx > w + tol or maxy > d + tol
        inner = shrunk(p, tol / 2.0)
        for j in geo.tree.query(p).tolist():
            other = geo.ids[j]
            if other not in own and other not in hit_bases and \
                    inner.intersects(shrunk(geo.shapes[j], tol / 2.0)):
                hit_bases.append(other)
        inner_t = shrunk(p, tol)
        for tid, kind, poly in blocks:
            if f"{tid} ({kind})" not in hit_terrain and inner_t.intersects(poly):
                hit_terrain.append(f"{tid} ({kind})")
    out = []
    if hit_bases:
        out.append("it would overlap " + ", ".join(sorted(hit_bases, key=_id_key)))
    if hit_terrain:
        out.append("it would stand on impassable terrain " + ", ".join(hit_terrain))
    if off:
        out.append("it would stand past the table edge")
    return out


def _id_key(mid: str) -> tuple[str, int]:
    u, _, n = mid.rpartition("/")
    return (u, int(n)) if n.isdigit() else (mid, 0)


def slide_point(turn: FaceTurn, geo: Geometry, slide: float) -> Point:
    """The middle of the new front edge at ``slide`` (table inches)."""
    form = geo.formation(turn.unit)
    ox, oy = form.origin
    ux, uy = turn.axis
    n = form.outward(turn.side)
    reach = {"left": -form.left, "right": form.right_b, "rear": -form.rear}[turn.side]
    return (ox + n[0] * reach + ux * slide, oy + n[1] * reach + uy * slide)

