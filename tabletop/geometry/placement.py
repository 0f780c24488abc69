"""Finding legal spots on the table: returning challengers, stepping out of and into base contact.

Coordinates are inches, origin bottom-left, y up; facing degrees
counter-clockwise from +x.  Every test uses the map's one tolerance
(``tolerance.py``) and exact edge-to-edge gaps (``footprints.py``).

- ``find_return_spot`` (gambit-challenge.txt, Resolution): where a model
  set aside for a challenge goes back: no overlap with any base, on the
  table, not on impassable terrain, in coherency with at least one other
  model of its unit (within ``coherency_range``; base contact for
  rank-and-flank), and engaged with an enemy unit wherever possible; or, when
  its unit is gone, in base contact with an enemy model of a unit it was
  locked with.  Among the legal spots, the one nearest where the model stood
  (named default ``PREFER = "nearest its old position"
# named defaults for the set-aside box (inches)
ASIDE_GAP = 1.0          # between the combat's bases and the box
ASIDE_PAD = 0.35         # round the bases inside the box
ASIDE_LABEL = 0.9        # a strip under the bases for their names
ASIDE_STEP = 0.5         # how far apart candidate boxes slide along each side
ASIDE_SIDES = ("right", "left", "above", "below")``).
- ``swap_out_of_contact`` (character-challenge.txt ¶3): a model of the same
  unit, not in base contact with an enemy, that can trade places with a
  character so that the character ends out of base contact with every
  enemy ("another model steps into their place").
- ``swap_into_contact`` (character-challenge.txt ¶5): trade places inside
  each unit so that two characters stand in base contact, when the table
  allows.
- ``aside_box`` (gambit-challenge.txt Step 1, "set aside together, in base
  contact"): where pictures draw a set-aside pair: a box in table inches
  beside the combat, on the table, over no base.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import shapely
from shapely import STRtree
from shapely.geometry import Polygon

from tabletop.board.state import Battlefield, Model
from tabletop.geometry import tolerance as tolmod
from tabletop.geometry.footprints import base_polygon, core_and_pad, shrunk
from tabletop.geometry.snapshot import Geometry, snapshot

PREFER = "nearest its old position"
# named defaults for the set-aside box (inches)
ASIDE_GAP = 1.0          # between the combat's bases and the box
ASIDE_PAD = 0.35         # round the bases inside the box
ASIDE_LABEL = 0.9        # a strip under the bases for their names
ASIDE_STEP = 0.5         # how far apart candidate boxes slide along each side
ASIDE_SIDES = ("right", "left", "above", "below")
CONTACT_PREFERENCE = "face to face before corners, then the shortest move"
RING_ANGLES = 72                 # candidate spots every 5 degrees around each base
RETURN_BATCH = 256               # candidates weighed at once by find_return_spot, nearest first
Point = tuple[float, float]


@dataclass(frozen=True)
class Spot:
    """A legal spot: centre (inches), and what it satisfies."""

    x: float
    y: float
    engaged: bool
    coherent: bool
    in_contact_with: tuple[str, ...] = ()

    @property
    def at(self) -> Point:
        return (self.x, self.y)


class _Obstacles:
    """The bases and impassable terrain a new base must not overlap."""

    def __init__(self, state: Battlefield, skip: Iterable[str] = ()):
        skip = set(skip)
        self.state = state
        self.tol = state.rules.tol
        self.models = [m for m in state.models() if m.id not in skip]
        # round bases: centres and radii, for exact gaps by arithmetic (``_candidate_gaps``);
        # the shapes (``cores``, ``tree``) are built only when a question needs them
        self.round = np.array([m.base.is_round for m in self.models], dtype=bool)
        self.centres = np.array([(m.x, m.y) for m in self.models], dtype=float).reshape(-1, 2)
        self.pads = [m.base.radius if r else 0.0 for m, r in zip(self.models, self.round)]
        self._cores: list | None = None
        self._tree: STRtree | None = None
        self.blocks = [Polygon(t.polygon) for t in state.terrain if t.impassable]
        owner = {u.id: u.player for u in state.units}
        self.player = [owner[m.unit_id] for m in self.models]

    @property
    def cores(self) -> list:
        """Each base's core geometry (``core_and_pad``), built on first use."""
        if self._cores is None:
            self._cores = [core_and_pad(m.base, m.x, m.y, m.facing_deg)[0] for m in self.models]
        return self._cores

    @property
    def tree(self) -> STRtree | None:
        """An STRtree of the bases' footprints, built on first use (``gaps``, ``legal``)."""
        if self._tree is None and self.models:
            self._tree = STRtree([base_polygon(m.base, m.x, m.y, m.facing_deg) for m in self.models])
        return self._tree

    def gaps(self, model: Model, x: float, y: float, reach: float) -> list[tuple[int, float]]:
        """(index, signed gap) of every base within ``reach`` of ``model`` placed at (x, y)."""
        if self.tree is None:
            return []
        shape = base_polygon(model.base, x, y, model.facing_deg)
        core, pad = core_and_pad(model.base, x, y, model.facing_deg)
        idx = self.tree.query(shape, predicate="dwithin", distance=reach + self.tol)
        return [(int(i), float(shapely.distance(core, self.cores[i])) - pad - self.pads[i])
                for i in idx.tolist()]

    def legal(self, model: Model, x: float, y: float) -> bool:
        """On the table, overlapping no base and no impassable terrain."""
        shape = base_polygon(model.base, x, y, model.facing_deg)
        minx, miny, maxx, maxy = shape.bounds
        t = self.tol
        w, d = self.state.table.width, self.state.table.depth
        if minx < -t or miny < -t or maxx > w + t or maxy > d + t:
            return False
        if any(tolmod.overlapping(g, t) for _, g in self.gaps(model, x, y, 0.0)):
            return False
        inner = shape.buffer(-t) if t > 0 else shape
        return not any(b.intersects(inner) for b in self.blocks)


