"""Benchmark: the pile-in solver (fight-phase.txt 12.03) for a 20-model unit against a
20-model unit, beside a naive baseline, with the ratio (issue 3 item 9).

    python tests/bench/bench_pile_in.py [--repeat N] [--grid INCHES]

Layout (11th preset, 32mm bases 1.25984" across, 0.2" between bases in a rank):
red in 4 ranks of 5 facing blue's 4 ranks of 5 across a 1.5" gap, blue shifted
half a base sideways, so red's front rank is engaged (1.5 <= 2") and the rear
ranks must find their way round the front.

The naive baseline moves the same models in the same order, each to the best
point of a square grid (``--grid`` inches apart) within 3" of its start, by a
straight path, testing every candidate against every other base with plain
Shapely calls one at a time (no STRtree, no vectorising, no pymunk, no coherency
repair).  Both results are checked by the validator, and both are timed in
this run; the ratio is baseline time / solver time.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

from shapely.geometry import LineString, Point

from tabletop.board.mapfile import from_dict
from tabletop.geometry import snapshot
from tabletop.geometry import tolerance as tolmod
from tabletop.geometry.moves import (
    PILE_IN_RULE,
    MoveSpec,
    pile_in_targets,
    solve_move,
    validate_move,
)

D = 32 / 25.4
R = D / 2


def layout(models: int = 20, files: int = 5, gap: float = 1.5):
    """Red and blue blocks of ``models`` 32mm bases, ``files`` wide, ``gap`` apart."""
    step = D + 0.2

    def block(x0, y0, dy):
        return [[x0 + (k % files) * step, y0 + (k // files) * dy] for k in range(models)]

    return from_dict({
        "map": {"name": "bench 20 v 20", "ruleset": "fight-phase", "width": 44, "depth": 44},
        "players": [{"id": "red", "active": True}, {"id": "blue"}],
        "units": [
            {"id": "r", "player": "red", "base": "32mm", "models": block(15.0, 20.0, -step)},
            {"id": "b", "player": "blue", "base": "32mm",
             "models": block(15.0 + step / 2, 20.0 + D + gap, step)},
        ],
    })


def naive_pile_in(state, geo, spec, grid: float):
    """Grid search per model with plain Shapely checks; returns (positions, paths)."""
    tol = state.rules.tol
    er = state.rules.engagement_range
    pos = {m.id: m.at for m in state.models()}
    mine = geo.unit_models(spec.unit)
    enemies = [m.id for m in state.models() if m.unit_id in spec.targets]
    fixed = {m for m in mine if geo.contacts_of(m)}
    started = {m: {e.rsplit("/", 1)[0] for e in geo.engaged_models(m)} for m in mine}

    def gap(a_xy, b_id):
        return Point(a_xy).distance(Point(pos[b_id])) - R - R

    def unit_dist(xy, unit):
        return min(max(0.0, gap(xy, e)) for e in enemies if e.rsplit("/", 1)[0] == unit)

    target = {m: min(spec.targets, key=lambda u, m=m: unit_dist(pos[m], u)) for m in mine}
    order = sorted((m for m in mine if m not in fixed), key=lambda m: unit_dist(pos[m], target[m]))
    n = int(spec.max_distance / grid)
    paths = {}
    for m in order:
        sx, sy = pos[m]
        d0 = unit_dist((sx, sy), target[m])
        best, best_key = None, None
        for i in range(-n, n + 1):
            for j in range(-n, n + 1):
                c = (sx + i * grid, sy + j * grid)
                if math.hypot(i * grid, j * grid) > spec.max_distance or (i == 0 and j == 0):
                    continue
                if not (R <= c[0] <= state.table.width - R and R <= c[1] <= state.table.depth - R):
                    continue
                line = LineString([(sx, sy), c])
                if any(line.distance(Point(pos[o])) - 2 * R < -tol for o in pos if o != m):
                    continue
                d = unit_dist(c, target[m])
                if not tolmod.closer(d, d0, tol):
                    continue
                if any(unit_dist(c, u) > er + tol for u in started[m]):
                    continue
                key = (tolmod.within(d, er, tol), tolmod.in_contact(d, tol), -d)
                if best_key is None or key > best_key:
                    best, best_key = c, key
        if best is not None:
            paths[m] = [(sx, sy), best]
            pos[m] = best
    return {m: p[-1] for m, p in paths.items()}, paths


def engaged_count(state, positions, unit):
    after = snapshot(state.with_positions(positions))
    return sum(1 for m in after.unit_models(unit) if after.model_engaged(m))


def timed(fn, repeat):
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def main(argv=None) -> float:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--grid", type=float, default=0.1, help="baseline grid spacing, inches")
    args = ap.parse_args(argv)
    state = layout()
    geo = snapshot(state)
    targets, _ = pile_in_targets(state, geo, "r")
    spec = MoveSpec("pile_in", "r", tuple(targets), state.rules.pile_in_distance, PILE_IN_RULE)

    t_solver, plan = timed(lambda: solve_move(state, geo, spec), args.repeat)
    t_naive, (n_pos, n_paths) = timed(lambda: naive_pile_in(state, geo, spec, args.grid), 1)
    naive_broken = validate_move(state, geo, spec, n_pos, n_paths)

    print("pile-in, 20 x 32mm against 20 x 32mm (fight-phase.txt 12.03)")
    print(f"  solver (pymunk + Shapely): {t_solver * 1000:8.1f} ms (median of {args.repeat}); "
          f"moved {len(plan.positions)}, engaged {engaged_count(state, plan.positions, 'r')}/20, "
          f"violations {len(plan.violations)}")
    print(f"  naive grid {args.grid:g}\" search:    {t_naive * 1000:8.1f} ms; "
          f"moved {len(n_pos)}, engaged {engaged_count(state, n_pos, 'r')}/20, "
          f"violations {len(naive_broken)}")
    for v in naive_broken[:5]:
        print(f"    naive: {v.message}")
    ratio = t_naive / t_solver
    print(f"  ratio naive / solver: {ratio:.1f}x")
    return ratio


if __name__ == "__main__":
    main()
