"""Where a charging unit's models would end (the plan's preview landing).

Two ways, one per kind of unit:

- ``land_models`` (fight-phase, loose models): each model, the closest first,
  moves along its shortest charge path (``charge_paths``) at most ``budget``
  inches; it takes the nearest free spot in base contact with a target model
  it can reach within the budget, else the point where its path enters
  engagement range, else as far along its path as the budget goes.  A spot is
  free when its base overlaps no base left standing, no model already placed
  and no blocking terrain by more than the tolerance, lies on the table
  (within the tolerance of its edges), and is not within engagement range of
  an enemy unit that is not a target (measurements.csv 40K 10th Charge: a
  charge may not end so).  The unit must end in coherency (03.03, the map's
  ``[rules]`` coherency): after the first model, a spot counts only when it
  keeps the model within coherency range of as many models already placed as
  the rule asks (at most as many as are placed).  While some target is not yet
  engaged by the models placed, a model that cannot reach base contact first
  tries the rings round the models placed nearest those targets (the unit
  spreads out to reach every target, rather than each model following its own
  path to the target nearest it); when none of a model's own spots does, it
  takes the best spot (engaged first, then nearest its targets) on rings round
  the models already placed (``COHERENCY_RINGS``) that it can reach within the
  budget.  With ``aim`` "engage" (``rules/charge_plan.py`` LANDING_AIM, the
  default) a model that cannot reach base contact first tries the nearest free
  spot within engagement range of a target model (rings at ``ENGAGE_RINGS`` of
  the range round each), and one that cannot engage at all ends at the nearer
  to its targets of the point its path reaches and the best coherency-ring
  spot, so that the fight's pile-in (3") may still bring it in; with "path" it
  steps back along its own path until free (the models queue behind the
  first).
- ``land_block`` (rank-and-flank): the charger moves as one block and ends
  with its front edge flush against the ``side`` of the target, facing it (it
  wheels to align, "closing the door"), its front centre opposite the point
  of that side nearest its own front centre.

Inches, origin bottom-left, y up; facing degrees counter-clockwise from +x.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
import shapely
from shapely.geometry import Point, Polygon
from shapely.ops import unary_union

from tabletop.geometry.charge_paths import ChargeArena, Goal, goals_for
from tabletop.geometry.footprints import base_polygon

__all__ = ["RING_SPOTS", "ENGAGE_RINGS", "LANDING_AIMS", "NEAR_SPOT_TESTS", "LANDING_BATCH", "LANDING_MAX_CANDIDATES", "COHERENCY_RINGS", "BLOCK_SLIDE_STEP", "LANDING_TURNS", "land_models", "land_models_facing", "land_block",
           "block_problems", "paths_through",
           "point_along"]

XY = tuple[float, float]

#: spots tried round each target model, in base contact (evenly spaced)
RING_SPOTS = 36
#: the landing's aims (``land_models`` ``aim``; the named default is rules/charge_plan.py
#: LANDING_AIM, ``[rules] charge_landing_aim``)
LANDING_AIMS = ("engage", "path")
#: "engage": rings of spots round each target model at these fractions of the engagement
#: range (edge to edge), for a model that cannot reach base contact
ENGAGE_RINGS = (0.5, 0.95)
#: step (inches) back along a path while looking for a free spot
STEP_BACK = 0.1
#: where a follower may stand to keep coherency: edge-to-edge gaps to a placed model, as
#: fractions of the coherency range (a ring of RING_SPOTS spots at each)
COHERENCY_RINGS = (0.25, 0.6, 0.95)
#: candidate spots (those the landing's checks allow) a model's path search weighs at once,
#: nearest first: a model usually lands on one of the first few
LANDING_BATCH = 48
#: at most this many candidate spots are weighed for one model's contact or coherency spot
#: (a bound counted in spots, never a clock: a crowded table cannot make a plan take
#: minutes); past it the model takes the next way its landing tries (back along its path)
LANDING_MAX_CANDIDATES = 288
#: "engage": a model that cannot engage weighs at most this many spots round the models placed
#: (nearest the targets first) for one nearer the targets than its path's point (a bound
#: counted in spots, never a clock: a 20-model landing stays a fraction of a second)
NEAR_SPOT_TESTS = 48
#: the turns a base that is not round is tried at when it ends engaged with nothing at its own
#: facing (``land_models_facing``), in order: its path's last heading, then facing the target
#: model nearest its path's end
LANDING_TURNS = ("path", "target")
#: rank-and-flank: step (inches) a block slides along the side it hits to find a legal spot
BLOCK_SLIDE_STEP = 0.25


def point_along(points: Sequence[XY], length: float) -> XY:
    """The point ``length`` inches along the polyline ``points`` (its end if shorter)."""
    left = max(0.0, length)
    for a, b in zip(points, points[1:]):
        seg = math.hypot(b[0] - a[0], b[1] - a[1])
        if seg >= left and seg > 0:
            k = left / seg
            return (a[0] + (b[0] - a[0]) * k, a[1] + (b[1] - a[1]) * k)
        left -= seg
    return points[-1]


class _Room:
    """Bases and terrain a landing base may not overlap (by more than ``tol``), the table it
    must stay on (``table``: (width, depth), inches) and the zone it may not touch
    (``keep_off``: non-target enemy bases grown by the engagement range and ``tol``)."""

    def __init__(self, shapes: list[Polygon], tol: float, table: XY | None = None,
                 keep_off: Polygon | None = None):
        self.shapes = list(shapes)
        self.tol = tol
        self._tree = shapely.STRtree(self.shapes) if self.shapes else None
        self.table = (shapely.box(-tol, -tol, table[0] + tol, table[1] + tol)
                      if table is not None else None)
        self.keep_off = keep_off if keep_off is not None and not keep_off.is_empty else None
        for g in (self.table, self.keep_off):
            if g is not None:
                shapely.prepare(g)

    def legal(self, shape: Polygon) -> bool:
        """On the table, clear of the keep-off zone, and free."""
        if self.table is not None and not self.table.contains(shape):
            return False
        if self.keep_off is not None and self.keep_off.intersects(shape):
            return False
        return self.free(shape)

    def add(self, shape: Polygon) -> None:
        self.shapes.append(shape)
        self._tree = shapely.STRtree(self.shapes)

    def free(self, shape: Polygon) -> bool:
        if self._tree is None:
            return True
        core = shape.buffer(-self.tol)
        return not any(core.intersects(self.shapes[int(i)]) for i in self._tree.query(core))


def land_models(state, unit_id: str, targets: Sequence[str], budget: float, reach: float,
                arena_of: Callable[[object], ChargeArena], terrain: Sequence[Sequence[XY]],
                tol: float, aim: str = "engage") -> tuple[dict[str, XY], dict[str, tuple[XY, ...]]]:
    """Landing spots of ``unit_id``'s models charging ``targets`` with ``budget`` inches.

    ``reach`` is the engagement range (inches, edge to edge); ``arena_of(model)`` gives the
    model's ``ChargeArena``; ``terrain`` the polygons that block it (for the free test).
    Spots keep the table, the engagement range of enemy units that are not targets and the
    unit's coherency (module docstring; the coherency from ``state.rules``).  Two ways are
    tried and the one that breaks less kept (targets left unengaged, then models out of
    coherency): each model kept in coherency with those placed before it as it is placed,
    or every model placed freely and those left out of coherency moved to rings round the
    rest (``_repair``).  ``aim`` is one of ``LANDING_AIMS`` (module docstring).
    Returns ``({model id: (x, y)}, {model id: path points})``; a model that finds no spot
    stays where it is (``rules/charge_plan.py`` reports what the landing then breaks).
    Raises ValueError for an unknown ``aim``.
    """
    if aim not in LANDING_AIMS:
        raise ValueError(f"unknown landing aim {aim!r}: use one of {', '.join(LANDING_AIMS)}")
    spots, paths, _ = land_models_facing(state, unit_id, targets, budget, reach, arena_of,
                                         terrain, tol, aim, turn=False)
    return spots, paths


def land_models_facing(state, unit_id: str, targets: Sequence[str], budget: float,
                       reach: float, arena_of: Callable[[object], ChargeArena],
                       terrain: Sequence[Sequence[XY]], tol: float, aim: str = "engage",
                       turn: bool = True):
    """``land_models`` with each model's facing (degrees): ``(spots, paths, {model id:
    facing})``.  With ``turn`` a model whose base is not round (an oval, a rectangle) that
    ends engaged with no target at its own facing is tried again turned (``LANDING_TURNS``:
    to its path's last heading, then to face the target model nearest its path's end) and
    keeps the first facing at which it ends engaged (rules/charge_plan.py
    LANDING_TURN, ``[rules] charge_landing_turn``); a round base keeps its facing.
    Raises ValueError for an unknown ``aim``."""
    if aim not in LANDING_AIMS:
        raise ValueError(f"unknown landing aim {aim!r}: use one of {', '.join(LANDING_AIMS)}")
    land = _Landing(state, unit_id, targets, budget, reach, arena_of, terrain, tol)
    land.aim = aim
    land.turn = turn
    best = None
    for chain in (True, False):
        got = land.run(chain)
        if not chain:
            got = land.repair(got)
        score = land.score(got)
        if best is None or score < best[0]:
            best = (score, got)
        if score == (0, 0):
            break
    assert best is not None                 # the loop above runs at least once
    spots, paths, _, facings = best[1]
    return spots, paths, facings


class _Landing:
    """One landing search (``land_models``): the room, the models in order, the rules."""

    aim = "engage"
    turn = False

    def __init__(self, state, unit_id, targets, budget, reach, arena_of, terrain, tol):
        unit = state.unit(unit_id)
        self.state, self.budget, self.reach, self.tol = state, budget, reach, tol
        self.targets = list(targets)
        self.target_models = [(m, t) for t in targets for m in state.unit(t).models]
        self.tshapes = [(base_polygon(m.base, m.x, m.y, m.facing_deg), t)
                        for m, t in self.target_models]
        self.fixed = [base_polygon(m.base, m.x, m.y, m.facing_deg) for u in state.units
                      if u.id != unit_id for m in u.models] + [Polygon(p) for p in terrain]
        foes = [base_polygon(m.base, m.x, m.y, m.facing_deg) for u in state.units
                if u.player != unit.player and u.id not in targets for m in u.models]
        self.keep_off = unary_union(foes).buffer(reach + tol, quad_segs=32) if foes else None
        rules = state.rules
        self.coh = getattr(rules, "coherency_range", None)
        self.need = rules.coherency_needed(len(unit.models)) if self.coh is not None else 0
        self.spread = getattr(rules, "coherency_spread", None) if self.coh is not None else None
        order = []
        for m in unit.models:
            arena = arena_of(m)
            path = arena.shortest(m.at, goals_for(m, [t for t, _ in self.target_models], reach),
                                  tol=tol)
            order.append((path.length, m.id, m, arena, path))
        order.sort(key=lambda o: (o[0], o[1]))
        self.order = order

    def room(self) -> _Room:
        return _Room(list(self.fixed), self.tol, (self.state.table.width, self.state.table.depth),
                     self.keep_off)

    def shape(self, m, p: XY) -> Polygon:
        return base_polygon(m.base, p[0], p[1], m.facing_deg)

    def near(self, shape: Polygon, others) -> int:
        """Models of ``others`` within coherency range of ``shape``; -1 when one of them is
        farther than the spread (03.03: every model within it of every other)."""
        gaps = [shape.distance(q) for q in others]
        if self.spread is not None and any(g > self.spread + self.tol for g in gaps):
            return -1
        return sum(1 for g in gaps if g <= self.coh + self.tol)

    def engages(self, shape: Polygon) -> set[str]:
        return {t for ts, t in self.tshapes if shape.distance(ts) <= self.reach + self.tol}

    def gap(self, m, p: XY) -> float:
        """Edge-to-edge distance (inches) from model ``m`` standing at ``p`` to the nearest
        target model."""
        shape = self.shape(m, p)
        return min(shape.distance(ts) for ts, _ in self.tshapes)

    def facings(self, m, path) -> list[float]:
        """The facings (degrees) model ``m`` is tried at: its own, then (``turn``, a base
        that is not round) ``LANDING_TURNS``: its path's last heading and facing the target
        model nearest its path's end."""
        out = [m.facing_deg]
        if not self.turn or m.base.is_round or not path.found:
            return out
        pts = path.points
        end = pts[-1]
        for kind in LANDING_TURNS:
            if kind == "path" and len(pts) >= 2:
                a, b = pts[-2], pts[-1]
                if math.hypot(b[0] - a[0], b[1] - a[1]) > 1e-9:
                    out.append(math.degrees(math.atan2(b[1] - a[1], b[0] - a[0])) % 360.0)
            elif kind == "target" and self.target_models:
                t = min((t for t, _ in self.target_models),
                        key=lambda t: math.hypot(t.x - end[0], t.y - end[1]))
                if math.hypot(t.x - end[0], t.y - end[1]) > 1e-9:
                    out.append(math.degrees(math.atan2(t.y - end[1], t.x - end[0])) % 360.0)
        return list(dict.fromkeys(round(f, 6) for f in out))

    def run(self, chain: bool):
        room = self.room()
        spots: dict[str, XY] = {}
        paths: dict[str, tuple[XY, ...]] = {}
        placed: dict[str, Polygon] = {}
        facing: dict[str, float] = {}
        engaged: set[str] = set()
        for length, mid, m0, arena, path in self.order:
            got, m = None, m0
            for k, f in enumerate(self.facings(m0, path)):
                mf = m0 if k == 0 else m0.moved_to(m0.x, m0.y, f)
                g = self._one(mf, length, arena, path, room, placed, engaged, chain)
                if k == 0:
                    got, m = g, mf
                if self.engages(self.shape(mf, g[0])):
                    got, m = g, mf
                    break
            assert got is not None              # a model is tried at one facing at least
            spots[mid], paths[mid] = got
            facing[mid] = m.facing_deg
            placed[mid] = self.shape(m, got[0])
            room.add(placed[mid])
            engaged |= self.engages(placed[mid])
        return spots, paths, placed, facing

    def _one(self, m, length, arena, path, room, placed, engaged, chain):
        """One model's spot and path (``run``): ``(spot, path points)``."""
        def ok_room(p: XY, m=m) -> bool:
            shape = self.shape(m, p)
            if not room.legal(shape):
                return False
            if not chain or self.coh is None or not placed:
                return True
            return self.near(shape, placed.values()) >= min(self.need, len(placed))
        ok: Callable[[XY], bool] = ok_room
        if not chain:
            def ok_spread(p: XY, m=m, ok_free=ok_room) -> bool:
                return ok_free(p) and (self.spread is None or self.coh is None
                                       or self.near(self.shape(m, p), placed.values()) >= 0)
            ok = ok_spread
        got = None
        # a chain that has not yet engaged every target grows towards those left
        # (rings round the models placed) before a model settles on its own path
        left = [(t, u) for t, u in self.target_models if u not in engaged]
        grow = chain and bool(placed) and self.coh is not None and bool(left)
        if path.found and length <= self.budget + self.tol:
            got = _contact_spot(m, self.target_models, engaged, arena, self.budget, ok, self.tol)
        if got is None and grow:
            got = _coherent_spot(m, list(placed.values()), left, arena,
                                 self.budget, self.coh, self.reach, ok, self.tol)
        engage = self.aim == "engage"
        # (``length`` is its shortest path into engagement range: past the budget, no
        # spot within it is reached)
        if got is None and engage and path.found and length <= self.budget + self.tol:
            # a spot counts only when the base, at its facing, is within range (the
            # rings are laid out for its bounding circle: exact for a round base only)
            def ok_engaged(p: XY, m=m, ok=ok) -> bool:
                return ok(p) and bool(self.engages(self.shape(m, p)))
            got = _engage_spot(m, self.target_models, engaged, arena, self.budget,
                               self.reach, ok_engaged, self.tol)
        if got is None and path.found:
            got = _back_along(m, path.points, min(length, self.budget), ok)
            if engage and placed and self.coh is not None and (
                    got is None or self.gap(m, got[0]) > self.reach + self.tol):
                # not engaged: the nearer its targets of its path's point and the best
                # spot round the models placed (the pile-in may yet bring it in)
                now = None if got is None else self.gap(m, got[0]) - self.tol
                alt = _coherent_spot(m, list(placed.values()), self.target_models, arena,
                                     self.budget, self.coh, self.reach, ok, self.tol,
                                     max_gap=now, max_tests=NEAR_SPOT_TESTS)
                if alt is not None:
                    got = alt
        if got is None and placed and self.coh is not None:
            got = _coherent_spot(m, list(placed.values()), self.target_models, arena,
                                 self.budget, self.coh, self.reach, ok, self.tol)
        if got is None:
            got = (m.at, (m.at,))
        return got

    def broken(self, placed: dict[str, Polygon]) -> list[str]:
        """Models with fewer models of the unit within coherency range than the rule asks."""
        if self.coh is None:
            return []
        return [mid for mid, s in placed.items()
                if self.near(s, [q for k, q in placed.items() if k != mid]) < self.need]

    def score(self, got) -> tuple[int, int]:
        placed = got[2]
        engaged = set().union(*(self.engages(s) for s in placed.values())) if placed else set()
        return (len(set(self.targets) - engaged), len(self.broken(placed)))

    def repair(self, got):
        """Move each model out of coherency (farthest placed first) to a ring spot among the
        rest that still engages every target it alone engaged (a model in base contact may
        so end merely within engagement range: contact only "if possible"); a few passes."""
        spots, paths, placed, facing = dict(got[0]), dict(got[1]), dict(got[2]), dict(got[3])
        by_id = {mid: (m if facing.get(mid, m.facing_deg) == m.facing_deg
                       else m.moved_to(m.x, m.y, facing[mid]), arena)
                 for _, mid, m, arena, _ in self.order}
        for _ in range(3):
            bad = self.broken(placed)
            if not bad:
                break
            for mid in reversed([o[1] for o in self.order]):
                if mid not in bad:
                    continue
                rest = {k: q for k, q in placed.items() if k != mid}
                alone = self.engages(placed[mid]) - set().union(
                    *(self.engages(q) for q in rest.values()))
                m, arena = by_id[mid]
                room = _Room(self.fixed + list(rest.values()), self.tol,
                             (self.state.table.width, self.state.table.depth), self.keep_off)

                def ok(p: XY, m=m, room=room, rest=rest, alone=alone) -> bool:
                    shape = self.shape(m, p)
                    return (room.legal(shape) and self.near(shape, rest.values()) >= self.need
                            and alone <= self.engages(shape))
                spot = _coherent_spot(m, list(rest.values()), self.target_models, arena,
                                      self.budget, self.coh, self.reach, ok, self.tol)
                if spot is not None:
                    spots[mid], paths[mid] = spot
                    placed[mid] = self.shape(m, spot[0])
        return spots, paths, placed, facing


