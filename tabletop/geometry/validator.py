"""The move validator: every clause a proposed pile-in or consolidation breaks.

fight-phase.txt 12.03 (pile-in) and 12.08 (consolidation).  Given proposed
end positions (and optionally paths) for a unit's models — from the solver,
a file or a drag in the window — ``validate_move`` lists each broken clause
per model with the numbers and the rule reference, e.g.
``r/4 moved 3.41" > 3" (12.03)``.

Clauses (all comparisons through ``tolerance.py`` with ``rules.tol``):

- each path at most ``max_distance`` (sum of its segments), through no other
  base (friend or foe) and no impassable terrain, on the table all the way,
  ending on the table and overlapping no base;
- pile-in and ongoing consolidation: a model in base contact with an enemy
  model cannot be moved;
- each moved model ends closer to its closest target (distance to the target
  unit's closest model, ``movespec.CLOSEST_TARGET_READING``) and engaged with
  it if possible; objective: within range of the objective if possible, else
  closer to it;
- after: pile-in: the unit engaged, and every model that started engaged
  with an enemy unit still engaged with it (ongoing: the latter); engaging:
  the unit engaged with every selected enemy unit; objective: the unit
  within range of the objective; every mode: the unit in coherency
  (``rules`` coherency, core rules 03.03, the 9" spread included).

Named defaults:

- ``MOVE_ORDER``: models move one at a time (Moving 03), so a path must pass
  clear of the models that have not moved yet where they start, and of those
  that have moved where they end; a move is legal when some order works.
- ``POSSIBLE_MEANS``: ending engaged (or within range) is "possible" for a
  model that did not when the path finder reaches such a spot from its start
  within the maximum distance, with every other model where the move puts
  it, and putting the model there breaks no clause the move does not
  already break.
- A model counts as moved when it ends more than the tolerance from where it
  started (or its path is longer than the tolerance).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import shapely
from shapely.geometry import Polygon

from tabletop.board.state import Battlefield
from tabletop.errors import UnknownIdError
from tabletop.geometry import tolerance as tolmod
from tabletop.geometry.movespec import MoveContext, MoveSpec, Violation
from tabletop.geometry.paths import Arena
from tabletop.geometry.reach import reach_best
from tabletop.geometry.snapshot import Geometry, snapshot
from tabletop.geometry.sweeps import (
    XY,
    core_of,
    gap_matrix,
    overlap_gap,
    path_length,
    sweep_core,
)

MOVE_ORDER = "one at a time, any order that works"
POSSIBLE_MEANS = "reachable within the maximum distance, breaking nothing more"


@dataclass(frozen=True)
class Found:
    """A broken clause with a code (for comparing two moves) and its violation."""

    code: str
    model: str | None
    violation: Violation


def validate_move(state: Battlefield, geo: Geometry, spec: MoveSpec,
                  positions: Mapping[str, XY],
                  paths: Mapping[str, Sequence[XY]] | None = None) -> list[Violation]:
    """Every clause the proposed move breaks, per model, with the numbers.

    Parameters
    ----------
    state, geo : the state before the move and its snapshot.
    spec : the move (kind, unit, targets, max distance, rule).
    positions : {model id: (x, y)} proposed end centres (inches) of some or
        all of the unit's models; models left out stay where they are.
    paths : {model id: [(x, y), ...]} the path of each moved model from its
        start to its end; a straight line where not given.

    Returns
    -------
    list of Violation
        Empty when the move is legal.

    Raises
    ------
    UnknownIdError
        When ``positions`` or ``paths`` name a model that is not in the unit,
        or the spec names an unknown unit, target or objective.
    """
    ctx = MoveContext(state, geo, spec)
    return [f.violation for f in check(ctx, positions, paths, possible=True)]


def check(ctx: MoveContext, positions: Mapping[str, XY],
          paths: Mapping[str, Sequence[XY]] | None = None, *, possible: bool = True,
          arena: Arena | None = None, order_out: list[str] | None = None,
          cache: dict | None = None, memo: dict | None = None) -> list[Found]:
    """``validate_move`` on a prepared context; ``possible=False`` skips the
    (costly) "engaged if possible" search.  ``order_out`` receives an order of
    the moved models that lets every path pass clear, when one exists;
    ``cache`` is handed to ``reach_model``.  ``memo``: a dict kept between checks
    of moves of one context (the solver's): each moved model's own findings
    (its path's ends, table, length, crossings, terrain; closer; still engaged)
    are remembered by its path, its end and the set of models that moved (the
    rest stand where they started), the only things they depend on; the same
    findings in the same order."""
    paths = dict(paths or {})
    bad = sorted(set(positions) - set(ctx.ids)) + sorted(set(paths) - set(ctx.ids))
    if bad:
        raise UnknownIdError([f"{m} is not a model of unit {ctx.spec.unit}" for m in bad])
    return _Check(ctx, positions, paths, arena, cache, memo).run(possible, order_out)


def possible_findings(ctx: MoveContext, positions: Mapping[str, XY],
                      paths: Mapping[str, Sequence[XY]] | None, found: Sequence[Found], *,
                      arena: Arena | None = None, cache: dict | None = None) -> list[Found]:
    """The findings ``check(possible=True)`` adds (``POSSIBLE_MEANS``: a moved model
    not engaged that could be) after ``found``, the findings of
    ``check(possible=False)`` on the same move: ``[*found, *possible_findings(...)]``
    is ``check(possible=True)``'s list, without measuring the move a second time."""
    c = _Check(ctx, positions, dict(paths or {}), arena, cache)
    c.found = list(found)
    for m in c.moved:
        c._possible(m)
    return c.found[len(found):]


class _Check:
    def __init__(self, ctx: MoveContext, positions, paths, arena, cache, memo=None):
        self.ctx = ctx
        self.memo = memo
        self.cache = {} if cache is None else cache
        self.tol = ctx.tol
        self.sec = ctx.sec
        self.rule = ctx.spec.rule
        self.arena = arena or Arena(ctx.state)
        self.end = {m: tuple(positions.get(m, ctx.start[m])) for m in ctx.ids}
        self.moved: list[str] = []
        self.paths: dict[str, list[XY]] = {}
        for m in ctx.ids:
            p = paths.get(m)
            shift = math.dist(self.end[m], ctx.start[m])
            if shift > self.tol or (p is not None and path_length(p) > self.tol):
                self.moved.append(m)
                self.paths[m] = [tuple(q) for q in p] if p else [ctx.start[m], self.end[m]]
        self.found: list[Found] = []

    @cached_property
    def after(self) -> Battlefield:
        """The neighbourhood with the unit's models where they end."""
        ctx = self.ctx
        return ctx.local.with_positions({m: self.end[m] for m in ctx.ids
                                         if self.end[m] != ctx.start[m]})

    @cached_property
    def ga(self) -> Geometry:
        """The snapshot after the move (built when a check reads it).  With a ``memo``
        (the solver's checks of one move), derived from the last check's snapshot
        (``Geometry.moved``: only the models whose end changed are measured again;
        every answer is ``snapshot``'s)."""
        last = self.memo.get(("ga",)) if self.memo is not None else None
        if last is not None:
            ends, before = last
            changed = [m for m in self.ctx.ids if ends[m] != self.end[m]]
            ga = before.moved(self.after, changed)
        else:
            ga = snapshot(self.after)
        if self.memo is not None:
            self.memo[("ga",)] = (dict(self.end), ga)
        return ga

    def add(self, code: str, model: str | None, text: str) -> None:
        self.found.append(Found(code, model, Violation(model, self.rule, f"{text} ({self.sec})")))

    # ------------------------------------------------------------------ run
    def run(self, possible: bool, order_out: list[str] | None) -> list[Found]:
        ctx = self.ctx
        for v in ctx.problems:
            self.found.append(Found("spec", None, v))
        if ctx.problems:
            return self.found
        sweeps = {m: self._kept(("sweep", m, tuple(self.paths[m])), lambda m=m: sweep_core(
            ctx.models[m].base, ctx.models[m].facing_deg, self.paths[m])) for m in self.moved}
        moved = frozenset(self.moved)
        for m in self.moved:
            self._remembered(("own", m, tuple(self.paths[m]), self.end[m], moved),
                             lambda m=m: self._own(m, sweeps[m]))
        order = self._order(sweeps)
        if order_out is not None:
            order_out[:] = order
        self._end_overlaps()
        for m in self.moved:
            self._remembered(("closer", m, self.end[m]), lambda m=m: self._closer(m))
        for m in ctx.ids:
            if m in moved:
                self._remembered(("engaged", m, self.end[m]), lambda m=m: self._still_engaged(m))
            else:
                self._still_engaged(m)
        self._unit_clauses()
        self._coherency()
        if possible:
            for m in self.moved:
                self._possible(m)
        return self.found

    def _kept(self, key: tuple, make):
        """``make()``, remembered in the ``memo`` under ``key`` (a shape of one model at
        one place or along one path: it depends on nothing else)."""
        if self.memo is None:
            return make()
        hit = self.memo.get(key)
        if hit is None:
            hit = self.memo[key] = make()
        return hit

    def _remembered(self, key: tuple, work) -> None:
        """Run ``work`` (checks that add findings) or add the findings it added
        last time under ``key`` (``memo``)."""
        if self.memo is None:
            work()
            return
        hit = self.memo.get(key)
        if hit is None:
            n = len(self.found)
            work()
            hit = self.memo[key] = tuple(self.found[n:])
        self.found.extend(hit)

    # ------------------------------------------------------------ per model
    def _own(self, m: str, sweep) -> None:
        """The moved model's own path clauses, in order."""
        self._path_ends(m)
        self._path_on_table(m)
        self._fixed(m)
        self._length(m)
        self._static_crossings(m, sweep)
        self._terrain(m, sweep)

    def _path_ends(self, m: str) -> None:
        p, s, e = self.paths[m], self.ctx.start[m], self.end[m]
        if math.dist(p[0], s) > self.tol:
            self.add("path_start", m, f"{m} path starts at ({p[0][0]:.2f}, {p[0][1]:.2f}), "
                                      f"not where the model stands ({s[0]:.2f}, {s[1]:.2f})")
        if math.dist(p[-1], e) > self.tol:
            self.add("path_end", m, f"{m} path ends at ({p[-1][0]:.2f}, {p[-1][1]:.2f}), "
                                    f"not at its end position ({e[0]:.2f}, {e[1]:.2f})")

    def _path_on_table(self, m: str) -> None:
        """The whole path stays on the table.  The table is convex and so is the area
        a base sweeps along one straight segment (the hull of its footprint at the
        two ends), so it is enough that the base at every bend of the path is on the
        table; the end is reported as ending off the table instead."""
        ctx = self.ctx
        model = ctx.models[m]
        w, d = ctx.state.table.width, ctx.state.table.depth
        t = self.tol + tolmod.EPS
        for x, y in self.paths[m][1:-1]:
            if model.base.is_round:           # the core is the centre (``core_of``)
                x0, y0, x1, y1, pad = x, y, x, y, model.base.radius
            else:
                core, pad = core_of(model.base, model.facing_deg, (x, y))
                x0, y0, x1, y1 = core.bounds
            if x0 - pad < -t or y0 - pad < -t or x1 + pad > w + t or y1 + pad > d + t:
                self.add("path_off_table", m, f"{m} path leaves the table at ({x:.2f}, {y:.2f})")
                return

    def _fixed(self, m: str) -> None:
        e = self.ctx.fixed.get(m)
        if e is not None:
            d = math.dist(self.end[m], self.ctx.start[m])
            self.add("fixed", m, f"{m} is in base contact with enemy model {e} and cannot be "
                                 f"moved, but moved {d:.2f}\"")

    def _length(self, m: str) -> None:
        length = path_length(self.paths[m])
        limit = self.ctx.spec.max_distance
        if not tolmod.within(length, limit, self.tol):
            self.add("distance", m, f"{m} moved {length:.2f}\" > {limit:g}\"")

    @property
    def _unmoved(self) -> Geometry:
        """A snapshot in which every model the path can meet unmoved stands where it
        stands after the move: with a ``memo``, the neighbourhood before the move
        (built once a solve: its index serves every check), else ``ga``.  Either
        has the neighbourhood's models in the same order."""
        if self.memo is None:
            return self.ga
        g0 = self.memo.get(("before",))
        if g0 is None:
            g0 = self.memo[("before",)] = snapshot(self.ctx.local)
        return g0

    def _static_crossings(self, m: str, sweep) -> None:
        geo = self.ctx.geo
        before = self._unmoved
        core, pad = sweep
        moved = set(self.moved)
        hits = [j for j in sorted(before.tree.query(core, predicate="dwithin",
                                                     distance=pad + self.tol).tolist())
                if before.ids[j] != m and before.ids[j] not in moved]
        if not hits:
            return
        ga = self.ga
        # every gap in one Shapely call; ``overlap_gap`` only where both pads are 0
        gaps = shapely.distance(core, before.cores[hits]) - pad - before.pads[hits]
        for j, g in zip(hits, gaps.tolist()):
            other = before.ids[j]
            if pad == 0.0 and before.pads[j] == 0.0:
                g = overlap_gap(core, pad, before.cores[j], before.pads[j], self.tol)
            if not tolmod.overlapping(g, self.tol) or ga.overlapping(m, other):
                continue                      # clear, or ending on it (reported as an overlap)
            g0 = geo.gap(m, other)
            if tolmod.overlapping(g0, self.tol) and g >= g0 - self.tol:
                continue                      # it started overlapping and did not go deeper
            self.add("through_base", m, f"{m} path passes through {other}"
                     + (f" ({-g:.2f}\" into its base)" if before.pads[j] or pad else ""))

    def _terrain(self, m: str, sweep) -> None:
        core, pad = sweep
        for t in self.ctx.state.terrain:
            if not t.impassable:
                continue
            g = overlap_gap(core, pad, Polygon(t.polygon), 0.0, self.tol)
            if tolmod.overlapping(g, self.tol):
                self.add("terrain", m, f"{m} path crosses impassable terrain {t.id} ({t.kind})")

    def _order(self, sweeps) -> list[str]:
        """Models move one at a time (``MOVE_ORDER``): find an order, report when none works."""
        ctx = self.ctx
        before: dict[str, set[str]] = {m: set() for m in self.moved}   # m -> models that must move first
        moved = self.moved
        if len(moved) > 1:
            cores = [sweeps[m][0] for m in moved]
            pads = [sweeps[m][1] for m in moved]
            starts = [self._kept(("core", m, ctx.start[m]), lambda m=m: core_of(
                ctx.models[m].base, ctx.models[m].facing_deg, ctx.start[m])) for m in moved]
            ends = [self._kept(("core", m, self.end[m]), lambda m=m: core_of(
                ctx.models[m].base, ctx.models[m].facing_deg, self.end[m])) for m in moved]
            end_cores, end_pads = [c for c, _ in ends], [p for _, p in ends]
            at_start = tolmod.overlapping(gap_matrix(
                cores, pads, [c for c, _ in starts], [p for _, p in starts], self.tol), self.tol)
            at_end = tolmod.overlapping(gap_matrix(cores, pads, end_cores, end_pads, self.tol),
                                        self.tol)
            # two models ending on each other are reported as an overlap, not here
            ends_meet = tolmod.overlapping(gap_matrix(end_cores, end_pads, end_cores, end_pads,
                                                      self.tol), self.tol)
            pair = ~np.asarray(ends_meet, dtype=bool)
            np.fill_diagonal(pair, False)
            at_start = np.asarray(at_start, dtype=bool) & pair
            at_end = np.asarray(at_end, dtype=bool) & pair
            for a, b in zip(*np.nonzero(at_start & at_end)):      # row by row, as a loop would
                i, j = moved[a], moved[b]
                self.add("through_base", i, f"{i} path passes through {j} both where {j} "
                                            f"starts and where it ends")
            for a, b in zip(*np.nonzero(at_start & ~at_end)):
                before[moved[a]].add(moved[b])
            for a, b in zip(*np.nonzero(at_end & ~at_start)):
                before[moved[b]].add(moved[a])
        order: list[str] = []
        left = {m: set(b) for m, b in before.items()}
        while left:
            ready = [m for m in self.moved if m in left and not left[m]]
            if not ready:
                stuck = [m for m in self.moved if m in left]
                for m in stuck:
                    self.add("order", m, f"{m} path crosses where {', '.join(sorted(left[m]))} "
                                         f"stand(s) before or after moving: no order of moves "
                                         f"lets every path pass clear")
                order.extend(stuck)
                break
            for m in ready:
                order.append(m)
                del left[m]
                for rest in left.values():
                    rest.discard(m)
        return order

    def _end_overlaps(self) -> None:
        ga, moved = self.ga, set(self.moved)
        for a, b in ga.overlaps:
            if a in moved or b in moved:
                m, o = (a, b) if a in moved else (b, a)
                g = ga.gap(m, o)
                depth = f" by {-g:.2f}\"" if g < 0 else ""
                self.add("overlap", m, f"{m} ends overlapping {o}{depth}")
        for m in ga.off_table:
            if m in moved:
                self.add("off_table", m, f"{m} ends off the table")

    def _closer(self, m: str) -> None:
        ctx, ga = self.ctx, self.ga
        t = ctx.target[m]
        d0 = ctx.start_dist[m]
        d1 = ga.distance(m, t)
        if tolmod.closer(d1, d0, self.tol):
            return
        if ctx.objective is not None:
            rng = ctx.state.objective_range(ctx.objective)
            if tolmod.within(d1, rng, self.tol):
                return
            self.add("closer", m, f"{m} ends {d1:.2f}\" from objective {t}, neither within its "
                                  f"{rng:g}\" nor closer than the {d0:.2f}\" it started")
            return
        near = ga.nearest(m, ga.unit_models(t))[0]
        self.add("closer", m, f"{m} ends {d1:.2f}\" from {t} (its closest model {near}), not "
                              f"closer than the {d0:.2f}\" it started")

    def _engaged_words(self) -> str:
        r = self.ctx.rules
        return "base contact" if r.engages_by_contact else f"engagement range {r.engagement_range:g}\""

    def _still_engaged(self, m: str) -> None:
        if self.ctx.spec.kind not in ("pile_in", "ongoing") or m not in self.moved:
            return
        for u in sorted(self.ctx.start_engaged[m]):
            if not self.ga.model_engaged_with_unit(m, u):
                d = self.ga.distance(m, u)
                self.add("engaged_lost", m, f"{m} started engaged with {u} and ends {d:.2f}\" "
                                            f"from it, outside {self._engaged_words()}")

    # ------------------------------------------------------------ the unit
    def _unit_clauses(self) -> None:
        ctx, ga, uid = self.ctx, self.ga, self.ctx.spec.unit
        kind = ctx.spec.kind
        if kind == "pile_in" and not ga.unit_engaged(uid):
            d = min(ga.nearest_enemy(m)[1] for m in ga.unit_models(uid))
            # measured after *this* move (the solver's, or one judged by hand): what it
            # reached, not the closest the unit could get
            self.add("unit_engaged", None, f"{uid} must be engaged after its pile-in, but this "
                                           f"move leaves it {d:.2f}\" from the nearest enemy "
                                           f"model ({self._engaged_words()})")
        elif kind == "engaging":
            engaged = set(ga.engaged_units(uid))
            for t in ctx.spec.targets:
                if t not in engaged:
                    d = ga.distance(uid, t)
                    self.add(f"unit_engaged:{t}", None, f"{uid} must end engaged with {t}, but ends "
                                                   f"{d:.2f}\" from it ({self._engaged_words()})")
        elif kind == "objective":
            o = ctx.objective
            assert o is not None      # objective mode without spec problems has its objective
            rng = ctx.state.objective_range(o)
            d = ga.distance(uid, o.id)
            if not tolmod.within(d, rng, self.tol):
                self.add("unit_objective", None, f"{uid} must end within range of objective "
                                                 f"{o.id}, but ends {d:.2f}\" > {rng:g}\" from it")

    def _coherency(self) -> None:
        br = self.ga.coherency.get(self.ctx.spec.unit)
        if br is None:
            return
        for m in br.models:
            self.add("coherency", m, f"{m} ends out of coherency (03.03): {br.reasons[m]}")

    # ------------------------------------------------------------ if possible
    def _possible(self, m: str) -> None:
        """``POSSIBLE_MEANS``: a moved model that is not engaged (within range) but could be."""
        ctx = self.ctx
        end = self.end[m]
        if ctx.achieved_at(m, [end])[0] or ctx.out_of_reach(m):
            return
        where = {k: v for k, v in self.end.items() if k != m}
        alt = reach_best(ctx, self.arena, m, where, cache=self.cache)
        if alt is None or not alt.achieved:
            return
        mine = {(f.code, f.model) for f in self.found if f.code != "possible"}
        positions = dict(self.end)
        positions[m] = alt.end
        paths = dict(self.paths)
        paths[m] = alt.path
        theirs = {(f.code, f.model) for f in check(ctx, positions, paths, possible=False,
                                                    arena=self.arena, cache=self.cache)}
        if not theirs <= mine:
            return
        d = float(ctx.dist_at(m, [end])[0])
        x, y = alt.end
        if ctx.objective is not None:
            rng = ctx.state.objective_range(ctx.objective)
            what = f"{d:.2f}\" from objective {ctx.objective.id}, not within its {rng:g}\""
            goal = "within range"
        else:
            what = f"{d:.2f}\" from {ctx.target[m]}, not engaged ({self._engaged_words()})"
            goal = f"engaged with {ctx.target[m]}"
        self.add("possible", m, f"{m} ends {what}, though ({x:.2f}, {y:.2f}), {goal}, is "
                                f"{alt.length:.2f}\" away along a clear path")
