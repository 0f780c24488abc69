"""The naive baseline for the pile-in solver (fight-phase.txt 12.03): a grid search.

Each model that may move (not in base contact with an enemy), nearest its
closest target first, goes to the best point of a square grid (``grid``
inches apart) within the maximum distance of its start, by a straight path:
every candidate is tested against every other base on the table (no spatial
index, no pymunk, no path round obstacles, no coherency repair).  Best:
engaged with its closest target, then in base contact, then nearest.

``run`` is the honest baseline the benchmark times (``tabletop bench --only
pile-in``): every candidate against every base, on the same exact shapes -
round bases as centre and radius, gaps worked out analytically - with numpy
doing each model's candidates-by-bases table at once, in blocks, so it runs
in full at every size.  ``run_plain`` is the same search one check at a time
with plain Shapely calls; both give the same moves.  Inches, round bases only.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from shapely.geometry import LineString, Point

from tabletop.board.state import Battlefield
from tabletop.geometry import tolerance as tolmod
from tabletop.geometry.snapshot import Geometry

#: candidates scored at once by ``NaivePileIn.run`` (bounds the table it builds:
#: BLOCK x bases floats)
BLOCK = 256


def candidates(start: tuple[float, float], max_distance: float, grid: float) -> list:
    """Grid points within ``max_distance`` of ``start`` (the start itself left out)."""
    n = int(max_distance / grid + 1e-9)
    r2 = (max_distance / grid) ** 2 + 1e-9
    return [(start[0] + i * grid, start[1] + j * grid)
            for i in range(-n, n + 1) for j in range(-n, n + 1) if 0 < i * i + j * j <= r2]


class NaivePileIn:
    """The grid search for one unit's pile-in; ``run()`` moves every model,
    ``time_per_check(k)`` times ``k`` candidate-against-base checks only."""

    def __init__(self, state: Battlefield, geo: Geometry, unit: str, targets: Sequence[str],
                 max_distance: float, grid: float):
        self.state, self.grid, self.max_distance = state, grid, max_distance
        self.tol = state.rules.tol
        self.er = state.rules.engagement_range
        self.pos = {m.id: m.at for m in state.models()}
        self.radius = {m.id: m.base.radius for m in state.models()}
        mine = geo.unit_models(unit)
        self.enemies = [m.id for m in state.models() if m.unit_id in targets]
        fixed = {m for m in mine if geo.contacts_of(m)}
        self.started = {m: {e.rsplit("/", 1)[0] for e in geo.engaged_models(m)} for m in mine}

        def closest_target(m: str) -> str:
            return min(targets, key=lambda u: self.unit_dist(m, self.pos[m], u))
        self.target = {m: closest_target(m) for m in mine}
        self.order = sorted((m for m in mine if m not in fixed),
                            key=lambda m: self.unit_dist(m, self.pos[m], self.target[m]))

    def gap(self, m: str, xy, other: str) -> float:
        return Point(xy).distance(Point(self.pos[other])) - self.radius[m] - self.radius[other]

    def unit_dist(self, m: str, xy, unit: str) -> float:
        return min(max(0.0, self.gap(m, xy, e)) for e in self.enemies
                   if e.rsplit("/", 1)[0] == unit)

    def clear(self, m: str, start, c) -> bool:
        """The straight move start -> c passes through no other base and ends on the table."""
        r = self.radius[m]
        if not (r <= c[0] <= self.state.table.width - r and r <= c[1] <= self.state.table.depth - r):
            return False
        line = LineString([start, c])
        return all(line.distance(Point(self.pos[o])) - r - self.radius[o] >= -self.tol
                   for o in self.pos if o != m)

    def checks(self) -> int:
        """Candidate-against-base checks a full run makes (at most)."""
        n_cand = len(candidates((0.0, 0.0), self.max_distance, self.grid))
        return len(self.order) * n_cand * (len(self.pos) - 1)

    def _score(self, m: str, start, d0: float, c):
        """The key of candidate ``c`` for model ``m``, or None when it breaks a clause."""
        if not self.clear(m, start, c):
            return None
        d = self.unit_dist(m, c, self.target[m])
        if not tolmod.closer(d, d0, self.tol):
            return None
        if any(self.unit_dist(m, c, u) > self.er + self.tol for u in self.started[m]):
            return None
        return (tolmod.within(d, self.er, self.tol), tolmod.in_contact(d, self.tol), -d)

    def run_plain(self) -> tuple[dict, dict]:
        """``run`` one candidate and one base at a time with Shapely."""
        paths = {}
        for m in self.order:
            start = self.pos[m]
            d0 = self.unit_dist(m, start, self.target[m])
            best, best_key = None, None
            for c in candidates(start, self.max_distance, self.grid):
                key = self._score(m, start, d0, c)
                if key is not None and (best_key is None or key > best_key):
                    best, best_key = c, key
            if best is not None:
                paths[m] = [start, best]
                self.pos[m] = best
        return {m: p[-1] for m, p in paths.items()}, paths

    def run(self) -> tuple[dict, dict]:
        """Move every model; ({model: end}, {model: [start, end]}).

        Each mover's candidates are scored against every other base on the
        table at once (``BLOCK`` candidates a time): the straight move's closest
        approach to each base's centre less the two radii, at least ``-tol``;
        the end on the table; the distance to its target unit (and to every unit
        it started engaged with) as centre distance less radii.  The best key
        (engaged, base contact, nearest), ties to the first candidate, as in
        ``run_plain``."""
        ids = list(self.pos)
        rad = np.array([self.radius[m] for m in ids])
        paths = {}
        w, d = self.state.table.width, self.state.table.depth
        for m in self.order:
            start = self.pos[m]
            xy = np.array([self.pos[o] for o in ids], dtype=float)
            others = np.array([o != m for o in ids])
            cxy, crad = xy[others], rad[others]
            r = self.radius[m]
            cands = np.array(candidates(start, self.max_distance, self.grid), dtype=float)
            d0 = self.unit_dist(m, start, self.target[m])
            best, best_key = None, None
            for lo in range(0, len(cands), BLOCK):
                c = cands[lo:lo + BLOCK]
                ok = (c[:, 0] >= r) & (c[:, 0] <= w - r) & (c[:, 1] >= r) & (c[:, 1] <= d - r)
                ok &= self._clear_block(start, c, cxy, crad + r)
                dist = self._unit_block(m, c, self.target[m])
                ok &= np.array([tolmod.closer(v, d0, self.tol) for v in dist], dtype=bool)
                for u in self.started[m]:
                    ok &= self._unit_block(m, c, u) <= self.er + self.tol
                for k in np.nonzero(ok)[0].tolist():
                    v = float(dist[k])
                    key = (tolmod.within(v, self.er, self.tol), tolmod.in_contact(v, self.tol), -v)
                    if best_key is None or key > best_key:
                        best, best_key = (float(c[k, 0]), float(c[k, 1])), key
            if best is not None:
                paths[m] = [start, best]
                self.pos[m] = best
        return {m: p[-1] for m, p in paths.items()}, paths

    def _clear_block(self, start, c: np.ndarray, cxy: np.ndarray, reach: np.ndarray) -> np.ndarray:
        """For each candidate: the straight move from ``start`` passes no base's centre
        closer than its radius plus the mover's (``reach``), less the tolerance."""
        sx, sy = start
        dx, dy = c[:, 0] - sx, c[:, 1] - sy
        ll = dx * dx + dy * dy
        px = cxy[None, :, 0] - sx
        py = cxy[None, :, 1] - sy
        t = np.clip((px * dx[:, None] + py * dy[:, None]) / np.where(ll > 0, ll, 1.0)[:, None],
                    0.0, 1.0)
        gap = np.hypot(px - t * dx[:, None], py - t * dy[:, None]) - reach[None, :]
        return (gap >= -self.tol).all(axis=1)

    def _unit_block(self, m: str, c: np.ndarray, unit: str) -> np.ndarray:
        """Distance (>= 0) from ``m`` at each candidate to the closest model of ``unit``."""
        es = [e for e in self.enemies if e.rsplit("/", 1)[0] == unit]
        exy = np.array([self.pos[e] for e in es], dtype=float)
        er = np.array([self.radius[e] for e in es])
        g = np.hypot(c[:, None, 0] - exy[None, :, 0], c[:, None, 1] - exy[None, :, 1]) \
            - self.radius[m] - er[None, :]
        return np.maximum(0.0, g).min(axis=1)