def _contact_spot(m, target_models, engaged: set[str], arena: ChargeArena, budget: float, ok,
                  tol: float):
    """The nearest spot in base contact with a target model that ``ok`` allows and the model
    reaches within ``budget``: targets not yet engaged by the models placed come first."""
    r = m.base.radius
    cands = []
    for t, unit in target_models:
        first = unit in engaged
        if m.base.is_round and t.base.is_round:
            rad = r + t.base.radius + tol / 2.0
            for k in range(RING_SPOTS):
                a = 2.0 * math.pi * k / RING_SPOTS
                p = (t.x + rad * math.cos(a), t.y + rad * math.sin(a))
                cands.append((first, math.hypot(p[0] - m.x, p[1] - m.y), p))
        else:
            ring = base_polygon(t.base, t.x, t.y, t.facing_deg).buffer(r + tol / 2.0).exterior
            for k in range(RING_SPOTS):
                q = ring.interpolate(k / RING_SPOTS, normalized=True)
                cands.append((first, math.hypot(q.x - m.x, q.y - m.y), (q.x, q.y)))
    cands.sort()
    free = ((d, p) for _, d, p in cands if d <= budget + tol)
    return _first_reached(m, free, arena, budget, tol, ok)


def _first_reached(m, free, arena: ChargeArena, budget: float, tol: float, ok=None):
    """The first of the candidate spots ``free`` ((straight distance, (x, y)), best first)
    that ``ok`` allows and the model reaches within ``budget`` along its arena: they are
    weighed ``LANDING_BATCH`` at a time (the spots ``ok`` allows), at most
    ``LANDING_MAX_CANDIDATES`` in all (a bound counted in spots, never a clock; past it the
    model takes the next way its landing tries).  Returns (spot, path points) or None."""
    seen = 0
    batch: list = []
    it = iter(free)
    while seen < LANDING_MAX_CANDIDATES:
        batch = []
        for d, p in it:
            if ok is None or ok(p):
                batch.append((d, p))
                if len(batch) == LANDING_BATCH or seen + len(batch) >= LANDING_MAX_CANDIDATES:
                    break
        if not batch:
            return None
        seen += len(batch)
        lengths = arena.distances_from([m.at], np.asarray([p for _, p in batch]), budget + tol)
        for (_, p), length in zip(batch, lengths):
            if length <= budget + tol:
                path = arena.shortest(m.at, [Goal("spot", disc=(p[0], p[1], 0.0))], tol=1e-9)
                return p, path.points
    return None


