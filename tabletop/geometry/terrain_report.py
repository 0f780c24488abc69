"""Terrain for the organiser: the gaps between pieces, and how far a measured
table deviates from the published layout.

Inches, bottom-left origin, y up.  A *gap* is the shortest edge-to-edge
distance between two terrain pieces, or between a piece and a table edge
(where models must pass).  Pieces nearer than the contact tolerance touch: that is
no gap.  Each gap is tried with the common bases and with the bases actually on the
table (their exact sizes); every base passes by its narrow side.  (How a measured
table stands against the published layout is ``layout_compare.py``.)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry import LineString, Polygon

from tabletop.board.config import LAYOUT_TOLERANCE
from tabletop.board.state import Battlefield

GAP_REPORT_RANGE = 6.0
"""Named default: gaps wider than this (inches) are open ground and not listed."""

DEVIATION_TOLERANCE = LAYOUT_TOLERANCE
"""Named default (``board.config.LAYOUT_TOLERANCE``): a piece within this (inches,
Hausdorff) of the published layout is in place."""

MM_PER_INCH = 25.4

COMMON_BASES: tuple[tuple[str, float, float], ...] = (
    ("25mm", 25, 25), ("32mm", 32, 32), ("40mm", 40, 40), ("50mm", 50, 50), ("60mm", 60, 60),
    ("100mm", 100, 100), ("75x42mm oval", 75, 42), ("90x52mm oval", 90, 52),
    ("105x70mm oval", 105, 70), ("170x109mm oval", 170, 109))
"""Named default: the common bases a gap is tried with (name, long and narrow side in mm),
the round sizes most infantry, characters and monsters stand on and the ovals of bikes,
cavalry and vehicles.  An oval passes a gap when its narrow side fits: it goes through
turned lengthwise, as a player steers a bike between two ruins."""


BOUNDARY_NEAR = 0.01
"""Named default: a gap within this (inches) of a base's narrow side is shown to three
decimals (0.980" beside a 25mm base's 0.984"), elsewhere to two."""


@dataclass(frozen=True)
class Gap:
    a: str
    b: str            # a terrain id, or "left edge" / "bottom edge" / "right edge" / "top edge"
    width: float      # inches, edge to edge
    # the two nearest points, on a and on b (inches): where the gap is narrowest
    ends: tuple[tuple[float, float], tuple[float, float]] | None = None
    # the bases on the table: (name as written with its shape, narrow side in inches)
    on_table: tuple[tuple[str, float], ...] = ()

    @property
    def bases(self) -> tuple[str, ...]:
        """The ``COMMON_BASES`` that pass this gap (their narrow side fits)."""
        return bases_through(self.width)

    @property
    def table_bases(self) -> tuple[tuple[str, float, bool], ...]:
        """Each base on the table: (name, narrow side in inches, passes this gap)."""
        return tuple((n, w, w <= self.width + 1e-9) for n, w in self.on_table)

    @property
    def digits(self) -> int:
        """Decimals to show the width with: 3 when a base's narrow side (common or on the
        table) is within ``BOUNDARY_NEAR`` of it, else 2."""
        sides = [*_COMMON_NARROW, *(w for _, w in self.on_table)]
        return 3 if any(abs(self.width - w) < BOUNDARY_NEAR for w in sides) else 2


_COMMON_NARROW = tuple(narrow / MM_PER_INCH for _, _, narrow in COMMON_BASES)
"""The ``COMMON_BASES``' narrow sides in inches (worked out once, not per gap)."""


def bases_through(width: float) -> tuple[str, ...]:
    """Names of the ``COMMON_BASES`` whose narrow side (mm / 25.4 = inches) is at most
    ``width`` inches: a 2.0" gap passes 50mm (1.97") but not 60mm (2.36")."""
    return tuple(name for name, _, narrow in COMMON_BASES if narrow / MM_PER_INCH <= width + 1e-9)


def _edges(state: Battlefield) -> list[tuple[str, LineString]]:
    w, d = state.table.width, state.table.depth
    return [("left edge", LineString([(0, 0), (0, d)])), ("bottom edge", LineString([(0, 0), (w, 0)])),
            ("right edge", LineString([(w, 0), (w, d)])), ("top edge", LineString([(0, d), (w, d)]))]


def base_name(base) -> str:
    """A base as a player names it: ``32mm round``, ``90x52.5mm oval``, ``25x50mm rect``."""
    if base.shape == "round":
        return f"{base.along_mm:g}mm round"
    big, small = max(base.along_mm, base.across_mm), min(base.along_mm, base.across_mm)
    return f"{big:g}x{small:g}mm {base.shape}"


