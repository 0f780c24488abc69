"""Where one model of a moving unit can get to, and the best end point on the way.

Used by the solver (to move each model) and by the validator (to decide
whether ending engaged, or within range of the objective, was possible).
A model aims at base contact with the closest enemy model of its closest
target (fight-phase.txt 12.03, 12.08), trying the next closest models of that
unit when contact is out of reach (``AIMS_PER_MODEL``; once engaged, only those
whose contact spots are within the move and ``AIM_SLACK``); in objective mode it
aims at the marker's centre and stops once within range.  Along each route it
ends at the best point that keeps its own clauses (``MoveContext.ok_at``):
engaged (or within range) first, then base contact, then nearest to the
target, then the shortest move.  Inches, origin bottom-left, y up.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from tabletop.geometry import tolerance as tolmod
from tabletop.geometry.movespec import MoveContext
from tabletop.geometry.paths import (
    Arena,
    Obstacle,
    Route,
    clear_of,
    contact_spot,
    find_routes,
    free_at,
    near_obstacles,
    near_of,
    straight_clear,
)
from tabletop.geometry.sweeps import XY, path_length, prefix_to, tie, ties

#: how many models of the target unit a model tries to reach, nearest first
AIMS_PER_MODEL = 3
#: end points are tried every this many inches along a route
SAMPLE_STEP = 0.05
#: spots engaged with several units at once are looked for on a grid this fine
SPOT_GRID = 0.1
#: inches: a model that ends engaged stops trying its later aims when each of
#: their contact spots (``paths.contact_spot``: the free spot touching the aimed
#: model nearest its start) is farther from its start, as the crow flies, than
#: the move's maximum distance and this much more.  A path is never shorter than
#: the straight line, so such an aim cannot give base contact, nor end within
#: this much of it; it could only bring a model that is engaged already a little
#: nearer its target (``Reach.score``'s third key), which is not worth a route
#: each.  A middle rank engaged through its front rank tries one aim, not
#: ``AIMS_PER_MODEL`` (its other aims are over an inch beyond its move); a model
#: that can get within a few hundredths of an inch of contact still does.
AIM_SLACK = 2.0
#: ``a.any()`` of a bool array, without the method's Python wrapper (the same ufunc)
_ANY = np.logical_or.reduce


@dataclass
class Reach:
    """The best end point found for one model, and the path to it."""

    model: str
    path: list[XY]
    aim: str                    # the target model (or objective) it moved toward
    achieved: bool              # engaged with its closest target / within range of the objective
    contact: bool               # in base contact with its closest target
    dist: float                 # inches to its closest target at the end
    length: float

    @property
    def end(self) -> XY:
        return self.path[-1]

    @property
    def score(self) -> tuple:
        return (self.achieved, self.contact, -tie(self.dist), -tie(self.length))


def obstacles_for(ctx: MoveContext, mid: str | None, where: dict[str, XY]) -> list[Obstacle]:
    """Every model on the table but ``mid`` (None: every model) as an obstacle, at
    ``where`` (else where it stands), in id order (so a route does not depend on the
    order of the map's units)."""
    memo = ctx.obstacle_memo
    # every model where it stands, in id order, made once per context
    still = memo.get(_STILL)
    if still is None:
        still = memo[_STILL] = sorted((Obstacle(m.id, m.base, m.x, m.y, m.facing_deg)
                                       for m in ctx.local.models()), key=lambda ob: ob.id)
    slot = memo.get(_SLOT)
    if slot is None:
        slot = memo[_SLOT] = {ob.id: k for k, ob in enumerate(still)}
    out = list(still)
    for oid, at in where.items():
        k = slot.get(oid)
        if k is None or oid == mid:
            continue
        ob = still[k]
        if at[0] != ob.x or at[1] != ob.y:
            x, y = at
            moved = memo.get((oid, x, y))
            if moved is None:
                moved = memo[(oid, x, y)] = Obstacle(oid, ob.base, x, y, ob.facing_deg)
            out[k] = moved
    k = slot.get(mid) if mid is not None else None
    if k is not None:
        del out[k]
    return out


# the ``obstacle_memo`` key of every model where it stands, in id order
_STILL = ("(still)", 0.0, 0.0)
# the ``obstacle_memo`` key of each model's place in that list, by id
_SLOT = ("(slot)", 0.0, 0.0)


def best_on_route(ctx: MoveContext, mid: str, route: Route, aim: str,
                  goal: str | tuple[str, ...] | None = None,
                  avoid: Sequence[Obstacle] = ()) -> Reach | None:
    """The best end point along ``route`` that keeps the model's own clauses, or None.

    ``goal`` is the enemy unit to be engaged with (default: the model's closest
    target), or a tuple of enemy units to be engaged with all at once.  No end
    point overlaps one of ``avoid`` (spots kept for models that move later; the
    path may cross them).
    """
    return best_on_routes(ctx, mid, [route], aim, goal, avoid)[0]


def best_on_routes(ctx: MoveContext, mid: str, routes: Sequence[Route], aim: str,
                   goal: str | tuple[str, ...] | None = None,
                   avoid: Sequence[Obstacle] = ()) -> list[Reach | None]:
    """``best_on_route`` for each of ``routes`` (the same answers, in order), measured
    all at once: the sample points of every route in one array (``SAMPLE_STEP``
    apart), each clause and the target's distance worked out once for all of
    them, then the best point of each route chosen by one sort."""
    out: list[Reach | None] = [None] * len(routes)
    use = [i for i, route in enumerate(routes) if len(route.path) >= 2]
    if not use:
        return out
    s_all, xy_all, seg_all, of_all = _samples_of([routes[i].path for i in use], SAMPLE_STEP)
    start = ctx.start[mid]
    far = np.hypot(xy_all[:, 0] - start[0], xy_all[:, 1] - start[1]) > ctx.tol
    s_at, xy, seg_of, of = s_all[far], xy_all[far], seg_all[far], of_all[far]
    if not len(xy):
        return out
    own = ctx.measure_at(mid, xy)
    ok = ctx.ok_at(mid, xy, own[0])
    # each route's own clearance (routes of one steering share one)
    tests: dict[int, tuple[Route, list[int]]] = {}
    for k, i in enumerate(use):
        tests.setdefault(id(routes[i].clearance), (routes[i], []))[1].append(k)
    if len(tests) == 1:                 # one clearance: every row is its routes'
        first = next(iter(tests.values()))[0]
        if not (first.clearance is None or first.legs_clear):   # else clear_at is all true
            ok &= first.clear_at(xy)
    else:
        for route, ks in tests.values():
            rows = np.isin(of, ks)
            if rows.any():
                ok[rows] &= route.clear_at(xy[rows])
    if avoid and _ANY(ok):
        m = ctx.models[mid]
        ok &= clear_of(m.base, m.facing_deg, xy, avoid, ctx.tol)
    if not _ANY(ok):
        return out
    idx = ok.nonzero()[0]
    xy_ok = xy[idx]
    if goal is None or ctx.objective is not None:
        dist, achieved, contact = (a[idx] for a in own)
    else:
        units = goal if isinstance(goal, tuple) else (goal,)
        dists = np.array([ctx.dist_at(mid, xy_ok, u) for u in units])
        achieved = np.all([ctx.engaged_at(mid, xy_ok, u) for u in units], axis=0)
        dist = dists.max(axis=0)
        contact = np.asarray(tolmod.in_contact(dists.min(axis=0), ctx.tol), dtype=bool)
    # best: engaged, then in contact, then nearest, then shortest; ties the first;
    # route by route (the route is the last key: the first sort key)
    of_ok = of[idx]
    order = np.lexsort((idx, ties(s_at[idx]), ties(dist), ~contact, ~achieved, of_ok))
    sorted_of = of_ok[order]
    firsts = order[np.concatenate(([True], sorted_of[1:] != sorted_of[:-1]))]
    for b in firsts.tolist():
        k = int(idx[b])
        route = routes[use[int(of[k])]]
        p = (float(xy[k, 0]), float(xy[k, 1]))
        out[use[int(of[k])]] = Reach(mid, prefix_to(route.path, int(seg_of[k]), p), aim,
                                     bool(achieved[b]), bool(contact[b]), float(dist[b]),
                                     float(s_at[k]))
    return out


def _samples_of(paths: Sequence[Sequence[XY]], step: float
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``_samples`` of several paths (each of two points or more) at once, one
    after another: arc lengths (n,), points (n, 2), segment of each within its
    path (n,), and which path (n,).

    Every path's segments are measured in one set of numpy calls: each number
    is the same operation on the same operands as ``_samples`` path by path
    (element by element; the running arc length summed segment by segment from
    0 within each path, as ``np.cumsum`` sums), so the same samples."""
    if len(paths) == 1:
        s, xy, seg = _samples(list(paths[0]), step)
        return s, xy, seg, np.zeros(len(s), dtype=int)
    lens = [len(p) for p in paths]
    p = np.array([q for path in paths for q in path], dtype=float).reshape(-1, 2)
    ends = np.array(lens).cumsum()
    keep = np.ones(len(p) - 1, dtype=bool)
    keep[ends[:-1] - 1] = False                 # no segment from one path to the next
    a = p[:-1][keep]
    d = p[1:][keep] - a
    seg = np.hypot(d[:, 0], d[:, 1])
    n = np.maximum(1, np.ceil(ties(seg / step))).astype(int)
    which = np.arange(len(seg)).repeat(n)
    first = n.cumsum() - n
    i = np.arange(len(which)) - first.repeat(n) + 1
    t = i / n[which]
    xy = a[which] + d[which] * t[:, None]
    # each path's arc length at the start of each of its segments, summed in order
    s0_list: list[float] = []
    local_list: list[int] = []
    k = 0
    for m in lens:
        run = 0.0
        for j, g in enumerate(seg[k:k + m - 1].tolist()):
            s0_list.append(run)
            local_list.append(j)
            run += g
        k += m - 1
    s0 = np.array(s0_list, dtype=float)
    s = s0[which] + seg[which] * t
    # each path's first point ahead of its samples
    per_path = np.add.reduceat(n, np.array([0] + [m - 1 for m in lens[:-1]]).cumsum())
    first_row = (per_path + 1).cumsum() - (per_path + 1)
    rows = np.ones(len(which) + len(paths), dtype=bool)
    rows[first_row] = False                     # the samples' rows
    s_out = np.zeros(len(rows))
    s_out[rows] = s
    xy_out = np.empty((len(rows), 2))
    xy_out[first_row] = p[ends - np.asarray(lens)]
    xy_out[rows] = xy
    seg_out = np.zeros(len(rows), dtype=int)
    seg_out[rows] = np.asarray(local_list, dtype=int)[which]
    return s_out, xy_out, seg_out, np.arange(len(paths)).repeat(per_path + 1)


def _samples(path: list[XY], step: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``sweeps.samples`` as arrays: arc lengths (n,), points (n, 2), segment of
    each (n,); the same points (every ``step`` inches and every vertex)."""
    p = np.asarray(path, dtype=float).reshape(-1, 2)
    d = p[1:] - p[:-1]
    seg = np.hypot(d[:, 0], d[:, 1])
    n = np.maximum(1, np.ceil(ties(seg / step))).astype(int)
    which = np.arange(len(seg)).repeat(n)
    first = n.cumsum() - n
    i = np.arange(len(which)) - first.repeat(n) + 1
    t = i / n[which]
    xy = p[which] + d[which] * t[:, None]
    s0 = np.concatenate([[0.0], seg.cumsum()[:-1]])
    s = s0[which] + seg[which] * t
    return (np.concatenate([[0.0], s]), np.concatenate([p[:1], xy]),
            np.concatenate([[0], which]))


def reach_model(ctx: MoveContext, arena: Arena, mid: str, where: dict[str, XY],
                goal: str | None = None, cache: dict | None = None,
                spots: Sequence[tuple[str, XY]] | None = None,
                avoid: Sequence[Obstacle] = ()) -> Reach | None:
    """Move one model from its start toward its closest target, others at ``where``.

    Parameters
    ----------
    where : {model id: (x, y)} positions of other models that differ from the state.
    goal : the enemy unit to aim at and be engaged with (default: the model's
        closest target); it tries that unit's ``AIMS_PER_MODEL`` nearest models.
        The model's own clauses (closer to its closest target) still hold.
    cache : optional dict remembering answers by model, goal and the
        positions of the obstacles its routes can meet.
    spots : [(target model id, (x, y))] aim at these spots (in this order)
        instead of the nearest free contact spots.
    avoid : bases standing where other models will end (kept spots): the
        model does not end on them, nor aims at a spot on them.

    Returns
    -------
    Reach or None
        None when no end point keeps the model's clauses (it stays put).
    """
    m = ctx.models[mid]
    start = ctx.start[mid]
    spec = ctx.spec
    everyone = obstacles_for(ctx, mid, where)
    near = near_of(m.base, start, everyone, spec.max_distance)
    obstacles = near.obstacles
    avoid = near_obstacles(m.base, start, avoid, spec.max_distance)
    key = None
    if cache is not None:
        key = (mid, goal, tuple(sorted((ob.id, ob.x, ob.y) for ob in obstacles)),
               tuple(spots or ()), tuple((ob.x, ob.y) for ob in avoid))
        if key in cache:
            return cache[key]
    targets: Sequence[tuple[str, XY]]
    if ctx.objective is not None:
        o = ctx.objective
        targets = [(o.id, (o.at[0], o.at[1]))]
        goal_ids: set[str] = set()

        def in_range(p: XY) -> bool:
            return bool(ctx.in_range_at(mid, [p])[0])
        stop: Callable[[XY], bool] | None = in_range
    else:
        tgt = goal or ctx.target[mid]
        ids = ctx.target_models(tgt)
        if spots is not None:
            targets = list(spots)
        else:
            gaps = ties(ctx.gaps_at(mid, [start], tgt)[0])
            tries = 1 if ctx.out_of_reach(mid, goal) else AIMS_PER_MODEL
            aims = [ids[k] for k in np.argsort(gaps, kind="stable")[:tries].tolist()]
            by_id = {ob.id: ob for ob in everyone}
            around = [*obstacles, *avoid]

            def spot_of(a: str) -> tuple[str, XY]:
                t = by_id[a]
                spot = contact_spot(arena, m.base, m.facing_deg, start, t, around,
                                    spec.max_distance)
                return (a, spot or (t.x, t.y))
            # the first aim's contact spot now, the others' when asked for (a model
            # that reaches base contact on its first aim never needs them)
            targets = _Lazy(aims, spot_of)
        goal_ids = set(ids)
        stop = None
    best: Reach | None = None
    for k, (aim_id, aim_xy) in enumerate(targets):
        routes = find_routes(arena, m.base, m.facing_deg, start, obstacles, aim_xy,
                             goal_ids, spec.max_distance, stop,
                             None if stop is None else ("in_range", mid), near)
        for r in best_on_routes(ctx, mid, routes, aim_id, goal, avoid):
            if r is not None and (best is None or r.score > best.score):
                best = r
        if best is not None and (best.contact or (best.achieved and (
                ctx.objective is not None or all(
                    math.dist(start, xy) > spec.max_distance + AIM_SLACK
                    for _, xy in targets[k + 1:] if xy is not None)))):
            break
    if cache is not None:
        cache[key] = best
    return best


class _Lazy(Sequence[tuple[str, XY]]):
    """``[make(x) for x in items]``, each made the first time it is read."""

    def __init__(self, items: Sequence[str], make: Callable[[str], tuple[str, XY]]):
        self.items, self.make = list(items), make
        self.made: dict[int, tuple[str, XY]] = {}

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(len(self.items)))]
        if k < 0:
            k += len(self.items)
        if not 0 <= k < len(self.items):
            raise IndexError(k)
        if k not in self.made:
            self.made[k] = self.make(self.items[k])
        return self.made[k]