def _ring_spots(shapes: Sequence[Polygon], dists: Sequence[float]):
    """``RING_SPOTS`` points evenly spaced along the outline of each of ``shapes`` grown by
    each of ``dists`` (inches): an (N, 2) array, shape by shape, distance by distance."""
    if not shapes:
        return np.zeros((0, 2))
    grown = shapely.buffer(np.repeat(np.asarray(shapes, dtype=object), len(dists)),
                           np.tile(np.asarray(dists, dtype=float), len(shapes)), quad_segs=8)
    rings = np.repeat(shapely.get_exterior_ring(grown), RING_SPOTS)
    at = np.tile(np.arange(RING_SPOTS) / RING_SPOTS, len(grown))
    return shapely.get_coordinates(shapely.line_interpolate_point(rings, at, normalized=True))


def _engage_spot(m, target_models, engaged: set[str], arena: ChargeArena, budget: float,
                 reach: float, ok, tol: float):
    """The nearest spot within engagement range ``reach`` of a target model (rings at
    ``ENGAGE_RINGS`` of it round each, edge to edge) that ``ok`` allows and the model reaches
    within ``budget``: targets not yet engaged by the models placed come first.  None when
    ``reach`` is 0 (contact only) or no spot does."""
    if reach <= 0:
        return None
    r = m.base.radius
    cands = []
    dists = [r + reach * frac for frac in ENGAGE_RINGS]
    for t, unit in target_models:
        first = unit in engaged
        xy = _ring_spots([base_polygon(t.base, t.x, t.y, t.facing_deg)], dists)
        for (x, y), d in zip(xy.tolist(), np.hypot(xy[:, 0] - m.x, xy[:, 1] - m.y).tolist()):
            if d <= budget + tol:
                cands.append((first, d, (x, y)))
    cands.sort()
    return _first_reached(m, ((d, p) for _, d, p in cands), arena, budget, tol, ok)