def table_bases(state: Battlefield) -> tuple[tuple[str, float], ...]:
    """The different bases the models on ``state`` stand on: (name, narrow side in inches),
    widest narrow side first."""
    seen: dict[str, float] = {}
    for m in state.models():
        seen.setdefault(base_name(m.base), min(m.base.along, m.base.across))
    return tuple(sorted(seen.items(), key=lambda kv: (-kv[1], kv[0])))


def terrain_gaps(state: Battlefield, within: float = GAP_REPORT_RANGE) -> list[Gap]:
    """Gaps narrower than ``within`` (inches) between terrain pieces and to the table edges,
    narrowest first; each with its two nearest points (``ends``), the common bases that
    pass (``bases``) and the bases on the table (``table_bases``).  Pieces that overlap or
    touch, nearer than the contact tolerance (``[rules] contact_tolerance``, the one
    tolerance of docs/design.md: 0.02"), are not gaps and are left out."""
    pieces = [(t.id, Polygon(t.polygon)) for t in state.terrain]
    pieces = [(tid, p) for tid, p in pieces if p.is_valid]
    touch = state.rules.tol
    on_table = table_bases(state)
    if not pieces:
        return []
    ids = [tid for tid, _ in pieces]
    shapes = np.array([p for _, p in pieces], dtype=object)
    # candidate pairs from one STRtree query (a little wider than ``within``, so no pair the
    # exact test below keeps is missed); the exact width and ends are GEOS's distance and
    # nearest points for each candidate pair, as before, but no longer for every pair
    i, j = shapely.STRtree(shapes).query(shapes, predicate="dwithin",
                                          distance=within + _QUERY_MARGIN)
    keep = i < j
    i, j = i[keep], j[keep]
    edges = _edges(state)
    ei = np.repeat(np.arange(len(pieces)), len(edges))
    ej = np.tile(np.arange(len(edges)), len(pieces))
    edge_shapes = np.array([e for _, e in edges], dtype=object)
    names = [(ids[a], ids[b]) for a, b in zip(i.tolist(), j.tolist())]
    names += [(ids[a], edges[b][0]) for a, b in zip(ei.tolist(), ej.tolist())]
    firsts = np.concatenate([shapes[i], shapes[ei]])
    seconds = np.concatenate([shapes[j], edge_shapes[ej]])
    # two large outlines that do not meet: their width and ends are GEOS's on only the runs
    # of segments that can hold the nearest pair (``_facing_runs``), the same segment pairs
    # measured the same way, in the same order: the same numbers
    shapely.prepare(shapes)
    rings = [shapely.get_coordinates(p.exterior) for p in shapes]
    sizes = np.array([len(r) - 1 for r in rings])
    big = np.zeros(len(firsts), bool)
    big[:len(i)] = (np.minimum(sizes[i], sizes[j]) >= PRUNE_MIN_SEGMENTS) & \
        ~shapely.intersects(shapes[i], shapes[j])
    if big.any():
        firsts[big], seconds[big] = _facing_runs(rings, i[big[:len(i)]], j[big[:len(i)]])
    widths = shapely.distance(firsts, seconds)
    near = (widths > touch) & (widths <= within)
    lines = shapely.shortest_line(firsts[near], seconds[near])
    ends = shapely.get_coordinates(lines).reshape(-1, 2, 2).tolist()
    out = [Gap(a, b, g, ((p[0], p[1]), (q[0], q[1])), on_table)
           for (a, b), g, (p, q) in zip((n for n, k in zip(names, near.tolist()) if k),
                                        widths[near].tolist(), ends)]
    return sorted(out, key=lambda g: (g.width, g.a, g.b))


PRUNE_MIN_SEGMENTS = 32
"""Named default: two outlines of at least this many segments each, apart, are measured on
their facing runs only (``_facing_runs``); smaller ones (rectangles, the shipped tables'
pieces) whole, where the saving is nothing.  Only how fast, never what is found."""


def _expand(starts: np.ndarray, counts: np.ndarray):
    """For each item p the flat indices ``starts[p] + 0 .. counts[p] - 1``: (item of each,
    index within its item, flat index, where each item's run starts)."""
    rep = np.repeat(np.arange(len(counts)), counts)
    first = np.cumsum(counts) - counts
    local = np.arange(int(counts.sum())) - first[rep]
    return rep, local, starts[rep] + local, first