def reach_spot(ctx: MoveContext, arena: Arena, mid: str, where: dict[str, XY],
               spot: XY) -> Reach | None:
    """Move one model to end at ``spot``, others at ``where``: straight when the
    straight line is clear, else round the bases in the way (``find_routes``).

    Returns
    -------
    Reach or None
        None when the spot breaks one of the model's own clauses
        (``MoveContext.ok_at``) or no path of at most the maximum distance
        ends within half the tolerance of it.
    """
    m = ctx.models[mid]
    start = ctx.start[mid]
    spec = ctx.spec
    spot = (float(spot[0]), float(spot[1]))
    if not ctx.ok_at(mid, [spot])[0]:
        return None
    near = near_of(m.base, start, obstacles_for(ctx, mid, where), spec.max_distance)
    obstacles = near.obstacles
    path = None
    if math.dist(start, spot) <= spec.max_distance and \
            straight_clear(arena, m.base, m.facing_deg, start, obstacles, spot):
        path = [start, spot]
    else:
        within = ctx.tol / 2.0
        for route in find_routes(arena, m.base, m.facing_deg, start, obstacles, spot, set(),
                                 spec.max_distance, lambda p: math.dist(p, spot) <= within,
                                 ("near", spot, within), near):
            if route.reached and math.dist(route.path[-1], spot) <= within \
                    and route.clear_at([route.path[-1]])[0]:
                path = route.path
                break
    if path is None:
        return None
    return reach_at(ctx, mid, path)


