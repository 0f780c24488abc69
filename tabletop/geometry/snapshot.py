"""The geometry snapshot: computed once per state, answers every question the rules ask.

``snapshot(state)`` finds every pair of models near enough to matter (within the
largest of engagement and coherency range, plus the tolerance) with a numpy cell
grid over the centres (``near_pairs.circle_pairs``), and their exact gaps: every pair
first read by its bases' circumcircles (the exact gap of two round bases, centre and
radius, numpy over all pairs at once), then the pairs with an oval or a rectangle in
them that come near measured exactly, numpy over all such pairs at once, each in its
template's frame (``convex.odd_gaps``: a polygon against a round base's centre, two
copies of one symmetric base facing one way as a point against the base doubled, other
pairs by ``convex.convex_gaps``).  An oval's or a rectangle's outline (the very
coordinates ``footprints.base_polygon`` gives) is built only when read
(``convex.LazyForm``), its Shapely polygon only when a question needs it (``_polys``).
The pairs are kept as parallel numpy arrays, so a table that only lost models (``Geometry.without``) or had a few
models moved (``Geometry.moved``) is derived from this one by dropping the pairs of
the changed models and measuring only the pairs touching the moved ones (and, for a
drawing, handing on the base and unit outlines of what did not move:
``moved(..., carry_drawing=True)``).  The footprint polygons, the bounding boxes and the
Shapely ``STRtree`` are built only when something asks for them (drawing, the window's
point queries, rank-and-flank sides, the table edge).

All answers use the map's one tolerance (``tolerance.py``).  Coordinates are
inches, origin bottom-left, y up; ids are unit ids, model ids ``<unit>/<n>``,
objective and terrain ids.  Rules code never calls Shapely: it asks the snapshot.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import chain
from operator import attrgetter
from typing import cast

import numpy as np
import numpy.ma  # noqa: F401  (np.unique's first call imports it: 12-25 ms, taken here)
import numpy.typing as npt
import shapely
from shapely import STRtree
from shapely.geometry import Point, Polygon

from tabletop.board.state import Battlefield, Model
from tabletop.errors import UnknownIdError
from tabletop.geometry import convex, near_pairs
from tabletop.geometry import tolerance as tolmod
from tabletop.geometry.footprints import footprint_arrays

DERIVE_MAX_MOVED = 64
"""``Geometry.moved``: above this many moved models the snapshot is built afresh (the
grid finds all pairs at once faster than each moved model is tested against every
other).  Not a rule: any value gives the same answers."""

_ID, _X, _Y, _BASE = (attrgetter(a) for a in ("id", "x", "y", "base"))

_POLYGONS: dict[tuple, tuple[float, convex.LazyForm]] = {}
_SHAPES: dict[tuple, Polygon] = {}
_POLYGON_CACHE_SIZE = 20_000


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


def _key(m: Model) -> tuple:
    return (m.base, m.x, m.y, m.facing_deg)


def _polygons(models: Sequence[Model]) -> list[tuple[float, convex.LazyForm]]:
    """For non-round bases: (circumradius about the centre in inches, a hair over
    (``convex.template_reach``); convex form for ``convex.odd_gaps``, its outline
    (``base_polygon``'s very coordinates) built only when read: ``convex.LazyForm``) of
    each, kept between snapshots (immutable, keyed by base and place).  Their Shapely
    polygons are built only when asked (``_shapes``)."""
    keys = list(map(_key, models))
    out = [_POLYGONS.get(k) for k in keys]
    todo: dict = {}
    for k, got in enumerate(out):
        if got is None:
            todo.setdefault(keys[k][0], []).append(k)
    if todo and len(_POLYGONS) + len(models) >= _POLYGON_CACHE_SIZE:
        _POLYGONS.clear()
        _SHAPES.clear()
    for base, ks in todo.items():
        reach = convex.template_reach(base)
        forms = convex.lazy_forms(base, [keys[k][1] for k in ks], [keys[k][2] for k in ks],
                                  [keys[k][3] for k in ks])
        for k, form in zip(ks, forms):
            out[k] = _POLYGONS[keys[k]] = (reach, form)
    # cast: every None in ``out`` was filled by the loop above, which mypy cannot follow
    return cast(list[tuple[float, convex.LazyForm]], out)


def _polygon(m: Model) -> tuple[float, convex.LazyForm]:
    """``_polygons`` of one model."""
    return _polygons([m])[0]


def _shapes(models: Sequence[Model]) -> list[Polygon]:
    """The footprint polygons of non-round ``models`` (``base_polygon``'s, built from
    their outlines, numpy per base size: ``convex.placed_outlines``), kept between
    snapshots like ``_polygons``."""
    keys = list(map(_key, models))
    out = [_SHAPES.get(k) for k in keys]
    todo = [k for k, got in enumerate(out) if got is None]
    if todo:
        forms = [f for _, f in _polygons([models[k] for k in todo])]
        by_base: dict = {}
        for f in forms:
            if f._outline is None:
                by_base.setdefault(f.base, []).append(f)
        for base, fs in by_base.items():        # the outlines not built yet, together
            placed = convex.placed_outlines(base, [f.x for f in fs], [f.y for f in fs],
                                            [f.facing for f in fs])[0]
            for f, o in zip(fs, placed):
                f._outline = o
        outlines = [f.outline for f in forms]
        sizes = {len(o) for o in outlines}
        built = (shapely.polygons(np.stack(outlines)).tolist() if len(sizes) == 1
                 else [Polygon(o) for o in outlines])
        for k, poly in zip(todo, built):
            out[k] = _SHAPES[keys[k]] = poly
    return cast(list[Polygon], out)


def _unit_sig(state: Battlefield) -> list[tuple[str, str, int]]:
    """Each unit's id, player and model count, in order (what the id bookkeeping rests on)."""
    return [(u.id, u.player, len(u.models)) for u in state.units]


def _same_place(a: Model, b: Model) -> bool:
    return a is b or (a.x == b.x and a.y == b.y and a.facing_deg == b.facing_deg
                      and a.base == b.base)


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
    models in file order): ``centres`` (n, 2) inches, ``pads`` (n,) inches
    (radius of a round base, 0 otherwise), ``cores``, ``shapes`` (object arrays
    of Shapely geometries, built when first read) and ``tree`` (an ``STRtree``
    over ``shapes``, built when first read).
    """

    def __init__(self, state: Battlefield):
        models: list[Model] = list(chain.from_iterable(u.models for u in state.units))
        self._set_models(state, models)
        n = len(models)
        self.centres = np.empty((n, 2))
        self.centres[:, 0] = np.fromiter(map(_X, models), float, n)
        self.centres[:, 1] = np.fromiter(map(_Y, models), float, n)
        # bases are shared by a unit's models: each run of one base object read once
        bases = list(map(_BASE, models))
        self._round = np.zeros(n, dtype=bool)
        self.pads = np.zeros(n)
        if n:
            bid = np.fromiter(map(id, bases), np.uint64, n)
            starts = (bid[1:] != bid[:-1]).nonzero()[0] + 1
            first = [0] + starts.tolist()
            heads = list(map(bases.__getitem__, first))
            ends = np.array(first[1:] + [n], dtype=np.intp)
            size = ends - np.array(first, dtype=np.intp)
            self._round = np.array([b.shape == "round" for b in heads], dtype=bool).repeat(size)
            self.pads = np.array([b.radius for b in heads], dtype=float).repeat(size) * self._round
        self._forms = np.empty(n, dtype=object)
        self._reach = self.pads.copy()
        odd = (~self._round).nonzero()[0].tolist()
        for k, (reach, form) in zip(odd, _polygons([models[k] for k in odd])):
            self._reach[k], self._forms[k] = reach, form
        self._set_pairs(*self._measure(*near_pairs.circle_pairs(
            self.centres, self._reach, self.near + tolmod.EPS)))

    # ------------------------------------------------------------ building
    def _set_models(self, state: Battlefield, models: list[Model]) -> None:
        """Ids, owners and unit members of ``models`` (``state``'s, in its order)."""
        self._set_rules(state)
        self.models = models
        self._unit_sig = sig = _unit_sig(state)
        self.ids: list[str] = list(map(_ID, models))
        # ``models`` are the state's, unit by unit: each unit's run of indices
        members: dict[str, list[int]] = {}
        self._unit_members = members
        units: dict[str, int] = {}
        players: dict[str, int] = {}
        ucodes, pcodes, counts = [], [], []
        start = 0
        for uid, player, k in sig:
            if not k:
                continue
            if uid in members:                  # one id twice: one unit of both runs
                members[uid].extend(range(start, start + k))
            else:
                members[uid] = list(range(start, start + k))
                units[uid] = len(units)
            ucodes.append(units[uid])
            if player not in players:
                players[player] = len(players)
            pcodes.append(players[player])
            counts.append(k)
            start += k
        self._players = list(players)          # player ids in ``_pcode`` order
        self._pcode = np.array(pcodes, dtype=np.intp).repeat(counts)
        self._ucode = np.array(ucodes, dtype=np.intp).repeat(counts)

    @cached_property
    def _index(self) -> dict[str, int]:
        """``{model id: index}``, built when first read."""
        return dict(zip(self.ids, range(len(self.ids))))

    @cached_property
    def unit_of(self) -> list[str]:
        """Each model's unit id, in ``ids`` order (built when first read)."""
        return list(map(list(self._unit_members).__getitem__, self._ucode.tolist()))

    @cached_property
    def player_of(self) -> list[str]:
        """Each model's player id, in ``ids`` order (built when first read)."""
        return list(map(self._players.__getitem__, self._pcode.tolist()))

    def _set_rules(self, state: Battlefield) -> None:
        self.state = state
        self.rules = state.rules
        self.tol = state.rules.tol
        self.near = max(self.rules.engagement_range, self.rules.coherency_range or 0.0) + self.tol

    def _measure(self, i: np.ndarray, j: np.ndarray, g: np.ndarray):
        """Exact gaps of candidate pairs ``i < j`` whose circumcircle gaps ``g`` (every
        base read as its circumcircle: a round base is one, and then this is its gap,
        computed as ``pair_gaps`` computes it; otherwise the gap is no less) are within
        ``near`` (+ EPS); keeps those within it.  Returns (i, j, gaps, overlap flags)."""
        limit = self.near + tolmod.EPS
        odd = (~(self._round[i] & self._round[j])).nonzero()[0]
        if len(odd):
            # the pairs with an oval or a rectangle in them, measured exactly
            # (``pair_gaps``' way with forms: ``convex.odd_gaps``), the others kept
            a, b = i[odd], j[odd]
            g = g.copy()
            g[odd] = (convex.odd_gaps(self._forms, a, b, self.centres, self._round)
                      - self.pads[a] - self.pads[b])
            close = g <= limit
            i, j, g = i[close], j[close], g[close]
        return i, j, g, near_pairs.overlap_flags(i, j, g, self.pads, lambda: self._polys,
                                                 self.tol)

    def _set_pairs(self, i, j, g, ov) -> None:
        self._pi, self._pj, self._pg, self._po = i, j, g, ov

    def without(self, state: Battlefield) -> Geometry:
        """The snapshot of ``state``, a table that only lost models of this one (casualties
        removed, every other model where it stands here): derived from this snapshot, not
        built again.  Every answer equals ``snapshot(state)``'s: the kept models' pair gaps
        depend only on those two models, so the kept pairs are carried over (renumbered,
        numpy, no gap measured again).

        Raises ``ValueError`` when ``state`` has a model this snapshot lacks or one that
        stands elsewhere (then build it with ``snapshot``, or use ``moved``)."""
        models: list[Model] = list(state.models())
        at = [self._index.get(m.id, -1) for m in models]
        for m, i in zip(models, at):
            if i < 0 or not _same_place(self.models[i], m):
                raise ValueError(f"{m.id} is not where this snapshot has it: build a new snapshot")
        return self._derive(state, models, at, [])

    def moved(self, state: Battlefield, model_ids: Iterable[str] | None = None,
              carry_drawing: bool = False) -> Geometry:
        """The snapshot of ``state``, this table after some models moved, turned, changed
        base, were removed or were added: derived from this snapshot.  Only the pairs
        touching the changed models are measured; every other pair is carried over.
        Every answer equals ``snapshot(state)``'s.

        ``model_ids``: the models that changed, when the caller knows them (others are
        taken as unchanged without looking); None compares every model with this
        snapshot's.  More than ``DERIVE_MAX_MOVED`` changed models: built afresh.

        ``carry_drawing`` (needs ``model_ids``): also hand on what a board drawing has
        read from this snapshot: the base outlines (``shapes``) of every other model, and
        the outlines (``unit_outline``) of every unit none of whose models changed, the
        same objects (a footprint depends only on base and place, a unit outline only on
        its models' footprints); the changed models' bases are built, their units'
        outlines left to be built when asked."""
        if carry_drawing:
            if model_ids is None:
                raise ValueError("carry_drawing needs the ids of the models that changed")
            ids = set(model_ids)
            new = self.moved(state, ids)
            self._carry_drawing(new, ids)
            return new
        models: list[Model] = list(chain.from_iterable(u.models for u in state.units))
        given = None if model_ids is None else set(model_ids)
        if given is not None and self._same_models(state, models):
            # the same models in the same units, in the same order: no id looked up
            moved = sorted(self._index[mid] for mid in given if mid in self._index)
            if len(moved) > DERIVE_MAX_MOVED:
                return Geometry(state)
            src = np.arange(len(models), dtype=np.intp)
            src[moved] = -1
            return self._derive(state, models, src, moved, share=True)
        at: list[int] = []
        changed: list[int] = []
        for k, m in enumerate(models):
            i = self._index.get(m.id, -1)
            if i >= 0 and (m.id not in given if given is not None
                           else _same_place(self.models[i], m)):
                at.append(i)
            else:
                at.append(-1)
                changed.append(k)
        if len(changed) > DERIVE_MAX_MOVED:
            return Geometry(state)
        return self._derive(state, models, at, changed)

    def _carry_drawing(self, new: Geometry, changed: set[str]) -> None:
        """Hand this snapshot's base and unit outlines on to ``new`` (this table with only
        the models ``changed`` changed; see ``moved``'s ``carry_drawing``)."""
        old_shapes = self.__dict__.get("shapes")
        if old_shapes is not None and "shapes" not in new.__dict__ and len(new.ids):
            at = np.array([-1 if mid in changed else self._index.get(mid, -1) for mid in new.ids],
                          dtype=np.intp)
            shapes = np.empty(len(new.ids), dtype=object)
            keep = np.nonzero(at >= 0)[0]
            shapes[keep] = old_shapes[at[keep]]
            fresh = np.nonzero(at < 0)[0].tolist()
            if fresh:
                built = footprint_arrays([new.models[k] for k in fresh])[2]
                for j, k in enumerate(fresh):
                    shapes[k] = built[j]
            new.__dict__["shapes"] = shapes
        outlines = self.__dict__.get("_outlines")
        if outlines:
            touched = {mid.rsplit("/", 1)[0] for mid in changed}
            carried = new.__dict__.setdefault("_outlines", {})
            for (uid, margin), shape in outlines.items():
                if uid in touched or (uid, margin) in carried:
                    continue
                if self.unit_models(uid) == new.unit_models(uid):    # the same members, unmoved
                    carried[(uid, margin)] = shape

    def _same_models(self, state: Battlefield, models: list[Model]) -> bool:
        """Whether ``state`` has this snapshot's units (ids, players) and model ids, in order."""
        return (len(models) == len(self.ids) and self._unit_sig == _unit_sig(state)
                and list(map(_ID, models)) == self.ids)

    def _derive(self, state: Battlefield, models: list[Model], at: Sequence[int] | np.ndarray,
                changed: list[int], share: bool = False) -> Geometry:
        """The snapshot of ``state`` (``models``, its models), where model k stands as this
        snapshot's model ``at[k]`` (-1: ``k`` is in ``changed``, measured afresh).
        ``share``: ``state`` has this snapshot's units and model ids in order
        (``_same_models``), so their bookkeeping is shared, not built again."""
        new = object.__new__(Geometry)
        if share:
            new._set_rules(state)
            new.models = models
            for name in ("ids", "_unit_members", "_pcode", "_ucode", "_unit_sig", "_players"):
                setattr(new, name, getattr(self, name))
            for name in ("_index", "unit_of", "player_of"):     # when built
                if name in self.__dict__:
                    new.__dict__[name] = self.__dict__[name]
        else:
            new._set_models(state, models)
        n = len(models)
        src = np.array(at, dtype=np.intp).reshape(-1)
        kept = src >= 0
        take = np.where(kept, src, 0)
        if len(self.ids):
            new.centres = self.centres[take].reshape(-1, 2)
            new.pads, new._round = self.pads[take], self._round[take]
            new._reach = self._reach[take]
            if "_polys" in self.__dict__:
                new.__dict__["_polys"] = self._polys[take]
            if "_bounds" in self.__dict__:
                new.__dict__["_bounds"] = self._bounds[:, take]
            new._forms = self._forms[take]
        else:
            new.centres, new.pads = np.zeros((n, 2)), np.zeros(n)
            new._round = np.zeros(n, dtype=bool)
            new._forms = np.empty(n, dtype=object)
            new._reach = np.zeros(n)
        for k in changed:
            m = models[k]
            new.centres[k] = (m.x, m.y)
            new._round[k] = m.base.shape == "round"
            new.pads[k] = m.base.radius if new._round[k] else 0.0
            new._reach[k], new._forms[k] = (
                (new.pads[k], None) if new._round[k] else _polygon(m))
            if "_polys" in new.__dict__:
                new._polys[k] = None if new._round[k] else _shapes([m])[0]
        ch = np.array(changed, dtype=np.intp)
        if len(ch) and "_bounds" in new.__dict__:
            new._bounds[:, ch] = near_pairs.boxes_of(new.centres[ch], new.pads[ch],
                                                     new._round[ch], new._polys[ch])
        # carried pairs: both models kept; renumbered (old index -> new index)
        sh = np.full(len(self.ids), -1, dtype=np.intp)
        sh[src[kept]] = np.nonzero(kept)[0]
        a, b = sh[self._pi], sh[self._pj]
        keep = (a >= 0) & (b >= 0)
        a, b = a[keep], b[keep]
        parts = [(np.minimum(a, b), np.maximum(a, b), self._pg[keep], self._po[keep])]
        if len(ch):
            # new pairs: a changed model with every model (two changed ones once)
            parts.append(new._measure(*near_pairs.circle_pairs_of(
                ch, new.centres, new._reach, new.near + tolmod.EPS)))
        new._set_pairs(*(np.concatenate(p) for p in zip(*parts)))
        for name in ("cores", "shapes"):       # carry the built footprints of unmoved models
            old = self.__dict__.get(name)
            if old is not None and not len(ch) and len(self.ids):
                new.__dict__[name] = old[take]
        return new

    @cached_property
    def _polys(self) -> np.ndarray:
        """Object array: each non-round base's footprint polygon (``base_polygon``'s),
        None for a round one; built when first read (the gaps are measured on the convex
        forms, ``_forms``)."""
        out = np.empty(len(self.ids), dtype=object)
        odd = np.nonzero(~self._round)[0].tolist()
        if odd:
            for k, poly in zip(odd, _shapes([self.models[k] for k in odd])):
                out[k] = poly
        return out

    @cached_property
    def _bounds(self) -> np.ndarray:
        """Bounding boxes (4, n): rows ``xmin, ymin, xmax, ymax``, inches
        (``near_pairs.boxes_of``); built when first read."""
        return near_pairs.boxes_of(self.centres, self.pads, self._round, self._polys)

    @cached_property
    def cores(self) -> np.ndarray:
        """Object array: each model's centre point (round bases) or footprint polygon."""
        return near_pairs.core_array(np.arange(len(self.ids)), self.centres, self._round,
                                     self._polys)

    @cached_property
    def shapes(self) -> np.ndarray:
        """Object array of base outlines (round bases as 128-gons), for drawing and overlap
        tests."""
        return footprint_arrays(self.models)[2]

    @cached_property
    def tree(self) -> STRtree:
        """An ``STRtree`` over ``shapes`` (indices into ``ids``)."""
        return STRtree(self.shapes)

    @cached_property
    def _gap(self) -> dict[tuple[int, int], float]:
        """``{(i, j): gap}`` for every pair ``i < j`` within ``near`` (inches)."""
        return dict(zip(zip(self._pi.tolist(), self._pj.tolist()), self._pg.tolist()))

    @cached_property
    def _overlap(self) -> set[tuple[int, int]]:
        return set(zip(self._pi[self._po].tolist(), self._pj[self._po].tolist()))

    @cached_property
    def _adjacency(self) -> list[dict[int, float]]:
        """For each model, ``{neighbour index: gap}`` over the pairs within ``near``."""
        rows: list[dict[int, float]] = [{} for _ in self.ids]
        for i, j, g in zip(self._pi.tolist(), self._pj.tolist(), self._pg.tolist()):
            rows[i][j] = g
            rows[j][i] = g
        return rows

    def _gaps_between(self, i: npt.ArrayLike, j: npt.ArrayLike) -> np.ndarray:
        """Exact gaps of index pairs (any distance), inches."""
        return near_pairs.pair_gaps(np.asarray(i, dtype=np.intp), np.asarray(j, dtype=np.intp),
                                    self.centres, self.pads, self._round,
                                    lambda: self._polys, self._forms)

    def _candidates(self, idx, distance: float) -> tuple[np.ndarray, np.ndarray]:
        """Index pairs (into ``idx``, into all models) whose bounding boxes come within
        ``distance`` inches: every pair of bases within it, and a few more; the exact
        gap decides."""
        idx = np.asarray(idx, dtype=np.intp)
        rows, cols = np.nonzero(near_pairs.boxes_within(self._bounds, idx[:, None],
                                                        np.arange(len(self.ids))[None, :], distance))
        return rows, cols

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
        v = self._adjacency[i].get(j)
        if v is None:
            v = float(self._gaps_between([i], [j])[0])
        return v

    def unit_gaps(self, unit_id: str, without: Iterable[str] = ()) -> tuple[list[str], np.ndarray]:
        """(model ids, their gap matrix (k, k), inches, 0 on the diagonal) for the models of
        ``unit_id`` on the table, leaving out ``without``: every pair measured exactly
        (round bases analytically, numpy), as ``gap`` measures one pair."""
        gone = set(without)
        idx = [i for i in self._unit_members.get(unit_id, []) if self.ids[i] not in gone]
        return [self.ids[i] for i in idx], self._gap_matrix(idx)

    def _gap_matrix(self, idx: list[int]) -> np.ndarray:
        k = len(idx)
        g = np.zeros((k, k), dtype=float)
        if k > 1:
            a, b = np.triu_indices(k, 1)
            sub = np.array(idx, dtype=np.intp)
            v = self._gaps_between(sub[a], sub[b])
            g[a, b] = v
            g[b, a] = v
        return g

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
    def _id_pairs(self, mask: np.ndarray) -> list[tuple[str, str]]:
        ids = self.ids
        return sorted(_pair(ids[i], ids[j])
                      for i, j in zip(self._pi[mask].tolist(), self._pj[mask].tolist()))

    @cached_property
    def _enemy(self) -> np.ndarray:
        return self._pcode[self._pi] != self._pcode[self._pj]

    @cached_property
    def overlaps(self) -> list[tuple[str, str]]:
        """Every pair of models whose bases intersect by more than the tolerance, sorted."""
        return self._id_pairs(self._po)

    @cached_property
    def _contact(self) -> np.ndarray:
        return (self._pg <= self.tol + tolmod.EPS) & ~self._po

    @cached_property
    def base_contacts(self) -> list[tuple[str, str]]:
        """Pairs of enemy models in base contact, sorted."""
        return self._id_pairs(self._contact & self._enemy)

    @cached_property
    def all_base_contacts(self) -> list[tuple[str, str]]:
        """Pairs of models in base contact, friendly ones included, sorted."""
        return self._id_pairs(self._contact)

    def contacts_of(self, model_id: str, enemies: bool | None = True) -> list[str]:
        """Models in base contact with ``model_id`` (enemies only by default)."""
        return self._neighbours(model_id, lambda g: tolmod.in_contact(g, self.tol), enemies,
                                exclude_overlaps=True)

    def _neighbours(self, model_id: str, test, enemies: bool | None,
                    exclude_overlaps: bool = False) -> list[str]:
        """Models j within ``near`` of ``model_id`` whose gap passes ``test`` (a test no
        looser than ``near``), by index."""
        i = self.index_of(model_id)
        out = []
        for j, g in sorted(self._adjacency[i].items()):
            if enemies is not None and (self.player_of[i] != self.player_of[j]) != enemies:
                continue
            if exclude_overlaps and ((i, j) if i < j else (j, i)) in self._overlap:
                continue
            if test(g):
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
    def _engaged(self) -> np.ndarray:
        """Mask of the pairs of enemy models within engagement range."""
        if self.rules.engages_by_contact:
            hit = self._pg <= self.tol + tolmod.EPS
        else:
            hit = self._pg <= self.rules.engagement_range + self.tol + tolmod.EPS
        return hit & self._enemy

    @cached_property
    def engaged_model_pairs(self) -> list[tuple[str, str]]:
        """Pairs of enemy models within engagement range of each other, sorted."""
        return self._id_pairs(self._engaged)

    @cached_property
    def engaged_unit_pairs(self) -> list[tuple[str, str]]:
        """Pairs of enemy units with at least one engaged model pair, sorted."""
        m = self._engaged
        if not m.any():
            return []
        ua, ub = self._ucode[self._pi[m]], self._ucode[self._pj[m]]
        names = list(self._unit_members)
        k = len(names)
        codes = np.minimum(ua, ub) * k + np.maximum(ua, ub)
        if k * k <= 1 << 20:                 # each unit pair once, in code order
            seen = np.zeros(k * k, dtype=bool)
            seen[codes] = True
            codes = seen.nonzero()[0]
        else:
            codes = np.unique(codes)
        return sorted(_pair(names[c // k], names[c % k]) for c in codes.tolist())

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
        player = self._pcode[idx[0]]
        r, j = self._candidates(idx, limit + self.tol + tolmod.EPS)
        enemy = self._pcode[j] != player
        r, j = r[enemy], j[enemy]
        g = self._gaps_between(np.array(idx, dtype=np.intp)[r], j)
        hit = g <= limit + self.tol + tolmod.EPS
        return sorted({self.unit_of[k] for k in j[hit].tolist()})

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

        Every unit is screened at once (numpy over the near pairs and, for the spread,
        over all pairs inside units); the reasons of a unit that fails are then worked
        out from its gap matrix.
        """
        out: dict[str, CoherencyBreak] = {}
        for uid in self._incoherent_units():
            idx = self._unit_members[uid]
            reasons = self._coherency_reasons(idx)
            if reasons:
                models = tuple(m for m in self.unit_models(uid) if m in reasons)
                out[uid] = CoherencyBreak(uid, models, reasons)
        return out

    def _incoherent_units(self) -> list[str]:
        """Units (of 2 or more models) that may break coherency, in unit order: every unit
        that does is listed (a superset is harmless: the reasons decide)."""
        r = self.rules
        n = len(self.ids)
        if n < 2:
            return []
        size = np.bincount(self._ucode, minlength=len(self._unit_members))[self._ucode]
        same = self._ucode[self._pi] == self._ucode[self._pj]
        limit = self.tol if r.coherency_range is None else r.coherency_range + self.tol
        ok = same & (self._pg <= limit + tolmod.EPS)
        near = (np.bincount(self._pi[ok], minlength=n) + np.bincount(self._pj[ok], minlength=n))
        if r.coherency_range is None:
            need = np.ones(n, dtype=np.intp)
        else:
            need = np.where(size >= 7, r.coherency_neighbours_7plus, r.coherency_neighbours)
        bad = (size >= 2) & (near < need)
        if r.coherency_range is not None and r.coherency_spread is not None:
            # every pair inside a unit (units are runs of consecutive indices)
            u = self._ucode
            if (u[1:] < u[:-1]).any():
                return [u for u, idx in self._unit_members.items() if len(idx) > 1]
            starts = np.concatenate([[0], (u[1:] != u[:-1]).nonzero()[0] + 1])
            ends = np.append(starts[1:], n)
            sizes = ends - starts
            last = ends.repeat(sizes)             # each model: the end of its unit's run
            spread = r.coherency_spread + self.tol + tolmod.EPS
            # a unit whose centres all fit in a box whose diagonal is within the spread
            # holds it (a gap is never more than the centre distance: a base holds its
            # centre); only the pairs of the other units are measured
            x, y = self.centres[:, 0], self.centres[:, 1]
            w = np.maximum.reduceat(x, starts) - np.minimum.reduceat(x, starts)
            h = np.maximum.reduceat(y, starts) - np.minimum.reduceat(y, starts)
            wide = (np.sqrt(w * w + h * h) > spread).repeat(sizes)
            first = wide.nonzero()[0]
            rows, pos = near_pairs._expand(first + 1, last[first])
            rows = first[rows]
            far = near_pairs.gaps_over(rows, pos, spread,
                                       self.centres, self.pads, self._reach, self._round,
                                       lambda: self._polys, self._forms)
            bad[rows[far]] = True
            bad[pos[far]] = True
        names = list(self._unit_members)
        hit = np.zeros(len(names), dtype=bool)
        hit[self._ucode[bad]] = True
        return [names[c] for c in hit.nonzero()[0].tolist()]

    def _coherency_reasons(self, idx: list[int]) -> dict[str, str]:
        """Why each model of one unit (indices ``idx``) breaks coherency (03.03)."""
        r = self.rules
        n = len(idx)
        if n < 2:
            return {}
        g = self._gap_matrix(idx)
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
        return reasons

    def in_coherency(self, unit_id: str) -> bool:
        return unit_id not in self.coherency

    # ------------------------------------------------------------ table, objectives, terrain
    @cached_property
    def off_table(self) -> list[str]:
        """Models whose base goes past a table edge by more than the tolerance."""
        w, d = self.state.table.width, self.state.table.depth
        if not self.ids:
            return []
        b = self._bounds
        t = self.tol + tolmod.EPS
        bad = (b[0] < -t) | (b[1] < -t) | (b[2] > w + t) | (b[3] > d + t)
        return [self.ids[i] for i in np.nonzero(bad)[0].tolist()]

    def objective_distance(self, model_id: str, objective_id: str) -> float:
        """Edge of base to edge of marker, inches."""
        return self.distance(model_id, objective_id)

    @cached_property
    def objective_ranges(self) -> dict[str, dict[str, list[str]]]:
        """``{objective id: {player id: [model ids within its range]}}`` for every player.

        A model counts when the edge of its base is within the objective's range of the
        marker's edge (with the tolerance): numpy over every objective and every model
        near it at once (a sweep along x), round bases analytically, an oval or a
        rectangle measured only when its inradius and circumradius leave it open."""
        objs = self.state.objectives
        players = [p.id for p in self.state.players]
        out: dict[str, dict[str, list[str]]] = {o.id: {p: [] for p in players} for o in objs}
        if not objs or not self.ids:
            return out
        rng_of = self.state.objective_range
        ox, oy, orad, rng = np.array([(o.at[0], o.at[1], o.marker.radius, rng_of(o)) for o in objs],
                                     dtype=float).reshape(-1, 4).T
        lim = rng + self.tol + tolmod.EPS
        # candidates: models whose centre is within the objective's reach plus the widest
        # base along x (a sweep over the models sorted by x); then the edge of a round
        # base decides, and an oval or a rectangle when its inradius and circumradius
        # leave it open (it holds the circle of its inradius, so one whose centre is
        # within the range plus that radius of the marker is within range whatever its
        # turn) by its exact distance (``convex.point_distances``)
        oi, mj = near_pairs.strip_pairs(ox, lim + orad + float(self._reach.max()) + 1e-9,
                                        self.centres[:, 0])
        cx, cy = self.centres[mj, 0], self.centres[mj, 1]
        qx, qy = ox[oi], oy[oi]
        dx, dy = cx - qx, cy - qy
        d = np.sqrt(dx * dx + dy * dy)
        o_r, o_l = orad[oi], lim[oi]
        ok = d - self.pads[mj] - o_r <= o_l                # a round base: its edge
        rr = self._round[mj]
        if not rr.all():
            odd = (~rr).nonzero()[0]
            dd, r_o, l_o = d[odd], o_r[odd], o_l[odd]
            inner = np.array([f[3] for f in self._forms[mj[odd]].tolist()], dtype=float)
            sure = dd - inner - r_o <= l_o
            ok[odd] = sure
            open_ = (~sure & (dd - self._reach[mj[odd]] - r_o <= l_o + 1e-9)).nonzero()[0]
            if len(open_):
                at = odd[open_]
                got = convex.point_distances(self._forms, mj[at], qx[at], qy[at])
                ok[at] = got - r_o[open_] <= l_o[open_]
        kept = ok.nonzero()[0]
        oi, mj = oi[kept], mj[kept]
        order = (oi * len(self.ids) + mj).argsort(kind="stable")     # model order within each
        names = [o.id for o in objs]
        ids, owner = self.ids, self._players
        oi, mj = oi[order], mj[order]
        for k, j, p in zip(oi.tolist(), mj.tolist(), self._pcode[mj].tolist()):
            out[names[k]][owner[p]].append(ids[j])
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
        """Closest enemy model and the edge-to-edge distance (inches); the first in table
        order of equally close ones.  Kept per model."""
        i = self.index_of(model_id)
        cache = self.__dict__.setdefault("_nearest_enemy", {})
        got = cache.get(i)
        if got is None:
            enemies = np.nonzero(self._pcode != self._pcode[i])[0]
            if not len(enemies):
                got = (None, float("inf"))
            else:
                g = self._gaps_between(np.full(len(enemies), i, dtype=np.intp), enemies)
                k = int(np.argmin(g))
                got = (self.ids[int(enemies[k])], max(0.0, float(g[k])))
            cache[i] = got
        return got

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
    """Build the geometry snapshot of ``state`` (see ``Geometry``; derive the snapshot of a
    table that only lost or moved a few models with ``Geometry.without`` / ``moved``)."""
    return Geometry(state)