def _coherent_spot(m, placed: list[Polygon], target_models, arena: ChargeArena, budget: float,
                   coh: float, reach: float, ok, tol: float, max_gap: float | None = None,
                   max_tests: int | None = None):
    """A spot on rings round the placed models (gaps ``COHERENCY_RINGS`` of the coherency
    range) that ``ok`` allows, reached within ``budget``: engaged with a target first, then
    nearest a target model; with ``max_gap`` (inches) only spots whose edge-to-edge gap to
    the nearest target model is under it (rings round a placed model too far from the
    targets to hold one are not laid out: a spot on them is at most the ring's gap plus its
    own base across, ``coh + 2 r``, nearer than that model); ``max_tests``: at most that many
    spots are put to ``ok``."""
    r = m.base.radius
    tshapes = [base_polygon(t.base, t.x, t.y, t.facing_deg) for t, _ in target_models]
    if max_gap is not None and tshapes:
        placed = [q for q in placed
                  if min(q.distance(s) for s in tshapes) - coh - 2 * r < max_gap]
    xy = _ring_spots(placed, [r + coh * frac for frac in COHERENCY_RINGS])
    spots = [(float(x), float(y)) for x, y in xy]
    d = np.hypot(xy[:, 0] - m.x, xy[:, 1] - m.y)
    if tshapes and len(xy) and m.base.is_round and all(t.base.is_round for t, _ in target_models):
        # round bases: edge to edge is centre to centre less both radii
        tc = np.asarray([(t.x, t.y) for t, _ in target_models], dtype=float)
        tr = np.asarray([t.base.radius for t, _ in target_models], dtype=float)
        gaps = (np.hypot(xy[:, None, 0] - tc[None, :, 0], xy[:, None, 1] - tc[None, :, 1])
                - tr[None, :]).min(axis=1) - r
    elif tshapes and len(xy):
        gaps = shapely.distance(shapely.points(xy)[:, None],
                                np.asarray(tshapes, dtype=object)[None, :]).min(axis=1) - r
    else:
        gaps = np.zeros(len(xy))
    cands = []
    for p, gap, dist in zip(spots, gaps.tolist(), d.tolist()):
        if dist > budget + tol or (max_gap is not None and gap >= max_gap):
            continue
        cands.append((gap > reach + tol, gap, dist, p))
    cands.sort()
    return _first_reached(m, ((d, p) for _, _, d, p in cands[:max_tests]), arena, budget, tol, ok)


