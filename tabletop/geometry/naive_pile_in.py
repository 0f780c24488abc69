"""The naive baseline for the pile-in solver (fight-phase.txt 12.03): a grid search.

Each model that may move (not in base contact with an enemy), nearest its
closest target first, goes to the best point of a square grid (``grid``
inches apart) within the maximum distance of its start, by a straight path:
every candidate is tested against every other base on the table with plain
Shapely calls, one at a time (no spatial index, no vectorising, no pymunk, no
path round obstacles, no coherency repair).  Best: engaged with its closest
target, then in base contact, then nearest.  The benchmark times the solver
against it (``tabletop bench --only pile-in``).  Inches, round bases only.
"""

from __future__ import annotations

import math
import time

from shapely.geometry import LineString, Point

from tabletop.board.state import Battlefield
from tabletop.geometry import tolerance as tolmod
from tabletop.geometry.snapshot import Geometry


def candidates(start: tuple[float, float], max_distance: float, grid: float) -> list:
    """Grid points within ``max_distance`` of ``start`` (the start itself left out)."""
    n = int(max_distance / grid + 1e-9)
    r2 = (max_distance / grid) ** 2 + 1e-9
    return [(start[0] + i * grid, start[1] + j * grid)
            for i in range(-n, n + 1) for j in range(-n, n + 1) if 0 < i * i + j * j <= r2]


class NaivePileIn:
    """The grid search for one unit's pile-in; ``run()`` moves every model,
    ``time_per_check(k)`` times ``k`` candidate-against-base checks only."""

    def __init__(self, state: Battlefield, geo: Geometry, unit: str, targets, max_distance: float,
                 grid: float):
        self.state, self.grid, self.max_distance = state, grid, max_distance
        self.tol = state.rules.tol
        self.er = state.rules.engagement_range
        self.pos = {m.id: m.at for m in state.models()}
        self.radius = {m.id: m.base.radius for m in state.models()}
        mine = geo.unit_models(unit)
        self.enemies = [m.id for m in state.models() if m.unit_id in targets]
        fixed = {m for m in mine if geo.contacts_of(m)}
        self.started = {m: {e.rsplit("/", 1)[0] for e in geo.engaged_models(m)} for m in mine}
        self.target = {m: min(targets, key=lambda u, m=m: self.unit_dist(m, self.pos[m], u))
                       for m in mine}
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

    def sampled_seconds(self, sample_checks: int) -> float:
        """The time a full run would take, extrapolated: every mover scores an evenly
        spread sample of its candidates (about ``sample_checks`` checks in all, the
        models left where they stand) and the time is scaled to all candidates."""
        every = max(1, math.ceil(self.checks() / sample_checks))
        done = total = 0
        t0 = time.perf_counter()
        for i, m in enumerate(self.order):
            start = self.pos[m]
            cands = candidates(start, self.max_distance, self.grid)
            total += len(cands)
            d0 = self.unit_dist(m, start, self.target[m])
            for c in cands[(i * 7919) % min(every, len(cands))::every]:
                self._score(m, start, d0, c)
                done += 1
        return (time.perf_counter() - t0) * total / max(1, done)

    def run(self) -> tuple[dict, dict]:
        """Move every model; ({model: end}, {model: [start, end]})."""
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