def _unit_ring(n: int) -> np.ndarray:
    """(n, 2): the cosines and sines of ``n`` angles from 0 on, counter-clockwise (once per n)."""
    unit = _UNIT_RING.get(n)
    if unit is None:
        unit = _UNIT_RING[n] = np.array([(math.cos(2 * math.pi * k / n), math.sin(2 * math.pi * k / n))
                                         for k in range(n)], dtype=float)
    return unit


def _rings(circles: np.ndarray, n: int = RING_ANGLES) -> np.ndarray:
    """(len(circles) * n, 2): ``n`` points on each circle (cx, cy, radius) of ``circles`` in
    inches, circle by circle, each from angle 0 on, counter-clockwise (``cx + radius * cos``,
    ``cy + radius * sin``; the cosines and sines worked out once per ``n``)."""
    unit = _unit_ring(n)
    c = np.asarray(circles, dtype=float).reshape(-1, 3)
    xs = c[:, 0, None] + c[:, 2, None] * unit[None, :, 0]
    ys = c[:, 1, None] + c[:, 2, None] * unit[None, :, 1]
    return np.stack([xs, ys], axis=-1).reshape(-1, 2)


_UNIT_RING: dict[int, np.ndarray] = {}


def _reach(model: Model) -> float:
    return max(model.base.along, model.base.across) / 2.0


def _candidate_gaps(model: Model, cands: np.ndarray, obs: _Obstacles) -> tuple[np.ndarray, np.ndarray]:
    """(legal mask, gap matrix (candidates x obstacle bases)) for ``model`` centred on each candidate."""
    tol = obs.tol
    n = len(cands)
    shapes: np.ndarray | None
    if model.base.is_round:
        r = model.base.radius
        pads = np.full(n, r)
        shapes = None
    else:
        shapes = np.array([base_polygon(model.base, x, y, model.facing_deg) for x, y in cands], dtype=object)
        pads = np.zeros(n)
    made: list[np.ndarray] = []

    def cores() -> np.ndarray:          # the candidates' core geometries, made on first use
        if not made:
            made.append(shapely.points(cands) if shapes is None else shapes)
        return made[0]

    m = len(obs.models)
    op = np.array(obs.pads, dtype=float)
    if m:
        gaps = np.empty((n, m))
        exact = obs.round if shapes is None else np.zeros(m, dtype=bool)
        if exact.any():
            # round against round: the centres' distance, worked out as GEOS does for two points
            # (sqrt(dx * dx + dy * dy), the same float operations, so the same gaps to the bit)
            dx = cands[:, 0, None] - obs.centres[None, exact, 0]
            dy = cands[:, 1, None] - obs.centres[None, exact, 1]
            gaps[:, exact] = np.sqrt(dx * dx + dy * dy)
        if not exact.all():
            oc = np.array(obs.cores, dtype=object)
            gaps[:, ~exact] = shapely.distance(cores()[:, None], oc[None, ~exact])
        gaps = gaps - pads[:, None] - op[None, :]
    else:
        gaps = np.zeros((n, 0))
    legal = ~np.any(gaps < -tol, axis=1)
    if shapes is not None and m:
        # two polygons read a gap of 0 whether touching or intersecting: test the shrunk shapes
        for i, j in zip(*np.nonzero((gaps <= 0) & (op[None, :] == 0))):
            if legal[i] and shrunk(shapes[i], tol / 2).intersects(shrunk(obs.cores[j], tol / 2)):
                legal[i] = False
    w, d = obs.state.table.width, obs.state.table.depth
    if shapes is None:
        b = np.column_stack([cands[:, 0] - r, cands[:, 1] - r, cands[:, 0] + r, cands[:, 1] + r])
    else:
        b = shapely.bounds(shapes)
    legal &= (b[:, 0] >= -tol) & (b[:, 1] >= -tol) & (b[:, 2] <= w + tol) & (b[:, 3] <= d + tol)
    for block in obs.blocks:
        legal &= (shapely.distance(cores(), block) - pads) >= -tol
    return legal, gaps


