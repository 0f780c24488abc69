"""Benchmark ``pile-in``: the pile-in solver (fight-phase.txt 12.03) for a unit of 20
against a unit of 20, beside the naive grid search
(``tabletop.geometry.naive_pile_in``) moving the same models in the same run.

Each size is the number of models on the table: the fight is 20 a side (half
the models a side below 40, at least 1), in its own strip at the right of the
table; the other models are bystander units (``bench.layout.random_battlefield``).  The fight, 11th
preset, 32mm bases 0.2" apart in ranks of 5: red's front rank 1.5" from
blue's (engaged), blue shifted half a base sideways, so the rear ranks must
find their way round the front.

The naive search tests every candidate against every base on the table.
While that is at most ``NAIVE_FULL_MAX_CHECKS`` checks it runs in full and
its move is checked by the validator; above, it times ``NAIVE_SAMPLE_CHECKS``
checks and extrapolates to all of them, and the output says so.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from tabletop.bench import Benchmark
from tabletop.bench.layout import random_battlefield
from tabletop.board.bases import parse_base
from tabletop.board.config import make_config
from tabletop.board.state import Battlefield, Model, Player, Table, Unit
from tabletop.geometry import snapshot
from tabletop.geometry.moves import (
    PILE_IN_RULE,
    MoveSpec,
    pile_in_targets,
    solve_move,
    validate_move,
)
from tabletop.geometry.naive_pile_in import NaivePileIn

FIGHT_SIDE = 20
FILES = 5
SPACING = 0.2                 # inches between bases in a rank
FRONT_GAP = 1.5               # inches between the two front ranks
STRIP_GAP = 7.0               # inches from the bystanders' cells to the fight's first file
                              # (over 5" edge to edge: no bystander is a pile-in target)
NAIVE_GRID = 0.1              # inches between the naive search's candidates
NAIVE_FULL_MAX_CHECKS = 100_000
NAIVE_SAMPLE_CHECKS = 20_000
SOLVER_REPEATS = 3            # median of, while one solve takes under a second
RED, BLUE = "pile-in-red", "pile-in-blue"


def fight_side(n_models: int) -> int:
    """Models a side in the fight for ``n_models`` on the table."""
    return max(1, min(FIGHT_SIDE, n_models // 2))


def pile_in_battlefield(n_models: int, seed: int = 0) -> Battlefield:
    """The fight (``fight_side`` a side) beside bystanders, ``n_models`` in all."""
    k = fight_side(n_models)
    rest = n_models - 2 * k
    others = random_battlefield(rest, seed) if rest > 0 else None
    base = parse_base("32mm")
    step = base.radius * 2 + SPACING
    x0 = (others.table.width if others else 0.0) + STRIP_GAP
    ranks = -(-k // FILES)
    y_front = 4.0 + ranks * step
    depth = max(others.table.depth if others else 0.0, y_front + FRONT_GAP + ranks * step + 4.0)

    def block(uid, player, x, y, dy):
        models = tuple(Model(id=f"{uid}/{i + 1}", x=x + (i % FILES) * step,
                             y=y + (i // FILES) * dy, facing_deg=90.0, base=base)
                       for i in range(k))
        return Unit(id=uid, player=player, base=base, models=models)

    red = block(RED, "red", x0, y_front, -step)
    blue = block(BLUE, "blue", x0 + step / 2, y_front + 2 * base.radius + FRONT_GAP, step)
    return Battlefield(
        name=f"benchmark: pile-in {k} v {k} among {n_models} models",
        table=Table(x0 + FILES * step + 4.0, depth), rules=make_config("fight-phase"),
        units=(*(others.units if others else ()), red, blue),
        players=(Player("red", active=True), Player("blue")))


def _engaged(state, positions) -> int:
    after = snapshot(state.with_positions(positions))
    return sum(1 for m in after.unit_models(RED) if after.model_engaged(m))


def run(sizes: list[int], seed: int, out: Callable[[str], None]) -> list[dict[str, Any]]:
    """Time the solver and the naive grid search for each model count; print a table."""
    out(f"pile-in: solve_move for a unit of {FIGHT_SIDE} against {FIGHT_SIDE} (fight-phase.txt "
        f"12.03) vs. naive {NAIVE_GRID:g}\" grid search, plain shapely checks")
    out(f"{'models':>7} {'fight':>7} {'solver s':>9} {'naive s':>10} {'ratio':>8} "
        f"{'engaged':>8} {'naive':>6}  naive measured on / checks")
    rows = []
    for n in sizes:
        state = pile_in_battlefield(n, seed)
        geo = snapshot(state)
        targets, _ = pile_in_targets(state, geo, RED)
        spec = MoveSpec("pile_in", RED, tuple(targets), state.rules.pile_in_distance,
                        PILE_IN_RULE)
        times, plan = [], None
        while len(times) < SOLVER_REPEATS and (not times or times[0] < 1.0):
            t0 = time.perf_counter()
            plan = solve_move(state, geo, spec)
            times.append(time.perf_counter() - t0)
        solver_s = sorted(times)[len(times) // 2]
        naive = NaivePileIn(state, geo, RED, spec.targets, spec.max_distance, NAIVE_GRID)
        checks = naive.checks()
        naive_engaged = naive_legal = None
        if checks <= NAIVE_FULL_MAX_CHECKS:
            t0 = time.perf_counter()
            n_pos, n_paths = naive.run()
            naive_s = time.perf_counter() - t0
            how = f"all, {checks:,} checks at most"
            naive_engaged = _engaged(state, n_pos)
            naive_legal = not validate_move(state, geo, spec, n_pos, n_paths)
        else:
            naive_s = naive.sampled_seconds(NAIVE_SAMPLE_CHECKS)
            how = f"about {NAIVE_SAMPLE_CHECKS:,} of {checks:,} checks, extrapolated"
        extrapolated = naive_engaged is None
        ratio = naive_s / solver_s
        tilde = "~" if extrapolated else ""
        k = fight_side(n)
        engaged = _engaged(state, plan.positions)
        naive_col = "-" if extrapolated else f"{naive_engaged}"
        out(f"{n:>7} {f'{k}v{k}':>7} {solver_s:>9.3f} {tilde + format(naive_s, '.2f'):>10} "
            f"{tilde + format(ratio, '.0f') + 'x':>8} {f'{engaged}/{k}':>8} {naive_col:>6}  {how}"
            + ("" if naive_legal in (None, True) else "; naive move ILLEGAL"))
        rows.append({"benchmark": "pile-in", "models": n, "fight_side": k,
                     "solver_s": solver_s, "naive_s": naive_s,
                     "naive_extrapolated": extrapolated, "naive_measured_on": how,
                     "ratio": ratio, "engaged": engaged, "naive_engaged": naive_engaged,
                     "violations": len(plan.violations), "naive_legal": naive_legal})
    if any(r["naive_extrapolated"] for r in rows):
        out("~ naive time extrapolated: each model scores an even sample of its candidates, "
            "the time scaled to all of them")
    out("ratio = naive s / solver s (median of up to 3); engaged = red models engaged after "
        "the move (naive: when run in full)")
    return rows


BENCHMARK = Benchmark("pile-in", "pile-in solver (20 v 20) vs. naive grid search", run)