def _first_min(d: np.ndarray, rep: np.ndarray, first: np.ndarray) -> np.ndarray:
    """Positions of the first smallest ``d`` of each item (items contiguous, starting at
    ``first``)."""
    pos = np.flatnonzero(d == np.minimum.reduceat(d, first)[rep])
    group = rep[pos]
    head = np.ones(len(pos), bool)
    head[1:] = group[1:] != group[:-1]
    return pos[head]


def _facing_runs(rings: list[np.ndarray], i: np.ndarray, j: np.ndarray, block: int = 4000):
    """For outline pairs (``rings[i[p]]``, ``rings[j[p]]``, closed coordinate arrays, the
    polygons apart): two arrays of MultiLineStrings, the runs of consecutive segments of
    each outline (in ring order) that may hold the nearest pair.

    Bound: two vertices, one on each outline (A's vertex nearest B's bounding-box centre
    c, then B's vertex nearest it), are ``U`` apart, so the gap is at most ``U``; a segment
    of A at distance ``D`` from c is at least ``D - R`` from B (``R``: B's furthest vertex
    from c), so a segment with ``D - R > U`` cannot hold the nearest pair and is left out
    (and the same for B's segments against A).  Inches; ``block`` pairs at a time."""
    n = np.array([len(r) - 1 for r in rings])
    off = np.concatenate([[0], np.cumsum(n + 1)[:-1]])
    pts = np.concatenate(rings)
    x, y = pts[:, 0].copy(), pts[:, 1].copy()
    centre = np.array([(r.min(axis=0) + r.max(axis=0)) / 2 for r in rings])
    reach = np.array([np.hypot(*(r - c).T).max() for r, c in zip(rings, centre)])
    firsts: list[np.ndarray] = []
    seconds: list[np.ndarray] = []
    for b0 in range(0, len(i), block):
        bi, bj = i[b0:b0 + block], j[b0:b0 + block]
        rep, _, s, first = _expand(off[bi], n[bi])
        d = np.hypot(x[s] - centre[bj, 0][rep], y[s] - centre[bj, 1][rep])
        a = s[_first_min(d, rep, first)]
        rep, _, s, first = _expand(off[bj], n[bj])
        d = np.hypot(x[s] - x[a][rep], y[s] - y[a][rep])
        bound = d[_first_min(d, rep, first)] + _PRUNE_SLACK
        for side, other, acc in ((bi, bj, firsts), (bj, bi, seconds)):
            rep, local, s, _ = _expand(off[side], n[side])
            x0, y0, vx, vy = x[s], y[s], x[s + 1] - x[s], y[s + 1] - y[s]
            cx, cy = centre[other, 0][rep], centre[other, 1][rep]
            vv = vx * vx + vy * vy
            t = ((cx - x0) * vx + (cy - y0) * vy) / np.where(vv > 0, vv, 1.0)
            np.clip(t, 0.0, 1.0, out=t)
            keep = np.hypot(cx - x0 - t * vx, cy - y0 - t * vy) - reach[other][rep] <= bound[rep]
            rep, local, s = rep[keep], local[keep], s[keep]
            new = np.ones(len(s), bool)         # a kept segment that starts a run
            new[1:] = ~((rep[1:] == rep[:-1]) & (local[1:] == local[:-1] + 1))
            run = np.cumsum(new) - 1
            last = np.ones(len(s), bool)        # ... that ends one
            last[:-1] = new[1:]
            pos = np.arange(len(s)) + np.cumsum(last) - last
            coords = np.empty((len(s) + int(last.sum()), 2))
            run_of = np.empty(len(coords), np.int64)
            coords[pos], run_of[pos] = pts[s], run
            coords[pos[last] + 1], run_of[pos[last] + 1] = pts[s[last] + 1], run[last]
            lines = shapely.linestrings(coords, indices=run_of)
            acc.append(shapely.multilinestrings(lines, indices=rep[new]))
    return np.concatenate(firsts), np.concatenate(seconds)


_PRUNE_SLACK = 1e-7
"""Inches added to ``_facing_runs``' bound so a rounding in its arithmetic never leaves out a
segment at the bound; only how many segments are measured, never the result."""


_QUERY_MARGIN = 1e-6
"""Inches added to the gap range for the STRtree's candidate query only, so a pair exactly at
the range (or a rounding apart from it) is still measured; the range test itself is exact."""


def widest_base(state: Battlefield) -> tuple[str | None, float]:
    """The model whose base needs the widest gap: the largest narrow side (inches), as a
    base passes a gap by its narrow side (an oval goes through lengthwise)."""
    best, size = None, 0.0
    for m in state.models():
        s = min(m.base.along, m.base.across)
        if s > size:
            best, size = m.id, s
    return best, size
