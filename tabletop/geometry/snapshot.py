"""The geometry snapshot: computed once per state, answers every question the rules ask.

``snapshot(state)`` builds one Shapely ``STRtree`` over every base footprint
and the exact gaps of every pair of models near enough to matter (within the
largest of engagement and coherency range).  All answers use the map's one
tolerance (``tolerance.py``).  Coordinates are inches, origin bottom-left,
y up; ids are unit ids, model ids ``<unit>/<n>``, objective and terrain ids.

Rules code never calls Shapely: it asks the snapshot.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import shapely
from shapely import STRtree
from shapely.geometry import Point, Polygon

from tabletop.board.state import Battlefield, Model
from tabletop.errors import UnknownIdError
from tabletop.geometry import tolerance as tolmod
from tabletop.geometry.footprints import footprint_arrays, shrunk


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


@dataclass(frozen=True)
class CoherencyBreak:
    """Models of one unit that break coherency, and why (03.03)."""

    unit: str
    models: tuple[str, ...]
    reasons: dict[str, str]


class Geometry:
    """Everything the rules and reports need to know about one state's positions.

    Build with ``snapshot(state)``; never mutate.  Arrays are indexed by
    ``index_of(model id)``, in the order of ``ids`` (units in file order,
    models in file order).
    """

    def __init__(self, state: Battlefield):
        self.state = state
        self.rules = state.rules
        self.tol = state.rules.tol
        models: list[Model] = list(state.models())
        self.ids: list[str] = [m.id for m in models]
        self._index = {mid: i for i, mid in enumerate(self.ids)}
        self.unit_of: list[str] = [m.unit_id for m in models]
        owner = {u.id: u.player for u in state.units}
        self.player_of: list[str] = [owner[u] for u in self.unit_of]
        self.models: list[Model] = models
        self.centres = np.array([[m.x, m.y] for m in models], dtype=float).reshape(-1, 2)
        self.cores, self.pads, self.shapes = footprint_arrays(models)
        self.tree = STRtree(self.shapes)
        self._bounds = shapely.bounds(self.shapes).reshape(-1, 4)
        self._unit_members: dict[str, list[int]] = {}
        for i, u in enumerate(self.unit_of):
            self._unit_members.setdefault(u, []).append(i)
        near = max(self.rules.engagement_range, self.rules.coherency_range or 0.0) + self.tol
        self.near = near
        self._gap: dict[tuple[int, int], float] = {}
        self._overlap: set[tuple[int, int]] = set()
        if len(models) > 1:
            left, right = self._candidates(np.arange(len(models)), near)
            keep = left < right
            left, right = left[keep], right[keep]
            g = shapely.distance(self.cores[left], self.cores[right]) - self.pads[left] - self.pads[right]
            close = g <= near + tolmod.EPS
            for i, j, v in zip(left[close].tolist(), right[close].tolist(), g[close].tolist()):
                self._gap[(i, j)] = v
            self._find_overlaps()

    def without(self, state: Battlefield) -> Geometry:
        """The snapshot of ``state``, a table that only lost models of this one (casualties
        removed, every other model where it stands here): derived from this snapshot, not
        built again.  Every answer equals ``snapshot(state)``'s: the kept models' footprints
        and pair gaps depend only on those two models, and the tree is rebuilt over the
        kept footprints in the same order.

        Raises ``ValueError`` when ``state`` has a model this snapshot lacks or one that
        stands elsewhere (then build it with ``snapshot``)."""
        models: list[Model] = list(state.models())
        keep = [self._index.get(m.id, -1) for m in models]
        for m, i in zip(models, keep):
            old = self.models[i] if i >= 0 else None
            if old is not m and (old is None or old.x != m.x or old.y != m.y
                                 or old.facing_deg != m.facing_deg or old.base != m.base):
                raise ValueError(f"{m.id} is not where this snapshot has it: build a new snapshot")
        new = object.__new__(Geometry)
        new.state, new.rules, new.tol, new.near = state, state.rules, state.rules.tol, self.near
        new.ids = [m.id for m in models]
        new._index = {mid: k for k, mid in enumerate(new.ids)}
        new.unit_of = [self.unit_of[i] for i in keep]
        new.player_of = [self.player_of[i] for i in keep]
        new.models = models
        at = np.array(keep, dtype=int)
        new.centres = self.centres[at].reshape(-1, 2)
        new.cores, new.pads, new.shapes = self.cores[at], self.pads[at], self.shapes[at]
        new.tree = STRtree(new.shapes)
        new._bounds = self._bounds[at].reshape(-1, 4)
        new._unit_members = {}
        for k, u in enumerate(new.unit_of):
            new._unit_members.setdefault(u, []).append(k)
        sh = [-1] * len(self.ids)       # old index -> new index (-1: removed); keeps the order
        for k, i in enumerate(keep):
            sh[i] = k
        new._gap = {(sh[i], sh[j]): g for (i, j), g in self._gap.items()
                    if sh[i] >= 0 and sh[j] >= 0}
        new._overlap = {(sh[i], sh[j]) for i, j in self._overlap if sh[i] >= 0 and sh[j] >= 0}
        return new

    def _candidates(self, idx, distance: float) -> tuple[np.ndarray, np.ndarray]:
        """Index pairs (into ``idx``, into all models) whose bounding boxes come within
        ``distance`` inches: every pair of bases within it, and a few more; the exact
        gap decides.  (Filtering by box is far cheaper than ``dwithin`` on the 128-gons,
        which also read up to 0.0002" wider than the exact circle gap.)"""
        b = self._bounds[idx]
        boxes = shapely.box(b[:, 0] - distance, b[:, 1] - distance,
                            b[:, 2] + distance, b[:, 3] + distance)
        return self.tree.query(boxes)

    # ------------------------------------------------------------ lookups
    def index_of(self, model_id: str) -> int:
        try:
            return self._index[model_id]
        except KeyError:
            raise UnknownIdError(f"no model {model_id!r}") from None

    def model(self, model_id: str) -> Model:
        return self.models[self.index_of(model_id)]

    def unit_models(self, unit_id: str) -> list[str]:
        """Model ids of a unit still on the table, in order."""
        return [self.ids[i] for i in self._unit_members.get(unit_id, [])]

    def footprint(self, model_id: str) -> Polygon:
        """The base's outline (a polygon; round bases as 128-gons)."""
        return self.shapes[self.index_of(model_id)]

    def kind_of(self, any_id: str) -> str:
        """"model", "unit", "objective" or "terrain" (raises UnknownIdError)."""
        if any_id in self._index:
            return "model"
        if any_id in self._unit_members:
            return "unit"
        if any(o.id == any_id for o in self.state.objectives):
            return "objective"
        if any(t.id == any_id for t in self.state.terrain):
            return "terrain"
        raise UnknownIdError(f"no model, unit, objective or terrain with id {any_id!r}")

    # ------------------------------------------------------------ gaps
    def _gap_ij(self, i: int, j: int) -> float:
        if i == j:
            return 0.0
        key = (i, j) if i < j else (j, i)
        v = self._gap.get(key)
        if v is None:
            v = float(shapely.distance(self.cores[i], self.cores[j])) - self.pads[i] - self.pads[j]
        return v

    def _find_overlaps(self) -> None:
        half = self.tol / 2.0
        for (i, j), g in self._gap.items():
            if tolmod.overlapping(g, self.tol):
                self._overlap.add((i, j))
            elif g <= 0 and self.pads[i] == 0 and self.pads[j] == 0:
                # two polygons touching or intersecting (their gap reads 0): they
                # overlap when they still intersect once each is shrunk by tol/2
                if shrunk(self.cores[i], half).intersects(shrunk(self.cores[j], half)):
                    self._overlap.add((i, j))

    def gap(self, a: str, b: str) -> float:
        """Signed edge-to-edge gap between two models, inches (negative: intersecting)."""
        return self._gap_ij(self.index_of(a), self.index_of(b))

    def model_distance(self, a: str, b: str) -> float:
        """Edge-to-edge distance between two models, inches, >= 0."""
        return max(0.0, self.gap(a, b))

    def in_base_contact(self, a: str, b: str) -> bool:
        """Gap at most the tolerance and not overlapping."""
        i, j = self.index_of(a), self.index_of(b)
        if i == j:
            return False
        key = (i, j) if i < j else (j, i)
        return tolmod.in_contact(self._gap_ij(i, j), self.tol) and key not in self._overlap

    def overlapping(self, a: str, b: str) -> bool:
        i, j = self.index_of(a), self.index_of(b)
        return ((i, j) if i < j else (j, i)) in self._overlap

    # ------------------------------------------------------------ general distance
    def _parts(self, any_id: str):
        """(cores, pads) arrays for a model, unit, objective or terrain id."""
        kind = self.kind_of(any_id)
        if kind == "model":
            i = self._index[any_id]
            return self.cores[i:i + 1], self.pads[i:i + 1]
        if kind == "unit":
            idx = self._unit_members[any_id]
            return self.cores[idx], self.pads[idx]
        if kind == "objective":
            o = self.state.objective(any_id)
            return np.array([Point(*o.at)], dtype=object), np.array([o.marker.radius])
        t = self.state.terrain_piece(any_id)
        return np.array([Polygon(t.polygon)], dtype=object), np.array([0.0])

    def distance(self, a: str, b: str) -> float:
        """Edge-to-edge distance between any two ids (model, unit, objective, terrain), inches.

        Units measure between their closest models; objectives to the marker's
        edge; terrain to its outline (0 when a base stands on it).

        Raises
        ------
        UnknownIdError
            When an id names nothing on the map.
        """
        if a in self._index and b in self._index:
            return self.model_distance(a, b)
        ca, pa = self._parts(a)
        cb, pb = self._parts(b)
        d = shapely.distance(ca[:, None], cb[None, :]) - pa[:, None] - pb[None, :]
        return max(0.0, float(d.min()))

    def within(self, a: str, b: str, limit: float) -> bool:
        """``distance(a, b)`` is not more than ``limit`` (with the tolerance)."""
        return tolmod.within(self.distance(a, b), limit, self.tol)

    # ------------------------------------------------------------ contacts
    @cached_property
    def overlaps(self) -> list[tuple[str, str]]:
        """Every pair of models whose bases intersect by more than the tolerance, sorted."""
        return sorted(_pair(self.ids[i], self.ids[j]) for i, j in self._overlap)

    def _pairs_where(self, test, enemies: bool | None) -> list[tuple[str, str]]:
        out = []
        for (i, j), g in self._gap.items():
            if enemies is not None and (self.player_of[i] != self.player_of[j]) != enemies:
                continue
            if test(g) and (i, j) not in self._overlap:
                out.append(_pair(self.ids[i], self.ids[j]))
        return sorted(out)

    @cached_property
    def base_contacts(self) -> list[tuple[str, str]]:
        """Pairs of enemy models in base contact, sorted."""
        return self._pairs_where(lambda g: tolmod.in_contact(g, self.tol), enemies=True)

    @cached_property
    def all_base_contacts(self) -> list[tuple[str, str]]:
        """Pairs of models in base contact, friendly ones included, sorted."""
        return self._pairs_where(lambda g: tolmod.in_contact(g, self.tol), enemies=None)

    def contacts_of(self, model_id: str, enemies: bool | None = True) -> list[str]:
        """Models in base contact with ``model_id`` (enemies only by default)."""
        return self._neighbours(model_id, lambda g: tolmod.in_contact(g, self.tol), enemies,
                                exclude_overlaps=True)

    def _neighbours(self, model_id: str, test, enemies: bool | None,
                    exclude_overlaps: bool = False) -> list[str]:
        i = self.index_of(model_id)
        out = []
        for j in sorted(self._candidates([i], self.near)[1].tolist()):
            if j == i:
                continue
            if enemies is not None and (self.player_of[i] != self.player_of[j]) != enemies:
                continue
            if exclude_overlaps and ((i, j) if i < j else (j, i)) in self._overlap:
                continue
            if test(self._gap_ij(i, j)):
                out.append(self.ids[j])
        return out

    # ------------------------------------------------------------ engagement
    def _engaged_gap(self, g: float) -> bool:
        if self.rules.engages_by_contact:
            return tolmod.in_contact(g, self.tol)
        return tolmod.within(g, self.rules.engagement_range, self.tol)

    def engaged_models(self, model_id: str) -> list[str]:
        """Enemy models within engagement range of ``model_id`` (base contact for rank-and-flank)."""
        return self._neighbours(model_id, self._engaged_gap, enemies=True)

    def model_engaged(self, model_id: str) -> bool:
        return bool(self.engaged_models(model_id))

    def model_engaged_with_unit(self, model_id: str, unit_id: str) -> bool:
        return any(self.unit_of[self._index[e]] == unit_id for e in self.engaged_models(model_id))

    @cached_property
    def engaged_model_pairs(self) -> list[tuple[str, str]]:
        """Pairs of enemy models within engagement range of each other, sorted."""
        out = []
        for (i, j), g in self._gap.items():
            if self.player_of[i] != self.player_of[j] and self._engaged_gap(g):
                out.append(_pair(self.ids[i], self.ids[j]))
        return sorted(out)

    @cached_property
    def engaged_unit_pairs(self) -> list[tuple[str, str]]:
        """Pairs of enemy units with at least one engaged model pair, sorted."""
        pairs = {_pair(a.rsplit("/", 1)[0], b.rsplit("/", 1)[0]) for a, b in self.engaged_model_pairs}
        return sorted(pairs)

    def engaged_units(self, unit_id: str) -> list[str]:
        """Enemy units engaged with ``unit_id``, sorted."""
        out = set()
        for a, b in self.engaged_unit_pairs:
            if a == unit_id:
                out.add(b)
            elif b == unit_id:
                out.add(a)
        return sorted(out)

    @cached_property
    def engaged_unit_ids(self) -> frozenset[str]:
        """The units engaged with at least one enemy unit."""
        return frozenset(u for p in self.engaged_unit_pairs for u in p)

    def unit_engaged(self, unit_id: str) -> bool:
        return unit_id in self.engaged_unit_ids

    @cached_property
    def engagements(self) -> list[list[str]]:
        """Engaged units as connected groups (several units in one combat), each sorted."""
        parent: dict[str, str] = {}

        def find(x: str) -> str:
            while parent.setdefault(x, x) != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        for a, b in self.engaged_unit_pairs:
            parent[find(a)] = find(b)
        groups: dict[str, list[str]] = {}
        for u in parent:
            groups.setdefault(find(u), []).append(u)
        order = {u.id: k for k, u in enumerate(self.state.units)}
        return sorted((sorted(g) for g in groups.values()), key=lambda g: min(order[u] for u in g))

    def enemy_units_within(self, unit_id: str, limit: float) -> list[str]:
        """Enemy units with a model within ``limit`` inches of a model of ``unit_id``, sorted."""
        idx = self._unit_members.get(unit_id, [])
        if not idx:
            return []
        player = self.player_of[idx[0]]
        hits = self._candidates(idx, limit + self.tol + tolmod.EPS)
        out = set()
        for i, j in zip(hits[0].tolist(), hits[1].tolist()):
            a = idx[i]
            if self.player_of[j] != player and tolmod.within(self._gap_ij(a, j), limit, self.tol):
                out.add(self.unit_of[j])
        return sorted(out)

    # ------------------------------------------------------------ coherency
    @cached_property
    def coherency(self) -> dict[str, CoherencyBreak]:
        """Units out of coherency: ``{unit id: CoherencyBreak}`` (empty when all hold).

        fight-phase (03.03): each model within ``coherency_range`` of
        ``coherency_neighbours`` other models (``coherency_neighbours_7plus``
        in units of 7 or more) and, when ``coherency_spread`` is set, every
        model within it of every other model of its unit.  rank-and-flank
        (named default ``coherency_range = "formation"``): each model in base
        contact with at least one other model of its unit.
        """
        out: dict[str, CoherencyBreak] = {}
        r = self.rules
        for uid, idx in self._unit_members.items():
            n = len(idx)
            if n < 2:
                continue
            sub = np.array(idx)
            g = shapely.distance(self.cores[sub][:, None], self.cores[sub][None, :]) \
                - self.pads[sub][:, None] - self.pads[sub][None, :]
            np.fill_diagonal(g, np.inf)
            reasons: dict[str, str] = {}
            if r.coherency_range is None:
                ok = (g <= self.tol + tolmod.EPS).sum(axis=1)
                for k in np.nonzero(ok < 1)[0].tolist():
                    reasons[self.ids[idx[k]]] = "not in base contact with another model of its unit"
            else:
                need = r.coherency_needed(n)
                near = (g <= r.coherency_range + self.tol + tolmod.EPS).sum(axis=1)
                for k in np.nonzero(near < need)[0].tolist():
                    reasons[self.ids[idx[k]]] = (
                        f"within {r.coherency_range:g}\" of {int(near[k])} other model"
                        f"{'s' if near[k] != 1 else ''}, needs {need}")
                if r.coherency_spread is not None:
                    np.fill_diagonal(g, 0.0)
                    far = g > r.coherency_spread + self.tol + tolmod.EPS
                    for k in np.nonzero(far.any(axis=1))[0].tolist():
                        worst = int(np.argmax(g[k]))
                        msg = (f"{g[k, worst]:.2f}\" from {self.ids[idx[worst]]}, "
                               f"more than {r.coherency_spread:g}\"")
                        reasons[self.ids[idx[k]]] = (
                            reasons[self.ids[idx[k]]] + "; " + msg if self.ids[idx[k]] in reasons else msg)
            if reasons:
                models = tuple(m for m in self.unit_models(uid) if m in reasons)
                out[uid] = CoherencyBreak(uid, models, reasons)
        return out

    def in_coherency(self, unit_id: str) -> bool:
        return unit_id not in self.coherency

    # ------------------------------------------------------------ table, objectives, terrain
    @cached_property
    def off_table(self) -> list[str]:
        """Models whose base goes past a table edge by more than the tolerance."""
        w, d = self.state.table.width, self.state.table.depth
        if not self.ids:
            return []
        b = shapely.bounds(self.shapes)
        t = self.tol + tolmod.EPS
        bad = (b[:, 0] < -t) | (b[:, 1] < -t) | (b[:, 2] > w + t) | (b[:, 3] > d + t)
        return [self.ids[i] for i in np.nonzero(bad)[0].tolist()]

    def objective_distance(self, model_id: str, objective_id: str) -> float:
        """Edge of base to edge of marker, inches."""
        return self.distance(model_id, objective_id)

    @cached_property
    def objective_ranges(self) -> dict[str, dict[str, list[str]]]:
        """``{objective id: {player id: [model ids within its range]}}`` for every player."""
        out: dict[str, dict[str, list[str]]] = {}
        for o in self.state.objectives:
            rng = self.state.objective_range(o)
            per: dict[str, list[str]] = {p.id: [] for p in self.state.players}
            if self.ids:
                centre = Point(*o.at)
                reach = rng + o.marker.radius + self.tol + tolmod.EPS
                hits = self.tree.query(shapely.box(o.at[0] - reach, o.at[1] - reach,
                                                   o.at[0] + reach, o.at[1] + reach))
                for j in sorted(hits.tolist()):
                    d = float(shapely.distance(self.cores[j], centre)) - self.pads[j] - o.marker.radius
                    if tolmod.within(max(0.0, d), rng, self.tol):
                        per[self.player_of[j]].append(self.ids[j])
            out[o.id] = per
        return out

    def terrain_under(self, model_id: str) -> list[str]:
        """Terrain pieces the model's base touches or stands on."""
        fp = self.footprint(model_id)
        return [t.id for t in self.state.terrain if Polygon(t.polygon).intersects(fp)]

    # ------------------------------------------------------------ nearest
    def nearest(self, model_id: str, candidates: Iterable[str]) -> tuple[str | None, float]:
        """The closest of ``candidates`` (any ids) to ``model_id`` and its distance."""
        best, best_d = None, float("inf")
        for c in candidates:
            d = self.distance(model_id, c)
            if d < best_d:
                best, best_d = c, d
        return best, best_d

    def nearest_enemy(self, model_id: str) -> tuple[str | None, float]:
        """Closest enemy model and the edge-to-edge distance (inches)."""
        i = self.index_of(model_id)
        enemies = [k for k in range(len(self.ids)) if self.player_of[k] != self.player_of[i]]
        if not enemies:
            return None, float("inf")
        g = shapely.distance(self.cores[i], self.cores[enemies]) - self.pads[i] - self.pads[enemies]
        k = int(np.argmin(g))
        return self.ids[enemies[k]], max(0.0, float(g[k]))

    def nearest_objective(self, model_id: str) -> tuple[str | None, float]:
        return self.nearest(model_id, [o.id for o in self.state.objectives])


    # ------------------------------------------------------------ drawing helpers
    def unit_outline(self, unit_id: str, margin: float = 0.15):
        """The footprint of a unit for drawing: its bases closed over small gaps.

        The union of the unit's bases grown by ``UNIT_OUTLINE_BRIDGE`` and shrunk
        back to ``margin`` inches outside the bases, so models less than about
        2 x (bridge - margin) apart share one outline and stragglers get their
        own.  Returns a Polygon or a MultiPolygon (inches); None when the unit
        has no models on the table.
        """
        key = (unit_id, margin)
        cache = self.__dict__.setdefault("_outlines", {})
        if key not in cache:
            idx = self._unit_members.get(unit_id, [])
            if not idx:
                cache[key] = None
            else:
                cache[key] = _outline_of(tuple((self.models[i].base, self.models[i].x,
                                                self.models[i].y, self.models[i].facing_deg)
                                               for i in idx), self.shapes[idx], margin)
        return cache[key]

    def contact_point(self, a: str, b: str) -> tuple[float, float]:
        """Where two models' bases meet (inches): the middle of the shortest line
        between their outlines, or the centre of their overlap when they intersect."""
        fa, fb = self.footprint(a), self.footprint(b)
        if fa.intersects(fb):
            c = fa.intersection(fb).centroid
            return (c.x, c.y)
        line = shapely.shortest_line(fa, fb)
        (x1, y1), (x2, y2) = line.coords[0], line.coords[-1]
        return ((x1 + x2) / 2.0, (y1 + y2) / 2.0)

    def contact_stretch(self, a: str, b: str) -> tuple[tuple[float, float], tuple[float, float]] | None:
        """Where two bases in contact share their outline: the two far ends (inches) of
        the part of b's outline within the tolerance of a's base, or None when no part is.

        Two rectangles front to front give their shared edge; round bases a short
        arc round the contact point (a few tenths of an inch)."""
        fa, fb = self.footprint(a), self.footprint(b)
        near = fb.exterior.intersection(fa.buffer(self.tol + 1e-9, quad_segs=8))
        if near.is_empty:
            return None
        pts = np.array(shapely.get_coordinates(near))
        if len(pts) < 2:
            return None
        # the two points furthest apart, along the main direction of the stretch
        centred = pts - pts.mean(axis=0)
        axis = np.linalg.svd(centred, full_matrices=False)[2][0]
        t = centred @ axis
        p, q = pts[int(np.argmin(t))], pts[int(np.argmax(t))]
        return (float(p[0]), float(p[1])), (float(q[0]), float(q[1]))

    def overlap_region(self, a: str, b: str):
        """The area two models' bases share (a Polygon, possibly empty), inches."""
        return self.footprint(a).intersection(self.footprint(b))


    # ------------------------------------------------------------ rank-and-flank
    def formation(self, unit_id: str):
        """The unit as a rank-and-flank grid (``geometry.ranks.UnitFormation``), cached.

        Raises UnknownIdError when the unit has no models on the table.
        """
        cache = self.__dict__.setdefault("_formations", {})
        if unit_id not in cache:
            from tabletop.geometry.ranks import formation_of
            cache[unit_id] = formation_of(self, unit_id)
        return cache[unit_id]

    def sides(self, unit_id: str):
        """Which side of ``unit_id`` each enemy touches (``geometry.ranks.UnitSides``), cached."""
        cache = self.__dict__.setdefault("_sides", {})
        if unit_id not in cache:
            from tabletop.geometry.ranks import sides_of
            cache[unit_id] = sides_of(self, unit_id)
        return cache[unit_id]


# named default: how far unit outlines bridge between bases (inches), see unit_outline
UNIT_OUTLINE_BRIDGE = 1.0

OUTLINE_CACHE_ENTRIES = 256
"""How many unit outlines are kept across snapshots (``_outline_of``).  A phase makes a
new snapshot for each step but moves one or two units a step, so the outlines of the
others (a union of buffers, the costliest thing a redraw asks the geometry) are the
same shapes as before: they are taken from here, keyed by the bases and positions."""

_OUTLINES: dict = {}


def _outline_of(models: tuple, shapes, margin: float):
    """The unit outline (see ``Geometry.unit_outline``) of the bases ``shapes``, whose
    ``models`` are (base, x, y, facing_deg) each; the same key gives the same (shared,
    immutable) shape.  Keeps at most ``OUTLINE_CACHE_ENTRIES``, the oldest dropped."""
    key = (models, margin, UNIT_OUTLINE_BRIDGE)
    got = _OUTLINES.pop(key, None)
    if got is None:
        grown = shapely.union_all(shapely.buffer(shapes, UNIT_OUTLINE_BRIDGE, quad_segs=8))
        got = grown.buffer(margin - UNIT_OUTLINE_BRIDGE, quad_segs=8)
        while len(_OUTLINES) >= OUTLINE_CACHE_ENTRIES:
            _OUTLINES.pop(next(iter(_OUTLINES)))
    _OUTLINES[key] = got                  # newest last
    return got


def snapshot(state: Battlefield) -> Geometry:
    """Build the geometry snapshot of ``state`` (one STRtree; see ``Geometry``)."""
    return Geometry(state)
