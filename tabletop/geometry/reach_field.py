"""One distance field per charging unit: the shortest charge path to every cell of a grid.

The table's charge-odds shading (issue 10 item 1) asks, for each cell centre of a
grid, how far the nearest model of a unit must walk to stand there, round the
grown obstacles of a ``ChargeArena`` (``geometry/charge_paths.py``: other bases,
blocking terrain, the table's edges, each grown by the charger's radius).  The
answer is one sweep, not one search per cell:

1. a Dijkstra over the visibility graph of the starts (the unit's model centres)
   and the convex corners of the grown shapes that a path no longer than
   ``limit`` could bend at (a corner farther than ``limit`` from every start is
   dropped);
2. every cell then takes ``dist[k] + |cell - node k|`` for the best node ``k`` it
   sees, the nodes tried nearest first, each against all the cells it may still
   improve at once (one vectorised segment test per node).  A cell is final as soon
   as it sees its nearest start (no path is shorter than the straight line) or its
   best is no longer than the next node's own distance, so only cells in a shadow
   are tried against corners.

The result is exact for the arena (the same corners and tangent rule as
``ChargeArena.distances_from``), in far fewer operations: cells outside ``limit``
of every start and cells inside a grown shape (a centre cannot stand there) are
never tried, and a node is tried against a whole grid in one call, not row by row.

``field_pieces`` is the sweep as a generator that yields its counted work (about
a microsecond each: a segment tested, a cell looked at, a corner looked at), so
a window can spread it over frames without reading a clock.

Inches, origin bottom-left, y up.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Generator, Sequence

import numpy as np
import shapely
from shapely.geometry import Point

from tabletop.geometry.charge_paths import (
    ChargeArena,
    arena_shapes,
    grown_circle_radius,
    tangent_mask,
)

__all__ = ["CELL_WORK", "SEGMENT_WORK", "NODE_WORK", "near_shapes", "field_pieces", "path_field"]

XY = tuple[float, float]

#: counted work of looking at one cell in a numpy pass (a few array operations)
CELL_WORK = 0.05
#: counted work of one segment tested against the grown shapes (one GEOS predicate)
SEGMENT_WORK = 2.0
#: counted work of one corner looked at by the Dijkstra (a few array operations)
NODE_WORK = 0.2
#: how far (inches) past ``limit`` plus the charger's grown radius a shape must lie to be
#: left out of the arena (it cannot touch a path of ``limit`` inches)
SHAPE_MARGIN = 1.0


def near_shapes(state, skip_units: Sequence[str], terrain, starts: Sequence[XY], limit: float,
                grow: float) -> list:
    """The shapes ``arena_shapes(state, skip_units, terrain)`` gives (bases, ``terrain``
    polygons, the table's frame; inches) that come within ``limit`` + the charger's grown
    radius (``grow``, inches) + SHAPE_MARGIN of the box round ``starts``: the only ones a
    path of at most ``limit`` inches from a start can meet.  Leaving the others out of the
    arena changes no path that short, and saves growing and merging them."""
    xs = [s[0] for s in starts]
    ys = [s[1] for s in starts]
    pad = limit + grown_circle_radius(grow) + SHAPE_MARGIN
    box = shapely.box(min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad)
    shapes = arena_shapes(state, skip_units, terrain)
    keep = shapely.intersects(box, np.asarray(shapes, dtype=object))
    return [s for s, k in zip(shapes, keep) if k]


def _blockers(arena: ChargeArena, starts: Sequence[XY], lo: np.ndarray, hi: np.ndarray):
    """The shrunk grown shapes that reach the box ``lo``..``hi`` and hold no start (a shape
    a start stands in is passed through, as ``ChargeArena.distance_pieces`` does), and
    the indices of the arena parts they are."""
    if arena.tree is None:
        return [], []
    box = shapely.box(lo[0], lo[1], hi[0], hi[1])
    idx = sorted(int(i) for i in arena.tree.query(box))
    keep = [i for i in idx if not any(arena.shrunk[i].contains(Point(s)) for s in starts)]
    return keep, [arena.shrunk[i] for i in keep]


def field_pieces(arena: ChargeArena, starts: Sequence[XY], xs: np.ndarray, ys: np.ndarray,
                 limit: float, progress: dict[str, float] | None = None
                 ) -> Generator[int, None, np.ndarray]:
    """The shortest path length from the nearest of ``starts`` to each cell of the grid
    ``xs`` x ``ys``, in pieces (see the module docstring).

    Parameters
    ----------
    arena : the grown obstacles (``ChargeArena``) the paths go round.
    starts : the charging models' centres, [(x, y)] inches; at least one.
    xs, ys : the grid's cell centres along x and y (1-d arrays, inches).
    limit : the longest path wanted (inches); longer ones are ``inf``.
    progress : if given, ``progress["done"]`` is kept at a rough share of the sweep done
        (0 to 1, rising: the corners settled, then the corners tried against the cells),
        for a progress line.

    Yields the counted work of each piece (CELL_WORK, SEGMENT_WORK, NODE_WORK); returns a
    (len(ys), len(xs)) float array of path lengths in inches, ``inf`` past ``limit``, walled
    off, or where a centre cannot stand (inside a grown shape).  Raises ValueError for no
    starts.
    """
    prog: dict[str, float] = progress if progress is not None else {}
    prog["done"] = 0.0
    starts = [(float(s[0]), float(s[1])) for s in starts]
    if not starts:
        raise ValueError("a distance field needs at least one start")
    xs = np.asarray(xs, dtype=float)
    ys = np.asarray(ys, dtype=float)
    gx, gy = np.meshgrid(xs, ys)
    every = np.column_stack([gx.ravel(), gy.ravel()])
    out = np.full(len(every), math.inf)
    sxy = np.asarray(starts, dtype=float)
    # the cells within limit of a start (a path is never shorter than the straight line)
    lb = np.full(len(every), math.inf)
    for s in sxy:
        lb = np.minimum(lb, np.hypot(every[:, 0] - s[0], every[:, 1] - s[1]))
    cells = np.nonzero(lb <= limit)[0]
    yield int(len(every) * len(sxy) * CELL_WORK)
    lo = sxy.min(axis=0) - limit
    hi = sxy.max(axis=0) + limit
    shape_ids, blockers = _blockers(arena, starts, lo, hi)
    block = shapely.union_all(blockers) if blockers else None
    if block is not None:
        shapely.prepare(block)
        # a cell whose centre lies inside a grown shape is no place for the charger's centre
        inside = shapely.contains_xy(block, every[cells, 0], every[cells, 1])
        cells = cells[~inside]
        yield int(len(cells) * SEGMENT_WORK * 0.2)
    pts = every[cells]
    lb = lb[cells]

    def clear(a: np.ndarray, bs: np.ndarray) -> np.ndarray:
        if block is None or len(bs) == 0:
            return np.ones(len(bs), dtype=bool)
        lines = shapely.linestrings(np.stack([np.broadcast_to(a, bs.shape), bs], axis=1))
        return ~shapely.intersects(block, lines)

    # 1. the Dijkstra over the starts and the corners a path of at most limit may use
    corners: list[tuple[XY, XY, XY]] = []
    for i in shape_ids:
        got = arena.corners[i]
        if not got:
            continue
        at = np.asarray([c[0] for c in got], dtype=float)
        near = np.min(np.hypot(at[:, None, 0] - sxy[None, :, 0], at[:, None, 1] - sxy[None, :, 1]),
                      axis=1) <= limit
        corners.extend(c for c, k in zip(got, near) if k)
    nan = (math.nan, math.nan)
    ns = len(starts)
    nodes = np.asarray(starts + [c[0] for c in corners], dtype=float).reshape(-1, 2)
    prv = np.asarray([nan] * ns + [c[1] for c in corners], dtype=float).reshape(-1, 2)
    nxt = np.asarray([nan] * ns + [c[2] for c in corners], dtype=float).reshape(-1, 2)
    dist = np.full(len(nodes), math.inf)
    dist[:ns] = 0.0
    heap = [(0.0, k) for k in range(ns)]
    done = np.zeros(len(nodes), dtype=bool)
    order: list[int] = []
    # the nodes sorted by x: a node settled at d reaches only those within limit - d of
    # it, found by two binary searches instead of a look at every node
    by_x = np.argsort(nodes[:, 0], kind="stable")
    sorted_x = nodes[by_x, 0]
    while heap:
        d, k = heapq.heappop(heap)
        if done[k] or d > dist[k]:
            continue
        done[k] = True
        order.append(k)
        prog["done"] = 0.6 * len(order) / len(nodes)
        reach = limit - d
        lo = int(np.searchsorted(sorted_x, nodes[k, 0] - reach, side="left"))
        hi = int(np.searchsorted(sorted_x, nodes[k, 0] + reach, side="right"))
        todo = by_x[lo:hi]
        todo = todo[~done[todo]]
        if len(todo) == 0:
            yield int(NODE_WORK * (hi - lo))
            continue
        gaps = np.hypot(nodes[todo, 0] - nodes[k, 0], nodes[todo, 1] - nodes[k, 1])
        near = (d + gaps <= limit) & (d + gaps < dist[todo])     # the cheap tests first
        todo, gaps = todo[near], gaps[near]
        near = (tangent_mask(nodes[k], prv[k], nxt[k], nodes[todo])
                & tangent_mask(nodes[todo], prv[todo], nxt[todo], nodes[k]))
        todo, gaps = todo[near], gaps[near]
        ok = clear(nodes[k], nodes[todo])
        for j, g in zip(todo[ok], gaps[ok]):
            if d + g < dist[j]:
                dist[j] = d + g
                heapq.heappush(heap, (d + g, int(j)))
        yield int((hi - lo) * NODE_WORK + len(todo) * SEGMENT_WORK)
    # 2. each cell from the best node it sees, the nodes nearest first
    best = np.full(len(pts), math.inf)
    live = np.arange(len(pts))
    for n, k in enumerate(order):
        # a cell whose best is no longer than this node's distance cannot gain from it or
        # any node after it; nor can one that already sees its nearest start
        if n >= ns:
            live = live[(best[live] > dist[k]) & (best[live] > lb[live] + 1e-12)]
        if len(live) == 0:
            break
        p = pts[live]
        gaps = np.hypot(p[:, 0] - nodes[k, 0], p[:, 1] - nodes[k, 1])
        cand = np.nonzero((dist[k] + gaps < best[live]) & (dist[k] + gaps <= limit))[0]
        cand = cand[tangent_mask(nodes[k], prv[k], nxt[k], p[cand])]
        if len(cand):
            ok = clear(nodes[k], p[cand])
            best[live[cand[ok]]] = dist[k] + gaps[cand[ok]]
        prog["done"] = 0.6 + 0.4 * (n + 1) / len(order)
        yield int(len(live) * CELL_WORK + len(cand) * SEGMENT_WORK)
    out[cells] = best
    prog["done"] = 1.0
    return out.reshape(len(ys), len(xs))


def path_field(arena: ChargeArena, starts: Sequence[XY], xs: np.ndarray, ys: np.ndarray,
               limit: float) -> np.ndarray:
    """``field_pieces`` run to its end: the (len(ys), len(xs)) array of path lengths
    (inches, ``inf`` past ``limit``, walled off or inside a grown shape)."""
    gen = field_pieces(arena, starts, xs, ys, limit)
    while True:
        try:
            next(gen)
        except StopIteration as end:
            return end.value