def reach_at(ctx: MoveContext, mid: str, path: list[XY]) -> Reach:
    """The ``Reach`` of a model that moves along ``path`` (measured at its end)."""
    end = path[-1]
    if ctx.objective is not None:
        aim = ctx.objective.id
    else:
        ids = ctx.target_models(ctx.target[mid])
        aim = ids[int(np.argmin(ties(ctx.gaps_at(mid, [end], ctx.target[mid])[0])))]
    return Reach(mid, [(p[0], p[1]) for p in path], aim, bool(ctx.achieved_at(mid, [end])[0]),
                 bool(ctx.contact_at(mid, [end])[0]), float(ctx.dist_at(mid, [end])[0]),
                 path_length(path))


def reach_all(ctx: MoveContext, arena: Arena, mid: str, where: dict[str, XY],
              units: tuple[str, ...], cache: dict | None = None) -> Reach | None:
    """Move one model to end engaged with every one of ``units`` at once
    (engaging consolidation, 12.08 AFTER MOVING), others at ``where``.

    It aims at the nearest free spots (``SPOT_GRID`` apart, within the maximum
    distance as the crow flies) that are engaged with all of them and keep the
    model's own clauses, nearest first (``AIMS_PER_MODEL`` of them).

    Returns
    -------
    Reach or None
        None when no spot is found or none is reached.
    """
    m = ctx.models[mid]
    start = ctx.start[mid]
    spec = ctx.spec
    obstacles = near_obstacles(m.base, start, obstacles_for(ctx, mid, where), spec.max_distance)
    key = None
    if cache is not None:
        key = (mid, units, tuple(sorted((ob.id, ob.x, ob.y) for ob in obstacles)))
        if key in cache:
            return cache[key]
    n = int(spec.max_distance / SPOT_GRID)
    grid = np.array([(start[0] + i * SPOT_GRID, start[1] + j * SPOT_GRID)
                     for i in range(-n, n + 1) for j in range(-n, n + 1)
                     if 0 < math.hypot(i, j) * SPOT_GRID <= spec.max_distance])
    pts = [tuple(p) for p in grid]
    keep = free_at(arena, m.base, m.facing_deg, start, obstacles, pts) & ctx.ok_at(mid, pts)
    for u in units:
        keep &= ctx.engaged_at(mid, pts, u)
    spots = grid[keep]
    best: Reach | None = None
    if len(spots):
        order = np.argsort(ties(np.hypot(spots[:, 0] - start[0], spots[:, 1] - start[1])),
                           kind="stable")

        def stop(p: XY) -> bool:
            return all(ctx.engaged_at(mid, [p], u)[0] for u in units)

        ids = ctx.target_models(units[0])
        for k in order[:AIMS_PER_MODEL].tolist():
            aim = (float(spots[k, 0]), float(spots[k, 1]))
            near = ids[int(np.argmin(ties(ctx.gaps_at(mid, [aim], units[0])[0])))]
            routes = find_routes(arena, m.base, m.facing_deg, start, obstacles, aim,
                                 set(), spec.max_distance, stop, ("engaged", mid, units))
            for r in best_on_routes(ctx, mid, routes, near, units):
                if r is not None and (best is None or r.score > best.score):
                    best = r
            if best is not None and best.achieved:
                break
    if cache is not None:
        cache[key] = best
    return best


def reach_best(ctx: MoveContext, arena: Arena, mid: str, where: dict[str, XY],
               cache: dict | None = None) -> Reach | None:
    """``reach_model``; when that does not end engaged (within range), and the
    goal is not out of reach, also the nearest free spots engaged with the
    closest target (``reach_all``), whichever is better."""
    best = reach_model(ctx, arena, mid, where, cache=cache)
    if (best is not None and best.achieved) or ctx.objective is not None \
            or ctx.out_of_reach(mid):
        return best
    alt = reach_all(ctx, arena, mid, where, (ctx.target[mid],), cache=cache)
    if alt is not None and (best is None or alt.score > best.score):
        return alt
    return best
