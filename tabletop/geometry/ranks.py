"""Rank-and-flank unit geometry: the grid of bases, its four edges, who touches which side.

Coordinates are inches, origin bottom-left, y up; facing in degrees
counter-clockwise from +x.  A unit's *local frame* has ``a`` along its facing
(forward positive) and ``b`` across it (to the unit's right positive), origin
the centre of the unit's bounding rectangle in that frame.

What this module answers (rank-and-flank-combat.txt "Who attacks",
"Combat score", "Fleeing"; measurements.csv TOW "Arcs" and "Fighting rank"):

- ``UnitFormation``: the unit as ranks x files behind a front edge, the facing
  taken from its models' facings (their circular mean), the four edges
  (front, left flank, right flank, rear) as segments, ranks counted from the
  models left, and the arc (front / left / right / rear quadrant, split by
  45 degree lines from the corners) a point stands in.
- ``UnitSides``: per model in base contact with an enemy, which side of the
  unit the contact lies on; per enemy unit, the one side it touches; whether
  the unit is disrupted or surrounded.  ``restricted(alive)`` gives the same
  answers after casualties without touching Shapely again (models that
  survive a round do not move).
- Moves the combat rules need: ``turn_to_face`` (rigid pivot about the centre,
  the new front edge laid on the line of the edge the enemy touches, slid
  along it; ``geometry.turns.face_turn`` picks the slide that keeps base
  contact), ``flee_move``
  (turn directly away, run the full Move, keep going past other bases until
  clear, report leaving the table) and ``away_direction``.

Named defaults
--------------
EDGE_MIN_TOL = 3
    A contact counts as along an edge when the enemy's base covers more than
    3 x the map tolerance of that edge; anything shorter is a corner contact,
    which goes to the front if the model's front is among the edges touched,
    else to its flank, else the rear ("a model on a corner fights to its front
    if it can, otherwise to its flank").
SIDE_PREFERENCE = ("front", "left", "right", "rear")
    Order used to break ties (corner contacts, equal lengths).
ARC_ON_LINE = SIDE_PREFERENCE
    A point within the contact tolerance of the 45 degree line between two
    arcs stands on that line and is in the first of them in this order: the
    front, then a flank, then the rear (a charger squarely on the corner's
    line hits the side it can reach face on, as corner contacts do).
UNIT_SIDE = "longest contact"
    The side an enemy *unit* touches is the side where the most of its
    contact length lies (ties by SIDE_PREFERENCE): a frontal enemy whose end
    model brushes the corner does not count as a flank attack.
FLEE_AWAY = "opposite the touched sides, weighted by contact length"
    "Directly away from the enemy it was fighting" is read from the unit's own
    sides, not from centroids (which tilt with lopsided casualties or an
    enemy touching off centre): the opposite of the outward normal of the
    side the enemy touches; with enemies on several sides, the sum of those
    directions weighted by the length of base contact on each side (corner
    contacts count 1 each when nothing touches along an edge).
FLEE_CLEAR_STEP = 0.25
    A fleeing unit that would end on top of other bases keeps running in
    steps of 0.25" along the same line until it is clear (or off the table).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import shapely
from shapely.geometry import LineString

from tabletop.geometry.footprints import base_polygon, shrunk
from tabletop.geometry.tolerance import within

if TYPE_CHECKING:  # pragma: no cover
    from tabletop.geometry.snapshot import Geometry

SIDES = ("front", "left", "right", "rear")
FLANKS = ("left", "right")
SIDE_PREFERENCE = ("front", "left", "right", "rear")
ARC_ON_LINE = SIDE_PREFERENCE
EDGE_MIN_TOL = 3.0
UNIT_SIDE = "longest contact"
FLEE_AWAY = "opposite the touched sides, weighted by contact length"
FLEE_CLEAR_STEP = 0.25
FLEE_CLEAR_MAX = 200.0

Point = tuple[float, float]


def _unit_vectors(facing_deg: float) -> tuple[Point, Point]:
    t = math.radians(facing_deg)
    return (math.cos(t), math.sin(t)), (math.sin(t), -math.cos(t))


def norm_deg(deg: float) -> float:
    """``deg`` in [0, 360): -1e-14 is 0, not 360."""
    r = deg % 360.0
    return 0.0 if r > 360.0 - 1e-9 else r


def circular_mean_deg(angles: Iterable[float]) -> float:
    """Mean direction of angles in degrees, in [0, 360)."""
    s = c = 0.0
    for a in angles:
        s += math.sin(math.radians(a))
        c += math.cos(math.radians(a))
    if abs(s) < 1e-12 and abs(c) < 1e-12:
        return 90.0
    return norm_deg(math.degrees(math.atan2(s, c)))


def side_of_angle(rel_deg: float) -> str:
    """The quadrant of a direction ``rel_deg`` degrees counter-clockwise from the facing.

    Within 45 degrees of the facing is the front, 45..135 the left, -45..-135
    the right, the rest the rear (boundaries go to the front/flank side).
    """
    r = (rel_deg + 180.0) % 360.0 - 180.0
    if abs(r) <= 45.0 + 1e-9:
        return "front"
    if 45.0 < r <= 135.0 + 1e-9:
        return "left"
    if -135.0 - 1e-9 <= r < -45.0:
        return "right"
    return "rear"


@dataclass(frozen=True)
class Placement:
    """Where one model stands in its unit's grid.

    ``rank`` is 1 for the front rank; ``order`` is 0 for the leftmost model of
    its rank; ``file`` the column as a float (1.0 = the unit's leftmost column;
    a partial rank centred behind a wider one sits on half columns); ``a`` and
    ``b`` the model's centre in the unit's local frame (inches); ``half_b``
    half its base's width across the unit (inches).
    """

    model: str
    rank: int
    order: int
    file: float
    a: float
    b: float
    half_b: float = 0.0


@dataclass
class UnitFormation:
    """A rank-and-flank unit as its grid of bases (see the module docstring).

    Attributes
    ----------
    unit, player : str
    facing_deg : float
        The circular mean of its models' facings.
    origin : (x, y)
        Centre of its bounding rectangle in the local frame (table inches).
    forward, right : (x, y)
        Unit vectors of the local frame.
    front, rear, left, right_b : float
        Extents in the local frame: ``a`` of the front and rear edges, ``b``
        of the left and right flank edges (inches; rear and left negative).
    placements : {model id: Placement}
    commanders : tuple of model ids with ``role = "commander"``
    base_along, base_across : float
        The unit's own base depth and frontage (inches), the grid spacing.
    tol : float
        The map's contact tolerance (inches): how far a base may stand off an
        edge and still lie on it.
    """

    unit: str
    player: str
    facing_deg: float
    origin: Point
    forward: Point
    right: Point
    front: float
    rear: float
    left: float
    right_b: float
    placements: dict[str, Placement]
    commanders: tuple[str, ...]
    base_along: float
    base_across: float
    tol: float = 0.02

    # --------------------------------------------------------------- frame
    def to_table(self, a: float, b: float) -> Point:
        """Local (a, b) -> table (x, y)."""
        ox, oy = self.origin
        return (ox + a * self.forward[0] + b * self.right[0],
                oy + a * self.forward[1] + b * self.right[1])

    def to_local(self, x: float, y: float) -> Point:
        """Table (x, y) -> local (a, b)."""
        dx, dy = x - self.origin[0], y - self.origin[1]
        return (dx * self.forward[0] + dy * self.forward[1],
                dx * self.right[0] + dy * self.right[1])

    @property
    def width(self) -> float:
        """Frontage of the bounding rectangle, inches."""
        return self.right_b - self.left

    @property
    def depth(self) -> float:
        """Depth of the bounding rectangle, inches."""
        return self.front - self.rear

    @property
    def front_centre(self) -> Point:
        """The middle of the front edge (table inches)."""
        return self.to_table(self.front, (self.left + self.right_b) / 2.0)

    def corners(self) -> dict[str, Point]:
        """``front_left``, ``front_right``, ``rear_right``, ``rear_left`` (table inches)."""
        return {
            "front_left": self.to_table(self.front, self.left),
            "front_right": self.to_table(self.front, self.right_b),
            "rear_right": self.to_table(self.rear, self.right_b),
            "rear_left": self.to_table(self.rear, self.left),
        }

    def edges(self) -> dict[str, tuple[Point, Point]]:
        """The four edges as segments (table inches), each drawn left to right as seen from outside."""
        c = self.corners()
        return {
            "front": (c["front_left"], c["front_right"]),
            "right": (c["front_right"], c["rear_right"]),
            "rear": (c["rear_right"], c["rear_left"]),
            "left": (c["rear_left"], c["front_left"]),
        }

    def outward(self, side: str) -> Point:
        """Unit vector pointing out of ``side``."""
        fx, fy = self.forward
        rx, ry = self.right
        return {"front": (fx, fy), "rear": (-fx, -fy), "right": (rx, ry), "left": (-rx, -ry)}[side]

    def side_facing_deg(self, side: str) -> float:
        """The facing the unit would have if ``side`` became its front."""
        ox, oy = self.outward(side)
        return norm_deg(math.degrees(math.atan2(oy, ox)))

    def arc_of(self, x: float, y: float) -> str:
        """The arc the point (x, y) stands in: "front", "left", "right" or "rear".

        Arcs are the four quadrants bounded by lines at 45 degrees from the
        corners (measurements.csv TOW "Arcs"): the point is in the front arc
        when it is further in front of the front edge than it is beyond either
        flank, and so on.  A point within the map's contact tolerance ``tol``
        of a dividing line is on it and goes to the arc named first in
        ARC_ON_LINE (front, then flank, then rear).
        """
        a, b = self.to_local(x, y)
        excess = {
            "front": a - self.front,
            "left": self.left - b,
            "right": b - self.right_b,
            "rear": self.rear - a,
        }
        best = max(excess.values())
        # a point within ``tol`` of a dividing line (perpendicular distance: the excesses
        # differ by sqrt(2) x that distance) stands on it: ARC_ON_LINE decides
        slack = self.tol * math.sqrt(2.0)
        for side in ARC_ON_LINE:
            if excess[side] >= best - slack:
                return side
        return "front"  # pragma: no cover

    def arc_lines(self, length: float = 6.0) -> dict[str, tuple[Point, Point]]:
        """The 45-degree arc boundaries from each corner, ``length`` inches long (for drawing)."""
        d = length / math.sqrt(2.0)
        out = {}
        for name, (a, b, sa, sb) in {
            "front_left": (self.front, self.left, 1, -1),
            "front_right": (self.front, self.right_b, 1, 1),
            "rear_right": (self.rear, self.right_b, -1, 1),
            "rear_left": (self.rear, self.left, -1, -1),
        }.items():
            out[name] = (self.to_table(a, b), self.to_table(a + sa * d, b + sb * d))
        return out

    # --------------------------------------------------------------- grid
    def models(self, alive: Iterable[str] | None = None) -> list[str]:
        keep = None if alive is None else set(alive)
        return [m for m in self.placements if keep is None or m in keep]

    def rank_rows(self, alive: Iterable[str] | None = None,
                  include_commanders: bool = True) -> list[list[str]]:
        """Models per rank, front to back, each rank left to right (empty ranks dropped)."""
        keep = None if alive is None else frozenset(alive)
        memo = self.__dict__.setdefault("_rows", {})
        key = (keep, include_commanders)
        if key not in memo:
            memo[key] = self._rank_rows(keep, include_commanders)
        return [list(r) for r in memo[key]]

    def _rank_rows(self, keep: frozenset[str] | None, include_commanders: bool) -> list[list[str]]:
        rows: dict[int, list[Placement]] = {}
        for p in self.placements.values():
            if keep is not None and p.model not in keep:
                continue
            if not include_commanders and p.model in self.commanders:
                continue
            rows.setdefault(p.rank, []).append(p)
        return [[p.model for p in sorted(rows[r], key=lambda p: p.b)] for r in sorted(rows)]

    def rank_count(self, alive: Iterable[str] | None = None) -> int:
        """How many ranks deep the unit is (ranks with any model left)."""
        return len(self.rank_rows(alive))

    def files(self, alive: Iterable[str] | None = None) -> int:
        """How many models wide the unit is: the models in its front rank."""
        rows = self.rank_rows(alive)
        return len(rows[0]) if rows else 0

    def full_ranks_behind(self, min_models: int, alive: Iterable[str] | None = None) -> int:
        """Ranks behind the front rank with at least ``min_models`` models, counted
        front to back and stopping at the first short rank (a rank only counts
        while the ranks in front of it count)."""
        rows = self.rank_rows(alive)
        n = 0
        for row in rows[1:]:
            if len(row) < min_models:
                break
            n += 1
        return n

    def rank_of(self, model_id: str) -> int:
        return self.placements[model_id].rank

    def flank_file(self, side: str, alive: Iterable[str] | None = None,
                   include_commanders: bool = True) -> list[str]:
        """The models along one flank ("left" or "right"), front to back: the
        outermost model of each rank whose base lies on that flank edge of the
        living models' outline (within ``tol``).  A short rank centred behind
        wider ones has no model on the flank (rank-and-flank-combat.txt Who
        attacks/Flank: "Every model along the engaged flank").
        """
        keep = None if alive is None else set(alive)
        pl = self.placements
        sign = -1.0 if side == "left" else 1.0      # outward along b

        def outer(m: str) -> float:                 # how far out its base reaches
            return sign * pl[m].b + pl[m].half_b

        living = [m for m in pl if keep is None or m in keep]
        if not living:
            return []
        edge = max(outer(m) for m in living)
        out = []
        for row in self.rank_rows(keep, include_commanders):
            end = row[0] if side == "left" else row[-1]
            if within(edge - outer(end), 0.0, self.tol):
                out.append(end)
        return out

    def casualty_order(self, alive: Iterable[str] | None = None) -> list[str]:
        """Rank-and-file models in the order they are removed: rear rank first,
        from the ends of the rank inwards (right end first), so a shrinking rear
        rank stays centred; commanders are not listed."""
        out = []
        for row in reversed(self.rank_rows(alive, include_commanders=False)):
            lo, hi = 0, len(row) - 1
            while lo <= hi:
                out.append(row[hi])
                if lo != hi:
                    out.append(row[lo])
                lo, hi = lo + 1, hi - 1
        return out


    def step_up(self, removed: Iterable[str], alive: Iterable[str],
                keep_out: Iterable[str] = ()) -> list[tuple[str, str]]:
        """Who steps into the places of ``removed`` models that leave a gap in a
        rank with a rank behind it: ``[(mover, dead)]``, the mover the next
        rank-and-file model ``casualty_order`` would remove (rear rank first).
        Named default STEP_UP: the ranks close up front to back, as "another
        model steps into their place" (character-challenge.txt).  Commanders
        and models in ``keep_out`` never step up."""
        keep = set(alive)
        out: list[tuple[str, str]] = []
        if not keep:
            return out
        slots = self.placements
        deepest = max(slots[m].rank for m in keep)
        gaps = [m for m in removed if slots[m].rank < deepest]
        if not gaps:          # the usual case: casualties came off the rear rank
            return out
        slots = dict(slots)
        frozen = set(keep_out) | set(self.commanders)
        for dead in sorted(gaps, key=lambda m: (slots[m].rank, slots[m].b)):
            gap = slots[dead]
            movers = [m for m in self._order_by(slots, keep) if m not in frozen
                      and slots[m].rank > gap.rank]
            if not movers:
                continue
            mover = movers[0]
            out.append((mover, dead))
            slots[mover] = replace(gap, model=mover)
        return out

    @staticmethod
    def _order_by(slots: dict[str, Placement], keep: set[str]) -> list[str]:
        rows: dict[int, list[Placement]] = {}
        for m in keep:
            rows.setdefault(slots[m].rank, []).append(slots[m])
        out = []
        for r in sorted(rows, reverse=True):
            row = sorted(rows[r], key=lambda p: p.b)
            lo, hi = 0, len(row) - 1
            while lo <= hi:
                out.append(row[hi].model)
                if lo != hi:
                    out.append(row[lo].model)
                lo, hi = lo + 1, hi - 1
        return out

    def after_steps(self, steps: list[tuple[str, str]]) -> UnitFormation:
        """The formation once each mover stands where its dead model stood."""
        if not steps:
            return self
        places = dict(self.placements)
        for mover, dead in steps:
            places[mover] = replace(places[dead], model=mover)
        return replace(self, placements=places)


STEP_UP = "rear rank closes the gap"


def formation_of(geo: Geometry, unit_id: str) -> UnitFormation:
    """The rank-and-flank formation of ``unit_id`` read from its models' bases.

    The facing is the circular mean of the models' facings; ranks are rows of
    bases counted from the front edge in steps of the unit's base depth;
    files are the models in the front rank.

    Raises
    ------
    UnknownIdError
        When the unit has no models on the table.
    """
    from tabletop.errors import UnknownIdError

    ids = geo.unit_models(unit_id)
    if not ids:
        raise UnknownIdError(f"no unit {unit_id!r} on the table")
    unit = geo.state.unit(unit_id)
    models = [geo.model(m) for m in ids]
    facing = circular_mean_deg(m.facing_deg for m in models)
    fwd, rgt = _unit_vectors(facing)
    x0, y0 = models[0].x, models[0].y

    def local(x: float, y: float) -> Point:
        dx, dy = x - x0, y - y0
        return dx * fwd[0] + dy * fwd[1], dx * rgt[0] + dy * rgt[1]

    loc = {}
    fronts, backs, lefts, rights = [], [], [], []
    for m in models:
        a, b = local(m.x, m.y)
        half_a = m.base.along / 2.0 if not m.base.is_round else m.base.radius
        half_b = m.base.across / 2.0 if not m.base.is_round else m.base.radius
        loc[m.id] = (a, b, half_a, half_b)
        fronts.append(a + half_a)
        backs.append(a - half_a)
        lefts.append(b - half_b)
        rights.append(b + half_b)
    front, rear, left, right = max(fronts), min(backs), min(lefts), max(rights)
    ca, cb = (front + rear) / 2.0, (left + right) / 2.0
    origin = (x0 + ca * fwd[0] + cb * rgt[0], y0 + ca * fwd[1] + cb * rgt[1])
    along = unit.base.along if not unit.base.is_round else 2 * unit.base.radius
    across = unit.base.across if not unit.base.is_round else 2 * unit.base.radius
    rows: dict[int, list[tuple[str, float, float]]] = {}
    for mid, (a, b, half_a, _half_b) in loc.items():
        depth = front - (a + half_a)
        rank = round(depth / along) + 1 if along > 0 else 1
        rows.setdefault(rank, []).append((mid, a - ca, b - cb))
    placements = {}
    for rank, row in rows.items():
        for order, (mid, a, b) in enumerate(sorted(row, key=lambda t: t[1])):
            half_b = loc[mid][3]
            file = (b - half_b - (left - cb)) / across + 1.0 if across > 0 else 1.0
            placements[mid] = Placement(mid, rank, order, round(file, 3), a, b, half_b)
    placements = dict(sorted(placements.items(), key=lambda kv: (kv[1].rank, kv[1].order)))
    commanders = tuple(m.id for m in models if (m.role or "") == "commander")
    return UnitFormation(
        unit=unit_id, player=unit.player, facing_deg=facing, origin=origin,
        forward=fwd, right=rgt, front=front - ca, rear=rear - ca, left=left - cb,
        right_b=right - cb, placements=placements, commanders=commanders,
        base_along=along, base_across=across, tol=geo.tol)


# ------------------------------------------------------------------ contacts
@dataclass(frozen=True)
class SideContact:
    """One model of the unit in base contact with one enemy model.

    ``side`` is the side of the *unit* the contact lies on; ``length`` how
    much of that model's edge the enemy base covers (inches; 0 for a corner
    contact or a round base); ``sides`` every side of the model the enemy
    touches (a corner contact touches two).
    """

    model: str
    enemy: str
    enemy_unit: str
    side: str
    length: float
    sides: tuple[str, ...] = ()


def _choose_side(lengths: dict[str, float], edge_min: float) -> str:
    along = {s: v for s, v in lengths.items() if v > edge_min}
    if along:
        best = max(along.values())
        for s in SIDE_PREFERENCE:
            if s in along and along[s] >= best - 1e-9:
                return s
    touched = [s for s in SIDE_PREFERENCE if lengths.get(s, 0.0) > 0.0]
    return touched[0] if touched else "front"


def _corner_side(geo: Geometry, form: UnitFormation, mid: str, eid: str) -> str:
    """The side of the unit's outline a point (corner) contact lies on: the
    contact point in the unit's frame, on the edge it is nearest to (ties:
    front, then flank, then rear)."""
    line = shapely.shortest_line(geo.footprint(mid), geo.footprint(eid))
    (x1, y1), (x2, y2) = line.coords[0], line.coords[-1]
    a, b = form.to_local((x1 + x2) / 2.0, (y1 + y2) / 2.0)
    excess = {"front": a - form.front, "left": form.left - b, "right": b - form.right_b,
              "rear": form.rear - a}
    best = max(excess.values())
    return next(s for s in SIDE_PREFERENCE if excess[s] >= best - 2 * geo.tol)


def _model_contact(geo: Geometry, form: UnitFormation, mid: str, eid: str) -> SideContact:
    """Classify one contact: along a base edge (the longest covered edge of the
    model's rectangle decides), else a corner contact (``_corner_side``)."""
    m = geo.model(mid)
    enemy_fp = geo.footprint(eid)
    edge_min = EDGE_MIN_TOL * geo.tol
    lengths: dict[str, float] = {}
    if m.base.shape == "rect":
        t = math.radians(m.facing_deg)
        f = (math.cos(t), math.sin(t))
        r = (math.sin(t), -math.cos(t))
        ha, hb = m.base.along / 2.0, m.base.across / 2.0

        def pt(a: float, b: float) -> Point:
            return (m.x + a * f[0] + b * r[0], m.y + a * f[1] + b * r[1])

        grown = enemy_fp.buffer(geo.tol * 1.5, quad_segs=4)
        for (a1, b1), (a2, b2), (na, nb) in (
            ((ha, -hb), (ha, hb), (1, 0)), ((-ha, -hb), (-ha, hb), (-1, 0)),
            ((-ha, -hb), (ha, -hb), (0, -1)), ((-ha, hb), (ha, hb), (0, 1)),
        ):
            covered = LineString([pt(a1, b1), pt(a2, b2)]).intersection(grown).length
            if covered <= 0.0:
                continue
            nx, ny = na * f[0] + nb * r[0], na * f[1] + nb * r[1]
            side = side_of_angle(math.degrees(math.atan2(ny, nx)) - form.facing_deg)
            lengths[side] = max(lengths.get(side, 0.0), covered)
    if any(v > edge_min for v in lengths.values()):
        side = _choose_side(lengths, edge_min)
        length = lengths[side]
        touched = tuple(s for s in SIDE_PREFERENCE if lengths.get(s, 0.0) > edge_min)
    else:
        side = _corner_side(geo, form, mid, eid)
        length, touched = 0.0, (side,)
    return SideContact(mid, eid, geo.unit_of[geo.index_of(eid)], side, round(length, 6), touched)


@dataclass
class UnitSides:
    """Which side of a unit each enemy touches, and what follows from it.

    Attributes
    ----------
    unit : str
    contacts : tuple of SideContact (every model pair in base contact)
    enemy_sides : {enemy unit id: side}
        The one side each enemy unit touches (UNIT_SIDE: longest contact).
    edge_min : float
        Contacts shorter than this are corner contacts (inches).
    """

    unit: str
    contacts: tuple[SideContact, ...]
    enemy_sides: dict[str, str] = field(default_factory=dict)
    edge_min: float = 0.06

    @classmethod
    def build(cls, unit: str, contacts: Iterable[SideContact], edge_min: float) -> UnitSides:
        contacts = tuple(contacts)
        per: dict[str, dict[str, float]] = {}
        for c in contacts:
            d = per.setdefault(c.enemy_unit, {})
            d[c.side] = d.get(c.side, 0.0) + max(c.length, 0.0) + 1e-9
        enemy_sides = {}
        for eu in sorted(per):
            totals = per[eu]
            best = max(totals.values())
            enemy_sides[eu] = next(s for s in SIDE_PREFERENCE if s in totals and totals[s] >= best - 1e-9)
        return cls(unit, contacts, enemy_sides, edge_min)

    def restricted(self, alive: Iterable[str], stand_ins: dict[str, str] | None = None) -> UnitSides:
        """The same answers once only ``alive`` models remain (casualties removed);
        ``stand_ins`` {dead: mover} hands a dead model's contacts to the model
        that stepped into its place."""
        keep = set(alive)
        sub = stand_ins or {}
        out = []
        for c in self.contacts:
            m, e = sub.get(c.model, c.model), sub.get(c.enemy, c.enemy)
            if m in keep and e in keep:
                out.append(replace(c, model=m, enemy=e) if (m, e) != (c.model, c.enemy) else c)
        return UnitSides.build(self.unit, out, self.edge_min)

    # ------------------------------------------------------------ queries
    @property
    def enemy_units(self) -> list[str]:
        return sorted(self.enemy_sides)

    @property
    def sides_touched(self) -> set[str]:
        return set(self.enemy_sides.values())

    def enemies_on(self, side: str) -> list[str]:
        """Enemy units touching ``side`` (a flank name, "front" or "rear"; "flank" for either)."""
        want = FLANKS if side == "flank" else (side,)
        return [u for u, s in sorted(self.enemy_sides.items()) if s in want]

    def contacts_of(self, model_id: str) -> list[SideContact]:
        return [c for c in self.contacts if c.model == model_id]

    def model_sides(self, model_id: str) -> dict[str, list[str]]:
        """``{side: [enemy units]}`` this model touches."""
        out: dict[str, list[str]] = {}
        for c in self.contacts_of(model_id):
            out.setdefault(c.side, [])
            if c.enemy_unit not in out[c.side]:
                out[c.side].append(c.enemy_unit)
        return out

    @property
    def disrupted(self) -> bool:
        """An enemy touches its flank or rear, or it fights more than one enemy unit."""
        return bool(self.disrupted_reasons)

    @property
    def disrupted_reasons(self) -> list[str]:
        out = [f"{u} touches its {s}{' flank' if s in FLANKS else ''}"
               for u, s in sorted(self.enemy_sides.items()) if s != "front"]
        if len(self.enemy_sides) > 1:
            out.append(f"fighting {len(self.enemy_sides)} enemy units")
        return out

    @property
    def surrounded(self) -> bool:
        """Enemies on opposite sides: front and rear, or both flanks."""
        s = self.sides_touched
        return {"front", "rear"} <= s or {"left", "right"} <= s


def sides_of(geo: Geometry, unit_id: str) -> UnitSides:
    """Every base contact of ``unit_id`` with an enemy, classified by side (see UnitSides)."""
    form = geo.formation(unit_id)
    contacts = []
    for mid in geo.unit_models(unit_id):
        for eid in geo.contacts_of(mid, enemies=True):
            contacts.append(_model_contact(geo, form, mid, eid))
    return UnitSides.build(unit_id, contacts, EDGE_MIN_TOL * geo.tol)


# ------------------------------------------------------------------ moves
Placed = dict[str, tuple[float, float, float]]


def rigid_move(geo: Geometry, form: UnitFormation, turn_deg: float,
               shift: Point = (0.0, 0.0)) -> Placed:
    """Every model of the unit turned ``turn_deg`` about the unit's centre, then shifted.

    Returns ``{model id: (x, y, facing_deg)}``; bases turn with their models,
    so the formation keeps its shape.
    """
    t = math.radians(turn_deg)
    c, s = math.cos(t), math.sin(t)
    ox, oy = form.origin
    out = {}
    for mid in form.placements:
        m = geo.model(mid)
        dx, dy = m.x - ox, m.y - oy
        x = ox + dx * c - dy * s + shift[0]
        y = oy + dx * s + dy * c + shift[1]
        out[mid] = (x, y, norm_deg(m.facing_deg + turn_deg))
    return out


def turn_to_face(geo: Geometry, unit_id: str, side: str, slide: float = 0.0) -> Placed:
    """The unit pivots as one block about its centre to face ``side`` ("left",
    "right" or "rear"), steps along its new facing so its new front edge lies
    on the line of the edge ``side`` was, then slides ``slide`` inches along
    that line (along the unit's old forward for a flank, its old right for the
    rear): the new front's middle ends ``slide`` from the foot of the old
    centre on that line.  Ranks and files are kept.

    rank-and-flank-combat.txt Fleeing: "A unit still in contact with a single
    enemy on its flank or rear turns to face it."  Which slide keeps that
    enemy in contact is ``geometry.turns.face_turn``'s business.
    """
    form = geo.formation(unit_id)
    turn = {"left": 90.0, "right": -90.0, "rear": 180.0, "front": 0.0}[side]
    # distance of the touched edge from the centre, and of the front edge
    reach = {"left": -form.left, "right": form.right_b, "rear": -form.rear, "front": form.front}[side]
    step = reach - form.front
    ox, oy = form.outward(side)
    ax, ay = form.forward if side in FLANKS else form.right
    return rigid_move(geo, form, turn, (ox * step + ax * slide, oy * step + ay * slide))


@dataclass(frozen=True)
class FleeMove:
    """Where a fleeing unit ends up.

    ``positions`` {model id: (x, y, facing)}; ``direction_deg`` the way it
    ran; ``distance`` how far its centre moved (its Move, plus ``extra`` run
    to get clear of other bases); ``off_table`` the models whose bases end
    past a table edge (by more than the tolerance); ``start``/``end`` its
    centre before and after.
    """

    positions: Placed
    direction_deg: float
    distance: float
    extra: float
    off_table: tuple[str, ...]
    start: Point
    end: Point


def away_weights(geo: Geometry, unit_id: str, enemy_units: Iterable[str],
                 contacts: Iterable[SideContact] | None = None) -> dict[str, float]:
    """``{side: contact length}`` of ``enemy_units`` on ``unit_id``'s sides (inches),
    from ``contacts`` (default: the unit's contacts now, ``geo.sides``).

    Edge contacts count their length; when the enemies touch by corners only,
    each corner contact counts 1 (FLEE_AWAY)."""
    want = set(enemy_units)
    pairs = [c for c in (geo.sides(unit_id).contacts if contacts is None else contacts)
             if c.enemy_unit in want]
    edge = any(c.length > 0.0 for c in pairs)
    out: dict[str, float] = {}
    for c in pairs:
        w = c.length if edge else 1.0
        if w > 0.0:
            out[c.side] = out.get(c.side, 0.0) + w
    return out


def away_direction(geo: Geometry, unit_id: str, enemy_units: Iterable[str],
                   contacts: Iterable[SideContact] | None = None) -> float:
    """The direction (degrees) directly away from ``enemy_units``, read from the
    unit's own sides (FLEE_AWAY): the opposite of the outward normal of the side
    they touch (front: straight back; right flank: out of the left flank), the
    sides weighted by contact length (``away_weights``) when they touch several.

    When the weights cancel out (or nothing touches), straight back.
    rank-and-flank-combat.txt Fleeing: "runs its full Move directly away from
    the enemy it was fighting".
    """
    form = geo.formation(unit_id)
    vx = vy = 0.0
    for side, w in away_weights(geo, unit_id, enemy_units, contacts).items():
        ox, oy = form.outward(side)
        vx -= w * ox
        vy -= w * oy
    if math.hypot(vx, vy) <= 1e-9:
        vx, vy = form.outward("rear")
    return norm_deg(math.degrees(math.atan2(vy, vx)))


def flee_move(geo: Geometry, unit_id: str, direction_deg: float, distance: float) -> FleeMove:
    """The unit turns to face ``direction_deg`` and runs ``distance`` inches.

    If it would end on top of other bases it keeps running along the same
    line in FLEE_CLEAR_STEP steps until clear.  ``off_table`` lists models
    that end past a table edge (rank-and-flank-combat.txt Fleeing: a unit that
    runs off the edge is destroyed).
    """
    form = geo.formation(unit_id)
    turn = direction_deg - form.facing_deg
    t = math.radians(direction_deg)
    d = (math.cos(t), math.sin(t))
    own = set(geo.unit_models(unit_id))
    others = [i for i, mid in enumerate(geo.ids) if mid not in own]
    half = geo.tol / 2.0
    w, dep = geo.state.table.width, geo.state.table.depth
    extra = 0.0
    while True:
        run = distance + extra
        pos = rigid_move(geo, form, turn, (d[0] * run, d[1] * run))
        polys = {mid: base_polygon(geo.model(mid).base, x, y, f) for mid, (x, y, f) in pos.items()}
        off = tuple(mid for mid, p in polys.items()
                    if p.bounds[0] < -geo.tol or p.bounds[1] < -geo.tol
                    or p.bounds[2] > w + geo.tol or p.bounds[3] > dep + geo.tol)
        if off:
            break
        hit = False
        for p in polys.values():
            for j in geo.tree.query(p).tolist():
                if j in others and shrunk(p, half).intersects(shrunk(geo.shapes[j], half)):
                    hit = True
                    break
            if hit:
                break
        if not hit or extra >= FLEE_CLEAR_MAX:
            break
        extra += FLEE_CLEAR_STEP
    ox, oy = form.origin
    return FleeMove(pos, norm_deg(direction_deg), distance + extra, extra, off, (ox, oy),
                    (ox + d[0] * (distance + extra), oy + d[1] * (distance + extra)))