def _back_along(m, points: Sequence[XY], length: float, ok):
    s = length
    while s >= 0.0:
        p = point_along(points, s)
        if ok(p):
            return p, _cut(points, s)
        s -= STEP_BACK
    return None


def _cut(points: Sequence[XY], length: float) -> tuple[XY, ...]:
    out = [points[0]]
    left = length
    for a, b in zip(points, points[1:]):
        seg = math.hypot(b[0] - a[0], b[1] - a[1])
        if seg >= left:
            out.append(point_along([a, b], left))
            return tuple(out)
        out.append(b)
        left -= seg
    return tuple(out)


def land_block(geo, charger: str, target: str, side: str, tol: float,
               state=None) -> tuple[dict[str, XY], float]:
    """Rank-and-flank landing: ``charger``'s models moved as one block flush against ``side``
    of ``target`` (front edge on that edge, ``tol / 2`` off it, facing in).

    With ``state`` the block keeps the table and touches no base but the target's: it slides
    along the side (``BLOCK_SLIDE_STEP``), nearest its own front centre first, to the first
    spot that does; none does: the nearest spot, as without ``state``.
    Returns ``({model id: (x, y)}, new facing in degrees)``.
    """
    fc = geo.formation(charger)
    ft = geo.formation(target)
    (ax, ay), (bx, by) = ft.edges()[side]
    nx, ny = ft.outward(side)
    fx, fy = fc.front_centre
    ex, ey = bx - ax, by - ay
    span = math.hypot(ex, ey)
    ux, uy = ex / span, ey / span
    half = fc.width / 2.0
    along = (fx - ax) * ux + (fy - ay) * uy
    lo, hi = min(half, span / 2.0), max(span - half, span / 2.0)
    along = min(max(along, lo), hi)
    facing = math.degrees(math.atan2(-ny, -nx)) % 360.0
    fwd = (-nx, -ny)
    right = (fwd[1], -fwd[0])
    mid_b = (fc.left + fc.right_b) / 2.0
    local = []
    for mid in fc.models():
        m = geo.model(mid)
        a, b = fc.to_local(m.x, m.y)
        local.append((mid, a - fc.front, b - mid_b))

    def place(at: float) -> dict[str, XY]:
        sx, sy = ax + ux * at + nx * tol / 2.0, ay + uy * at + ny * tol / 2.0
        return {mid: (sx + da * fwd[0] + db * right[0], sy + da * fwd[1] + db * right[1])
                for mid, da, db in local}

    out = place(along)
    if state is None:
        return out, facing
    n = int((hi - lo) / BLOCK_SLIDE_STEP) + 1
    tries = sorted({along, lo, hi, *(lo + k * BLOCK_SLIDE_STEP for k in range(n))},
                   key=lambda v: (abs(v - along), v))
    for at in tries:
        got = place(at)
        if not block_problems(state, charger, [target], got, facing, tol):
            return got, facing
    return out, facing