def find_return_spot(state: Battlefield, model: Model, player: str, locked_with: Iterable[str] = (),
                     prefer: Point | None = None) -> Spot | None:
    """Where a model set aside for a challenge is returned (gambit-challenge.txt, Resolution).

    Parameters
    ----------
    state : Battlefield
        The table now, without ``model`` (it was set aside).
    model : Model
        The model to place (its base and facing are kept).
    player : str
        Its owner (its unit may be gone from ``state``).
    locked_with : unit ids
        Enemy units it was locked in combat with at the start of the
        Challenge Sub-phase (used when its own unit is gone).
    prefer : (x, y) or None
        Where it stood before; among legal spots the nearest is chosen.

    Returns
    -------
    Spot or None
        None when no legal spot exists (nowhere satisfies the hard
        conditions: on the table, no overlap, off impassable terrain, in
        coherency - or, with its unit gone, in base contact with a locked
        enemy).
    """
    rules = state.rules
    tol = rules.tol
    prefer = prefer or model.at
    obs = _Obstacles(state, skip=[model.id])
    unit_id = model.unit_id
    locked = set(locked_with)
    friends = [i for i, m in enumerate(obs.models) if m.unit_id == unit_id]
    enemies = [i for i in range(len(obs.models)) if obs.player[i] != player]
    coh = rules.coherency_range
    eng = rules.engagement_range
    r = _reach(model)
    circles: list[tuple[float, float, float]] = []      # (cx, cy, radius): rings of candidates
    if friends:
        gaps = [tol / 2.0] + ([coh / 2.0, coh - tol] if coh else [])
        for i in friends:
            m = obs.models[i]
            circles += [(m.x, m.y, _reach(m) + r + g) for g in gaps]
    targets = enemies if friends else [i for i in enemies if obs.models[i].unit_id in locked]
    egaps = [tol / 2.0] + ([eng / 2.0, eng - tol] if eng > 0 else [])
    for i in targets:
        m = obs.models[i]
        circles += [(m.x, m.y, _reach(m) + r + g) for g in egaps]
    xy = np.concatenate([np.array([prefer], dtype=float), _rings(np.array(circles, dtype=float))])
    lk = [i for i in range(len(obs.models)) if obs.models[i].unit_id in locked]

    def assess(sel: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(legal, engaged, coherent, contact with each locked base) of the candidates ``sel``."""
        n = len(sel)
        legal, gaps = _candidate_gaps(model, xy[sel], obs)
        if friends:
            fg = gaps[:, friends]
            coherent = np.any((fg <= coh + tol) if coh is not None else (fg <= tol), axis=1)
            legal &= coherent
        else:
            coherent = np.ones(n, dtype=bool)
        if enemies:
            eg = gaps[:, enemies]
            engaged = np.any((eg <= tol) if eng <= 0 else (eg <= eng + tol), axis=1)
        else:
            engaged = np.zeros(n, dtype=bool)
        contact = (gaps[:, lk] <= tol) if lk else np.zeros((n, 0), dtype=bool)
        if not friends:
            legal &= contact.any(axis=1) if lk else np.zeros(n, dtype=bool)
        return legal, engaged, coherent, contact

    # the choice: an engaged legal spot before one not engaged, then the nearest ``prefer``, then
    # the first made.  Candidates are weighed nearest first (a stable sort keeps the order they
    # were made in among equal distances), a batch at a time, so the search stops at the first
    # batch holding an engaged legal spot.
    near = np.argsort(np.hypot(xy[:, 0] - prefer[0], xy[:, 1] - prefer[1]), kind="stable")
    found: tuple[int, bool, bool, np.ndarray] | None = None
    for b in range(0, len(near), RETURN_BATCH):
        sel = near[b:b + RETURN_BATCH]
        legal, engaged, coherent, contact = assess(sel)
        hit = np.nonzero(legal & engaged)[0]
        if len(hit):
            j = int(hit[0])
            found = (int(sel[j]), True, bool(coherent[j]), contact[j])
            break
        plain = np.nonzero(legal)[0]
        if found is None and len(plain):
            j = int(plain[0])
            found = (int(sel[j]), False, bool(coherent[j]), contact[j])
    if found is None:
        return None
    k, engaged_k, coherent_k, contact_k = found
    touching = tuple(sorted(obs.models[lk[j]].id for j in np.nonzero(contact_k)[0])) if lk else ()
    return Spot(float(xy[k, 0]), float(xy[k, 1]), engaged_k, coherent_k, touching)


# --------------------------------------------------------------- swaps in a unit
def _swapped(state: Battlefield, a: str, b: str) -> Battlefield:
    ma, mb = state.model(a), state.model(b)
    return state.with_models([ma.moved_to(mb.x, mb.y, mb.facing_deg), mb.moved_to(ma.x, ma.y, ma.facing_deg)])


def _no_new_overlaps(geom: Geometry, before: Geometry) -> bool:
    return len(geom.overlaps) <= len(before.overlaps) and not (set(geom.overlaps) - set(before.overlaps))


def swap_out_of_contact(state: Battlefield, model_id: str,
                        geom: Geometry | None = None) -> tuple[str, Battlefield] | None:
    """A model of ``model_id``'s unit to trade places with so it leaves base contact.

    The partner must not be in base contact with an enemy; after the swap the
    character is in base contact with no enemy model and no bases overlap.
    The nearest such partner is chosen.  Returns (partner id, new state), or
    None when the character cannot be moved out of base contact (a lone
    character; a small or surrounded unit) - character-challenge.txt ¶4.
    """
    geom = geom or snapshot(state)
    me = state.model(model_id)
    unit = state.unit(me.unit_id)
    options = []
    for m in unit.models:
        if m.id == model_id or geom.contacts_of(m.id):
            continue
        options.append((math.hypot(m.x - me.x, m.y - me.y), m.id))
    for _, other in sorted(options):
        after = _swapped(state, model_id, other)
        g2 = snapshot(after)
        if not g2.contacts_of(model_id) and _no_new_overlaps(g2, geom):
            return other, after
    return None


def swap_into_contact(state: Battlefield, a: str, b: str,
                      geom: Geometry | None = None) -> tuple[dict[str, str], Battlefield] | None:
    """Trade places inside each unit so characters ``a`` and ``b`` are in base contact.

    Tries every pair of spots (a model of a's unit, a model of b's unit, the
    characters themselves included) whose bases touch - face to face before
    corner to corner (named default ``CONTACT_PREFERENCE``), then the
    shortest total move, then by id - keeping no overlaps.  Returns ({character: partner it swapped
    with}, new state) - an empty dict when they already touch - or None when
    the table does not allow it (character-challenge.txt ¶5: then they are
    treated as in base contact).
    """
    geom = geom or snapshot(state)
    if geom.in_base_contact(a, b):
        return {}, state
    ma, mb = state.model(a), state.model(b)
    ua, ub = state.unit(ma.unit_id), state.unit(mb.unit_id)
    pairs = []
    for pa in ua.models:
        for pb in ub.models:
            if geom.in_base_contact(pa.id, pb.id):
                cost = math.hypot(pa.x - ma.x, pa.y - ma.y) + math.hypot(pb.x - mb.x, pb.y - mb.y)
                face = math.hypot(pa.x - pb.x, pa.y - pb.y) <= _reach(ma) + _reach(mb) + geom.tol
                pairs.append((not face, round(cost, 9), pa.id, pb.id))
    for _, _, ida, idb in sorted(pairs):
        after = state
        swaps: dict[str, str] = {}
        if ida != a:
            after = _swapped(after, a, ida)
            swaps[a] = ida
        if idb != b:
            after = _swapped(after, b, idb)
            swaps[b] = idb
        g2 = snapshot(after)
        if g2.in_base_contact(a, b) and _no_new_overlaps(g2, geom):
            return swaps, after
    return None


# --------------------------------------------------------------- the set-aside box
@dataclass(frozen=True)
class AsideBox:
    """A box (inches: x0, y0, x1, y1) and the centres of the bases drawn in it, in base contact.

    ``clear``: it lies on the table over no base and no impassable terrain
    (False only when the table has no such room; then it is the candidate
    over the fewest bases)."""

    box: tuple[float, float, float, float]
    centres: dict[str, Point]
    side: str
    clear: bool


def aside_box(state: Battlefield, combat: Iterable[str], models: list[Model],
              skip: Iterable[str] = (), avoid: Iterable[tuple[float, float, float, float]] = ()) -> AsideBox:
    """Where a set-aside pair is drawn: side by side in base contact inside a box beside the combat.

    Parameters
    ----------
    combat : unit ids whose bases the box goes beside.
    models : the set-aside models, drawn left to right (each by its widest extent).
    skip : model ids not to avoid (the set-aside models themselves).
    avoid : boxes already taken (other set-aside pairs), (x0, y0, x1, y1) inches.

    The box is ``sum of widths + 2 ASIDE_PAD`` wide and ``widest depth + 2
    ASIDE_PAD + ASIDE_LABEL`` deep, ``ASIDE_GAP`` from the combat's bounding
    box on one of ``ASIDE_SIDES`` (in that order of preference), slid along
    that side in ``ASIDE_STEP`` steps; the first candidate nearest the
    combat's centre that is on the table and touches no base (exact shapes,
    the map's tolerance), no impassable terrain and no ``avoid`` box wins.
    """
    skip = set(skip)
    tol = state.rules.tol
    reach = [_reach(m) for m in models]
    w = 2 * sum(reach) + 2 * ASIDE_PAD
    d = 2 * max(reach) + 2 * ASIDE_PAD + ASIDE_LABEL
    combat = set(combat)
    polys = [base_polygon(m.base, m.x, m.y, m.facing_deg) for m in state.models() if m.id not in skip]
    mine = [base_polygon(m.base, m.x, m.y, m.facing_deg) for u in state.units if u.id in combat
            for m in u.models if m.id not in skip] or [base_polygon(m.base, m.x, m.y, m.facing_deg) for m in models]
    bx0, by0, bx1, by1 = shapely.union_all(mine).bounds
    cx, cy = (bx0 + bx1) / 2, (by0 + by1) / 2
    tree = STRtree(polys) if polys else None
    blocks = [Polygon(t.polygon) for t in state.terrain if t.impassable]
    blocks += [shapely.box(*b).buffer(ASIDE_PAD) for b in avoid]
    W, D = state.table.width, state.table.depth
    cands = []
    for rank, side in enumerate(ASIDE_SIDES):
        if side in ("right", "left"):
            x0 = bx1 + ASIDE_GAP if side == "right" else bx0 - ASIDE_GAP - w
            span, mid = D, cy - d / 2
            for k in range(int(span / ASIDE_STEP) + 1):
                for sgn in ((1,) if k == 0 else (1, -1)):
                    cands.append((rank, k, x0, mid + sgn * k * ASIDE_STEP, side))
        else:
            y0 = by1 + ASIDE_GAP if side == "above" else by0 - ASIDE_GAP - d
            span, mid = W, cx - w / 2
            for k in range(int(span / ASIDE_STEP) + 1):
                for sgn in ((1,) if k == 0 else (1, -1)):
                    cands.append((rank, k, mid + sgn * k * ASIDE_STEP, y0, side))
    # (x0, y0, side, True when clear of every model and block, else the number of hits)
    best: tuple[float, float, str, bool | int] | None = None
    for _, _, x0, y0, side in sorted(cands, key=lambda c: (c[1], c[0])):
        if x0 < -tol or y0 < -tol or x0 + w > W + tol or y0 + d > D + tol:
            continue
        box = shapely.box(x0, y0, x0 + w, y0 + d)
        hits = len(tree.query(box, predicate="intersects")) if tree is not None else 0
        if blocks and any(b.intersects(box) for b in blocks):
            hits += 1
        if hits == 0:
            best = (x0, y0, side, True)
            break
        if best is None or hits < best[3]:
            best = (x0, y0, side, hits)
    if best is None:                        # nothing fits on the table: right of the combat
        best = (bx1 + ASIDE_GAP, cy - d / 2, "right", 1)
    x0, y0, side, clear = best
    centres: dict[str, Point] = {}
    x = x0 + ASIDE_PAD
    top = y0 + d - ASIDE_PAD - max(reach)
    for m, r in zip(models, reach):
        centres[m.id] = (x + r, top)
        x += 2 * r
    return AsideBox((x0, y0, x0 + w, y0 + d), centres, side, clear is True)