def block_problems(state, charger: str, targets: Sequence[str], spots: dict[str, XY],
                   facing: float, tol: float) -> list[str]:
    """What a block landing breaks (one line each): a model off the table (by more than
    ``tol``), a base in contact (within ``tol``) with a base that is neither the charger's nor
    a target's."""
    table = shapely.box(-tol, -tol, state.table.width + tol, state.table.depth + tol)
    others = [(m.id, base_polygon(m.base, m.x, m.y, m.facing_deg)) for u in state.units
              if u.id != charger and u.id not in targets for m in u.models]
    out = []
    for mid, (x, y) in spots.items():
        shape = base_polygon(state.model(mid).base, x, y, facing)
        if not table.contains(shape):
            out.append(f"{mid} off the table")
        for oid, o in others:
            if shape.distance(o) <= tol:
                out.append(f"{mid} touches {oid}")
                break
    return out


def paths_through(state, unit_id: str, paths: dict[str, Sequence[XY]],
                  tol: float) -> list[tuple[str, str]]:
    """The enemy models each charging model's path passes through: ``(model id, enemy model
    id)`` for each path (``paths``: {model id: [(x, y), ...]}, inches) whose swept base
    (the base's bounding circle, shrunk by ``tol``) overlaps an enemy base, targets included
    (a charge move ends against a target model, never through one).  A path that ends in
    base contact (within ``tol``) is clear."""
    from shapely.geometry import LineString
    me = state.unit(unit_id).player
    foes = [(m.id, base_polygon(m.base, m.x, m.y, m.facing_deg)) for u in state.units
            if u.player != me for m in u.models]
    if not foes:
        return []
    tree = shapely.STRtree([f for _, f in foes])
    out = []
    for mid, path in paths.items():
        pts = [(float(p[0]), float(p[1])) for p in path]
        if len(pts) < 2:
            continue
        r = state.model(mid).base.radius - tol
        if r <= 0:
            continue
        swept = LineString(pts).buffer(r, quad_segs=16)
        for i in sorted(int(i) for i in tree.query(swept, predicate="intersects")):
            out.append((mid, foes[i][0]))
    return out


def free_of(shapes: Sequence[Polygon], p: XY) -> bool:
    """Whether point ``p`` lies outside every shape (helper for tests)."""
    return not any(s.contains(Point(p)) for s in shapes)
